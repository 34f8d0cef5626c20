"""A basis that supports the claim: a yes/no answer's quoted sentence must be about the asked
subject and state it as a fact of the asked period, not a possibility or a risk factor."""

from __future__ import annotations

from typing import Any

from _reasoning_data import evidence
from finqa.agents.config import Settings
from finqa.agents.judge import JudgeAgent
from finqa.agents.types import Answer, Citation, Evidence, EvidenceItem
from finqa.lexicon.hedges import (
    hedge_in,
    in_risk_factors,
    not_a_fact,
    prior_period_in,
    starts_after,
)

DOC = "CORNING_2022_10K"
Q = "Did Corning pay dividends to its shareholders in FY2022?"

FACT = "In 2022, Corning paid cash dividends to shareholders of record each quarter."
RISK = "Our ability to pay dividends to shareholders could be adversely affected by lower earnings."
OTHER = "Corning's new glass plant in Kentucky opened in 2022 and hired local workers."
OLD = "In 2019, Corning paid cash dividends to shareholders of record each quarter."


def _ev(text: str, section: str | None = None, doc: str = DOC) -> Evidence:
    return evidence(text, doc=doc, first_page=30, sections=(section,))


def _judge(text: str, quote: str, section: str | None = None) -> Any:
    answer = Answer(
        text=text,
        citations=(Citation(source_id="S1", doc_id=DOC, page=30, quote=quote),),
    )
    return JudgeAgent(Settings()).evaluate(Q, answer, _ev(quote, section), 3)


class TestBasis:
    def test_fact_of_the_period_accepted(self) -> None:
        """A quoted sentence about the asked subject, stated as a fact of the year, supports a Yes."""
        v = _judge(f'Yes. "{FACT}" [S1]', FACT)
        assert v.decision == "accept", v.feedback
        assert v.details["basis"]["outcome"] == "supported"

    def test_risk_factor_possibility_rejected(self) -> None:
        """A risk-factor possibility ('could adversely affect') offered as the basis of a Yes is
        not accepted, and the feedback says why."""
        v = _judge(f'Yes. "{RISK}" [S1]', RISK, "Item 1A. Risk Factors")
        assert v.decision == "retry"
        assert v.details["basis"]["outcome"] == "possibility"
        assert "possibility" in v.feedback

    def test_one_shared_word_is_not_the_subject(self) -> None:
        """A sentence sharing only the company and the year with the question is not about it."""
        v = _judge(f'Yes. "{OTHER}" [S1]', OTHER)
        assert v.decision == "retry"
        assert v.details["basis"]["outcome"] == "not_about"

    def test_other_period_rejected(self) -> None:
        """A fact of another year does not answer for the asked one."""
        v = _judge(f'Yes. "{OLD}" [S1]', OLD)
        assert v.details["basis"]["outcome"] == "other_period"
        assert v.decision == "retry"

    def test_the_figure_asked_given_for_another_year(self) -> None:
        """'Was fiscal 2021 a 53-week year?' quoting '... Fiscal 2021 had 52 weeks compared to
        53 weeks in fiscal 2020.': the 53 weeks are fiscal 2020's, so no Yes rests on it; the
        sentence stating the asked year's 53 weeks does."""
        q = "Was fiscal 2021 a 53-week year for General Mills?"
        other = "Fiscal 2021 had 52 weeks compared to 53 weeks in fiscal 2020."
        own = "Fiscal 2021 had 53 weeks compared to 52 weeks in fiscal 2020."

        def judge(quote: str) -> Any:
            answer = Answer(
                text=f'Yes. "{quote}" [S1]',
                citations=(Citation(source_id="S1", doc_id=DOC, page=30, quote=quote),),
            )
            return JudgeAgent(Settings()).evaluate(q, answer, _ev(quote), 3)

        bad = judge(other)
        assert bad.details["basis"]["outcome"] == "other_period" and bad.decision != "accept"
        assert "FY2020" in bad.details["basis"]["reason"]
        good = judge(own)
        assert good.details["basis"]["outcome"] == "supported", good.details["basis"]


class TestHedgeVocabulary:
    def test_modal_and_hedges(self) -> None:
        """Modals and hedges are found; 'May 31' is a date, not a modal."""
        assert hedge_in("This could adversely affect results.") == "could"
        assert hedge_in("We expect growth next year.") == "expect"
        assert hedge_in("On May 31, 2022 the Company paid a dividend.") is None

    def test_risk_factor_section(self) -> None:
        """A source headed 'Item 1A. Risk Factors' is from the risk factors."""
        assert in_risk_factors("Item 1A. Risk Factors")
        assert not in_risk_factors("Item 7. Management's Discussion and Analysis", "Revenue rose.")


