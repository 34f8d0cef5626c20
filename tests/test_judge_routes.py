"""The judge's second route (a source of its own in the statement model) and plausibility from
definitions: routes that disagree are not accepted; a figure the metric cannot take is sent back."""

from __future__ import annotations

from typing import Any

import pytest
from _reasoning_data import evidence
from finqa.agents.config import Settings
from finqa.agents.judge import JudgeAgent
from finqa.agents.judge.routes import Routes
from finqa.agents.types import (
    Answer,
    Calculation,
    Evidence,
    Operand,
    StatementFact,
    StatementPeriod,
    StatementTable,
)
from finqa.lexicon.statements.memory import MemoryStatementStore

DOC = "CORNING_2022_10K"

INCOME = """Consolidated Statements of Income
(in millions)
2022
2021
Net sales
14,189
14,082
Cost of sales
9,683
9,019
Gross margin
4,506
5,063
"""

SPLIT_COSTS = """Consolidated Statements of Income
(in millions)
2022
2021
Net sales
10,000
9,000
Cost of products
4,000
3,600
Cost of services
2,000
1,800
Total cost of sales
6,000
5,400
Gross profit
4,000
3,600
"""

LOSS_BENEFIT = """Consolidated Statements of Operations
(in millions)
2022
2021
Net sales
5,000
5,200
Loss before income taxes
(1,000)
(400)
Income tax expense (benefit)
(210)
(80)
Net loss
(790)
(320)
"""

PROFIT_EXPENSE = """Consolidated Statements of Income
(in millions)
2022
2021
Net sales
5,000
5,200
Income before income taxes
1,000
900
Provision for income taxes
210
180
Net income
790
720
"""

Q_SALES = "What was Corning's net sales in FY2022?"


def _ev(*texts: str) -> Evidence:
    return evidence(*texts, doc=DOC, first_page=59)


def _tagged(
    item: str, label: str, value: float, year: int = 2022, doc: str = DOC, source: str = "xbrl"
) -> StatementTable:
    """A table of the index's statement model holding one total (tagged, or read as text)."""
    period = StatementPeriod(label=f"FY{year}", fiscal_year=year, months=12)
    fact = StatementFact(
        doc_id=doc,
        statement="income",
        table_id="xbrl-income",
        label=label,
        item=item,
        period=period,
        value=value,
        scale=1e6,
        page=61,
        raw=f"{value / 1e6:,.0f}",
        source=source,  # type: ignore[arg-type]
        concept="us-gaap:Revenues" if source == "xbrl" else None,
    )
    return StatementTable(
        table_id="xbrl-income",
        doc_id=doc,
        statement="income",
        pages=(61,),
        periods=(period,),
        facts=(fact,),
        source=source,  # type: ignore[arg-type]
    )


def _judge(*tables: StatementTable) -> JudgeAgent:
    store = MemoryStatementStore(tables) if tables else None
    return JudgeAgent(Settings(), statements=store)


def _route(verdict: Any) -> dict[str, Any]:
    route = verdict.details["second_route"]
    assert route is not None, verdict.details
    return dict(route)


def _codes(verdict: Any) -> list[str]:
    return [p["code"] for p in verdict.details["answer_problems"]]


