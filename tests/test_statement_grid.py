"""The grid reader: statement tables read from a document's own table cells (EDGAR HTML)."""

from __future__ import annotations

from _statement_read import values_of as _values
from finqa.lexicon.statements import read_pages
from finqa.lexicon.statements.grid import is_ratio_caption, raw_tables_from_grid

INCOME_PAGE = """ACME CORP
CONSOLIDATED STATEMENTS OF EARNINGS
(Unaudited; Dollars & Shares in Millions Except Per Share Amounts)
Fiscal Second Quarter Ended
June 29, 2025 Percent to Sales June 30, 2024 Percent to Sales
Sales to customers $23,743 100.0% $22,447 100.0%
Cost of products sold 7,628 32.1 6,869 30.6
Net earnings $5,537 23.3% $4,686 20.9%
"""

INCOME_GRID = (
    ("Fiscal Second Quarter Ended",),
    ("June 29, 2025", "Percent to Sales", "June 30, 2024", "Percent to Sales"),
    ("Sales to customers", "$23,743", "100.0%", "$22,447", "100.0%"),
    ("Cost of products sold", "7,628", "32.1", "6,869", "30.6"),
    ("Net earnings", "$5,537", "23.3%", "$4,686", "20.9%"),
)

BALANCE_PAGE = """ACME CORP
CONSOLIDATED BALANCE SHEETS
(in millions)
June 29, 2025 December 29, 2024
Accounts receivable, trade, less allowances $185 (2024, $167) 17,846 14,842
Total costs and expenses (68,508) (70,070)
(1,991) 7,724
Total assets $193,389 180,104
"""

BALANCE_GRID = (
    ("June 29, 2025", "December 29, 2024"),
    ("Accounts receivable, trade, less allowances $185 (2024, $167)", "17,846", "14,842"),
    ("Total costs and expenses", "(68,508)", "(70,070)"),
    ("(1,991)", "7,724"),
    ("Total assets", "$193,389", "180,104"),
)


class TestGridReader:
    """Cells from the document's own table decide rows and columns, not spacing."""

    def test_ratio_columns_are_not_periods(self) -> None:
        """'Percent to Sales' columns are dropped: two quarter columns, in millions."""
        read = read_pages("ACME_10Q", [(0, INCOME_PAGE)], [(0, INCOME_GRID)])
        sales = _values(read, "Sales to customers")
        assert sales == {"2025Q2": 23_743e6, "2024Q2": 22_447e6}
        assert _values(read, "Cost of products sold")["2024Q2"] == 6_869e6

    def test_text_alone_cannot_read_ratio_columns(self) -> None:
        """Without the cells the same page yields no table (the header is not read as periods)."""
        read = read_pages("ACME_10Q", [(0, INCOME_PAGE)])
        assert not _values(read, "Sales to customers")

    def test_figures_in_a_caption_stay_caption(self) -> None:
        """'$185 (2024, $167)' inside the caption cell is label text, the value cells are read."""
        read = read_pages("ACME_10Q", [(0, BALANCE_PAGE)], [(0, BALANCE_GRID)])
        got = _values(read, "Accounts receivable, trade, less allowances $185 (2024, $167)")
        assert got == {"2025Q2@end": 17_846e6, "FY2024@end": 14_842e6}

    def test_uncaptioned_row_is_skipped_not_merged(self) -> None:
        """A row of figures with no caption is noted and skipped; the total above keeps its values."""
        read = read_pages("ACME_10Q", [(0, BALANCE_PAGE)], [(0, BALANCE_GRID)])
        assert _values(read, "Total costs and expenses")["2025Q2@end"] == -68_508e6
        table = read.tables[0]
        assert any("without a caption" in n for n in table.notes)
        assert all(f.value != -1_991e6 for f in table.facts)

    def test_grid_without_period_header_falls_back_to_text(self) -> None:
        """A grid with no period header gives no table, and the page text is read instead."""
        grid = (("Form 10-Q", "1"),)
        read = read_pages("ACME_10Q", [(0, BALANCE_PAGE)], [(0, grid)])
        assert _values(read, "Total assets") == {"2025Q2@end": 193_389e6, "FY2024@end": 180_104e6}

    def test_note_table_off_statement_pages(self) -> None:
        """A note's grid with period columns is typed as an 'other' table captioned by the line
        above; 'Total debt' under a bare year is a balance at that year's end."""
        note = (
            "Note 7 Debt\nWe issued notes in several currencies during the year, as follows.\n"
            "The components of debt were:\n(in millions) 2024 2023\nTotal debt 12,000 13,000\n"
        )
        grid = (("(in millions)", "2024", "2023"), ("Total debt", "12,000", "13,000"))
        read = read_pages("ACME_10K", [(0, INCOME_PAGE), (3, note)], [(3, grid)])
        other = [t for t in read.tables if t.statement == "other"]
        assert other and other[0].page == 3
        assert other[0].title == "The components of debt were:"
        assert _values(read, "Total debt")["FY2024@end"] == 12_000e6


