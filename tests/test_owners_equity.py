"""Whose equity: the company's shareholders' equity by default, total equity (with noncontrolling
interests) when the question says so, told apart by the balance sheet's layout; the judge checks
it by the balance sheet's own arithmetic (total - noncontrolling interests = the company's)."""

from __future__ import annotations

from _reasoning_data import evidence
from finqa.agents.config import Settings
from finqa.agents.judge import JudgeAgent
from finqa.agents.judge.owners_equity import (
    asked_income_owners,
    asked_owners,
    equity_splits,
    income_splits,
    wrong_owners,
)
from finqa.agents.reasoning import build_reasoner
from finqa.agents.reasoning.offline.book import Book
from finqa.agents.types import Answer, Calculation, Operand
from finqa.lexicon.arith import evaluate
from finqa.lexicon.conventions import stated_conventions
from finqa.lexicon.metrics import display_value
from finqa.lexicon.statements import MemoryStatementStore, read_pages

DOC = "ACME_2022_10K"

INCOME = """ACME CORP
CONSOLIDATED STATEMENTS OF INCOME
(in millions, except per share data)
Fiscal Years Ended December 31,
2022 2021
Net sales 45,754 43,004
Income before income taxes 14,000 13,900
Provision for income taxes 3,351 3,197
Consolidated net income 10,649 10,703
Consolidated net income attributable to noncontrolling interest (649) (703)
Consolidated net income attributable to Acme 10,000 10,000
"""

BALANCE = """ACME CORP
CONSOLIDATED BALANCE SHEETS
(in millions)
As of December 31,
2022 2021
Cash and cash equivalents 14,760 17,741
Total current assets 81,070 90,067
Total assets 144,860 152,496
Total current liabilities 47,379 52,645
Long-term debt 34,864 41,194
Total liabilities 64,860 72,496
Equity:
Common stock 276 282
Retained earnings 39,724 39,718
Total Acme shareholders' equity 40,000 40,000
Noncontrolling interest 40,000 40,000
Total equity 80,000 80,000
Total liabilities and equity 144,860 152,496
"""

# one equity line: the company's and the total are the same figure
# 'Equity attributable to ...' rows, as Coca-Cola prints them
OWNERS_WORDED = BALANCE.replace(
    "Total Acme shareholders' equity", "Equity Attributable to Shareowners of Acme"
).replace(
    "Noncontrolling interest 40,000", "Equity attributable to noncontrolling interests 40,000"
)

SINGLE = BALANCE.replace("Total Acme shareholders' equity 40,000 40,000\n", "").replace(
    "Noncontrolling interest 40,000 40,000\n", ""
)

# no subtotal of the company's own: components, noncontrolling interests, 'Total equity' (as
# Verizon and Foot Locker print it); the company's equity is 80,000 - 40,000
COMPONENTS = BALANCE.replace("Total Acme shareholders' equity 40,000 40,000\n", "").replace(
    "Retained earnings 39,724 39,718",
    "Retained earnings 39,724 39,718\nTreasury stock, at cost 0 0",
)

# 'Total stockholders' equity' is the total here; its figures glued to its caption, the grand
# total printed bare below it (as the text of some filers' pages reads)
GLUED = BALANCE.replace(
    "Total equity 80,000 80,000\nTotal liabilities and equity 144,860 152,496\n",
    "Total stockholders' equity 80,000 80,000\n$ 144,860 $ 152,496\n",
)


def _store(*pages: str) -> MemoryStatementStore:
    return MemoryStatementStore(read_pages(DOC, list(enumerate(pages, start=40))).tables)


def _items(store: MemoryStatementStore) -> dict[str, str | None]:
    return {f.label: f.item for t in store.tables(DOC) if t.statement == "balance" for f in t.facts}


