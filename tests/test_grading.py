"""The deterministic FinanceBench grader: golden cases for each kind of gold answer."""

from __future__ import annotations

import pytest
from finqa.benchmarks.grading import Grade, content_recall, grade, is_abstention, question_scale
from hypothesis import given, settings
from hypothesis import strategies as st

MILLIONS_Q = "What was the FY2020 free cash flow of the company? Answer in USD millions."
BILLIONS_Q = "What is the year end FY2019 net PP&E (in USD billions)?"
PLAIN_Q = "What was the metric in FY2021?"


class TestNumericGold:
    """A gold answer that is one number is matched unit- and scale-aware."""

    @pytest.mark.parametrize(
        "predicted",
        [
            "Free cash flow was $2.415 billion.",
            "$2,415 million",
            "FCF = $2,415 (cash from operations less capex)",
            "It came to $2,415,000,000.",
            "about $2.42 billion",
        ],
    )
    def test_same_amount_in_other_scales_is_correct(self, predicted: str) -> None:
        """'$2415.00' in USD millions equals $2.415 billion, $2,415 million and $2,415,000,000."""
        assert grade(MILLIONS_Q, "$2415.00", predicted).label == "correct"

    @pytest.mark.parametrize("predicted", ["$2.6 billion", "$2,300 million", "$2,415 thousand"])
    def test_different_amount_is_wrong(self, predicted: str) -> None:
        """An amount more than 1% away (or at the wrong scale) is wrong."""
        g = grade(MILLIONS_Q, "$2415.00", predicted)
        assert (g.label, g.kind) == ("wrong", "numeric")

    def test_question_scale_applies_to_billions(self) -> None:
        """'$7.30' asked in USD billions matches $7,304 million."""
        assert grade(BILLIONS_Q, "$7.30", "Net PP&E was $7,304 million.").label == "correct"

    def test_scale_guessed_when_question_is_silent(self) -> None:
        """Without a stated scale, a bare gold amount still matches the same amount in words."""
        assert grade(PLAIN_Q, "$5120.00", "$5.12 billion").label == "correct"

    @pytest.mark.parametrize("predicted", ["4.7 percent", "4.7%", "4.74%", "0.047", "4.7"])
    def test_percent_forms(self, predicted: str) -> None:
        """'4.7%' matches 4.7 percent, a rounding-equal 4.74%, the fraction 0.047 and a bare 4.7."""
        assert grade(PLAIN_Q, "4.7%", predicted).label == "correct"

    @pytest.mark.parametrize("predicted", ["5%", "4.9%", "47%"])
    def test_percent_off_is_wrong(self, predicted: str) -> None:
        """A percentage outside 1% relative and the gold's rounding is wrong."""
        assert grade(PLAIN_Q, "4.7%", predicted).label == "wrong"

    @pytest.mark.parametrize("predicted", ["1.27x", "1.27 times", "a ratio of 1.27", "127%"])
    def test_ratio_forms(self, predicted: str) -> None:
        """A bare ratio matches 'x', 'times' and the same value as a percentage."""
        assert grade(PLAIN_Q, "1.27", predicted).label == "correct"

    def test_ratio_off_is_wrong(self) -> None:
        """A different ratio is wrong, and the detail names both numbers."""
        g = grade(PLAIN_Q, "1.27", "The ratio is 1.35.")
        assert g.label == "wrong" and "1.27" in g.detail and "1.35" in g.detail

    def test_rounding_to_gold_precision(self) -> None:
        """A more precise prediction that rounds to the gold's written digits is correct."""
        assert grade(PLAIN_Q, "0.02", "ROA was 0.0163").label == "correct"
        assert grade(PLAIN_Q, "12.45", "12.4487").label == "correct"

    def test_negative_number(self) -> None:
        """A negative gold matches the same negative number or a stated decline, not a gain."""
        assert grade(PLAIN_Q, "-2.1", "CCC: -2.1 days").label == "correct"
        assert grade(PLAIN_Q, "-2.1%", "Margin declined by 2.1%").label == "correct"
        assert (
            grade(PLAIN_Q, "-$150 million", "Operating income was $150 million.").label == "wrong"
        )

    def test_years_are_not_answers(self) -> None:
        """A prediction whose only number is a fiscal year has no answer number."""
        g = grade(PLAIN_Q, "$310.00", "See the FY 2021 balance sheet.")
        assert g.label == "wrong" and "no number" in g.detail

    def test_zero(self) -> None:
        """A gold of '0' matches 0 and not 3."""
        assert grade(PLAIN_Q, "0", "The count was 0.").label == "correct"
        assert grade(PLAIN_Q, "0", "There were 3.").label == "wrong"


