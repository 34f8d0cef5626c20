"""Periods the statement model gives 10-Q and 10-K columns and rows, and which source a lookup prefers."""

from __future__ import annotations

from datetime import date

from finqa.lexicon.model import StatementFact, StatementPeriod, StatementTable
from finqa.lexicon.statements import MemoryStatementStore, primary_fact, read_pages
from finqa.lexicon.statements.balances import balance_period, balance_side

EQUITY_10Q = """ACME INC.
CONDENSED CONSOLIDATED STATEMENTS OF SHAREHOLDERS' EQUITY (Unaudited)
(In millions)
Three Months Ended Six Months Ended
June 28, 2025 June 29, 2024 June 28, 2025 June 29, 2024
Total shareholders' equity, beginning balances 66,796 74,194 56,950 62,146
Net income 23,434 21,448 84,544 79,000
Total shareholders' equity, ending balances 65,830 66,708 65,830 66,708
"""

CASH_10K = """ACME INC.
CONSOLIDATED STATEMENTS OF CASH FLOWS
(In millions)
Years Ended December 31, 2024 2023 2022
Net cash provided by operating activities 5,000 4,000 3,000
Cash and cash equivalents at beginning of year 9,000 10,000 11,000
Cash and cash equivalents at end of year 8,000 9,000 10,000
"""

NOTE_AS_OF = """ACME INC.
Note 9 Leases
Lease balances were as follows, and we discuss their terms in the paragraphs below the table.
(In millions)
"""


def _keys(read: object, label: str) -> dict[str, float]:
    return {
        f.period.key: f.value / 1e6
        for t in read.tables  # type: ignore[attr-defined]
        for f in t.facts
        if f.label == label
    }


class TestBalanceRows:
    """Opening and closing balances in a table of durations are instants."""

    def test_quarter_and_year_to_date_equity(self) -> None:
        """A quarter's opening balance is the prior quarter end; a six-month one the prior year end."""
        read = read_pages("ACME_10Q", [(0, EQUITY_10Q)])
        opening = _keys(read, "Total shareholders' equity, beginning balances")
        assert opening == {
            "2025Q1@end": 66_796,
            "2024Q1@end": 74_194,
            "FY2024@end": 56_950,
            "FY2023@end": 62_146,
        }
        closing = _keys(read, "Total shareholders' equity, ending balances")
        assert closing == {"2025Q2@end": 65_830, "2024Q2@end": 66_708}
        assert _keys(read, "Net income")["2025M6"] == 84_544  # flows keep their span

    def test_cash_at_end_of_year(self) -> None:
        """'at end of year' is the year-end balance; 'at beginning of year' the prior year end."""
        read = read_pages("ACME_10K", [(0, CASH_10K)])
        assert _keys(read, "Cash and cash equivalents at end of year")["FY2022@end"] == 10_000
        opening = _keys(read, "Cash and cash equivalents at beginning of year")
        assert opening == {"FY2023@end": 9_000, "FY2022@end": 10_000, "FY2021@end": 11_000}
        assert _keys(read, "Net cash provided by operating activities")["FY2024"] == 5_000

    def test_side_and_unknown_span(self) -> None:
        """Captions name their side; a column of unknown span gives no instant (never guessed)."""
        assert balance_side("Balance at beginning of year") == "opening"
        assert balance_side("Ending balance") == "closing" and balance_side("Net sales") is None
        unknown = StatementPeriod(label="2025", fiscal_year=2025, months=3)
        assert balance_period(unknown, "closing") is None
        instant = StatementPeriod(label="x", fiscal_year=2025, months=0, instant=True)
        assert balance_period(instant, "opening") is None


class TestNoteHeaders:
    """A note table headed by a date with no span of time lists balances."""

    def test_as_of_columns_are_instants(self) -> None:
        """'As of December 31,' over years keys the columns as year-end instants, in millions."""
        grid = (
            ("As of December 31,",),
            ("2024", "2023"),
            ("Total lease liabilities", "$1,213", "$1,362"),
        )
        read = read_pages("ACME_10K", [(0, CASH_10K), (5, NOTE_AS_OF)], [(5, grid)])
        assert _keys(read, "Total lease liabilities") == {"FY2024@end": 1_213, "FY2023@end": 1_362}

    def test_year_ended_columns_stay_durations(self) -> None:
        """'Year Ended December 31,' over years keys the columns as fiscal years."""
        grid = (("Year Ended December 31,",), ("2024", "2023"), ("Lease cost", "$684", "$641"))
        read = read_pages("ACME_10K", [(0, CASH_10K), (5, NOTE_AS_OF)], [(5, grid)])
        assert _keys(read, "Lease cost") == {"FY2024": 684, "FY2023": 641}


