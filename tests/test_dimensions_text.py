"""A segment note printed as text is read into the statement model with its parts as
dimensions (lexicon/statements/parts.py), so a text-only filing's segment figures can be asked."""

from __future__ import annotations

from finqa.lexicon.dimensions import DimensionMember, members_of, resolve_dimension
from finqa.lexicon.model import StatementFact, StatementPeriod, StatementTable
from finqa.lexicon.statements.parts import part_tables
from finqa.lexicon.statements.parts_columns import column_parts, grouped_column_parts

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


class TestIncomeStatementRevenueLines:
    """The income statement's revenue lines over its total are the offerings' revenue."""

    def test_products_and_services(self) -> None:
        """'Products' and 'Services' over 'Total net sales' are read on the product axis."""
        table = _table([("Products", [66_613]), ("Services", [27_423]), ("Total net sales", [94_036])], "income")  # fmt: skip
        facts = [f for t in part_tables([table], {}) for f in t.facts]
        assert {(f.dimensions[0], f.value / 1e6) for f in facts} == {
            (("srt:ProductOrServiceAxis", "Products"), 66_613),
            (("srt:ProductOrServiceAxis", "Services"), 27_423),
        }

    def test_expense_lines_are_no_parts(self) -> None:
        """Unnamed lines over an expense total on the income statement are expenses, not parts."""
        table = _table([("Licensing fees", [10]), ("Royalties", [20]), ("Total operating expenses", [30])], "income")  # fmt: skip
        assert _parts(table, {}) == {}


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

    def test_total_row_captioned_by_its_kinds(self) -> None:
        """A 'Total X' row whose X lists the line's kinds but one ('Total selling and
        administrative expense') is that line item: each column's figure is the part's."""
        grid = [
            ["Total Brand", "Converse", "Corporate", "Total Company"],
            ["Year Ended May 31, 2025"],
            ["Revenues", "$44,714", "$1,692", "$(97)", "$46,309"],
            ["Demand creation expense", "4,521", "156", "12", "4,689"],
            ["Operating overhead expense", "8,807", "430", "2,162", "11,399"],
            ["Total selling and administrative expense", "13,328", "586", "2,174", "16,088"],
        ]
        tables = column_parts(DOC, [(5, grid)], {5: "Segment information (in millions)"})
        facts = {(f.dimensions[0][1], f.item): f.value for t in tables for f in t.facts}
        assert facts[("Converse", "sga")] == 586e6
        assert facts[("Corporate", "sga")] == 2_174e6


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


def _titled(rows: list[tuple[str, list[float]]], title: str) -> StatementTable:
    return _table(rows).model_copy(update={"title": title})


class TestTotalsWithoutCaption:
    """A total row that names no line item is recognised by arithmetic and the table's caption."""

    def test_bare_total_is_the_caption_s_line_item(self) -> None:
        """'Total' under places adding up to it, in a table captioned 'Sales by geographic area'."""
        table = _titled([("United States", [13_544]), ("Europe", [5_387]), ("Asia-Pacific, Africa", [3_606]), ("Total", [22_537])], "Sales by geographic area")  # fmt: skip
        got = _parts(table)
        assert got[("United States", "revenue")] == 13_544
        assert got[("Asia-Pacific, Africa", "revenue")] == 3_606

    def test_bare_total_that_does_not_add_up(self) -> None:
        """A 'Total' the rows above do not add up to makes no parts."""
        table = _titled([("United States", [13_544]), ("Europe", [5_387]), ("Total", [30_000])], "Sales by geographic area")  # fmt: skip
        assert _parts(table) == {}

    def test_caption_naming_no_amount(self) -> None:
        """A caption naming a balance ('Identifiable assets') gives its 'Total' no flow to split."""
        table = _titled([("Innovative Medicine", [75_487]), ("MedTech", [86_745]), ("Total", [162_232])], "Identifiable Assets")  # fmt: skip
        assert _parts(table) == {}

    def test_rows_the_catalogue_names_are_summed_not_named(self) -> None:
        """A row printed 'Sales' counts in the sum but is no part: it reads as the line item."""
        table = _titled([("Sales", [8_322]), ("Integration and Analytics (1)", [5_775]), ("Total", [14_097])], "Revenues disaggregated by offering")  # fmt: skip
        assert _parts(table) == {("Integration and Analytics", "revenue"): 5_775}


