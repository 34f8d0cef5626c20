"""What the question's words scope an answer to, and the judge's refusal of an answer that
answers a wider or another scope (issue #25, blind sets S and T): a brand or business of the
company, a category within a segment, 'international' revenue, a figure dated in another year,
a flow asked beside a second part, the measure a 'what X did Y report' names, a total of listed
lines, the gap between two lines a premise compares, a side asked in words and a part asked
'which item' that finqa's own notes do not answer."""

from __future__ import annotations

import pytest
from _reasoning_data import evidence
from finqa.agents.config import Settings
from finqa.agents.judge import JudgeAgent
from finqa.agents.types import Answer, Verdict


@pytest.fixture(scope="module")
def judge() -> JudgeAgent:
    return JudgeAgent(Settings())


def _codes(v: Verdict) -> list[str]:
    return [p["code"] for p in v.details["answer_problems"]]


INCOME = """ACME INC.
CONSOLIDATED STATEMENTS OF INCOME
(amounts in millions)
2022 2021 2020
Total revenue 2,100 1,880 1,570
Operating profit 436 400 350
Income before income taxes 400 380 300
Provision for income taxes 100 90 70
Net income 300 290 230
Net income attributable to Acme 310 280 225
"""


class TestBrandAsked:
    Q = "Acme completed its acquisition of Sikorsky in 2022. How much operating profit did Sikorsky contribute to Acme's 2022 operating profit?"

    def test_brand_read_with_and_without_the_company_words(self) -> None:
        """A brand of the gazetteer named in the ask is a part; its spellings are kept whole
        and without the company's own words ('web service' of 'Amazon Web Services')."""
        from finqa.lexicon.dimension_question import named_brands

        assert named_brands(
            "Lockheed Martin bought Sikorsky. How much did Sikorsky contribute to Lockheed's operating profit?"
        ) == (("sikorsky",),)
        aws = named_brands("What operating margin did Amazon Web Services earn in 2018?")
        assert ("web", "service") in aws
        assert named_brands("What was Amazon's operating margin in 2018?") == ()

    def test_company_figure_refused_for_a_brand(self, judge: JudgeAgent) -> None:
        """The company's operating profit given for a brand's contribution is sent back; an
        answer naming the brand (or its initials) is not refused for it."""
        q = "How much operating profit did Sikorsky contribute to Lockheed's 2022 operating profit?"
        text = "FY2022 operating income: $436 million [S1]. Read from the line 'Operating profit 436 400 350' [S1]."
        v = judge.evaluate(q, Answer(text=text), evidence(INCOME), 1)
        assert "brand_part" in _codes(v)
        named = "Sikorsky's operating profit in FY2022 was $436 million [S1]."
        v = judge.evaluate(q, Answer(text=named), evidence(INCOME), 1)
        assert "brand_part" not in _codes(v)


class TestPartWords:
    def test_category_and_international_are_parts(self) -> None:
        """'the Entertainment category' is a product part (before the segment that holds it);
        lower-case 'international revenues' a geography part; 'foreign currency' is none."""
        from finqa.lexicon.dimension_question import asked_dimension

        cat = asked_dimension(
            "How did revenue from the Entertainment category in Acme's Domestic segment change in 2022?"
        )
        assert cat is not None and (cat.kind, cat.phrase) == ("product", "Entertainment")
        intl = asked_dimension(
            "By what percentage did Acme's international net revenues change in 2022?"
        )
        assert intl is not None and (intl.kind, intl.phrase) == ("geography", "International")
        assert (
            asked_dimension("What was the foreign currency translation adjustment in 2022?") is None
        )
        assert asked_dimension("What was the largest expense category in 2022?") is None


SENTENCE_2015 = """Share repurchases
On October 28, 2015, Acme entered into an agreement to repurchase $1.25 billion of Acme's common stock under the accelerated program.
"""


