"""The main printing of a primary statement: a statement over two pages against a one-page
parent-company-only condensed statement, and a page of several small tables (synthetic figures)."""

from __future__ import annotations

from finqa.lexicon.model import StatementFact, StatementPeriod, StatementTable
from finqa.lexicon.statements.main_printing import main_pages, on_main_printing

DOC = "HOLDCO_2018_10K"
PERIODS = (
    StatementPeriod(label="2018", fiscal_year=2018, months=0),
    StatementPeriod(label="2017", fiscal_year=2017, months=0),
)


def _table(page: int, title: str, labels: list[str], tid: str = "t0") -> StatementTable:
    facts = tuple(
        StatementFact(
            doc_id=DOC,
            statement="balance",
            table_id=f"p{page}-{tid}",
            label=label,
            period=PERIODS[c],
            value=float(100 * (r + 1) + c),
            page=page,
            row=r,
            column=c,
        )  # fmt: skip
        for r, label in enumerate(labels)
        for c in range(2)
    )
    return StatementTable(
        table_id=f"p{page}-{tid}", doc_id=DOC, statement="balance", pages=(page,), title=title,
        periods=PERIODS, labels=tuple(labels), facts=facts,
    )  # fmt: skip


def _lines(prefix: str, n: int) -> list[str]:
    return [f"{prefix} line {i}" for i in range(n)]


class TestMainPrinting:
    def test_two_page_statement_outnumbers_a_one_page_parent_only_sheet(self) -> None:
        """Assets on one page, liabilities and equity on the next: one printing of 24 lines,
        not two of 12, so the parent's condensed sheet of 15 lines on one page is not it."""
        tables = [
            _table(96, "CONSOLIDATED BALANCE SHEETS", _lines("asset", 12)),
            _table(97, "Consolidated Balance Sheets (continued)", _lines("liability", 12)),
            _table(193, "CONDENSED BALANCE SHEETS", _lines("parent", 15)),
        ]
        main = main_pages(tables)
        assert main["balance"] == 96
        assert on_main_printing("balance", 97, "text", main)
        assert not on_main_printing("balance", 193, "text", main)

    def test_one_page_statement_stays_main_when_longest(self) -> None:
        """A verdict that can come out the other way: a one-page sheet longer than a two-page
        run of a different title (a summary, then the statement) is the main printing."""
        tables = [
            _table(30, "Selected Balance Sheet Data", _lines("summary", 12)),
            _table(31, "Liquidity", _lines("other", 12)),
            _table(80, "CONSOLIDATED BALANCE SHEETS", _lines("asset", 20)),
        ]
        assert main_pages(tables)["balance"] == 80

    def test_a_page_of_small_tables_is_no_continued_statement(self) -> None:
        """Three small tables on a page and three on the next (a release's supplemental pages
        under one running title) do not add up to outnumber the statement itself."""
        title = "CONDENSED CONSOLIDATED BALANCE SHEETS"
        tables = [_table(4, title, _lines("main", 20))]
        tables += [_table(6, title, _lines(f"a{i}", 6), tid=f"t{i}") for i in range(3)]
        tables += [_table(7, title, _lines(f"b{i}", 6), tid=f"t{i}") for i in range(3)]
        assert main_pages(tables)["balance"] == 4

    def test_combined_filing_the_first_registrants_statement(self) -> None:
        """A combined filing prints the parent registrant's statement, then its subsidiary's
        of much the same length (one line more): the first is the main printing; a later
        note table a few lines longer does not displace it either."""
        tables = [
            _table(98, "CONSOLIDATED BALANCE SHEETS", _lines("parent", 34)),
            _table(105, "CONSOLIDATED BALANCE SHEETS", _lines("utility", 35)),
            _table(140, "Balances reclassified", _lines("note", 38)),
        ]
        assert main_pages(tables)["balance"] == 98

    def test_an_earlier_summary_is_no_full_printing(self) -> None:
        """The verdict the other way: a summary of half the statement's lines printed first
        (selected financial data) is not the main printing."""
        tables = [
            _table(30, "Selected Financial Data", _lines("summary", 17)),
            _table(80, "CONSOLIDATED BALANCE SHEETS", _lines("asset", 34)),
        ]
        assert main_pages(tables)["balance"] == 80
