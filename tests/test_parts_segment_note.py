"""A segment note printed as text gives each segment its own figures, and only the filing's own
parts: segments' total rows, line-item blocks over the same parts, a scale stated below a page
of prose, years glued to a caption, part headings kept only when the filing lists them
(lexicon/statements/parts.py, parts_names.py, reader.py)."""

from __future__ import annotations

from finqa.lexicon.statements.reader import read_pages

DOC = "ACME_2024_10K"

_PROSE = "\n".join(
    f"Line {i} of the overview of our business segments says nothing about any figure at all."
    for i in range(18)
)

# a note whose operating profit block is closed by the segments' total, then reconciling
# items and the consolidated total; the scale is stated below 18 lines of prose
SEGMENT_TOTAL = f"""NOTE 3 - INFORMATION ON BUSINESS SEGMENTS
{_PROSE}
Summary operating results for each of our business segments were as follows (in millions):
Quarters Ended
June 30, 2024 June 30, 2023
Net sales
Wings $ 500 $ 450
Rockets 300 250
Total net sales $ 800 $ 700
Operating profit
Wings $ 60 $ 50
Rockets 40 30
Total business segment operating profit 100 80
Unallocated items
Pension adjustment 20 10
Other, net (5) (2)
Total unallocated items 15 8
Total consolidated operating profit $ 115 $ 88
"""

# line-item headings over the same regions, block after block; the EBIT block runs to the
# pre-tax total past an interest row (a cost, subtracted); a page with no segment word,
# after the page that heads the note
BLOCKS_HEAD = (
    "NOTE 15 - OPERATING SEGMENTS AND RELATED INFORMATION\nOur operating segments are regions."
)
BLOCKS = """YEAR ENDED MAY 31,
(Dollars in millions) 2024 2023
REVENUES
North Region $ 700 $ 600
South Region 300 250
Total Brand 1,000 850
EARNINGS BEFORE INTEREST AND TAXES
North Region $ 150 $ 120
South Region 60 50
Corporate (40) (30)
Interest expense (income), net 10 5
TOTAL INCOME BEFORE INCOME TAXES $ 160 $ 135
ADDITIONS TO PROPERTY, PLANT AND EQUIPMENT
North Region $ 20 $ 15
South Region 10 5
Total additions 30 20
"""

# the years glued to the caption of the first block; a 'Total Company' row
GLUED = """Business Segment Information
Year ended December 31,
Net Sales (Millions) 2024 2023 2022
Safety $ 600 $ 550 $ 500
Health 400 350 300
Consumer 200 150 100
Transport 100 50 50
Retail 100 100 100
Total Company $ 1,400 $ 1,200 $ 1,050
"""

# part headings over one segment's measure on two bases, and over places
BASES = """Club Segment
Fiscal Years Ended January 31,
(Amounts in millions) 2024 2023
Including Fuel
Net sales $ 700 $ 650
Percentage change from comparable period 7.7 % 8.7 %
Operating income $ 20 $ 18
Operating income as a percentage of net sales 2.9 % 2.8 %
Excluding Fuel
Net sales $ 600 $ 560
Percentage change from comparable period 7.1 % 9.6 %
Operating income $ 17 $ 15
Operating income as a percentage of net sales 2.8 % 2.7 %
"""
PLACES = """Information on reportable segments is as follows (in millions):
Year Ended December 31,
2024 2023
North America
Net sales $ 700 $ 600
Operating income $ 70 $ 60
International
Net sales $ 300 $ 250
Operating income (loss) $ (10) $ 5
Cloud
Net sales $ 100 $ 80
Operating income $ 30 $ 20
"""
LISTS = (
    "We have organized our operations into three segments: North America, International, and Cloud."
)

# a period printed over several columns: assets, depreciation and capex by segment
GROUPS = """Segment information (in millions)
Assets Depreciation Capital Expenditures
2024 2023 2024 2023 2024 2023
Safety $ 900 $ 800 $ 50 $ 40 $ 30 $ 20
Health 600 500 30 20 10 10
Total Company $ 1,500 $ 1,300 $ 80 $ 60 $ 40 $ 30
"""


def _parts(*pages: str) -> dict[tuple[str, str, str], float]:
    read = read_pages(DOC, list(enumerate(pages)))
    return {
        (f.dimensions[0][1], f.item or "", f.period.key): round(f.value / 1e6, 3)
        for t in read.tables
        if t.statement == "segment"
        for f in t.facts
        if f.dimensions
    }


class TestSegmentsTotal:
    """'Total business segment operating profit' adds up the segments' own figures."""

    def test_segments_figures_read_not_the_total(self) -> None:
        """Each segment's operating profit is read; the segments' total is no part."""
        got = _parts(SEGMENT_TOTAL)
        assert got[("Wings", "operating_income", "2024Q2")] == 60
        assert got[("Rockets", "operating_income", "2023Q2")] == 30
        assert not any("business segment" in name for name, _, _ in got)

    def test_scale_stated_below_prose(self) -> None:
        """The caption's '(in millions)' below a page of prose scales the parts' figures."""
        assert _parts(SEGMENT_TOTAL)[("Wings", "revenue", "2024Q2")] == 500


