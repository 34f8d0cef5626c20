"""finqa retrieval: ingestion, hybrid index (Chroma + BM25), routing, reranking, RSE.

Public API (see team CONTRACTS): `RetrievalAgent`, `open_index`, `ingest_paths`.
Heavy modules load lazily so `finqa --help` stays fast.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from finqa.agents.retrieval.agent import RetrievalAgent
    from finqa.agents.retrieval.ingest import IngestReport, ingest_paths
    from finqa.agents.retrieval.store import ChunkIndex, open_index

__all__ = ["RetrievalAgent", "open_index", "ingest_paths", "ChunkIndex", "IngestReport"]

_WHERE = {
    "RetrievalAgent": "finqa.agents.retrieval.agent",
    "open_index": "finqa.agents.retrieval.store",
    "ChunkIndex": "finqa.agents.retrieval.store",
    "ingest_paths": "finqa.agents.retrieval.ingest",
    "IngestReport": "finqa.agents.retrieval.ingest",
}


def __getattr__(name: str) -> Any:
    if name in _WHERE:
        import importlib

        return getattr(importlib.import_module(_WHERE[name]), name)
    raise AttributeError(f"module 'finqa.agents.retrieval' has no attribute {name!r}")
