"""Segment tables in the layouts filers print, read into the statement model and picked among
(lexicon/statements/parts_measure_columns.py, text.without_folio, reader._without_change,
lexicon/breakdowns.py), and the judge's reading of a part's kind word (lexicon/qualifiers.py)."""

from __future__ import annotations

from _reasoning_data import INCOME, evidence
from finqa.agents.config import Settings
from finqa.agents.reasoning import build_reasoner
from finqa.lexicon.dimension_question import asks_part_share
from finqa.lexicon.qualifiers import named_part
from finqa.lexicon.statements import MemoryStatementStore, read_pages
from finqa.lexicon.statements.parts_measure_columns import measure_captions
from finqa.lexicon.statements.text import without_folio

DOC = "ACME_2022_10K"
PROSE = "Our segments performed well this year across every market we serve."

# each division's measures side by side: the caption line names the measures, the period line
# repeats the years once per measure (the parts add up to the income statement's 86,392)
SIDE_BY_SIDE = """Derivatives
We manage commodity derivatives on behalf of our divisions.
Net Revenue and Operating Profit
Net revenue and operating profit of each division (our reportable segments) are as follows:
Net Revenue Operating Profit
2022 2021 2022 2021
North $ 50,000 $ 40,000 $ 5,000 $ 4,800
South 30,000 28,000 4,700 4,600
West 6,392 11,474 2,512 2,262
Total division 86,392 79,474 12,212 11,662
Corporate unallocated expenses — — (700) (500)
Total $ 86,392 $ 79,474 $ 11,512 $ 11,162
"""

# a segment table at the foot of its page, the page's number on the last line
FOLIO = """Segment revenue and operating income were as follows during the periods presented:
(In millions)
Year Ended December 31, 2022 2021
Revenue
North $ 40,000 $ 35,000
South 20,000 18,000
East 10,000 9,000
West 10,000 10,000
Central 6,392 7,474
Total $ 86,392 $ 79,474
91"""
# an MD&A's results by segment: a percentage change column whose caption the extraction broke
# over the header's lines ('Percentage' / 'Change 2022' / 'Versus 2021')
CHANGE = """The following table shows our results by reportable segment.
(In millions, except percentages) 2022 2021
Percentage
Change 2022
Versus 2021
Revenue
North $ 50,000 $ 40,000 25%
South 30,000 28,000 7%
West 6,392 11,474 (44)%
Total $ 86,392 $ 79,474 9%
Operating income (loss)
North $ 5,000 $ 4,800 4%
South 4,700 4,600 2%
West 2,512 2,262 11%
Corporate and Other (700) (500) *
Total $ 11,512 $ 11,162 3%
* Not meaningful
"""

# a 'Corporate and Other' row holding a revenue deferral (negative revenue): its 'margin'
# (-700 / -100 = 700%) is none, the segments' are
DEFERRAL = """Segment Information
(in millions)
2022 2021
Net revenue
North 50,000 40,000
South 30,000 28,000
West 6,492 11,574
Corporate and Other (100) (100)
Total net revenue 86,392 79,474
Operating profit
North 5,000 4,800
South 4,700 4,600
West 2,512 2,262
Corporate and Other (700) (500)
Total operating profit 11,512 11,162
"""


def _parts(page: str) -> dict[tuple[str, str, str], float]:
    read = read_pages(DOC, [(50, INCOME), (90, page)])
    return {
        (f.dimensions[0][1], f.item or "", f.period.key): f.value / 1e6
        for t in read.tables
        if t.statement == "segment"
        for f in t.facts
        if f.dimensions
    }


def _ask(question: str, page: str) -> str:
    store = MemoryStatementStore(read_pages(DOC, [(50, INCOME), (90, page)]).tables)
    answer = build_reasoner(Settings(), statements=store).generate(
        question, evidence(PROSE, doc=DOC, question=question), 1
    )
    return answer.text


# the measures' captions under the repeated years, the second naming two amounts; the
# segments' total named without a line item ('Reportable segments total')
BELOW = """Information on the operating segments and reconciliations to consolidated net revenues
and consolidated income before income tax expense are presented below (amounts in millions):
Years Ended December 31,
2022 2021 2022 2021
Net revenues
Operating income
and income before income
tax expense
North $ 50,000 $ 40,000 $ 5,000 $ 4,800
South 30,000 28,000 4,700 4,600
West 6,392 11,474 2,512 2,262
Reportable segments total 86,392 79,474 12,212 11,662
Other segments (700) (500)
Consolidated net revenues / operating income $ 86,392 $ 79,474 $ 11,512 $ 11,162
"""

# a note's block of segment profit under a caption of the filer's own ('Adjusted EBIT'),
# broken over two lines inside its parenthesis; a scale note in the sales caption
ADJUSTED = """The following table presents information about reportable segments:
(in millions) 2022 2021
Net Sales (Millions)
North $ 50,000 $ 40,000
South 30,000 28,000
West 6,392 11,474
Total net sales 86,392 79,474
Adjusted earnings before interest and taxes ("Adjusted
EBIT")
North 5,000 4,800
South 4,700 4,600
West 2,512 2,262
Adjusted EBIT 12,212 11,662
"""

Q_MARGIN = "Which of Acme's divisions had the highest operating margin in 2022, and what was it?"