class TestNarrativePeriod:
    def test_figure_of_a_sentence_dated_another_year(self, judge: JudgeAgent) -> None:
        """A figure quoted from a sentence that names only 2015 is no figure of 2017."""
        q = "How much cash did Acme spend repurchasing its common stock in 2017?"
        text = (
            '$1.25 billion. The filing states: "On October 28, 2015, Acme entered into an '
            "agreement to repurchase $1.25 billion of Acme's common stock under the accelerated "
            'program." [S1]. Read offline from this sentence; the figure is as stated, not computed.'
        )
        v = judge.evaluate(q, Answer(text=text), evidence(SENTENCE_2015), 1)
        assert v.decision != "accept"
        statuses = {n["text"].strip(): n["status"] for n in v.details["numbers"]}
        assert statuses["$1.25 billion"] == "period_mismatch"
        q15 = "How much Acme common stock did the 2015 accelerated program repurchase in 2015?"
        v = judge.evaluate(q15, Answer(text=text), evidence(SENTENCE_2015), 1)
        statuses = {n["text"].strip(): n["status"] for n in v.details["numbers"]}
        assert statuses["$1.25 billion"] != "period_mismatch"


BALANCE_DEBT = """ACME INC.
CONSOLIDATED BALANCE SHEETS
(amounts in millions)
December 31, 2018 December 31, 2017
Long-term debt, net 2,671 4,390
Total liabilities 9,000 10,000
"""


class TestFlowPartBesideAnother:
    def test_balance_refused_for_a_repayment_asked_first(self, judge: JudgeAgent) -> None:
        """'How much long-term debt did X repay in cash during 2018, and how does that compare
        with the change on the balance sheet?': the first part asks a flow; the year-end
        balance given for it is sent back."""
        q = (
            "How much long-term debt did Acme repay in cash during 2018, and how does that "
            "compare with the change in long-term debt on the balance sheet?"
        )
        text = (
            "Long-term debt as of December 31, 2018: $2,671 million [S1]. Read from the line "
            "'Long-term debt, net 2,671 4,390' [S1]."
        )
        v = judge.evaluate(q, Answer(text=text), evidence(BALANCE_DEBT), 1)
        assert "period_type" in _codes(v)


class TestAskedPhrase:
    def test_what_np_did_x_verb_is_the_asked_phrase(self) -> None:
        """'what current deferred revenue balance did X carry', 'what debt-to-total-capital
        ratio did X report' name the measure asked, whatever the question's framing words."""
        from finqa.lexicon.asked_measure import answer_fit, asked_measure

        q = "For a working-capital review, what current deferred revenue balance did Acme carry at May 31, 2017?"
        asked = asked_measure(q)
        assert asked is not None and asked.words == ("deferred", "revenue")
        fit = answer_fit(q, "Working capital as of May 31, 2017: $50,337 million [S1].")
        assert fit is not None and not fit.fits
        fit = answer_fit(q, "Deferred revenue as of May 31, 2017: $8,233 million [S1].")
        assert fit is None or fit.fits

    def test_attributable_to_names_whose_figure(self) -> None:
        """'net result attributable to The AES Corporation' is no ratio's numerator: the
        noncontrolling interests' balance does not fit it."""
        from finqa.lexicon.asked_measure import answer_fit

        q = "What was AES's 2016 net result attributable to The AES Corporation, i.e. after noncontrolling interests?"
        fit = answer_fit(q, "FY2016 noncontrolling interests: $2,906 million [S1].")
        assert fit is not None and not fit.fits

    def test_total_of_a_list_is_an_enumeration(self) -> None:
        """'the total of A, B and C' lists the parts of the figure asked."""
        from finqa.lexicon.components import enumeration

        listed = enumeration(
            "What was Acme's total of cash, cash equivalents and short-term investments at June 30, 2020?"
        )
        assert listed is not None and "short-term investments" in listed.parts
        assert enumeration("What was the total of long-term debt at year end?") is None


class TestGapBetweenLines:
    Q = "Acme's 2022 net income attributable to Acme was higher than its consolidated net income. By how much, and why?"

    def test_premise_comparison_and_gap(self) -> None:
        """The premise compares two lines; 'By how much' asks the gap between them."""
        from finqa.lexicon.comparison import asks_gap, premise_comparison

        found = premise_comparison(self.Q)
        assert found is not None and "consolidated net income" in found.right
        assert asks_gap(self.Q)
        assert not asks_gap("Acme's net income rose in 2022. By how much?")

    def test_one_level_refused_for_the_gap(self, judge: JudgeAgent) -> None:
        """One line's level read off a row is not the gap the question asks."""
        text = (
            "FY2022 net income attributable to shareholders: $310 million [S1]. Read from the line "
            "'Net income attributable to Acme 310 280 225' [S1]."
        )
        v = judge.evaluate(self.Q, Answer(text=text), evidence(INCOME), 1)
        assert "level_for_gap" in _codes(v)