class TestLineItemBlocks:
    """Line-item headings over the same parts, block after block."""

    def test_revenue_and_ebit_blocks(self) -> None:
        """Revenue and EBIT (operating income) per region; an interest row is no part."""
        got = _parts(BLOCKS_HEAD, BLOCKS)
        assert got[("North Region", "revenue", "FY2024")] == 700
        assert got[("South Region", "operating_income", "FY2023")] == 50
        assert not any(name.startswith("Interest") for name, _, _ in got)
        assert ("North Region", "capital_expenditure", "FY2024") not in got

    def test_blocks_that_do_not_add_up(self) -> None:
        """A block whose rows do not add up to its total gives no part figure."""
        broken = BLOCKS.replace("TOTAL INCOME BEFORE INCOME TAXES $ 160", "TOTAL INCOME BEFORE INCOME TAXES $ 999")  # fmt: skip
        got = _parts(BLOCKS_HEAD, broken)
        assert ("North Region", "operating_income", "FY2024") not in got


class TestHeaderLayouts:
    """Years glued to a caption; a period over several columns."""

    def test_years_glued_to_a_caption(self) -> None:
        """'Net Sales (Millions) 2024 2023 2022' heads the columns; 'Total Company' the sum."""
        got = _parts(GLUED)
        assert got[("Safety", "revenue", "FY2022")] == 500
        assert got[("Health", "revenue", "FY2024")] == 400

    def test_period_over_several_columns(self) -> None:
        """Assets, depreciation and capex columns under one year each are no revenue."""
        assert _parts(GROUPS) == {}


class TestPartHeadings:
    """A heading over line items is a part only when the filing lists it."""

    def test_bases_of_one_measure_are_no_parts(self) -> None:
        """'Including Fuel' / 'Excluding Fuel' over one segment's net sales: no part."""
        assert not any(n in ("Including Fuel", "Excluding Fuel") for n, _, _ in _parts(BASES))

    def test_listed_places_are_parts(self) -> None:
        """'International' heads its own figures (a place, not a line item) when listed."""
        got = _parts(LISTS, PLACES)
        assert got[("International", "operating_income", "FY2024")] == -10
        assert got[("North America", "revenue", "FY2023")] == 600

    def test_unlisted_headings_dropped(self) -> None:
        """The same headings, never listed by the filing, give no part figure."""
        assert _parts(PLACES) == {}


class TestListedNames:
    """A sentence listing the segments gives whole names."""

    def test_names_with_and(self) -> None:
        """'Missiles and Fire Control' and 'Publishing and Advertising' stay whole."""
        from finqa.lexicon.statements.parts_names import listed_names

        got = listed_names(
            [
                "We operate in four business segments: Aeronautics, Missiles and Fire Control"
                " (MFC), Rotary and Mission Systems (RMS) and Space. We organize ...",
                "Our reportable segments are Digital Media, Digital Experience, and Publishing"
                " and Advertising.",
            ]
        )
        assert {"Aeronautics", "Missiles and Fire Control", "Rotary and Mission Systems", "Space"} <= got  # fmt: skip
        assert {"Digital Media", "Digital Experience", "Publishing and Advertising"} <= got
        assert not any(n.endswith(" and") or n.startswith("and ") for n in got)


class TestCompoundHead:
    """A ratio spelled over a qualified line item names the ratio, not the item."""

    def test_adjusted_ebit_margin_is_a_margin(self) -> None:
        """'Adjusted EBIT margin' is the operating margin, not the EBIT amount."""
        from finqa.lexicon.metrics import find_metrics

        got = [m.canonical for m in find_metrics("What Adjusted EBIT margin did it earn?")]
        assert got == ["operating_margin"]
        assert [m.canonical for m in find_metrics("Adjusted EBIT was $299 million")] == ["ebit"]


ONE_SEGMENT = """Our operating segments are Retail and Pharmacy.
Retail Segment
The following table summarizes the Retail segment's performance (in millions):
Year Ended December 31,
2024 2023
Revenues
Products $ 800 $ 700
Services 200 150
Total revenues 1,000 850
Cost of products sold 600 500
Operating expenses 300 250
Operating income $ 100 $ 100
"""


class TestOneSegmentsTable:
    """A table under a heading naming one segment holds that segment's lines."""

    def test_segment_lines_not_company_parts(self) -> None:
        """'Products' / 'Services' are the segment's lines; its totals are its figures."""
        got = _parts(ONE_SEGMENT)
        assert not any(name in ("Products", "Services") for name, _, _ in got)
        assert got[("Retail", "revenue", "FY2024")] == 1_000
        assert got[("Retail", "operating_income", "FY2023")] == 100

    def test_footnote_digit_glued_to_a_caption(self) -> None:
        """'Total business segment operating profit1' is still the segments' total."""
        got = _parts(SEGMENT_TOTAL.replace("segment operating profit 100", "segment operating profit1 100"))  # fmt: skip
        assert got[("Wings", "operating_income", "2024Q2")] == 60
        assert not any("business segment" in name for name, _, _ in got)