class TestMeasuresSideBySide:
    def test_each_group_is_its_measure(self) -> None:
        """'Net Revenue Operating Profit' over repeated years: each part's revenue and operating
        profit are read from their own column group."""
        parts = _parts(SIDE_BY_SIDE)
        assert parts[("North", "revenue", "FY2022")] == 50_000
        assert parts[("North", "operating_income", "FY2022")] == 5_000
        assert parts[("West", "operating_income", "FY2021")] == 2_262
        assert not any(name.startswith("Total") for name, _, _ in parts)

    def test_captions_split_by_the_catalogue(self) -> None:
        """The caption line splits into measures the catalogue names, else not at all."""
        assert measure_captions("Net Revenue Operating Profit", 2) == [
            "Net Revenue",
            "Operating Profit",
        ]
        assert measure_captions("Beverage Food/Snack", 2) is None
        assert measure_captions("Net Revenue Operating Profit", 3) is None

    def test_pick_by_margin(self) -> None:
        """A division's margin is computed from its two groups and the highest is named."""
        text = _ask(Q_MARGIN, SIDE_BY_SIDE)
        assert text.startswith("West.") and "39.3%" in text


class TestFolio:
    def test_page_number_is_no_figure(self) -> None:
        """The page's number on its last line is not glued to the total row."""
        assert without_folio(["Total $ 86,392 $ 79,474", "91"]) == ["Total $ 86,392 $ 79,474"]
        assert without_folio(["Revenue", "91"]) == ["Revenue", "91"]
        parts = _parts(FOLIO)
        assert parts[("South", "revenue", "FY2022")] == 20_000
        assert parts[("Central", "revenue", "FY2021")] == 7_474


class TestChangeCaptions:
    def test_change_caption_lines_name_no_period(self) -> None:
        """'Change 2022' / 'Versus 2021' are a change column's caption: the table keeps its two
        periods and its parts are read."""
        parts = _parts(CHANGE)
        assert parts[("North", "revenue", "FY2022")] == 50_000
        assert parts[("West", "operating_income", "FY2021")] == 2_262


class TestMarginOverNoRevenue:
    def test_rest_row_without_revenue_has_no_margin(self) -> None:
        """A rest row of negative revenue has no margin to be the extreme: the segments'
        highest margin is named."""
        text = _ask(Q_MARGIN.replace("divisions", "segments"), DEFERRAL)
        assert text.startswith("West."), text


class TestKindWordIsNoLine:
    def test_division_revenue_is_a_parts_revenue(self) -> None:
        """'division net revenue' beside a 'Total division' row names no line of revenue."""
        labels = ["total division", "membership fee"]
        q = "What was the division net revenue of Acme's North division in 2022?"
        assert named_part(q, labels) is None
        fee = "How much did Acme's membership fee revenue grow in 2022?"
        assert named_part(fee, labels) is not None


class TestCaptionsBelowTheYears:
    def test_captions_under_the_header(self) -> None:
        """Captions printed under the repeated years ('Operating income and income before
        income tax expense') name each group; 'Reportable segments total' closes a block."""
        parts = _parts(BELOW)
        assert parts[("South", "revenue", "FY2021")] == 28_000
        assert parts[("South", "operating_income", "FY2022")] == 4_700
        assert measure_captions("Net revenues Operating income and income before tax", 2) == [
            "Net revenues",
            "Operating income",
        ]


class TestPartShare:
    def test_share_of_the_company_figure(self) -> None:
        """'What percentage of net revenue came from X' is the part's figure over the
        consolidated figure of the same period, both named."""
        text = _ask(
            "What percentage of Acme's 2022 net revenue came from its South segment? Round to one "
            "decimal place.",
            SIDE_BY_SIDE,
        )
        assert "34.7%" in text and "$86,392 million" in text, text
        # the line named ('net sales'), not left to the default: still the part's share, not
        # refused as a part's amount asked as a percentage
        sales = _ask(
            "What percentage of Acme's 2022 net sales came from its South segment? Round to one "
            "decimal place.",
            SIDE_BY_SIDE,
        )
        assert "34.7%" in sales, sales
        # a whole that is itself a part ('of Acme's South net revenue came from online orders'):
        # never the part's share of the company's figure
        base = _ask(
            "What percentage of Acme's 2022 South net revenue came from online orders?",
            SIDE_BY_SIDE,
        )
        assert "34.7%" not in base and "I cannot determine" in base, base

    def test_a_ratio_of_two_lines_is_no_share(self) -> None:
        """'X as a percentage of Y' is a ratio of two lines, not a part's share of the whole."""
        assert asks_part_share("What share of Acme's 2022 net sales came from South?")
        assert not asks_part_share(
            "What was the ratio (benefit costs as a percentage of premium revenues) of Acme's "
            "South segment in 2022?"
        )


class TestPrintedCaption:
    def test_answer_names_the_caption_read(self) -> None:
        """A segment margin read from a block the filer captions 'Adjusted EBIT' says so."""
        text = _ask("What operating margin did Acme's South segment earn in 2022?", ADJUSTED)
        said = "printed as 'Adjusted earnings before interest and taxes (\"Adjusted EBIT\")'"
        assert "15.7%" in text and said in text, text
        assert "Net Sales" not in text  # the catalogue's own caption of revenue: not repeated