class TestSubtotalsOfRegions:
    """A region's subtotal in a table by geography keeps the places it adds up."""

    def test_united_states_under_total_americas(self) -> None:
        """'Americas:' / United States / Other / 'Total Americas', then EMEA and APAC, over revenue."""
        table = _titled([
            ("Americas:", []), ("United States", [11_499]), ("Other", [1_392]),
            ("Total Americas", [12_891]), ("EMEA", [5_554]), ("APAC", [3_060]), ("Revenue", [21_505]),
        ], "Revenue by geographic area")  # fmt: skip
        got = _parts(table)
        assert got[("United States", "revenue")] == 11_499
        assert got[("Americas", "revenue")] == 12_891
        assert got[("APAC", "revenue")] == 3_060


class TestLossCaptions:
    """A loss caption names the income line it is the negative of."""

    def test_segment_operating_loss(self) -> None:
        """Segments over 'Segment operating loss' are each segment's operating income, signed."""
        table = _table([
            ("Loss from operations:", []), ("Airplanes", [-7_969]), ("Defense", [-5_413]),
            ("Services", [3_618]), ("Segment operating loss", [-9_764]),
        ])  # fmt: skip
        got = _parts(table)
        assert got[("Airplanes", "operating_income")] == -7_969
        assert got[("Services", "operating_income")] == 3_618


class TestGridsReadForParts:
    """A segment note's grid with percentage columns or an uncaptioned total is read for its parts."""

    def test_uncaptioned_total_and_percent_columns(self) -> None:
        """Amount columns are the periods, '%' columns dropped; the caption-less last row is the total."""
        from finqa.lexicon.statements.parts_grid import grid_part_tables

        grid = [
            ["Fiscal Year Ended January 31,"],
            ["2025", "2024"],
            ["Americas", "$25,143", "66%", "$23,289", "67%"],
            ["Europe", "8,891", "24", "8,128", "23"],
            ["Asia Pacific", "3,861", "10", "3,440", "10"],
            ["$37,895", "100%", "$34,857", "100%"],
        ]
        text = "Revenues by geographical region consisted of the following (in millions):\nFiscal Year Ended January 31,\n2025 2024\nAmericas $25,143 66% $23,289 67%"
        tables = grid_part_tables(DOC, [(5, grid)], {5: text})
        got = {(f.dimensions[0][1], f.period.key): f.value for t in tables for f in t.facts}
        assert got[("Americas", "FY2024")] == 23_289e6
        assert got[("Asia Pacific", "FY2025")] == 3_861e6

    def test_columns_not_one_per_period(self) -> None:
        """Three amount columns under two periods: no table, no parts."""
        from finqa.lexicon.statements.parts_grid import grid_table

        grid = [["2025", "2024"], ["Americas", "1", "2", "3"], ["Europe", "1", "2", "3"], ["Total revenues", "2", "4", "6"]]  # fmt: skip
        assert grid_table(DOC, 5, 0, grid, "Revenue by region (in millions)") is None

    def test_grid_without_a_stated_scale(self) -> None:
        """A grid whose page states no scale and has no typed table to take one from is left alone."""
        from finqa.lexicon.statements.parts_grid import grid_table

        grid = [["2025", "2024"], ["Americas", "1", "2"], ["Europe", "1", "2"], ["Total revenues", "2", "4"]]  # fmt: skip
        assert grid_table(DOC, 5, 0, grid, "Revenue by region") is None
        assert grid_table(DOC, 5, 0, grid, "Revenue by region", fallback_scale=1e6) is not None


def _printed(*names: str) -> tuple[DimensionMember, ...]:
    """The vocabulary of parts a text table names (captions as printed, no tags)."""
    facts = [
        StatementFact(
            doc_id=DOC, statement="segment", table_id="p5-t0-parts", label=n, period=FY24,
            value=1e6, page=5, row=i, dimensions=(("srt:StatementGeographicalAxis", n),),
        )
        for i, n in enumerate(names)
    ]  # fmt: skip
    return members_of(facts)


