"""What a metric can be by its definition (lexicon.plausibility) and the sides of a ratio formula."""

from __future__ import annotations

from finqa.lexicon.formula import evaluate, ratio_sides
from finqa.lexicon.intent import asks_share
from finqa.lexicon.plausibility import out_of_bounds, plausibility, quotient_sign


class TestBounds:
    def test_margin_range(self) -> None:
        """A margin lies within [-100%, 100%]: 150 is outside, -40 inside."""
        assert out_of_bounds(150.0, "operating_margin") is not None
        assert out_of_bounds(-40.0, "net_margin") is None

    def test_turnover_not_negative(self) -> None:
        """A turnover is never negative and has no upper bound."""
        assert out_of_bounds(-0.5, "asset_turnover") is not None
        assert out_of_bounds(12.0, "inventory_turnover") is None

    def test_share_of_a_whole(self) -> None:
        """A share asked by the question's form lies within 0-100%, whatever the metric."""
        assert out_of_bounds(120.0, None, share=True) is not None
        assert out_of_bounds(35.0, "segment_revenue", share=True) is None

    def test_metric_without_family(self) -> None:
        """A metric with no definition-bound family has no limits (revenue can be anything)."""
        assert plausibility("revenue") is None and out_of_bounds(-5.0, "revenue") is None


class TestQuotientSign:
    def test_benefit_on_a_loss_is_positive(self) -> None:
        """A tax benefit (negative) on a pre-tax loss (negative) makes a positive rate."""
        assert quotient_sign("effective_tax_rate", -210.0, -1000.0) == 1

    def test_expense_on_a_loss_is_negative(self) -> None:
        """A tax expense on a pre-tax loss makes a negative rate."""
        assert quotient_sign("effective_tax_rate", 50.0, -1000.0) == -1

    def test_no_rule_or_zero_side(self) -> None:
        """No sign rule for a turnover, nor when a side is zero."""
        assert quotient_sign("asset_turnover", 1.0, 2.0) is None
        assert quotient_sign("effective_tax_rate", 0.0, 10.0) is None


class TestRatioSides:
    def test_sides_of_a_percentage(self) -> None:
        """'(revenue - cogs) / revenue * 100' has sides 'revenue - cogs' and 'revenue'."""
        top, bottom = ratio_sides("(revenue - cogs) / revenue * 100") or ("", "")
        assert evaluate(top, {"revenue": 10.0, "cogs": 6.0}) == 4.0
        assert bottom == "revenue"

    def test_no_ratio(self) -> None:
        """A sum is no ratio."""
        assert ratio_sides("cfo - capex") is None


class TestAsksShare:
    def test_share_questions(self) -> None:
        """'What percentage of total revenue' and 'as a percent of sales' ask a share."""
        assert asks_share("What percentage of total revenue came from Europe in FY2022?")
        assert asks_share("What is R&D as a percent of net sales?")

    def test_growth_is_no_share(self) -> None:
        """'By what percentage did revenue grow' is a growth rate, not a share."""
        assert not asks_share("By what percentage did revenue grow in FY2022?")
