"""Answers read from one evidence sentence: yes/no by the sentence's polarity, a stated figure."""

from __future__ import annotations

from _reasoning_data import evidence
from finqa.agents.config import Settings
from finqa.agents.reasoning import build_reasoner
from finqa.agents.reasoning.offline.sentences import (
    assertion_answer,
    figure_answer,
    is_yes_no_question,
    subject_terms,
)
from finqa.lexicon.polarity import is_negated_question, sentence_polarity

FILLER = (
    "We design, manufacture and sell products to customers around the world. "
    "Our results depend on economic conditions in the markets we serve. "
    "We compete on price, quality and service in every product line we sell."
)
CUSTOMER_YES = "One customer accounted for 16% of our consolidated net revenue for the year ended December 31, 2022."  # fmt: skip
CUSTOMER_NO = "No customer accounted for 10% or more of our consolidated net revenue in 2022, 2021 or 2020."  # fmt: skip
CREDIT = "Concentrations of credit risk in cash equivalents and marketable securities are limited by our investment policy."  # fmt: skip
CYCLICAL_YES = "Our commercial aircraft business is cyclical and is subject to significant cyclicality in airline demand."  # fmt: skip
LITIGATION_NO = (
    "Management believes that the final outcome of these legal proceedings and litigation "
    "will not have a material adverse effect on our financial position."
)
GAIN = "The Company expects to record a gain of approximately $20 billion on the separation of its Consumer Health business."  # fmt: skip
TWO_AMOUNTS = "The Company recorded a gain of $2.1 billion on the separation and a charge of $0.4 billion on the exit of its Consumer Health business."  # fmt: skip


def ask(question: str, *texts: str):  # type: ignore[no-untyped-def]
    return build_reasoner(Settings()).generate(question, evidence(*texts, question=question), 1)


class TestPolarity:
    def test_denial_before_the_subject(self) -> None:
        """A 'not' a few words before the subject's word denies it."""
        assert sentence_polarity(LITIGATION_NO, ["material", "legal"]) == "denies"

    def test_sentence_opening_with_no(self) -> None:
        """'No customer accounted for ...' denies."""
        assert sentence_polarity(CUSTOMER_NO, ["customer"]) == "denies"

    def test_hedges_deny_nothing(self) -> None:
        """'There can be no assurance' and 'may not' are filing hedges, not denials."""
        s = "There can be no assurance that demand will recover, and we may not be able to offset cyclical declines."  # fmt: skip
        assert sentence_polarity(s, ["cyclical"]) == "affirms"

    def test_negated_question(self) -> None:
        """A question asking about a denial flips the verdict; an ordinary one does not."""
        assert is_negated_question("Is Acme not subject to cyclicality?")
        assert not is_negated_question("Is Acme subject to cyclicality?")


class TestYesNoQuestion:
    def test_leading_clause(self) -> None:
        """'As of Q2 2023, is X ...?' is a yes/no question like 'Is X ...?'."""
        assert is_yes_no_question("As of Q2'2023, is Acme spinning off any large segments?")
        assert is_yes_no_question("Did Adobe report customer concentration in FY22?")
        assert not is_yes_no_question("What drove revenue growth in FY2022?")

    def test_subject_leaves_out_company_period_and_frame(self) -> None:
        """The subject is what is asked about, not the company, the year or 'report'."""
        terms = subject_terms("Did Adobe report any legal proceedings in FY2022?")
        assert terms == ["legal", "proceedings"]

    def test_subject_frame_is_the_judges(self) -> None:
        """The reasoner's subject drops the same frame words the judge's basis check drops
        (one list, lexicon.question_frame): the direction asked is not the topic."""
        terms = subject_terms("Did Adobe's inventory increase in FY2022?")
        assert terms == ["inventory"]


