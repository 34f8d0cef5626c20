"""A question of two figure parts is answered by a figure for each: an answer that gives one
figure and repeats it ('total net sales, and how much dual-credit sales were eliminated?'
answered with net sales alone) leaves the second part unanswered, whatever words the repeated
figure's sentence shares with it (issue #25: the judge's own check of every part)."""

from __future__ import annotations

from _reasoning_data import evidence
from finqa.agents.config import Settings
from finqa.agents.judge import JudgeAgent
from finqa.agents.types import Answer

Q = (
    "What were Acme's total company net sales in 2019, and how much 'dual credit' sales had to "
    "be eliminated to reconcile the business segments' sales to that total?"
)
PAGE = """ACME INC.
CONSOLIDATED STATEMENT OF INCOME
(Millions)
2019 2018 2017
Net sales $ 32,136 $ 32,765 $ 31,657
Operating income 6,174 7,207 7,692
Elimination of dual credit sales (1,703) (1,609) (1,550)
"""


def _facets(text: str) -> tuple[str, list[tuple[bool, str]]]:
    verdict = JudgeAgent(Settings()).evaluate(Q, Answer(text=text), evidence(PAGE, question=Q), 1)
    return verdict.decision, [(f["addressed"], f["how"]) for f in verdict.details["facets"]]


def test_one_figure_repeated_does_not_answer_two_parts() -> None:
    decision, facets = _facets(
        "FY2019 revenue: $32,136 million [S1]. Read from the line 'Net sales $ 32,136 $ 32,765 "
        "$ 31,657' [S1] (amounts in USD millions). Answer: $32,136 million."
    )
    assert decision != "accept"
    assert facets[1] == (False, "1 distinct figure(s) for 2 figure parts")


def test_a_figure_for_each_part_is_accepted() -> None:
    decision, facets = _facets(
        "FY2019 net sales: $32,136 million [S1]. Dual credit sales eliminated: $1,703 million [S1]."
    )
    assert decision == "accept"
    assert all(addressed for addressed, _how in facets)
