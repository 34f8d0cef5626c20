"""Conventions: a metric's recognised variants in the catalogue, a judge that evaluates each from
the statement model, and an answer that is not accepted when they disagree where it matters and
the question states no convention."""

from __future__ import annotations

from typing import Any

import pytest
from _reasoning_data import evidence
from finqa.agents.config import Settings
from finqa.agents.judge import JudgeAgent
from finqa.agents.reasoning import build_reasoner
from finqa.agents.types import Evidence

DOC = "ACME_2022_10K"

BALANCE = """Consolidated Balance Sheets
(in millions)
2022
2021
Cash and cash equivalents
500
400
Short-term investments
100
100
Accounts receivable, net
700
650
Inventories
1,055
604
Prepaid expenses
50
40
Total current assets
{tca}
{tca_prior}
Total assets
10,000
9,000
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


def _evidence(tca: str = "2,405", tca_prior: str = "1,794") -> Evidence:
    return evidence(BALANCE.format(tca=tca, tca_prior=tca_prior), INCOME, doc=DOC)


def _asked(question: str, ev: Evidence) -> tuple[Any, Any]:
    """The offline reasoner's answer and the judge's verdict on it."""
    answer = build_reasoner(Settings()).generate(question, ev, 1)
    return answer, JudgeAgent(Settings()).evaluate(question, answer, ev, 1)


def _conventions(verdict: Any) -> dict[str, Any]:
    found = verdict.details.get("conventions")
    assert found, verdict.details.get("answer_problems")
    return dict(found)


class TestTurnoverConventions:
    def test_average_and_ending_disagree_not_accepted(self) -> None:
        """An inventory turnover asked with no convention, whose average- and year-end-inventory
        figures differ (12.14 vs 9.54), is not accepted; both values and the reason are given."""
        answer, verdict = _asked("What is ACME's FY2022 inventory turnover ratio?", _evidence())
        assert "12.14" in answer.text
        assert verdict.decision == "retry"
        found = _conventions(verdict)
        assert found["outcome"] == "convention_dependent"
        values = {v["name"]: round(v["value"], 2) for v in found["variants"]}
        assert values == {"average inventory": 12.14, "year-end inventory": 9.54}
        assert "12.14 on average inventory, 9.54 on year-end inventory" in found["reason"]
        assert any(p["code"] == "convention_dependent" for p in verdict.details["answer_problems"])

    def test_stated_ending_inventory_accepted(self) -> None:
        """The same question saying 'using ending inventory' selects one variant: no ambiguity
        is left and the year-end figure is accepted."""
        answer, verdict = _asked(
            "What is ACME's FY2022 inventory turnover ratio using ending inventory?", _evidence()
        )
        assert "9.54" in answer.text
        assert verdict.decision == "accept"
        found = _conventions(verdict)
        assert found["outcome"] == "stated" and found["stated"] == "year-end inventory"

    def test_answer_gives_the_other_convention(self) -> None:
        """The reasoner names the convention it leads with and gives the other's figure in one
        clause, its leading figure unchanged."""
        answer, _verdict = _asked("What is ACME's FY2022 inventory turnover ratio?", _evidence())
        assert answer.text.endswith("Answer: 12.14.")
        assert (
            "Convention: average inventory (the catalogue's definition); year-end inventory gives 9.54"
            in answer.text
        )


class TestQuickRatioConventions:
    def test_same_conclusion_accepted(self) -> None:
        """A yes/no quick-ratio judgement that every quick-assets definition concludes alike
        (all below 1) is accepted, the variants' values recorded."""
        answer, verdict = _asked(
            "Does ACME have a healthy liquidity profile based on its quick ratio for FY2022?",
            _evidence(),
        )
        assert answer.text.startswith("No.")
        assert verdict.decision == "accept"
        found = _conventions(verdict)
        assert found["outcome"] == "agree" and found["form"] == "judgement"
        assert {v["conclusion"] for v in found["variants"]} == {"no"}
        assert len(found["variants"]) == 3

    def test_numerators_differ_not_accepted(self) -> None:
        """A quick ratio whose two numerators differ (cash + short-term investments +
        receivables 0.65; current assets less inventories 1.17) is not accepted when the
        question says neither, and the conclusion flips for the yes/no judgement."""
        ev = _evidence(tca="3,405", tca_prior="2,794")
        _answer, verdict = _asked("What is ACME's quick ratio for FY2022?", ev)
        found = _conventions(verdict)
        assert verdict.decision == "retry" and found["outcome"] == "convention_dependent"
        values = {v["name"]: round(v["value"], 2) for v in found["variants"]}
        assert values["cash, short-term investments and receivables"] == 0.65
        assert values["current assets less inventories"] == 1.18
        _answer, verdict = _asked(
            "Does ACME have a healthy liquidity profile based on its quick ratio for FY2022?", ev
        )
        found = _conventions(verdict)
        assert found["flips"] and verdict.decision == "retry"


