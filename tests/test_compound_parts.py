"""Every asked part answered or named: a question asking a figure and its cause gets both in one
answer (or says the cause was not found), and the judge lists the asked parts, checks the cause
part's quotes as a basis, and never accepts an answer that silently drops a part."""

from __future__ import annotations

from typing import Any

from _reasoning_data import INCOME, evidence
from finqa.agents.config import Settings
from finqa.agents.judge import JudgeAgent
from finqa.agents.reasoning import build_reasoner
from finqa.agents.types import Answer, Citation, Evidence
from finqa.lexicon.causes import states_movement_cause
from finqa.lexicon.question_parts import cause_part, movement_wording, question_parts
from finqa.lexicon.refusal import declines_part, is_refusal, part_not_found

MDA = (
    "Item 7. Management's Discussion and Analysis of Financial Condition and Results of Operations"
)
# synthetic MD&A sentences in a filing's style, with the invented figures of INCOME
MARGIN_DOWN = (
    "Gross margin decreased to 53.0% in 2022 from 53.3% in 2021, primarily due to higher "
    "freight costs and unfavorable product mix, partially offset by pricing actions."
)
MARGIN_UP = "Gross margin increased to 53.0% in 2022 from 52.0% in 2021, primarily due to pricing."
MARGIN_CAN = (
    "Gross margins on our products can change over time as a result of pricing, product mix "
    "and component cost fluctuations."
)
REVENUE_UP = (
    "Net revenue increased 9% in 2022 compared to 2021, driven by effective net pricing and "
    "higher volume in our beverage business."
)
VERDICT_Q = "Did Acme's gross margin improve in FY2022? What did management say drove the change?"
FIGURE_Q = "How much did Acme's net revenue change in FY2022 and why?"


def _ev(*texts: str, question: str) -> Evidence:
    return evidence(INCOME, *texts, question=question, sections=(None, *([MDA] * len(texts))))


def _answer(question: str, ev: Evidence) -> Answer:
    return build_reasoner(Settings()).generate(question, ev, 1)


def _judge(question: str, answer: Answer, ev: Evidence, attempt: int = 1) -> Any:
    return JudgeAgent(Settings()).evaluate(question, answer, ev, attempt)


def _statuses(verdict: Any) -> list[str]:
    return [p["status"] for p in verdict.details["parts"]]


class TestQuestionPartsOfCause:
    def test_management_said_drove_is_a_cause_part(self) -> None:
        """'What did management say drove the change?' asks a cause, as 'what drove' does."""
        forms = [p.form for p in question_parts(VERDICT_Q).parts]
        assert forms == ["verdict", "explanation"]

    def test_cause_part_follows_a_figure_or_verdict(self) -> None:
        """A cause part beside a figure or a yes/no is owed with it; a cause question alone has
        no second part to follow."""
        assert cause_part(VERDICT_Q) is not None
        assert cause_part(FIGURE_Q) is not None
        assert cause_part("What drove Acme's gross margin change in FY2022?") is None
        assert cause_part("What was Acme's gross margin in FY2022?") is None

    def test_a_request_for_the_causes_is_a_part(self) -> None:
        """'Give the figures and the drivers the company cites' asks the causes in the imperative:
        a part the answer owes; an instruction on the answer's form is not one."""
        q = "Did Acme's net interest income rise in 2022? Give the figures and the drivers it cites."
        assert [p.form for p in question_parts(q).parts] == ["verdict", "explanation"]
        assert cause_part(q) is not None
        adverb = "Was Acme's other income a gain in 2022, and what mainly drove the 2022 figure?"
        assert [p.form for p in question_parts(adverb).parts] == ["verdict", "explanation"]
        told = "Did Acme's net interest income rise in 2022? Give the figures in USD millions."
        assert [p.form for p in question_parts(told).parts] == ["verdict"]
        assert cause_part(told) is None

    def test_yes_no_movement_word_is_asked_not_stated(self) -> None:
        """'Did X improve? What drove the change?' states no movement: only the cause part's
        words are read for one; a question without a yes/no part is read whole."""
        assert "improve" not in movement_wording(VERDICT_Q)
        why = "Why did Acme's gross margin fall in FY2022?"
        assert movement_wording(why) == why

    def test_part_not_found_words(self) -> None:
        """The words for a part found nothing for are read back, and decline no whole question."""
        said = part_not_found("stated reason for the change in gross margin")
        assert declines_part(said) and not is_refusal(said)
        assert not declines_part("Gross margin decreased primarily due to freight costs.")

    def test_a_line_name_with_a_marker_word_explains_nothing(self) -> None:
        """'Net income attributable to Acme' holds a marker word but explains no movement."""
        assert not states_movement_cause("Net income attributable to Acme was $8,910 million.")
        assert states_movement_cause("The increase was driven by higher volume.")


