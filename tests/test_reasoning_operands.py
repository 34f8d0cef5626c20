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
