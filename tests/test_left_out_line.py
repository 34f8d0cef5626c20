"""A line the question leaves out of a balance (issue #25 item 2, whole operands): where the
filer prints the item's line, a line the question excludes and a total of the two ('Long-term
debt' / 'Redeemable preferred stock at redemption value' / 'Total long-term debt'), the item is
read from the line without the left-out one and the answer says so; without the exclusion, or
where the lines do not add up to the total, the total stands."""

from __future__ import annotations

from _reasoning_data import evidence
from finqa.agents.config import Settings
from finqa.agents.reasoning import build_reasoner
from finqa.agents.reasoning.offline.book import Book
from finqa.lexicon.qualifiers import caption_keys
from finqa.lexicon.question_ask import read_ask
from finqa.lexicon.statements import MemoryStatementStore, read_pages

DOC = "ACME_2022_10K"

BALANCE = """ACME CORP
CONSOLIDATED BALANCE SHEETS
(In millions)
December 31, 2022 December 31, 2021
CAPITALIZATION AND LIABILITIES
Capitalization:
Common stock $ 2 $ 2
Paid-in-capital 6,700 6,657
Total common shareholders' equity 6,121 5,864
Long-term debt 8,639 7,569
Redeemable preferred stock at redemption value 5 7
Total long-term debt 8,644 7,576
Total capitalization 14,765 13,440
Current liabilities:
Short-term debt 786 964
Current portion of long-term debt 28 71
Accounts payable 203 175
Total current liabilities 2,045 1,998
"""

# the same lines, the total holding a third line the page does not print
UNEVEN = BALANCE.replace("Total long-term debt 8,644 7,576", "Total long-term debt 8,650 7,576")

ASK = (
    "What was Acme's total debt at December 31, 2022, in USD millions, counting short-term "
    "debt, the current portion of long-term debt and long-term debt (excluding redeemable "
    "preferred stock)?"
)


def _store(page: str) -> MemoryStatementStore:
    return MemoryStatementStore(read_pages(DOC, [(40, page)]).tables)


def _long_term_debt(page: str, question: str) -> list[float]:
    book = Book(evidence(page), _store(page), left_out=read_ask(question).left_out)
    return [f.value for f in book.find_summed("long_term_debt", 2022)]


class TestLeftOutLine:
    def test_the_ask_reads_what_it_leaves_out(self) -> None:
        assert read_ask(ASK).left_out == ("redeemable preferred stock",)
        assert read_ask("What was Acme's long-term debt in 2022?").left_out == ()
        assert caption_keys("the redeemable preferred stocks") == (
            "redeemable", "preferred", "stock",
        )  # fmt: skip

    def test_the_line_without_the_left_out_one(self) -> None:
        assert _long_term_debt(BALANCE, ASK) == [8639.0]

    def test_without_the_exclusion_the_total_stands(self) -> None:
        assert _long_term_debt(BALANCE, "What was Acme's total debt at December 31, 2022?") == [
            8644.0
        ]

    def test_lines_that_do_not_add_up_leave_the_total(self) -> None:
        """8,639 + 5 is not 8,650: the total holds something else too; it is not taken apart."""
        assert _long_term_debt(UNEVEN, ASK) == [8650.0]

    def test_another_left_out_line_leaves_the_total(self) -> None:
        """A phrase no printed line above the total names takes nothing out."""
        q = ASK.replace("redeemable preferred stock", "finance lease obligations")
        assert _long_term_debt(BALANCE, q) == [8644.0]

    def test_the_answer_names_the_line_and_what_it_leaves_out(self) -> None:
        reasoner = build_reasoner(Settings(), statements=_store(BALANCE))
        ans = reasoner.generate(ASK, evidence(BALANCE), 1)
        assert not ans.abstained, ans.text
        assert "$9,453 million" in ans.text  # 786 + 28 + 8,639
        assert "without 'Redeemable preferred stock at redemption value'" in ans.text


SIDES = """ACME CORP
CONSOLIDATED BALANCE SHEETS
(In millions)
December 31, 2022 December 31, 2021
Current liabilities:
Trade payables $ 312 $ 306
Deferred revenue 4,733 3,629
Income taxes payable 54 63
Total current liabilities 5,099 3,998
Long-term liabilities:
Debt 4,123 4,117
Deferred revenue 145 130
Other liabilities 252 223
Total liabilities 9,619 8,468
"""


class TestBothSides:
    """A balance the balance sheet prints under one caption among the current and among the
    long-term lines is the two summed where the question names no side (the concept without a
    side); the side named is its own line."""

    def _answer(self, question: str) -> str:
        reasoner = build_reasoner(Settings(), statements=_store(SIDES))
        ans = reasoner.generate(question, evidence(SIDES), 1)
        assert not ans.abstained, ans.text
        return ans.text

    def test_no_side_named_sums_both(self) -> None:
        text = self._answer("What was Acme's deferred revenue balance at December 31, 2022?")
        assert "$4,878 million" in text and "both the current and the non-current" in text

    def test_both_sides_named_sum_both(self) -> None:
        """'current plus long-term' asks the whole: both sides named is no one side."""
        text = self._answer(
            "What was Acme's total deferred revenue (current plus long-term) at December 31, 2022?"
        )
        assert "$4,878 million" in text

    def test_a_side_named_is_that_line(self) -> None:
        text = self._answer("What was Acme's current deferred revenue at December 31, 2022?")
        assert "$4,733 million" in text and "$4,878 million" not in text
