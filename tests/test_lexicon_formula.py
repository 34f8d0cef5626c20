"""What a metric formula is made of: the line item on top of a ratio."""

from __future__ import annotations

from finqa.lexicon.formula import numerator, numerator_inputs


class TestNumerator:
    def test_ratio_in_percent(self) -> None:
        """'operating_income / revenue * 100' has operating income on top."""
        assert numerator("operating_income / revenue * 100") == "operating_income"

    def test_no_single_id_on_top(self) -> None:
        """A difference over revenue, a growth rate or a plain difference has no one id on top."""
        assert numerator("(revenue - cogs) / revenue * 100") is None
        assert numerator("cfo - capex") is None
        assert numerator("not a formula (") is None


class TestNumeratorInputs:
    def test_gross_margin_moves_with_cost_of_sales(self) -> None:
        """'(revenue - cogs) / revenue' moves with cogs; revenue, the denominator, is left out."""
        assert numerator_inputs("(revenue - cogs) / revenue * 100") == ("cogs",)

    def test_plain_ratio_and_no_ratio(self) -> None:
        """A plain ratio gives its numerator; a difference is no ratio."""
        assert numerator_inputs("operating_income / avg(total_assets)") == ("operating_income",)
        assert numerator_inputs("cfo - capex") == ()
