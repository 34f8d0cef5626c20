"""A question naming a statement ('on its balance sheet') is answered from that statement's row:
the judge does not accept a figure the evidence prints only in a note's table (the income-tax
note's 'Deferred revenue' line), and accepts the balance sheet's figure."""

from __future__ import annotations

from typing import Any

from _reasoning_data import evidence
from finqa.agents.config import Settings
from finqa.agents.judge import JudgeAgent
from finqa.agents.types import Answer, Evidence

DOC = "ACME_2021_10K"

TAX_NOTE = """Note 12. Income Taxes
The components of deferred tax assets are as follows:
(in millions)
December 31, 2021
December 31, 2020
Deferred revenue
210
274
Accrued compensation
95
80
Total deferred tax assets
305
354
"""

BALANCE = """Consolidated Balance Sheets
(in millions)
December 31, 2021
December 31, 2020
Accounts receivable
1,200
1,100
Total current assets
9,000
8,000
Deferred revenue
1,118
1,689
Total current liabilities
3,000
2,900
"""

BALANCE_WITHOUT = """Consolidated Balance Sheets
(in millions)
December 31, 2021
December 31, 2020
Accounts receivable
1,200
1,100
Total current assets
9,000
8,000
Accrued expenses and other liabilities
1,900
1,700
Total current liabilities
3,000
2,900
"""

MDNA = "Liquidity and capital resources. Cash from operations funded our capital spending in 2021."

Q = "What balance of deferred revenue did Acme report on its balance sheet at December 31, 2021?"


def _ev(*texts: str) -> Evidence:
    return evidence(*texts, doc=DOC, first_page=59)


def _codes(verdict: Any) -> list[str]:
    return [p["code"] for p in verdict.details["answer_problems"]]


def _judge(question: str, text: str, *pages: str) -> Any:
    return JudgeAgent(Settings()).evaluate(question, Answer(text=text), _ev(*pages), 1)


class TestNamedStatement:
    def test_note_figure_for_a_balance_sheet_question_is_rejected(self) -> None:
        """The tax note's $210 million for 'on its balance sheet', beside a balance sheet that
        prints no such line (nothing to contest the figure by value), is sent back."""
        v = _judge(
            Q,
            "Deferred revenue at December 31, 2021 was $210 million [S3].",
            BALANCE_WITHOUT,
            MDNA,
            TAX_NOTE,
        )
        assert "other_statement" in _codes(v), v.details["answer_problems"]
        assert v.decision == "retry" and "balance sheet" in v.feedback

    def test_balance_sheet_figure_is_accepted(self) -> None:
        """The balance sheet's $1,118 million is accepted."""
        v = _judge(
            Q, "Deferred revenue at December 31, 2021 was $1,118 million [S2].", TAX_NOTE, BALANCE
        )
        assert "other_statement" not in _codes(v) and v.decision == "accept", v.feedback

    def test_no_statement_named_no_restriction(self) -> None:
        """Without a statement named the check says nothing about the note's figure."""
        q = "What deferred revenue did Acme report at December 31, 2021?"
        v = _judge(
            q,
            "Deferred revenue at December 31, 2021 was $210 million [S3].",
            BALANCE_WITHOUT,
            MDNA,
            TAX_NOTE,
        )
        assert "other_statement" not in _codes(v), v.details["answer_problems"]


CASH_FLOW = """Consolidated Statement of Cash Flows
(in millions)
2022
2021
Net income
8,978
7,679
Restructuring and impairment charges
411
247
Net cash provided by operating activities
10,811
11,616
"""


CASH_FLOW_CASH = (
    CASH_FLOW
    + """Cash and cash equivalents, end of year
5,100
4,900
"""
)


class TestOtherFlowStatement:
    def test_flow_printed_on_the_cash_flow_statement_is_accepted(self) -> None:
        """Restructuring charges for 'in its income statement' read off the cash flow statement
        (the same charges added back) stand: a flow statement prints the same flow."""
        q = "What restructuring costs did Acme report in its income statement for FY2022?"
        v = JudgeAgent(Settings()).evaluate(
            q,
            Answer(text="Restructuring costs in FY2022 were $411 million [S1]."),
            evidence(CASH_FLOW, doc="ACME_2022_10K", first_page=59),
            1,
        )
        assert "other_statement" not in _codes(v), v.details["answer_problems"]

    def test_balance_question_figure_off_a_flow_statement_is_rejected(self) -> None:
        """A balance sheet question's balance read under the cash flow statement's title (its
        year-end cash line) is sent back: a balance is not read off a flow statement."""
        q = "What cash and cash equivalents did Acme report on its balance sheet at the end of FY2022?"
        v = JudgeAgent(Settings()).evaluate(
            q,
            Answer(text="Cash and cash equivalents at the end of FY2022 were $5,100 million [S1]."),
            evidence(CASH_FLOW_CASH, doc="ACME_2022_10K", first_page=59),
            1,
        )
        assert "other_statement" in _codes(v), v.details["answer_problems"]