class TestSecondRoute:
    def test_tag_and_table_agree(self) -> None:
        """A figure the filing's tag and its printed statement both give is accepted, corroborated
        by both routes."""
        judge = _judge(_tagged("revenue", "Revenues", 14_189e6))
        v = judge.evaluate(
            Q_SALES, Answer(text="Net sales were $14,189 million [S1]."), _ev(INCOME), 1
        )
        assert v.decision == "accept", v.feedback
        route = _route(v)
        assert route["outcome"] == "corroborated"
        assert {"xbrl", "statement"} <= set(route["values"][0]["routes"])

    def test_tag_and_table_disagree(self) -> None:
        """When the tag gives another value than the printed line the answer read, the figure is
        not accepted, and the verdict shows both values with their pages."""
        judge = _judge(_tagged("revenue", "Revenues", 14_500e6))
        v = judge.evaluate(
            Q_SALES, Answer(text="Net sales were $14,189 million [S1]."), _ev(INCOME), 3
        )
        assert v.decision == "retry"
        route = _route(v)
        assert route["outcome"] == "routes_disagree"
        assert "14,500" in route["detail"] and "14,189" in route["detail"]
        assert f"{DOC} p.61" in route["detail"] and f"{DOC} p.59" in route["detail"]
        assert v.details["numbers"][0]["status"] == "route_conflict"
        assert "route_conflict" in _codes(v) and "14,500" in v.feedback

    def test_later_filing_comparative(self) -> None:
        """A later 10-K's comparative column is a route: when it gives the same figure the
        answer is corroborated by it, when it gives another the figure is not accepted."""
        later = "CORNING_2023_10K"
        same = _judge(_tagged("revenue", "Net sales", 14_189e6, doc=later, source="text"))
        answer = Answer(text="Net sales were $14,189 million [S1].")
        v = same.evaluate(Q_SALES, answer, _ev(INCOME), 1)
        assert v.decision == "accept", v.feedback
        assert "later_filing" in _route(v)["values"][0]["routes"]
        other = _judge(_tagged("revenue", "Net sales", 14_805e6, doc=later, source="text"))
        w = other.evaluate(Q_SALES, answer, _ev(INCOME), 3)
        assert w.decision == "retry" and _route(w)["outcome"] == "routes_disagree"
        assert f"{later} p.61" in _route(w)["detail"]

    def test_a_later_filing_s_second_registrant_does_not_contest(self) -> None:
        """A later combined filing prints the company's statements first and a subsidiary
        registrant's after them: the subsidiary's figure is another table there, never a
        comparative of the company's line (PG&E Corporation and its Utility)."""
        later = "CORNING_2023_10K"
        own = _tagged("revenue", "Net sales", 14_189e6, doc=later, source="text")
        sub = _tagged("revenue", "Net sales", 14_805e6, doc=later, source="text")
        sub = sub.model_copy(
            update={
                "table_id": "p70-t0",
                "pages": (70,),
                "facts": tuple(f.model_copy(update={"page": 70}) for f in sub.facts),
            }
        )
        answer = Answer(text="Net sales were $14,189 million [S1].")
        v = _judge(own, sub).evaluate(Q_SALES, answer, _ev(INCOME), 1)
        assert v.decision == "accept", v.feedback
        assert _route(v)["outcome"] != "routes_disagree"

    def test_a_year_to_date_is_not_contested_by_a_fiscal_year(self) -> None:
        """A first-half figure (a stitched or TTM leg's 10-Q comparative) is not contradicted by
        a later filing's fiscal-year figure of that year: the routes read whole years only."""
        half = """Condensed Consolidated Statements of Income
(in millions)
Six Months Ended
June 30, 2022 June 30, 2021
Net sales
7,100
6,900
"""
        later = _judge(_tagged("revenue", "Net sales", 14_189e6, doc="CORNING_2023_10K"))
        question = "What was Corning's net sales in the first half of fiscal 2022?"
        v = later.evaluate(
            question, Answer(text="Net sales were $7,100 million [S1]."), _ev(half), 3
        )
        assert "route_conflict" not in _codes(v)
        assert all(n["status"] != "route_conflict" for n in v.details["numbers"])
        whole = later.evaluate(
            Q_SALES, Answer(text="Net sales were $7,100 million [S1]."), _ev(half), 3
        )
        assert "route_conflict" in _codes(whole)  # asked for the year, the year contests it

    def test_another_caption_is_another_line(self) -> None:
        """A line of another caption mapped to the same item ('Net sales and other revenue' beside
        'Net sales') is another line, not a second source of the figure: it contests nothing."""
        later = "CORNING_2023_10K"
        judge = _judge(
            _tagged("revenue", "Net sales and other revenue", 14_805e6, doc=later, source="text")
        )
        v = judge.evaluate(
            Q_SALES, Answer(text="Net sales were $14,189 million [S1]."), _ev(INCOME), 1
        )
        assert v.decision == "accept", v.feedback

    def test_a_flow_is_no_reading_of_a_balance(self) -> None:
        """The cash-flow statement's change in inventories (a span) is not the year-end inventory
        (an instant): it is no route, so it cannot contest the balance."""
        change = _tagged("inventory", "Inventories", -194e6, source="text")
        flow = change.model_copy(
            update={
                "statement": "cashflow",
                "facts": tuple(
                    f.model_copy(update={"statement": "cashflow"}) for f in change.facts
                ),
            }
        )
        routes = Routes(_ev(INCOME), store=MemoryStatementStore([flow]))
        assert routes.readings("inventory", 2022) == []
        dated = flow.model_copy(  # a column headed by the year-end date: still the change
            update={
                "facts": tuple(
                    f.model_copy(
                        update={
                            "period": StatementPeriod(
                                label="FY2022", fiscal_year=2022, instant=True
                            )
                        }
                    )
                    for f in flow.facts
                )
            }
        )
        assert (
            Routes(_ev(INCOME), store=MemoryStatementStore([dated])).readings("inventory", 2022)
            == []
        )
        balance = _tagged("inventory", "Inventories", 5_409e6, source="text")
        at_end = balance.facts[0].model_copy(
            update={
                "statement": "balance",
                "period": StatementPeriod(label="FY2022", fiscal_year=2022, instant=True),
            }
        )
        store = MemoryStatementStore([balance.model_copy(update={"facts": (at_end,)})])
        got = Routes(_ev(INCOME), store=store).readings("inventory", 2022)
        assert [r.value for r in got] == [5_409e6]

    def test_no_second_source_keeps_the_other_checks(self) -> None:
        """Without an index store, the judge's own reading of the evidence pages is the route:
        the printed figure is accepted and the outcome says which route gave it."""
        v = _judge().evaluate(
            Q_SALES, Answer(text="Net sales were $14,189 million [S1]."), _ev(INCOME), 1
        )
        assert v.decision == "accept", v.feedback
        assert _route(v)["outcome"] == "corroborated"

    def test_part_of_a_line_for_the_whole(self) -> None:
        """A gross margin computed from one of two cost-of-revenue lines is not accepted: the
        judge's route over the filing's total cost of sales gives another margin."""
        calc = Calculation(
            expression="(revenue - cogs) / revenue * 100",
            operands=(
                Operand(name="revenue", value=10_000, scale=1e6, period="FY2022", source_id="S1"),
                Operand(name="cogs", value=4_000, scale=1e6, period="FY2022", source_id="S1"),
            ),
            result=60.0,
            unit="%",
        )
        q = "What is Corning's FY2022 gross margin?"
        answer = Answer(text="Gross margin was 60.0% in FY2022 [S1].", calculations=(calc,))
        v = _judge().evaluate(q, answer, _ev(SPLIT_COSTS), 3)
        assert v.decision == "retry"
        route = _route(v)
        assert route["outcome"] in ("routes_disagree", "contradicted")
        assert "40" in route["detail"]
        right = Answer(text="Gross margin was 40.0% in FY2022 [S1].")
        assert _judge().evaluate(q, right, _ev(SPLIT_COSTS), 1).decision == "accept"

    def test_readings_of_every_source(self) -> None:
        """The routes read a line item from the index's tag and from the evidence pages, one
        reading per source and page."""
        from finqa.agents.judge.statement_figures import StatementFigures

        ev = _ev(INCOME)
        routes = Routes(
            ev,
            MemoryStatementStore([_tagged("revenue", "Revenues", 14_189e6)]),
            StatementFigures(ev).store(),
        )
        kinds = sorted(r.route for r in routes.readings("revenue", 2022))
        assert kinds == ["statement", "xbrl"]
        (value,) = routes.values("revenue", 2022)
        assert value.value == pytest.approx(14_189e6)