class TestQuotedInText:
    def test_quotation_marks_are_a_quote(self) -> None:
        """A sentence the answer puts in quotation marks is its basis even without a citation
        quote: a risk-factor possibility so quoted is not accepted."""
        answer = Answer(text=f'Yes. "{RISK}" [S1]')
        ev = _ev(RISK, "Item 1A. Risk Factors")
        v = JudgeAgent(Settings()).evaluate(Q, answer, ev, 3)
        assert v.details["basis"]["outcome"] == "possibility"
        assert v.details["basis"]["source"] == "S1" and v.decision == "retry"

    def test_no_quote_no_basis_check(self) -> None:
        """An answer that quotes nothing is judged by its grounding alone (no basis record)."""
        answer = Answer(text="Yes, Corning paid cash dividends to shareholders each quarter [S1].")
        v = JudgeAgent(Settings()).evaluate(Q, answer, _ev(FACT), 1)
        assert v.details["basis"] is None and v.decision == "accept", v.feedback


def _page(chunks: list[tuple[str, str]], section: str) -> Evidence:
    """One page whose chunks come from several parts of the filing (the page's own section is
    its first chunk's)."""
    plan = evidence("x").plan
    item = EvidenceItem(
        source_id="S1",
        doc_id=DOC,
        pages=(7,),
        chunk_ids=tuple(f"{DOC}#{i}" for i in range(len(chunks))),
        text="\n".join(t for _s, t in chunks),
        section=section,
        metadata={"sections": [s for s, _t in chunks]},
    )
    return Evidence(question="q", items=(item,), plan=plan)


def _judge_on(
    question: str, quote: str, ev: Evidence, chunk: str | None = None, doc: str = DOC
) -> Any:
    cite = Citation(source_id="S1", doc_id=doc, page=7, quote=quote, chunk_id=chunk)
    answer = Answer(text=f'Yes. "{quote}" [S1]', citations=(cite,))
    return JudgeAgent(Settings()).evaluate(question, answer, ev, 1)


def _expect(
    question: str, sentence: str, outcome: str, decision: str | None = None, doc: str = DOC
) -> None:
    """The judge's basis outcome (and decision) on a Yes quoting `sentence` from its page."""
    v = _judge_on(question, sentence, _ev(sentence, doc=doc), doc=doc)
    assert v.details["basis"]["outcome"] == outcome, v.details["basis"]
    assert decision is None or v.decision == decision, v.feedback


class TestBasisStatesAFact:
    Q_CUSTOMERS = "Did Corning's display sales depend on a few large customers in FY2022?"

    def test_risk_factor_chunk_on_a_business_page_rejected(self) -> None:
        """A risk factor worded without a modal, quoted from the risk-factor chunk of a page that
        opens in the business section, is not a fact of the period: not accepted."""
        risk = "Corning's display sales depend on a few large customers in Asia in 2022."
        ev = _page(
            [
                ("Item 1. Business", "Corning makes specialty glass and ceramics."),
                ("Item 1A. Risk Factors", risk),
            ],
            "Item 1. Business",
        )
        v = _judge_on(self.Q_CUSTOMERS, risk, ev, chunk=f"{DOC}#1")
        assert v.details["basis"]["outcome"] == "risk_factor", v.details["basis"]
        assert v.decision == "retry"

    def test_business_chunk_on_the_same_page_accepted(self) -> None:
        """The same page's business-section sentence, cited from its own chunk, is a fact."""
        fact = "In 2022, Corning's display sales depended on a few large customers in Asia."
        ev = _page(
            [
                ("Item 1. Business", fact),
                ("Item 1A. Risk Factors", "Competition is intense in every market we serve."),
            ],
            "Item 1. Business",
        )
        v = _judge_on(self.Q_CUSTOMERS, fact, ev, chunk=f"{DOC}#0")
        assert v.details["basis"]["outcome"] == "supported", v.details["basis"]
        assert v.decision == "accept", v.feedback

    def test_conditional_clause_rejected(self) -> None:
        """A sentence opened by a condition ('If ...') states what follows should it happen, not
        a fact of the period: not accepted, though it has no modal verb."""
        cond = "If a few large customers reduce their orders, Corning's display sales decline."
        v = _judge_on(self.Q_CUSTOMERS, cond, _ev(cond))
        assert v.details["basis"]["outcome"] == "possibility", v.details["basis"]
        assert v.decision == "retry"


