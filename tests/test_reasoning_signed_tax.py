"""Signed income tax, pre-tax loss captions, period comparisons and the stated balance basis."""

from __future__ import annotations

import pytest
from _reasoning_data import evidence
from finqa.agents.config import Settings
from finqa.agents.reasoning import build_reasoner
from finqa.lexicon.arith import evaluate
from finqa.lexicon.question_ask import read_ask
from finqa.lexicon.statements.signs import caption_sign

LOSS_YEARS = """Consolidated Statements of Operations
(Dollars in millions)
Years ended December 31, 2022 2021 2020
Total revenues 66,608 62,286 58,158
Loss from operations (3,547) (2,902) (12,767)
Loss before income taxes (5,022) (5,033) (14,476)
Income tax (expense)/benefit (31) 743 2,535
Net loss (5,053) (4,290) (11,941)
"""

PROFIT_YEARS = """Consolidated Statements of Income
(in millions)
2022 2021 2020
Net sales 10,000 9,000 8,000
Operating income 2,000 1,800 1,500
Income before income taxes 1,600 1,500 1,200
Provision for (benefit from) income taxes 400 (150) 240
Net income 1,200 1,650 960
"""

INVENTORY = """Consolidated Statements of Income
(in millions)
2022 2021 2020
Net sales 10,000 9,000 8,000
Cost of sales 6,000 5,400 4,800
Operating income 2,000 1,800 1,500
Consolidated Balance Sheets
(in millions)
2022 2021
Inventories 1,000 500
Total current assets 4,000 3,000
"""
# the same filing's balance sheet with the FY2022 column only (no prior year-end balance)
INVENTORY_FY22_ONLY = INVENTORY.replace(
    "2022 2021\nInventories 1,000 500\nTotal current assets 4,000 3,000",
    "2022\nInventories 1,000\nTotal current assets 4,000",
)


def ask(question: str, *texts: str):  # type: ignore[no-untyped-def]
    return build_reasoner(Settings()).generate(question, evidence(*texts, question=question), 1)


def recompute(answer) -> float:  # type: ignore[no-untyped-def]
    calc = answer.calculations[0]
    return evaluate(calc.expression, {o.name: o.value for o in calc.operands})


class TestCaptionSign:
    @pytest.mark.parametrize(
        ("caption", "sign"),
        [
            ("Income tax (expense)/benefit", -1),
            ("(Provision) benefit for income taxes", -1),
            ("Benefit (provision) for income taxes", -1),
            ("Benefit from (provision for) income taxes", -1),
            ("Provision for (benefit from) income taxes", 1),
            ("Income tax expense (benefit)", 1),
            ("Provision for income taxes", 1),
            ("Income tax benefit", -1),
            ("Benefit from income taxes", -1),
            ("Income taxes", 1),
        ],
    )
    def test_expense_in_parentheses_is_negated(self, caption: str, sign: int) -> None:
        """A caption showing the expense in parentheses reads its figures as benefits."""
        assert caption_sign(caption) == sign


class TestSignedTaxRate:
    def test_tax_benefit_on_a_loss_is_a_positive_rate(self) -> None:
        """A tax benefit of 743 on a pre-tax loss of 5,033 is a positive rate (14.8%), read
        through the 'Loss before income taxes' caption and the '(expense)/benefit' caption."""
        a = ask("What is Acme's effective tax rate for FY2021?", LOSS_YEARS)
        assert not a.abstained
        assert recompute(a) == pytest.approx(743 / 5033 * 100, rel=1e-6)

    def test_tax_expense_on_a_loss_is_a_negative_rate(self) -> None:
        """A tax expense of 31 on a pre-tax loss of 5,022 is a negative rate (-0.6%)."""
        a = ask("What is Acme's effective tax rate for FY2022?", LOSS_YEARS)
        assert recompute(a) == pytest.approx(-31 / 5022 * 100, rel=1e-6)

    def test_benefit_year_under_a_provision_caption(self) -> None:
        """'Provision for (benefit from)' figures are expenses as filed: a benefit of 150 on
        a profit of 1,500 is a negative rate, an expense of 400 on 1,600 a positive one."""
        assert recompute(ask("What is Acme's effective tax rate for FY2021?", PROFIT_YEARS)) == pytest.approx(-10.0)  # fmt: skip
        assert recompute(ask("What is Acme's effective tax rate for FY2022?", PROFIT_YEARS)) == pytest.approx(25.0)  # fmt: skip


