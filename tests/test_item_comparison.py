"""A yes/no question setting one line item against another ('Did A grow faster than B?', 'Was
A higher than B?'): the lexicon reads both sides, the offline reasoner computes both figures by
the metric path's own solver and answers either way, and the judge accepts neither one item's
figure alone nor a verdict its own figures contradict."""

from __future__ import annotations

from typing import Any

from _reasoning_data import INCOME, evidence
from finqa.agents.config import Settings
from finqa.agents.judge import JudgeAgent
from finqa.agents.reasoning import build_reasoner
from finqa.agents.types import Answer
from finqa.lexicon.comparison import item_comparison, states_comparison
from finqa.lexicon.question_ask import read_ask
from finqa.lexicon.statements import MemoryStatementStore, read_pages

DOC = "ACME_2022_10K"
PROSE = "Management's discussion. Revenue grew on higher volumes and pricing across regions."
Q_FASTER = "Did Acme's cost of sales grow faster than its net revenue in FY2022?"


def _store() -> MemoryStatementStore:
    return MemoryStatementStore(read_pages(DOC, [(9, INCOME)]).tables)


def _ask(question: str) -> Answer:
    return build_reasoner(Settings(), statements=_store()).generate(question, evidence(PROSE), 1)


def _judge(question: str, text: str) -> Any:
    ev = evidence(INCOME, doc=DOC, first_page=9)
    return JudgeAgent(Settings()).evaluate(question, Answer(text=text), ev, 1)


class TestReading:
    def test_two_items_and_the_side_asked(self) -> None:
        c = item_comparison(Q_FASTER)
        assert c is not None and c.greater and c.movement
        assert "cost of sales" in c.left and "net revenue" in c.right
        level = item_comparison("Was Acme's SG&A expense lower than its cost of sales in 2022?")
        assert level is not None and not level.greater and not level.movement

    def test_a_figure_a_period_or_a_premise_is_no_item_comparison(self) -> None:
        for q in (
            "Did Acme's revenue grow more than 5% in 2022?",
            "Was Acme's total debt more than five times its equity at year end 2022?",
            "Were Acme's inventories lower than a year earlier?",
            "Was Acme's revenue higher than in 2021?",
            "Acme's operating profit was lower than its gross profit. Which line explains it?",
        ):
            assert item_comparison(q) is None, q

    def test_the_comparison_asks_no_direction_of_one_item(self) -> None:
        assert read_ask(Q_FASTER).direction == (False, False)

    def test_a_movement_word_of_one_item_states_no_comparison(self) -> None:
        assert not states_comparison("Growth in cost of sales, FY2021 to FY2022: 9.4%.")
        assert states_comparison("Cost of sales grew 9.4%, faster than revenue (8.7%).")


class TestReasoner:
    def test_growths_compared_either_way(self) -> None:
        """Cost of sales 37,075 -> 40,576 (9.4%) against revenue 79,474 -> 86,392 (8.7%):
        'Yes' to faster; SG&A 31,237 -> 34,304 (9.8%) is not slower than revenue: 'No'."""
        yes = _ask(Q_FASTER)
        assert yes.text.startswith("Yes.") and "9.4%" in yes.text and "8.7%" in yes.text
        assert len(yes.calculations) == 2
        assert round(yes.calculations[0].result, 1) == 9.4
        no = _ask("Did Acme's selling, general and administrative expenses grow slower than its revenue in 2022?")  # fmt: skip
        assert no.text.startswith("No.") and "9.8%" in no.text and "faster than" in no.text

    def test_levels_compared_as_magnitudes(self) -> None:
        ans = _ask("Was Acme's cost of sales higher than its SG&A expense in FY2022?")
        assert ans.text.startswith("Yes.") and "$40,576 million" in ans.text
        assert "$34,304 million" in ans.text
        ans = _ask("Was Acme's cost of sales lower than its SG&A expense in FY2022?")
        assert ans.text.startswith("No.")


class TestJudge:
    def test_one_items_growth_is_no_answer(self) -> None:
        v = _judge(
            Q_FASTER,
            "Growth in cost of sales, FY2021 to FY2022: 9.4% [S1]. Cost of sales was $37,075 "
            "million in FY2021 and $40,576 million in FY2022.",
        )
        assert v.decision != "accept"
        facet = next(f for f in v.details["facets"] if f["kind"] == "verdict")
        assert not facet["addressed"] and "no comparison" in facet["how"]

    def test_a_verdict_its_figures_contradict_is_sent_back(self) -> None:
        body = (
            "Cost of sales grew 9.4% from $37,075 million in FY2021 to $40,576 million in "
            "FY2022, {w} revenue, which grew 8.7% from $79,474 million in FY2021 to $86,392 "
            "million in FY2022 [S1]."
        )
        wrong = _judge(Q_FASTER, "No. " + body.format(w="slower than"))
        codes = [p["code"] for p in wrong.details["answer_problems"]]
        assert "verdict_sign" in codes and wrong.decision != "accept"
        right = _judge(Q_FASTER, "Yes. " + body.format(w="faster than"))
        codes = [p["code"] for p in right.details["answer_problems"]]
        assert "verdict_sign" not in codes
