"""More of a segment note's and an MD&A's layouts read as parts of the business, and a part's
question read as asked: change columns between the period columns, a derived measure's total
under the parts, a heading glued to the first part's row, one segment's heading above a tall
header, a stated date by the filer's own calendar, a margin named after an amount."""

from __future__ import annotations

from _reasoning_data import evidence
from finqa.agents.config import Settings
from finqa.agents.reasoning import build_reasoner
from finqa.lexicon.dimensions import asked_item, period_in, period_spec
from finqa.lexicon.model import StatementTable
from finqa.lexicon.statements import MemoryStatementStore
from finqa.lexicon.statements.build import build_table
from finqa.lexicon.statements.parts import part_tables
from finqa.lexicon.statements.parts_change_columns import CHANGE_NOTE, drop_change_columns
from finqa.lexicon.statements.parts_groups import folded
from finqa.lexicon.statements.raw import RawTable
from finqa.lexicon.statements.reader import read_pages

DOC = "ACME_2024_10K"

# the filing's list of its segments (a heading is a part only when the filing lists it)
LISTED = "We have two reportable segments: Widget Solutions and Gadget Services."

# one segment's results in an MD&A: its heading, a sentence, then a header whose columns are
# the years and the changes between them ('$ %'), its line items below
ONE_SEGMENT = """Widget Solutions\xa0Segment
The following table summarizes the Widget Solutions segment's performance for the respective
periods, as discussed in the segment analysis below:
Change
Year Ended December 31, 2024 vs. 2023 2023 vs. 2022
In millions, except percentages 2024 2023 2022 $ % $ %
Revenues:
Premiums 6,930 6,303 5,818 627 9.9 % 485 8.3 %
Services 568 597 560 (29) (4.9)% 37 6.6 %
Total revenues 7,498 6,900 6,378 598 8.7 % 522 8.2 %
Operating expenses $ 1,421 $ 1,287 $ 1,176 $ 134 10.4 % $ 111 9.4 %
Operating income $ 516 $ 363 $ 336 $ 153 42.1 % $ 27 8.0 %
Operating income as a % of total revenues 6.9 % 5.3 % 5.3 %
"""

# a segment analysis whose columns are grouped by span, each year pair beside its changes
GROUPED = """SEGMENT ANALYSIS
The following table presents segment net sales by reportable segment (in millions):
Three months ended $ % Six months ended $ %
June 30, change change June 30, change change
2024 2023 24 vs. 23 24 vs. 23 2024 2023 24 vs. 23 24 vs. 23
Optical Networks $ 1,066 $ 1,313 $ (247) (19)% $ 2,191 $ 2,511 $ (320) (13)%
Display Glass 928 878 50 6% 1,691 1,837 (146) (8)%
Clean Air Products 457 356 101 28% 888 765 123 16%
Net sales of reportable segments 2,451 2,547 (96) (4)% 4,770 5,113 (343) (7)%
"""

# the segments' measure of profit under them, its total named by the measure, not a caption
MEASURE = """The following table presents information about reportable segments:
Years Ended December 31,
($ in millions) 2024 2023
Flexible Packs $ 2,812 $ 2,713
Rigid Containers 830 794
Net sales $ 3,642 $ 3,507
Adjusted earnings before interest and taxes
Flexible Packs $ 353 $ 352
Rigid Containers 57 55
Adjusted EBIT 410 407
Interest expense (79) (39)
Income before income taxes $ 331 $ 368
"""

# a segment note's measure of profit, then its reconciliation to EBIT below it
RECONCILIATION = """The following table presents information about reportable segments:
Years ended June 30,
(in millions) 2024 2023 2022
Sales including intersegment sales
Flexible Packs $ 10,040 $ 9,755 $ 6,566
Rigid Containers 2,823 2,716 2,893
Other — — —
Total sales including intersegment sales 12,863 12,471 9,459
Intersegment sales
Flexible Packs 2 3 1
Rigid Containers — — —
Other — — —
Total intersegment sales 2 3 1
Net sales $ 12,861 $ 12,468 $ 9,458
Adjusted EBIT from continuing operations
Flexible Packs 1,427 1,296 805
Rigid Containers 299 284 306
Other (105) (83) (36)
Adjusted EBIT from continuing operations 1,621 1,497 1,075
Less: Material restructuring programs (1) (88) (106) (64)
Less: Amortization of acquired intangible assets (2) (165) (191) (31)
Add: Net gain on disposals (3) 9 — —
EBIT from continuing operations 1,377 1,200 980
Interest expense (153) (207) (208)
Income from continuing operations before income taxes $ 1,224 $ 993 $ 772
"""

