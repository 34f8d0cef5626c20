"""A question that asks which segment / region / year must be answered by naming one: the judge's
choice facet (lexicon.intent.asks_choice / choice_options)."""

from __future__ import annotations

import pytest
from _reasoning_data import evidence
from finqa.agents.config import Settings
from finqa.agents.judge import JudgeAgent
from finqa.agents.judge.facets import decompose
from finqa.agents.types import Answer, Evidence, Verdict
from finqa.lexicon import intent

SEGMENTS = """Segment results
(in millions)
Year ended December 31, 2022
Net revenue
Consumer & Community Banking
$ 12,345
Corporate & Investment Bank
9,876
Asset & Wealth Management
4,321
Corporate
(473)
"""

CASH_FLOWS = """Consolidated Statements of Cash Flows
(in millions)
2023
2022
Cash provided by operations
5,841
5,188
Cash used by investing activities
(1,524)
(3,800)
Cash used by financing activities
(4,470)
(6,821)
"""

SALES = """Net sales by year
(in millions)
2022
2021
2020
Net sales
14,189
14,082
11,303
"""

Q_LOWEST = "Which of Acme's business segments had the lowest net revenue in FY2022?"
Q_AMONG = (
    "Among operations, investing, and financing activities, which brought in the most cash "
    "flow for Acme in FY2023?"
)
Q_YEAR = "In which year between 2020 and 2022 were Acme's net sales highest?"


def _evidence(text: str) -> Evidence:
    return evidence(text)


@pytest.fixture(scope="module")
def judge() -> JudgeAgent:
    return JudgeAgent(Settings())


def _eval(judge: JudgeAgent, question: str, text: str, evidence: str) -> Verdict:
    return judge.evaluate(question, Answer(text=text), _evidence(evidence), 1)


class TestChoiceIntent:
    def test_which_questions(self) -> None:
        """'Which of', 'in which', 'Among ..., which' ask for a pick; a figure question does not."""
        assert intent.asks_choice(Q_LOWEST)
        assert intent.asks_choice(Q_AMONG)
        assert intent.asks_choice("From FY21 to FY22, in which segment did sales grow most?")
        assert not intent.asks_choice("What was Acme's net revenue in FY2022?")
        assert not intent.asks_choice("What is EBITDA, which is defined as EBIT plus D&A?")

    def test_options_listed_by_the_question(self) -> None:
        """The options a question lists are read as short noun phrases; a long clause is none."""
        assert intent.choice_options(Q_AMONG) == ("operations", "investing", "financing activities")
        assert intent.choice_options(Q_LOWEST) == ()
        long = (
            "Among all of the derivative instruments that Acme used to manage the exposure to "
            "currencies or interest rates, which one had the highest notional value?"
        )
        assert intent.choice_options(long) == ()

    def test_choice_facet(self) -> None:
        """A which-question decomposes into a choice facet, not a free 'answer' facet."""
        assert [f.kind for f in decompose(Q_LOWEST)] == ["choice"]
        assert [f.kind for f in decompose(Q_YEAR)] == ["choice"]


class TestChoiceAnswered:
    def test_named_segment_accepted(self, judge: JudgeAgent) -> None:
        """Naming the segment (with its figure) answers 'which segment'."""
        v = _eval(judge, Q_LOWEST, "Corporate, with net revenue of -$473 million.", SEGMENTS)
        assert v.decision == "accept", v.feedback
        assert v.completeness == 1.0

    def test_figure_alone_rejected(self, judge: JudgeAgent) -> None:
        """The right figure with no segment named leaves the choice unanswered and is sent back."""
        v = _eval(judge, Q_LOWEST, "-$473 million", SEGMENTS)
        assert v.decision == "retry"
        assert v.completeness == 0.0
        assert any("choice" in m for m in v.missing_facets)

    def test_question_words_are_not_a_choice(self, judge: JudgeAgent) -> None:
        """Repeating the question's own words around a figure names no option."""
        v = _eval(judge, Q_LOWEST, "The lowest net revenue was -$473 million.", SEGMENTS)
        assert v.decision == "retry"

    def test_listed_option_named(self, judge: JudgeAgent) -> None:
        """Among options the question lists, the answer must name one of them."""
        good = _eval(judge, Q_AMONG, "Operations brought in the most: $5,841 million.", CASH_FLOWS)
        bare = _eval(judge, Q_AMONG, "$5,841 million in FY2023.", CASH_FLOWS)
        assert good.decision == "accept", good.feedback
        assert bare.decision == "retry"
        facet = next(f for f in bare.details["facets"] if f["kind"] == "choice")
        assert "operations, investing, financing activities" in facet["how"]

    def test_which_year_needs_a_year(self, judge: JudgeAgent) -> None:
        """'In which year' is answered by a year, not by the figure of that year alone."""
        good = _eval(judge, Q_YEAR, "FY2022, with net sales of $14,189 million.", SALES)
        bare = _eval(judge, Q_YEAR, "$14,189 million.", SALES)
        assert good.decision == "accept", good.feedback
        assert bare.decision == "retry"
