"""Note tables that state no scale take the one printed once at the head of the notes section."""

from __future__ import annotations

from _statement_read import values_of as _values
from finqa.lexicon.statements import read_pages
from finqa.lexicon.statements.reader import notes_scale

HEAD = (
    "Acme Corp and Subsidiaries\nNotes to the Consolidated Financial Statements\n"
    "Years ended December 31, 2024, 2023 and 2022\n(Dollars in millions, except otherwise stated)\n"
    "Note 1 - Summary of Significant Accounting Policies\nWe make estimates.\n"
)
SBC_PAGE = (
    "Share-based plans expense and the related tax benefit were as follows:\n"
    "Years ended December 31, 2024 2023\nRestricted stock units $409 $697\nIncome tax benefit $107 $157\n"
)
SBC_GRID = (
    ("Years ended December 31,", "2024", "2023"),
    ("Restricted stock units", "$409", "$697"),
    ("Income tax benefit", "$107", "$157"),
)
SHARES_PAGE = "Options outstanding were as follows:\nYears ended December 31, 2024 2023\nOptions outstanding 903,999 792,662\n"  # fmt: skip
SHARES_GRID = (("Years ended December 31,", "2024", "2023"), ("Options outstanding", "903,999", "792,662"))  # fmt: skip


class TestNotesScale:
    def test_head_of_notes_found(self) -> None:
        """The scale line right under 'Notes to the Consolidated Financial Statements' (a period line between) is found."""
        assert notes_scale({4: "Item 8\nRevenue grew.", 61: HEAD}) == (
            61,
            "(Dollars in millions, except otherwise stated)",
        )

    def test_running_head_over_a_table_caption_is_not_the_notes_scale(self) -> None:
        """A table's own caption between the heading and '(Dollars in millions)' makes it that table's scale, not the notes'."""
        page = "Notes to the Consolidated Financial Statements\nSummary of Business Segment Data\n(Dollars in millions)\n"  # fmt: skip
        assert notes_scale({60: page}) is None

    def test_dollar_note_table_inherits(self) -> None:
        """A later note table of dollar amounts with no scale of its own is read in millions, and says so."""
        read = read_pages("ACME_10K", [(61, HEAD), (104, SBC_PAGE)], [(104, SBC_GRID)])
        assert _values(read, "Restricted stock units") == {"FY2024": 409e6, "FY2023": 697e6}
        table = next(t for t in read.tables if t.page == 104)
        assert table.scale == 1e6 and any("head of the notes (p.61)" in n for n in table.notes)

    def test_no_head_no_scale(self) -> None:
        """Without a notes head the same table's scale stays unknown (never guessed)."""
        read = read_pages("ACME_10K", [(104, SBC_PAGE)], [(104, SBC_GRID)])
        assert _values(read, "Restricted stock units") == {"FY2024": 409.0, "FY2023": 697.0}

    def test_counts_and_earlier_tables_do_not_inherit(self) -> None:
        """A table with no dollar amounts (share counts), or before the notes begin, keeps its figures as printed."""
        read = read_pages(
            "ACME_10K",
            [(30, SBC_PAGE), (61, HEAD), (105, SHARES_PAGE)],
            [(30, SBC_GRID), (105, SHARES_GRID)],
        )
        assert _values(read, "Options outstanding")["FY2024"] == 903_999
        assert _values(read, "Restricted stock units")["FY2024"] == 409


class TestOpeningScaleWord:
    """A header line that opens with the scale word states the table's scale."""

    def test_millions_opening_a_header(self) -> None:
        """'Millions, Except Per Share Amounts, ...', 'Millions 2024 2023' and 'Millions Common
        Shares ...' are in millions; 'Millions of barrels' and prose are not money scales."""
        from finqa.lexicon.statements.build import header_scale

        assert header_scale("Union Pacific\nMillions, Except Per Share Amounts, for the") == 1e6
        assert header_scale("Millions 2024 2023 2022") == 1e6
        assert header_scale("Millions Common Shares Treasury Stock Total") == 1e6
        assert header_scale("(in thousands)") == 1e3
        assert header_scale("Millions of barrels 2024") is None
        assert header_scale("millions more customers joined") is None
