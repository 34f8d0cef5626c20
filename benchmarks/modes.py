"""Benchmark modes: each is a set of config overrides on top of the user's configuration."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from finqa.agents.errors import FinqaError

__all__ = ["MODES", "DEFAULT_MODES", "parse_modes"]

# Mode name -> config overrides (dotted keys).
MODES: dict[str, dict[str, Any]] = {
    "single-pass": {"orchestrator.budget": 0},
    "self-improving": {},
    "no-prompt-escalation": {"orchestrator.prompt_escalation": False},
    "no-retrieval-escalation": {"orchestrator.retrieval_escalation": False},
    "no-deterministic-verify": {"judge.deterministic_verify": False},
    "budget-1": {"orchestrator.budget": 1},
}
DEFAULT_MODES = ("single-pass", "self-improving")


def parse_modes(values: Sequence[str] | None) -> list[str]:
    """`--mode a --mode b,c` -> ['a', 'b', 'c'] in order, validated; 'all' = every mode."""
    out: list[str] = []
    for value in values or [",".join(DEFAULT_MODES)]:
        for name in (v.strip() for v in value.split(",")):
            if not name:
                continue
            for n in list(MODES) if name == "all" else [name]:
                if n not in MODES:
                    raise FinqaError(f"unknown mode {n!r}; choose from {', '.join(MODES)} or all")
                if n not in out:
                    out.append(n)
    return out
