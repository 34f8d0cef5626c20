"""A part that sets its own period before its verb ('What was the effective tax rate for the
quarter ended April 30, 2023, and in the prior-year quarter ended April 30, 2022 was the tax
line a provision or a benefit?'): a yes/no part of its own (issue #25: two-part questions). It
used to be read as one figure question, and the rate came back for the second part's period
only, the first part's period dropped, and was accepted."""

from __future__ import annotations

import pytest
from _reasoning_data import INCOME_WITH_TAX, answered
from finqa.agents.reasoning.offline.figure_parts import part_questions
from finqa.lexicon.answer_form import is_yes_no
from finqa.lexicon.question_parts import question_parts

TWO_PERIODS = (
    "What was Acme's effective tax rate for 2022, and in the prior year 2021 was the income tax "
    "line an expense or a benefit?"
)


def test_the_period_first_part_is_its_own_yes_no() -> None:
    parts = question_parts(TWO_PERIODS).parts
    assert [p.form for p in parts] == ["figure", "verdict"]
    assert parts[1].text.startswith("in the prior year 2021 was")
    dated = (
        "What was the rate for the quarter ended April 30, 2023, and in the prior-year quarter "
        "ended April 30, 2022 was the tax line a provision or a benefit?"
    )
    assert [p.form for p in question_parts(dated).parts] == ["figure", "verdict"]


@pytest.mark.parametrize(
    ("question", "yes_no"),
    [
        ("In the quarter ended April 30, 2022 was the tax line a provision or a benefit?", True),
        ("For fiscal 2021 did the company pay a dividend?", True),
        ("In 2022 what was revenue?", False),  # a question word asks: no yes/no
        ("In 2022 how much did revenue grow?", False),
    ],
)
def test_a_period_before_the_verb_frames_a_yes_no(question: str, yes_no: bool) -> None:
    assert is_yes_no(question) is yes_no


@pytest.mark.parametrize(
    "question",
    [
        # no auxiliary on a subject after the period: one figure question, as before
        "What was revenue in 2022 and in 2021 how much did it grow?",
        "What was Acme's revenue in FY2022 and in FY2021?",
    ],
)
def test_other_joins_are_not_split(question: str) -> None:
    assert len(question_parts(question).parts) == 1


def test_each_part_gets_its_own_period() -> None:
    subs = part_questions(TWO_PERIODS)
    assert subs is not None and len(subs) == 2
    answer, verdict = answered(TWO_PERIODS, INCOME_WITH_TAX)
    assert "25.0%" in answer.text  # 100 / 400 in 2022, not 90 / 380 in 2021
    assert "an expense of $90 million" in answer.text, answer.text
    assert verdict.decision == "accept", verdict.details["answer_problems"]