class TestComparison:
    def test_compare_two_years_is_a_trend(self) -> None:
        """'How does X in FY2022 compare to FY2021?' reads both years of the metric."""
        spec = read_ask("How does Acme's effective tax rate in FY2022 compare to FY2021?")
        assert spec.aggregate == "trend" and spec.agg_years == (2021, 2022)

    def test_comparison_answer_states_both_years(self) -> None:
        """The comparison answer names both years' rates and the direction."""
        a = ask("How does Acme's effective tax rate in FY2022 compare to FY2021?", LOSS_YEARS)
        assert not a.abstained
        assert "14.8% in FY2021" in a.text and "-0.6% in FY2022" in a.text
        assert "decreased" in a.text
        assert "-15.4 percentage points" in a.text  # a difference of rates, not a percent change

    def test_drop_between_periods_is_a_direction_question(self) -> None:
        """'Was there any drop in X between FY2021 and FY2022?' is answered Yes/No from figures."""
        q = "Was there any drop in Acme's net sales between FY2021 and FY2022?"
        assert read_ask(q).aggregate == "trend"
        assert ask(q, PROFIT_YEARS).text.startswith("No.")


class TestBalanceBasis:
    def test_average_basis_is_stated(self) -> None:
        """An inventory turnover over average balances says the figure rests on averages."""
        a = ask("What is Acme's FY2022 inventory turnover ratio?", INVENTORY)
        assert recompute(a) == pytest.approx(6000 / 750)
        assert "Inventories: the average of the FY2021 and FY2022 year-end balances" in a.text

    def test_one_balance_is_year_end_with_lower_confidence(self) -> None:
        """With only the FY2022 balance, the turnover uses it, says so and is less confident."""
        both = ask("What is Acme's FY2022 inventory turnover ratio?", INVENTORY)
        one = INVENTORY_FY22_ONLY
        a = ask("What is Acme's FY2022 inventory turnover ratio?", one)
        assert recompute(a) == pytest.approx(6.0)
        assert "year-end figures only" in a.text and "average" in a.text
        assert a.confidence["score"] < both.confidence["score"]

    def test_stated_ending_basis_is_not_called_average(self) -> None:
        """A question asking for year-end balances gets them and no averaging note."""
        q = "What is Acme's FY2022 inventory turnover ratio, using ending inventory?"
        a = ask(q, INVENTORY)
        assert recompute(a) == pytest.approx(6.0)
        assert "averaged" not in a.text


class TestGrowthOfALineItem:
    def test_growth_of_operating_income_is_not_revenue_growth(self) -> None:
        """'Year-over-year growth in operating income' is computed over operating income."""
        q = "What was Acme's year-over-year growth in operating income in FY2022?"
        spec = read_ask(q)
        assert (spec.recipe, spec.aggregate, spec.agg_years) == (
            "operating_income",
            "growth",
            (2021, 2022),
        )
        a = ask(q, PROFIT_YEARS)
        assert not a.abstained
        assert recompute(a) == pytest.approx((2000 / 1800 - 1) * 100, rel=1e-6)

    def test_growth_alone_is_top_line_growth(self) -> None:
        """A growth rate naming no line item is revenue growth, by convention."""
        a = ask("What was Acme's year-over-year growth rate in FY2022?", PROFIT_YEARS)
        assert recompute(a) == pytest.approx((10000 / 9000 - 1) * 100, rel=1e-6)
