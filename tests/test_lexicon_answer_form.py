"""The form of the answer a question asks for: aggregation, year range, rounding, percent."""

from __future__ import annotations

import pytest
from finqa.lexicon import answer_form


class TestAggregates:
    @pytest.mark.parametrize(
        ("question", "forms"),
        [
            ("What is the FY2019 - FY2021 3 year average of capex as a % of revenue?", ("avg3",)),
            ("What is the 2-year CAGR of revenue from FY2020 to FY2022?", ("cagr",)),
            ("What is the change in operating income between FY2021 and FY2022?", ("change",)),
            ("What is the revenue growth from FY2021 to FY2022?", ("growth",)),
            ("What is revenue in FY2022?", ()),
        ],
    )
    def test_aggregation_named(self, question: str, forms: tuple[str, ...]) -> None:
        """The aggregation the ask names is read in order of precedence; a plain figure has none."""
        assert answer_form.asked_aggregates(question) == forms

    def test_definition_clause_is_not_the_ask(self) -> None:
        """Words after 'X is defined as' are the question's definition, not its ask."""
        q = "What is Acme's FY2022 margin? Margin is defined as the change in income over sales."
        assert answer_form.ask_head(q).strip().endswith("margin? Margin")
        assert answer_form.asked_aggregates(answer_form.ask_head(q)) == ()


class TestRoundingAndUnits:
    @pytest.mark.parametrize(
        ("question", "decimals"),
        [
            ("Round your answer to two decimal places.", 2),
            ("Answer rounded to one decimal place.", 1),
            ("Round to the nearest whole number.", 0),
            ("Compute the segment's gross margin for fiscal 2019 to two decimals.", 2),
            ("Answer with one decimal place.", 1),
            ("What is revenue?", None),
        ],
    )
    def test_decimals(self, question: str, decimals: int | None) -> None:
        """The rounding asked is read as a number of decimals, None when not stated."""
        assert answer_form.asked_decimals(question) == decimals

    def test_year_range(self) -> None:
        """'FY2019 - FY2021' and 'from FY2019 to FY2021' are the range (2019, 2021)."""
        assert answer_form.year_range("the FY2019 - FY2021 average") == (2019, 2021)
        assert answer_form.year_range("from FY2019 to FY2021") == (2019, 2021)
        assert answer_form.year_range("in FY2021") is None

    def test_percent_positive_share_of_revenue(self) -> None:
        """Percent units, a sign test and 'as a % of revenue' are recognised, and only they."""
        assert answer_form.asks_percent("in units of percents")
        assert not answer_form.asks_percent("in USD millions")
        assert answer_form.asks_positive("Does Acme have positive working capital?")
        assert answer_form.asks_share_of_revenue("D&A as a % of revenue")
        assert not answer_form.asks_share_of_revenue("What is D&A in FY2022?")

    def test_an_inflow_verb_over_a_cash_flow_asks_its_sign(self) -> None:
        """'Did X's operating activities generate cash?' tests the flow's sign, as 'positive'
        does; 'cash generated from operations' as a figure's name, or cash without a flow of
        the statement, asks none."""
        assert answer_form.asks_positive(
            "Did Acme's operating activities generate cash in 2019, despite a profit?"
        )
        assert answer_form.asks_positive("Did investing activities provide cash in FY2021?")
        assert not answer_form.asks_positive("Did Acme's cash generated from operations grow?")
        assert not answer_form.asks_positive("Did Acme generate cash in 2019?")

    def test_yes_no_of_fact(self) -> None:
        """'Did/Has/Is' ask about filed facts; 'Will' is a yes/no question about the future."""
        assert answer_form.is_yes_no("Will capex increase in FY2023?")
        assert not answer_form.is_yes_no_of_fact("Will capex increase in FY2023?")
        assert answer_form.is_yes_no_of_fact("Did capex increase in FY2023?")


def test_cash_qualifying_a_noun_asks_no_flow_sign() -> None:
    """'provide cash dividends', 'generate cash savings': cash names a kind of dividend or
    saving, not the flow's object; an outflow is named by a cash caption's shape only."""
    from finqa.lexicon.answer_form import asks_inflow, names_outflow

    assert not asks_inflow("Did Acme provide cash dividends in 2022?")
    assert not asks_inflow("Did Acme generate cash savings from operating activities in 2022?")
    assert asks_inflow("Did operating activities provide cash in 2022?")
    assert names_outflow("Net cash (used in) financing activities")
    assert not names_outflow("the measure used by management was $5 million")


class TestAlternatives:
    """A yes/no question offering two opposite options asks which one."""

    @pytest.mark.parametrize(
        ("question", "option_a", "option_b"),
        [
            (
                "Did Acme record a deferred income tax expense or a deferred income tax benefit in "
                "FY2018?",
                "expense",
                "benefit",
            ),  # fmt: skip
            (
                "Did Acme's 'interest and other, net' add to or reduce its pre-tax income?",
                "add",
                "reduce",
            ),  # fmt: skip
            (
                "Did Acme's SG&A as a percent of sales increase or decrease in FY2023?",
                "increase",
                "decrease",
            ),  # fmt: skip
            ("Did Acme have net interest expense or net interest income?", "expense", "income"),
        ],
    )
    def test_opposites_offered(self, question: str, option_a: str, option_b: str) -> None:
        alt = answer_form.alternatives(question)
        assert alt is not None
        assert answer_form.names_alternative(option_a, alt)
        assert answer_form.names_alternative(option_b, alt)
        assert not answer_form.names_alternative("Yes.", alt)

    @pytest.mark.parametrize(
        "question",
        [
            "Did Acme pay dividends or buy back shares in 2022?",  # either: a yes/no
            "Is Acme a capital-intensive business based on FY2022 data?",
            "What was Acme's gain or loss on the sale?",  # no yes/no question
        ],
    )
    def test_no_opposites(self, question: str) -> None:
        assert answer_form.alternatives(question) is None

    def test_a_direction_named_in_other_words(self) -> None:
        """'rose' and 'fell' name the options of 'increase or decrease'."""
        alt = answer_form.alternatives("Did Acme's margin increase or decrease in FY2023?")
        assert alt is not None
        assert answer_form.names_alternative("The margin rose to 31%.", alt)
        assert answer_form.names_alternative("No, it fell.", alt)


def test_a_request_is_no_yes_no_question() -> None:
    """'Could you tell me X' asks for X; 'Could X be ...' and 'Would you describe X as Y' are
    yes/no questions."""
    assert not answer_form.is_yes_no("Could you tell me Acme's FY2018 capital expenditure?")
    assert answer_form.is_yes_no("Could Acme be subject to fines?")
    assert answer_form.is_yes_no("Would you describe Acme as a capital-intensive business?")
