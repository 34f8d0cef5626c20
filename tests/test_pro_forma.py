"""A pro forma note's figures (as if an acquisition had happened earlier) are not the company's
reported ones: the text reader skips a table a pro forma sentence introduces, so a margin asked
of the reported figures is computed from the income statement, never from the note."""

from __future__ import annotations

from _reasoning_data import evidence
from finqa.agents.config import Settings
from finqa.agents.reasoning.offline.tables import read_tables
from finqa.lexicon.hedges import pro_forma_in

PRO_FORMA = """The following unaudited pro forma consolidated financial information for the years
ended December 31, 2016 and 2015 assumes the acquisition had occurred on January 1, 2015.
Year Ended December 31,
2016 2015
(In thousands)
Net revenues $ 9,940,176 $ 9,993,718
Net income attributable to Acme Resorts 819,278 (417,671)
"""

INCOME = """ACME RESORTS AND SUBSIDIARIES
CONSOLIDATED STATEMENTS OF OPERATIONS
(In thousands)
Year Ended December 31, 2016 2015
Net revenues $ 9,455,123 $ 9,190,068
Net income attributable to Acme Resorts 1,101,440 (447,720)
"""


def test_pro_forma_named_and_hypothetical() -> None:
    assert pro_forma_in(PRO_FORMA)
    assert not pro_forma_in(INCOME)
    # 'pro forma' alone, or 'unaudited' alone, is no pro forma table
    assert not pro_forma_in("Pro forma adjustments are described in Note 4.")
    assert not pro_forma_in("Quarterly results (unaudited)")


def test_pro_forma_table_not_read() -> None:
    rows = read_tables(PRO_FORMA, source_id="S1", doc_id="ACME_2016_10K", page=84).rows
    assert rows == []
    rows = read_tables(INCOME, source_id="S2", doc_id="ACME_2016_10K", page=69).rows
    assert any(r.label == "Net revenues" for r in rows)


def test_margin_from_the_reported_figures() -> None:
    from finqa.agents.reasoning import build_reasoner

    q = "What was Acme Resorts' 2016 net profit margin, using net income attributable to Acme Resorts over net revenues?"
    ev = evidence(PRO_FORMA, INCOME, doc="ACME_2016_10K", question=q)
    answer = build_reasoner(Settings()).generate(q, ev, 1)
    assert "11.6%" in answer.text and "9,940,176" not in answer.text, answer.text


def test_pro_forma_figure_never_stands_in_for_the_reported_one() -> None:
    """Where the evidence holds no reported revenue line, the note's pro forma revenue is not
    taken for it: the margin is not computed from it."""
    from finqa.agents.reasoning import build_reasoner

    q = "What was Acme Resorts' 2016 net profit margin, using net income attributable to Acme Resorts over net revenues?"
    no_revenue = "\n".join(ln for ln in INCOME.splitlines() if not ln.startswith("Net revenues"))
    ev = evidence(PRO_FORMA, no_revenue, doc="ACME_2016_10K", question=q)
    answer = build_reasoner(Settings()).generate(q, ev, 1)
    assert "9,940,176" not in answer.text, answer.text