TAX_TEXT = """ACME INC.
CONSOLIDATED STATEMENTS OF INCOME
(amounts in millions)
2017 2016
Income before income taxes 20,594 19,000
Benefit (provision) for income taxes 9,956 (6,000)
Net income 30,550 13,000
The decrease in the effective income tax rate and the provision for income taxes was due to a one-time, non-cash income tax benefit recorded in the current period as a result of the enactment of the tax act in December 2017.
"""


class TestOwnWords:
    def test_quoted_sentence_names_no_side(self) -> None:
        """A filing's sentence quoted whole (apostrophes and all), or a claim cut from inside
        one, states no side in the answer's own words."""
        from finqa.lexicon.sides import own_words

        quoted = "Rate: -48.3%. In the filing's words: \"Acme's provision fell due to a tax benefit.\" [S1]"
        assert "benefit" not in own_words(quoted) and "provision" not in own_words(quoted)
        assert "benefit" not in own_words('The decrease was due to a tax benefit recorded." [S1]')
        assert "benefit" in own_words("An income tax benefit of $9,956 million [S1].")

    def test_side_asked_not_answered_by_a_quote_or_operand_names(self, judge: JudgeAgent) -> None:
        """'Was the tax line a provision or a benefit?' answered with a rate, its operands
        named 'income tax expense' and a quote naming both sides, names neither side."""
        q = "Was Acme's 2017 income tax line a provision or a benefit, and what caused it?"
        text = (
            "FY2017 effective tax rate: -48.3% [S1]. Computed by finqa as income_tax_expense_fy2017 "
            "/ pretax_income_fy2017 * 100 from income tax expense FY2017 = -9,956 [S1]; pretax "
            "income FY2017 = 20,594 [S1] (amounts in USD millions). Answer: -48.3%. What drove it, "
            "in the filing's words: \"The decrease in the effective income tax rate and the "
            "provision for income taxes was due to a one-time, non-cash income tax benefit "
            "recorded in the current period as a result of the enactment of the tax act in "
            'December 2017." [S1]'
        )
        v = judge.evaluate(q, Answer(text=text), evidence(TAX_TEXT), 1)
        assert v.decision != "accept"

    def test_which_item_not_answered_by_finqas_notes(self, judge: JudgeAgent) -> None:
        """A 'which item' part is not answered by the words of finqa's own notes ('(amounts in
        USD millions)', an operand's name)."""
        q = "What was Acme's effective tax rate in 2022, and which item accounts for most of the jump?"
        text = (
            "FY2022 effective tax rate: 25.0% [S1]. Computed by finqa as income_tax_expense_fy2022 "
            "/ pretax_income_fy2022 * 100 from income tax expense FY2022 = 100 [S1]; pretax income "
            "FY2022 = 400 [S1] (amounts in USD millions). Answer: 25.0%."
        )
        v = judge.evaluate(q, Answer(text=text), evidence(INCOME), 1)
        facets = {f["kind"]: f for f in v.details["facets"]}
        assert not facets["choice"]["addressed"]


TAX_BENEFIT = """ACME INC.
CONSOLIDATED STATEMENTS OF OPERATIONS
(amounts in thousands)
Year Ended December 31, 2021 2020
Income before income tax 157,462 210,243
Provision (benefit) for income taxes (1,364) 2,862
Net income 158,826 207,381
"""


