"""Segment figures printed as PDF-extracted text in the layouts segment notes and MD&A use are
read into the statement model by their structure (lexicon/statements/parts*.py, reader.py)."""

from __future__ import annotations

import re

from _reasoning_data import evidence
from finqa.agents.config import Settings
from finqa.agents.reasoning import build_reasoner
from finqa.lexicon.statements import MemoryStatementStore
from finqa.lexicon.statements.parts_text_columns import header_names, named_split
from finqa.lexicon.statements.reader import read_pages
from finqa.lexicon.statements.text import split_row

DOC = "ACME_2024_10K"

# a note past its heading's page: prose on top, no statement title, line-item headings over
# parts, a part with parts of its own closed by an uncaptioned subtotal line
GROUPS = """The chief operating decision maker reviews the revenue and operating income (loss)
of each operating segment. Operating segments do not record inter-segment revenue, and we do
not allocate gains and losses from equity investments to the operating segments at all.
Net revenue and operating income (loss) for each period were as follows:
Years Ended (In Millions) Dec 28, 2024 Dec 30, 2023
Net revenue:
Cloud Systems Group
Hosting $ 700 $ 600
Storage 300 200
 1,000 800
Sensor Products Group 450 400
All other 50 40
Total net revenue $ 1,500 $ 1,240
Operating income (loss):
Cloud Systems Group $ 200 $ 150
Sensor Products Group (30) 20
All other (20) (10)
Total operating income $ 150 $ 160
"""

# results by segment in an MD&A: a percent-change column, a 'Consolidated X' total; and a
# note table whose segment has rows of its own closed by 'Total <segment>'
MDNA = """RESULTS OF OPERATIONS
The following table compares the results of our reportable segments (in millions):
2024 2023 Percent Change
Consolidated revenue $ 1,250 $ 1,100 14
Operating income (loss):
Parcel segment 120 100 20
Freight segment 80 70 14
Logistics segment 10 5 100
Corporate and eliminations (20) (10) 100
Consolidated operating income 190 165 15
"""

NOTE = """NOTES TO CONSOLIDATED FINANCIAL STATEMENTS
The following table presents revenue by service type for the years ended May 31 (in millions):
2024 2023
REVENUE BY SERVICE TYPE
Parcel segment:
Overnight $ 400 $ 350
Deferred 250 230
Total Parcel segment 650 580
Freight segment 500 450
Other and eliminations 100 70
$ 1,250 $ 1,100
"""

# parts as columns, the header's names broken over lines, a period line over each block
COLUMNS = """Note 9 - Segment Reporting
The following table provides information for the Company's reportable segments:
United States Mexico
Other
Markets Total
2024
Total revenue $ 600 $ 300 $ 100 $ 1,000
Operating income 60 25 5 90
2023
Total revenue $ 550 $ 250 $ 100 $ 900
Operating income 50 20 10 80
"""

# names the filing lists as its segments, broken over the header's lines; period blocks
LISTED_COLUMNS = """Note 12. Segments
The Company's operations are conducted in three reportable segments: Acme Stores U.S., Acme
International and Bulk Club. Information for the segments is provided in the following table:
(Amounts in millions) Acme Stores U.S.
Acme
International Bulk Club
Corporate and
support Consolidated
Fiscal Year Ended January 31, 2024
Net sales $ 500 $ 200 $ 100 $ — $ 800
Operating income (loss) 50 12 4 (6) 60
Fiscal Year Ended January 31, 2023
Net sales $ 450 $ 190 $ 90 $ — $ 730
Operating income (loss) 40 10 3 (5) 48
"""

# the names under each period line, a footnote's mark on one row
BELOW_COLUMNS = """Note 8. Operating Segments
We have three reportable segments: Alpha, Beta and Gamma.
Year Ended December 31, 2024
Alpha Beta Gamma Total
Segment Revenues
Net revenues from external customers $ 300 $ 200 $ 100 $ 600
Intersegment net revenues (1) — 10 — 10
Segment net revenues $ 300 $ 210 $ 100 $ 610
Segment operating income $ 90 $ 40 $ 11 $ 141
Year Ended December 31, 2023
Alpha Beta Gamma Total
Segment Revenues
Net revenues from external customers $ 280 $ 150 $ 90 $ 520
Intersegment net revenues (1) — 9 — 9
Segment net revenues $ 280 $ 159 $ 90 $ 529
Segment operating income $ 80 $ 30 $ 9 $ 119
(1) Intersegment revenues reflect fees charged between segments.
"""

INCOME = """CONSOLIDATED STATEMENTS OF INCOME
(in millions)
2024 2023
Total revenue $ 1,000 $ 900
Operating income 90 80
Net income 70 60
"""


def _parts(*pages: str) -> dict[tuple[str, str, str], float]:
    read = read_pages(DOC, list(enumerate(pages)))
    return {
        (f.dimensions[0][1], f.item or "", f.period.key): f.value / 1e6
        for t in read.tables
        if t.statement == "segment"
        for f in t.facts
        if f.dimensions
    }


class TestLineItemHeadingsOverParts:
    """Line-item headings over the parts, on a page of a segment note without its heading."""

    def test_group_closed_by_an_uncaptioned_subtotal(self) -> None:
        """A part with parts of its own is its subtotal's figure; its inner rows are no parts."""
        got = _parts(GROUPS)
        assert got[("Cloud Systems Group", "revenue", "FY2024")] == 1_000
        assert got[("Sensor Products Group", "operating_income", "FY2023")] == 20
        assert got[("Sensor Products Group", "operating_income", "FY2024")] == -30
        assert not any(name in ("Hosting", "Storage") for name, _, _ in got)

    def test_no_segment_words_no_parts(self) -> None:
        """The same rows on a page that speaks of no segment or region are left alone."""
        page = re.sub(r"(?:operating )?segments?", "unit", GROUPS, flags=re.I)
        assert _parts(page) == {}


