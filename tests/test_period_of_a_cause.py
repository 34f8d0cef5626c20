"""The period a figure and its cause are of (issue #25: basis not about the asked period; sign):
a cause of the movement into 2018 is a sentence of 2018, not the filing's sentence on 2017
against 2016 (for a filer whose fiscal years are calendar years); a line that went from an
expense to an income has no growth rate, so 'an income or an expense in 2018, ... the change
from 2017' is answered with each year's side, never a percentage across the sign."""

from __future__ import annotations

from _reasoning_data import evidence
from finqa.agents.config import Settings
from finqa.agents.judge import JudgeAgent
from finqa.agents.reasoning import build_reasoner
from finqa.agents.types import Answer
from finqa.lexicon.statements import MemoryStatementStore, read_pages

DOC = "VERIZON_2018_10K"
INCOME = """Consolidated Statements of Income Verizon Communications Inc. and Subsidiaries
(dollars in millions)
Years Ended December 31, 2018 2017 2016
Operating Revenues 130,863 126,034 125,980
Operating Income 22,278 27,425 27,059
Equity in losses of unconsolidated businesses (186) (77) (98)
Other income (expense), net 2,364 (2,021) (1,599)
Interest expense (4,833) (4,733) (4,376)
Income Before Benefit (Provision) For Income Taxes 19,623 20,594 21,000
"""
OLD_CAUSE = (
    "The change in Other income (expense), net during the year ended December 31, 2017, "
    "compared to the similar period in 2016, was primarily driven by a decrease in components "
    "of net periodic benefit cost."
)
NEW_CAUSE = (
    "The change in Other income (expense), net during 2018 compared to 2017 was primarily "
    "driven by pension and benefits credits."
)
Q = (
    "Was Verizon's 'Other income (expense), net' an income or an expense in 2018, how much was "
    "it, and what mainly drove the change from 2017?"
)


def _answer(question: str, *pages: str) -> Answer:
    store = MemoryStatementStore(read_pages(DOC, [(50, INCOME)]).tables)
    return build_reasoner(Settings(), statements=store).generate(
        question, evidence(INCOME, *pages, doc=DOC, question=question), 1
    )


def test_the_side_not_a_rate_across_the_sign() -> None:
    ans = _answer(Q, NEW_CAUSE)
    assert not ans.abstained, ans.text
    assert "net other income of $2,364 million" in ans.text and "217" not in ans.text


def test_a_rate_across_the_sign_is_no_growth() -> None:
    q = "By what percentage did Verizon's 'Other income (expense), net' grow in 2018?"
    ans = _answer(q)
    assert ans.abstained and "change of sign" in ans.text, ans.text


def test_the_cause_of_the_year_asked() -> None:
    assert "pension and benefits credits" in _answer(Q, OLD_CAUSE, NEW_CAUSE).text
    alone = _answer(Q, OLD_CAUSE)
    assert "net periodic benefit cost" not in alone.text, alone.text


def test_the_judge_refuses_the_other_years_cause() -> None:
    text = (
        "FY2018 Other income (expense), net: net other income of $2,364 million [S1]. What "
        f'drove the change, in the filing\'s words: "{OLD_CAUSE}" [S2]'
    )
    verdict = JudgeAgent(Settings()).evaluate(
        Q, Answer(text=text), evidence(INCOME, OLD_CAUSE, doc=DOC), 1
    )
    assert verdict.details["basis"]["outcome"] == "other_period", verdict.details["basis"]
