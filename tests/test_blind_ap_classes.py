"""Classes of wrong answers found on blind set AP (issue #25), each a general reading:

- a line narrowed by words after a premise sentence ('Oracle's cloud business grew. By what
  percentage did its total cloud revenues grow?'): the qualifier is read in the ask, wherever
  the premise puts the ask in the question (its offset used to be the ask's length);
- a part of the company named '<Proper Name> business(es)' ("Microsoft's Phone Hardware
  business"): a segment, never the company's figure;
- the amount of a line named by its cause ('the provisional tax expense as a result of the TCJ
  Act', 'the revenue reduction ... related to the 737 MAX grounding'): a part of the line, never
  its total;
- a choice part ('and which charges weighed on it?') is not answered by finqa's own note on
  which figures it read ('not the consolidated figures')."""

from __future__ import annotations

import pytest
from _reasoning_data import INCOME_WITH_TAX, answered, evidence
from finqa.agents.config import Settings
from finqa.agents.judge import JudgeAgent
from finqa.agents.judge.text import is_provenance_note
from finqa.agents.types import Answer
from finqa.lexicon.dimension_question import asked_dimension
from finqa.lexicon.named_line import part_for_cause
from finqa.lexicon.qualifiers import qualifiers
from finqa.lexicon.question_ask import read_ask


def test_a_qualifier_in_the_ask_after_a_premise() -> None:
    premise = "Acme's cloud business scaled up quickly in fiscal 2017 (year ended May 31, 2017). "
    ask = "By what percentage did its total cloud revenues (SaaS plus PaaS and IaaS) grow?"
    for q in (ask, premise + ask):
        found = qualifiers(q)
        assert found and found[0].words == ("cloud",), q
        assert read_ask(q).named_line is not None, q


@pytest.mark.parametrize(
    ("question", "part"),
    [
        ("What was the gross margin of Acme's Phone Hardware business in 2015?", "Phone Hardware"),
        (
            "Acme's Market-Based Businesses grew revenue. What was their pre-tax income?",
            "Market-Based",
        ),
        ("Is the Company's business seasonal?", None),
        ("Does Microsoft's business have high revenue in 2015?", None),
    ],
)
def test_a_named_business_is_a_part(question: str, part: str | None) -> None:
    found = asked_dimension(question)
    assert (found.phrase if found is not None else None) == part


@pytest.mark.parametrize(
    ("question", "cause"),
    [
        (
            "How much provisional net tax expense did Acme record in 2022 as a result of the "
            "enactment of the TCJ Act?",
            "the enactment of the TCJ Act",
        ),
        (
            "How much revenue reduction did Acme record in 2022 for concessions to customers "
            "related to the 737 MAX grounding?",
            "the 737 MAX grounding",
        ),
        ("What was Acme's income tax expense related to fiscal 2022?", None),  # a period
        ("What was Acme's provision for income taxes in 2022?", None),
    ],
)
def test_a_part_named_by_its_cause(question: str, cause: str | None) -> None:
    assert part_for_cause(question) == cause
    assert read_ask(question).for_cause == cause


def test_the_lines_total_is_no_answer_for_a_cause() -> None:
    q = "How much tax expense did Acme record in 2022 as a result of the enactment of the TCJ Act?"
    answer, _ = answered(q, INCOME_WITH_TAX)
    assert "$100 million" not in answer.text or answer.abstained, answer.text
    total = Answer(text="FY2022 income tax expense: $100 million [S1]. Answer: $100 million.")
    verdict = JudgeAgent(Settings()).evaluate(q, total, evidence(INCOME_WITH_TAX, question=q), 1)
    codes = [p["code"] for p in verdict.details["answer_problems"]]
    assert verdict.decision != "accept" and "cause_part" in codes


def test_the_parts_note_names_no_choice() -> None:
    assert is_provenance_note("not the consolidated figures.")
    assert is_provenance_note("this is the segment's figure, not the consolidated one.")
    assert not is_provenance_note("Revenue was not the consolidated figure the filing gives.")
