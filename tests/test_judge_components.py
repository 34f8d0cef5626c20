"""The judge's route inside one statement table: a line printed only as its parts is their sum
(the whole, never one part), and a printed total its parts contradict is not accepted."""

from __future__ import annotations

from typing import Any

from _reasoning_data import evidence
from finqa.agents.config import Settings
from finqa.agents.judge import JudgeAgent
from finqa.agents.judge.routes import Routes
from finqa.agents.types import Answer, Calculation, Evidence, Operand
from finqa.lexicon.statements.memory import MemoryStatementStore
from finqa.lexicon.statements.reader import read_pages

DOC = "ACME_2022_10K"

SPLIT_COSTS = """Consolidated Statements of Operations
(in millions)
2022
2021
Revenues
10,000
9,000
Cost of revenue:
Products
4,000
3,600
Services
2,000
1,800
Research and development
1,500
1,400
Operating income
2,500
2,200
"""

LIABILITIES = """Consolidated Balance Sheets
(in millions)
December 31,
2022
2021
Current liabilities:
Accounts payable
2,690
3,073
Other current liabilities
1,786
2,030
Total current liabilities
4,576
5,103
"""


def _ev(text: str) -> Evidence:
    return evidence(text, doc=DOC, first_page=40)


def _judge(text: str) -> JudgeAgent:
    store = MemoryStatementStore(read_pages(DOC, [(40, text)]).tables)
    return JudgeAgent(Settings(), statements=store)


def _route(verdict: Any) -> dict[str, Any]:
    route = verdict.details["second_route"]
    assert route is not None, verdict.details
    return dict(route)


class TestWholeOfSplitCosts:
    Q = "What was Acme's gross margin in FY2022?"

    def test_cost_lines_under_a_heading_are_one_cost_of_revenue(self) -> None:
        """Products and services cost lines under 'Cost of revenue:' with no total are read as
        cost of revenue 6,000 (their sum), each line named."""
        store = MemoryStatementStore(read_pages(DOC, [(40, SPLIT_COSTS)]).tables)
        (reading,) = Routes(_ev(SPLIT_COSTS), store).readings("cogs", 2022)
        assert reading.value == 6000e6 and reading.route == "statement"
        assert "Products 4,000" in reading.label and "Services 2,000" in reading.label

    def test_gross_margin_on_one_cost_line_is_not_accepted(self) -> None:
        """A gross margin over the products cost alone (60.0%) takes one part of cost of
        revenue for the whole; the margin over both lines (40.0%) is accepted."""
        judge = _judge(SPLIT_COSTS)
        calc = Calculation(
            expression="(revenue - cogs) / revenue * 100",
            operands=(
                Operand(name="revenue", value=10_000, scale=1e6, period="FY2022", source_id="S1"),
                Operand(name="cogs", value=4_000, scale=1e6, period="FY2022", source_id="S1"),
            ),
            result=60.0,
            unit="%",
        )
        part = Answer(text="Gross margin was 60.0% in FY2022 [S1].", calculations=(calc,))
        v = judge.evaluate(self.Q, part, _ev(SPLIT_COSTS), 3)
        assert v.decision != "accept"
        (figure,) = [n for n in v.details["numbers"] if n["text"] == "60.0%"]
        assert figure["status"] == "calc_other_metric" and "Products 4,000" in figure["detail"]
        whole = Answer(text="Gross margin was 40.0% in FY2022 [S1].")
        assert judge.evaluate(self.Q, whole, _ev(SPLIT_COSTS), 1).decision == "accept"


class TestTotalAgainstItsParts:
    Q = "What were Acme's total current liabilities at the end of FY2022?"

    def test_routes_that_disagree_beyond_rounding_are_not_accepted(self) -> None:
        """A printed total of 4,576 whose parts add up to 4,476 is not accepted; both figures
        are shown with their page."""
        answer = Answer(text="Total current liabilities were $4,576 million [S1].")
        v = _judge(LIABILITIES).evaluate(self.Q, answer, _ev(LIABILITIES), 1)
        assert v.decision != "accept"
        route = _route(v)
        assert route["outcome"] == "routes_disagree"
        assert "4,576" in route["detail"] and "4,476" in route["detail"]
        assert f"{DOC} p.40" in route["detail"] and "components" in route["detail"]

    def test_parts_that_agree_leave_the_total_accepted(self) -> None:
        """The same table with a total equal to its parts' sum: the total is accepted."""
        text = LIABILITIES.replace("4,576", "4,476")
        answer = Answer(text="Total current liabilities were $4,476 million [S1].")
        v = _judge(text).evaluate(self.Q, answer, _ev(text), 1)
        assert v.decision == "accept", v.feedback


BALANCE = """Consolidated Balance Sheets
(in millions)
December 31,
2022
2021
Current assets:
Cash and cash equivalents
3,000
2,800
Accounts receivable
2,000
1,900
Total current assets
5,000
4,700
Current liabilities:
Accounts payable
2,690
3,073
Other current liabilities
1,786
2,030
Total current liabilities
4,476
5,103
"""


class TestPartForTheWhole:
    # a question that defines its metric: the route over the catalogue's formula does not
    # contradict a figure then, so the part must be caught by itself
    Q = (
        "What was Acme's FY2022 current ratio? Current ratio is defined as: total current "
        "assets / total current liabilities."
    )

    @staticmethod
    def _answer(text: str, value: float, label: str, figure: float) -> Answer:
        calc = Calculation(
            expression="x0 / x1",
            operands=(
                Operand(name="x0", value=5_000, scale=1e6, period="FY2022", source_id="S1",
                        text="Total current assets 5,000"),
                Operand(name="x1", value=value, scale=1e6, period="FY2022", source_id="S1",
                        text=label),
            ),
            result=figure,
            unit="ratio",
        )  # fmt: skip
        return Answer(text=text, calculations=(calc,))

    def test_one_part_in_place_of_the_total_is_not_accepted(self) -> None:
        """A current ratio over 'Other current liabilities' (one printed part of total current
        liabilities) is not the current ratio: the figure is flagged as a part for the whole."""
        answer = self._answer(
            "The current ratio was 2.80 [S1].", 1_786, "Other current liabilities 1,786", 2.7996
        )
        v = _judge(BALANCE).evaluate(self.Q, answer, _ev(BALANCE), 1)
        assert v.decision != "accept"
        (figure,) = [n for n in v.details["numbers"] if n["text"] == "2.80"]
        assert figure["status"] == "calc_other_metric"
        assert "a part for the whole" in figure["detail"]
        assert "Other current liabilities 1,786" in figure["detail"]

    def test_the_whole_is_accepted(self) -> None:
        """The same ratio over total current liabilities (1.12) is accepted."""
        answer = self._answer(
            "The current ratio was 1.12 [S1].", 4_476, "Total current liabilities 4,476", 1.1171
        )
        v = _judge(BALANCE).evaluate(self.Q, answer, _ev(BALANCE), 1)
        assert v.decision == "accept", v.feedback
