"""'By how much did X change?' asks for the amount X moved by (points for a percentage), not a
growth rate, and the direction the answer states must be the one the evidence gives."""

from __future__ import annotations

import pytest
from _reasoning_data import CORNING_INCOME as INCOME
from _reasoning_data import evidence
from finqa.agents.config import Settings
from finqa.agents.judge import JudgeAgent
from finqa.agents.judge.facets import decompose
from finqa.agents.judge.kind import expected_kind
from finqa.agents.types import (
    Answer,
    Calculation,
    Evidence,
    Operand,
    Verdict,
)
from finqa.lexicon import intent

Q_SALES = "By how much did Corning's net sales change from FY2021 to FY2022?"
Q_INCOME = "By how much did Corning's net income decrease in FY2022?"


def _evidence(text: str) -> Evidence:
    return evidence(text, doc="CORNING_2022_10K", first_page=60)


@pytest.fixture(scope="module")
def judge() -> JudgeAgent:
    return JudgeAgent(Settings())


def _eval(judge: JudgeAgent, question: str, text: str) -> Verdict:
    return judge.evaluate(question, Answer(text=text), _evidence(INCOME), 1)


def _expect(question: str) -> object:
    return expected_kind(question, [f.kind for f in decompose(question)])


class TestChangeIntent:
    def test_change_amount_asked(self) -> None:
        """'By how much ... change', 'how much did X grow', 'what was the change in X' ask for
        the movement; '% change', 'percentage', 'growth rate' and 'CAGR' ask for a rate."""
        assert intent.asks_change_amount(Q_SALES)
        assert intent.asks_change_amount("How much did Acme's revenue grow in FY2022?")
        assert intent.asks_change_amount("What was the change in net income from 2021 to 2022?")
        assert not intent.asks_change_amount("By how much did revenue change in percentage terms?")
        assert not intent.asks_change_amount("What was the % change in revenue in FY2022?")
        assert not intent.asks_change_amount("What is the 3 year revenue CAGR?")
        assert not intent.asks_change_amount("What was Acme's revenue in FY2022?")

    def test_expected_kind_is_the_line_items_change(self) -> None:
        """A change of revenue is an amount of revenue, though the words read as revenue growth;
        a plain growth question still expects a percentage."""
        change = _expect(Q_SALES)
        assert (change.kind, change.metric, change.change) == ("amount", "revenue", True)  # type: ignore[attr-defined]
        growth = _expect("What was Corning's revenue growth in FY2022?")
        assert (growth.kind, growth.change) == ("percent", False)  # type: ignore[attr-defined]


class TestChangeAnswered:
    def test_amount_with_right_direction_accepted(self, judge: JudgeAgent) -> None:
        """The difference of the two years, stated as a rise, is re-derived and accepted."""
        v = _eval(judge, Q_SALES, "Net sales increased by $107 million.")
        assert v.decision == "accept", v.feedback

    def test_wrong_direction_rejected(self, judge: JudgeAgent) -> None:
        """The right size stated as a fall, where the evidence gives a rise, is unsupported."""
        v = _eval(judge, Q_SALES, "Net sales decreased by $107 million.")
        assert v.decision == "retry"
        number = v.details["numbers"][0]
        assert number["status"] == "wrong_direction"
        assert "a rise" in number["detail"]

    def test_fall_stated_as_fall_accepted(self, judge: JudgeAgent) -> None:
        """A fall asked and stated as one (net income 1,906 -> 1,316) is accepted."""
        v = _eval(judge, Q_INCOME, "Net income decreased by $590 million in FY2022.")
        assert v.decision == "accept", v.feedback
        up = _eval(judge, Q_INCOME, "Net income increased by $590 million in FY2022.")
        assert up.decision == "retry"

    def test_growth_rate_alone_rejected(self, judge: JudgeAgent) -> None:
        """A growth rate alone does not say by how much the amount changed."""
        v = _eval(judge, Q_SALES, "Net sales grew 0.8%.")
        assert v.decision == "retry"
        assert any(p["code"] == "wrong_kind" for p in v.details["answer_problems"])

    def test_level_alone_rejected(self, judge: JudgeAgent) -> None:
        """The year's level, with no movement stated, does not answer how much it changed."""
        v = _eval(judge, Q_SALES, "Net sales were $14,189 million in FY2022.")
        assert v.decision == "retry"
        assert any(p["code"] == "not_change" for p in v.details["answer_problems"])

    def test_calculated_change_in_wrong_direction_rejected(self, judge: JudgeAgent) -> None:
        """A recorded calculation verifies the size of the change, but a rise stated as a fall
        is still unsupported against the statement model."""
        ops = (
            Operand(name="ns_2022", value=14189, scale=1e6, period="FY2022", source_id="S1"),
            Operand(name="ns_2021", value=14082, scale=1e6, period="FY2021", source_id="S1"),
        )
        calc = Calculation(expression="ns_2022 - ns_2021", operands=ops, result=107, unit="USD")
        evidence = _evidence(INCOME)
        up = judge.evaluate(
            Q_SALES,
            Answer(text="Net sales rose by $107 million.", calculations=(calc,)),
            evidence,
            1,
        )
        down = judge.evaluate(
            Q_SALES,
            Answer(text="Net sales fell by $107 million.", calculations=(calc,)),
            evidence,
            1,
        )
        assert up.decision == "accept", up.feedback
        assert down.decision == "retry"
        assert down.details["numbers"][0]["status"] == "wrong_direction"

    def test_points_change_of_a_percentage(self, judge: JudgeAgent) -> None:
        """A margin's change is in points: both years' levels support it, and the direction
        stated must be the evidence's (36.0% -> 31.8% is a fall)."""
        q = "By how much did Corning's gross margin change from FY2021 to FY2022?"
        fell = _eval(judge, q, "It fell by 4.2 percentage points, from 36.0% to 31.8%.")
        rose = _eval(judge, q, "It rose by 4.2 percentage points, from 36.0% to 31.8%.")
        assert fell.decision == "accept", fell.feedback
        assert {n["status"] for n in fell.details["numbers"]} == {"rederived"}
        assert rose.decision == "retry"
