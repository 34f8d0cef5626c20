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


NOTES_HEAD = "Notes to the Consolidated Financial Statements\n(Dollars in millions, except otherwise stated)\n"


def items(page: str) -> dict[str, tuple[str | None, float]]:
    read = read_pages("ACME_10K", [(40, page)])
    return {f.period.key: (f.item, f.value) for t in read.tables for f in t.facts}


class TestPaymentSentences:
    """Income taxes and interest paid as filers state them in their notes' sentences."""

    def test_a_second_list_is_a_part_of_the_first(self) -> None:
        """'We made income tax payments of $A, $B and $C in <years>, respectively, which included
        $a, $b and $c, respectively, of ...' gives the payments, the part not read as them."""
        s = (
            "We made income tax payments of $3,262 million, $2,580 million and $2,403 million in "
            "2024, 2023 and 2022, respectively, which included $964 million, $723 million and "
            "$385 million, respectively, of the one-time transition tax."
        )
        table = read_sentences("ACME_10K", [(7, s)])[0]
        assert table.labels == ("Income tax payments",)
        assert {f.period.key: (f.item, f.value) for f in table.facts} == {
            "FY2024": ("income_taxes_paid", 3262e6),
            "FY2023": ("income_taxes_paid", 2580e6),
            "FY2022": ("income_taxes_paid", 2403e6),
        }

    def test_lists_with_periods_of_their_own_are_not_read(self) -> None:
        """Two lists each followed by its own 'respectively' and periods: no pairing is read."""
        s = (
            "Interest income was $72 million and $154 million, respectively, for the three and six "
            "months ended June 30, 2025, and $63 million and $130 million, respectively, for the "
            "three and six months ended June 30, 2024."
        )
        assert facts(s) == {}

    def test_amounts_in_the_notes_scale(self) -> None:
        """In the notes under '(Dollars in millions...)', '$187, $204 and ($1,317)' are millions,
        and under a caption naming refunds in parentheses '($1,317)' is a net refund."""
        s = "Net income tax payments/(refunds) were $187, $204 and ($1,317) in 2024, 2023 and 2022, respectively."  # fmt: skip
        assert items(NOTES_HEAD + s) == {
            "FY2024": ("income_taxes_paid", 187e6),
            "FY2023": ("income_taxes_paid", 204e6),
            "FY2022": ("income_taxes_paid", -1317e6),
        }
        assert facts(s) == {}  # no notes head: no scale, nothing read

    def test_prices_take_no_notes_scale(self) -> None:
        """'$204.15 and $214.35' under the notes' head are prices, not millions: not read."""
        s = "The grant date fair values were $204.15 and $214.35 in 2024 and 2023, respectively."
        assert items(NOTES_HEAD + s) == {}

    def test_a_flow_as_of_its_years_ends(self) -> None:
        """'Cash paid for income taxes, net of refunds, was $18.9 billion ... as of December 31,
        2022, 2023, and 2024, respectively' are the three years' payments, the caption whole."""
        s = (
            "Cash paid for income taxes, net of refunds, was $18.9 billion, $19.2 billion, and "
            "$27.4 billion as of December 31, 2022, 2023, and 2024, respectively."
        )
        table = read_sentences("ACME_10K", [(7, s)])[0]
        assert table.labels == ("Cash paid for income taxes, net of refunds",)
        assert {f.period.key: (f.item, f.value) for f in table.facts} == {
            "FY2022": ("income_taxes_paid", 18.9e9),
            "FY2023": ("income_taxes_paid", 19.2e9),
            "FY2024": ("income_taxes_paid", 27.4e9),
        }
