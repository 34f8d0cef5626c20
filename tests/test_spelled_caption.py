"""The line a question spells by one of its item's own captions (issue #25: part for whole, the
nearer word): 'as a percentage of net sales' is over the filer's 'Net sales' line where it
prints it beside 'Membership fees' and 'Total revenue' (the catalogue's revenue reads both
captions; total revenue ranks first), and over total revenue where the question says so."""

from __future__ import annotations

from _reasoning_data import evidence
from finqa.agents.config import Settings
from finqa.agents.reasoning import build_reasoner
from finqa.lexicon.line_items import spelled_captions
from finqa.lexicon.statements import MemoryStatementStore, read_pages

DOC = "ACME_2015_10K"
INCOME = """ACME CORPORATION
CONSOLIDATED STATEMENTS OF INCOME
(amounts in millions)
52 Weeks Ended August 30, 2015 August 31, 2014 September 1, 2013
REVENUE
Net sales $ 113,666 $ 110,212 $ 102,870
Membership fees 2,533 2,428 2,286
Total revenue 116,199 112,640 105,156
OPERATING EXPENSES
Merchandise costs 101,065 98,458 91,948
Selling, general and administrative 11,445 10,899 10,104
Operating income 3,624 3,220 3,053
"""


def _answer(question: str) -> str:
    store = MemoryStatementStore(read_pages(DOC, [(40, INCOME)]).tables)
    ans = build_reasoner(Settings(), statements=store).generate(
        question, evidence(INCOME, doc=DOC), 1
    )
    assert not ans.abstained, ans.text
    return ans.text


def test_the_caption_spelled() -> None:
    q = "What were Acme's SG&A expenses as a percentage of net sales in fiscal 2015?"
    assert ("revenue", "netsales") in spelled_captions(q)
    assert spelled_captions("What was Acme's revenue in fiscal 2015?") == ()


def test_the_spelled_line_is_the_denominator() -> None:
    q = "What were Acme's SG&A expenses as a percentage of net sales in fiscal 2015? Give the answer to two decimals."
    assert "10.07%" in _answer(q)
    total = "What were Acme's SG&A expenses as a percentage of total revenue in fiscal 2015? Give the answer to two decimals."
    assert "9.85%" in _answer(total)