PPE = """Consolidated Balance Sheet
(in millions)
December 31,
2022
2021
Property, plant and equipment
24,873
24,500
Property, plant and equipment net
8,738
8,866
Total assets
36,500
37,987
"""


class TestOneTableTwoLines:
    def test_two_lines_of_one_table_are_not_two_routes(self) -> None:
        """Gross and net lines of one table that both map to an item do not contest each
        other: the net figure the answer reads is accepted."""
        from finqa.agents.judge.statement_figures import StatementFigures

        ev = _ev(PPE)
        readings = Routes(ev, None, StatementFigures(ev).store()).readings("ppe_net", 2022)
        assert {r.value for r in readings} == {24_873e6, 8_738e6}
        q = "What is the FY2022 net PPNE for Corning? Answer in USD millions."
        answer = Answer(text="Net property, plant and equipment was $8,738 million [S1].")
        v = _judge().evaluate(q, answer, ev, 1)
        assert v.decision == "accept", v.feedback
        assert _route(v)["outcome"] == "corroborated"


class TestPlausibility:
    Q_TAX = "What was Corning's effective tax rate in FY2022?"

    def test_benefit_on_a_loss_is_a_positive_rate(self) -> None:
        """A tax benefit on a pre-tax loss is a positive rate: '-21.0%' is sent back naming both
        lines, '21.0%' is accepted."""
        bad = _judge().evaluate(
            self.Q_TAX, Answer(text="The effective tax rate was -21.0% [S1]."), _ev(LOSS_BENEFIT), 3
        )
        assert bad.decision == "retry"
        assert "wrong_sign" in _codes(bad), bad.details["answer_problems"]
        assert "positive" in bad.feedback and "Income tax expense (benefit)" in bad.feedback
        ok = _judge().evaluate(
            self.Q_TAX, Answer(text="The effective tax rate was 21.0% [S1]."), _ev(LOSS_BENEFIT), 1
        )
        assert ok.decision == "accept", ok.feedback

    def test_negative_rate_on_a_tax_expense_rejected(self) -> None:
        """A rate stated negative where the filing shows a tax expense on a pre-tax profit is
        sent back."""
        v = _judge().evaluate(
            self.Q_TAX,
            Answer(text="The effective tax rate was -21.0% [S1]."),
            _ev(PROFIT_EXPENSE),
            3,
        )
        assert v.decision == "retry" and "wrong_sign" in _codes(v)

    def test_margin_outside_bounds(self) -> None:
        """An operating margin of 150% is no margin: sent back with the range of a margin."""
        q = "What was Corning's operating margin in FY2022?"
        v = _judge().evaluate(
            q, Answer(text="The operating margin was 150.0% [S1]."), _ev(INCOME), 3
        )
        assert v.decision == "retry" and "implausible" in _codes(v)
        assert "[-100, 100]" in v.feedback

    def test_negative_turnover(self) -> None:
        """A negative asset turnover is sent back: a turnover is a flow over a balance."""
        q = "What was Corning's asset turnover in FY2022?"
        v = _judge().evaluate(q, Answer(text="Asset turnover was -0.45 [S1]."), _ev(INCOME), 3)
        assert "implausible" in _codes(v), v.details["answer_problems"]

    def test_negative_days_ratio(self) -> None:
        """A negative days sales outstanding is sent back: a days ratio is a balance over a
        day's flow; '45.0 days' is not."""
        q = "What was Corning's days sales outstanding in FY2022?"
        v = _judge().evaluate(q, Answer(text="DSO was -45.0 days [S1]."), _ev(INCOME), 3)
        assert "implausible" in _codes(v), v.details["answer_problems"]
        ok = _judge().evaluate(q, Answer(text="DSO was 45.0 days [S1]."), _ev(INCOME), 3)
        assert "implausible" not in _codes(ok), ok.details["answer_problems"]

    def test_share_over_a_whole(self) -> None:
        """A share of a whole above 100% is sent back."""
        q = "What percentage of Corning's total net sales in FY2022 was cost of sales?"
        v = _judge().evaluate(
            q, Answer(text="Cost of sales was 120.0% of net sales [S1]."), _ev(INCOME), 3
        )
        assert "implausible" in _codes(v), v.details["answer_problems"]
        assert v.decision == "retry"