class TestYesNoGold:
    """Gold answers starting with yes/no are graded on the leading yes/no."""

    GOLD = "Yes. The firm had a positive working capital of $412 million at FY2021 end."
    Q = "Does the firm have positive working capital based on FY2021 data?"

    @pytest.mark.parametrize(
        "predicted", ["Yes — working capital was positive.", "yes", "Answer: Yes, $400 million."]
    )
    def test_same_leading_word_is_correct(self, predicted: str) -> None:
        """The prediction's leading yes equals the gold's."""
        g = grade(self.Q, self.GOLD, predicted)
        assert (g.label, g.kind) == ("correct", "yes_no")

    def test_opposite_is_wrong(self) -> None:
        """A leading 'No' against a 'Yes' gold is wrong."""
        assert grade(self.Q, self.GOLD, "No, working capital was negative.").label == "wrong"

    def test_key_number_decides_without_yes_no(self) -> None:
        """Without yes/no, the gold's key number decides (matched: correct; other: wrong)."""
        assert grade(self.Q, self.GOLD, "Working capital was $412 million.").label == "correct"
        assert grade(self.Q, self.GOLD, "Working capital was $300 million.").label == "wrong"

    def test_neither_yes_no_nor_numbers_is_ungraded(self) -> None:
        """A vague prediction with no yes/no and no number is ungraded."""
        assert grade(self.Q, self.GOLD, "It is hard to say either way.").label == "ungraded"

    def test_not_is_not_no(self) -> None:
        """A gold starting with 'Not' is text, not a 'No' answer."""
        g = grade(PLAIN_Q, "Not applicable: banks do not report gross margin.", "No")
        assert g.kind == "text"

    def test_question_numbers_are_not_key_numbers(self) -> None:
        """Numbers restated from the question ('1x') are not among the gold's key numbers."""
        g = grade(
            "Is the quick ratio above 1x?",
            "No. The quick ratio of 0.82 is below the 1x mark.",
            "The quick ratio was 0.82.",
        )
        assert g.key_numbers == ("0.82",) and g.label == "correct"


class TestTextGold:
    """Other text is correct only on a clear key-number or entity match, else ungraded."""

    def test_short_entity(self) -> None:
        """A short entity answer is correct when every content word appears in the prediction."""
        assert grade(PLAIN_Q, "Consumer Products", "The consumer products segment.").label == (
            "correct"
        )
        assert grade(PLAIN_Q, "Consumer Products", "The industrial segment.").label == "ungraded"

    def test_all_key_numbers(self) -> None:
        """Several key numbers must all be present for a text answer to be correct."""
        gold = "Pension benefits were $1,210 million and retiree health benefits $645 million."
        both = "Expected payments: pension $1.21 billion; health care $645 million."
        one = "Expected pension payments are $1,210 million."
        assert grade(PLAIN_Q, gold, both).label == "correct"
        assert grade(PLAIN_Q, gold, one).label == "ungraded"

    def test_long_prose_is_ungraded(self) -> None:
        """A prose gold without numbers is ungraded against prose."""
        gold = "The business is cyclical because airline demand follows the economic cycle."
        g = grade(PLAIN_Q, gold, "Demand for its products depends on airlines' profits.")
        assert (g.label, g.kind) == ("ungraded", "text")


class TestChoiceGold:
    """A pick among options the question lists is graded by the option the answer leads with."""

    Q = (
        "Among operations, investing, and financing activities, which brought in the most cash "
        "flow for the company in FY2023?"
    )
    GOLD = "Among the three, cash flow from operations was the highest in FY2023."

    def test_same_option(self) -> None:
        """An answer whose first sentence names the gold's option is correct."""
        ans = "Operations. Cash from operations was $5,841 million (investing: $564 million)."
        assert grade(self.Q, self.GOLD, ans).label == "correct"

    def test_other_option(self) -> None:
        """An answer whose first sentence names another option is wrong."""
        ans = "Financing activities. They brought in $7,447 million."
        assert grade(self.Q, self.GOLD, ans).label == "wrong"

    def test_several_options_in_the_lead(self) -> None:
        """A first sentence naming several options is not a pick and is not graded by this rule."""
        ans = "Operations, investing and financing activities all moved."
        assert grade(self.Q, self.GOLD, ans).label == "ungraded"