class TestResultsBySegmentInText:
    """An MD&A's results table and a note's revenue table with a segment's own rows."""

    def test_change_column_and_consolidated_total(self) -> None:
        """A percent-change column is dropped; 'Consolidated operating income' adds up the parts."""
        got = _parts(MDNA)
        assert got[("Parcel segment", "operating_income", "FY2024")] == 120
        assert got[("Freight segment", "operating_income", "FY2023")] == 70

    def test_segment_rows_closed_by_its_total(self) -> None:
        """'Parcel segment:' ... 'Total Parcel segment' is that segment's revenue."""
        got = _parts(NOTE)
        assert got[("Parcel segment", "revenue", "FY2024")] == 650
        assert got[("Freight segment", "revenue", "FY2024")] == 500
        assert not any(name in ("Overnight", "Deferred") for name, _, _ in got)


class TestPartsAsColumnsInText:
    """A segment note whose columns are the parts, read from the page text."""

    def test_header_split_by_country_names(self) -> None:
        """Country names split the header's words; the words between are one name."""
        words = ["United", "States", "Mexico", "Other", "Markets", "Total"]
        assert header_names(words) == ["United States", "Mexico", "Other Markets", "Total"]

    def test_columns_read_per_period(self) -> None:
        """Each period line's rows give each column's figure, checked against the total."""
        got = _parts(INCOME, COLUMNS)
        assert got[("Mexico", "operating_income", "FY2024")] == 25
        assert got[("Other Markets", "revenue", "FY2023")] == 100

    def test_header_split_by_listed_names(self) -> None:
        """The names the filing lists are one name each, a comma goes on into the next name,
        and a run of other words is one name or one per word, as the columns need."""
        words = "Europe, Middle East & Africa Latin America Bottling Corporate Eliminations Consolidated"
        listed = ["Europe", "Middle East and Africa", "Latin America", "Bottling"]
        assert named_split(words.split(), listed, 6) == [
            "Europe, Middle East & Africa", "Latin America", "Bottling", "Corporate",
            "Eliminations", "Consolidated",
        ]  # fmt: skip
        assert named_split(words.split(), listed, 5) == [
            "Europe, Middle East & Africa", "Latin America", "Bottling",
            "Corporate Eliminations", "Consolidated",
        ]  # fmt: skip
        assert named_split(words.split(), listed, 8) is None
        spelled = named_split(["Aeronautics", "MFC", "Space", "Total"], ["Aeronautics", "Missiles and Fire Control", "Space"], 4)  # fmt: skip
        assert spelled == ["Aeronautics", "Missiles and Fire Control", "Space", "Total"]
        assert named_split(words.split(), [], 6) is None

    def test_listed_names_broken_over_lines(self) -> None:
        """A header of listed names broken over lines, under a scale caption, gives each
        column's figures per period block; the residual column is read, not merged."""
        got = _parts(INCOME, LISTED_COLUMNS)
        assert got[("Bulk Club", "operating_income", "FY2024")] == 4
        assert got[("Acme Stores U.S.", "revenue", "FY2023")] == 450
        assert got[("Corporate and support", "operating_income", "FY2023")] == -5

    def test_names_below_the_period_line(self) -> None:
        """Names printed under each period line are read; a footnote's mark is no column."""
        got = _parts(INCOME, BELOW_COLUMNS)
        assert got[("Gamma", "operating_income", "FY2024")] == 11
        assert got[("Beta", "revenue", "FY2023")] == 159

    def test_names_below_that_do_not_split(self) -> None:
        """Names under the period line that the filing never lists are left alone."""
        page = BELOW_COLUMNS.replace("three reportable segments: Alpha, Beta and Gamma", "units")
        assert not any(k[0] == "Gamma" for k in _parts(INCOME, page))

    def test_header_that_does_not_split(self) -> None:
        """A header whose words give no name per column is left alone."""
        page = COLUMNS.replace("United States Mexico", "North Region South")
        assert not any(k[0] == "Mexico" for k in _parts(INCOME, page))


class TestPlaceBeforeDollarSign:
    """A place's initials before a column's dollar sign are the caption, not a currency."""

    def test_us_dollar_cells(self) -> None:
        """'U.S. $ 9,588.4 $ 8,865.0' is the row 'U.S.' with two cells."""
        assert split_row("U.S. $ 9,588.4 $ 8,865.0") == ("U.S.", ["$ 9,588.4", "$ 8,865.0"])


class TestAskedPartFromText:
    """A part's figure read from the text is answered; one the filing does not print abstains."""

    def test_printed_answered_unprinted_abstains(self) -> None:
        """Sensor's operating income is printed (answered, a loss); its gross profit is not
        (abstains naming it, never the consolidated figure)."""
        pages = [INCOME, "Item 9. Changes in and disagreements with accountants: none.", GROUPS]
        store = MemoryStatementStore(read_pages(DOC, list(enumerate(pages))).tables)
        reasoner = build_reasoner(Settings(), statements=store)
        prose = "Results by segment are discussed below."
        got = reasoner.generate(
            "What was Acme's Sensor Products Group operating income in fiscal 2024?",
            evidence(prose, doc=DOC),
            1,
        )
        assert not got.abstained and "30" in got.text and "loss" in got.text
        missing = reasoner.generate(
            "What was Acme's Sensor Products Group gross profit in fiscal 2024?",
            evidence(prose, doc=DOC),
            1,
        )
        assert (
            missing.abstained and "gross profit of segment 'Sensor Products Group'" in missing.text
        )
        assert "Sensor Products Group" in " ".join(missing.missing)
