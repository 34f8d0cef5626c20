"""Comparison across segments: a breakdown is found where the parts add up to the consolidated line."""

from __future__ import annotations

from _reasoning_data import INCOME, evidence
from finqa.agents.config import Settings
from finqa.agents.reasoning import build_reasoner
from finqa.agents.reasoning.offline.book import Book
from finqa.agents.reasoning.offline.segments import breakdown
from finqa.lexicon.statements import MemoryStatementStore, read_pages

DOC = "ACME_2022_10K"
SEGMENTS = """Note 18. Segment Information
Business Segment Information
(in millions)
2022 2021 2020
Beverages 50,000 45,000 40,000
Snacks 30,000 28,000 25,000
Foodservice 6,500 6,574 5,472
Eliminations (108) (100) (100)
Total net revenue 86,392 79,474 70,372
Operating profit
Beverages 5,000 5,000 4,500
Snacks 4,000 4,000 3,800
Foodservice 2,512 2,162 1,780
Total operating profit 11,512 11,162 10,080
"""
OFF_BY_ONE = SEGMENTS.replace("Snacks 30,000", "Snacks 31,000")
PROSE = "Our segments performed well this year across every market we serve."


def ask(question: str, *pages: tuple[int, str]):  # type: ignore[no-untyped-def]
    store = MemoryStatementStore(read_pages(DOC, [(50, INCOME), *pages]).tables)
    return build_reasoner(Settings(), statements=store).generate(
        question, evidence(PROSE, doc=DOC, question=question), 1
    )


class TestBreakdown:
    def test_parts_that_add_up_to_revenue(self) -> None:
        """Lines adding up to a total equal to the income statement's revenue are its breakdown."""
        store = MemoryStatementStore(read_pages(DOC, [(50, INCOME), (90, SEGMENTS)]).tables)
        found = breakdown(Book(evidence(PROSE), store), "revenue", 2022)
        assert found is not None
        assert [p.label for p in found.parts] == ["Beverages", "Snacks", "Foodservice", "Eliminations"]  # fmt: skip

    def test_parts_that_do_not_add_up_are_no_breakdown(self) -> None:
        """A table whose lines miss the consolidated total by more than the tolerance is not used."""
        store = MemoryStatementStore(read_pages(DOC, [(50, INCOME), (90, OFF_BY_ONE)]).tables)
        assert breakdown(Book(evidence(PROSE), store), "revenue", 2022) is None


class TestSegmentQuestions:
    def test_share_above_threshold_yes(self) -> None:
        """Segments above 20% of revenue are named with every part's share: Yes."""
        a = ask("Are there any product categories that represent more than 20% of Acme's revenue for FY2022?", (90, SEGMENTS))  # fmt: skip
        assert a.text.startswith("Yes. Beverages, Snacks each represent more than 20%")
        assert "Foodservice: 7.5%" in a.text and "Eliminations" not in a.text.split("Shares")[0]

    def test_share_above_threshold_no(self) -> None:
        """With a 60% threshold no segment qualifies: the verdict comes out No."""
        a = ask(
            "Does any segment represent more than 60% of Acme's FY2022 revenue?", (90, SEGMENTS)
        )
        assert a.text.startswith("No.")

    def test_highest_and_lowest_segment(self) -> None:
        """Which segment had the highest / lowest revenue names it, never the eliminations line."""
        hi = ask("Which segment had the highest revenue for Acme in FY2021?", (90, SEGMENTS))
        lo = ask("Which segment had the lowest revenue for Acme in FY2021?", (90, SEGMENTS))
        assert hi.text.startswith("Beverages.") and lo.text.startswith("Foodservice.")

    def test_operating_income_breakdown(self) -> None:
        """Asked about operating profit, the parts that add up to operating income are compared."""
        a = ask("Which segment had the lowest operating income for Acme in FY2022?", (90, SEGMENTS))
        assert a.text.startswith("Foodservice.") and "$2,512 million" in a.text

    def test_segment_profit_names_the_consolidated_line(self) -> None:
        """'segment profit' (a catalogue segment metric) is the breakdown of operating income."""
        a = ask("Which reporting segment had the highest segment profit for Acme in FY2022?", (90, SEGMENTS))  # fmt: skip
        assert a.text.startswith("Beverages.") and "$5,000 million" in a.text

    def test_without_a_breakdown_no_segment_is_named(self) -> None:
        """When no table adds up to revenue the question is not answered from a guess."""
        a = ask("Which segment had the highest revenue for Acme in FY2022?", (90, OFF_BY_ONE))
        assert not a.text.startswith(("Beverages", "Snacks"))