class TestMissedTextGold:
    """A text answer that clearly misses the gold's content is wrong; overlap never makes it right."""

    GOLD = "Higher sales of server processors, higher semi-custom product sales and embedded sales."

    def test_missing_content_is_wrong(self) -> None:
        """An answer holding none of a long gold's own words is wrong."""
        ans = 'According to the filings: "References in this report to the Company mean us."'
        g = grade("What drove revenue change for AMD?", self.GOLD, ans)
        assert (g.label, g.kind) == ("wrong", "text")

    def test_overlap_does_not_make_correct(self) -> None:
        """An answer holding most of the gold's words is still ungraded, never correct."""
        ans = "Revenue rose on higher server processors sales and semi-custom product sales."
        assert grade("What drove revenue change for AMD?", self.GOLD, ans).label == "ungraded"

    def test_short_gold_is_not_missed(self) -> None:
        """A gold of fewer than MIN_GOLD_WORDS own words is too short to call an answer wrong."""
        assert grade(PLAIN_Q, "A strong start to the year.", "Guidance was raised.").label == (
            "ungraded"
        )

    def test_missing_key_numbers_is_wrong(self) -> None:
        """A text answer stating none of the gold's figures and few of its words is wrong."""
        gold = "US sales increased 3.0% vs international sales decline of 0.6%."
        ans = "Growth was partially offset by Oral Care in the international markets."
        q = "How did US sales growth compare to international sales growth?"
        assert grade(q, gold, ans).label == "wrong"

    def test_number_in_a_name_is_not_a_key_number(self) -> None:
        """'COVID-19' names a thing: its 19 is no figure the answer must state or may match."""
        gold = "Gross margin fell due to one-time COVID-19 vaccine manufacturing exit costs."
        g = grade("What drove gross margin change?", gold, "It fell 19 points.")
        assert g.key_numbers == () and g.label != "correct"

    def test_grader_note_is_not_gold(self) -> None:
        """A gold sentence about the answer itself neither adds key numbers nor content words."""
        gold = (
            "Lower marketing expenses and leverage of incentive compensation. The answer here "
            "assumes FY2023 refers to the 12 months ended on January 28, 2023."
        )
        ans = "SG&A fell primarily due to lower marketing expenses and leverage of incentive compensation."
        assert grade("What drove SG&A lower?", gold, ans).key_numbers == ()
        assert content_recall("What drove SG&A lower?", gold, ans) == (5, 1.0)


class TestAbstention:
    """Answers that decline are 'abstained', never wrong or correct."""

    @pytest.mark.parametrize(
        "predicted",
        [
            "Cannot determine from the filings.",
            "There is not enough information in the evidence to answer.",
            "The amount could not be determined from the provided pages.",
            "",
        ],
    )
    def test_phrases(self, predicted: str) -> None:
        """Refusal phrases (and an empty answer) are abstentions."""
        assert is_abstention(predicted)
        assert grade(MILLIONS_Q, "$2415.00", predicted).label == "abstained"

    def test_flag(self) -> None:
        """`abstained=True` wins over the text."""
        assert grade(MILLIONS_Q, "$2415.00", "$2,415", abstained=True).label == "abstained"

    def test_answers_are_not_abstentions(self) -> None:
        """A plain answer is not an abstention."""
        assert not is_abstention("Revenue was $5 billion, up 4%.")


class TestQuestionScale:
    """The scale a question asks for is read from its wording."""

    @pytest.mark.parametrize(
        ("question", "scale"),
        [
            ("Answer in USD millions.", 1e6),
            ("What is capex (in USD billions)?", 1e9),
            ("Please state answer in USD thousands", 1e3),
            ("What is revenue?", None),
        ],
    )
    def test_scale(self, question: str, scale: float | None) -> None:
        """'Answer in USD millions' -> 1e6; no scale wording -> None."""
        assert question_scale(question) == scale


