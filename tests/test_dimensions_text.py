"""A segment note printed as text is read into the statement model with its parts as
dimensions (lexicon/statements/parts.py), so a text-only filing's segment figures can be asked."""

from __future__ import annotations

from finqa.lexicon.model import StatementFact, StatementPeriod, StatementTable
from finqa.lexicon.statements.parts import column_parts, part_tables

DOC = "ACME_2024_10K"
FY24 = StatementPeriod(label="2024", fiscal_year=2024, months=12)
NOTE = {5: "Note 12 - Segment Information\nThe Company reports three segments."}


def _table(rows: list[tuple[str, list[float]]], statement: str = "other", unit: str = "USD") -> StatementTable:  # fmt: skip
    facts = [
        StatementFact(
            doc_id=DOC,
            statement=statement,
            table_id="p5-t0",
            label=label,
            period=FY24,  # type: ignore[arg-type]
            value=v * 1e6,
            scale=1e6,
            page=5,
            row=r,
            column=c,
            unit="%" if label.startswith("Percentage") else unit,  # type: ignore[arg-type]
        )  # fmt: skip
        for r, (label, values) in enumerate(rows)
        for c, v in enumerate(values)
    ]
    return StatementTable(
        table_id="p5-t0", doc_id=DOC, statement=statement, pages=(5,), periods=(FY24,),  # type: ignore[arg-type]
        labels=tuple(label for label, _ in rows), facts=tuple(facts),
    )  # fmt: skip


def _parts(table: StatementTable, texts: dict[int, str] = NOTE) -> dict[tuple[str, str], float]:
    out = {}
    for t in part_tables([table], texts):
        for f in t.facts:
            out[(f.dimensions[0][1], f.item or "")] = f.value / 1e6
    return out


class TestRowsNamedByParts:
    """Rows of a segment note's table become the parts' figures, by layout alone."""

    def test_part_headings_over_line_items(self) -> None:
        """'Americas:' over 'Net sales' and 'Operating income', then 'Europe:' the same."""
        table = _table([
            ("Americas:", []), ("Net sales", [167_045]), ("Operating income", [67_656]),
            ("Europe:", []), ("Net sales", [101_328]), ("Operating income", [41_790]),
        ])  # fmt: skip
        got = _parts(table)
        assert got[("Americas", "revenue")] == 167_045
        assert got[("Europe", "operating_income")] == 41_790

    def test_parts_above_a_total(self) -> None:
        """Unnamed rows adding up to 'Total revenue' are the revenue of each part; % rows skipped."""
        table = _table([
            ("Digital Media", [15_864]), ("Percentage of total revenue", [74]),
            ("Digital Experience", [5_366]), ("Percentage of total revenue", [25]),
            ("Publishing and Advertising", [275]), ("Total revenue", [21_505]),
        ])  # fmt: skip
        assert _parts(table) == {
            ("Digital Media", "revenue"): 15_864,
            ("Digital Experience", "revenue"): 5_366,
            ("Publishing and Advertising", "revenue"): 275,
        }

    def test_rows_that_do_not_add_up_are_no_parts(self) -> None:
        """Rows whose sum is not the total are no breakdown of it."""
        table = _table([("Cloud", [10]), ("Devices", [20]), ("Total revenue", [100])])
        assert _parts(table) == {}

    def test_only_in_a_note_about_parts(self) -> None:
        """The same rows on a page that speaks of no segment or region are left alone."""
        table = _table([("Cloud", [10]), ("Devices", [20]), ("Total revenue", [30])])
        assert _parts(table, {5: "Note 7 - Debt"}) == {}
        assert _parts(_table([("Cloud", [10]), ("Devices", [20]), ("Total revenue", [30])], "income")) == {}  # fmt: skip


class TestColumnsNamedByParts:
    """A segment table whose columns are the parts is read per column, the period from its line."""

    def test_parts_as_columns(self) -> None:
        """Each part's revenue and operating loss; the total column checks the sum."""
        grid = [
            ["North America", "Latin America", "Corporate", "Consolidated"],
            ["Year Ended December 31, 2024"],
            ["Net operating revenues", "$18,649", "$6,459", "$97", "$25,205"],
            ["Operating income (loss)", "$4,336", "$3,780", "$(5,252)", "$2,864"],
        ]
        texts = {5: "Segment information (in millions)"}
        tables = column_parts(DOC, [(5, grid)], texts)
        facts = {(f.dimensions[0][1], f.item): f for t in tables for f in t.facts}
        assert facts[("Latin America", "revenue")].value == 6_459e6
        assert facts[("Corporate", "operating_income")].value == -5_252e6
        assert facts[("North America", "revenue")].period.key == "FY2024"

    def test_total_revenues_row_of_the_columns(self) -> None:
        """'Total net operating revenues' (third party and intersegment) is each part's revenue."""
        grid = [
            ["Europe, Middle East & Africa", "Latin America", "Eliminations", "Consolidated"],
            ["Year Ended December 31, 2024"],
            ["Third party", "$7,442", "$6,459", "$—", "$13,901"],
            ["Intersegment", "680", "—", "(680)", "—"],
            ["Total net operating revenues", "8,122", "6,459", "(680)", "13,901"],
        ]
        tables = column_parts(DOC, [(5, grid)], {5: "Segment information (in millions)"})
        facts = {(f.dimensions[0][1], f.item): f.value for t in tables for f in t.facts}
        assert facts == {
            ("Europe, Middle East & Africa", "revenue"): 8_122e6,
            ("Latin America", "revenue"): 6_459e6,
            ("Eliminations", "revenue"): -680e6,
        }

    def test_columns_that_do_not_add_up(self) -> None:
        """Columns whose figures do not add up to the last one are no breakdown."""
        grid = [
            ["Owned", "Leased", "Total"],
            ["Year Ended December 31, 2024"],
            ["Net operating revenues", "5", "7", "99"],
        ]
        assert column_parts(DOC, [(5, grid)], {5: "Segment properties (in millions)"}) == []


class TestSubtotals:
    """A subtotal of places is one part of the breakdown below it, its places the company's."""

    def test_places_under_a_non_us_subtotal(self) -> None:
        """Asia and Europe under 'Total non-U.S. revenues', then the United States, add up to total revenues."""
        table = _table([
            ("Asia", [12_000]), ("Europe", [8_000]), ("Total non-U.S. revenues", [20_000]),
            ("United States", [36_000]), ("Total revenues", [56_000]),
        ])  # fmt: skip
        got = _parts(table)
        assert got[("Asia", "revenue")] == 12_000
        assert got[("United States", "revenue")] == 36_000

    def test_product_lines_under_a_brand_are_not_the_company_s(self) -> None:
        """Footwear under one brand's subtotal is that brand's footwear, not the company's."""
        table = _table([
            ("Footwear", [29_510]), ("Apparel", [12_965]), ("Total Acme Brand revenues", [42_475]),
            ("Converse", [1_692]), ("Total revenues", [44_167]),
        ])  # fmt: skip
        got = _parts(table)
        assert ("Footwear", "revenue") not in got
        assert got[("Converse", "revenue")] == 1_692

    def test_unclosed_subtotal_of_no_line_item(self) -> None:
        """A last 'Total' row no line item names closes nothing and raises nothing."""
        table = _table([("Cloud", [10]), ("Devices", [20]), ("Total", [30])])
        assert _parts(table) == {}