class TestEquityByLayout:
    """The statement model tells the company's equity and total equity apart by their layout."""

    def test_parent_nci_total_rows(self) -> None:
        """Parent's row + noncontrolling interests = total: parent is shareholders' equity, the
        total row (captioned 'Total equity') is total equity."""
        items = _items(_store(BALANCE))
        assert items["Total Acme shareholders' equity"] == "shareholders_equity"
        assert items["Total equity"] == "total_equity"

    def test_equity_attributable_rows(self) -> None:
        """'Equity attributable to noncontrolling interests' is the noncontrolling interests'
        row: the row above is the company's equity, 'Total equity' the total."""
        items = _items(_store(OWNERS_WORDED))
        assert items["Equity Attributable to Shareowners of Acme"] == "shareholders_equity"
        assert items["Total equity"] == "total_equity"

    def test_one_equity_line_stays_shareholders_equity(self) -> None:
        """Without noncontrolling interests, 'Total equity' is the company's equity."""
        assert _items(_store(SINGLE))["Total equity"] == "shareholders_equity"

    def test_total_with_its_figures_glued_to_its_caption(self) -> None:
        """'Total stockholders' equity 80,000 80,000' then '$ 144,860': the caption's own figures
        are the total equity, the bare figures an uncaptioned row."""
        store = _store(GLUED)
        facts = [f for t in store.tables(DOC) if t.statement == "balance" for f in t.facts]
        total = [f for f in facts if f.item == "total_equity"]
        assert total and {f.filed_value for f in total} == {80000.0}
        assert total[0].label == "Total stockholders' equity"

    def test_total_below_noncontrolling_interests_without_a_parent_subtotal(self) -> None:
        """Components, then noncontrolling interests, then 'Total equity': the total includes
        them (the company's own equity is printed nowhere)."""
        items = _items(_store(COMPONENTS))
        assert items["Total equity"] == "total_equity"
        assert items["Noncontrolling interest"] == "noncontrolling_interest"

    def test_consolidated_caption_attributable_to_the_company(self) -> None:
        """'Consolidated net income attributable to Acme' is the company's net income."""
        store = _store(INCOME)
        items = {f.label: f.item for t in store.tables(DOC) for f in t.facts}
        assert items["Consolidated net income attributable to Acme"] == "net_income"
        assert items["Consolidated net income"] == "net_income_consolidated"


