"""How answer figures are printed (finqa.lexicon.display): as the filing and a memo write them."""

from __future__ import annotations

from finqa.lexicon.display import format_amount, format_number
from finqa.lexicon.metrics import display_value


class TestFormatAmount:
    def test_whole_amount_has_no_decimals(self) -> None:
        """An amount in millions with no fraction prints '$51,217 million', not '$51,217.00 million'."""
        assert format_amount(51217.0, "USD", 1e6) == "$51,217 million"
        assert format_amount(637959.0, "USD", 1e6) == "$637,959 million"

    def test_amount_keeps_its_own_decimals(self) -> None:
        """'$4.5 million' stays '$4.5 million'; a computed amount keeps at most two decimals."""
        assert format_amount(4.5, "USD", 1e6) == "$4.5 million"
        assert format_amount(1234.567, "USD", 1e6) == "$1,234.57 million"

    def test_asked_decimals_are_kept(self) -> None:
        """A question asking two decimals gets them, trailing zeros included."""
        assert format_amount(5818.0, "USD", 1e6, 2) == "$5,818.00 million"

    def test_negative_amount(self) -> None:
        """A negative amount has its sign before the dollar sign, and a rounded zero has none."""
        assert format_amount(-229.0, "USD", 1e6) == "-$229 million"
        assert format_amount(-0.001, "USD", 1e6) == "$0 million"

    def test_per_share(self) -> None:
        """EPS prints with '$' and its basis, never as a bare ratio."""
        assert format_amount(13.89, "USD/share", diluted=True) == "$13.89 per diluted share"
        assert format_amount(5.0, "USD/share") == "$5.00 per share"

    def test_percentage(self) -> None:
        """A percentage prints with one decimal: '12.3%'."""
        assert format_amount(12.3456, "%") == "12.3%"
        assert format_amount(53.0, "%") == "53.0%"

    def test_format_number_never_negative_zero(self) -> None:
        """A value that rounds to zero never prints '-0'."""
        assert format_number(-0.001) == "0"


class TestMetricDisplay:
    def test_diluted_eps_names_its_basis(self) -> None:
        """The catalogue's diluted EPS prints 'per diluted share', basic EPS 'per share'."""
        assert display_value(13.89, "USD/share", metric="eps_diluted") == "$13.89 per diluted share"
        assert display_value(13.95, "USD/share", metric="eps_basic") == "$13.95 per share"

    def test_metric_precision_from_the_catalogue(self, monkeypatch) -> None:
        """A metric's own `decimals` in metrics.yaml overrides its unit's display precision."""
        from dataclasses import replace

        from finqa.lexicon import metrics

        margin = metrics.METRICS["gross_margin"]
        table = dict(metrics._load())
        table["gross_margin"] = replace(margin, decimals=2)
        monkeypatch.setattr(metrics, "_load", lambda: table)
        assert display_value(16.5, "%", metric="gross_margin") == "16.50%"
