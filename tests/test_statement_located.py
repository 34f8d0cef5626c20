"""Where a figure of page text sits in its table (`lexicon.statements.located`): the one reader
of a quoted figure's column period, row label and row cells that the judge reads figures with."""

from __future__ import annotations

from finqa.lexicon.statements.located import (
    column_period,
    percent_column,
    read_row,
    row_cells,
    row_label,
)
from finqa.lexicon.statements.text import read_text_page

# a balance sheet as PDF text flattens it: a label line, then one value per line
BALANCE = (
    "Consolidated Balance Sheets\n(in millions)\nDecember 31,\n2022\n2021\n"
    "Cash and cash equivalents\n1,200\n1,100\n"
    "Total current assets\n7,453\n7,659\n"
)


class TestColumnPeriod:
    """A value's column year comes from the nearest header run above its row."""

    def test_values_take_their_column_year(self) -> None:
        """The first value of a row is the first header year's, the second the next one's."""
        at = BALANCE.index("7,659")
        col = column_period(BALANCE, at, at + 5)
        assert (col.year, col.how, col.header) == (2021, "table", (2022, 2021))

    def test_a_lone_value_has_no_table_column(self) -> None:
        """A figure in a sentence with no header run above it has no column year."""
        text = "Revenue was 1,200 million this year."
        at = text.index("1,200")
        assert column_period(text, at, at + 5).year is None

    def test_a_change_column_takes_no_year(self) -> None:
        """A 'Change' column between the years' columns has no year; the next year's column does."""
        text = "2022\n2021\nChange\n2022\n2021\nChange\nTotal net revenue\n12,614\n12,760\n(1)\n11,947\n13,214\n(10)\n"
        years = [y for _s, _e, y in row_cells(text, text.index("12,614"))]
        assert years == [2022, 2021, None, 2022, 2021, None]


class TestRowReading:
    """The label and cells of the row holding a value."""

    def test_label_above_flattened_values(self) -> None:
        """A PDF-flattened row's label is the line above its values."""
        assert row_label(BALANCE, BALANCE.index("7,453")) == "Total current assets"

    def test_label_on_the_values_line(self) -> None:
        """'Total current assets 7,453 7,659': the label precedes the values on one line."""
        text = "2022 2021\nTotal current assets 7,453 7,659\n"
        assert row_label(text, text.index("7,659")) == "Total current assets"

    def test_a_sentence_has_no_row_label(self) -> None:
        """A figure inside prose is named by its sentence, not a row label."""
        text = "2022 2021\nWe repurchased shares worth 1,200 during the year, more than before.\n"
        assert row_label(text, text.index("1,200")) is None

    def test_a_glued_footnote_mark_is_no_cell(self) -> None:
        """'Restructuring charges(2)': the mark belongs to the caption; the figures keep their years."""
        text = "2022\n2021\nRestructuring charges(2)\n145\n85\n"
        at = text.index("85")
        assert [y for _s, _e, y in row_cells(text, at)] == [2022, 2021]
        assert column_period(text, at, at + 2).year == 2021

    def test_row_cells_carry_their_years(self) -> None:
        """Every value of the row, each with its column year."""
        cells = row_cells(BALANCE, BALANCE.index("1,200"))
        assert [(BALANCE[s:e], y) for s, e, y in cells] == [("1,200", 2022), ("1,100", 2021)]


class TestPercentColumn:
    """A bare figure is a percentage when its column's other rows say so."""

    def test_lone_percent_line_marks_the_figure(self) -> None:
        """'20.1' followed by a line holding only '%' is a percentage."""
        text = "2022\n2021\nGross margin\n20.1\n%\n19.0\n%\n"
        at = text.index("20.1")
        assert percent_column(text, at, at + 4)

    def test_amounts_are_not_percentages(self) -> None:
        """A table of amounts gives no percent context."""
        at = BALANCE.index("1,200")
        assert not percent_column(BALANCE, at, at + 5)


class TestOneReader:
    """The judge's figure lookup is the statement text reader's reading of the same page."""

    def test_lookup_agrees_with_the_statement_reader(self) -> None:
        """Every figure of a statement page: the lookup's caption, cells and column years are
        the row the statement reader read for the model (its caption, cells and header)."""
        (table,) = read_text_page(BALANCE, 0)
        assert [label for label, _cells in table.rows] == [
            "Cash and cash equivalents",
            "Total current assets",
        ]
        for (label, cells), at in zip(table.rows, table.at, strict=True):
            for start, end in (c for c in at.cells if c is not None):
                assert row_label(BALANCE, start) == label
                assert [BALANCE[s:e] for s, e, _y in row_cells(BALANCE, start)] == cells
                assert [y for _s, _e, y in row_cells(BALANCE, start)] == [2022, 2021]
                assert (
                    column_period(BALANCE, start, end).year
                    == (2022, 2021)[cells.index(BALANCE[start:end])]
                )

    def test_a_wrapped_caption_is_read_whole(self) -> None:
        """A caption the page wraps over two lines is the row's one caption, as the model reads it."""
        text = BALANCE + "Net income attributable to\nnoncontrolling interests\n(5)\n(4)\n"
        row = read_row(text, text.index("(5)"))
        assert (
            row is not None and row.caption == "Net income attributable to noncontrolling interests"
        )
        assert (
            row_label(text, text.index("(5)"))
            == "Net income attributable to noncontrolling interests"
        )

    def test_offsets_survive_the_readers_rewriting(self) -> None:
        """Rows run together on one line and a number broken over two lines keep their offsets."""
        text = (
            "Consolidated Balance Sheets\nDecember 31, 2019 2018\n"
            "Cash $ 2,936 $ 5,494 Receivables, net 1,042 1,061\nInventories 394,\n328 300\n"
        )
        (table,) = read_text_page(text, 0)
        read = {
            label: [text[c[0] : c[1]] for c in at.cells if c is not None]
            for (label, _cells), at in zip(table.rows, table.at, strict=True)
        }
        assert read == {
            "Cash": ["$ 2,936", "$ 5,494"],
            "Receivables, net": ["1,042", "1,061"],
            "Inventories": ["394,\n328", "300"],
        }
        assert row_label(text, text.index("1,061")) == "Receivables net"

    def test_a_table_outside_the_statements_is_read(self) -> None:
        """An MD&A table with no statement title is read too (as an 'other' table)."""
        text = "Sales increase due to:\n2022\n2021\nVolume\n6.9 %\n12.9 %\nPrice\n(0.8)\n(0.7)\n"
        at = text.index("(0.7)")
        assert row_label(text, at) == "Price"
        assert column_period(text, at, at + 5).year == 2021
