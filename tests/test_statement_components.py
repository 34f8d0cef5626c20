"""A line and its printed components in one statement table: a heading's parts with no total are
the line's sum; a printed total is checked against its parts within the printed rounding."""

from __future__ import annotations

import pytest
from finqa.lexicon.statements.components import derived_wholes, printed_whole
from finqa.lexicon.statements.reader import read_pages

DOC = "ACME_2023_10K"

HEAD = """Consolidated Balance Sheets
($ in millions)
June 30,
2023
2022
Current assets:
Cash and cash equivalents
689
775
Inventories, net
Raw materials and supplies
992
1,114
Work in process and finished goods
1,221
1,325
"""
TAIL = """Prepaid expenses and other current assets
531
512
Current liabilities:
Trade payables
2,690
3,073
Other current liabilities
1,786
2,030
Total current liabilities
{tcl}
5,103
"""


def _table(text: str):  # type: ignore[no-untyped-def]
    (table,) = read_pages(DOC, [(50, text)]).tables
    return table


class TestDerivedWholes:
    def test_inventory_lines_without_a_total_summed(self) -> None:
        """Inventories printed as two lines under their heading with no total are their sum,
        each line named."""
        wholes = derived_wholes(_table(HEAD + TAIL.format(tcl="4,476")), "inventory")
        assert [w.value for w in wholes] == [2213e6, 2439e6]
        assert all(w.derived for w in wholes)
        fact = wholes[0].fact()
        assert fact.item == "inventory" and fact.value == 2213e6
        assert "Raw materials and supplies 992" in fact.label
        assert "Work in process and finished goods 1,221" in fact.label

    def test_totalled_heading_is_not_summed_again(self) -> None:
        """A heading whose parts are then totalled ('Total inventories') derives nothing: the
        printed total is the line, and its parts agree with it."""
        text = HEAD + "Total inventories\n2,213\n2,439\n" + TAIL.format(tcl="4,476")
        table = _table(text)
        assert derived_wholes(table) == []
        total = next(f for f in table.facts if f.label == "Total inventories" and f.column == 0)
        whole = printed_whole(table, total)
        assert whole is not None and whole.agrees and whole.value == pytest.approx(2213e6)

    def test_a_line_of_its_own_ends_the_parts(self) -> None:
        """The row after the parts that the catalogue names (prepaid expenses) is a line of its
        own, not a part of inventories."""
        (whole, _) = derived_wholes(_table(HEAD + TAIL.format(tcl="4,476")), "inventory")
        assert [f.label for f in whole.parts] == [
            "Raw materials and supplies",
            "Work in process and finished goods",
        ]


class TestPrintedWhole:
    def test_parts_within_printed_rounding_agree(self) -> None:
        """Total current liabilities 4,477 against parts 2,690 + 1,786 = 4,476 is within the
        rounding of three printed figures (half a million each)."""
        table = _table(HEAD + TAIL.format(tcl="4,477"))
        total = next(f for f in table.facts if f.item == "total_current_liabilities")
        whole = printed_whole(table, total)
        assert whole is not None and whole.agrees

    def test_parts_beyond_rounding_disagree(self) -> None:
        """Total current liabilities 4,576 against parts summing to 4,476 is another figure."""
        table = _table(HEAD + TAIL.format(tcl="4,576"))
        total = next(f for f in table.facts if f.item == "total_current_liabilities")
        whole = printed_whole(table, total)
        assert whole is not None and not whole.agrees
        assert whole.value == pytest.approx(4476e6) and whole.total is total
