"""A line printed under the catalogue's own caption and, in the same table, a net or total row
the text reader maps to the same item by its words ('Interest expense' 199 beside 'Total
interest expense - net' 170, after 'Interest income' (29)): the item is the row under its own
caption (issue #25: the nearer word, a part for the whole); a table printing only the worded
row still answers with it."""

from __future__ import annotations

from _reasoning_data import evidence
from finqa.agents.config import Settings
from finqa.agents.reasoning import build_reasoner
from finqa.lexicon.statements import MemoryStatementStore, read_pages

DOC = "ACME_2016_10K"

INCOME = """ACME CORP
CONSOLIDATED STATEMENT OF INCOME
(Millions)
Years ended December 31 2016 2015 2014
Net sales $ 30,109 $ 30,274 $ 31,821
Operating income 7,223 6,946 7,135
Other expense (income)
Interest expense 199 149 142
Interest income (29) (26) (33)
Total interest expense — net 170 123 109
Income before income taxes 7,053 6,823 7,026
Provision for income taxes 1,995 1,982 2,028
Net income $ 5,058 $ 4,841 $ 4,998
"""

NET_ONLY = INCOME.replace("Interest expense 199 149 142\n", "").replace(
    "Interest income (29) (26) (33)\n", ""
)


def _answer(page: str) -> str:
    store = MemoryStatementStore(read_pages(DOC, [(40, page)]).tables)
    ans = build_reasoner(Settings(), statements=store).generate(
        "What was Acme's interest expense in 2016?", evidence(page, doc=DOC), 1
    )
    assert not ans.abstained, ans.text
    return ans.text


def test_the_own_caption_beats_a_worded_net_row() -> None:
    text = _answer(INCOME)
    assert "$199 million" in text and "$170 million" not in text


def test_a_worded_row_alone_still_answers() -> None:
    assert "$170 million" in _answer(NET_ONLY)