# a heading over the parts printed on the first part's line, block after block
GLUED = """Our operating segment results were as follows:
Fiscal Year
In Millions 2024 2023
Net sales: North Retail $ 10,115.4 $ 10,196.9
Foodservice Stores 1,930.2 1,870.0
Pacific Markets 1,710.2 1,728.4
Total $ 13,755.8 $ 13,795.3
Operating profit: North Retail $ 2,217.4 $ 2,303.6
Foodservice Stores 392.6 401.2
Pacific Markets 39.6 83.6
Total segment operating profit 2,649.6 2,788.4
Unallocated corporate items 116.8 190.1
Operating profit $ 2,532.8 $ 2,598.3
"""


def _parts(*pages: str, doc: str = DOC) -> dict[tuple[str, str, str], float]:
    read = read_pages(doc, list(enumerate(pages)))
    return {
        (f.dimensions[0][1], f.item or "", f.period.key): f.value / 1e6
        for t in read.tables
        if t.statement == "segment"
        for f in t.facts
        if f.dimensions
    }


class TestChangeColumns:
    """Change columns beside the period columns are dropped, so the table is read."""

    def test_one_segment_under_its_heading(self) -> None:
        """'2024 2023 2022 $ % $ %' under a tall header: the years' cells are the segment's
        figures (its heading read through a no-break space), the changes none."""
        got = _parts(LISTED, ONE_SEGMENT)
        assert got[("Widget Solutions", "revenue", "FY2024")] == 7_498
        assert got[("Widget Solutions", "revenue", "FY2022")] == 6_378
        assert got[("Widget Solutions", "operating_income", "FY2023")] == 363
        assert not any(v in (598, 153, 134) for v in got.values())

    def test_column_groups_with_their_changes(self) -> None:
        """Each span's years keep their places; the parts add up to the segments' total row."""
        got = _parts(GROUPED)
        assert got[("Clean Air Products", "revenue", "2024Q2")] == 457
        assert got[("Clean Air Products", "revenue", "2023Q2")] == 356
        assert got[("Display Glass", "revenue", "2024M6")] == 1_691
        assert got[("Optical Networks", "revenue", "2023M6")] == 2_511

    def test_a_line_of_years_alone_is_no_change_header(self) -> None:
        """A header of years only is left to the period reader: nothing is dropped."""
        raw = RawTable(0, "segment", "", ["2024 2023"], [("Sales", ["1", "2"])])
        assert not drop_change_columns(raw)
        assert raw.rows == [("Sales", ["1", "2"])]


class TestTotalsUnderParts:
    """Totals of the parts named other than by a catalogue caption."""

    def test_derived_measure_total(self) -> None:
        """'Adjusted EBIT' adding up the parts above it: their operating income."""
        got = _parts(MEASURE)
        assert got[("Flexible Packs", "operating_income", "FY2024")] == 353
        assert got[("Rigid Containers", "operating_income", "FY2023")] == 55
        assert got[("Flexible Packs", "revenue", "FY2024")] == 2_812

    def test_measure_total_that_does_not_add_up(self) -> None:
        """The same rows whose figures do not add up to the total give no operating income."""
        got = _parts(MEASURE.replace("Adjusted EBIT 410 407", "Adjusted EBIT 500 407"))
        assert ("Flexible Packs", "operating_income", "FY2024") not in got


class TestGluedHeading:
    """A line item's heading printed on the first part's line."""

    def test_heading_split_from_the_first_part(self) -> None:
        """'Net sales: North Retail' is the heading 'Net sales' over the part 'North Retail'."""
        got = _parts(GLUED)
        assert got[("North Retail", "revenue", "FY2024")] == 10_115.4
        assert got[("Foodservice Stores", "operating_income", "FY2024")] == 392.6
        assert got[("Pacific Markets", "operating_income", "FY2023")] == 83.6


