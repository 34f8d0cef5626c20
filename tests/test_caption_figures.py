"""Figures a caption names as its own ('Accounts receivable, net of allowances of $845 and $882
17,513 13,457'), and the total column of an equity matrix whose rows print fewer cells than its
balances (statement model 35): the caption keeps its figures and the row its cells; a movement
row's total is its last cell where the balances print the total last."""

from __future__ import annotations

from finqa.lexicon.statements import read_pages
from finqa.lexicon.statements.text import split_row

BALANCE = """ACME CORP
CONSOLIDATED BALANCE SHEETS
(dollars in millions)
At December 31, 2016 2015
Current assets
Cash and cash equivalents $ 2,880 $ 4,470
Accounts receivable, net of allowances of $845 and $882 17,513 13,457
Inventories 1,202 1,252
Total current assets 21,595 19,179
Total assets $ 244,180 $ 244,640
"""

EQUITY = """ACME CORP
Consolidated Statements of Equity
(Dollars in millions)
Common Stock Retained Earnings Accumulated Other Comprehensive Loss Total
Balance at January 1, 2013 $5,061 $30,037 ($17,416) $17,682
Net earnings 4,585 4,585
Other comprehensive income, net of tax of ($4,246) 7,522 7,522
Cash dividends declared ($2.185 per share) (1,642) (1,642)
Balance at December 31, 2013 $5,061 $32,980 ($9,894) $28,147
"""


class TestCaptionFigures:
    def test_the_caption_keeps_its_figures(self) -> None:
        label, cells = split_row(
            "Accounts receivable, net of allowances of $845 and $882 17,513 13,457"
        )
        assert label == "Accounts receivable, net of allowances of $845 and $882"
        assert cells == ["17,513", "13,457"]
        assert split_row("Cash and cash equivalents $ 2,880 $ 4,470")[1] == ["$ 2,880", "$ 4,470"]
        assert split_row("Property, plant and equipment 1,234 1,100")[1] == ["1,234", "1,100"]

    def test_the_row_is_read_as_its_item(self) -> None:
        tables = read_pages("ACME_2016_10K", [(70, BALANCE)]).tables
        facts = {(f.item, f.period.key): f.value for t in tables for f in t.facts}
        assert facts[("accounts_receivable", "FY2016@end")] == 17_513e6
        assert facts[("accounts_receivable", "FY2015@end")] == 13_457e6


class TestEquityTotals:
    def test_rows_narrower_than_the_balances_give_their_last_cell(self) -> None:
        """Net earnings (two cells) and other comprehensive income (its tax figure in the
        caption) are read at the total column, printed last."""
        tables = read_pages("ACME_2013_10K", [(55, EQUITY)]).tables
        facts = {f.label: f.value for t in tables if t.statement == "equity" for f in t.facts}
        assert facts["Net earnings"] == 4_585e6
        assert facts["Other comprehensive income, net of tax of ($4,246)"] == 7_522e6
        assert facts["Cash dividends declared ($2.185 per share)"] == -1_642e6
