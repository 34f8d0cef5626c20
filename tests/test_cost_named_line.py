"""A cost the question names by its caption's words and a cost noun ('fulfillment expense',
'transaction expense'), where the catalogue has no item: the filing's line under that caption
answers (its figure or its growth); a caption adding other words is another line."""

from __future__ import annotations

from _reasoning_data import evidence
from finqa.agents.config import Settings
from finqa.agents.reasoning import build_reasoner
from finqa.lexicon.named_line import caption_part, named_line
from finqa.lexicon.statements import MemoryStatementStore, read_pages

DOC = "ACME_2020_10K"
INCOME = """Consolidated Statements of Operations
(in millions)
2020 2019 2018
Total net sales 386,064 280,522 232,887
Operating expenses:
Cost of sales 233,307 165,536 139,156
Fulfillment 58,517 40,232 34,027
Technology and content 42,740 35,931 28,837
Total operating expenses 363,165 265,981 220,466
Operating income 22,899 14,541 12,421
"""


def test_the_cost_named_and_its_caption() -> None:
    line = named_line("By what percentage did Acme's fulfillment expense grow in 2020?")
    assert line is not None and line.words == ("fulfillment",)
    assert caption_part(line, "Fulfillment") == ""
    assert caption_part(line, "Fulfillment and logistics services") is None
    # a catalogue item named: its own path, no line of the cost noun's
    assert named_line("What were Acme's restructuring charges in 2020?") is None
    assert named_line("What were Acme's total costs in 2020?") is None


def test_growth_of_the_named_cost_from_its_line() -> None:
    store = MemoryStatementStore(read_pages(DOC, [(40, INCOME)]).tables)
    q = "By what percentage did Acme's fulfillment expense grow in 2020 compared with 2019?"
    ans = build_reasoner(Settings(), statements=store).generate(q, evidence("MD&A.", doc=DOC), 1)
    assert not ans.abstained, ans.text
    assert "45.4%" in ans.text and "'Fulfillment'" in ans.text
    assert round(ans.calculations[0].result, 1) == 45.4
