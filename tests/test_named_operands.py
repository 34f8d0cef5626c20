"""Operators over the line items a question names (issue #25 class 5): a metric's definition
follows the operands the question names (DPO over cost of sales, not purchases), growth of an
expense line is not revenue growth, and a change between two named years spans those years."""

from __future__ import annotations

from typing import Any

from _reasoning_data import evidence
from finqa.agents.config import Settings
from finqa.agents.judge import JudgeAgent
from finqa.agents.reasoning import build_reasoner
from finqa.agents.types import Evidence
from finqa.lexicon.dimension_members import DimensionMember
from finqa.lexicon.dimensions import resolve_dimension
from finqa.lexicon.metrics import find_metrics
from finqa.lexicon.question_ask import read_ask
from finqa.lexicon.variants import read_variants

DOC = "ACME_2022_10K"

BALANCE = """Consolidated Balance Sheets
(in millions)
2022
2021
Cash and cash equivalents
500
400
Inventories
1,055
604
Total current assets
2,405
1,794
Total assets
10,000
9,000
Accounts payable
1,200
1,000
Total current liabilities
2,000
1,800
"""

INCOME = """Consolidated Statements of Income
(in millions)
2022
2021
Net sales
14,000
13,000
Cost of sales
10,069
9,000
"""


def _evidence() -> Evidence:
    return evidence(BALANCE, INCOME, doc=DOC)


def _asked(question: str, ev: Evidence) -> tuple[Any, Any]:
    answer = build_reasoner(Settings()).generate(question, ev, 1)
    return answer, JudgeAgent(Settings()).evaluate(question, answer, ev, 1)


class TestOperandsSelectADefinition:
    def test_cost_of_sales_named_selects_the_cogs_definition(self) -> None:
        """'DPO ... using cost of sales' leaves open only the definitions over cost of sales
        (their balance basis), not the catalogue's purchases."""
        reading = read_variants("dpo", "What was ACME's DPO in FY2022, using cost of sales?")
        assert [v.formula for v in reading.variants] == [
            "365 * avg(accounts_payable) / cogs",
            "365 * accounts_payable / cogs",
        ]
        assert reading.leading is not None and reading.leading.formula.endswith("/ cogs")
        assert {v.name for v in reading.ruled_out} == {"average payables", "year-end payables"}

    def test_own_definition_over_cost_of_sales(self) -> None:
        """A definition clause naming year-end payables over cost of sales is that variant."""
        q = "What was ACME's FY2022 DPO? DPO is defined as 365 * accounts payable / cost of sales."
        ask = read_ask(q)
        assert ask.variant is not None and ask.variant.formula == "365 * accounts_payable / cogs"

    def test_financebench_definition_is_the_catalogue_default(self) -> None:
        """FinanceBench's DPO over COGS + change in inventory names the inventory: the
        catalogue's own definition, no variant of another formula."""
        q = (
            "What is FY2018 days payable outstanding (DPO) for Walmart? DPO is defined as: 365 * "
            "(average accounts payable between FY2017 and FY2018) / (FY2018 COGS + change in "
            "inventory between FY2017 and FY2018)."
        )
        assert read_ask(q).variant is None
        assert read_variants("dpo", q).own_definition
        assert read_ask("What was ACME's DPO in FY2022?").variant is None

    def test_sales_named_for_inventory_turnover(self) -> None:
        """'inventory turnover using net sales over average inventory' is the sales-based form;
        'cost of sales over average inventory' the catalogue's own."""
        sales = read_ask(
            "What was ACME's FY2022 inventory turnover, using net sales over average inventory?"
        )
        assert sales.variant is not None and sales.variant.formula == "revenue / avg(inventory)"
        cogs = read_ask(
            "What was ACME's inventory turnover in FY2022, using cost of sales over average inventory?"
        )
        assert cogs.variant is None