def _fact(source: str, value: float, dims: tuple[tuple[str, str], ...] = ()) -> StatementFact:
    period = StatementPeriod(
        label="FY2024", fiscal_year=2024, months=12, end_date=date(2024, 11, 29)
    )
    return StatementFact(
        doc_id="d", statement="income", label="Total revenue" if source != "xbrl" else "us-gaap:Revenues",
        item="revenue" if not dims else None, period=period, value=value, page=3 if source == "xbrl" else 1,
        source=source, dimensions=dims,  # type: ignore[arg-type]
    )  # fmt: skip


class TestLookupPrefersTags:
    """A lookup gives the filing's own tag for the total before a figure read from the text."""

    def _store(self, *facts: StatementFact) -> MemoryStatementStore:
        tables = [
            StatementTable(
                table_id=f"t{n}", doc_id="d", statement="income", facts=(f,), source=f.source
            )  # fmt: skip
            for n, f in enumerate(facts)
        ]
        return MemoryStatementStore(tables)

    def test_tag_first_and_source_recorded(self) -> None:
        """Text-read 17,606 and tagged 21,505 for FY2024: the tag comes first and is primary."""
        store = self._store(_fact("text", 17_606e6), _fact("xbrl", 21_505e6))
        found = store.lookup("d", "revenue", 2024)
        assert [(f.source, f.value) for f in found] == [("xbrl", 21_505e6), ("text", 17_606e6)]
        chosen = primary_fact(found)
        assert chosen is not None and chosen.source == "xbrl"

    def test_dimensioned_tag_is_never_preferred(self) -> None:
        """A segment's tag (a dimension, no item) never stands in for the total."""
        seg = _fact("xbrl", 15_000e6, (("us-gaap:StatementBusinessSegmentsAxis", "x:Media"),))
        store = self._store(_fact("text", 21_505e6), seg)
        found = store.lookup("d", "revenue", 2024)
        assert [(f.source, f.value) for f in found] == [("text", 21_505e6)]

    def test_text_only_when_nothing_tagged(self) -> None:
        """Without tags the text-read figure is the answer."""
        store = self._store(_fact("text", 17_606e6))
        chosen = primary_fact(store.lookup("d", "revenue", 2024))
        assert chosen is not None and chosen.source == "text"


class TestTagsDisagree:
    """Two tags of one line item and period that disagree leave the item unread."""

    def test_disagreeing_totals_have_no_item(self) -> None:
        """Revenues 21,505 and a revenue-mapped subtotal 20,000 for FY2024: neither is 'revenue'."""
        from finqa.lexicon.xbrl import XbrlFact, statement_tables

        def tag(concept: str, value: float, cid: str) -> XbrlFact:
            return XbrlFact(
                concept=concept, value=value, unit="USD", scale=6, decimals=-6, negative=False,
                start=date(2023, 12, 2), end=date(2024, 11, 29), dimensions=(), context_id=cid,
                page=1, raw="x", item="revenue",
            )  # fmt: skip

        agree = statement_tables("a", [tag("us-gaap:Revenues", 21_505e6, "c1")], 11)
        store = MemoryStatementStore(agree)
        assert [f.value for f in store.lookup("a", "revenue", 2024)] == [21_505e6]
        both = [
            tag("us-gaap:Revenues", 21_505e6, "c1"),
            tag("us-gaap:RevenueFromContractWithCustomerExcludingAssessedTax", 20_000e6, "c2"),
        ]
        store = MemoryStatementStore(statement_tables("a", both, 11))
        assert store.lookup("a", "revenue", 2024) == []
        assert {f.value for t in store.tables("a", "other") for f in t.facts} == {
            21_505e6,
            20_000e6,
        }


