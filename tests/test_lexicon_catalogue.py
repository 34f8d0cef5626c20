"""The one catalogue: one key per line item for every reader, natures and periods, one notation."""

from __future__ import annotations

import pytest
from finqa.lexicon import METRICS


class TestOneKey:
    def test_statement_model_book_and_tags_share_the_key(self) -> None:
        """A caption the statement model maps, the Book's line item and the XBRL concept of
        accounts receivable are all the catalogue key 'accounts_receivable'."""
        from finqa.lexicon.line_items import get_item, item_for_metric, line_items
        from finqa.lexicon.statements.catalogue import item_for_label
        from finqa.lexicon.xbrl import concept_item

        assert item_for_label("Accounts receivable, net") == "accounts_receivable"
        assert "accounts_receivable" in line_items()
        assert concept_item("us-gaap:AccountsReceivableNetCurrent") == "accounts_receivable"
        assert item_for_metric("accounts_receivable") == "accounts_receivable"
        item = get_item("accounts_receivable")
        assert item is not None and item.nature == "asset" and item.period_type == "instant"

    def test_caption_only_items_are_readable_too(self) -> None:
        """A plain statement line without reading rules (goodwill) is found by its captions."""
        from finqa.lexicon.line_items import caption_items, get_item, line_items

        assert "goodwill" not in line_items()
        item = get_item("goodwill")
        assert item is not None and item is caption_items()["goodwill"]
        assert item.labels == METRICS["goodwill"].line_items


class TestNatureAndPeriod:
    def test_balances_are_instants_and_flows_durations(self) -> None:
        """Every balance-sheet line is an instant; every income or cash-flow line a duration,
        but the balance the cash-flow statement reconciles (an asset at its opening and
        closing rows: cash, cash equivalents and restricted cash)."""
        for m in METRICS.values():
            if m.is_derived or m.statement not in ("balance", "income", "cash_flow"):
                continue
            if m.statement == "cash_flow" and m.period_type == "instant":
                assert m.nature == "asset" and m.balance == "debit", m.id
                continue
            want = "instant" if m.statement == "balance" else "duration"
            assert m.period_type == want, (m.id, m.period_type)
        assert METRICS["cash_and_restricted_cash"].period_type == "instant"

    def test_natures_follow_the_concepts(self) -> None:
        """An item's nature agrees with its statement: costs are expenses, cash paid outflows."""
        assert METRICS["cogs"].nature == "expense"
        assert METRICS["capex"].nature == "outflow"
        assert METRICS["accounts_payable"].nature == "liability"
        assert METRICS["revenue"].concepts[0] == "us-gaap:Revenues"


class TestSchema:
    def test_unknown_field_is_refused(self) -> None:
        """A misspelt field or an unknown nature is a CatalogueError naming the entry."""
        from finqa.lexicon.catalogue import CatalogueError, _check

        with pytest.raises(CatalogueError, match="widget.*formla"):
            _check("widget", {"name": "Widget", "formla": "a + b"})
        with pytest.raises(CatalogueError, match="nature"):
            _check("widget", {"name": "Widget", "nature": "asset-ish"})

    def test_two_caption_lists_are_refused(self) -> None:
        """An entry with captions in `read: labels` beside its `line_items` has two caption
        lists: the loader refuses it; reading rules without captions are refused too."""
        from finqa.lexicon.catalogue import CatalogueError, _check

        good = {"name": "Widget", "line_items": ["Widgets"], "read": {"prefixes": ["widget"]}}
        _check("widget", good)
        with pytest.raises(CatalogueError, match="widget.*two caption lists"):
            _check("widget", {**good, "read": {"labels": ["widgets sold"]}})
        with pytest.raises(CatalogueError, match="without captions"):
            _check("widget", {"name": "Widget", "read": {"prefixes": ["widget"]}})

    def test_also_names_an_entry_with_captions(self) -> None:
        """`read: also` reads another entry's captions: one naming no entry (or itself) is
        refused."""
        from finqa.lexicon.catalogue import CatalogueError, _check_also

        widget = {"name": "Widget", "line_items": ["Widgets"]}
        _check_also({"widget": widget, "gadget": {**widget, "read": {"also": ["widget"]}}})
        with pytest.raises(CatalogueError, match="gadget.*also names 'gizmo'"):
            _check_also({"widget": widget, "gadget": {**widget, "read": {"also": ["gizmo"]}}})


class TestRecipes:
    def test_total_debt_alternatives_reach_its_ratios(self) -> None:
        """Debt to equity tries total debt as short- plus long-term debt, as the filer's total
        line, then long-term debt alone."""


class TestOneCaptionList:
    def test_the_book_reads_the_entry_captions(self) -> None:
        """Every line item the Book finds reads its entry's `line_items`, in order, first (then
        those of the entries its `read: also` names): no caption list of its own."""
        from finqa.lexicon.catalogue import entries
        from finqa.lexicon.line_items import catalogue_items

        for key, item in catalogue_items().items():
            own = tuple(entries()[key]["line_items"])
            assert item.labels[: len(own)] == own, key
            also = (entries()[key].get("read") or {}).get("also") or ()
            assert item.labels[len(own) :] == tuple(
                c for other in also for c in entries()[other]["line_items"]
            ), key

    def test_metric_read_as_another_line(self) -> None:
        """Depreciation is read from the D&A line (the catalogue's formulas say so); a metric
        the catalogue marks unread has no recipe."""

    def test_a_caption_is_read_by_the_model_and_the_book(self) -> None:
        """A caption only the Book read before ('Net cash provided by financing activities')
        and one only the statement model read ('Sales to customers') are both read by both,
        as the same catalogue key."""
        from finqa.lexicon.line_items import get_item, label_key
        from finqa.lexicon.statements.catalogue import item_for_label

        for caption, key in (
            ("Net cash provided by financing activities", "cff"),
            ("Sales to customers", "revenue"),
            ("Trade receivables, net", "accounts_receivable"),
        ):
            assert item_for_label(caption) == key, caption
            item = get_item(key)
            assert item is not None and label_key(caption) in item.keys()[0], caption

    def test_the_model_maps_every_own_caption(self) -> None:
        """Each caption of a statement line maps to its entry in the statement model, or to
        another entry that lists the same caption (the statement model's first reading:
        'Depreciation' is depreciation and amortization's too)."""
        from finqa.lexicon.catalogue import entries
        from finqa.lexicon.line_items import catalogue_items, label_key
        from finqa.lexicon.statements.catalogue import item_for_label

        for key in catalogue_items():
            if METRICS[key].is_derived:
                continue
            for caption in entries()[key]["line_items"]:
                got = item_for_label(caption)
                assert got is not None, (key, caption)
                listed = {label_key(c) for c in entries()[got].get("line_items") or ()}
                assert got == key or label_key(caption) in listed, (key, caption, got)
