"""The orchestrator: the self-correcting loop, the Python API and the CLI.

`FinQA` (the Python API) is imported lazily so `import orchestrator` stays light.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from finqa.orchestrator.loop import Orchestrator
from finqa.orchestrator.result import AttemptRecord, QAResult

if TYPE_CHECKING:
    from finqa.orchestrator.api import FinQA

__all__ = ["FinQA", "Orchestrator", "QAResult", "AttemptRecord"]


def __getattr__(name: str) -> Any:
    if name == "FinQA":
        from finqa.orchestrator.api import FinQA

        return FinQA
    raise AttributeError(f"module 'orchestrator' has no attribute {name!r}")
