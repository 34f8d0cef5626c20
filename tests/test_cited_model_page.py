"""A line the reasoner reads from the index's statement model may sit on a page retrieval did
not return ('[M1]'). The judge is given that page's text, read from the index's own chunks, and
checks the figure against the printed page (it used to refuse it as 'an operand is not in the
evidence'); a figure the page does not print is still refused."""

from __future__ import annotations

from _reasoning_data import evidence
from finqa.agents.config import Settings
from finqa.agents.judge import JudgeAgent
from finqa.agents.types import Answer, Calculation, Chunk, Citation, Operand
from finqa.orchestrator.citing import with_cited_pages

PAGE = """ACME INC.
CONSOLIDATED STATEMENTS OF INCOME
(in millions)
2023 2022 2021
Revenue 90,155 93,512 83,959
Operating income 4,912 6,245 5,857
Other retirement plans income (expense) 1,054 (726) 1,983
Income before income taxes 5,455 5,064 7,413
"""
OTHER = "Item 7. Management's discussion. Revenue decreased 4% in fiscal 2023."
Q = "In fiscal 2023, was Acme's 'Other retirement plans income (expense)' income or a cost, and how much was it?"


def _chunks(doc: str, page: int) -> list[Chunk]:
    if page != 80:
        return []
    return [Chunk(chunk_id=f"{doc}#1", doc_id=doc, page=80, position=1, text=PAGE)]


def _answer(value: float, shown: str) -> Answer:
    row = f"Other retirement plans income (expense) {shown} (726) 1,983"
    return Answer(
        text=f"FY2023 Other retirement plans income (expense): other retirement plans income of "
        f"${shown} million [M1]. Read from the line '{row}' [M1] (amounts in USD millions).",
        citations=(Citation(source_id="M1", doc_id="ACME_2023_10K", page=80, quote=row),),
        calculations=(
            Calculation(
                description="FY2023 Other retirement plans income (expense) (USD millions)",
                expression="other_retirement_fy2023",
                operands=(
                    Operand(
                        name="other_retirement_fy2023",
                        value=value,
                        unit="USD",
                        scale=1e6,
                        period="FY2023",
                        source_id="M1",
                        text=row,
                    ),
                ),
                result=value,
                unit="USD",
            ),
        ),
    )


def test_the_cited_page_is_added_once_under_its_label() -> None:
    ev = evidence(OTHER, doc="ACME_2023_10K", question=Q)
    answer = _answer(1054.0, "1,054")
    judged = with_cited_pages(ev, answer, _chunks)
    added = judged.by_source("M1")
    assert added is not None and added.pages == (80,) and "1,054" in added.text
    assert len(judged.items) == len(ev.items) + 1
    assert with_cited_pages(ev, answer, None) is ev  # no index: the evidence as retrieved
    assert with_cited_pages(ev, Answer(text="x"), _chunks) is ev  # nothing cited from the model


def test_the_judge_checks_the_figure_on_the_cited_page() -> None:
    ev = evidence(OTHER, doc="ACME_2023_10K", question=Q)
    judge = JudgeAgent(Settings())
    right = _answer(1054.0, "1,054")
    without = judge.evaluate(Q, right, ev, 1)
    with_page = judge.evaluate(Q, right, with_cited_pages(ev, right, _chunks), 1)
    assert without.decision != "accept"
    assert with_page.decision == "accept", with_page.details["answer_problems"]
    wrong = _answer(1154.0, "1,154")  # a figure the page does not print
    assert judge.evaluate(Q, wrong, with_cited_pages(ev, wrong, _chunks), 1).decision != "accept"
