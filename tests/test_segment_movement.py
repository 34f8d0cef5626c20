"""A part of the business's movement (issue #25: a segment's figure; the judge's acceptance of
right answers): 'did the segment's margin improve or deteriorate?' is answered in the words the
question offers, from the margin's favourable direction (a margin that fell deteriorated), in a
claim of its own that the judge places on that part; 'by what percentage did X grow in Q2 2023
compared with Q2 2022' asks one growth, not the two quarters' figures."""

from __future__ import annotations

from _reasoning_data import INCOME, evidence
from finqa.agents.config import Settings
from finqa.agents.judge import JudgeAgent
from finqa.agents.judge.facets import assign_claims, decompose
from finqa.lexicon.question_parts import question_parts
from test_reasoning_segments import DOC, PROSE, SEGMENTS, ask

Q = (
    "What was the operating margin of Acme's Foodservice segment in 2022, and did it improve or "
    "deteriorate compared with 2021?"
)


def test_the_way_it_went_in_the_questions_words() -> None:
    a = ask(Q, (90, SEGMENTS))
    assert not a.abstained, a.text
    assert "38.6%" in a.text  # 2,512 / 6,500
    assert "Compared with FY2021, it improved." in a.text  # 32.9% in 2021


def test_the_judge_places_the_way_on_its_part() -> None:
    claims = [
        "The operating margin of the Foodservice segment for FY2022 was 38.6%;",
        "Compared with FY2021, it improved.",
    ]
    assert assign_claims(decompose(Q), claims, [1, 0]) == [0, 1]


def test_a_growth_compared_with_a_quarter_is_one_figure() -> None:
    q = (
        "By what percentage did Acme's U.S. net revenues grow in the quarter ended June 30, 2023 "
        "compared with the quarter ended June 30, 2022?"
    )
    assert [p.form for p in question_parts(q).parts] == ["figure"]
    q2 = "How did Acme's revenue in 2022 compare with 2021?"
    assert [p.form for p in question_parts(q2).parts] == ["compare"]


def test_the_judge_accepts_the_segment_answer() -> None:
    from finqa.lexicon.statements import MemoryStatementStore, read_pages

    store = MemoryStatementStore(read_pages(DOC, [(50, INCOME), (90, SEGMENTS)]).tables)
    a = ask(Q, (90, SEGMENTS))
    verdict = JudgeAgent(Settings(), statements=store).evaluate(
        Q, a, evidence(PROSE, SEGMENTS, doc=DOC, question=Q), 1
    )
    facets = verdict.details["facets"]
    assert [f["kind"] for f in facets] == ["figure", "verdict"]
    assert all(f["addressed"] for f in facets), facets
    assert verdict.decision == "accept", verdict.feedback


def test_a_parts_growth_is_a_change() -> None:
    """The judge's recomputed growth of a part is a change, not the part's level."""
    from finqa.lexicon.statements import MemoryStatementStore, read_pages

    q = "By what percentage did Acme's Foodservice segment revenue grow in 2022 compared with 2021?"
    store = MemoryStatementStore(read_pages(DOC, [(50, INCOME), (90, SEGMENTS)]).tables)
    a = ask(q, (90, SEGMENTS))
    assert not a.abstained and "-1.1%" in a.text, a.text  # 6,500 / 6,574 - 1
    verdict = JudgeAgent(Settings(), statements=store).evaluate(
        q, a, evidence(PROSE, SEGMENTS, doc=DOC, question=q), 1
    )
    codes = [p["code"] for p in verdict.details["answer_problems"]]
    assert "not_change" not in codes and verdict.decision == "accept", verdict.feedback


def test_a_business_given_a_short_name_is_a_part() -> None:
    """'PepsiCo Beverages North America (PBNA) grew ... PBNA's operating profit': a business named
    after the company and asked by its short name; the company's figure answers another
    question (the judge refuses an answer that names neither)."""
    from finqa.agents.types import Answer
    from finqa.lexicon.dimension_question import named_brands

    q = (
        "PepsiCo Beverages North America (PBNA) grew its net revenue in 2022. By what "
        "percentage did PBNA's operating profit change from 2021 to 2022?"
    )
    assert ("pbna",) in named_brands(q)
    assert named_brands("PepsiCo (PEP) grew. By what percentage did PepsiCo's profit change?") == ()
    text = "Growth in operating income, FY2021 to FY2022: 3.1% [S1]."
    verdict = JudgeAgent(Settings()).evaluate(
        q, Answer(text=text), evidence(PROSE, SEGMENTS, doc=DOC, question=q), 1
    )
    assert "brand_part" in [p["code"] for p in verdict.details["answer_problems"]]


OTHER_LINE = (
    "What was the operating margin of Acme's Foodservice segment in 2022, and did the segment's "
    "revenue grow or shrink compared with 2021?"
)


def test_a_way_asked_of_another_line_is_that_lines_way() -> None:
    """'... and did the segment's revenue grow or shrink?': the way of the segment's revenue
    (it fell), not the margin's (it rose); it used to be answered 'it improved'."""
    a = ask(OTHER_LINE, (90, SEGMENTS))
    assert not a.abstained, a.text
    assert "38.6%" in a.text
    assert "improved" not in a.text
    assert "revenue decreased from $6,574 million in FY2021 to $6,500 million" in a.text, a.text


def test_the_judge_accepts_the_other_lines_way() -> None:
    from finqa.lexicon.statements import MemoryStatementStore, read_pages

    store = MemoryStatementStore(read_pages(DOC, [(50, INCOME), (90, SEGMENTS)]).tables)
    a = ask(OTHER_LINE, (90, SEGMENTS))
    verdict = JudgeAgent(Settings(), statements=store).evaluate(
        OTHER_LINE, a, evidence(PROSE, SEGMENTS, doc=DOC, question=OTHER_LINE), 1
    )
    assert verdict.decision == "accept", verdict.feedback


def test_the_judge_refuses_the_items_way_for_another_lines() -> None:
    """The margin's 'it improved' given for the way the segment's revenue went (it fell)."""
    from finqa.agents.types import Answer
    from finqa.lexicon.statements import MemoryStatementStore, read_pages

    store = MemoryStatementStore(read_pages(DOC, [(50, INCOME), (90, SEGMENTS)]).tables)
    a = ask(OTHER_LINE, (90, SEGMENTS))
    text = a.text.split(" Its revenue")[0] + " Compared with FY2021, it improved. Answer: 38.6%."
    for wrong in (text, text.replace("it improved", "its revenue increased")):
        verdict = JudgeAgent(Settings(), statements=store).evaluate(
            OTHER_LINE,
            Answer.model_validate({**a.model_dump(), "text": wrong}),
            evidence(PROSE, SEGMENTS, doc=DOC, question=OTHER_LINE),
            1,
        )
        assert verdict.decision != "accept", wrong
