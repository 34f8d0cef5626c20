"""Operators over named line items (a return, a share, a ratio, a change) and the asked item's
identity: the form asked is computed and judged, one operand's amount never answers it, a
qualifier's object is not the item, a row without a caption of its own is no item."""

from __future__ import annotations

from typing import Any

import pytest
from _reasoning_data import INCOME, evidence
from finqa.agents.config import Settings
from finqa.agents.judge import JudgeAgent
from finqa.agents.reasoning import build_reasoner
from finqa.agents.reasoning.offline.model_rows import model_rows
from finqa.agents.types import Answer, Calculation, Operand
from finqa.lexicon.metrics import find_metrics
from finqa.lexicon.model import StatementFact, StatementPeriod, StatementTable
from finqa.lexicon.question_ask import read_ask
from finqa.lexicon.statements import MemoryStatementStore

DOC = "ACME_2022_10K"
BALANCE = """Consolidated Balance Sheets
(in millions)
December 31,
2022
2021
Cash and cash equivalents
1,671
2,148
Loans
50,210
48,300
Allowance for loan losses
(612)
(590)
Total assets
61,400
58,900
"""
CASH_TAXES = """Consolidated Statements of Cash Flows
(in millions)
2022
2021
Supplemental disclosure
Cash paid for income taxes
1,234
1,101
"""
Q_ROA = "What was Acme's return on average total assets in FY2022?"
Q_SHARE = "How much of its FY2022 net revenue did Acme spend on selling, general and administrative expenses, as a percentage?"  # fmt: skip


@pytest.fixture(scope="module")
def judge() -> JudgeAgent:
    return JudgeAgent(Settings())


def _judge(judge: JudgeAgent, question: str, text: str, *texts: str) -> Any:
    return judge.evaluate(question, Answer(text=text), evidence(*texts, doc=DOC), 1)


def _codes(verdict: Any) -> list[str]:
    return [p["code"] for p in verdict.details["answer_problems"]]


class TestOperatorParse:
    def test_return_on_average_item(self) -> None:
        """'Return on average total assets' is the catalogue's return over total assets (ROA), not total assets."""
        ask = read_ask(Q_ROA)
        assert (ask.recipe, ask.operator, ask.operands) == ("roa", "return", (None, "total_assets"))

    def test_how_much_of_revenue_as_a_percentage(self) -> None:
        """'How much of revenue ... spend on X, as a percentage' is X as a percentage of revenue."""
        ask = read_ask(Q_SHARE)
        assert ask.recipe == "pctrev:sga" and ask.operator == "share"

    def test_share_of_another_whole_computes_no_amount(self) -> None:
        """'X as a % of total assets' has no catalogue metric: nothing computes an operand's amount."""
        ask = read_ask("What was Acme's FY2022 operating income as a % of total assets?")
        assert ask.operator == "share" and ask.recipe is None
        assert ask.operands == ("operating_income", "total_assets")

    def test_ratio_of_two_items(self) -> None:
        """'The ratio of total debt to total assets' is a ratio over both items, not total debt."""
        ask = read_ask("What was the ratio of total debt to total assets for Acme in FY2022?")
        assert ask.operator == "ratio" and ask.recipe is None

    def test_change_in_a_named_item(self) -> None:
        """'The year-over-year change in operating income for FY2022' is its change from FY2021
        (a bare change: both forms, led by the fold-chosen headline's aggregate)."""
        ask = read_ask("What was the year-over-year change in operating income for Acme in FY2022?")
        assert (ask.metric, ask.agg_years) == ("operating_income", (2021, 2022))
        assert ask.aggregate in ("change", "growth") and ask.change_form == "both"


class TestOperatorComputed:
    def test_share_of_revenue_computed(self) -> None:
        """The share asked is computed from both operands read, never answered with revenue."""
        ans = build_reasoner(Settings()).generate(
            Q_SHARE, evidence(INCOME, doc=DOC, question=Q_SHARE), 1
        )
        assert f"{34304 / 86392 * 100:.1f}%" in ans.text
        assert "86,392 million" not in ans.text.split("Answer:")[-1]


class TestOperatorJudged:
    def test_amount_for_a_return_rejected(self, judge: JudgeAgent) -> None:
        """Total assets given for a return on average total assets is not accepted, and the reason says a ratio was asked."""
        v = _judge(judge, Q_ROA, "Total assets were $61,400 million at December 31, 2022 [S1].", BALANCE)  # fmt: skip
        assert v.decision != "accept" and "wrong_kind" in _codes(v)
        assert "a ratio" in v.feedback and "is an amount" in v.feedback
        assert "a return (over total assets) is asked" in v.feedback

    def test_amount_for_a_share_rejected(self, judge: JudgeAgent) -> None:
        """Revenue given for 'how much of revenue ... as a percentage' is not accepted: a percentage was asked."""
        v = _judge(judge, Q_SHARE, "Acme's FY2022 net revenue was $86,392 million [S1].", INCOME)
        assert v.decision != "accept" and "wrong_kind" in _codes(v)
        assert "a percentage" in v.feedback

    def test_amount_for_x_as_a_percentage_of_y_rejected(self, judge: JudgeAgent) -> None:
        """SG&A's amount given for 'SG&A as a percentage of net revenue' is not accepted."""
        q = "What was Acme's FY2022 SG&A as a percentage of net revenue?"
        v = _judge(judge, q, "Acme's FY2022 SG&A was $34,304 million [S1].", INCOME)
        assert v.decision != "accept" and "wrong_kind" in _codes(v)

    def test_level_for_a_year_over_year_change_rejected(self, judge: JudgeAgent) -> None:
        """The level of operating profit given for its year-over-year change is not accepted."""
        q = "What was the year-over-year change in Acme's operating profit for FY2022?"
        v = _judge(judge, q, "Acme's operating profit was $11,512 million in FY2022 [S1].", INCOME)
        assert v.decision != "accept" and "not_change" in _codes(v)

    def test_percentage_for_an_amount_rejected(self, judge: JudgeAgent) -> None:
        """And vice versa: a percentage alone given where the amount of a line item is asked is not accepted."""
        q = "What were Acme's total assets at December 31, 2022?"
        v = _judge(judge, q, "Acme's assets earned a 5.6% return in FY2022.", BALANCE)
        assert v.decision != "accept" and "wrong_kind" in _codes(v)
        assert "is a percentage, not an amount" in v.feedback


