"""A part's figures where a filing does not print them as a row of its own: a country's revenue
stated in a sentence, and a part printed under the consolidated line's own word ('Sales')."""

from __future__ import annotations

from finqa.lexicon.statements.parts_grid import grid_part_tables

DOC = "ACME_2024_10K"


def _read(text: str) -> dict[tuple[str, str], float]:
    from finqa.lexicon.statements.part_sentences import country_sentence_parts

    return {
        (f.dimensions[0][1], f.period.key): f.value / 1e6
        for t in country_sentence_parts(DOC, [(7, text)], "Acme")
        for f in t.facts
    }


class TestCountryRevenueInASentence:
    """A sentence stating one country's revenue with its scale and periods gives its figures."""

    def test_two_runs_each_respectively(self) -> None:
        """'$4.6 billion and $8.9 billion, respectively, for the three and six months ended
        June 30, 2025, and ...': the quarter and the six months of both years."""
        text = (
            "Total U.S. revenues were $4.6 billion and $8.9 billion, respectively, for the "
            "three and six months ended June 30, 2025, and $4.0 billion and $7.9 billion, "
            "respectively, for the three and six months ended June 30, 2024."
        )
        got = _read(text)
        assert got[("country:US", "2025Q2")] == 4_600
        assert got[("country:US", "2025M6")] == 8_900
        assert got[("country:US", "2024Q2")] == 4_000

    def test_one_amount_one_year(self) -> None:
        """'... revenues from shipments to and from Mexico, which amounted to $3.0 billion in
        2024, up 8% compared to 2023': 2024 only (the comparison is no period of the amount)."""
        text = (
            "Freight revenues include revenues from shipments to and from Mexico, which "
            "amounted to $3.0 billion in 2024, up 8% compared to 2023."
        )
        assert _read(text) == {("country:MX", "FY2024"): 3_000}

    def test_a_change_is_no_level(self) -> None:
        """'Revenues in Mexico increased by $200 million in 2024' states a change, not revenue."""
        assert _read("Revenues in Mexico increased by $200 million in 2024.") == {}

    def test_two_countries_are_no_one_part(self) -> None:
        """'Revenues from Mexico and Canada were $3.0 billion in 2024': not one country's."""
        assert _read("Revenues from Mexico and Canada were $3.0 billion in 2024.") == {}

    def test_scale_must_be_written(self) -> None:
        """'$3,000 in 2024' without 'million' or 'billion' is not read."""
        assert _read("Revenues from Mexico were $3,000 in 2024.") == {}

    def test_amounts_without_their_order(self) -> None:
        """Two amounts and two years without 'respectively' are not paired by guess."""
        assert _read("Revenues from Mexico were $3.0 billion and $2.8 billion in 2024 and 2023.") == {}  # fmt: skip

    def test_periods_not_one_per_amount(self) -> None:
        """'$1.5 billion for both the six months ended June 30, 2025 and 2024' is skipped."""
        text = "Revenues from Mexico were $1.5 billion for both the six months ended June 30, 2025 and 2024."  # fmt: skip
        assert _read(text) == {}


class TestPartPrintedAsTheLine:
    """A row printed under the total's own line word is a part when it is one of the sum's."""

    def test_sales_row_among_offerings(self) -> None:
        """'Sales' above 'Service' and 'Platform and Other', all adding up to an uncaptioned
        total of the caption's revenues: Sales is a part, with its figure."""
        grid = [
            ["Fiscal Year Ended January 31,"],
            ["2025", "2024"],
            ["Sales", "$ 8,322", "$ 7,580"],
            ["Service", "9,054", "8,245"],
            ["Platform and Other", "7,247", "6,611"],
            ["$ 24,623", "$ 22,436"],
        ]
        text = "Subscription and support revenues by service offering consisted of the following (in millions):\nFiscal Year Ended January 31,\nSales $ 8,322"  # fmt: skip
        tables = grid_part_tables(DOC, [(5, grid)], {5: "Segment information\n" + text})
        got = {(f.dimensions[0][1], f.period.key): f.value / 1e6 for t in tables for f in t.facts}
        assert got[("Sales", "FY2025")] == 8_322
        assert got[("Service", "FY2024")] == 8_245

    def test_line_row_alone_is_no_part(self) -> None:
        """'Net sales' over one unnamed row and a total: no breakdown of parts, nothing read."""
        grid = [["2025", "2024"], ["Net sales", "$ 90", "$ 80"], ["Other", "10", "20"], ["$ 100", "$ 100"]]  # fmt: skip
        text = "Revenues consisted of the following (in millions):\n2025 2024\nNet sales $ 90"
        tables = grid_part_tables(DOC, [(5, grid)], {5: "Segment information\n" + text})
        assert not any(f.dimensions[0][1] == "Net sales" for t in tables for f in t.facts)
