"""Line items by their place in a statement and tagged formula items read by their own captions."""

from __future__ import annotations

from finqa.lexicon.caches import withholding
from finqa.lexicon.statements import read_pages
from finqa.lexicon.statements.catalogue import item_for_label

_INCOME = """CONSOLIDATED STATEMENTS OF EARNINGS
(Dollars in Millions)
Fiscal Quarters Ended June 29, 2025 June 30, 2024
{top} $ 23,743 $ 22,447
Cost of products sold 7,875 6,863
Gross profit 15,868 15,584
Selling, marketing and administrative expenses 5,669 5,632
Net earnings 5,537 4,686
"""


def _items(top: str) -> dict[str, set[float]]:
    read = read_pages("JNJ_2025_10Q", [(0, _INCOME.format(top=top))])
    out: dict[str, set[float]] = {}
    for t in read.tables:
        for f in t.facts:
            out.setdefault(f.item or "", set()).add(float(f.value))
    return out


class TestTopLine:
    """An income statement's first line naming sales or revenue is revenue when no row is."""

    def test_sales_to_customers_is_revenue(self) -> None:
        """'Sales to customers', withheld from the catalogue, is still read as revenue by its place."""
        with withholding(frozenset({"salestocustomers"})):
            assert item_for_label("Sales to customers") is None
            assert 23743e6 in _items("Sales to customers")["revenue"]

    def test_top_line_without_revenue_words_is_not_revenue(self) -> None:
        """A first line that names no sales or revenue ('Widgets shipped') stays unmapped."""
        assert "revenue" not in _items("Widgets shipped")

    def test_cost_words_are_not_revenue(self) -> None:
        """'Cost of sales' at the top is not revenue."""
        items = _items("Cost of sales and other")
        assert 23743e6 not in items.get("revenue", set())


class TestTaggedFormulaItems:
    """A formula item that filers print and tag as an amount is read by its own captions, not its operands'."""

    def test_gross_profit_caption(self) -> None:
        """'Gross profit' and 'Gross margin' (Apple's dollar line) are gross profit."""
        assert item_for_label("Gross profit") == "gross_profit"
        assert item_for_label("Gross margin") == "gross_profit"
        assert 15868e6 in _items("Sales to customers")["gross_profit"]

    def test_operand_captions_are_not_the_total(self) -> None:
        """'Long-term debt', an operand of total debt, stays long-term debt; 'Total debt' is total debt."""
        assert item_for_label("Long-term debt") == "long_term_debt"
        assert item_for_label("Total debt") == "total_debt"

    def test_derived_ratio_caption_is_not_read(self) -> None:
        """'Operating margin', a ratio, is no line item of a statement."""
        assert item_for_label("Operating margin") is None
