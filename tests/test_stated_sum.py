"""A bare 'A plus B' of two lines the catalogue names whole ('cash and cash equivalents plus
marketable securities combined') asks their sum: the reasoner adds the two lines; the judge
accepts no answer read off one of them, and its route for the first line's metric does not
overrule the sum."""

from __future__ import annotations

from typing import Any

from _reasoning_data import evidence
from finqa.agents.config import Settings
from finqa.agents.judge import JudgeAgent
from finqa.agents.reasoning import build_reasoner
from finqa.agents.types import Answer
from finqa.lexicon.components import enumeration
from finqa.lexicon.statements import MemoryStatementStore, read_pages

DOC = "ACME_2016_10K"
BALANCE = """CONSOLIDATED BALANCE SHEETS
(in millions)
December 31, 2016 2015
Current assets:
Cash and cash equivalents $ 19,334 $ 15,890
Marketable securities 6,647 3,918
Inventories 11,461 10,243
Total current assets 45,781 36,474
Total assets $ 83,402 $ 65,444
"""
Q = "How much did Acme hold in cash and cash equivalents plus marketable securities combined at December 31, 2016?"  # fmt: skip


def _judge(text: str) -> Any:
    ev = evidence(BALANCE, doc=DOC, first_page=38)
    return JudgeAgent(Settings()).evaluate(Q, Answer(text=text), ev, 1)


def test_the_two_lines_a_bare_plus_joins() -> None:
    listed = enumeration(Q)
    assert listed is not None and listed.stated_sum and listed.defined
    assert listed.parts == ("cash and cash equivalents", "marketable securities")
    # a line the catalogue does not name whole, or a list in a definition, is read elsewhere
    assert not getattr(enumeration("Use current plus non-current notes payable and other borrowings against equity."), "stated_sum", False)  # fmt: skip


def test_the_sum_is_answered() -> None:
    store = MemoryStatementStore(read_pages(DOC, [(38, BALANCE)]).tables)
    ans = build_reasoner(Settings(), statements=store).generate(Q, evidence("MD&A.", doc=DOC), 1)
    assert not ans.abstained, ans.text
    assert "$25,981 million" in ans.text
    assert ans.calculations[0].result == 25_981


def test_one_line_is_no_answer_to_the_sum() -> None:
    one = _judge(
        "Cash and cash equivalents as of December 31, 2016: $19,334 million [S1]. Read from "
        "the line 'Cash and cash equivalents $ 19,334 $ 15,890' [S1]. Answer: $19,334 million."
    )
    assert one.decision != "accept"
    both = _judge(
        "Cash and cash equivalents plus marketable securities as of December 31, 2016: "
        "$25,981 million [S1]: cash and cash equivalents $19,334 million plus marketable "
        "securities $6,647 million [S1]. Answer: $25,981 million."
    )
    codes = [p["code"] for p in both.details["answer_problems"]]
    assert "route_conflict" not in codes, both.details["answer_problems"]


def test_a_part_of_a_defined_difference_is_no_answer() -> None:
    """'net interest expense, i.e. interest expense less interest income and other' answered
    with the 'Interest expense' line alone: one part for the difference, refused; a line of the
    difference's own ('Interest expense, net') is not one of its parts."""
    income = """Consolidated Statement of Income
(in millions)
2016 2015
Net revenue 62,799 63,056
Operating profit 9,785 8,353
Interest expense (1,342) (970)
Interest income and other 110 59
Income before income taxes 8,553 7,442
"""
    q = "What was Acme's net interest expense in 2016, i.e. interest expense less interest income and other?"  # fmt: skip
    ev = evidence(income, doc=DOC, first_page=60)

    def judge(text: str) -> Any:
        return JudgeAgent(Settings()).evaluate(q, Answer(text=text), ev, 1)

    part = judge("FY2016 interest expense: $1,342 million [S1]. Read from the line 'Interest expense (1,342) (970)' [S1].")  # fmt: skip
    assert "one_part" in [p["code"] for p in part.details["answer_problems"]]
    own = judge("FY2016 net interest expense: $1,232 million [S1]. Read from the line 'Interest expense, net (1,232)' [S1].")  # fmt: skip
    assert "one_part" not in [p["code"] for p in own.details["answer_problems"]]
