"""A balance's movement the statements print as a line of its own (issue #25: a balance or a
flow; a second route for every accepted figure): the statement of cash flows' net increase
(decrease) in cash is the period's change in cash, read as the catalogue item `cash_change`
(duration) that `cash` names as `moved_by`. Where it and the difference of the two balance-sheet
balances disagree (cash held for sale the statement's balance holds), the reasoner answers an
amount with the printed line and states the difference, abstains on a percentage (no one opening
balance), and the judge does not accept the difference as the change."""

from __future__ import annotations

import pytest
from _reasoning_data import evidence
from finqa.agents.config import Settings
from finqa.agents.judge import JudgeAgent
from finqa.agents.reasoning import build_reasoner
from finqa.agents.types import Answer
from finqa.lexicon.catalogue import CatalogueError, _check
from finqa.lexicon.metrics import METRICS
from finqa.lexicon.statements import MemoryStatementStore, read_pages

DOC = "ACME_2016_10K"

# cash held for sale at the end of 2015 is in the statement's balance, not the balance sheet's
PAGES = """ACME CORP
CONSOLIDATED BALANCE SHEETS
(In millions)
December 31, 2016 December 31, 2015
Current assets:
Cash and cash equivalents $ 1,976 $ 2,432
Receivables, net 1,162 1,280
Current assets held for sale - 681
Total current assets 3,138 4,393
Total assets 9,000 9,500
ACME CORP
CONSOLIDATED STATEMENTS OF CASH FLOWS
(In millions)
Years ended December 31, 2016 2015 2014
Net cash provided by operating activities 1,322 1,935 1,094
Net cash used in investing activities (419) (1,712) (517)
Net cash used in financing activities (1,515) (223) 319
Effect of exchange rate changes on cash (38) (52) (44)
Increase (decrease) in cash and cash equivalents (650) (52) 852
Cash and cash equivalents at beginning of period 2,626 2,678 1,826
Cash and cash equivalents at end of period 1,976 2,626 2,678
"""

# the same filer without the held-for-sale cash: the printed line is the balances' difference
AGREEING = (
    PAGES.replace("(650) (52) 852", "(456) (52) 852")
    .replace("2,626 2,678 1,826", "2,432 2,678 1,826")
    .replace("1,976 2,626 2,678", "1,976 2,432 2,678")
)


def _store(page: str) -> MemoryStatementStore:
    return MemoryStatementStore(read_pages(DOC, [(40, page)]).tables)


def _answer(question: str, page: str = PAGES) -> Answer:
    reasoner = build_reasoner(Settings(), statements=_store(page))
    return reasoner.generate(question, evidence(page, doc=DOC), 1)


def _verdict(question: str, text: str, page: str = PAGES):  # noqa: ANN202 - a Verdict
    return JudgeAgent(Settings()).evaluate(question, Answer(text=text), evidence(page, doc=DOC), 1)


class TestCatalogue:
    def test_cash_is_moved_by_its_printed_line(self) -> None:
        assert METRICS["cash"].moved_by == "cash_change"
        assert METRICS["cash_change"].period_type == "duration"
        assert METRICS["cash_and_restricted_cash"].moved_by == "cash_and_restricted_cash_change"

    def test_only_a_balance_is_moved_by_a_line(self) -> None:
        spec = {"name": "X", "statement": "income", "period": "duration", "moved_by": "cash"}
        with pytest.raises(CatalogueError):
            _check("x", spec, known=frozenset({"cash"}))

    def test_the_printed_line_is_read_as_its_item(self) -> None:
        facts = [
            (f.statement, f.value)
            for t in read_pages(DOC, [(40, PAGES)]).tables
            for f in t.facts
            if f.item == "cash_change"
        ]
        assert facts and {s for s, _ in facts} == {"cashflow"}
        assert sorted(v for _, v in facts) == [-650e6, -52e6, 852e6]


class TestReasoner:
    def test_an_amount_is_the_printed_movement(self) -> None:
        ans = _answer("By how much did Acme's cash and cash equivalents decrease in 2016?")
        assert not ans.abstained, ans.text
        assert "-$650 million" in ans.text
        assert "moved by -$456 million" in ans.text  # the balances' difference, stated
        assert [c.expression for c in ans.calculations] == ["cash_change_fy2016"]

    def test_the_line_named_is_the_flow_not_the_balance(self) -> None:
        ans = _answer(
            "What was the net increase or decrease in cash and cash equivalents for Acme in 2015?"
        )
        assert not ans.abstained, ans.text
        assert "-$52 million" in ans.text and "$2,432 million" not in ans.text

    def test_a_percentage_has_no_one_base(self) -> None:
        ans = _answer("By what percentage did Acme's cash and cash equivalents change in 2016?")
        assert ans.abstained and "no one opening balance" in ans.text

    def test_agreeing_routes_keep_the_balances(self) -> None:
        ans = _answer(
            "By what percentage did Acme's cash and cash equivalents change in 2016?", AGREEING
        )
        assert not ans.abstained, ans.text
        assert "-18.8%" in ans.text


class TestJudge:
    Q = "By how much did Acme's cash and cash equivalents decrease in 2016?"

    def test_the_balances_difference_is_not_accepted(self) -> None:
        verdict = _verdict(
            self.Q,
            "Cash and cash equivalents fell by $456 million in FY2016, from $2,432 million to "
            "$1,976 million [S1].",
        )
        assert verdict.decision != "accept"
        assert "route_conflict" in str(verdict.details)

    def test_the_printed_movement_is_accepted(self) -> None:
        verdict = _verdict(
            self.Q,
            "FY2016 net change in cash and cash equivalents, as the statement of cash flows "
            "prints it: -$650 million [S1].",
        )
        assert verdict.decision == "accept", verdict.details

    def test_agreeing_routes_accept_the_difference(self) -> None:
        verdict = _verdict(
            self.Q,
            "Cash and cash equivalents fell by $456 million in FY2016, from $2,432 million to "
            "$1,976 million [S1].",
            AGREEING,
        )
        assert "route_conflict" not in str(verdict.details)
