"""The judge's second route reads a summed line item as the sum of its lines on one statement
(issue #25: a second route for every accepted figure, whole operands): short-term debt printed as
'Short-term borrowings' and 'Long-term debt, classified as current' is their sum, so a total debt
counting both is corroborated, and one counting only the first line is contradicted (before,
each line was a reading of its own and the route took one: the right total was refused)."""

from __future__ import annotations

from _reasoning_data import evidence
from finqa.agents.config import Settings
from finqa.agents.judge import JudgeAgent
from finqa.agents.judge.route_reading import Reading, summed_lines
from finqa.agents.types import Answer

DOC = "ACME_2022_10K"

BALANCE = """ACME CORP
CONSOLIDATED BALANCE SHEETS
(in millions)
Balance at December 31, 2022 2021
Current Liabilities
Short-term borrowings $ 2,055 $ 3,921
Long-term debt, classified as current 2,268 1,305
Accounts payable 3,821 3,484
Total current liabilities 8,144 8,710
Noncurrent Liabilities
Long-term debt 47,742 44,837
Total noncurrent liabilities 47,742 44,837
Total liabilities 55,886 53,547
"""

Q = (
    "What was Acme's total debt at December 31, 2022, including short-term borrowings and "
    "long-term debt classified as current?"
)


def _verdict(text: str):  # noqa: ANN202 - a Verdict
    return JudgeAgent(Settings()).evaluate(Q, Answer(text=text), evidence(BALANCE, doc=DOC), 1)


def _reading(label: str, value: float, page: int = 40) -> Reading:
    return Reading(
        "short_term_debt", 2022, value, "USD", "statement", DOC, page, label, "", "balance"
    )


def test_lines_of_one_statement_are_summed() -> None:
    got = summed_lines(
        [_reading("Short-term borrowings", 2055.0), _reading("Current portion", 2268.0)],
        "short_term_debt",
    )
    assert [r.value for r in got] == [4323.0]


def test_a_printed_total_is_the_sum() -> None:
    got = summed_lines(
        [
            _reading("Cost of products", 100.0),
            _reading("Cost of services", 50.0),
            _reading("Total cost of revenue", 150.0),
        ],
        "cogs",
    )
    assert [r.value for r in got] == [150.0]


def test_other_pages_and_items_are_not_summed() -> None:
    two_pages = [_reading("Short-term borrowings", 2055.0), _reading("Notes", 2268.0, page=90)]
    assert [r.value for r in summed_lines(two_pages, "short_term_debt")] == [2055.0, 2268.0]
    one = [_reading("Cash", 1.0), _reading("Cash and equivalents", 2.0)]
    assert len(summed_lines(one, "cash")) == 2  # not a summed item


def test_the_whole_is_corroborated_and_a_part_contradicted() -> None:
    right = _verdict("Total debt as of December 31, 2022: $52,065 million [S1].")
    assert "route_conflict" not in str(right.details), right.details
    wrong = _verdict("Total debt as of December 31, 2022: $49,797 million [S1].")
    assert wrong.decision != "accept"