class TestReturnOnEquity:
    """ROE over the company's equity by default; over total equity when the question says so."""

    def test_book_reads_parent_equity(self) -> None:
        """Book.find('shareholders_equity') is the parent's 40,000, not the total 80,000."""
        book = Book(evidence(INCOME, BALANCE), _store(INCOME, BALANCE))
        found = book.find("shareholders_equity", 2022)
        assert found is not None and found.value == 40000
        whole = book.find("total_equity", 2022)
        assert whole is not None and whole.value == 80000

    def test_roe_over_parent_equity(self) -> None:
        """ROE = 10,000 / 40,000 = 25.0% (not 10,649 / 80,000 = 13.3%), shown as a percent."""
        ans = build_reasoner(Settings(), statements=_store(INCOME, BALANCE)).generate(
            "What was Acme's return on equity in FY2022, based on year-end equity?",
            evidence(INCOME, BALANCE),
            1,
        )
        assert not ans.abstained
        assert "25.0%" in ans.text and "13.3%" not in ans.text

    def test_roe_over_total_equity_less_noncontrolling_interests(self) -> None:
        """No parent's subtotal printed: the company's equity is derived, 80,000 - 40,000 =
        40,000 (catalogue `read: derive`), and both lines are shown; ROE 25.0%, not 12.5%."""
        store = _store(INCOME, COMPONENTS)
        book = Book(evidence(INCOME, COMPONENTS), store)
        assert book.find("shareholders_equity", 2022) is None  # the total is not it
        ans = build_reasoner(Settings(), statements=store).generate(
            "What was Acme's return on equity in FY2022, based on year-end equity?",
            evidence(INCOME, COMPONENTS),
            1,
        )
        assert not ans.abstained and "25.0%" in ans.text, ans.text
        assert "total equity" in ans.text.lower() and "noncontrolling" in ans.text.lower()

    def test_judge_accepts_equity_derived_as_total_less_noncontrolling_interests(self) -> None:
        """The question states the company's equity as total equity less noncontrolling
        interests ('Use ...', an instruction, names no part of net income); the derived 25.0%
        is accepted, the total's 12.5% never given."""
        q = (
            "What was Acme's FY2022 return on equity? Use net income attributable to Acme "
            "divided by year-end equity attributable to Acme (total equity less noncontrolling "
            "interests)."
        )
        store, ev = _store(INCOME, COMPONENTS), evidence(INCOME, COMPONENTS)
        ans = build_reasoner(Settings(), statements=store).generate(q, ev, 1)
        verdict = JudgeAgent(Settings(), statements=store).evaluate(q, ans, ev, 1)
        assert "25.0%" in ans.text and "12.5%" not in ans.text, ans.text
        assert verdict.decision == "accept", verdict

    def test_total_equity_question_gets_consolidated_convention(self) -> None:
        """'using total equity': consolidated net income over total equity, 10,649 / 80,000."""
        ans = build_reasoner(Settings(), statements=_store(INCOME, BALANCE)).generate(
            "What was Acme's return on equity in FY2022 using year-end total equity?",
            evidence(INCOME, BALANCE),
            1,
        )
        assert not ans.abstained and "13.3%" in ans.text
        assert "including noncontrolling interests" in ans.text

    def test_judge_accepts_the_stated_consolidated_convention(self) -> None:
        """The judge's second route takes the owners the question states: 10,649 / 80,000 is
        corroborated for 'total equity', not contested by the company's 25.0%."""
        q = "What was Acme's return on equity in FY2022 using year-end total equity?"
        store, ev = _store(INCOME, BALANCE), evidence(INCOME, BALANCE)
        ans = build_reasoner(Settings(), statements=store).generate(q, ev, 1)
        verdict = JudgeAgent(Settings(), statements=store).evaluate(q, ans, ev, 1)
        assert "13.3%" in ans.text and verdict.decision == "accept"

    def test_stated_convention(self) -> None:
        """'total equity' / 'including noncontrolling interests' state the consolidated
        convention; 'total shareholders' equity' does not."""
        assert stated_conventions("ROE on total equity").owners == "consolidated"
        assert stated_conventions("ROE including noncontrolling interests").owners == (
            "consolidated"
        )
        assert stated_conventions("ROE on total shareholders' equity").owners is None

    def test_convention_set_aside_is_not_stated(self) -> None:
        """The consolidated figures named to be set aside ('not consolidated net income
        including noncontrolling interests', 'rather than total equity') state the company's
        convention, not the consolidated one; named alone they state it."""
        assert (
            stated_conventions(
                "net margin using net income attributable to Acme (not consolidated net income "
                "including noncontrolling interests) over net revenues"
            ).owners
            is None
        )
        assert (
            stated_conventions("ROE on shareholders' equity rather than total equity").owners
            is None
        )
        assert (
            stated_conventions("net margin using consolidated net income").owners == "consolidated"
        )

    def test_total_equity_less_noncontrolling_interests_is_the_company_s(self) -> None:
        """'total equity' inside words that take the noncontrolling interests out, or give the
        company's share, names the parent's equity: no consolidated convention."""
        for q in (
            "ROE on average equity attributable to Acme (total equity less noncontrolling "
            "interests)",
            "ROE on total equity attributable to Acme Corp",
            "ROE on total equity, excluding noncontrolling interests",
            "net margin using consolidated net income attributable to Acme over revenue",
        ):
            assert stated_conventions(q).owners is None, q
        assert (
            stated_conventions(
                "ROE on total equity attributable to noncontrolling interests and Acme"
            ).owners
            == "consolidated"
        )


class TestPercentDisplay:
    def test_return_shown_as_percent(self) -> None:
        """A return is quoted as a percent, '28.8%'; at an asked precision, the ratio with its
        percent beside it at that precision too: '0.29 (28.78%)' ('to two decimals' of a return
        quoted as a percent may mean either)."""
        assert display_value(0.2878, "ratio", metric="roe") == "28.8%"
        assert display_value(0.2878, "ratio", 2, metric="roe") == "0.29 (28.78%)"
        assert display_value(0.010475, "ratio", 2, metric="roa") == "0.010 (1.05%)"
        assert display_value(1.2345, "ratio", metric="current_ratio") == "1.23"