class TestBasisTopic:
    def test_frame_word_alone_is_not_the_subject(self) -> None:
        """A sentence sharing only the question's frame word ('report') with it is about another
        subject, not customer concentration: not accepted."""
        q = "Did Corning report customer concentration in FY2022?"
        other = "In 2022, Corning reported its results in five reportable segments."
        _expect(q, other, "not_about", "retry")

    def test_instruction_words_are_not_the_subject(self) -> None:
        """The topic is read from the asked sentence, not the instruction after it ('please
        state that and explain why'): a plain fact about dividends in the year is accepted."""
        q = (
            "Did Corning pay dividends in FY2022? If dividends are not a relevant measure for "
            "this company, then please state that and explain why."
        )
        fact = "In 2022, Corning paid cash dividends each quarter."
        _expect(q, fact, "supported", "accept")

    def test_one_word_of_a_two_word_topic_is_not_enough(self) -> None:
        """'Customer' alone is not customer concentration: a sentence about working with
        customers is not accepted."""
        q = "Did Corning report customer concentration in FY2022?"
        other = "In 2022, Corning worked with its customers to create new glass products."
        _expect(q, other, "not_about")

    def test_concept_in_its_filing_language_accepted(self) -> None:
        """Customer concentration stated in the filings' own words ('one customer accounted for')
        names the concept: accepted."""
        q = "Did Corning report customer concentration in FY2022?"
        fact = "In 2022, one customer accounted for a significant part of Corning's net sales."
        _expect(q, fact, "supported", "accept")


class TestBasisPeriodAndFuture:
    def test_future_is_no_fact_of_the_period(self) -> None:
        """'will continue to' states what will be: no basis for what a company did."""
        q = "Did Corning's display sales depend on a few large customers in FY2022?"
        will = "A few large customers will continue to account for most of Corning's display sales."
        _expect(q, will, "possibility", "retry")

    def test_year_named_as_the_comparison(self) -> None:
        """A sentence naming only the year it compares against ('compared to fiscal 2021') is a
        fact of the year after: it answers for fiscal 2022 (FY2023 of a retailer whose fiscal
        2022 ends in January 2023); one compared to fiscal 2020 does not."""
        q = "What drove the decrease in Best Buy's selling and administrative expenses in FY2023?"
        fact = (
            "Selling and administrative expenses decreased compared to fiscal 2020, primarily "
            "due to lower marketing costs."
        )
        fact21 = fact.replace("2020", "2021")
        _expect(q, fact21, "supported", doc="BESTBUY_2023_10K")
        _expect(q, fact, "other_period", doc="BESTBUY_2023_10K")

    def test_a_calendar_filer_names_the_year_it_means(self) -> None:
        """A filer whose fiscal years are calendar years (Corning, December year ends) means
        2021 by '2021': a sentence of 2021 is no fact of 2022 (a year away is tolerated only
        where a fiscal year may be named by either calendar year it touches)."""
        q = "Did Corning record a licensing gain in 2022?"
        before = "During 2021, the Company recognized an $88 million licensing gain."
        _expect(q, before, "other_period")
        _expect(q, before.replace("2021", "2022"), "supported")
        _expect(q, before, "supported", doc="BESTBUY_2023_10K")

    def test_an_event_starting_after_the_asked_year_is_no_fact_of_it(self) -> None:
        """'... a suspension of production beginning in January 2023', announced in 2022, is not
        a halt in 2022: the event it dates starts after the asked year; a halt dated from
        within the year is a fact of it."""
        q = "Did Corning halt glass production during 2022?"
        later = (
            "In the fourth quarter of 2022, Corning announced a temporary halt of glass "
            "production beginning in January 2023."
        )
        _expect(q, later, "other_period", "retry")
        _expect(q, later.replace("January 2023", "March 2022"), "supported")

    def test_a_sentence_about_last_years_quarter_is_no_fact_of_this_one(self) -> None:
        """A release for the third quarter of 2023 recalls that last year's third quarter
        included a charge: no basis for a charge in this year's quarter; the same sentence
        about this quarter is one."""
        q = "Did Corning record any non-recurring charge in the third quarter of fiscal 2023?"
        prior = (
            "Last year's third quarter net income was $1.10 billion, which included a "
            "non-recurring pretax charge of $45 million."
        )
        _expect(q, prior, "other_period", "retry")
        _expect(q, prior.replace("Last year's", "This"), "supported")