class TestPrintedNamesMatched:
    """A question names a part as its tag reads; the filing prints it otherwise."""

    def _member(self, question: str, *names: str) -> str | None:
        asked = resolve_dimension(question, _printed(*names))
        return asked.member if asked is not None else None

    def test_acronym_for_the_words(self) -> None:
        """'APAC' and 'EMEA' printed; the question says Asia Pacific, Europe Middle East Africa."""
        names = ("APAC", "EMEA", "Americas")
        assert (
            self._member("What was Acme's revenue from Asia Pacific in fiscal year 2024?", *names)
            == "APAC"
        )
        assert (
            self._member("What was Acme's revenue from Europe Middle East Africa in 2024?", *names)
            == "EMEA"
        )

    def test_initials_for_some_words(self) -> None:
        """'A Pacific' (the tag's 'A.Pacific') is the printed Asia Pacific; 'Pacific' alone is
        not when two printed names end with it (tests/test_dimension_name_structure.py)."""
        names = ("Asia Pacific", "Latin America")
        assert (
            self._member("What was Acme's A Pacific segment's revenue in 2024?", *names)
            == "Asia Pacific"
        )
        question = "What was Acme's Pacific segment's revenue in 2024?"
        assert self._member(question, *names, "South Pacific") is None

    def test_no_acronym_from_running_words(self) -> None:
        """'total assets change' is no spelling of a printed 'TAC': running words are no name."""
        question = "By how much did Acme's total assets change from fiscal year 2023 to 2024?"
        assert self._member(question, "TAC", "EMEA") is None

    def test_no_acronym_from_other_letters(self) -> None:
        """'APAC' does not abbreviate Latin America."""
        assert self._member("What was Acme's revenue from Latin America in 2024?", "APAC") is None

    def test_line_item_words_and_plurals(self) -> None:
        """'Sales of products' printed is the question's 'Product'."""
        got = self._member(
            "What was Acme's revenue from Product in 2024?",
            "Sales of products",
            "Sales of services",
        )
        assert got == "Sales of products"

    def test_linking_words_and_plurals_of_each_word(self) -> None:
        """The tag's 'Service Other' is the printed 'Services and other'."""
        got = self._member(
            "What was Acme's revenue from Service Other in 2024?",
            "Services and other",
            "Subscription",
        )
        assert got == "Services and other"

    def test_a_wider_name_is_not_the_member_inside_it(self) -> None:
        """'Americas Excluding United States' is not the United States printed beside it."""
        got = self._member(
            "What was Acme's revenue from Americas Excluding United States in 2024?",
            "United States",
            "EMEA",
        )
        assert got is None

    def test_company_name_before_the_part(self) -> None:
        """'Boeing Defense, Space & Security' is the printed 'Defense, Space & Security'."""
        got = self._member(
            "What was Boeing's Boeing Defense Space Security segment's revenue in fiscal year 2024?",
            "Defense, Space & Security",
            "Global Services",
        )
        assert got == "Defense, Space & Security"


class TestCountryInASentence:
    """A segment note's sentence stating a country's revenue gives that country's figure."""

    def _sentence(self, label: str) -> StatementTable:
        table = _table([(label, [16_100])])
        return table.model_copy(update={"table_id": "p5-s0", "facts": tuple(f.model_copy(update={"table_id": "p5-s0"}) for f in table.facts)})  # fmt: skip

    def test_us_revenues_sentence(self) -> None:
        """'Total U.S. revenues were $16.1 billion ...' is revenue of country:US."""
        from finqa.lexicon.statements.parts import sentence_parts

        got = [
            f
            for t in sentence_parts([self._sentence("Total U.S. revenues")], NOTE)
            for f in t.facts
        ]
        assert [(f.dimensions, f.item, f.value) for f in got] == [((("srt:StatementGeographicalAxis", "country:US"),), "revenue", 16_100e6)]  # fmt: skip

    def test_revenues_derived_in_a_country(self) -> None:
        """'Revenues derived in the United States were $19,725 million, ...' is country:US."""
        from finqa.lexicon.statements.parts import sentence_parts

        got = [
            f
            for t in sentence_parts([self._sentence("Revenues derived in the United States")], NOTE)
            for f in t.facts
        ]
        assert [f.dimensions[0][1] for f in got] == ["country:US"]

    def test_a_region_or_another_page_is_not_read(self) -> None:
        """A region in prose, or a country's revenue outside a note about parts, gives nothing."""
        from finqa.lexicon.statements.parts import sentence_parts

        assert sentence_parts([self._sentence("Total EMEA revenues")], NOTE) == []
        assert sentence_parts([self._sentence("Total U.S. revenues")], {5: "Note 9 - Leases"}) == []


