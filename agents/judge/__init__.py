"""The Judge agent: blind scoring of an answer (grounding, completeness, numeric faithfulness),
utility vs the attempt's threshold, and a diagnosis with feedback on every rejection.

Besides `JudgeAgent`, the helpers the judge's own evaluation (`finqa.benchmarks.judge_eval`) builds
its cases with: which table column or row a number sits in, and how two figures are matched.
"""

from finqa.agents.judge._lex import magnitude_close, year_mentions
from finqa.agents.judge._match import match as figures_match
from finqa.agents.judge._tables import column_period, row_cells, row_label
from finqa.agents.judge.agent import JudgeAgent

__all__ = [
    "JudgeAgent",
    "column_period",
    "figures_match",
    "magnitude_close",
    "row_cells",
    "row_label",
    "year_mentions",
]
