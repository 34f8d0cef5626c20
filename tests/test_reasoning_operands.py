"""Whole operands: net income is the company's share by default; a share count is never EPS."""

from __future__ import annotations

from _reasoning_data import evidence
from finqa.agents.config import Settings
from finqa.agents.reasoning import build_reasoner
from finqa.agents.reasoning.offline.book import Book
from finqa.lexicon.statements import MemoryStatementStore, read_pages

DOC = "ACME_2022_10K"
PROSE = "Management's discussion. Revenue grew on higher volumes and pricing across regions."

MINORITY = """ACME CORP
CONSOLIDATED STATEMENTS OF INCOME
(in millions, except per share data)
Year Ended December 31,
2022 2021
Net sales 45,754 43,004
Consolidated net income 10,649 10,703
Less: Net income attributable to noncontrolling interests 18 (11)
Net income attributable to shareowners of Acme Corp 10,631 10,714
Weighted-average number of shares outstanding:
Basic 4,309 4,323
Diluted 4,320 4,339
"""


def _store() -> MemoryStatementStore:
    return MemoryStatementStore(read_pages(DOC, [(40, MINORITY)]).tables)


class TestAttributableNetIncome:
    """Net income is read after noncontrolling interests; consolidated only when asked."""

    def test_book_reads_the_companys_share(self) -> None:
        """Book.find('net_income') gives 10,631 (attributable), not 10,649 (consolidated)."""
        book = Book(evidence(MINORITY), _store())
        found = book.find("net_income", 2022)
        assert found is not None and found.value == 10631

    def test_consolidated_when_the_question_says_so(self) -> None:
        """Book.find('net_income_consolidated') gives the consolidated 10,649."""
        book = Book(evidence(MINORITY), _store())
        found = book.find("net_income_consolidated", 2022)
        assert found is not None and found.value == 10649

    def test_consolidated_question_reads_the_consolidated_line(self) -> None:
        """'Consolidated net income' in the question gives 10,649."""
        ans = build_reasoner(Settings(), statements=_store()).generate(
            "What was Acme's consolidated net income in FY2022?", evidence(PROSE), 1
        )
        assert not ans.abstained and "10,649" in ans.text

    def test_answer_names_the_convention(self) -> None:
        """The answer gives 10,631 and says it is attributable to the company's shareholders."""
        ans = build_reasoner(Settings(), statements=_store()).generate(
            "What was Acme's net income in FY2022?", evidence(PROSE), 1
        )
        assert not ans.abstained and "10,631" in ans.text
        assert "attributable to the company's shareholders" in ans.text


class TestShareCountIsNotEps:
    """A bare 'Diluted' under weighted-average shares is a share count, never diluted EPS."""

    def test_diluted_eps_abstains_rather_than_read_the_count(self) -> None:
        """With only the share count printed, diluted EPS is not answered with 4,320."""
        ans = build_reasoner(Settings(), statements=_store()).generate(
            "What was Acme's diluted EPS in FY2022?", evidence(MINORITY), 1
        )
        assert "4,320" not in ans.text and "4320" not in ans.text


DASHED_EPS = """ACME CORP
CONSOLIDATED STATEMENTS OF INCOME
Millions, Except Per Share Amounts, for the Years Ended December 31,
2024 2023
Total operating revenues 24,250 24,119
Net income 6,747 6,379
Share and Per Share
Earnings per share - basic $11.10 $10.47
Earnings per share - diluted $11.09 $10.45
Weighted average number of shares - basic 607.9 609.0
Weighted average number of shares - diluted 608.6 610.2
"""


class TestDashedPerShareCaptions:
    """'Earnings per share - diluted' is diluted EPS; the diluted share count is not."""

    def test_diluted_eps_from_a_dashed_caption(self) -> None:
        """Diluted EPS FY2024 is $11.09, never the 608.6 million diluted shares."""
        store = MemoryStatementStore(read_pages("ACME_2024_10K", [(40, DASHED_EPS)]).tables)
        ans = build_reasoner(Settings(), statements=store).generate(
            "What was Acme's diluted EPS in FY2024?", evidence(PROSE, doc="ACME_2024_10K"), 1
        )
        assert not ans.abstained and "11.09" in ans.text and "608.6" not in ans.text