class TestAssertion:
    def test_concept_stated_yes(self) -> None:
        """A sentence in the concept's filing language ('a customer accounted for') answers Yes."""
        a = ask("Did Adobe report customer concentration in FY22?", FILLER, CUSTOMER_YES)
        assert a.text.startswith("Yes. The filing states it")
        assert "16%" in a.text and a.citations[0].source_id == "S2"
        assert a.confidence["mode"] == "assertion" and not a.abstained

    def test_concept_denied_no(self) -> None:
        """The same question over a filing saying no customer reached 10% answers No."""
        a = ask("Did Adobe report customer concentration in FY22?", FILLER, CUSTOMER_NO)
        assert a.text.startswith("No. The filing denies it")

    def test_concept_word_without_its_language_abstains(self) -> None:
        """'Concentrations of credit risk' is not customer concentration: no answer."""
        a = ask("Did Adobe report customer concentration in FY22?", FILLER, CREDIT)
        assert a.abstained
        assert assertion_answer("Did Adobe report customer concentration in FY22?", evidence(FILLER, CREDIT), "standard") is None  # fmt: skip

    def test_subject_stated_yes(self) -> None:
        """A sentence holding the question's subject answers Yes, quoted and cited."""
        a = ask("Is Adobe's business subject to cyclicality?", FILLER, CYCLICAL_YES)
        assert a.text.startswith("Yes.") and CYCLICAL_YES in a.text

    def test_judge_takes_a_hedge_the_question_asks_about(self) -> None:
        """'subject to' is what the question asks ('Is X subject to cyclicality?'), not a
        possibility: the judge reads the basis as the reasoner does (one reading, the lexicon's)."""
        from finqa.agents.judge import JudgeAgent

        q = "Is Adobe's business subject to cyclicality?"
        ev = evidence(FILLER, CYCLICAL_YES, question=q)
        a = build_reasoner(Settings()).generate(q, ev, 1)
        v = JudgeAgent(Settings()).evaluate(q, a, ev, 1)
        assert a.text.startswith("Yes.")
        assert v.details["basis"]["outcome"] == "supported", v.details["basis"]

    def test_coverage_in_details_not_in_text(self) -> None:
        """The sentence's coverage of the question is recorded in the answer's details, and the
        answer text states no number of finqa's own that the judge could not find in a filing."""
        a = ask("Is Adobe's business subject to cyclicality?", FILLER, CYCLICAL_YES)
        assert "%" not in a.text.replace(CYCLICAL_YES, "")
        assert 0.5 <= float(a.confidence["coverage"]) <= 1.0

    def test_subject_denied_no(self) -> None:
        """A sentence denying the subject ('will not have a material ...') answers No."""
        a = ask("Does Adobe have any material legal proceedings or litigation?", FILLER, LITIGATION_NO)  # fmt: skip
        assert a.text.startswith("No.")

    def test_uncovered_subject_abstains(self) -> None:
        """Without a sentence holding half of the subject the question abstains."""
        a = ask("Is Adobe's business subject to cyclicality?", FILLER)
        assert a.abstained

    def test_question_paraphrase_absent_from_evidence_does_not_count(self) -> None:
        """A word of the question no evidence sentence uses ('battles') does not keep the
        sentence that holds the rest of the subject from answering."""
        q = "Has Adobe reported any materially important legal battles in FY2022?"
        a = ask(q, FILLER, LITIGATION_NO)
        assert a.text.startswith("No.") and not a.abstained

    def test_subject_mostly_absent_from_evidence_abstains(self) -> None:
        """When the evidence holds less than half of the subject ('cyclicality' nowhere), a
        sentence holding the rest ('subject to') is no answer."""
        tariffs = "Certain aircraft parts and components that Adobe procures are subject to these tariffs."  # fmt: skip
        rules = "Our sales to governments are subject to extensive procurement regulations."
        assert assertion_answer("Is Adobe's business subject to cyclicality?", evidence(FILLER, tariffs, rules), "standard") is None  # fmt: skip

    def test_movement_is_not_read_from_wording(self) -> None:
        """'Did X's segment grow?' asks for figures: a sentence naming the segment is no answer."""
        text = "Segment results. North American segment net revenue was $1,200 million in 2022."
        assert assertion_answer("Did Adobe's North American segment grow in FY2022?", evidence(text), "standard") is None  # fmt: skip

    def test_which_of_two_opposites_gets_no_yes_or_no(self) -> None:
        """'Did X record a gain or a loss on ...?' asks which: a sentence that mentions gains or
        losses gives no 'Yes' / 'No'; a plain yes/no question over the same sentence does."""
        text = "The estimated diluted EPS above does not assume any gains or losses on our equity investments."  # fmt: skip
        q = "Did Acme record a gain or a loss on its equity investments in the second quarter of 2023?"  # fmt: skip
        assert assertion_answer(q, evidence(FILLER, text), "standard") is None
        plain = "Did Acme's estimated diluted EPS assume gains on its equity investments?"
        assert assertion_answer(plain, evidence(FILLER, text), "standard") is not None


class TestStatedFigure:
    def test_one_amount_stated(self) -> None:
        """A covering sentence stating one amount answers with it."""
        q = "What is the amount of the gain on the separation of Adobe's Consumer Health business?"
        a = ask(q, FILLER, GAIN)
        assert a.text.startswith("$20 billion.") and not a.abstained
        assert a.confidence["mode"] == "stated_figure"

    def test_two_amounts_abstain(self) -> None:
        """A sentence stating two amounts does not say which one is asked: no answer."""
        q = "What is the amount of the gain on the separation of Adobe's Consumer Health business?"
        assert figure_answer(q, evidence(FILLER, TWO_AMOUNTS), "standard") is None

    def test_choice_is_not_one_stated_figure(self) -> None:
        """'Which segment ...' asks for a name: the amount a covering sentence states is no answer."""
        q = "Which business segment of Adobe was separated, with a gain on the separation?"
        assert figure_answer(q, evidence(FILLER, GAIN), "standard") is None

    def test_total_is_not_one_stated_figure(self) -> None:
        """A question asking for a total of several figures is not answered by one sentence."""
        q = "What is the total amount of the gain on the separation of Adobe's Consumer Health business?"  # fmt: skip
        assert figure_answer(q, evidence(FILLER, GAIN), "standard") is None


class TestAssertionStatesAFact:
    def test_a_plan_starting_after_the_year_answers_no_yes(self) -> None:
        """A sentence that affirms the subject only as a plan for a later period ('announced
        plans to suspend production beginning in January 2020') gives no 'Yes' to whether it
        happened in 2019; the same sentence stating the halt in 2019 does."""
        q = "Did Adobe halt printer production during 2019?"
        plan = (
            "During the fourth quarter of 2019, Adobe announced plans to temporarily halt "
            "printer production beginning in January 2020."
        )
        assert assertion_answer(q, evidence(FILLER, plan), "standard") is None
        fact = "During the fourth quarter of 2019, Adobe temporarily halted printer production."
        a = assertion_answer(q, evidence(FILLER, fact), "standard")
        assert a is not None and a.text.startswith("Yes.")

    def test_a_hedge_the_question_asks_about_is_its_subject(self) -> None:
        """'subject to' asked ('Is X subject to cyclicality?') is the subject, not a hedge."""
        a = ask("Is Adobe's business subject to cyclicality?", FILLER, CYCLICAL_YES)
        assert a.text.startswith("Yes.")
