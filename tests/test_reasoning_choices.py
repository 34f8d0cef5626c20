"""A choice among listed line items: the highest or lowest figure named, with every option's."""

from __future__ import annotations

import pytest
from _reasoning_data import evidence
from finqa.agents.config import Settings
from finqa.agents.reasoning import build_reasoner
from finqa.agents.reasoning.offline.choices import option_metrics
from finqa.lexicon.arith import evaluate

CASH_FLOWS = """Consolidated Statements of Cash Flows
(In millions)
Year Ended May 31, 2023 2022 2021
Cash provided by operations 5,841 5,188 6,657
Cash provided (used) by investing activities 564 (1,524) (3,800)
Cash used by financing activities (7,447) (4,836) (1,459)
Net increase in cash and equivalents (1,042) (1,172) 1,398
"""

INCOME = """Consolidated Statements of Income
(in millions)
2022 2021 2020
Net sales 10,000 9,000 8,000
Cost of sales 6,000 5,400 4,800
Selling, general and administrative expenses 1,500 1,400 1,300
Research and development 900 800 700
Operating income 1,600 1,400 1,200
"""


def ask(question: str, *texts: str):  # type: ignore[no-untyped-def]
    return build_reasoner(Settings()).generate(question, evidence(*texts, question=question), 1)


def recompute(answer) -> float:  # type: ignore[no-untyped-def]
    calc = answer.calculations[0]
    return evaluate(calc.expression, {o.name: o.value for o in calc.operands})


class TestOptions:
    def test_shared_head_noun_and_measure(self) -> None:
        """'operations, investing, and financing activities ... cash flow' reads each option
        as its cash-flow total (the list's shared noun, the question's measure)."""
        q = "Among operations, investing, and financing activities, which brought in the most cash flow for Acme in FY2023?"  # fmt: skip
        assert option_metrics(q) == [
            ("operations", "cfo"),
            ("investing", "cfi"),
            ("financing activities", "cff"),
        ]

    def test_unknown_option_gives_no_choice(self) -> None:
        """An option the catalogue does not know leaves the question to the usual path."""
        q = "Among cost of sales and widget royalties, which was the largest for Acme in FY2022?"
        assert option_metrics(q) is None


class TestChoice:
    def test_highest_cash_flow(self) -> None:
        """The activity with the highest cash flow is named, with the other two and a max()."""
        q = "Among operations, investing, and financing activities, which brought in the most (or lost the least) cash flow for Acme in FY2023?"  # fmt: skip
        a = ask(q, CASH_FLOWS)
        assert a.text.startswith("Operations.") and not a.abstained
        assert "$5,841 million" in a.text and "-$7,447 million" in a.text
        assert recompute(a) == pytest.approx(5841)

    def test_lowest_expense(self) -> None:
        """'Which was the smallest' names the lowest of the listed expenses: the verdict follows
        the figures, not the order of the list."""
        q = "Among cost of sales, SG&A and R&D, which was the smallest expense for Acme in FY2022?"
        a = ask(q, INCOME)
        assert a.text.startswith("R&D.") and recompute(a) == pytest.approx(900)
        q = "Among cost of sales, SG&A and R&D, which was the largest expense for Acme in FY2022?"
        assert ask(q, INCOME).text.startswith("Cost of sales.")

    def test_missing_figure_gives_no_choice(self) -> None:
        """A listed item the statements lack for the year gives no verdict from the others."""
        q = "Among cost of sales, SG&A and R&D, which was the largest expense for Acme in FY2022?"
        no_rd = "\n".join(line for line in INCOME.splitlines() if "Research" not in line)
        a = ask(q, no_rd)
        assert not a.text.startswith("Cost of sales.")