class TestOneFactCountedOnce:
    """The tag and the text row of one balance-sheet line are one operand, never summed."""

    def test_tagged_and_printed_long_term_debt_once(self) -> None:
        """Long-term debt 5,000 tagged and printed on one page is 5,000, not 10,000."""
        from finqa.lexicon.model import StatementFact, StatementPeriod, StatementTable

        end = StatementPeriod(label="December 31, 2022", fiscal_year=2022, months=0, instant=True)

        def table(tid: str, source: str, label: str, item: str | None) -> StatementTable:
            fact = StatementFact(
                doc_id=DOC, statement="balance", table_id=tid, label=label, item=item,
                period=end, value=5000e6, scale=1e6, page=9, source=source,  # type: ignore[arg-type]
            )  # fmt: skip
            return StatementTable(
                table_id=tid, doc_id=DOC, statement="balance", title="Balance Sheets",
                pages=(9,), scale=1e6, periods=(end,), facts=(fact,), source=source,  # type: ignore[arg-type]
            )  # fmt: skip

        store = MemoryStatementStore(
            [
                table("xbrl-balance", "xbrl", "us-gaap:LongTermDebtNoncurrent", "long_term_debt"),
                table("p9-t0", "text", "Long-term debt", "long_term_debt"),
            ]
        )
        found = Book(evidence(PROSE), store).find_summed("long_term_debt", 2022)
        assert [f.value for f in found] == [5000]

    def test_one_line_on_two_pages_once(self) -> None:
        """Long-term debt 5,000 printed on a statement's page and again on the next page (a
        statement over two pages repeating the line) is 5,000, not 10,000."""
        from finqa.lexicon.model import StatementFact, StatementPeriod, StatementTable

        end = StatementPeriod(label="December 31, 2022", fiscal_year=2022, months=0, instant=True)

        def table(page: int) -> StatementTable:
            fact = StatementFact(
                doc_id=DOC, statement="balance", table_id=f"p{page}-t0", label="Long-term debt",
                item="long_term_debt", period=end, value=5000e6, scale=1e6, page=page,
            )  # fmt: skip
            return StatementTable(
                table_id=f"p{page}-t0", doc_id=DOC, statement="balance", title="Balance Sheets",
                pages=(page,), scale=1e6, periods=(end,), facts=(fact,),
            )  # fmt: skip

        store = MemoryStatementStore([table(9), table(10)])
        found = Book(evidence(PROSE), store).find_summed("long_term_debt", 2022)
        assert [f.value for f in found] == [5000]


SPLIT_COSTS = """ACME CORP
CONSOLIDATED STATEMENTS OF INCOME
(in millions)
Year Ended December 31,
2022 2021
Revenues 10,000 9,000
Cost of products 4,000 3,600
Cost of services 2,000 1,900
Selling, general and administrative 1,500 1,400
Operating income 2,500 2,100
"""


class TestSplitCostOfRevenue:
    """A filer that splits cost of revenue into products and services: the operand is their sum."""

    def test_gross_margin_over_both_cost_lines(self) -> None:
        """Gross margin FY2022 is (10,000 - 4,000 - 2,000) / 10,000 = 40.0%, not 60% or 80%."""
        store = MemoryStatementStore(read_pages(DOC, [(40, SPLIT_COSTS)]).tables)
        ans = build_reasoner(Settings(), statements=store).generate(
            "What was Acme's gross margin in FY2022?", evidence(PROSE), 1
        )
        assert not ans.abstained and "40.0%" in ans.text
        assert "Cost of products" in ans.text and "Cost of services" in ans.text
