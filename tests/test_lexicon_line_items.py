"""The line-item catalogue in the lexicon: captions as filed, linked to the metric catalogue."""

from __future__ import annotations

from finqa.lexicon import METRICS
from finqa.lexicon.line_items import item_for_metric, label_key, line_items


class TestLabelKey:
    def test_pdf_without_spaces_matches(self) -> None:
        """'Costofgoodssold' from a PDF and 'Cost of goods sold (Note 3)' have one key."""
        assert label_key("Costofgoodssold") == label_key("Cost of goods sold (Note 3)")

    def test_footnote_markers_dropped(self) -> None:
        """A footnote marker '(a)' is not part of the caption."""
        assert label_key("Total revenues (a)") == "totalrevenues"


class TestCatalogue:
    def test_every_item_names_real_metrics(self) -> None:
        """Each line item's metric ids exist in metrics.yaml: one catalogue, no hand bridge."""
        for item in line_items().values():
            assert item.labels, item.id
            for metric in item.metrics:
                assert metric in METRICS, (item.id, metric)

    def test_metric_ids_map_to_items(self) -> None:
        """A metrics.yaml id is read from its line item ('accounts_receivable' -> receivables)."""
        assert item_for_metric("accounts_receivable") == "receivables"
        assert item_for_metric("revenue") == "revenue"
        assert item_for_metric("ebit") == "operating_income"
        assert item_for_metric("gross_margin") is None
