"""A figure quoted from a sentence answers only when the sentence states what the question's
phrase asks (issue #25: the nearer word; a basis not about the subject): 'accrued interest' is
not answered by 'The redeemable noncontrolling interest amounted to $7 ...', which shares the
word 'interest' only; the reasoner does not offer it and the judge refuses it."""

from __future__ import annotations

from _reasoning_data import evidence
from finqa.agents.config import Settings
from finqa.agents.judge import JudgeAgent
from finqa.agents.reasoning import build_reasoner
from finqa.agents.types import Answer
from finqa.lexicon.asked_measure import quote_misfit

Q = "What amount of accrued interest did Acme report on its balance sheet at December 31, 2016?"
OTHER = (
    "The redeemable noncontrolling interest amounted to $7 as of December 31, 2016 and 2015, "
    "and is included in other long-term liabilities in the accompanying Consolidated Balance "
    "Sheets."
)
OWN = "Accrued interest amounted to $63 as of December 31, 2016, up from $62 a year earlier."


def test_the_sentence_must_say_what_is_asked() -> None:
    assert "accrued" in quote_misfit(Q, OTHER)
    assert quote_misfit(Q, OWN) == ""


def test_the_reasoner_does_not_offer_another_lines_figure() -> None:
    ans = build_reasoner(Settings()).generate(Q, evidence(OTHER, doc="ACME_2016_10K"), 1)
    assert "$7" not in ans.text.split("Most relevant passages")[0], ans.text


def test_the_judge_refuses_it() -> None:
    text = (
        f'$7. The filing states: "{OTHER}" [S1]. Read offline from this sentence; the figure '
        "is as stated, not computed."
    )
    verdict = JudgeAgent(Settings()).evaluate(
        Q, Answer(text=text), evidence(OTHER, doc="ACME_2016_10K"), 1
    )
    assert verdict.decision != "accept"