class TestNotAFact:
    def test_starts_after_reads_the_dated_period(self) -> None:
        """An event dated from a later calendar year is found; one within the asked year, or a
        year asked as the later one, is not."""
        s = "We announced a suspension of production beginning in January 2020."
        assert starts_after(s, [2019]) == "January 2020"
        assert starts_after(s, [2020]) is None
        assert starts_after("Production stopped beginning in March 2019.", [2019]) is None
        # a year named after the word, not a dated start: no event beginning later
        assert starts_after("Cash at the beginning of 2020 was $5 million.", [2019]) is None
        assert (
            starts_after("Our effective tax rate for fiscal 2020 was 21.0%, against 2019.", [2019])
            is None
        )

    def test_reasons_in_order(self) -> None:
        """A hedge is named first, then the future, then a later start; a fact has none."""
        assert not_a_fact("We plan to suspend production.", [2019]) == "a possibility ('plan to')"
        assert not_a_fact("Production will stop.", [2019]) == "what will be ('will')"
        assert not_a_fact("Production will stop.", [2019], asks_future=True) is None
        assert not_a_fact("Production stopped in March 2019.", [2019]) is None
        assert not_a_fact("In the prior year, production stopped.", [2019]) == (
            "what was so in the year before ('prior year')"
        )

    def test_prior_period_opening(self) -> None:
        """A sentence opening on the year before is of that year; a comparison with last year
        inside a sentence of this one, 'in the last year' (the past twelve months), and a
        question that itself asks about the prior year are not."""
        assert prior_period_in("The year-ago quarter included a gain.") == "year-ago"
        assert prior_period_in("A year ago, revenue was $5 million.") == "year ago"
        assert prior_period_in("Net sales rose 4% from last year's third quarter.") is None
        assert prior_period_in("In the last year, we opened 30 stores.") is None
        assert prior_period_in("In the prior year, we sold a plant.", "What did the prior year include?") is None  # fmt: skip


class TestBasisBridgingLine:
    Q = "Why did Corning's 2022 net income exceed its income before taxes?"
    TAX = (
        "The income tax benefit in 2022 was primarily due to the release of a valuation "
        "allowance on deferred tax assets."
    )
    NET = "Net income and income before taxes increased in 2022, driven by higher sales of glass."

    def _judge(self, quote: str) -> Any:
        cite = Citation(source_id="S1", doc_id=DOC, page=7, quote=quote)
        answer = Answer(text=f'In the filing\'s words: "{quote}" [S1]', citations=(cite,))
        return JudgeAgent(Settings()).evaluate(self.Q, answer, _ev(quote), 1)

    def test_the_bridging_line_is_the_subject(self) -> None:
        """Why net income and income before taxes differ is about income taxes: a sentence
        about the tax line supports the answer; one about the two lines' own movement does not,
        though it shares more of the question's words."""
        assert self._judge(self.TAX).details["basis"]["outcome"] == "supported"
        v = self._judge(self.NET)
        assert v.details["basis"]["outcome"] == "not_about", v.details["basis"]
        assert "income tax" in v.details["basis"]["reason"] and v.decision == "retry"

    def test_naming_the_line_alone_is_not_enough(self) -> None:
        """The bridging line counts as one topic word: a sentence that names the tax line only
        among a restatement's effects, sharing no other word of the question, is not about it."""
        q = "Corning's income before income taxes rose in 2022, yet net income fell. What caused the drop?"  # fmt: skip
        restated = (
            "Adoption of the standard required us to restate previously reported results, "
            "including an increase in the provision for income taxes, primarily due to the net "
            "change in revenue recognition."
        )
        cite = Citation(source_id="S1", doc_id=DOC, page=7, quote=restated)
        answer = Answer(text=f'In the filing\'s words: "{restated}" [S1]', citations=(cite,))
        v = JudgeAgent(Settings()).evaluate(q, answer, _ev(restated), 1)
        assert v.details["basis"]["outcome"] == "not_about", v.details["basis"]
        assert v.decision == "retry"


