"""'Was the income tax line an expense or a benefit?' asks which side of the line the year's
figure is on (issue #25: sign). Where the filer's caption names one side ('Provision for income
taxes'), the side is the item's signed figure; the reasoner states it, alone or as a part of a
two-part question ('What was the effective tax rate, and was the tax line an expense or a
benefit?'), and the judge reads the side from its own statement model of the evidence, so an
answer that puts the figure on the other side is refused."""

from __future__ import annotations

import pytest
from _reasoning_data import INCOME_WITH_TAX, answered, evidence
from finqa.agents.config import Settings
from finqa.agents.judge import JudgeAgent
from finqa.agents.reasoning.offline.figure_parts import part_questions
from finqa.agents.types import Answer
from finqa.lexicon.sides import signed_side

EXPENSE = INCOME_WITH_TAX

# a tax benefit on a pre-tax profit, under a caption naming one side
BENEFIT = INCOME_WITH_TAX.replace(
    "Provision for income taxes 100", "Provision for income taxes (50)"
).replace("Net income 300", "Net income 450")

SIDE = "Was Acme's income tax line an expense or a benefit in 2022?"
TWO_PARTS = (
    "What was Acme's effective tax rate for 2022, and did the company record a tax provision "
    "or a tax benefit?"
)


def test_signed_side_follows_the_items_nature() -> None:
    assert signed_side("expense", 100.0) == ("expense", "an expense")
    assert signed_side("expense", -50.0) == ("income", "a benefit")
    assert signed_side("gain", -3.0) == ("expense", "a loss")
    assert signed_side("asset", 5.0) is None
    assert signed_side("expense", 0.0) is None


@pytest.mark.parametrize(
    ("page", "side"),
    [(EXPENSE, "an expense of $100 million"), (BENEFIT, "a benefit of $50 million")],
)
def test_one_sided_caption_answers_the_side(page: str, side: str) -> None:
    answer, verdict = answered(SIDE, page)
    assert side in answer.text
    assert verdict.decision == "accept", verdict.details["answer_problems"]


def test_the_side_part_is_asked_with_the_earlier_part_as_premise() -> None:
    subs = part_questions(TWO_PARTS)
    assert subs is not None and len(subs) == 2
    assert subs[1].startswith("Acme's effective tax rate for 2022.")


@pytest.mark.parametrize(
    ("page", "rate", "side"), [(EXPENSE, "25.0%", "an expense"), (BENEFIT, "-12.5%", "a benefit")]
)
def test_two_part_question_gets_both_parts(page: str, rate: str, side: str) -> None:
    """The rate and the side, each its own part; the judge accepts the pair (it used to refuse
    the rate alone: the side part left out)."""
    answer, verdict = answered(TWO_PARTS, page)
    assert rate in answer.text and side in answer.text
    assert verdict.decision == "accept", verdict.details["answer_problems"]


@pytest.mark.parametrize("question", [SIDE, TWO_PARTS])
def test_the_other_side_is_refused(question: str) -> None:
    """The same answer with the side turned: the judge's statement model reads an expense."""
    answer, _ = answered(question, EXPENSE)
    turned = answer.model_copy(
        update={"text": answer.text.replace("an expense of", "a benefit of")}
    )
    assert turned.text != answer.text
    verdict = JudgeAgent(Settings()).evaluate(
        question, turned, evidence(EXPENSE, question=question), 1
    )
    assert verdict.decision != "accept"
    codes = [p["code"] for p in verdict.details["answer_problems"]]
    assert "wrong_side" in codes


def test_an_option_quoted_from_the_filing_is_not_the_answers_choice() -> None:
    """'a net gain or a net cost?' answered 'Yes' with a quoted sentence that holds the word
    'gains': the answer names neither option in its own words."""
    q = "Was Acme's 'Interest and other, net' line a net gain or a net cost in 2019, and of what amount?"
    page = (
        "The gains and losses on our derivatives not designated as hedging instruments are "
        "recorded in interest and other, net, which are offset by the foreign currency gains "
        "and losses."
    )
    quoted = Answer(text=f'Yes. The filing states it: "{page}" [S1].')
    # finqa's own note on how it read the sentence names the question's words: no choice
    noted = Answer(
        text=f"{quoted.text} Read offline from this sentence, which covers what the question "
        "asks about (interest, other, net, line, gain, cost); finqa judged its wording."
    )
    for answer in (quoted, noted):
        verdict = JudgeAgent(Settings()).evaluate(q, answer, evidence(page, question=q), 1)
        assert verdict.decision != "accept"
    verdict = JudgeAgent(Settings()).evaluate(q, quoted, evidence(page, question=q), 1)
    assert verdict.decision != "accept"
    assert "either_or" in [p["code"] for p in verdict.details["answer_problems"]]


@pytest.mark.parametrize(
    ("question", "nature", "fits"),
    [
        ("Was Acme's income tax line an expense or a benefit in 2022?", "expense", True),
        ("Acme's tax rate for 2022. Did the company end the year with net income or a net loss?", "gain", True),
        # the sides of a line that adds to or takes from a result, not the result's own
        ("Was Acme's pension adjustment in 2022 a net income or a net expense to operating profit?", "gain", False),
    ],
)  # fmt: skip
def test_offered_sides_fit_the_item(question: str, nature: str, fits: bool) -> None:
    from finqa.lexicon.sides import offers_item_sides

    assert offers_item_sides(question, nature) is fits


def test_a_lines_net_income_or_net_expense_is_not_net_income() -> None:
    """'Was X a net income or a net expense to operating profit?' names X, a line of its own:
    net income's figure is no answer (it was given once, and accepted)."""
    q = (
        "Was Acme's pension adjustment in 2022 a net income or a net expense to consolidated "
        "operating profit, and what was the amount?"
    )
    answer, verdict = answered(q, EXPENSE)
    assert "$300 million" not in answer.text or verdict.decision != "accept"