def _part_table(item: str, name: str, value: float, year: int = 2022) -> StatementTable:
    """A segment note's row of one part (a text table's figure on the segment axis)."""
    table = _tagged(item, name, value, year=year, source="text")
    fact = table.facts[0].model_copy(
        update={
            "statement": "segment",
            "table_id": "p70-parts",
            "page": 70,
            "dimensions": (("us-gaap:StatementBusinessSegmentsAxis", name),),
        }
    )
    return table.model_copy(
        update={"table_id": "p70-parts", "statement": "segment", "facts": (fact,)}
    )


Q_PART = "What was Corning's Optical Communications segment operating income in FY2022?"


class TestPartRoutes:
    """A question about one part of the business is routed to that part's facts only."""

    def test_part_read_from_its_own_facts(self) -> None:
        """The segment's operating income is read from the part's row, never from the
        consolidated line of the same item."""
        store = MemoryStatementStore(
            [
                _tagged("operating_income", "Operating income", 1_000e6, source="text"),
                _part_table("operating_income", "Optical Communications", 400e6),
                _part_table("operating_income", "Display", 600e6),
            ]
        )
        routes = Routes(_ev(INCOME), store, None, Q_PART)
        assert [r.value for r in routes.readings("operating_income", 2022)] == [400e6]
        (value,) = routes.values("operating_income", 2022)
        assert value.value == pytest.approx(400e6)

    def test_no_fact_of_the_part_is_no_route(self) -> None:
        """Without a fact of the asked part the consolidated figure is no route to it: the
        route check finds nothing to derive, so it cannot contradict the part's figure."""
        store = MemoryStatementStore(
            [
                _tagged("operating_income", "Operating income", 1_000e6, source="text"),
                _part_table("revenue", "Optical Communications", 1_400e6),
            ]
        )
        routes = Routes(_ev(INCOME), store, None, Q_PART)
        assert routes.readings("operating_income", 2022) == []
        check = routes.check("operating_income", 2022, [], [], 0.01)
        assert check.outcome == "no_route"

    def test_whole_company_keeps_the_consolidated_routes(self) -> None:
        """A question about the company as a whole still reads the consolidated line."""
        store = MemoryStatementStore(
            [
                _tagged("operating_income", "Operating income", 1_000e6, source="text"),
                _part_table("operating_income", "Optical Communications", 400e6),
            ]
        )
        q = "What was Corning's operating income in FY2022?"
        routes = Routes(_ev(INCOME), store, None, q)
        assert [r.value for r in routes.readings("operating_income", 2022)] == [1_000e6]