def _roe_answer(equity: float, label: str, net: float = 10000.0) -> Answer:
    ops = (
        Operand(
            name="net_income_fy2022",
            value=net,
            text=f"Net income {net:,.0f}",
            scale=1e6,
            period="FY2022",
            source_id="S1",
        ),  # fmt: skip
        Operand(
            name="shareholders_equity_fy2022",
            value=equity,
            text=f"{label} {equity:,.0f}",
            scale=1e6,
            period="FY2022",
            source_id="S2",
        ),  # fmt: skip
    )
    expr = "net_income_fy2022 / shareholders_equity_fy2022"
    result = evaluate(expr, {o.name: o.value for o in ops})
    calc = Calculation(expression=expr, operands=ops, result=result, unit="ratio")
    text = f"FY2022 return on equity: {result:.2f} [S1][S2]."
    return Answer(text=text, calculations=(calc,))


class TestJudgeOwnRoute:
    """The judge reads the balance sheet's own arithmetic, not the reasoner's reading."""

    def test_splits_from_the_balance_sheet(self) -> None:
        """Total 80,000 - NCI 40,000 = parent 40,000, by arithmetic, whatever the captions."""
        [split, *_] = equity_splits(_store(GLUED), DOC)
        assert (split.parent, split.nci, split.total) == (40000.0, 40000.0, 80000.0)

    def test_default_rejects_total_equity(self) -> None:
        """An ROE over 80,000 ('Total stockholders' equity': a caption naming owners) is the
        total with noncontrolling interests where the company's equity is asked."""
        splits = equity_splits(_store(GLUED), DOC)
        assert asked_owners("What was Acme's ROE in FY2022?", "roe") == "company"
        assert wrong_owners("company", [10000.0, 80000.0], splits) is not None
        assert wrong_owners("company", [10000.0, 40000.0], splits) is None
        assert asked_owners("Acme's ROE using total equity?", "roe") == "consolidated"
        assert wrong_owners("consolidated", [10649.0, 40000.0], splits) is not None

    def test_judge_does_not_accept_roe_over_total_equity(self) -> None:
        """The judge marks the ROE over total equity as another metric and does not accept it;
        the same answer over the parent's equity keeps its figure verified."""
        q = "What was Acme's return on equity in FY2022, based on year-end equity?"
        store = _store(INCOME, GLUED)
        ev = evidence(INCOME, GLUED)
        judge = JudgeAgent(Settings(), statements=store)
        wrong = judge.evaluate(q, _roe_answer(80000.0, "Total stockholders' equity"), ev, 1)
        right = judge.evaluate(q, _roe_answer(40000.0, "Total Acme shareholders' equity"), ev, 1)
        statuses = [n["status"] for n in wrong.details["numbers"]]
        assert "calc_other_metric" in statuses
        assert wrong.decision != "accept"
        assert "calc_other_metric" not in [n["status"] for n in right.details["numbers"]]


EQUITY_WIDE = """ACME CORP
CONSOLIDATED STATEMENTS OF EQUITY
(Dollars in millions)
Common stock Retained earnings Noncontrolling interests Total
Balance at January 1, 2022 $5,061 ($1,000) $153 $4,214
Net loss (4,935) (5,053)
Share-based compensation 725 725
Other changes in noncontrolling interests (118) (118)
Balance at December 31, 2022 $5,786 ($5,935) $35 ($114)
"""

EQUITY_TOTAL_FIRST = """ACME CORP
CONSOLIDATED STATEMENTS OF EQUITY
(Dollars in millions)
Total Retained earnings Common stock Treasury stock
Balance at December 31, 2021 $68,774 153,843 3,120 (88,189)
Net earnings 7,941 7,941 — —
Balance at December 31, 2022 $76,715 161,784 3,120 (88,189)
"""


def _balances(page: str) -> dict[str, float]:
    tables = read_pages(DOC, [(60, page)]).tables
    return {
        f.period.key: f.filed_value
        for t in tables
        if t.statement == "equity"
        for f in t.facts
        if f.period.instant
    }


