"""The orchestrator: the self-correcting loop, the Python API and the CLI.

Everything is imported on first use (`finqa.orchestrator.FinQA`, `.Orchestrator`, ...), so
`import finqa.orchestrator` and `finqa --help` stay light.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from finqa.orchestrator.api import FinQA
    from finqa.orchestrator.loop import Orchestrator
    from finqa.orchestrator.result import AttemptRecord, QAResult

__all__ = ["FinQA", "Orchestrator", "QAResult", "AttemptRecord"]

_WHERE = {
    "FinQA": "finqa.orchestrator.api",
    "Orchestrator": "finqa.orchestrator.loop",
    "QAResult": "finqa.orchestrator.result",
    "AttemptRecord": "finqa.orchestrator.result",
}


def __getattr__(name: str) -> Any:
    if name in _WHERE:
        import importlib

        return getattr(importlib.import_module(_WHERE[name]), name)
    raise AttributeError(f"module 'finqa.orchestrator' has no attribute {name!r}")
