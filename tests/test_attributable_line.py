"""The amount of net income attributable to the company's shareholders is the line so captioned
where the filer prints one; a filer without noncontrolling interests prints it as its one
'Net income' line (issue #25: part for the whole). The judge accepts either reading only where
the statement bears it out: consolidated net income is refused where the attributable line is
printed beside it."""

from __future__ import annotations

import pytest
from _reasoning_data import INCOME_WITH_TAX, answered, evidence
from finqa.agents.config import Settings
from finqa.agents.judge import JudgeAgent
from finqa.agents.judge._question import metric_words, prints_line
from finqa.agents.types import Answer

ONE_LINE = INCOME_WITH_TAX

WITH_MINORITY = (
    INCOME_WITH_TAX
    + """Less: Net income attributable to noncontrolling interests 20 15 10
Net income attributable to Acme 280 275 220
"""
)

Q = "What was Acme's net income attributable to shareholders in 2022?"


@pytest.fixture(scope="module")
def judge() -> JudgeAgent:
    return JudgeAgent(Settings())


def test_one_net_income_line_is_the_company_share() -> None:
    """No noncontrolling interests: 'Net income' is the amount attributable, and the judge
    accepts it (it used to refuse it as 'the calculation is net income')."""
    answer, verdict = answered(Q, ONE_LINE)
    assert "$300 million" in answer.text
    assert verdict.decision == "accept", verdict.details["answer_problems"]


def test_the_attributable_line_is_accepted_where_printed() -> None:
    answer, verdict = answered(Q, WITH_MINORITY)
    assert "$280 million" in answer.text
    assert verdict.decision == "accept", verdict.details["answer_problems"]


def test_consolidated_line_refused_beside_the_attributable_one(judge: JudgeAgent) -> None:
    """The same reading (the 'Net income' row) over a statement that prints the attributable
    line: another line, refused with the row named."""
    answer, _ = answered(Q, ONE_LINE)
    verdict = judge.evaluate(Q, answer, evidence(WITH_MINORITY, question=Q), 1)
    assert verdict.decision != "accept"
    numbers = verdict.details["numbers"]
    assert numbers and all(n["status"] == "calc_other_metric" for n in numbers)
    assert "'Net income'" in numbers[0]["detail"]


def test_bare_figure_needs_the_printed_line(judge: JudgeAgent) -> None:
    """A bare figure is read by its row: 'Net income' alone is on topic only where no
    attributable line is printed."""
    bare = Answer(text="Acme's 2022 net income attributable to shareholders was $300 million.")
    accepted = judge.evaluate(Q, bare, evidence(ONE_LINE, question=Q), 1)
    refused = judge.evaluate(Q, bare, evidence(WITH_MINORITY, question=Q), 1)
    assert accepted.decision == "accept", accepted.details["answer_problems"]
    assert refused.decision != "accept"


def test_printed_line_is_read_by_its_words() -> None:
    own = metric_words("net_income_attributable")
    assert prints_line("Net income attributable to Acme 280 275 220", own)
    assert prints_line("Netincomeattributable to Acme 280", own)  # PDF text glues words
    assert not prints_line(ONE_LINE, own)
