"""The one catalogue: one key per line item for every reader, natures and periods, one notation."""

from __future__ import annotations

import pytest
from finqa.lexicon import METRICS


class TestOneKey:
    def test_statement_model_book_and_tags_share_the_key(self) -> None:
        """A caption the statement model maps, the Book's line item and the XBRL concept of
        accounts receivable are all the catalogue key 'accounts_receivable'."""
        from finqa.lexicon.line_items import get_item, item_for_metric, line_items
        from finqa.lexicon.statements.catalogue import item_for_label
        from finqa.lexicon.xbrl import concept_item

        assert item_for_label("Accounts receivable, net") == "accounts_receivable"
        assert "accounts_receivable" in line_items()
        assert concept_item("us-gaap:AccountsReceivableNetCurrent") == "accounts_receivable"
        assert item_for_metric("accounts_receivable") == "accounts_receivable"
        item = get_item("accounts_receivable")
        assert item is not None and item.nature == "asset" and item.period_type == "instant"

    def test_caption_only_items_are_readable_too(self) -> None:
        """A plain statement line without reading rules (goodwill) is found by its captions."""
        from finqa.lexicon.line_items import caption_items, get_item, line_items

        assert "goodwill" not in line_items()
        item = get_item("goodwill")
        assert item is not None and item is caption_items()["goodwill"]
        assert item.labels == METRICS["goodwill"].line_items


class TestNatureAndPeriod:
    def test_balances_are_instants_and_flows_durations(self) -> None:
        """Every balance-sheet line is an instant; every income or cash-flow line a duration."""
        for m in METRICS.values():
            if m.is_derived or m.statement not in ("balance", "income", "cash_flow"):
                continue
            want = "instant" if m.statement == "balance" else "duration"
            assert m.period_type == want, (m.id, m.period_type)

    def test_natures_follow_the_concepts(self) -> None:
        """An item's nature agrees with its statement: costs are expenses, cash paid outflows."""
        assert METRICS["cogs"].nature == "expense"
        assert METRICS["capex"].nature == "outflow"
        assert METRICS["accounts_payable"].nature == "liability"
        assert METRICS["revenue"].concepts[0] == "us-gaap:Revenues"


class TestSchema:
    def test_unknown_field_is_refused(self) -> None:
        """A misspelt field or an unknown nature is a CatalogueError naming the entry."""
        from finqa.lexicon.catalogue import CatalogueError, _check

        with pytest.raises(CatalogueError, match="widget.*formla"):
            _check("widget", {"name": "Widget", "formla": "a + b"})
        with pytest.raises(CatalogueError, match="nature"):
            _check("widget", {"name": "Widget", "nature": "asset-ish"})


class TestOneNotation:
    def test_per_year_writing(self) -> None:
        """avg/prev/change are written per fiscal year for the reasoner's Book."""
        from finqa.lexicon.formula import per_year

        assert per_year("365 * avg(accounts_payable) / (cogs + change(inventory))") == (
            "365 * avg(accounts_payable[y], accounts_payable[y-1]) / "
            "(cogs[y] + (inventory[y] - inventory[y-1]))"
        )
        assert per_year("prev(revenue)") == "revenue[y-1]"

    def test_evaluate_is_arith(self, monkeypatch: pytest.MonkeyPatch) -> None:
        """A catalogue formula is computed by lexicon.arith, the one evaluator, over the period's
        values and the prior period's."""
        from finqa.lexicon import formula

        seen: list[str] = []
        real = formula.arith_evaluate

        def spy(expression: str, values: dict[str, float]) -> float:
            seen.append(expression)
            return real(expression, values)

        monkeypatch.setattr(formula, "arith_evaluate", spy)
        assert formula.evaluate("revenue / avg(ppe_net)", {"revenue": 30, "ppe_net": 10}, {"ppe_net": 20}) == 2.0  # fmt: skip
        assert seen == ["revenue / avg(ppe_net, ppe_net__prev)"]

    def test_division_by_zero_is_a_formula_error(self) -> None:
        """A zero denominator is a one-line FormulaError, not a crash."""
        from finqa.lexicon.formula import FormulaError, evaluate

        with pytest.raises(FormulaError, match="division by zero"):
            evaluate("a / b", {"a": 1.0, "b": 0.0})


class TestRecipes:
    def test_total_debt_alternatives_reach_its_ratios(self) -> None:
        """Debt to equity tries total debt as short- plus long-term debt, as the filer's total
        line, then long-term debt alone."""
        from finqa.lexicon.recipes import get_recipe

        recipe = get_recipe("debt_to_equity")
        assert recipe is not None
        assert recipe.formulas == (
            "(short_term_debt[y] + long_term_debt[y]) / shareholders_equity[y]",
            "total_debt[y] / shareholders_equity[y]",
            "long_term_debt[y] / shareholders_equity[y]",
        )

    def test_metric_read_as_another_line(self) -> None:
        """Depreciation is read from the D&A line (the catalogue's formulas say so); a metric
        the catalogue marks unread has no recipe."""
        from finqa.lexicon.recipes import get_recipe

        dep = get_recipe("depreciation")
        assert dep is not None and dep.formulas == ("depreciation_amortization[y]",)
        assert get_recipe("roic") is None and METRICS["roic"].unread