class TestFigureAndCauseAnswer:
    def test_figure_then_its_drivers(self) -> None:
        """A figure + drivers question gets the figure, then the filing's cause quoted and
        cited; the judge finds both parts addressed and the quote a supported basis."""
        ev = _ev(REVENUE_UP, question=FIGURE_Q)
        answer = _answer(FIGURE_Q, ev)
        assert "$6,918 million" in answer.text and "driven by effective net pricing" in answer.text
        assert any("driven by" in c.quote for c in answer.citations)
        verdict = _judge(FIGURE_Q, answer, ev)
        assert verdict.decision == "accept"
        assert _statuses(verdict) == ["addressed", "addressed"]
        assert verdict.details["basis"]["outcome"] == "supported"

    def test_missing_drivers_are_named(self) -> None:
        """No stated cause in the evidence: the answer keeps the figure and says in words that
        no stated reason was found; the judge sends it back once for wider retrieval, then accepts
        it as partial, the part named missing."""
        ev = _ev(question=FIGURE_Q)
        answer = _answer(FIGURE_Q, ev)
        assert not answer.abstained and "$6,918 million" in answer.text
        assert "found no stated reason for" in answer.text
        first = _judge(FIGURE_Q, answer, ev, 1)
        assert first.decision == "retry" and first.diagnosis == "retrieval"  # look again first
        verdict = _judge(FIGURE_Q, answer, ev, 2)
        assert verdict.decision == "accept" and verdict.completeness < 1.0
        assert _statuses(verdict) == ["addressed", "stated as not found"]
        assert any(m.startswith("explain") for m in verdict.missing_facets)

    def test_another_subject_part_is_named_not_found(self) -> None:
        """'Did net revenue rise, and what unusual items affected the year?': the computed
        verdict says nothing of unusual items, so the answer names that part as not found (and the
        judge takes it as stated); a follow-up without a subject of its own ('and by how much?')
        is the figure's to answer."""
        q = "Did Acme's net revenue rise in FY2022, and what unusual items affected the year?"
        answer = _answer(q, _ev(question=q))
        assert not answer.abstained and answer.text.startswith("Yes.")
        assert 'found no answer to "what unusual items affected the year"' in answer.text
        assert _statuses(_judge(q, answer, _ev(question=q), 2))[-1] == "stated as not found"
        short = "Did Acme's net revenue rise in FY2022, and how much was it?"
        assert "found no answer" not in _answer(short, _ev(question=short)).text

    def test_verdict_word_is_not_the_movement(self) -> None:
        """'Did gross margin improve?' where it fell: the answer says No and quotes the
        sentence explaining the fall, which the judge's movement check accepts."""
        ev = _ev(MARGIN_DOWN, question=VERDICT_Q)
        answer = _answer(VERDICT_Q, ev)
        assert answer.text.startswith("No.") and "higher freight costs" in answer.text
        verdict = _judge(VERDICT_Q, answer, ev)
        assert verdict.decision == "accept" and verdict.details["basis"]["outcome"] == "supported"