class TestRatioCaption:
    """Which column captions name ratios rather than periods."""

    def test_captions(self) -> None:
        """'Percent to Sales', '% of revenue' and '% change' are ratios; dates and words are not."""
        assert is_ratio_caption("Percent to Sales") and is_ratio_caption("% of revenue")
        assert is_ratio_caption("% change")
        assert not is_ratio_caption("June 29, 2025") and not is_ratio_caption("Sales")

    def test_rows_above_the_header_are_context(self) -> None:
        """A scale line above the header is context for the scale, not a line item."""
        rows = (("(in thousands)",), ("2024", "2023"), ("Revenue", "1,000", "900"))
        raws = raw_tables_from_grid(rows, 0, kind="income", title="Statements of Income")
        assert len(raws) == 1 and [r[0] for r in raws[0].rows] == ["Revenue"]
        assert "(in thousands)" in raws[0].context


class TestRollForward:
    """A roll-forward note gives its balance rows as instants, by column caption."""

    GOODWILL = (
        ("Media", "Cloud", "Total"),
        ("Balance as of December 31, 2022", "$20,847", "$7,205", "$28,052"),
        ("Additions", "240", "3", "243"),
        ("Balance as of December 31, 2023", "21,087", "7,208", "28,295"),
    )

    def test_balances_by_caption_movements_left_out(self) -> None:
        """Each balance row is a year-end instant per column; 'Additions' is not typed."""
        note = (
            "Note 4 Goodwill\nWe test goodwill for impairment every year, as described below.\n"
            "Changes in the carrying amount of goodwill were as follows (in millions):\n"
            "Media Cloud Total\nBalance as of December 31, 2022 $20,847 $7,205 $28,052\n"
        )
        read = read_pages("ACME_10K", [(0, INCOME_PAGE), (4, note)], [(4, self.GOODWILL)])
        total = _values(read, "Total")
        assert total == {"FY2022@end": 28_052e6, "FY2023@end": 28_295e6}
        assert all(f.value != 243e6 for t in read.tables for f in t.facts)

    def test_quarter_end_rows_and_share_columns(self) -> None:
        """A bare date row is a quarter-end instant; a shares column is counted in shares."""
        from finqa.lexicon.statements.rollforward import build_rollforward

        rows = (
            ("Three Months Ended June 27, 2025", "Shares Outstanding", "Total"),
            ("March 28, 2025", "4,304", "$27,754"),
            ("Net income", "—", "4,573"),
        )
        table = build_rollforward(
            rows, doc_id="d", table_id="t", page=3, title="Equity", context="(in millions)"
        )
        assert table is not None
        got = {(f.label, f.period.key, f.unit): f.value for f in table.facts}
        assert got == {
            ("Shares Outstanding", "2025Q1@end", "shares"): 4_304e6,
            ("Total", "2025Q1@end", "USD"): 27_754e6,
        }

    def test_no_balance_row_no_table(self) -> None:
        """A grid without a dated balance row is not a roll-forward."""
        from finqa.lexicon.statements.rollforward import build_rollforward

        rows = (("Media", "Total"), ("Additions", "240", "243"))
        assert (
            build_rollforward(rows, doc_id="d", table_id="t", page=3, title="", context="") is None
        )


class TestCaptionedPeriodColumns:
    """A header with caption columns before its periods: each row's last cells are its figures."""

    def test_maturity_and_rate_columns_are_not_periods(self) -> None:
        """'2014 Notes | 2024 | 3.38% | 3.38% | $1,000 | $0' under 'Maturity | Coupon Rate | 2023 | 2024' reads 1,000 and 0."""
        from finqa.lexicon.statements.grid import raw_tables_from_grid

        rows = [
            ("Maturity", "Coupon Rate", "2023", "2024"),
            ("2014 Notes issuance", "2024", "3.38%", "3.38%", "$1,000", "$0"),
            ("Total face value of long-term debt", "13,000", "12,000"),
        ]
        (raw,) = raw_tables_from_grid(rows, 74, kind="other", title="Debt", context="(in millions)")
        assert raw.header_lines == ["2023 2024"]
        assert raw.rows == [
            ("2014 Notes issuance", ["$1,000", "$0"]),
            ("Total face value of long-term debt", ["13,000", "12,000"]),
        ]

    def test_a_row_of_figures_is_no_such_header(self) -> None:
        """A row whose leading cells hold digits ('Notes due 2030', '1,000', ...) heads nothing."""
        from finqa.lexicon.statements.grid import raw_tables_from_grid

        rows = [("Notes due 2030", "1,000", "2024", "2023")]
        assert raw_tables_from_grid(rows, 74, kind="other", title="Debt") == []
