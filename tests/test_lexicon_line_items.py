"""Line items of the one catalogue: captions as filed, keyed as the metrics that read them."""

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
        """Each line item's keys are catalogue keys: one catalogue, no hand bridge."""
        for item in line_items().values():
            assert item.labels, item.id
            for metric in item.metrics:
                assert metric in METRICS, (item.id, metric)

    def test_metric_ids_map_to_items(self) -> None:
        """A catalogue key is read from its own line item, a metric defined as one line from
        that line ('ebit' -> operating_income); a ratio is no line item."""
        assert item_for_metric("accounts_receivable") == "accounts_receivable"
        assert item_for_metric("revenue") == "revenue"
        assert item_for_metric("ebit") == "operating_income"
        assert item_for_metric("gross_margin") is None


class TestDisplayPrecision:
    def test_small_ratio_keeps_its_digits(self) -> None:
        """A ratio of -0.0128 at two decimals shows '-0.013 (-1.28%)', not '-0.01': the percent
        beside it at the precision asked too."""
        from finqa.lexicon.metrics import display_value

        assert display_value(-0.0128, "ratio", 2) == "-0.013 (-1.28%)"

    def test_ordinary_values_use_unit_precision(self) -> None:
        """Percentages and days show one decimal, ratios two, as a memo writes them."""
        from finqa.lexicon.metrics import display_value

        assert display_value(16.5, "%") == "16.5%"
        assert display_value(0.83, "ratio") == "0.83"
        assert display_value(45.2, "days") == "45.2 days"

    def test_small_ratio_grades_against_percent_gold(self) -> None:
        """The grader reads '-0.013 (-1.3%)' as the gold '-1.3%'."""
        from finqa.benchmarks.grading import grade

        g = grade("What was the change in margin ratio?", "-1.3%", "Change: -0.013 (-1.3%).")
        assert g.label == "correct"


class TestLabelSupport:
    def test_every_label_is_justified_by_filings(self) -> None:
        """Each caption of every statement line item (its entry's one caption list, read by the
        statement model and the Book alike) is printed by at least one filing of
        pages.jsonl.gz or tagged as its item by a filer (label_support.json names them)."""
        import json

        from finqa.lexicon.line_items import SUPPORT_PATH, catalogue_items

        support = json.loads(SUPPORT_PATH.read_text(encoding="utf-8"))
        for item in catalogue_items().values():
            for label in item.labels:
                entry = support.get(label_key(label))
                assert entry is not None, (item.id, label)
                printed = entry["filings"] >= 1 and entry["examples"]
                assert printed or entry.get("tagged"), (item.id, label)

    def test_captions_added_from_the_filers_tags(self) -> None:
        """The captions read from filers' own tags (AbbVie's 'Operating earnings', its
        'Cash flows from operating activities' total, Boeing's 'Net cash (used)/provided by
        operating activities', 'Diluted earnings per share attributable to ...') are each
        recorded with the filings that tag or print them."""
        import json

        from finqa.lexicon.line_items import SUPPORT_PATH, get_item

        support = json.loads(SUPPORT_PATH.read_text(encoding="utf-8"))
        for item, caption, prefix in (
            ("operating_income", "Operating earnings", False),
            ("cfo", "Cash flows from operating activities", False),
            ("cfo", "Net cash (used)/provided by operating activities", False),
            ("eps_diluted", "Diluted earnings per share attributable to", True),
        ):
            key = ("prefix:" if prefix else "") + label_key(caption)
            entry = support[key]
            assert entry["item"] == item and entry.get("tagged"), caption
            li = get_item(item)
            assert li is not None
            exact, prefixes, _ = li.keys()
            assert label_key(caption) in (prefixes if prefix else exact)
        eps = support["prefix:" + label_key("Diluted earnings per share attributable to")]
        assert eps["companies"] >= 3  # printed by several filers of pages.jsonl.gz too

    def test_cost_of_products_and_ar_map(self) -> None:
        """'Cost of products' captions read as cost of sales; 'AR' in a question is receivables."""
        from finqa.lexicon import find_metrics

        _, prefixes, _ = line_items()["cogs"].keys()
        assert any(label_key("Cost of products").startswith(p) for p in prefixes)
        assert [m.canonical for m in find_metrics("What was 3M's AR in FY2022?")] == [
            "accounts_receivable"
        ]

    def test_deferred_taxes_are_not_deferred_revenue(self) -> None:
        """'deferred income tax expense' names a concept the catalogue does not hold: neither
        deferred revenue (whose synonym 'deferred income' it begins with) nor the tax expense;
        'deferred income' alone stays deferred revenue."""
        from finqa.lexicon import find_metrics

        q = "Did Acme record a deferred income tax expense or benefit in FY2018?"
        assert find_metrics(q) == []
        assert [m.canonical for m in find_metrics("Acme's deferred income in FY2022")] == [
            "deferred_revenue"
        ]


class TestPerYearFormulas:
    def test_formulas_read_catalogue_keys(self) -> None:
        """Every formula of the catalogue reads only catalogue keys, in the one notation."""
        from finqa.lexicon.formula import keys

        for metric in METRICS.values():
            for formula in (*metric.formulas, metric.formula or "0"):
                assert set(keys(formula)) <= set(METRICS), (metric.id, formula)

    def test_offline_recipes_come_from_the_catalogue(self) -> None:
        """The offline reasoner's recipe for a metric is the catalogue's formulas written per
        year, under the metric's own key; every line item is a recipe of its own."""
        from finqa.lexicon.recipes import get_recipe

        recipe = get_recipe("effective_tax_rate")
        assert recipe is not None and recipe.id == "effective_tax_rate"
        assert recipe.formulas == (
            "income_tax_expense[y] / pretax_income[y] * 100",
            "effective_tax_rate[y]",  # the rate as the filing states it: its own line
        )
        assert recipe.unit == "%"
        assert get_recipe("inventory") is not None


def test_long_term_debt_classified_as_current_is_short_term_debt() -> None:
    """PG&E's caption of its current portion ('Long-term debt, classified as current (includes
    $168 million ... related to VIEs ...)') is short-term debt, never long-term debt (printed
    by its 10-Ks of 2015-2022 and its 10-Qs)."""
    from finqa.lexicon.statements.catalogue import item_for_label

    caption = "Long-term debt, classified as current (includes $168 million and $18 million related to VIEs at respective dates)"  # fmt: skip
    assert item_for_label(caption) == "short_term_debt"
    assert (
        item_for_label("Long-term debt (includes $10.31 billion related to VIEs)")
        == "long_term_debt"
    )