class TestEquityStatementTotal:
    """An equity statement's balances are read from its total column, found by arithmetic."""

    def test_balance_rows_wider_than_the_movements(self) -> None:
        """Balance rows print every column (movements lose their empty ones): the total is the
        cell that is the sum of the others, -114 and 4,214."""
        assert _balances(EQUITY_WIDE) == {"FY2021@end": 4214.0, "FY2022@end": -114.0}

    def test_total_column_first(self) -> None:
        """'Total' printed first: the balance is 76,715, not the last column's (88,189)."""
        got = _balances(EQUITY_TOTAL_FIRST)
        assert got.get("FY2022@end") == 76715.0 and got.get("FY2021@end") == 68774.0

    def test_total_after_share_count_columns(self) -> None:
        """Share counts printed before the amounts ('305 $— 1,266 $3 $11,484 ... $15,281'): the
        total is the sum of the amounts right before it."""
        page = """ACME CORP
CONSOLIDATED STATEMENTS OF SHAREHOLDERS' EQUITY
(In millions)
SHARES AMOUNT SHARES AMOUNT CAPITAL RETAINED EARNINGS TOTAL
Balance at May 31, 2022 305 $— 1,266 $3 $11,484 $3,794 $15,281
Net income 5,070 5,070
Stock-based compensation 755 755
Dividends (2,059) (2,059)
Balance at May 31, 2023 305 $— 1,266 $3 $12,239 $6,805 $19,047
"""
        got = _balances(page)
        assert got.get("FY2022@end") == 15281.0 and got.get("FY2023@end") == 19047.0

    def test_quarterly_statement_of_equity(self) -> None:
        """A 10-Q's statement of equity under one quarter's header: its balances are the
        quarters' ends (2025Q1@end, 2025Q2@end) and the year's end (FY2024@end), the total
        printed first."""
        page = """ACME CORP
CONSOLIDATED STATEMENTS OF EQUITY
(Unaudited; Dollars in Millions)
Fiscal Second Quarter Ended June 29, 2025
Total Retained Earnings Accumulated Other Comprehensive Income Treasury Stock Amount
Balance, March 30, 2025 $78,109 162,635 (8,620) (75,906)
Net earnings 5,537 5,537 — —
Cash dividends paid (3,129) (3,129) — —
Other comprehensive income (loss), net of tax (2,565) — (2,565) —
Balance, June 29, 2025 $77,952 165,043 (11,185) (75,906)
Fiscal Six Months Ended June 29, 2025
Total Retained Earnings Accumulated Other Comprehensive Income Treasury Stock Amount
Balance, December 29, 2024 $71,490 155,791 (8,621) (75,680)
Net earnings 16,536 16,536 — —
Other comprehensive income (loss), net of tax (2,564) — (2,564) —
Repurchase of common stock (7,510) (7,284) — (226)
Balance, June 29, 2025 $77,952 165,043 (11,185) (75,906)
"""
        got = _balances(page)
        assert got.get("2025Q1@end") == 78109.0 and got.get("2025Q2@end") == 77952.0
        assert got.get("FY2024@end") == 71490.0

    def test_continued_statement_takes_the_first_pages_scale(self) -> None:
        """The statement of equity's second page, printed without '(Dollars in Millions)', is
        in millions like its first."""
        first = """ACME CORP
CONSOLIDATED STATEMENTS OF EQUITY
(Dollars in Millions)
Total Retained Earnings Common Stock Treasury Stock
Balance at December 31, 2022 $68,774 153,843 3,120 (88,189)
Net earnings 7,941 7,941 — —
Balance at December 31, 2023 $76,715 161,784 3,120 (88,189)
"""
        second = """CONSOLIDATED STATEMENTS OF EQUITY (continued)
Total Retained Earnings Common Stock Treasury Stock
Balance at December 31, 2023 $76,715 161,784 3,120 (88,189)
Net earnings 8,000 8,000 — —
Balance at December 31, 2024 $84,715 169,784 3,120 (88,189)
"""
        tables = read_pages(DOC, [(60, first), (61, second)]).tables
        got = {
            f.period.key: f.value
            for t in tables
            if t.statement == "equity" and t.page == 61
            for f in t.facts
            if f.period.instant
        }
        assert got.get("FY2024@end") == 84715e6


# the company's share and the noncontrolling interests' listed under 'attributable to:', the
# company's row captioned by its name only
INCOME_ATTRIBUTED = """ACME CORP
CONSOLIDATED STATEMENTS OF INCOME
(in millions, except per share data)
Fiscal Years Ended December 31,
2022 2021
Net sales 45,754 43,004
Income before income taxes 14,000 13,900
Provision for income taxes 3,351 3,197
Net income 10,649 10,703
Net income attributable to:
Acme Corp 10,000 10,000
Noncontrolling interests 649 703
"""

