"""A PDF page whose balance sheet text runs on one line puts the section headings on the first
caption under them ('Assets Current assets Cash and cash equivalents $ 5,494 $ 2,229'): the
statement reader reads the caption after the headings, so the cash balance is read (issue #25:
a balance asked, the statement not read)."""

from __future__ import annotations

import pytest
from finqa.lexicon.statements.catalogue import item_for_label
from finqa.lexicon.statements.reader import read_pages

PAGE = (
    "Consolidated Balance Sheets\n$ and shares in millions, except per share amounts January 30, "
    "2021 February 1, 2020 Assets Current assets Cash and cash equivalents $ 5,494 $ 2,229 "
    "Receivables, net 1,061 1,149 Merchandise inventories 5,612 5,174 Other current assets 373 "
    "305 Total current assets 12,540 8,857 Total assets $ 19,067 $ 15,591 Liabilities and equity "
    "Current liabilities Accounts payable $ 6,979 $ 5,288 Total current liabilities 10,521 8,060"
)


@pytest.mark.parametrize(
    ("caption", "item"),
    [
        ("Assets Current assets Cash and cash equivalents", "cash"),
        ("Liabilities and equity Current liabilities Accounts payable", "accounts_payable"),
        ("Current assets Merchandise inventories", "inventory"),
        ("Assets held for sale", None),  # a caption of its own, no heading before another
        ("Revenues Casino", None),  # an income statement heading over a part: not a balance
    ],
)
def test_caption_after_the_headings(caption: str, item: str | None) -> None:
    assert item_for_label(caption) == item


def test_the_cash_balance_is_read_from_a_one_line_page() -> None:
    read = read_pages("BESTBUY_2021_10K", [(40, PAGE)])
    cash = [
        f.value
        for t in read.tables
        for f in t.facts
        if f.item == "cash" and f.period.fiscal_year == 2021
    ]
    assert cash == [5_494_000_000.0]
