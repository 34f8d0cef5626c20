"""One balance printed on both sides of the balance sheet under captions that name the side
('Current portion of operating lease liabilities' among the current liabilities, 'Operating
lease liabilities' among the long-term ones): asked with no side named ('total operating lease
liabilities'), the balance is the two lines summed, and one side alone is refused (issue #25:
part for whole; a blind set's Nike question was answered with the long-term line and
accepted)."""

from __future__ import annotations

import pytest
from _reasoning_data import evidence
from finqa.agents.config import Settings
from finqa.agents.judge import JudgeAgent
from finqa.agents.types import Answer
from finqa.lexicon.components import side_free

BALANCE = """ACME CORP
CONSOLIDATED BALANCE SHEETS
(in millions)
2022 2021
Current liabilities:
Accounts payable $ 3,358 $ 2,836
Current portion of operating lease liabilities 420 467
Accrued liabilities 6,220 6,063
Total current liabilities 10,730 9,674
Long-term debt 8,920 9,413
Operating lease liabilities 2,777 2,931
Deferred income taxes and other liabilities 2,613 2,955
Total liabilities 25,040 24,973
"""
Q = "What were Acme's total operating lease liabilities at the end of 2022?"


@pytest.mark.parametrize(
    "caption",
    [
        "Current portion of operating lease liabilities",
        "Operating lease liabilities",
        "Long-term operating lease liabilities",
        "Operating lease liabilities, non-current",
        "Operating lease liabilities, net of current portion",
    ],
)
def test_the_side_free_caption(caption: str) -> None:
    assert side_free(caption) == side_free("Operating lease liabilities")


def test_two_balances_the_catalogue_tells_apart_are_not_one() -> None:
    from finqa.lexicon.statements.catalogue import same_balance

    assert same_balance(
        "Current portion of operating lease liabilities", "Operating lease liabilities"
    )
    assert not same_balance("Short-term debt", "Long-term debt")
    assert not same_balance("Current portion of long-term debt", "Long-term debt")


def test_other_captions_keep_their_words() -> None:
    assert side_free("Other current liabilities") != side_free("Other liabilities")
    assert side_free("Accrued liabilities") != side_free("Operating lease liabilities")


def _answered(question: str) -> tuple[Answer, object]:
    """The reasoner's answer over the balance sheet read into a statement model, and the
    judge's verdict on it."""
    from finqa.agents.reasoning import build_reasoner
    from finqa.lexicon.statements import MemoryStatementStore, read_pages

    store = MemoryStatementStore(read_pages("ACME_2022_10K", [(40, BALANCE)]).tables)
    ev = evidence(BALANCE, question=question, doc="ACME_2022_10K")
    answer = build_reasoner(Settings(), statements=store).generate(question, ev, 1)
    return answer, JudgeAgent(Settings(), statements=store).evaluate(question, answer, ev, 1)


def test_the_balance_is_both_sides() -> None:
    answer, verdict = _answered(Q)
    assert "$3,197 million" in answer.text, answer.text
    assert "'Operating lease liabilities' and 'Current portion of operating lease" in answer.text
    assert verdict.decision == "accept", verdict.details["answer_problems"]  # type: ignore[attr-defined]


def test_one_side_is_refused_and_a_side_named_is_one() -> None:
    judge = JudgeAgent(Settings())
    one = Answer(text="Operating lease liabilities as of 2022: $2,777 million [S1].")
    verdict = judge.evaluate(Q, one, evidence(BALANCE, question=Q), 1)
    codes = [p["code"] for p in verdict.details["answer_problems"]]
    assert verdict.decision != "accept" and "named_line" in codes
    q = "What were Acme's long-term operating lease liabilities at the end of 2022?"
    answer, _ = _answered(q)
    assert "$2,777 million" in answer.text and "3,197" not in answer.text, answer.text


def test_a_one_sided_caption_does_not_contradict_the_whole() -> None:
    """The judge's route reads 'Operating lease liabilities, current' as the item; asked whole,
    that line is a part of the balance, not a second route's contradiction of the sum."""
    from finqa.agents.reasoning import build_reasoner
    from finqa.lexicon.statements import MemoryStatementStore, read_pages

    page = BALANCE.replace(
        "Current portion of operating lease liabilities 420 467",
        "Operating lease liabilities, current 420 467",
    ).replace(
        "Operating lease liabilities 2,777 2,931",
        "Operating lease liabilities, non-current 2,777 2,931",
    )
    store = MemoryStatementStore(read_pages("ACME_2022_10K", [(40, page)]).tables)
    ev = evidence(page, question=Q, doc="ACME_2022_10K")
    answer = build_reasoner(Settings(), statements=store).generate(Q, ev, 1)
    assert "$3,197 million" in answer.text, answer.text
    verdict = JudgeAgent(Settings(), statements=store).evaluate(Q, answer, ev, 1)
    assert verdict.decision == "accept", verdict.details["answer_problems"]


def test_a_ratio_over_a_quoted_line_is_not_that_line() -> None:
    """A premise quoting the tax line's caption, then a rate asked: the rate's answer names the
    rate, not every word of the caption."""
    from _reasoning_data import INCOME_WITH_TAX, answered

    q = (
        "Acme labels its tax line 'Provision (benefit) for income taxes'. What was Acme's "
        "effective tax rate in 2022?"
    )
    answer, verdict = answered(q, INCOME_WITH_TAX)
    assert "25.0%" in answer.text
    codes = [p["code"] for p in verdict.details["answer_problems"]]
    assert "line_named" not in codes and verdict.decision == "accept", codes