INCOME_NO_NCI = INCOME.replace(
    "Consolidated net income attributable to noncontrolling interest (649) (703)\n", ""
).replace("Consolidated net income attributable to Acme 10,000 10,000\n", "")


def _margin_answer(net: float, label: str) -> Answer:
    ops = (
        Operand(
            name="net_income_fy2022",
            value=net,
            text=f"{label} {net:,.0f}",
            scale=1e6,
            period="FY2022",
            source_id="S1",
        ),
        Operand(
            name="revenue_fy2022",
            value=45754.0,
            text="Net sales 45,754",
            scale=1e6,
            period="FY2022",
            source_id="S1",
        ),
    )
    expr = "net_income_fy2022 / revenue_fy2022 * 100"
    result = evaluate(expr, {o.name: o.value for o in ops})
    calc = Calculation(expression=expr, operands=ops, result=result, unit="percent")
    return Answer(text=f"FY2022 net profit margin: {result:.1f}% [S1].", calculations=(calc,))


class TestNetIncomeOwnersByArithmetic:
    """The judge tells the consolidated net income from the company's share by the income
    statement's arithmetic (total - noncontrolling interests' share = the company's share),
    not by the captions the reasoner read."""

    def test_splits_below_and_under_attributable_to(self) -> None:
        [split, *_] = income_splits(_store(INCOME), DOC)
        assert (split.total, split.nci, split.parent) == (10649.0, 649.0, 10000.0)
        [split, *_] = income_splits(_store(INCOME_ATTRIBUTED), DOC)
        assert (split.total, split.nci, split.parent) == (10649.0, 649.0, 10000.0)
        assert split.parent_label.endswith("Acme Corp")

    def test_no_noncontrolling_interests_no_split(self) -> None:
        assert income_splits(_store(INCOME_NO_NCI), DOC) == []

    def test_asked_owners_of_net_income(self) -> None:
        assert asked_income_owners("Acme's FY2022 net profit margin?", "net_margin") == "company"
        assert (
            asked_income_owners(
                "Acme's FY2022 net margin on consolidated net income?", "net_margin"
            )
            == "consolidated"
        )
        assert asked_income_owners("Acme's FY2022 gross margin?", "gross_margin") is None

    def test_judge_does_not_accept_a_margin_on_consolidated_net_income(self) -> None:
        """Whichever layout prints the split, a margin on 10,649 is not accepted where the
        company's 10,000 is the convention; on 10,000 it is; asked on consolidated net income,
        the verdict turns the other way."""
        q = "What was Acme's net profit margin in FY2022?"
        for page in (INCOME, INCOME_ATTRIBUTED):
            judge = JudgeAgent(Settings(), statements=_store(page))
            ev = evidence(page)
            wrong = judge.evaluate(q, _margin_answer(10649.0, "Net income"), ev, 1)
            details = [n.get("detail", "") for n in wrong.details["numbers"]]
            assert wrong.decision != "accept"
            assert any("another owners' net income" in d for d in details), details
            right = judge.evaluate(q, _margin_answer(10000.0, "Acme Corp"), ev, 1)
            assert "calc_other_metric" not in [n["status"] for n in right.details["numbers"]]
        splits = income_splits(_store(INCOME_ATTRIBUTED), DOC)
        assert wrong_owners("consolidated", [10000.0, 45754.0], splits) is not None
        assert wrong_owners("consolidated", [10649.0, 45754.0], splits) is None

    def test_reader_lists_the_owners_shares_under_the_total(self) -> None:
        """'Net income' / 'Net income attributable to: Acme Corp' / 'Noncontrolling interests':
        the first is the consolidated total, the company's share is read as net income, and a
        lookup of net income does not take the total by its caption."""
        store = _store(INCOME_ATTRIBUTED)
        items = {
            f.label: f.item for t in store.tables(DOC) if t.statement == "income" for f in t.facts
        }
        assert items["Net income"] == "net_income_consolidated"
        assert items["Noncontrolling interests"] == "noncontrolling_interest_income"
        assert {f.filed_value for f in store.lookup(DOC, "net_income", 2022)} == {10000.0}
        # a caption asked still finds its line by its letters
        assert {f.filed_value for f in store.lookup(DOC, "Net income", 2022)} == {10649.0}
