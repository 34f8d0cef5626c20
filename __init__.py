"""finqa: auditable question answering over SEC filings.

The repository's top-level folders install as ``finqa.agents``, ``finqa.audit``,
``finqa.lexicon``, ``finqa.orchestrator`` and ``finqa.benchmarks``. The public API is
re-exported here lazily, so ``import finqa`` and ``finqa --help`` stay fast::

    from finqa import FinQA
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from finqa.orchestrator.api import FinQA
    from finqa.orchestrator.result import AttemptRecord, QAResult

__all__ = ["FinQA", "QAResult", "AttemptRecord"]

_WHERE = {
    "FinQA": "finqa.orchestrator.api",
    "QAResult": "finqa.orchestrator.result",
    "AttemptRecord": "finqa.orchestrator.result",
}


def __getattr__(name: str) -> Any:
    if name in _WHERE:
        import importlib

        return getattr(importlib.import_module(_WHERE[name]), name)
    raise AttributeError(f"module 'finqa' has no attribute {name!r}")
