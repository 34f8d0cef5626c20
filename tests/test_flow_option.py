"""'Say whether operations generated or consumed cash': an either/or asked in the imperative is a
part the answer owes; the offline reasoner names the option the flow's sign has, and the judge
refuses a figure alone and an option its figure contradicts."""

from __future__ import annotations

from typing import Any

from _reasoning_data import evidence
from finqa.agents.config import Settings
from finqa.agents.judge import JudgeAgent
from finqa.agents.reasoning import build_reasoner
from finqa.agents.types import Answer
from finqa.lexicon.answer_form import flow_option
from finqa.lexicon.question_parts import question_parts
from finqa.lexicon.statements import MemoryStatementStore, read_pages

DOC = "ACME_2022_10K"
CASH_FLOW = """Consolidated Statements of Cash Flows
(in millions)
2022 2021
Net loss (900) (300)
Net cash (used in) provided by operating activities (1,234) 456
"""
Q = "What was Acme's net cash flow from operating activities in 2022? Say whether operations generated or consumed cash."  # fmt: skip


def _judge(text: str) -> Any:
    ev = evidence(CASH_FLOW, doc=DOC, first_page=59)
    return JudgeAgent(Settings()).evaluate(Q, Answer(text=text), ev, 1)


def test_the_imperative_either_or_is_a_part() -> None:
    parts = question_parts(Q).parts
    assert [p.form for p in parts] == ["figure", "verdict"]
    assert flow_option(("generated", "consumed"), False) == "consumed"
    assert flow_option(("generated", "consumed"), True) == "generated"
    assert flow_option(("help", "hurt"), True) is None


def test_the_option_the_sign_has() -> None:
    store = MemoryStatementStore(read_pages(DOC, [(59, CASH_FLOW)]).tables)
    ans = build_reasoner(Settings(), statements=store).generate(Q, evidence("MD&A.", doc=DOC), 1)
    assert ans.text.startswith("It consumed cash"), ans.text


def test_a_figure_alone_or_the_other_option_is_not_accepted() -> None:
    bare = _judge("FY2022 cash from operations: -$1,234 million [S1].")
    assert bare.decision != "accept"
    wrong = _judge("It generated cash: FY2022 cash from operations: -$1,234 million [S1].")
    assert "either_or" in [p["code"] for p in wrong.details["answer_problems"]]
    right = _judge("It consumed cash: FY2022 cash from operations: -$1,234 million [S1].")
    assert "either_or" not in [p["code"] for p in right.details["answer_problems"]]
