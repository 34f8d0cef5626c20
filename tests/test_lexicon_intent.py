"""What a question asks for, read from its words (lexicon.intent)."""

from __future__ import annotations

from finqa.lexicon import intent
from finqa.lexicon.polarity import asks_direction


class TestDirection:
    def test_rise_and_fall(self) -> None:
        """'increase' asks about a rise, 'paid down' about a fall, a plain figure about neither."""
        assert intent.asked_direction("Has Acme increased its debt between FY2022 and FY2023?") == (True, False)  # fmt: skip
        assert intent.asked_direction("Has Acme paid down its debt in FY2023?") == (False, True)
        assert intent.asked_direction("What were Acme's total liabilities in FY2023?") == (False, False)  # fmt: skip

    def test_movement_or_comparison_of_figures(self) -> None:
        """'grow' and 'more than 20%' ask about figures; 'subject to cyclicality' does not."""
        assert asks_direction("Did Acme's North American segment grow in FY2022?")
        assert asks_direction("Does any segment represent more than 20% of revenue?")
        assert not asks_direction("Is Acme's business subject to cyclicality?")


class TestExtreme:
    def test_highest_and_lowest(self) -> None:
        """'largest' and 'top' ask for the highest, 'smallest' for the lowest, else nothing."""
        assert intent.asked_extreme("Which segment had the largest revenue?") == "highest"
        assert intent.asked_extreme("Which was the top product line?") == "highest"
        assert intent.asked_extreme("Which segment had the smallest margin?") == "lowest"
        assert intent.asked_extreme("What was revenue in FY2022?") is None

    def test_which_period(self) -> None:
        """'In which year' and 'When' ask for a period to be picked."""
        assert intent.asks_which_period("In which year was revenue highest?")
        assert intent.asks_which_period("When did margins peak?")
        assert not intent.asks_which_period("Which segment grew most?")


class TestQuestionForms:
    def test_descriptive_versus_figure(self) -> None:
        """'What drove ...' is descriptive; 'What were total liabilities' asks for a figure."""
        assert intent.is_descriptive("What drove the change in gross margin in FY2022?")
        assert intent.is_descriptive("What are the major products that Acme sells?")
        assert not intent.is_descriptive("What were Acme's total liabilities in FY2022?")

    def test_direct_choice_or_figure(self) -> None:
        """'Which', 'How much' and 'What is the amount' ask for a choice or a figure."""
        assert intent.asks_direct("Which segment had the lowest revenue?")
        assert intent.asks_direct("How much did Acme pay in dividends?")
        assert intent.asks_direct("What is the amount of the gain on the sale?")
        assert not intent.asks_direct("Why did margins fall?")

    def test_compute(self) -> None:
        """'What is', 'how much' and 'calculate' ask for a figure; 'Describe' does not."""
        assert intent.asks_compute("Calculate Acme's FY2022 quick ratio.")
        assert not intent.asks_compute("Describe Acme's segments.")


class TestJudgements:
    def test_named_judgements(self) -> None:
        """Each general judgement is recognised by its own words and not by the others'."""
        q_cap = "Is Acme a capital-intensive business based on FY2022 data?"
        q_liq = "Does Acme have a reasonably healthy liquidity profile based on its quick ratio?"
        q_growth = "Are Acme's FY2022 financials that of a high growth company?"
        q_cons = "Are Acme's gross margins historically consistent?"
        assert intent.asks_evaluation(q_liq) and not intent.asks_evaluation(q_cap)
        assert intent.asks_high_growth(q_growth) and not intent.asks_high_growth(q_cons)
        assert intent.asks_consistency(q_cons) and not intent.asks_consistency(q_growth)

    def test_not_relevant_clause(self) -> None:
        """'If X is not a useful metric, say so' allows a not-relevant answer."""
        assert intent.allows_not_relevant("If gross margin is not a useful metric for a company like this, say so.")  # fmt: skip
        assert not intent.allows_not_relevant("What is Acme's gross margin?")


class TestNamedTopics:
    def test_existence_asked(self) -> None:
        """'Has X paid dividends' asks whether a line is reported; 'has X increased' does not."""
        assert intent.asks_existence("Has Acme paid dividends to common shareholders in FY2022?")
        assert intent.asks_existence("Did Acme record restructuring charges in FY2022?")
        assert not intent.asks_existence("Has Acme increased its debt in FY2023?")
        assert not intent.asks_existence("What is Acme's dividend payout ratio?")

    def test_ratio_follows_an_amount(self) -> None:
        """'to total capital' after an amount names a ratio; 'to FY2022' a period, 'to shareholders' a recipient."""
        assert intent.ratio_follows(" to total capital?")
        assert intent.ratio_follows(" / current liabilities")
        assert not intent.ratio_follows(" to FY2022?")
        assert not intent.ratio_follows(" to 2023")
        assert not intent.ratio_follows(" in FY2022")
        assert not intent.ratio_follows(" to common shareholders in FY2022?")

    def test_zero_if_absent_clause(self) -> None:
        """'If X is not outlined, state 0' makes an absent line a zero; a plain ask does not."""
        assert intent.zero_if_absent("If restructuring costs are not explicitly outlined then state 0.")  # fmt: skip
        assert not intent.zero_if_absent("What restructuring costs are outlined in FY2022?")
