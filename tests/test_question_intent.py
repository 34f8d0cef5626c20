"""The lexicon's one typed reading of a question (`lexicon.question_intent.read_intent`), and the
answer's side of the same language in `lexicon.intent`, that the judge reads instead of parsing
questions and answers with patterns of its own."""

from __future__ import annotations

from finqa.lexicon.intent import (
    declares_not_relevant,
    leading_yes_no,
    nil_words,
    states_cause,
    states_verdict,
)
from finqa.lexicon.question_intent import asked_sentences, read_intent


class TestReadIntent:
    """One reading holds what the agents need from a question's words."""

    def test_change_amount_is_not_a_rate(self) -> None:
        """'By how much did X change' asks for the movement; '% change' asks for a rate."""
        assert read_intent("By how much did net sales change from FY2021 to FY2022?").change_amount
        assert not read_intent("What was the % change in net sales in FY2022?").change_amount

    def test_years_parts_and_scale(self) -> None:
        """The asked years, each part's form of answer and the asked scale are read once."""
        intent = read_intent(
            "What was the capital expenditure in FY2022? Answer in USD millions. "
            "And why did it fall?"
        )
        assert 2022 in intent.years and intent.scale == 1e6
        assert intent.part_forms[0] == "figure" and "explanation" in intent.part_forms

    def test_only_asking_sentences_set_the_form(self) -> None:
        """A percentage named in an instruction is not the form asked; in the question it is."""
        q = "Use the figures in %. What is the operating income in FY2022?"
        assert asked_sentences(q) == "What is the operating income in FY2022?"
        assert not read_intent(q).percent_asked
        assert read_intent("What percentage of revenue was operating income?").percent_asked

    def test_wording_allows_other_forms(self) -> None:
        """'margin' allows a percentage beside an amount, 'ratio' or 'turnover' a ratio."""
        assert read_intent("What is the gross margin for FY2022?").also_forms == ("percent",)
        assert read_intent("What is the asset turnover ratio?").also_forms == ("ratio",)
        assert read_intent("What is the revenue for FY2022?").also_forms == ()

    def test_figures_stated_by_the_question(self) -> None:
        """The question's own figures are read, so an answer quoting them is not checked as new."""
        intent = read_intent("Did revenue exceed $1.5 billion in FY2022?")
        assert [q.value for q in intent.stated] == [1.5]

    def test_aggregates_range_and_definition(self) -> None:
        """A three-year average over a range, and a question that defines what it asks."""
        intent = read_intent(
            "What is the 3 year average of capex from FY2019 to FY2021? "
            "Capex is defined as purchases of PP&E."
        )
        assert "avg3" in intent.aggregates and intent.year_range == (2019, 2021)
        assert intent.defines_metric

    def test_the_reading_is_shared(self) -> None:
        """The same question text gives the same (cached, frozen) reading to every caller."""
        q = "What was Apple's revenue in FY2022?"
        assert read_intent(q) is read_intent(q)


class TestAnswerLanguage:
    """How an answer states a verdict, a cause, a nil figure or that a metric is not relevant."""

    def test_verdict_and_cause(self) -> None:
        """A direction word is a verdict; 'driven by' gives a cause; a bare figure gives neither."""
        assert states_verdict("Revenue increased in 2022") and not states_verdict("It was $5")
        assert states_cause("driven by higher volumes") and not states_cause("It was $5 million")

    def test_not_relevant_and_nil_words(self) -> None:
        """'not a useful metric' takes the question's conditional branch; 'zero' is a figure."""
        assert declares_not_relevant("Inventory turnover is not a useful metric for banks")
        assert not declares_not_relevant("Inventory turnover was 5.2")
        assert nil_words("Dividends were zero; the balance was unchanged") == 2

    def test_leading_yes_no(self) -> None:
        """The offset after an opening 'Yes'/'No'; none for an answer opening otherwise."""
        assert leading_yes_no("Yes, revenue grew") == 3
        assert leading_yes_no("  No.") == 4
        assert leading_yes_no("Nothing changed") is None