class TestOneSideNamed:
    Q = "Did Acme record an income tax expense for 2021?"

    def test_side_named_against_the_items_way(self) -> None:
        """'record an income tax expense' names the expense item's own side; 'a benefit' the
        other; 'an expense or a benefit?' offers both (another reading)."""
        from finqa.lexicon.sides import side_named

        assert side_named(self.Q, "expense") is True
        assert side_named("Did Acme record an income tax benefit for 2021?", "expense") is False
        assert side_named("Did Acme record an income tax expense or a benefit?", "expense") is None
        assert side_named("Did Acme pay dividends in 2021?", "outflow") is None

    def test_no_for_a_figure_on_the_other_side(self) -> None:
        """The reasoner says No to an expense where the line prints a benefit, and the judge
        refuses a Yes beside that figure."""
        from finqa.agents.reasoning import build_reasoner

        settings = Settings()
        ev = evidence(TAX_BENEFIT, question=self.Q)
        answer = build_reasoner(settings).generate(self.Q, ev, 1)
        assert answer.text.startswith("No."), answer.text
        yes = "Yes. The FY2021 income statement shows 'Provision (benefit) for income taxes' of -$1,364 thousand [S1]."
        v = JudgeAgent(settings).evaluate(self.Q, Answer(text=yes), ev, 1)
        assert "verdict_sign" in _codes(v)


BALANCE_CONTENT = """ACME INC.
CONSOLIDATED BALANCE SHEETS
(in thousands)
As of December 31, 2021 2020
Content assets, net 30,919,539 25,383,950
Total assets 44,584,663 39,280,359
"""

SGA_TEXT = """ACME INC.
CONSOLIDATED STATEMENTS OF INCOME
(in millions)
2018 2017
Net sales 26,268 26,076
Selling, general and administrative expenses 19,141 2,976
Operating income (loss) (10,205) 6,773
"""

INTEREST = """ACME INC.
CONSOLIDATED STATEMENTS OF INCOME
(in millions)
2019 2018
Interest income 563 689
Interest expense 946 950
Income before income taxes 10,786 8,350
"""

DEBT = """ACME INC.
CONSOLIDATED BALANCE SHEETS
(in millions)
December 31, 2018 December 31, 2017
Long-term debt 32,909 33,538
Total liabilities 95,000 96,000
"""


class TestScopeOfTheFigure:
    def test_balance_sheet_line_refused_for_an_addition(self, judge: JudgeAgent) -> None:
        """A line the catalogue does not name, read off the balance sheet, answers no flow
        ('how much did X add to its content assets during 2021')."""
        from finqa.agents.types import Calculation, Operand

        q = "How much did Acme add to its content assets during 2021?"
        op = Operand(name="content_assets_fy2021", value=30919539, unit="USD", scale=1e3, period="FY2021", source_id="S1", text="Content assets, net 30,919,539 25,383,950")  # fmt: skip
        calc = Calculation(expression="content_assets_fy2021", operands=(op,), result=30919539, unit="USD", description="content assets")  # fmt: skip
        text = (
            "Content assets as of December 31, 2021: $30,919.54 million [S1]. Read from the line "
            "'Content assets, net 30,919,539 25,383,950' [S1] (amounts in USD thousands)."
        )
        v = judge.evaluate(q, Answer(text=text, calculations=(calc,)), evidence(BALANCE_CONTENT), 1)
        assert "period_type" in _codes(v)

    def test_exclusion_checked_for_any_figure(self, judge: JudgeAgent) -> None:
        """'SG&A for 2018 excluding impairment losses' (an answer-kind ask) answered with the
        line as reported is sent back."""
        q = "What were Acme's selling, general and administrative expenses for 2018 excluding impairment losses?"
        text = (
            "FY2018 selling, general and administrative expense: $19,141 million [S1]. Read from "
            "the line 'Selling, general and administrative expenses 19,141 2,976' [S1]."
        )
        v = judge.evaluate(q, Answer(text=text), evidence(SGA_TEXT), 1)
        assert "exclusion" in _codes(v)

    def test_gross_line_refused_for_the_net(self, judge: JudgeAgent) -> None:
        """'net interest expense' read off 'Interest expense' beside an 'Interest income' row
        is the gross line; an answer reading 'Interest expense, net' is not refused for it."""
        q = "What was Acme's net interest expense in 2019?"
        text = "FY2019 interest expense: $946 million [S1]. Read from the line 'Interest expense 946 950' [S1]."
        v = judge.evaluate(q, Answer(text=text), evidence(INTEREST), 1)
        assert "gross_for_net" in _codes(v)
        v = judge.evaluate(
            "What was Acme's interest expense in 2019?", Answer(text=text), evidence(INTEREST), 1
        )
        assert "gross_for_net" not in _codes(v)

    def test_operand_the_question_counts_is_not_left_out(self, judge: JudgeAgent) -> None:
        """Total debt 'taking short-term borrowings plus long-term debt', computed from
        long-term debt alone as the answer itself says, is sent back."""
        q = "What was Acme's total debt at December 31, 2018, taking short-term borrowings plus long-term debt?"
        text = (
            "Total debt as of December 31, 2018: $32,909 million [S1]. Read from the line "
            "'Long-term debt 32,909 33,538' [S1]. The catalogue defines the total debt as "
            "short_term_debt + long_term_debt; no short term debt line was read from the "
            "evidence, so it is computed from the lines shown. Answer: $32,909 million."
        )
        v = judge.evaluate(q, Answer(text=text), evidence(DEBT), 1)
        assert "operand_missing" in _codes(v)

    def test_service_offering_is_a_part(self) -> None:
        """'the Data service offering' names a product part."""
        from finqa.lexicon.dimension_question import asked_dimension

        got = asked_dimension(
            "Within Acme's subscription and support revenue, how much did the Data service offering bring in for 2023?"
        )
        assert got is not None and (got.kind, got.phrase) == ("product", "Data")