class TestBasisStatesTheMovement:
    Q = "Did Acme raise its quarterly common stock dividend during 2024?"

    def test_level_alone_does_not_support_a_rise(self) -> None:
        """A Yes to 'did X raise ...?' quoting a sentence that states the level only (the same
        rate for each quarter) is not supported; one stating the raise is."""
        level = (
            "For each of the quarters in 2024 and 2023, the Board of Directors of Acme declared "
            "common stock dividends of $0.455 per share."
        )
        _expect(self.Q, level, "not_about", "retry")
        raised = (
            "In 2024, the Board of Directors of Acme increased the quarterly common stock "
            "dividend to $0.50 per share from $0.455 per share."
        )
        _expect(self.Q, raised, "supported")


def test_a_movement_is_no_answer_to_a_level() -> None:
    """'What amount did X record for wildfire claims in 2019?' answered with '$336 million' that
    its quoted sentence states as a decrease: refused; the same question answered with a level
    quoted from a sentence stating it is not."""
    q = "What amount did Acme record for wildfire-related claims on its 2019 income statement?"
    moved = "Costs related to wildfires decreased by $336 million in 2019 compared to 2018."
    level = "Acme recorded wildfire-related claims of $11,435 million in 2019."

    def judge(figure: str, quote: str) -> Any:
        answer = Answer(
            text=f'{figure}. The filing states: "{quote}" [S1].',
            citations=(Citation(source_id="S1", doc_id=DOC, page=30, quote=quote),),
        )
        return JudgeAgent(Settings()).evaluate(q, answer, _ev(quote), 3)

    bad = judge("$336 million", moved)
    assert "movement_for_level" in [p["code"] for p in bad.details["answer_problems"]]
    good = judge("$11,435 million", level)
    assert "movement_for_level" not in [p["code"] for p in good.details["answer_problems"]]


class TestEffectBasis:
    """'How did X affect Y?' is answered by a sentence naming X: one about what moved Y, not
    naming X, says nothing of X's effect."""

    Q = "How did the restructuring charge affect Corning's operating expenses in FY2022?"
    ON_Y = "In 2022, operating expenses increased due to higher wages and freight costs."
    ON_X = "In 2022, the restructuring charge increased operating expenses by $120 million."

    def _judge(self, quote: str) -> Any:
        answer = Answer(
            text=f'"{quote}" [S1]',
            citations=(Citation(source_id="S1", doc_id=DOC, page=30, quote=quote),),
        )
        return JudgeAgent(Settings()).evaluate(self.Q, answer, _ev(quote), 3)

    def test_effect_object_read(self) -> None:
        from finqa.lexicon.causes import effect_object

        assert effect_object(self.Q) == "operating expenses"
        assert effect_object("What drove Corning's operating expenses in FY2022?") is None

    def test_sentence_about_the_affected_figure_only_refused(self) -> None:
        v = self._judge(self.ON_Y)
        assert v.decision == "retry"
        assert v.details["basis"]["outcome"] == "not_about"
        assert "effect" in v.details["basis"]["reason"]

    def test_sentence_naming_the_cause_accepted(self) -> None:
        v = self._judge(self.ON_X)
        assert v.details["basis"]["outcome"] == "supported", v.feedback


class TestNamesOnly:
    """A sentence sharing only the names a question uses ('the Distributed Energy Solutions
    business') says nothing of what the question asks of them ('reported as a discontinued
    operation'); one sharing what is asked still supports the answer."""

    Q = "Did Corning report the Display Glass Solutions business it sold in 2022 as a discontinued operation?"
    NAMES = "In 2022, goodwill decreased by $175 million allocated to the Display Glass Solutions business."
    ASKED = (
        "In 2022, the Display Glass Solutions business was reported as a discontinued operation."
    )

    def _judge(self, quote: str) -> Any:
        answer = Answer(
            text=f'Yes. "{quote}" [S1]',
            citations=(Citation(source_id="S1", doc_id=DOC, page=30, quote=quote),),
        )
        return JudgeAgent(Settings()).evaluate(self.Q, answer, _ev(quote), 3)

    def test_name_words(self) -> None:
        from finqa.lexicon.prose import name_words

        assert name_words(self.Q) == ["corning", "display", "glass", "solutions"]
        assert name_words("What was 'Other income, net' in 2022?") == []

    def test_names_only_refused(self) -> None:
        v = self._judge(self.NAMES)
        assert v.decision == "retry"
        assert v.details["basis"]["outcome"] == "not_about"
        assert "names" in v.details["basis"]["reason"]

    def test_what_is_asked_accepted(self) -> None:
        v = self._judge(self.ASKED)
        assert v.details["basis"]["outcome"] == "supported", v.feedback