class TestAskedItemNotAQualifier:
    def test_allowance_is_not_the_loans(self, judge: JudgeAgent) -> None:
        """'Allowance for loan losses' names no 'loans': the Loans row does not answer it."""
        q = "What was Acme's allowance for loan losses at December 31, 2022?"
        assert "loans" not in {m.canonical for m in find_metrics(q)}
        assert read_ask(q).metric != "loans"
        v = _judge(judge, q, "Acme's allowance for loan losses was $50,210 million [S1].", BALANCE)
        assert v.decision != "accept"

    def test_cash_paid_is_not_cash(self, judge: JudgeAgent) -> None:
        """'Cash paid for income taxes' is a payment over the year, not the cash balance."""
        q = "How much cash did Acme pay for income taxes in FY2022?"
        assert read_ask(q).metric != "cash"
        assert read_ask("What was the cash paid for income taxes by Acme in FY2022?").metric != "cash"  # fmt: skip
        v = _judge(judge, q, "Cash and cash equivalents were $1,671 million [S1].", BALANCE, CASH_TAXES)  # fmt: skip
        assert v.decision != "accept"

    def test_cash_balance_still_cash(self) -> None:
        """A balance asked as such is still the balance."""
        assert read_ask("What was Acme's cash balance at the end of FY2022?").metric == "cash"


EQUITY = """Consolidated Balance Sheets
(in thousands)
December 31, 2022 2021
Net income attributable to Acme 2,049,146 1,200,000
Total Acme stockholders' equity 7,727,265 6,512,283
Noncontrolling interests 4,935,654 3,957,508
Total stockholders' equity 12,662,919 10,469,791
$ 33,876,356 $ 30,210,706
"""


class TestUncaptionedRow:
    FY22 = StatementPeriod(label="2022", fiscal_year=2022, instant=True)

    def _row(self, label: str, value: float, row: int) -> StatementFact:
        return StatementFact(
            doc_id=DOC, statement="balance", table_id="p9-t0", label=label, period=self.FY22,
            value=value * 1e3, scale=1e3, page=9, row=row,
        )  # fmt: skip

    def test_caption_with_figures_is_no_equity(self) -> None:
        """The unlabelled total row (liabilities and equity) under a caption read with its own figures is no equity row."""
        facts = (
            self._row("Noncontrolling interests", 4_935_654, 1),
            self._row("Total stockholders' equity 12,662,919 10,469,791", 33_876_356, 2),
        )
        table = StatementTable(
            table_id="p9-t0", doc_id=DOC, statement="balance", title="Balance Sheets",
            pages=(9,), scale=1e3, periods=(self.FY22,), facts=facts,
        )  # fmt: skip
        rows = model_rows(MemoryStatementStore([table]), evidence("Balance sheet.", doc=DOC))
        assert [r.label for r in rows] == ["Noncontrolling interests"]

    def test_uncaptioned_total_is_no_equity_for_the_judge(self, judge: JudgeAgent) -> None:
        """A return on equity computed over the uncaptioned total row (liabilities and equity) is not accepted."""
        q = "What was Acme's return on average equity in FY2022?"
        ops = (
            Operand(name="net_income_fy2022", value=2_049_146, scale=1e3, period="FY2022", source_id="S1"),
            Operand(name="shareholders_equity_fy2022", value=33_876_356, scale=1e3, period="FY2022", source_id="S1"),
            Operand(name="shareholders_equity_fy2021", value=30_210_706, scale=1e3, period="FY2021", source_id="S1"),
        )  # fmt: skip
        calc = Calculation(
            expression="net_income_fy2022 / avg(shareholders_equity_fy2022, shareholders_equity_fy2021)",
            operands=ops, result=2_049_146 / ((33_876_356 + 30_210_706) / 2), unit="ratio",
        )  # fmt: skip
        text = (
            "FY2022 return on equity: 0.064 (6.4%) [S1], from net income 2,049,146 and "
            "shareholders equity 33,876,356 and 30,210,706 [S1]."
        )
        v = judge.evaluate(q, Answer(text=text, calculations=(calc,)), evidence(EQUITY, doc=DOC), 1)
        assert v.decision != "accept"
        assert any("without a caption" in n["detail"] for n in v.details["numbers"])

    def test_caption_naming_its_own_figures_kept(self) -> None:
        """A caption that quotes figures of its own (shares authorised) keeps its identity."""
        from finqa.lexicon.label_keys import borrowed_caption

        assert not borrowed_caption("Common stock, authorized 1,000,000 shares", (5_031.0,))
        assert not borrowed_caption("Total equity 1,234", (1_234.0,))
        assert borrowed_caption("Total equity 1,234 1,100", (9_999.0,))