class TestJudgeOfParts:
    def test_a_cause_stated_in_words_answers_the_cause_part(self) -> None:
        """An analyst's (or an LLM's) answer states the drivers without a marker ('Effective
        pricing and higher volume in the beverage business.'): a claim of its own with no figure
        answers the cause part beside the figure; the figure's own sentence alone does not."""
        ev = _ev(REVENUE_UP, question=FIGURE_Q)
        full = _answer(FIGURE_Q, ev)
        figure = full.text[: full.text.index(" What drove")]
        worded = full.model_copy(
            update={
                "text": figure + " Effective pricing and higher volume in the beverage business.",
                "citations": (),
            }
        )
        assert _statuses(_judge(FIGURE_Q, worded, ev, 3)) == ["addressed", "addressed"]
        alone = full.model_copy(update={"text": figure, "citations": ()})
        assert _statuses(_judge(FIGURE_Q, alone, ev, 3)) == ["addressed", "missing"]

    def test_silently_dropped_part_is_never_accepted(self) -> None:
        """The figure alone, the drivers left out without a word: sent back at every attempt,
        the dropped part named in the verdict."""
        ev = _ev(REVENUE_UP, question=FIGURE_Q)
        full = _answer(FIGURE_Q, ev)
        half = full.model_copy(
            update={"text": full.text[: full.text.index(" What drove")], "citations": ()}
        )
        for attempt in (1, 3):
            verdict = _judge(FIGURE_Q, half, ev, attempt)
            assert verdict.decision == "retry"
            assert _statuses(verdict) == ["addressed", "missing"]
            codes = [p["code"] for p in verdict.details["answer_problems"]]
            assert "part_dropped" in codes

    def _with_cause(self, quote: str) -> tuple[Answer, Evidence]:
        ev = _ev(quote, question=VERDICT_Q)
        figure = _answer(VERDICT_Q, _ev(question=VERDICT_Q))
        lead = figure.text[: figure.text.index(" finqa found no")]
        text = (
            f'{lead} What drove the change in gross margin, in the filing\'s words: "{quote}" [S2]'
        )
        cite = Citation(
            source_id="S2", doc_id=ev.items[1].doc_id, page=ev.items[1].pages[0], quote=quote
        )
        return figure.model_copy(update={"text": text, "citations": (*figure.citations, cite)}), ev

    def test_cause_against_the_movement_is_not_accepted(self) -> None:
        """A quoted cause of a rise, where the margin fell (the statement's figures): the cause
        part fails the judge's movement check and the answer is not accepted."""
        answer, ev = self._with_cause(MARGIN_UP)
        verdict = _judge(VERDICT_Q, answer, ev, 3)
        assert verdict.decision == "retry"
        assert verdict.details["basis"]["outcome"] == "against_movement"

    def test_cause_as_a_possibility_is_not_accepted(self) -> None:
        """'Margins can change over time as a result of ...' says how a figure may move, not
        what moved it: no basis for the cause part."""
        answer, ev = self._with_cause(MARGIN_CAN)
        verdict = _judge(VERDICT_Q, answer, ev, 3)
        assert verdict.decision == "retry"
        assert verdict.details["basis"]["outcome"] == "possibility"


DEFERRED_Q = (
    "Did Acme record a deferred income tax expense or a deferred income tax benefit in FY2022, "
    "and how large was it? Answer in USD millions."
)
DEFERRED = (
    "Income taxes. In 2022, Acme recorded a deferred income tax benefit of $1,250 million, "
    "compared with a deferred income tax expense of $310 million in 2021."
)


class TestOptionAndSize:
    def _judge(self, text: str) -> Any:
        ev = evidence(DEFERRED, question=DEFERRED_Q)
        cite = Citation(
            source_id="S1", doc_id=ev.items[0].doc_id, page=ev.items[0].pages[0], quote=DEFERRED
        )
        return _judge(DEFERRED_Q, Answer(text=text, citations=(cite,)), ev, 3)

    def test_size_without_the_option_is_not_accepted(self) -> None:
        """'Expense or benefit, and how large': the size alone leaves the asked option out."""
        verdict = self._judge("FY2022 deferred income taxes: $1,250 million [S1].")
        assert verdict.decision == "retry"
        assert _statuses(verdict)[0] == "missing"

    def test_option_and_size_accepted(self) -> None:
        """Naming the option and its size answers both parts."""
        verdict = self._judge("A deferred income tax benefit of $1,250 million in FY2022 [S1].")
        assert verdict.decision == "accept"
        assert _statuses(verdict) == ["addressed", "addressed"]


SEGMENT_Q = "What drove the change in net revenue of Acme's Beverages segment in FY2022?"
COMPANY_WIDE = (
    "Net revenue decreased 4% in 2022 compared to 2021, primarily driven by lower volume in "
    "Snacks, partially offset by higher net revenue in Beverages."
)
SEGMENT_OWN = (
    "Beverages net revenue increased 7% in 2022, primarily driven by effective net pricing "
    "and higher volume in North America."
)