class TestScaleCaptionHeader:
    """Years printed after the table's scale caption are its column header."""

    PAGE = """Acme Corp and Subsidiaries
Consolidated Balance Sheet
At December 31
(Dollars in millions, except per share amount) 2022 2021
Assets
Cash and cash equivalents $ 3,655 $ 4,564
Total current assets 14,688 15,403
Total assets $ 46,455 $ 47,072
Total liabilities and equity $ 46,455 $ 47,072
"""

    def test_balance_sheet_read_at_each_year_end(self) -> None:
        """'At December 31' over '(Dollars in millions, ...) 2022 2021': two instants."""
        read = read_pages("ACME_2022_10K", [(49, self.PAGE)])
        (table,) = [t for t in read.tables if t.statement == "balance"]
        assert [(p.end_date, p.instant) for p in table.periods] == [
            (date(2022, 12, 31), True),
            (date(2021, 12, 31), True),
        ]
        cash = [f for f in table.facts if f.label == "Cash and cash equivalents"]
        assert [f.value for f in cash] == [3_655e6, 4_564e6]


class TestEquityMatrixBalances:
    """An equity matrix's balance rows fill every column; its movements leave some blank."""

    def test_balance_rows_wider_than_the_movements(self) -> None:
        """'Balance at May 31, 2022 305 $— 1,266 $3 $11,484 $318 $3,476 $15,281' beside two-cell
        movement rows is the total equity at that year end, its last cell."""
        from finqa.lexicon.statements.equity import build_equity
        from finqa.lexicon.statements.raw import RawTable

        bal = ["305", "$—", "1,266", "$3", "$11,484", "$318", "$3,476"]
        rows = [
            ("Balance at May 31, 2022", [*bal, "$15,281"]),
            ("Stock-based compensation", ["755", "755"]),
            ("Net income", ["5,070", "5,070"]),
            ("Other comprehensive income (loss)", ["(87)", "(87)"]),
            ("Balance at May 31, 2023", [*bal, "$14,004"]),
            ("Net income", ["5,700", "5,700"]),
            ("Balance at May 31, 2024", [*bal, "$14,430"]),
        ]
        raw = RawTable(
            page=62, kind="equity", title="CONSOLIDATED STATEMENTS OF SHAREHOLDERS' EQUITY",
            header_lines=[], rows=rows, context="(In millions, except per share data) TOTAL",
        )  # fmt: skip
        table = build_equity(raw, doc_id="NIKE_2025_10K", table_id="t0", company="Nike")
        assert isinstance(table, StatementTable)
        balances = {
            f.period.key: f.value / 1e6 for f in table.facts if f.label.startswith("Balance")
        }
        assert balances == {"FY2022@end": 15_281, "FY2023@end": 14_004, "FY2024@end": 14_430}


CASH_RESTRICTED_10K = """ACME INC.
CONSOLIDATED STATEMENTS OF CASH FLOWS
(In millions)
Years Ended December 31, 2020 2019
Net cash provided by operating activities 5,000 4,000
Net Increase/(Decrease) in Cash and Cash Equivalents and Restricted Cash 2,684 (5,199)
Cash and Cash Equivalents and Restricted Cash, Beginning of Year 5,570 10,769
Cash and Cash Equivalents and Restricted Cash, End of Year 8,254 5,570
"""


class TestCashFlowStatementBalance:
    def test_cash_and_restricted_cash_is_its_own_item(self) -> None:
        """The balance the cash-flow statement reconciles (with restricted cash) is its own
        item at each opening and closing instant, never the balance sheet's cash; the net
        change is the movement of that balance (`cash_and_restricted_cash_change`, a duration)."""
        read = read_pages("ACME_10K", [(0, CASH_RESTRICTED_10K)])
        items = {(f.label, f.period.key): f.item for t in read.tables for f in t.facts}
        end = "Cash and Cash Equivalents and Restricted Cash, End of Year"
        begin = "Cash and Cash Equivalents and Restricted Cash, Beginning of Year"
        assert items[(end, "FY2020@end")] == "cash_and_restricted_cash"
        assert items[(begin, "FY2019@end")] == "cash_and_restricted_cash"
        change = "Net Increase/(Decrease) in Cash and Cash Equivalents and Restricted Cash"
        assert items[(change, "FY2020")] == "cash_and_restricted_cash_change"

    def test_a_balance_sheet_items_opening_row_stays_unmapped(self) -> None:
        """'Cash and cash equivalents at end of year' on the cash-flow statement is no second
        copy of the balance sheet's cash (its line is read there)."""
        read = read_pages("ACME_10K", [(0, CASH_10K)])
        items = {f.label: f.item for t in read.tables for f in t.facts}
        assert items["Cash and cash equivalents at end of year"] is None
