"""The statement model seam: periods, facts, tables and the in-memory StatementStore."""

from __future__ import annotations

from datetime import date

import pytest
from finqa.agents.types import StatementFact, StatementPeriod, StatementStore, StatementTable
from finqa.lexicon.statements import MemoryStatementStore, label_key
from pydantic import ValidationError

FY22 = StatementPeriod(label="2022", fiscal_year=2022, months=12, end_date=date(2022, 12, 31))
FY21 = StatementPeriod(label="2021", fiscal_year=2021, months=12, end_date=date(2021, 12, 31))
END22 = StatementPeriod(
    label="December 31, 2022", fiscal_year=2022, months=0, instant=True, end_date=date(2022, 12, 31)
)
Q2 = StatementPeriod(
    label="Three Months Ended June 30, 2023", fiscal_year=2023, quarter=2, months=3
)


def _fact(
    label: str,
    period: StatementPeriod,
    value: float,
    *,
    col: int,
    row: int,
    item: str | None = None,
) -> StatementFact:
    return StatementFact(
        doc_id="ACME_2022_10K",
        statement="income",
        table_id="p40-t0",
        label=label,
        item=item,
        period=period,
        value=value * 1e6,
        scale=1e6,
        negative=value < 0,
        page=40,
        row=row,
        column=col,
        raw=f"({abs(value):,.0f})" if value < 0 else f"{value:,.0f}",
    )


def _income() -> StatementTable:
    facts = (
        _fact("Net sales", FY22, 1200, col=0, row=0, item="revenue"),
        _fact("Net sales", FY21, 1000, col=1, row=0, item="revenue"),
        _fact("Cost of products sold", FY22, 700, col=0, row=1, item="cost_of_revenue"),
        _fact("Cost of products sold", FY21, 650, col=1, row=1, item="cost_of_revenue"),
        _fact("Other expense", FY22, -15, col=0, row=2),
    )
    return StatementTable(
        table_id="p40-t0",
        doc_id="ACME_2022_10K",
        statement="income",
        title="Consolidated Statements of Income",
        pages=(40,),
        scale=1e6,
        periods=(FY22, FY21),
        labels=("Net sales", "Cost of products sold", "Other expense"),
        facts=facts,
    )


class TestStatementPeriod:
    def test_keys_name_years_quarters_and_instants(self) -> None:
        """A fiscal year, a quarter and a balance-sheet date each get a distinct canonical key."""
        assert (FY22.key, Q2.key, END22.key) == ("FY2022", "2023Q2", "FY2022@end")

    def test_matches_year_forms_and_dates(self) -> None:
        """A year column matches 2022, 'FY2022' and '2022', and a dated column its ISO date."""
        assert FY22.matches(2022) and FY22.matches("FY2022") and FY22.matches("2022")
        assert not FY22.matches(2021)
        assert END22.matches("2022-12-31") and not END22.matches("2021-12-31")

    def test_quarter_does_not_answer_for_the_year(self) -> None:
        """A quarter column is not returned when the fiscal year is asked for."""
        assert not Q2.matches(2023) and Q2.matches("2023Q2")

    def test_frozen(self) -> None:
        """Periods are immutable once read."""
        with pytest.raises(ValidationError):
            FY22.fiscal_year = 2023  # type: ignore[misc]


class TestStatementTable:
    def test_frame_rows_are_line_items_and_columns_periods(self) -> None:
        """The DataFrame has filed labels as rows, period keys as columns, base-unit values."""
        df = _income().frame()
        assert list(df.columns) == ["FY2022", "FY2021"]
        assert list(df.index) == ["Net sales", "Cost of products sold", "Other expense"]
        assert df.loc["Net sales", "FY2021"] == 1000e6
        assert df.attrs["pages"] == [40]

    def test_fact_keeps_filed_value_and_sign(self) -> None:
        """A parenthesised cell is negative in base units and reads back as filed."""
        fact = _income().facts[-1]
        assert fact.negative and fact.value == -15e6 and fact.filed_value == -15


class TestMemoryStatementStore:
    def test_satisfies_protocol(self) -> None:
        """The in-memory store is a StatementStore."""
        assert isinstance(MemoryStatementStore(), StatementStore)

    def test_lookup_by_catalogue_id_or_label_and_period(self) -> None:
        """Lookup finds a line item by catalogue id or by its label as filed, narrowed by period."""
        store = MemoryStatementStore([_income()])
        by_id = store.lookup("ACME_2022_10K", "revenue", 2022)
        by_label = store.lookup("ACME_2022_10K", "net  SALES", "FY2022")
        assert [f.value for f in by_id] == [1200e6] and by_label == by_id
        assert len(store.lookup("ACME_2022_10K", "cost_of_revenue")) == 2

    def test_unknown_doc_or_item_is_empty(self) -> None:
        """Unknown documents and line items give an empty list, never a guess."""
        store = MemoryStatementStore([_income()])
        assert store.lookup("NOPE", "revenue") == []
        assert store.lookup("ACME_2022_10K", "goodwill") == []

    def test_tables_filter_by_statement(self) -> None:
        """Tables can be listed per document and narrowed to one statement kind."""
        store = MemoryStatementStore([_income()])
        assert store.docs() == ["ACME_2022_10K"]
        assert len(store.tables("ACME_2022_10K", "income")) == 1
        assert store.tables("ACME_2022_10K", "balance") == []

    def test_label_key_ignores_spacing_and_case(self) -> None:
        """Labels compare letters-only, so PDF-squashed labels match spaced ones."""
        assert label_key("Cost of goods sold") == label_key("Costofgoodssold")


class TestPrimaryFact:
    def test_primary_statement_first(self) -> None:
        """A figure on the income statement wins over the same label in a quarterly table."""
        from finqa.lexicon.statements import primary_fact

        income = _fact("Net sales", FY22, 1200, col=0, row=0, item="revenue")
        quarterly = income.model_copy(update={"statement": "quarterly", "page": 10, "value": 1.0})
        assert primary_fact([quarterly, income]) == income
        assert primary_fact([]) is None