class TestReasonerAndJudge:
    def test_dpo_on_cost_of_sales_computed_and_accepted(self) -> None:
        """The reasoner computes DPO over cost of sales where the question names it (39.9 days, not
        the purchases' 38.2), and the judge accepts it by its own route."""
        answer, verdict = _asked(
            "What was ACME's FY2022 days payable outstanding, using average accounts payable "
            "and cost of sales?",
            _evidence(),
        )
        assert "39.9 days" in answer.text and "38.2" not in answer.text
        assert verdict.decision == "accept"

    def test_purchases_figure_for_a_cost_of_sales_question_not_accepted(self) -> None:
        """An answer computed on purchases (the catalogue's default) for a question naming cost of
        sales is another definition's figure: the judge does not accept it."""
        ev = _evidence()
        answer = build_reasoner(Settings()).generate(
            "What was ACME's FY2022 days payable outstanding, using average accounts payable?",
            ev,
            1,
        )
        assert "38.2 days" in answer.text
        q = "What was ACME's FY2022 days payable outstanding, using average accounts payable and cost of sales?"
        verdict = JudgeAgent(Settings()).evaluate(q, answer, ev, 1)
        assert verdict.decision == "retry"
        problems = verdict.details["answer_problems"]
        said = [p for p in problems if p["code"] in ("route_conflict", "convention_dependent")]
        assert said and "39.87" in said[0]["message"]  # the named definition's own figure

    def test_other_basis_for_an_own_definition_not_accepted(self) -> None:
        """A question defining DPO on average payables, answered with the year-end payables'
        figure, gets the judge's figure of the definition it states, and no acceptance."""
        ev = _evidence()
        answer = build_reasoner(Settings()).generate(
            "What was ACME's FY2022 days payable outstanding, using year-end accounts payable?",
            ev,
            1,
        )
        assert "41.6 days" in answer.text  # 365 * 1,200 / (10,069 + 451)
        q = (
            "What is ACME's FY2022 days payable outstanding (DPO)? DPO is defined as: 365 * "
            "(average accounts payable between FY2021 and FY2022) / (FY2022 COGS + change in "
            "inventory between FY2021 and FY2022)."
        )
        verdict = JudgeAgent(Settings()).evaluate(q, answer, ev, 1)
        assert verdict.decision == "retry"
        found = verdict.details["conventions"]
        assert found["outcome"] == "convention_dependent"
        assert "38.2 days" in found["reason"] and "year-end payables" in found["reason"]


class TestExpenseLineGrowth:
    def test_expense_growth_is_not_revenue_growth(self) -> None:
        """'fulfillment expense growth' / 'growth in X costs' grow an expense line: the growth
        operator's default (revenue) is not what is asked; bare 'growth' still is."""
        for q in (
            "What was Acme's fulfillment expense growth in FY2022?",
            "What was the year-over-year growth in Acme's technology costs in FY2022?",
        ):
            assert not [m for m in find_metrics(q) if m.canonical == "revenue_growth"], q
            assert read_ask(q).recipe != "revenue_growth", q
        assert (
            read_ask("What was Acme's year-over-year growth in FY2022?").recipe == "revenue_growth"
        )

    def test_member_name_before_an_expense_word_is_a_caption(self) -> None:
        """A filing's member 'Fulfillment' followed by 'expense' names the expense line's caption,
        not the part; followed by 'revenue' (or named as a segment) it is the part."""
        members = [
            DimensionMember(
                "us-gaap:StatementBusinessSegmentsAxis",
                "acme:FulfillmentSegmentMember",
                "segment",
                "Fulfillment",
                ("fulfillment",),
            )
        ]
        assert (
            resolve_dimension("What was Acme's Fulfillment expense growth in FY2024?", members)
            is None
        )
        part = resolve_dimension("What was Acme's Fulfillment revenue in FY2024?", members)
        assert part is not None and part.member == "acme:FulfillmentSegmentMember"

    def test_members_listed_as_the_cost_lines_for_are_captions(self) -> None:
        """'Treat all of the cost lines for Hardware and Services ... as cost of revenues' lists
        the expense lines the margin counts, not a part; 'Hardware revenue' is the part."""
        members = [
            DimensionMember(
                "srt:ProductOrServiceAxis",
                f"acme:{name}Member",
                "product",
                name,
                (name.lower(),),
            )
            for name in ("Hardware", "Services")
        ]
        q = (
            "What is Acme's FY2019 gross margin %? Treat all of the cost lines for hardware and "
            "services in the statement of operations as cost of revenues."
        )
        assert resolve_dimension(q, members) is None
        part = resolve_dimension("What was Acme's Hardware revenue in FY2019?", members)
        assert part is not None and part.member == "acme:HardwareMember"


class TestChangeBetweenNamedYears:
    def test_dollars_between_two_years(self) -> None:
        """'By how many dollars did X increase from 2021 to 2022' is the change between the two
        years named, as an amount, not one year's figure."""
        ask = read_ask(
            "By how many dollars did Acme's operating income increase from 2021 to 2022?"
        )
        assert (ask.aggregate, ask.agg_years, ask.change_form) == ("change", (2021, 2022), "amount")

    def test_years_two_apart(self) -> None:
        """'from 2020 to 2022' spans those two years, not adjacent ones."""
        ask = read_ask("By how much did Acme's revenue increase from 2020 to 2022?")
        assert (ask.aggregate, ask.agg_years) == ("change", (2020, 2022))

    def test_yes_no_direction_stays_a_trend(self) -> None:
        """'Did X increase from 2020 to 2022?' asks a direction, not an amount."""
        assert read_ask("Did Acme's revenue increase from 2020 to 2022?").aggregate == "trend"
