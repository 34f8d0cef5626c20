"""The reasoner's `Book` takes its evidence rows from the one text reader
(`lexicon.statements.text.read_text_block`): flowed rows, a glued header and per-share lines
beside a thousands table are read as the reader reads them, each row with its offsets."""

from __future__ import annotations

import ast
from pathlib import Path

from _reasoning_data import evidence
from finqa.agents.reasoning.offline.book import Book
from finqa.lexicon.statements.located import row_label

ROOT = Path(__file__).resolve().parents[1]
OFFLINE = ROOT / "agents" / "reasoning" / "offline"

# an extraction that flowed the balance sheet's header and rows onto one line
FLOWED = (
    "CONSOLIDATED BALANCE SHEETS\n(in millions)\n"
    "December 31, 2019 2018 ASSETS Current assets Cash and cash equivalents $ 2,329 $ 1,526 "
    "Accounts receivable, net 612 657 Total current assets 2,941 2,183\n"
)
# a period header run into the first row
GLUED = (
    "CONSOLIDATED STATEMENTS OF INCOME\n(in millions)\n"
    "Year Ended December 31, 2019 2018 2017 Net income $ 2,214 $ 583 $ 2,088\n"
)
# amounts in thousands, per-share figures under their own heading
PER_SHARE = (
    "CONSOLIDATED STATEMENTS OF OPERATIONS\n(in thousands, except per share data)\n"
    "2022 2021\nNet sales 1,500 1,200\nNet income 300 240\n"
    "Earnings per share:\nBasic $ 1.59 $ 1.30\nDiluted 1.55 1.27\n"
)