class TestCauseOfAPart:
    def test_part_cause_names_the_part(self) -> None:
        """A segment's cause is the sentence naming that segment before its cause marker; one
        naming it only in an offsetting clause explains the company's revenue."""
        from finqa.agents.reasoning.offline.causes import cause_answer

        ev = evidence(COMPANY_WIDE, SEGMENT_OWN, question=SEGMENT_Q, sections=(MDA, MDA))
        answer = cause_answer(SEGMENT_Q, ev, "standard")
        assert "Beverages net revenue increased 7%" in answer.text
        assert "lower volume in Snacks" not in answer.text
        alone = cause_answer(SEGMENT_Q, evidence(COMPANY_WIDE, question=SEGMENT_Q), "standard")
        assert alone.abstained

    def test_judge_rejects_the_company_cause_for_a_part(self) -> None:
        """The judge's basis check reads the part the same way: the company's cause quoted for
        a segment's question is not about it."""
        ev = evidence(COMPANY_WIDE, question=SEGMENT_Q, sections=(MDA,))
        cite = Citation(
            source_id="S1", doc_id=ev.items[0].doc_id, page=ev.items[0].pages[0], quote=COMPANY_WIDE
        )
        text = f'What drove the change, in the filing\'s words: "{COMPANY_WIDE}" [S1]'
        verdict = _judge(SEGMENT_Q, Answer(text=text, citations=(cite,)), ev, 3)
        assert verdict.decision == "retry"
        assert verdict.details["basis"]["outcome"] == "not_about"
        assert "beverages" in verdict.details["basis"]["reason"]


class _Fact:
    def __init__(self, value: float, unit: str) -> None:
        self.value, self.unit = value, unit


class _DollarMarginStore:
    """A filer whose 'Gross margin' line is gross profit in dollars (it rose), while the
    percentage, from revenue and cost of sales, fell."""

    FIGURES = {
        ("gross_margin", 2021): _Fact(42_399.0, "USD"),
        ("gross_margin", 2022): _Fact(45_816.0, "USD"),
        ("revenue", 2021): _Fact(79_474.0, "USD"),
        ("revenue", 2022): _Fact(96_392.0, "USD"),
        ("cogs", 2021): _Fact(37_075.0, "USD"),
        ("cogs", 2022): _Fact(50_576.0, "USD"),
    }

    def lookup(self, doc: str, item: str, year: Any = None) -> list[_Fact]:
        fact = self.FIGURES.get((item, year))
        return [fact] if fact is not None else []


class TestRatioMovement:
    def test_a_ratio_moves_by_its_operands_not_a_dollar_line_of_its_name(self) -> None:
        """The margin percentage's movement is read from revenue and cost of sales: a dollar
        line captioned 'Gross margin' that rose does not make a fall of the percentage."""
        from finqa.agents.reasoning.offline.causes import cause_target, observed_direction

        q = "What drove the change in Acme's gross margin in FY2022?"
        ev = evidence(MARGIN_DOWN, question=q)
        assert observed_direction(cause_target(q), q, ev, _DollarMarginStore()) == -1


def test_an_abbreviations_period_ends_no_sentence() -> None:
    """'(U.S. GAAP)' is inside one ask: the question has one part, a figure."""
    from finqa.lexicon.question_parts import question_parts

    q = "Acme also presents its revenue on a 'managed basis'. What was the firm's reported (U.S. GAAP) total net revenue for the first quarter of 2023?"  # fmt: skip
    parts = question_parts(q).parts
    assert [p.form for p in parts] == ["figure"]
    assert "U.S. GAAP" in parts[0].text


def test_a_follow_up_asks_the_part_before_for_another_year() -> None:
    """'And in 2018?' / 'and what about in 2019?' ask the part before again for that year: a
    figure of that year, wherever the answer states it."""
    from finqa.lexicon.question_parts import question_parts

    parts = question_parts("Was the 2017 amount a provision or a benefit, and how large? And in 2018?").parts  # fmt: skip
    assert (parts[-1].form, parts[-1].years) == ("compare", (2018,))
    parts = question_parts("Was it a net expense or net income in 2021, and what about in 2019?").parts  # fmt: skip
    assert (parts[-1].form, parts[-1].years) == ("compare", (2019,))
