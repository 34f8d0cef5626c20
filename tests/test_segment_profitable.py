"""'Was the X segment profitable (at the Y level)?' (issue #25: a segment's figure, sign): Yes
for a profit and No for a loss by the sign of the part's own figure of the level asked
(operating income unless the question names another level), given with that figure; the
consolidated result never answers it. It used to abstain as 'more than one figure'."""

from __future__ import annotations

import pytest
from _reasoning_data import INCOME, evidence
from finqa.agents.config import Settings
from finqa.agents.judge import JudgeAgent
from finqa.agents.types import Answer
from finqa.lexicon.answer_form import asks_profitable
from finqa.lexicon.dimension_question import profit_level
from test_reasoning_segments import DOC, PROSE, SEGMENTS, ask

LOSS = SEGMENTS.replace("Foodservice 2,512 2,162 1,780", "Foodservice (150) 2,162 1,780").replace(
    "Total operating profit 11,512", "Total operating profit 8,850"
)
Q = "Was Acme's Foodservice segment profitable in 2022?"


@pytest.mark.parametrize(
    ("question", "asks"),
    [
        (Q, True),
        ("Its sales grew in 2022. Was the Foodservice segment profitable that year?", True),
        ("Was the Foodservice segment more profitable than Snacks in 2022?", False),
        ("Which segment was the most profitable in 2022?", False),
        ("What made the Foodservice segment profitable in 2022?", False),
    ],
)
def test_a_profit_verdict_is_asked(question: str, asks: bool) -> None:
    assert asks_profitable(question) is asks


@pytest.mark.parametrize(
    ("question", "level"),
    [
        (Q, "operating_income"),
        ("Was it profitable at the gross-profit level in 2022?", "gross_profit"),
        ("Was it profitable at the operating level in 2022?", "operating_income"),
        ("Was it profitable on a pre-tax basis in 2022?", "pretax_income"),
        # a level the catalogue does not name as a whole: none, never net income
        ("Was it profitable at the contribution-profit level in 2022?", None),
    ],
)
def test_the_level_of_the_profit(question: str, level: str | None) -> None:
    assert profit_level(question) == level


@pytest.mark.parametrize(
    ("page", "lead", "figure"),
    [(SEGMENTS, "Yes.", "$2,512 million"), (LOSS, "No.", "-$150 million (a loss)")],
)
def test_the_verdict_is_the_parts_own_sign(page: str, lead: str, figure: str) -> None:
    from finqa.lexicon.statements import MemoryStatementStore, read_pages

    a = ask(Q, (90, page))
    assert not a.abstained, a.text
    assert a.text.startswith(lead) and figure in a.text, a.text
    store = MemoryStatementStore(read_pages(DOC, [(50, INCOME), (90, page)]).tables)
    judge = JudgeAgent(Settings(), statements=store)
    ev = evidence(PROSE, page, doc=DOC, question=Q)
    assert judge.evaluate(Q, a, ev, 1).decision == "accept"
    # the verdict turned, or the consolidated figure given, is refused
    other = "No." if lead == "Yes." else "Yes."
    turned = a.text.replace(lead, other, 1).replace(f"Answer: {lead}", f"Answer: {other}")
    whole = a.text.replace(
        figure.split(" ")[0], "$11,512 million" if lead == "Yes." else "$8,850 million"
    )
    for wrong in (turned, whole):
        bad = Answer.model_validate({**a.model_dump(), "text": wrong})
        assert judge.evaluate(Q, bad, ev, 1).decision != "accept", wrong


@pytest.mark.parametrize(
    "more",
    [
        ", and what was its operating margin?",
        "? Give its operating income and say whether it improved versus 2021.",
        "? Give its operating income and operating margin.",
    ],
)
def test_more_than_the_verdict_is_not_answered_alone(more: str) -> None:
    """A verdict given alone would leave a part out (the judge does not read an instruction
    sentence's asks as parts)."""
    assert ask(f"{Q[:-1]}{more}", (90, SEGMENTS)).abstained


def test_the_verdicts_own_figure_asked_beside_it() -> None:
    a = ask(f"{Q} Give its operating income (loss).", (90, SEGMENTS))
    assert not a.abstained and a.text.startswith("Yes."), a.text