class TestGradeShape:
    """The Grade is a frozen model with the contract's fields."""

    def test_fields(self) -> None:
        """label, kind and detail are set; the grade is immutable."""
        g = grade(PLAIN_Q, "2.8%", "2.8%")
        assert isinstance(g, Grade) and g.detail
        with pytest.raises(Exception):  # noqa: B017 - pydantic ValidationError on frozen model
            g.label = "wrong"


class TestProperties:
    """Scale rewrites of the same amount always grade correct."""

    @settings(max_examples=60, deadline=None)
    @given(st.integers(min_value=1, max_value=999_999))
    def test_millions_vs_billions(self, millions: int) -> None:
        """N million written as N/1000 billion (3 decimals) is the same amount."""
        gold = f"${millions}.00"
        predicted = f"${millions / 1000:.3f} billion"
        assert grade(MILLIONS_Q, gold, predicted).label == "correct"


class TestHedgedAnswers:
    """A refusal phrase next to the right figures is graded as an answer."""

    def test_hedge_with_key_number(self) -> None:
        """'Cannot determine exactly, but about $2.4 billion' states the key number: correct."""
        g = grade(MILLIONS_Q, "$2415.00", "Cannot determine it exactly, but about $2.42 billion.")
        assert g.label == "correct"

    def test_hedge_with_other_number(self) -> None:
        """A refusal that quotes some other figure is still an abstention."""
        g = grade(MILLIONS_Q, "$2415.00", "Cannot determine FCF; revenue was $9,000 million.")
        assert g.label == "abstained"


class TestHeadlineNumbers:
    """For a numeric gold only the answer's headline numbers count, not operands or tables."""

    def test_result_first_or_last(self) -> None:
        """The result may lead ('X: 0.80. Computed from ...') or close a derivation ('= 0.80')."""
        lead = "Payout ratio: 0.80 [S2]. Computed as dividends 7,616 / net income 9,542."
        close = "Dividends were 7,616 and net income 9,542, so the payout ratio = 0.80."
        assert grade(PLAIN_Q, "0.8", lead).label == "correct"
        assert grade(PLAIN_Q, "0.8", close).label == "correct"

    def test_operand_in_the_middle_is_not_the_answer(self) -> None:
        """A gold equal to an operand quoted mid-answer does not make the answer right."""
        pred = "Margin: 12.1% [S1]. Computed from operating income 610 and revenue 5,040 [S1]."
        assert grade(PLAIN_Q, "$610.00", pred).label == "wrong"

    def test_quoted_table_proves_nothing(self) -> None:
        """A quoted table with many numbers neither confirms a yes/no gold nor a text gold."""
        table = 'According to the filings: "' + " ".join(str(800 + i) for i in range(40)) + '"'
        gold = "Yes. Working capital was positive at $831 million."
        assert grade("Is working capital positive?", gold, table).label == "ungraded"
        assert grade(PLAIN_Q, "0", table).label == "wrong"

    def test_small_whole_numbers_are_exact(self) -> None:
        """A gold of '3' (a count) is not matched by 3.4, while '36%' still accepts 35.6%."""
        assert grade(PLAIN_Q, "3", "There were 3.4 of them.").label == "wrong"
        assert grade(PLAIN_Q, "36%", "About 35.6%.").label == "correct"

    def test_dump_headline_is_first_number(self) -> None:
        """After a long list of numbers only the first counts as the answer."""
        numbers = " ".join(str(100 + i) for i in range(20))
        assert grade(PLAIN_Q, "$119.00", f"Figures: {numbers}").label == "wrong"
        assert grade(PLAIN_Q, "$100.00", f"Figures: {numbers}").label == "correct"


class TestPartialYesNo:
    """Without a yes/no, a partial key-number match is ungraded."""

    def test_partial(self) -> None:
        """One of two key numbers stated, no yes/no: ungraded, not wrong."""
        gold = "No. Capex was 5.1% of revenue and fixed assets 20% of total assets."
        g = grade("Is it capital intensive?", gold, "Capex as % of revenue: 5.11%.")
        assert g.label == "ungraded" and "20%" in g.detail
