"""Figures a filing pairs with their periods in one sentence ('..., respectively') are read into the model."""

from __future__ import annotations

from finqa.lexicon.statements import read_pages
from finqa.lexicon.statements.sentences import read_sentences


def facts(sentence: str, company: str | None = None) -> dict[str, float]:
    return {
        f.period.key: f.value for t in read_sentences("ACME_10K", [(7, sentence)], company) for f in t.facts
    }  # fmt: skip


class TestSentenceFigures:
    def test_years_respectively(self) -> None:
        """'$336 million, $375 million and $405 million for fiscal 2024, 2023 and 2022, respectively' gives three years."""
        s = "Amortization expense was $336 million, $375 million and $405 million for fiscal 2024, 2023 and 2022, respectively."  # fmt: skip
        assert facts(s) == {"FY2024": 336e6, "FY2023": 375e6, "FY2022": 405e6}
        table = read_sentences("ACME_10K", [(7, s)])[0]
        assert table.labels == ("Amortization expense",) and table.page == 7
        assert table.statement == "other" and "respectively" in table.notes[0]

    def test_periods_before_amounts(self) -> None:
        """'for fiscal 2025, 2024 and 2023 was $647 million, ...' pairs in order; the label drops the period phrase."""
        s = "Interest income for fiscal 2025, 2024 and 2023 was $647 million, $527 million and $1.2 billion, respectively."  # fmt: skip
        assert facts(s) == {"FY2025": 647e6, "FY2024": 527e6, "FY2023": 1.2e9}
        assert read_sentences("X", [(1, s)])[0].labels == ("Interest income",)

    def test_as_of_dates_are_balances(self) -> None:
        """'As of June 28, 2025 and September 28, 2024, ... $91.8 billion and $96.7 billion, respectively' are balances."""
        s = "As of June 28, 2025 and September 28, 2024, the Company had notes with a carrying amount of $91.8 billion and $96.7 billion, respectively."  # fmt: skip
        assert facts(s, "Apple") == {"2025Q3@end": 91.8e9, "FY2024@end": 96.7e9}

    def test_not_read(self) -> None:
        """No 'respectively', a scale not written, percents, or amounts not matching the periods: nothing is read."""
        for s in (
            "For the years ended 2023 and 2024, SBC expense was $19.5 billion and $22.8 billion.",
            "Amortization for the years ended December 31, 2024 and 2023 was $223 and $235, respectively.",
            "Revenue grew 5% and 6% in 2024 and 2023, respectively.",
            "Costs were $5 million and $6 million in 2024, respectively.",
            "Sales were $5 million in 2024 and costs were $6 million in 2023, respectively.",
        ):
            assert facts(s) == {}, s

    def test_read_with_the_filing(self) -> None:
        """`read_pages` adds the sentence figures of every page to the statement model."""
        page = "Note 5 Intangibles\nAmortization expense was $336 million and $375 million in 2024 and 2023, respectively.\n"  # fmt: skip
        read = read_pages("ACME_10K", [(40, page)])
        found = {f.period.key: f.value for t in read.tables for f in t.facts}
        assert found == {"FY2024": 336e6, "FY2023": 375e6}
