"""The statement reader on real FinanceBench filings (skipped when ../shared/financebench is absent)."""

from __future__ import annotations

from pathlib import Path

import pytest
from finqa.lexicon.statements import MemoryStatementStore, primary_fact, read_pages
from shared_data import shared_or_skip

pytestmark = pytest.mark.financebench


def _pdf_pages(path: Path) -> list[tuple[int, str]]:
    from finqa.agents.retrieval.loaders import LoadedDoc, load_path

    doc = next(load_path(path))
    assert isinstance(doc, LoadedDoc)
    return list(doc.pages)


class TestRealFilings:
    def test_corning_balance_sheet(self, financebench_dir: Path) -> None:
        """Corning's FY2022 balance sheet reads total current assets $7,453 million on page 59."""
        pdf = financebench_dir / "pdfs" / "CORNING_2022_10K.pdf"
        shared_or_skip(pdf, "CORNING_2022_10K.pdf")
        read = read_pages("CORNING_2022_10K", _pdf_pages(pdf))
        store = MemoryStatementStore(read.tables)
        fact = primary_fact(store.lookup("CORNING_2022_10K", "Total current assets", 2022))
        assert fact is not None and (fact.value, fact.page, fact.period.key) == (
            7_453e6,
            59,
            "FY2022@end",
        )
        assert read.coverage > 0.7

    def test_ten_q_quarter_columns(self, financebench_dir: Path) -> None:
        """Best Buy's Q2 FY2024 10-Q: revenue of the quarter and the six months, in millions."""
        pdf = financebench_dir / "pdfs" / "BESTBUY_2024Q2_10Q.pdf"
        shared_or_skip(pdf, "BESTBUY_2024Q2_10Q.pdf")
        store = MemoryStatementStore(read_pages("BESTBUY_2024Q2_10Q", _pdf_pages(pdf)).tables)
        quarter = primary_fact(store.lookup("BESTBUY_2024Q2_10Q", "revenue", "2024Q2"))
        half = primary_fact(store.lookup("BESTBUY_2024Q2_10Q", "revenue", "2024M6"))
        assert quarter is not None and quarter.value == 9_583e6
        assert half is not None and half.value == 19_050e6
