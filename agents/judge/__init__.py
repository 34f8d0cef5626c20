"""The Judge agent: blind scoring of an answer (grounding, completeness, numeric faithfulness),
utility vs the attempt's threshold, and a diagnosis with feedback on every rejection.

Besides `JudgeAgent`, the helpers the judge's own evaluation (`finqa.benchmarks.judge_eval`) builds
its cases with: which table column or row a number sits in (the lexicon's statement reader,
`finqa.lexicon.statements.located`), and how two figures are matched.
Each is imported on first use, so `finqa judge --help` (and `finqa --help`) do not load the judge.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from finqa.agents.judge._lex import magnitude_close, year_mentions
    from finqa.agents.judge._match import match as figures_match
    from finqa.agents.judge.agent import JudgeAgent
    from finqa.lexicon.statements.located import column_period, row_cells, row_label

__all__ = [
    "JudgeAgent",
    "column_period",
    "figures_match",
    "magnitude_close",
    "row_cells",
    "row_label",
    "year_mentions",
]

_WHERE = {
    "JudgeAgent": ("finqa.agents.judge.agent", "JudgeAgent"),
    "column_period": ("finqa.lexicon.statements.located", "column_period"),
    "row_cells": ("finqa.lexicon.statements.located", "row_cells"),
    "row_label": ("finqa.lexicon.statements.located", "row_label"),
    "figures_match": ("finqa.agents.judge._match", "match"),
    "magnitude_close": ("finqa.agents.judge._lex", "magnitude_close"),
    "year_mentions": ("finqa.agents.judge._lex", "year_mentions"),
}


def __getattr__(name: str) -> Any:
    if name in _WHERE:
        import importlib

        module, attr = _WHERE[name]
        return getattr(importlib.import_module(module), attr)
    raise AttributeError(f"module 'finqa.agents.judge' has no attribute {name!r}")