class TestBookFromReaderRows:
    """Rows of the evidence text come from the statement text reader, offsets kept."""

    def test_flowed_statement(self) -> None:
        """Rows run together on one line (after the header) are read one per caption."""
        book = Book(evidence(FLOWED))
        ar = book.find("accounts_receivable", 2019)
        assert ar is not None and ar.value == 612 and ar.row.scale == 1e6
        assert ar.row.primary and ar.row.statement == "balance"
        tca = book.find("total_current_assets", 2018)
        assert tca is not None and tca.value == 2183

    def test_glued_header(self) -> None:
        """A period header running into the first row gives that row's column years."""
        book = Book(evidence(GLUED))
        found = book.find("net_income", 2018)
        assert found is not None and found.value == 583 and not found.row.header_inferred

    def test_per_share_beside_thousands(self) -> None:
        """Per-share lines under their heading are per-share rows, never amounts in thousands."""
        book = Book(evidence(PER_SHARE))
        eps = book.find("eps_diluted", 2022)
        assert eps is not None and eps.value == 1.55 and eps.row.per_share
        income = book.find("net_income", 2021)
        assert income is not None and income.value == 240 and income.row.scale == 1e3
        assert not income.row.per_share

    def test_rows_keep_offsets(self) -> None:
        """A text row carries where the reader read its caption and cells in the evidence text."""
        book = Book(evidence(FLOWED))
        row = next(r for r in book.rows if r.key == "accountsreceivablenet")
        assert row.at is not None and row.at.caption is not None
        start, end = row.at.caption
        assert FLOWED[start:end] == "Accounts receivable, net"
        assert [FLOWED[c[0] : c[1]] for c in row.at.cells if c] == ["612", "657"]

    def test_first_of_several_titles(self) -> None:
        """Several statements in one text (read as an index by the page head): the first
        statement's rows are still that statement's, primary."""
        text = (
            "Consolidated Statements of Operations\n(in millions)\n2022 2021\n"
            "Net income 820 1,263\n"
            "Consolidated Balance Sheets\n(in millions)\n2022 2021\nTotal assets 30,000 28,000\n"
            "Consolidated Statements of Cash Flows\n(in millions)\n2022 2021\n"
            "Capital expenditures (2,600) (2,100)\n"
        )
        row = next(r for r in Book(evidence(text)).rows if r.key == "netincome")
        assert row.statement == "income" and row.primary

    def test_scale_of_a_second_table(self) -> None:
        """A second table's own scale note, printed between the tables, is that table's scale."""
        text = (
            "CONSOLIDATED STATEMENTS OF INCOME\n(in millions)\n2022 2021\n"
            "Net sales 1,500 1,200\n(in thousands)\n2022 2021\n"
            "Restructuring charges 4,200 3,100\n"
        )
        rows = {r.key: r for r in Book(evidence(text)).rows}
        assert rows["netsales"].scale == 1e6 and rows["restructuringcharges"].scale == 1e3

    def test_year_named_twice_gives_no_row(self) -> None:
        """Columns grouped by period (three and six months of the same years): no per-year row,
        where a header naming each year once gives one."""
        grouped = (
            "CONSOLIDATED STATEMENTS OF INCOME\n(in millions)\n"
            "Three Months Ended June 30, Six Months Ended June 30,\n2022 2021 2022 2021\nEarnings\n"
            "Net income\n8,649\n11,948\n16,931\n26,248\n"
        )
        assert Book(evidence(grouped)).find("net_income", 2022) is None
        single = grouped.replace("Three Months Ended June 30, ", "").replace(" 2022 2021\n", "\n")
        single = single.replace("8,649\n11,948\n", "")
        found = Book(evidence(single)).find("net_income", 2022)
        assert found is not None and found.value == 16931

    def test_uncaptioned_row_under_a_complete_row(self) -> None:
        """Figures on a line of their own under a row complete with caption and figures (the
        unlabelled total of liabilities and equity) are no caption's cells and no line item."""
        text = (
            "CONSOLIDATED BALANCE SHEETS\n(In thousands)\nDecember 31, 2019 2018\n"
            "Noncontrolling interests 4,935,654 3,957,508\n"
            "Total stockholders' equity 12,662,919 10,469,791\n$ 33,876,356 $ 30,210,706\n"
        )
        book = Book(evidence(text))
        found = book.find("shareholders_equity", 2019)
        assert found is not None and found.value == 12662919
        assert not any(33876356 in r.values for r in book.rows)
        assert row_label(text, text.index("33,876,356")) is None

    def test_sentence_date_above_the_title(self) -> None:
        """A sentence's date printed above a statement's title ('Fiscal 2023 ended December
        31, 2023.') is no column of the statement below it."""
        text = (
            "Fiscal 2023 ended December 31, 2023.\n\nCONSOLIDATED STATEMENTS OF OPERATIONS\n"
            "(In millions)\nYear ended December 31, 2023 2022\nNet sales 4,200 4,000\n"
        )
        found = Book(evidence(text)).find("revenue", 2023)
        assert found is not None and found.value == 4200 and found.row.years == (2023, 2022)

    def test_footnote_mark_is_no_complete_row(self) -> None:
        """A caption's footnote mark ('Basic earnings per share (2)') over figures on lines of
        their own is no row complete on its line: the figures are the caption's."""
        text = (
            "Year Ended December 31,\n2016\n2017\n(in millions, except per share data)\n"
            "Statements of Operations:\nNet income\n$\n2,371\n$\n3,033\n"
            "Basic earnings per share (2)\n$\n5.01\n$\n6.32\n"
        )
        found = Book(evidence(text)).find("eps_basic", 2017)
        assert found is not None and found.value == 6.32


class TestNoSecondParser:
    """The reasoner reads no table line of its own: no line splitter outside the text reader."""

    def test_offline_imports_no_line_splitter(self) -> None:
        """No module of the offline reasoner imports the reader's line splitters (its tables
        are read by `read_text_block`)."""
        splitters = {"split_row", "split_row_at", "split_cells", "unglue_rows"}
        used: dict[str, set[str]] = {}
        for path in OFFLINE.glob("*.py"):
            tree = ast.parse(path.read_text())
            names = {
                alias.name
                for node in ast.walk(tree)
                if isinstance(node, ast.ImportFrom)
                for alias in node.names
            }
            if names & splitters:
                used[path.name] = names & splitters
        assert used == {}

    def test_tables_read_with_the_reader(self) -> None:
        """offline/tables.py reads the evidence with `read_text_block` and defines no scanner."""
        tree = ast.parse((OFFLINE / "tables.py").read_text())
        names = {
            alias.name
            for node in ast.walk(tree)
            if isinstance(node, ast.ImportFrom)
            for alias in node.names
        }
        assert "read_text_block" in names
        defined = {n.name for n in ast.walk(tree) if isinstance(n, ast.FunctionDef | ast.ClassDef)}
        assert not defined & {"parse_tables", "_Scanner", "_split_line", "_header_years"}