class TestWiderChecks:
    def test_other_date_refused(self, judge: JudgeAgent) -> None:
        """A figure dated at another day than the one the ask states answers another period."""
        q = "What was Acme's long-term debt at December 31, 2018?"
        text = "Long-term debt as of December 31, 2017: $33,538 million [S1]. Read from the line 'Long-term debt 32,909 33,538' [S1]."
        v = judge.evaluate(q, Answer(text=text), evidence(DEBT), 1)
        assert "other_date" in _codes(v)
        same = "Long-term debt as of December 31, 2018: $32,909 million [S1]. Read from the line 'Long-term debt 32,909 33,538' [S1]."
        v = judge.evaluate(q, Answer(text=same), evidence(DEBT), 1)
        assert "other_date" not in _codes(v)

    def test_one_part_for_the_sum_of_parts(self, judge: JudgeAgent) -> None:
        """'the combined operating income of its three reportable segments' answered with one
        segment's figure is sent back, at any attempt (its numbers support nothing)."""
        q = "What was the combined 2022 segment operating income of Acme's three reportable segments?"
        text = (
            "The operating income of the Widgets segment for FY2022 was $1,317 million [S1]. Read "
            "from the filing's figure for that segment. Answer: $1,317 million."
        )
        seg = "Segment operating income\n2022 2021\nWidgets $ 1,317 $ 1,200\nGadgets 625 600\n"
        v = judge.evaluate(q, Answer(text=text), evidence(seg), 3)
        assert "one_part" in _codes(v) and v.decision != "accept"

    def test_business_named_after_the_company(self) -> None:
        """ "MGM China's net revenues" name a business of MGM Resorts; 'Apple Inc.'s' is the
        company."""
        from finqa.lexicon.dimension_question import named_brands

        found = named_brands("What was the growth rate of MGM China's net revenues in 2019?")
        assert ("china",) in found
        assert named_brands("What was Apple Inc.'s revenue in 2022?") == ()

    def test_approximate_share_is_a_ratio(self) -> None:
        from finqa.lexicon.asked_measure import asks_ratio_form

        assert asks_ratio_form(
            "What approximate share of Acme's net sales came from skincare in Q2?"
        )

    def test_flow_sentence_refused_for_a_balance(self, judge: JudgeAgent) -> None:
        """A balance asked at a date, answered with a sentence's payment during the period."""
        q = "How much of Acme's lease obligations were classified as current at October 29, 2022?"
        sentence = "Additionally, we paid $5 million of principal on our finance lease obligations, mainly related to certain stores in the period."
        text = (
            f'$5 million. The filing states: "{sentence}" [S1]. Read offline from this sentence; '
            "the figure is as stated, not computed."
        )
        v = judge.evaluate(q, Answer(text=text), evidence(sentence), 3)
        assert "period_type" in _codes(v) and v.decision != "accept"

    def test_risk_that_is_no_fact(self) -> None:
        """'assessing the risk that a material weakness exists' states a possibility."""
        from finqa.lexicon.hedges import not_a_fact

        why = not_a_fact(
            "Our audit included assessing the risk that a material weakness exists.", (2015,)
        )
        assert why is not None
