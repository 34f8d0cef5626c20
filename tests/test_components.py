"""A question that spells the whole out of its parts asks for the whole (issue #25, 'part of a
line for the whole'): the list is read once (`lexicon.components`), its names are operands and
never a part of the business, and a balance printed once per side of the balance sheet is the
two lines summed."""

from __future__ import annotations

from _reasoning_data import evidence
from finqa.agents.config import Settings
from finqa.agents.judge import JudgeAgent
from finqa.agents.reasoning import build_reasoner
from finqa.agents.types import Answer, Evidence, Verdict
from finqa.lexicon.components import enumeration
from finqa.lexicon.named_line import named_line

BALANCE = """ZENTRO CORP.
CONSOLIDATED BALANCE SHEETS
(In millions)
September 30, 2024 September 30, 2023
Cash and cash equivalents $ 4,100 $ 3,900
Accounts receivable, net 2,200 2,050
Total current assets 6,300 5,950
Property and equipment, net 3,400 3,300
Total assets $ 9,700 $ 9,250
Accounts payable $ 1,150 $ 1,020
Deferred revenue 1,640 1,510
Commercial paper 700 650
Current portion of long-term debt 300 250
Total current liabilities 3,790 3,430
Deferred revenue, non-current 410 380
Long-term debt 2,600 2,750
Total liabilities 6,800 6,560
"""

INCOME = """ZENTRO CORP.
CONSOLIDATED STATEMENTS OF OPERATIONS
(In millions)
Year Ended September 30, 2024 2023 2022
Revenue:
Product $ 5,200 $ 5,000 $ 4,700
Service and other 3,800 3,300 2,900
Total revenue 9,000 8,300 7,600
Cost of revenue:
Product 1,300 1,250 1,200
Service and other 2,100 1,900 1,700
Total cost of revenue 3,400 3,150 2,900
Gross margin 5,600 5,150 4,700
Operating income 2,000 1,800 1,500
"""

Q_SIDES = (
    "What was Zentro's total deferred revenue balance (current plus non-current) at the end "
    "of fiscal 2024? Answer in USD millions."
)
Q_GROSS = (
    "What was Zentro's gross margin percentage for fiscal 2024, using total cost of revenue "
    "(product plus service and other)? Round to one decimal place."
)


def _ask(question: str, *texts: str) -> tuple[Answer, Verdict]:
    settings = Settings()
    ev: Evidence = evidence(*texts, question=question)
    answer = build_reasoner(settings).generate(question, ev, 1)
    return answer, JudgeAgent(settings).evaluate(question, answer, ev, 1)


class TestEnumerationRead:
    def test_plus_list_in_parentheses(self) -> None:
        """'(product plus service and other)' is two parts, split on 'plus' only: 'and' is a
        word of the second caption."""
        listed = enumeration(Q_GROSS)
        assert listed is not None
        assert listed.parts == ("product", "service and other")
        assert listed.signs == (1, 1)

    def test_lead_word_list_with_commas(self) -> None:
        """'counting A, the B and C' lists three parts, without their articles; a comma inside
        a caption ('long-term debt, net') stays in it."""
        listed = enumeration(
            "What was Zentro's total debt at September 30, 2024, counting commercial paper, "
            "the current portion of long-term debt and long-term debt, net?"
        )
        assert listed is not None
        assert listed.parts == (
            "commercial paper",
            "current portion of long-term debt",
            "long-term debt, net",
        )

    def test_including_both(self) -> None:
        """'including both A and B' splits at the first 'and' only."""
        listed = enumeration(
            "What was Zentro's total cost of revenues in 2024, including both product costs and "
            "subscription, licensing and other costs? Answer in USD millions."
        )
        assert listed is not None
        assert listed.parts == ("product costs", "subscription, licensing and other costs")

    def test_parts_named_by_where_they_are_recorded(self) -> None:
        """'adding the amounts recognized in A and in B', 'counting both the amount in A and
        the amount recorded in B': the parts are the lines A and B, the recording words out;
        a caption's own 'and' stays in it."""
        listed = enumeration(
            "What was Zentro's total share-based compensation expense in FY2019, adding the "
            "amounts recognized in cost of sales and in operating expenses?"
        )
        assert listed is not None and listed.parts == ("cost of sales", "operating expenses")
        listed = enumeration(
            "What was Zentro's total depreciation in FY2019, counting both the amount in "
            "selling, general and administrative expenses and the amount recorded in cost of "
            "sales?"
        )
        assert listed is not None
        assert listed.parts == ("selling, general and administrative expenses", "cost of sales")

    def test_minus_defines_a_measure(self) -> None:
        """'(A minus B)' is a measure the question defines: B subtracted."""
        listed = enumeration(
            "Compute Zentro's pre-provision profit (total net revenue minus total noninterest "
            "expense) for 2024."
        )
        assert listed is not None and listed.defined
        assert listed.expression() == "total net revenue - total noninterest expense"

    def test_no_list(self) -> None:
        """A parenthesis of dates, one 'including' item, or a formula's operand is no list."""
        assert (
            enumeration(
                "What was Zentro's revenue for fiscal 2015 (53 weeks ended January 3, 2016)?"
            )
            is None
        )
        assert (
            enumeration("What was Zentro's total revenue including membership fees in 2024?")
            is None
        )
        assert (
            enumeration("Compute (revenue - cost of revenues) / revenue for the services line.")
            is None
        )

    def test_sides_of_one_caption(self) -> None:
        """'(short-term plus long-term)' names the two sides of one balance-sheet caption."""
        listed = enumeration(
            "What was Zentro's total unearned revenue balance (short-term plus long-term)?"
        )
        assert listed is not None and listed.sides
        line = named_line(
            "What was Zentro's total unearned revenue balance (short-term plus long-term)?"
        )
        assert line is not None and line.both_parts and line.metric == "deferred_revenue"


class TestWholeAnswered:
    def test_current_plus_non_current_with_a_bare_current_caption(self) -> None:
        """The balance sheet prints the current side under the bare caption ('Deferred
        revenue') and marks the other ('non-current'): the answer is both summed (2,050), not
        the current line alone (1,640)."""
        answer, _ = _ask(Q_SIDES, BALANCE)
        assert "$2,050 million" in answer.text
        assert "Answer: $1,640 million" not in answer.text

    def test_listed_cost_lines_are_not_a_product_line(self) -> None:
        """Gross margin 'using total cost of revenue (product plus service and other)' is the
        company's (62.2%), not one product line's margin nor an abstention for a part."""
        answer, _ = _ask(Q_GROSS, INCOME)
        assert "62.2%" in answer.text
