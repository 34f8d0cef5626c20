"""The index's Chroma adapter: client (embedded or server), collection, metadata, HNSW query,
and the index's record of how it was built (`index.json`).

Fixes chromadb's sharp edges in one place: every failure to construct a client or open a
collection becomes one `IndexError_` line naming where; collections are created with cosine
space and no embedding function (chromadb would otherwise download a model), and queries always
pass `query_embeddings`.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from finqa.agents.config import Settings
from finqa.agents.errors import IndexError_
from finqa.agents.types import Chunk

__all__ = [
    "INDEX_VERSION",
    "chroma_client",
    "open_collection",
    "chroma_meta",
    "hnsw_search",
    "wanted_info",
    "check_info",
    "IDENTITY_KEYS",
    "identity_clash",
    "describe_identity",
]

INDEX_VERSION = 1


def chroma_client(settings: Settings, folder: Path) -> Any:
    """`chromadb.HttpClient` for `index.chroma_url`, else a PersistentClient in `folder/chroma`."""
    import chromadb
    from chromadb.config import Settings as ChromaSettings

    chroma_settings = ChromaSettings(anonymized_telemetry=False)
    url = settings.index.chroma_url
    if url:
        from urllib.parse import urlparse

        parsed = urlparse(url)
        try:
            return chromadb.HttpClient(
                host=parsed.hostname or "localhost",
                port=parsed.port or 8000,
                ssl=parsed.scheme == "https",
                settings=chroma_settings,
            )
        except Exception as exc:  # noqa: BLE001 - any client construction failure becomes one clear IndexError_
            raise IndexError_(
                f"cannot reach the Chroma server {url}: {str(exc).splitlines()[0][:160]}; "
                "start it or fix index.chroma_url"
            ) from None
    return chromadb.PersistentClient(path=str(folder / "chroma"), settings=chroma_settings)


def open_collection(client: Callable[[], Any], name: str, where: str) -> Any:
    """Open (or create) the named collection (cosine space, no embedding function)."""
    try:
        return client().get_or_create_collection(
            name=name, metadata={"hnsw:space": "cosine"}, embedding_function=None
        )
    except IndexError_:
        raise
    except Exception as exc:  # noqa: BLE001 - chromadb raises many types for a bad path or server; all become IndexError_
        raise IndexError_(
            f"cannot open Chroma at {where}: {str(exc).splitlines()[0][:160]}"
        ) from None


def chroma_meta(chunk: Chunk, header: str | None = None) -> dict[str, Any]:
    """A chunk's Chroma metadata (Chroma refuses None values, so they are left out)."""
    meta = {
        "doc_id": chunk.doc_id,
        "page": chunk.page,
        "page_end": chunk.page_end,
        "position": chunk.position,
        "section": chunk.section,
        "header": header,
        "company": chunk.company,
        "ticker": chunk.ticker,
        "doc_type": chunk.doc_type,
        "fiscal_year": chunk.fiscal_year,
        "period": chunk.period,
    }
    return {k: v for k, v in meta.items() if v is not None}


def hnsw_search(
    collection: Any, vector: Sequence[float], n: int, doc_ids: Sequence[str] | None
) -> list[tuple[str, float]]:
    """Top-n (chunk_id, cosine) by Chroma's HNSW, restricted to `doc_ids` when given.

    An empty collection answers an empty list (chromadb 1.x); its size is not asked first,
    because `count()` scans the collection (~50 ms at 200k vectors, per query)."""
    where: dict[str, Any] | None = None
    if doc_ids is not None:
        if not doc_ids:
            return []
        where = {"doc_id": doc_ids[0]} if len(doc_ids) == 1 else {"doc_id": {"$in": list(doc_ids)}}
    result = collection.query(
        query_embeddings=[list(vector)], n_results=n, where=where, include=["distances"]
    )
    if not result["ids"]:
        return []
    ids = result["ids"][0]
    distances = result["distances"][0]
    return [(i, 1.0 - float(d)) for i, d in zip(ids, distances, strict=True)]


def wanted_info(settings: Settings) -> dict[str, Any]:
    """The build record the config asks for (`embed_backend` None: the index's own)."""
    cfg = settings.index
    return {
        "version": INDEX_VERSION,
        "embedder": cfg.embedder,
        "embed_backend": cfg.embed_backend,
        "dense": cfg.dense,
        "chunk_tokens": cfg.chunk_tokens,
        "collection": cfg.collection,
    }


def check_info(folder: Path, settings: Settings, count_docs: Callable[[], int]) -> dict[str, Any]:
    """The index's record of how it was built (`index.json`), checked against the config.

    An index keeps its own embedder backend unless the config names one; a named backend
    or embedder other than the recorded one is refused while the index holds filings
    (vectors of two embedders never mix) and adopted by an empty index."""
    cfg = settings.index
    info_file = folder / "index.json"
    if not info_file.exists():
        wanted = {**wanted_info(settings), "embed_backend": cfg.backend_for()}
        info_file.write_text(json.dumps(wanted, indent=1), encoding="utf-8")
        return wanted
    info: dict[str, Any] = json.loads(info_file.read_text(encoding="utf-8"))
    info.setdefault("embed_backend", "torch")  # indexes from before the setting
    built = (info.get("embedder"), info["embed_backend"])
    wanted_pair = (cfg.embedder, cfg.backend_for(info["embed_backend"]))
    if built != wanted_pair and info.get("dense") == "all":
        if count_docs():
            raise IndexError_(
                f"index {folder} was built with embedder {built[0]!r} ({built[1]}), "
                f"config says {wanted_pair[0]!r} ({wanted_pair[1]}); use the same embedder, "
                "leave index.embed_backend unset to use the index's own, or a new --index folder"
            )
        info.update(embedder=wanted_pair[0], embed_backend=wanted_pair[1])
        info_file.write_text(json.dumps(info, indent=1), encoding="utf-8")
    return info


# What made an index's vectors (`SentenceEmbedder.identity`): backend, weights file, int8 config.
IDENTITY_KEYS = ("embed_backend", "embed_file", "embed_quant")


def identity_clash(recorded: Mapping[str, Any], identity: Mapping[str, Any]) -> list[str]:
    """The identity keys the index records with another value than this process's embedder
    (a key the index does not record yet, as in an index from before it was recorded, is no
    clash); empty when its vectors and this embedder's share one vector space."""
    return [
        k
        for k in IDENTITY_KEYS
        if k in identity and k in recorded and str(recorded[k]) != str(identity[k])
    ]


def describe_identity(info: Mapping[str, Any]) -> str:
    """'onnx-int8 (onnx/model_finqa_int8_avx2.onnx, int8 config avx2)' for messages."""
    parts = [str(info[k]) for k in ("embed_file",) if info.get(k)]
    if info.get("embed_quant"):
        parts.append(f"int8 config {info['embed_quant']}")
    extra = f" ({', '.join(parts)})" if parts else ""
    return f"{info.get('embed_backend', '?')}{extra}"
