"""The line a premise names is the one an operator-only ask refers back to (issue #25: another
metric's formula, growth of what): 'X's operating income rose in 2019. What was its
year-over-year growth rate?' asks operating income's growth, never revenue's (the operator's
default); and an ask's parenthesis is one ask ('(an expense or a benefit, and how much)')."""

from __future__ import annotations

from _reasoning_data import evidence
from finqa.agents.config import Settings
from finqa.agents.judge import JudgeAgent
from finqa.agents.types import Answer
from finqa.lexicon.metrics import find_metrics
from finqa.lexicon.premise_operand import premise_operand
from finqa.lexicon.question_ask import read_ask
from finqa.lexicon.question_parts import question_parts

INCOME = """ACME CORP
INCOME STATEMENTS
(In millions)
Year Ended June 30, 2019 2018 2017
Total revenue 125,843 110,360 96,571
Operating income 42,959 35,058 29,025
Net income 39,240 16,571 25,489
"""
Q = (
    "Acme's operating income rose strongly in fiscal 2019. What was its year-over-year growth "
    "rate for fiscal 2019?"
)


def test_the_premise_line_is_grown() -> None:
    assert premise_operand(Q) == "operating_income"
    ask = read_ask(Q)
    assert (ask.recipe, ask.aggregate) == ("operating_income", "growth")
    assert premise_operand("What was Acme's year-over-year growth in fiscal 2019?") is None
    other = "Operating income rose in 2019. What was Acme's revenue growth in 2019?"
    assert premise_operand(other) is None and read_ask(other).recipe == "revenue_growth"


def test_the_judge_refuses_another_lines_growth() -> None:
    def codes(text: str) -> list[str]:
        verdict = JudgeAgent(Settings()).evaluate(
            Q, Answer(text=text), evidence(INCOME, doc="ACME_2019_10K"), 1
        )
        return [p["code"] for p in verdict.details["answer_problems"]]

    wrong = "Growth in revenue, FY2018 to FY2019: 14.0% [S1]."
    right = "Growth in operating income, FY2018 to FY2019: 22.5% [S1]."
    assert "other_measure" in codes(wrong)
    assert "other_measure" not in codes(right)


def test_a_parenthesis_is_one_ask() -> None:
    q = (
        "What was Acme's income tax line in fiscal 2020 (an expense or a benefit, and how much), "
        "and what was its effective tax rate in fiscal 2021?"
    )
    parts = [p.text for p in question_parts(q).parts]
    assert len(parts) == 2 and parts[0].endswith("and how much)")
    assert [m.canonical for m in find_metrics("What was its income tax line?")] == [
        "income_tax_expense"
    ]
    assert [m.canonical for m in find_metrics("What was income before income tax?")] == [
        "pretax_income"
    ]
