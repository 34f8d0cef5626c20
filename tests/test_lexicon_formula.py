"""What a metric formula is made of: the line item on top of a ratio."""

from __future__ import annotations

from finqa.lexicon.formula import numerator


class TestNumerator:
    def test_ratio_in_percent(self) -> None:
        """'operating_income / revenue * 100' has operating income on top."""
        assert numerator("operating_income / revenue * 100") == "operating_income"

    def test_no_single_id_on_top(self) -> None:
        """A difference over revenue, a growth rate or a plain difference has no one id on top."""
        assert numerator("(revenue - cogs) / revenue * 100") is None
        assert numerator("cfo - capex") is None
        assert numerator("not a formula (") is None
