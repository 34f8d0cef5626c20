"""The scope of operations a figure covers (issue #25, 'part of a line for the whole' and 'the
nearer word'): a filer reporting a discontinued operation prints a line for continuing
operations beside its total. A question asking the continuing-operations figure is answered
from the continuing line (the reasoner), and an answer read from the total line is not
accepted (the judge, from the captions of the lines the figure reads)."""

from __future__ import annotations

from _reasoning_data import evidence
from finqa.agents.config import Settings
from finqa.agents.judge import JudgeAgent
from finqa.agents.reasoning import build_reasoner
from finqa.lexicon.operations_scope import asks_continuing, continuing_variant

DOC = "ZENTRO_2024_10K"
CASH_FLOW = """ZENTRO CORP.
CONSOLIDATED STATEMENTS OF CASH FLOWS
(In millions)
Year Ended December 31, 2024 2023
Net cash provided by continuing operating activities 3,146 2,900
Net cash provided by (used in) discontinued operating activities (727) 110
Net cash provided by operating activities 2,419 3,010
Purchases of property and equipment (494) (450)
Net cash used in investing activities (1,200) (900)
"""
CONTINUING = (
    "Calculate Zentro's FY2024 free cash flow from continuing operations, defined as net cash "
    "provided by continuing operating activities minus purchases of property and equipment."
)
TOTAL = "Calculate Zentro's FY2024 free cash flow."


def test_reading_the_scope() -> None:
    assert asks_continuing(CONTINUING) and not asks_continuing(TOTAL)
    labels = [
        "Net cash provided by continuing operating activities",
        "Net cash provided by operating activities",
    ]
    assert continuing_variant(labels[1], labels) == labels[0]
    assert continuing_variant(labels[0], labels) is None  # the line is the continuing one
    assert continuing_variant("Provision for income taxes", labels) is None


def _answer(question: str):  # type: ignore[no-untyped-def]
    settings = Settings()
    ev = evidence(CASH_FLOW, question=question, doc=DOC)
    return settings, ev, build_reasoner(settings).generate(question, ev, 1)


def test_reasoner_reads_the_continuing_line() -> None:
    _, _, continuing = _answer(CONTINUING)
    assert "3,146" in continuing.text and "$2,652 million" in continuing.text
    _, _, total = _answer(TOTAL)
    assert "2,419" in total.text and "$1,925 million" in total.text


def test_judge_refuses_the_total_line_for_continuing_operations() -> None:
    """The total line's free cash flow answers the plain question and not the
    continuing-operations one: the verdict comes out both ways on one answer."""
    settings, ev, total = _answer(TOTAL)
    assert JudgeAgent(settings).evaluate(TOTAL, total, ev, 1).decision == "accept"
    ev2 = evidence(CASH_FLOW, question=CONTINUING, doc=DOC)
    verdict = JudgeAgent(settings).evaluate(CONTINUING, total, ev2, 1)
    codes = {p.get("code") for p in verdict.details.get("answer_problems") or []}
    assert "other_scope" in codes and verdict.decision != "accept"
    _, ev3, continuing = _answer(CONTINUING)
    assert JudgeAgent(settings).evaluate(CONTINUING, continuing, ev3, 1).decision == "accept"


def test_cause_said_of_an_earlier_year() -> None:
    """A movement said of one year before its cause is that year's: read for a later year it
    is no fact of the asked period; a cause naming an earlier year after it still may be."""
    from finqa.lexicon.hedges import earlier_comparison

    said = "The year-over-year increase in the gross margin percentage in 2014 was driven by mix"
    assert earlier_comparison(said, [2015]) is not None
    assert earlier_comparison(said.replace("2014", "2015"), [2015]) is None
    assert (
        earlier_comparison("Revenue increased due to the acquisition made in 2014.", [2015]) is None
    )
    both = "Gross margin decreased to 45% in 2022 from 48% in 2021, primarily due to amortization"
    assert earlier_comparison(both, [2022]) is None


def test_brand_naming_a_segment_and_platform_kind() -> None:
    """A brand that names a part of the business ('Zentro Global Services') is that part; a
    named platform is a part of the business, never the company."""
    from finqa.lexicon.dimension_question import asked_dimension

    asked = asked_dimension("How much net revenue did Zentro's Marketplace platform generate?")
    assert asked is not None and asked.kind == "segment" and asked.phrase == "Marketplace"