class TestPartQuestion:
    """What a question asks of a part: its period by the filer's calendar, its margin."""

    def test_stated_date_by_the_filers_calendar(self) -> None:
        """A January filer's quarter ended April 30, 2023 is its fiscal 2024 Q1."""
        q = "How much did the International segment's operating income grow in the three months ended April 30, 2023?"  # fmt: skip
        assert period_spec(q) == "2023Q2"
        assert period_in(q, ["WALMART_2024Q1_10Q"]) == "2024Q1"
        assert period_in(q, ["WALMART_2024Q1_10Q", "ACME_2024_10K"]) == "2023Q2"

    def test_margin_after_an_amount(self) -> None:
        """'segment operating profit margin' asks the margin, not the operating profit."""
        q = "What was the segment operating profit margin of the Foodservice Stores segment in fiscal 2024?"  # fmt: skip
        assert asked_item(q) == "operating_margin"
        assert asked_item(q.replace(" margin", "")) == "operating_income"

    def test_margin_answered_unnamed_measure_abstains(self) -> None:
        """The part's margin is computed from its own figures; a margin over a measure the
        catalogue does not name abstains, never the part's revenue."""
        store = MemoryStatementStore(read_pages(DOC, [(0, GLUED)]).tables)
        reasoner = build_reasoner(Settings(), statements=store)
        ev = evidence("Segment results are discussed below.", doc=DOC)
        got = reasoner.generate(
            "What was the segment operating profit margin of Acme's Foodservice Stores segment "
            "in fiscal 2024?",
            ev,
            1,
        )
        assert not got.abstained and "20.3%" in got.text
        other = reasoner.generate(
            "What pre-tax margin did Acme's Foodservice Stores segment earn in fiscal 2024?", ev, 1
        )
        assert other.abstained and "1,930" not in other.text

    def test_margin_beside_its_year_before_answers_a_direction(self) -> None:
        """A part's margin is stated beside the year before's, computed the same way from the
        part's own figures, and a yes/no on its direction is answered from the two."""
        store = MemoryStatementStore(read_pages(DOC, [(0, GLUED)]).tables)
        reasoner = build_reasoner(Settings(), statements=store)
        ev = evidence("Segment results are discussed below.", doc=DOC)
        got = reasoner.generate(
            "Did the operating margin of Acme's Foodservice Stores segment improve in fiscal 2024?",
            ev,
            1,
        )
        assert got.text.startswith("No.") and "20.3%" in got.text
        assert "fell from 21.5% in FY2023" in got.text
        assert [round(c.result, 1) for c in got.calculations] == [20.3, 21.5]
        places = reasoner.generate(
            "What was the operating margin of Acme's Foodservice Stores segment in fiscal 2024? "
            "Round to two decimal places.",
            ev,
            1,
        )
        assert "20.34%" in places.text and "21.45% in FY2023" in places.text


def _typed(rows: list[tuple[str, list[str]]], notes: list[str] | None = None) -> StatementTable:
    raw = RawTable(0, "segment", "", ["Years Ended December 31,", "(in millions) 2024 2023"], rows)
    raw.notes = list(notes or [])
    built = build_table(raw, doc_id=DOC, table_id="p0-n0")
    assert isinstance(built, StatementTable)
    return built


def _members(table: StatementTable) -> set[str]:
    page = {0: "Results of our reportable segments were as follows."}
    return {m for t in part_tables([table], page, folded) for f in t.facts for _, m in f.dimensions}


class TestNotAParts:
    """Rows that add up to a total and are still no parts of the company."""

    def test_adjustments_under_a_measure(self) -> None:
        """The segments' 'Adjusted EBIT' and the 'Less:' / 'Add:' rows adding up to 'EBIT'
        are no parts; the segments above 'Adjusted EBIT' are."""
        got = _parts(RECONCILIATION)
        assert got[("Flexible Packs", "operating_income", "FY2024")] == 1_427
        assert not any(name.startswith(("Less", "Add", "Adjusted")) for name, _, _ in got)

    def test_one_segments_analysis(self) -> None:
        """An analysis table whose change columns were dropped, its lines adding up to a bare
        'Total Operating Revenues' (one segment's, under a heading without 'segment'): no
        parts; the same rows in a segment note's table are the company's parts."""
        rows = [
            ("Service", ["73,139", "67,733"]),
            ("Wireless equipment", ["23,168", "19,781"]),
            ("Other", ["7,199", "7,786"]),
            ("Total Operating Revenues", ["103,506", "95,300"]),
        ]
        assert _members(_typed(rows, [CHANGE_NOTE])) == set()
        assert "Service" in _members(_typed(rows))
