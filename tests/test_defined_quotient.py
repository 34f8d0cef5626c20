"""A measure the question defines as one figure over another ('Acme defines its take rate as
net transaction revenues divided by GMV'): a ratio answers it, never the amount of a line."""

from __future__ import annotations

from _reasoning_data import evidence
from finqa.agents.config import Settings
from finqa.agents.judge import JudgeAgent
from finqa.agents.types import Answer
from finqa.lexicon.answer_form import defines_metric
from finqa.lexicon.operators import defined_quotient

Q = (
    "Acme defines its marketplace take rate as net transaction revenues divided by gross "
    "merchandise volume. Using the 2018 figures, what was that take rate?"
)
PAGE = """ACME CORP
KEY METRICS
(in millions) 2018 2017
Gross merchandise volume $ 4,751 $ 4,500
Net transaction revenues $ 1,068 $ 1,000
Net revenues $ 10,746 $ 9,927
"""


def test_the_filer_s_own_definition_is_read() -> None:
    assert defines_metric(Q)
    op = defined_quotient(Q)
    assert op is not None and op.form == "ratio"
    assert defined_quotient("What was Acme's take rate in 2018?") is None
    share = defined_quotient("Gross margin is defined as gross profit as a percentage of sales.")
    assert share is not None and share.form == "percent"


def test_an_amount_does_not_answer_a_defined_ratio() -> None:
    judge = JudgeAgent(Settings())
    wrong = judge.evaluate(
        Q, Answer(text="FY2018 revenue: $10,746 million [S1]."), evidence(PAGE), 1
    )
    assert wrong.decision != "accept"
    assert "wrong_kind" in [p["code"] for p in wrong.details["answer_problems"]]
    right = judge.evaluate(
        Q, Answer(text="FY2018 take rate: 22.5% (1,068 / 4,751) [S1]."), evidence(PAGE), 1
    )
    assert "wrong_kind" not in [p["code"] for p in right.details["answer_problems"]]
