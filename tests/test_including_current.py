"""'Long-term debt, including the portion due within one year' asks the whole of the debt: the
balance sheet's long-term line leaves the portion due within a year out by the catalogue's own
definition (its `read: exclude` keys), so the long-term line alone is refused (issue #25: part
for the whole), however the question spells the current side."""

from __future__ import annotations

import pytest
from _reasoning_data import evidence
from finqa.agents.config import Settings
from finqa.agents.judge import JudgeAgent
from finqa.agents.reasoning import build_reasoner

BALANCE = """ACME INC.
CONSOLIDATED BALANCE SHEETS
(amounts in millions)
December 31, 2022 December 31, 2021
Cash and cash equivalents $ 310 $ 290
Total current assets 1,430 1,400
Short-term borrowings 500 372
Long-term debt due within one year 3,975 4,191
Total current liabilities 9,000 8,800
Long-term debt 38,120 34,649
Total liabilities 70,000 69,000
"""


def _verdict(question: str) -> tuple[str, str]:
    settings = Settings()
    ev = evidence(BALANCE, question=question)
    answer = build_reasoner(settings).generate(question, ev, 1)
    return answer.text, JudgeAgent(settings).evaluate(question, answer, ev, 1).decision


@pytest.mark.parametrize(
    "question",
    [
        "What was Acme's total long-term debt, including the portion due within one year, as of "
        "December 31, 2022?",
        "What was Acme's long-term debt, including the current portion, as of December 31, 2022?",
    ],
)
def test_long_term_line_alone_is_not_accepted(question: str) -> None:
    text, decision = _verdict(question)
    assert "$38,120 million" in text  # the reasoner's reading: the long-term line
    assert decision != "accept"


def test_the_long_term_line_answers_long_term_debt() -> None:
    text, decision = _verdict("What was Acme's long-term debt as of December 31, 2022?")
    assert "$38,120 million" in text
    assert decision == "accept"