class TestCatalogueVariants:
    def test_unknown_operand_rejected(self) -> None:
        """A variant whose formula names an operand the catalogue does not have is refused by the
        loader, naming the entry, the variant and the operand."""
        from finqa.lexicon.catalogue import CatalogueError, _check

        spec = {
            "name": "Widget turnover",
            "formula": "revenue / avg(inventory)",
            "variants": [
                {"name": "average", "formula": "revenue / avg(inventory)", "standard": "texts"},
                {"name": "ending", "formula": "revenue / widgets", "standard": "screens"},
            ],
        }
        known = frozenset({"revenue", "inventory"})
        with pytest.raises(CatalogueError, match="widget_turnover.*ending.*widgets"):
            _check("widget_turnover", spec, known)
        spec["variants"][1]["formula"] = "revenue / inventory"  # type: ignore[index]
        _check("widget_turnover", spec, known)

    def test_stated_convention_selects_a_variant(self) -> None:
        """A question's own words pick one variant ('current assets less inventories'); its own
        definition clause leaves no ambiguity either; silence leaves them open."""
        from finqa.lexicon.variants import read_variants

        named = read_variants(
            "quick_ratio", "What is the quick ratio, taking current assets less inventories?"
        )
        assert named.stated is not None and named.stated.name == "current assets less inventories"
        defined = read_variants(
            "roa", "What is ROA? ROA is defined as: net income / (average total assets)."
        )
        assert defined.own_definition and not defined.ambiguous
        assert read_variants("inventory_turnover", "What is the inventory turnover?").ambiguous
        assert not read_variants("capex_ratio", "What is capex as a % of revenue?").ambiguous


def _balance_table(page: int, lines: dict[str, tuple[str, float]]) -> Any:
    """A balance sheet of the index's statement model on `page`: item -> (caption, value)."""
    from finqa.agents.types import StatementFact, StatementPeriod, StatementTable

    period = StatementPeriod(label="FY2022", fiscal_year=2022, months=0, instant=True)
    facts = tuple(
        StatementFact(
            doc_id=DOC,
            statement="balance",
            table_id=f"p{page}-t0",
            label=label,
            item=item,
            period=period,
            value=value,
            scale=1e6,
            page=page,
            row=n,
            raw=f"{value / 1e6:,.0f}",
        )
        for n, (item, (label, value)) in enumerate(lines.items())
    )
    return StatementTable(
        table_id=f"p{page}-t0",
        doc_id=DOC,
        statement="balance",
        pages=(page,),
        periods=(period,),
        facts=facts,
    )


class TestMainPrinting:
    def test_parent_only_balance_sheet_is_another_table(self) -> None:
        """A second, shorter balance sheet away from the main printing (a parent-only or
        condensed consolidating schedule) is read by the judge as another table: it may
        corroborate a figure, never contradict one or set two conventions against each other."""
        from finqa.agents.judge.routes import Routes
        from finqa.lexicon.statements.memory import MemoryStatementStore

        main = _balance_table(
            51,
            {
                "cash": ("Cash and cash equivalents", 689e6),
                "inventory": ("Inventories", 2213e6),
                "total_current_assets": ("Total current assets", 5308e6),
                "total_assets": ("Total assets", 17003e6),
                "total_current_liabilities": ("Total current liabilities", 4476e6),
            },
        )
        parent = _balance_table(106, {"inventory": ("Inventories", 60e6)})
        routes = Routes(_evidence(), MemoryStatementStore((main, parent)))
        by_page = {r.page: r.route for r in routes.readings("inventory", 2022)}
        assert by_page == {51: "statement", 106: "other_table"}

    def test_evidence_pages_judged_by_the_filings_main_printing(self) -> None:
        """The retrieved pages hold only a combined filing's subsidiary registrant's sheet (its
        own 'main printing' among those few pages): read by the main printing of the whole
        filing in the index, it is another table, not a statement contradicting the parent's;
        with no index model, the pages' own main printing stands."""
        from finqa.agents.judge.routes import Routes
        from finqa.lexicon.statements.memory import MemoryStatementStore

        lines = {
            "cash": ("Cash and cash equivalents", 689e6),
            "inventory": ("Inventories", 2213e6),
            "total_current_assets": ("Total current assets", 5308e6),
            "total_current_liabilities": ("Total current liabilities", 4476e6),
        }
        parent = _balance_table(51, lines)
        subsidiary = _balance_table(58, {**lines, "inventory": ("Inventories", 1900e6)})
        index = MemoryStatementStore((parent, subsidiary))
        # the evidence pages' own reader places the sheet a page earlier (where its title is)
        read = _balance_table(57, {**lines, "inventory": ("Inventories", 1900e6)})
        pages = MemoryStatementStore((read,))
        routes = Routes(_evidence(), index, pages=pages)
        by_page = {r.page: r.route for r in routes.readings("inventory", 2022)}
        assert by_page == {51: "statement", 58: "other_table", 57: "other_table"}
        alone = Routes(_evidence(), None, pages=pages)
        assert {r.page: r.route for r in alone.readings("inventory", 2022)} == {57: "statement"}


CASH_FLOW = """Consolidated Statements of Cash Flows
(in millions)
2022
2021
Net cash provided by operating activities
1,500
1,400
Purchases of property, plant and equipment
(500)
(450)
"""


class TestCapitalIntensity:
    def test_open_under_a_variant_without_threshold(self) -> None:
        """'Is X capital-intensive?' answered on capex / revenue gives the total-assets /
        revenue figure too; with no general threshold for that definition the judgement is open
        under it, and the default policy (conclusion_open) does not accept the answer."""
        ev = evidence(BALANCE.format(tca="2,405", tca_prior="1,794"), INCOME, CASH_FLOW, doc=DOC)
        answer, verdict = _asked("Is ACME a capital-intensive business based on FY2022 data?", ev)
        assert answer.text.startswith("No.")
        assert "total assets / revenue gives 0.71 (no general threshold)" in answer.text
        found = _conventions(verdict)
        assert found["form"] == "judgement" and found["open"] and not found["flips"]
        assert verdict.decision == "retry"