class TestColumnsWithSubtotals:
    """Parts as columns with a brand's subtotal column, and product lines down the side."""

    GRID = [
        ["YEAR ENDED MAY 31, 2025"],
        [
            "(Dollars in millions)",
            "NORTH AMERICA",
            "EUROPE",
            "TOTAL ACME BRAND",
            "CONVERSE",
            "TOTAL ACME, INC.",
        ],
        ["Revenues by:"],
        ["Footwear", "$12,684", "$7,569", "$20,253", "$1,457", "$21,710"],
        ["Apparel", "5,837", "3,971", "9,808", "80", "9,888"],
        ["TOTAL REVENUES", "$18,521", "$11,540", "$30,061", "$1,537", "$31,598"],
    ]

    def _facts(self) -> dict[tuple[str, str], float]:
        tables = column_parts(
            DOC, [(5, self.GRID)], {5: "Note 15 - Operating segments (in millions)"}
        )
        return {
            (f.dimensions[0][0], f.dimensions[0][1]): f.value / 1e6 for t in tables for f in t.facts
        }

    def test_brand_subtotal_and_its_regions(self) -> None:
        """The brand's total and Converse are the company's parts; the brand's regions are not."""
        got = self._facts()
        assert got[("us-gaap:StatementBusinessSegmentsAxis", "ACME BRAND")] == 30_061
        assert got[("us-gaap:StatementBusinessSegmentsAxis", "CONVERSE")] == 1_537
        assert not any(name == "NORTH AMERICA" for _, name in got)

    def test_product_lines_from_the_total_column(self) -> None:
        """Footwear's company-wide revenue is its figure in the total column."""
        got = self._facts()
        assert got[("srt:ProductOrServiceAxis", "Footwear")] == 21_710
        assert got[("srt:ProductOrServiceAxis", "Apparel")] == 9_888


class TestPeriodsOverParts:
    """A two-row header of periods over parts, each group ending with a total."""

    GRID = [
        ["Fiscal Second Quarter Ended"],
        ["(Dollars in Millions)", "June 29, 2025", "June 30, 2024"],
        ["Medicine(1)", "Devices(2)", "Total", "Medicine(1)", "Devices(2)", "Total"],
        ["Sales to customers", "$15,202", "8,541", "14,490", "7,957"],
        ["Segment income before tax", "$5,552", "1,204", "6,756", "5,459", "1,089", "6,548"],
    ]

    def test_parts_per_period_without_the_blank_total(self) -> None:
        """Sales printed for the parts only are each part's revenue, per period."""
        tables = grouped_column_parts(DOC, [(5, self.GRID)], {5: "Segment information"})
        got = {(f.dimensions[0][1], f.period.key): f.value / 1e6 for t in tables for f in t.facts}
        assert got[("Medicine", "2025Q2")] == 15_202
        assert got[("Devices", "2024Q2")] == 7_957

    def test_parts_that_do_not_add_up(self) -> None:
        """No row of the grid adds up to its totals: no breakdown."""
        grid = [
            *self.GRID[:4],
            ["Segment income before tax", "$5,552", "1,204", "9,999", "5,459", "1,089", "9,999"],
        ]
        assert grouped_column_parts(DOC, [(5, grid)], {5: "Segment information"}) == []


class TestColumnsWithABareTotal:
    """Columns of places over product lines, a bare 'Total' row: its line item is the caption's."""

    GRID = [
        ["United States", "International", "Total"],
        ["Year Ended December 31, 2024"],
        ["Concentrate operations", "$8,813", "$18,912", "$27,725"],
        ["Finished product operations", "9,549", "9,787", "19,336"],
        ["Total", "$18,362", "$28,699", "$47,061"],
    ]
    TEXT = (
        "Gains were recorded in other income (loss) - net.\n"
        "The following table presents net operating revenues disaggregated between the United"
        " States and International (in millions):\nUnited States International Total\n"
    )

    def test_places_and_product_lines(self) -> None:
        """The places' revenue from the Total row, the product lines' from the total column."""
        tables = column_parts(DOC, [(5, self.GRID)], {5: self.TEXT})
        got = {(f.dimensions[0][1], f.item): f.value / 1e6 for t in tables for f in t.facts}
        assert got[("United States", "revenue")] == 18_362
        assert got[("Concentrate operations", "revenue")] == 27_725
        assert ("United States", "other_income") not in got
