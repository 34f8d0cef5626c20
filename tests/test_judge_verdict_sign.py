"""The judge does not accept a yes/no verdict that contradicts the figure the answer gives as its
basis (a 'Yes' to 'positive cash flow?' beside a negative figure, a 'Yes' to 'did the margin
improve?' beside a decline); a verdict that agrees with its figure stays accepted."""

from __future__ import annotations

from typing import Any

from _reasoning_data import evidence
from finqa.agents.config import Settings
from finqa.agents.judge import JudgeAgent
from finqa.agents.types import Answer, Evidence
from finqa.lexicon.answer_form import names_outflow

DOC = "ACME_2022_10K"

CASH_FLOW = """Consolidated Statements of Cash Flows
(in millions)
2022
2021
Net loss
(900)
(300)
Net cash (used in) provided by operating activities
(1,234)
456
"""

INCOME = """Consolidated Statements of Operations
(in millions)
2022
2021
Net sales
1,000
900
Cost of sales
620
531
Gross profit
380
369
"""

Q_CFO = "Did Acme generate positive cash flow from operations in FY2022?"
Q_MARGIN = "Did Acme's gross margin improve in FY2022 compared to FY2021?"


def _ev(*texts: str) -> Evidence:
    return evidence(*texts, doc=DOC, first_page=59)


def _codes(verdict: Any) -> list[str]:
    return [p["code"] for p in verdict.details["answer_problems"]]


def _judge(question: str, text: str, *pages: str) -> Any:
    return JudgeAgent(Settings()).evaluate(question, Answer(text=text), _ev(*pages), 1)


class TestVerdictAgainstFigure:
    def test_yes_beside_a_negative_figure_is_rejected(self) -> None:
        """'Yes' to positive operating cash flow beside $(1,234) million is sent back, saying why."""
        v = _judge(
            Q_CFO,
            "Yes. Net cash from operating activities in FY2022 was $(1,234) million [S1].",
            CASH_FLOW,
        )
        assert "verdict_sign" in _codes(v), v.details["answer_problems"]
        assert v.decision == "retry" and "contradicts" in v.feedback

    def test_no_beside_the_negative_figure_is_accepted(self) -> None:
        """'No' beside the same negative figure agrees with it: no contradiction."""
        v = _judge(
            Q_CFO,
            "No. Net cash used in operating activities in FY2022 was $(1,234) million [S1].",
            CASH_FLOW,
        )
        assert "verdict_sign" not in _codes(v), v.details["answer_problems"]
        assert v.decision == "accept", v.feedback

    def test_yes_to_generating_cash_beside_cash_used_is_rejected(self) -> None:
        """'Did operating activities generate cash?' tests the flow's sign: 'Yes' beside the
        net cash used, -$1,234 million, contradicts its own figure."""
        v = _judge(
            "Did Acme's operating activities generate cash in FY2022, despite its net loss?",
            "Yes. The FY2022 cash flow statement shows 'Net cash (used in) provided by operating "
            "activities' of -$1,234 million [S1].",
            CASH_FLOW,
        )
        assert "verdict_sign" in _codes(v), v.details["answer_problems"]
        assert v.decision == "retry"

    def test_an_unsigned_figure_of_cash_used_is_an_outflow(self) -> None:
        """'Net cash used in operating activities of $1,234 million' is money out: a 'Yes' to
        positive operating cash flow beside it contradicts it; beside a caption that names both
        ways ('provided by (used in)') the unsigned figure is an inflow."""
        used = "Net cash used in operating activities in FY2022 was $1,234 million [S1]."
        v = _judge(Q_CFO, f"Yes. {used}", CASH_FLOW)
        assert "verdict_sign" in _codes(v), v.details["answer_problems"]
        both = "Net cash provided by (used in) operating activities was $1,234 million [S1]."
        assert names_outflow(used) and not names_outflow(both)

    def test_yes_to_an_improvement_beside_a_decline_is_rejected(self) -> None:
        """'Yes' to an improved margin beside 'from 41.0% ... to 38.0%' is sent back."""
        v = _judge(
            Q_MARGIN,
            "Yes. Gross margin went from 41.0% in FY2021 to 38.0% in FY2022 [S1].",
            INCOME,
        )
        assert "verdict_sign" in _codes(v), v.details["answer_problems"]
        assert v.decision == "retry"

    def test_no_to_an_improvement_beside_a_decline_stands(self) -> None:
        """'No' beside the same decline agrees with its figures."""
        v = _judge(
            Q_MARGIN,
            "No. Gross margin went from 41.0% in FY2021 to 38.0% in FY2022 [S1].",
            INCOME,
        )
        assert "verdict_sign" not in _codes(v), v.details["answer_problems"]
        assert v.decision == "accept", v.feedback

    def test_negative_in_words(self) -> None:
        """'negative $5 million' is a negative figure: a 'Yes' beside it contradicts it."""
        v = _judge(
            Q_CFO, "Yes. Operating cash flow in FY2022 was negative $1,234 million [S1].", CASH_FLOW
        )
        assert "verdict_sign" in _codes(v), v.details["answer_problems"]

    def test_judgement_over_a_threshold_is_no_direction(self) -> None:
        """'Is Acme a high growth company?' answered 'No' beside revenue growing 7% a year is the
        judgement's verdict (below its threshold), not a direction contradicted."""
        v = _judge(
            "Are Acme's FY2022 financials that of a high growth company?",
            "No. Revenue grew from $900 million in FY2021 to $1,000 million in FY2022 [S1].",
            INCOME,
        )
        assert "verdict_sign" not in _codes(v), v.details["answer_problems"]

    def test_a_calculation_of_another_figure_is_no_basis(self) -> None:
        """The figure is the one the text states: 'No ... -$1,234 million' beside a recorded
        calculation of another, positive figure is no contradiction."""
        from finqa.agents.types import Calculation, Operand

        calc = Calculation(
            expression="a / b",
            operands=(
                Operand(name="a", value=456.0, unit="USD", source_id="S1"),
                Operand(name="b", value=1.0, unit="USD", source_id="S1"),
            ),
            result=456.0,
            unit="ratio",
        )
        answer = Answer(
            text="No. Net cash from operating activities in FY2022 was -$1,234 million [S1].",
            calculations=(calc,),
        )
        v = JudgeAgent(Settings()).evaluate(Q_CFO, answer, _ev(CASH_FLOW), 1)
        assert "verdict_sign" not in _codes(v), v.details["answer_problems"]
