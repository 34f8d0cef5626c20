"""The statement reader: page text -> typed statement tables, and what it refuses to guess."""

from __future__ import annotations

from datetime import date

from finqa.lexicon.statements import read_pages
from finqa.lexicon.statements.classify import title_kind
from finqa.lexicon.statements.text import join_split_numbers, split_row

INCOME_THOUSANDS = """ACME CORP
CONSOLIDATED STATEMENTS OF OPERATIONS
(in thousands, except per share data)
Year Ended December 31,
2022
2021
Net sales
$
1,200,500 $
1,000,250
Cost of products sold
700,100
650,000
Interest expense
(12,300)
(11,000)
Earnings per share:
Basic
$
1.23 $
(0.45)
Weighted-average shares outstanding:
Basic
975
980
"""

MULTI_LEVEL = """ACME CORP
CONDENSED CONSOLIDATED STATEMENTS OF INCOME (Unaudited)
(in millions, except per share amounts)
Three Months Ended Six Months Ended
June 30, June 30,
2023 2022 2023 2022
Revenues 500 450 990 880
Net income 50 40 95 70
"""

QUARTER_BALANCE = """ACME CORP
CONDENSED CONSOLIDATED BALANCE SHEETS
(in millions)
June 30, 2023 December 31, 2022
Cash and cash equivalents 120 100
Total assets 2,000 1,900
"""

WEEKS_RESTATED = """ACME RETAIL INC
CONSOLIDATED STATEMENTS OF EARNINGS
(in millions)
53 Weeks Ended February 3, 2018 52 Weeks Ended January 28, 2017 (As Restated)
Net sales 7,000 6,500
"""

TWELVE_WEEK_QUARTERS = """ACME FOODS INC
Condensed Consolidated Statement of Income
(in millions except per share amounts, unaudited)
12 Weeks Ended 24 Weeks Ended
6/17/2023 6/11/2022 6/17/2023 6/11/2022
Net Revenue $ 22,322 $ 20,225 $ 40,168 $ 36,425
Operating Profit 3,659 2,077 6,288 7,344
"""

THIRTEEN_WEEKS_IN_WORDS = """ACME RETAIL INC
CONDENSED CONSOLIDATED STATEMENTS OF OPERATIONS
(Unaudited)
Thirteen weeks ended Thirty-nine weeks ended
October 29, October 30, October 29, October 30,
($ in millions, except per share amounts) 2022 2021 2022 2021
Sales $ 2,173 $ 2,189 $ 6,413 $ 6,617
Income from operations 157 196 513 742
"""

PERCENT_OF_SALES = """Exhibit 1
ACME Beauty, Inc.
Consolidated Statements of Income
(In thousands, except per share data)
13 Weeks Ended
July 29, July 30,
2023 2022
(Unaudited) (Unaudited)
Net sales $ 2,529,809 100.0% $ 2,297,113 100.0%
Operating income 391,642 15.5% 391,428 17.0%
Interest income, net (4,449) (0.2%) (108) (0.0%)
Income before income taxes 396,091 15.7% 391,536 17.0%
"""

DAYS_OVER_YEARS = """Exhibit 2
ACME Beauty, Inc.
Condensed Consolidated Balance Sheets
(In thousands)
April 29, January 28, April 30,
2023 2023 2022
(Unaudited) (Unaudited)
Cash and cash equivalents $ 636,449 $ 737,877 $ 654,486
Merchandise inventories, net 1,751,235 1,603,451 1,570,552
"""

HALF_PROSE = """ACME CORP
CONSOLIDATED BALANCE SHEETS
(in millions)
December 31, 2022 2021
Total assets 3,000 2,800
Total liabilities 1,000 900
The accompanying notes are an integral part of these consolidated financial statements. In 2022 the Company sold 12 plants for $ 300 million, which the Board approved on March 3, 2022.
Management believes that its liquidity of 1,234 and 5,678 is sufficient for the next twelve months and beyond, as discussed in Note 7 and Item 7 of this report on Form 10-K.
"""

NO_HEADER = """ACME CORP
CONSOLIDATED STATEMENTS OF CASH FLOWS
(in millions)
Net cash provided by operating activities 500 400
Capital expenditures (100) (90)
"""


def _facts(text: str, doc: str = "ACME_2022_10K") -> dict[tuple[str, str], float]:
    read = read_pages(doc, [(10, text)])
    return {(f.label, f.period.key): f.value for t in read.tables for f in t.facts}


class TestTextReader:
    def test_thousands_except_per_share(self) -> None:
        """'in thousands, except per share data' scales amounts by 1e3 and leaves EPS as filed."""
        read = read_pages("ACME_2022_10K", [(10, INCOME_THOUSANDS)])
        facts = {(f.label, f.period.key): f for t in read.tables for f in t.facts}
        assert facts[("Net sales", "FY2022")].value == 1_200_500_000
        assert facts[("Net sales", "FY2021")].scale == 1e3
        eps = next(f for f in read.tables[0].facts if f.label == "Basic")  # the first 'Basic'
        eps = next(f for f in read.tables[0].facts if f.row == eps.row and f.column == 1)
        assert eps.unit == "USD/share" and eps.value == -0.45 and eps.negative
        assert read.tables[0].statement == "income" and read.tables[0].page == 10

    def test_cash_flows_statements_title(self) -> None:
        """A page titled 'CASH FLOWS STATEMENTS' after a balance sheet page is a cash flow statement."""
        balance = (
            "BALANCE SHEETS\n(In millions)\nJune 30, 2023 2022\nTotal assets 411,976 364,840\n"
        )
        flows = (
            "CASH FLOWS STATEMENTS\n(In millions)\nYear Ended June 30, 2023 2022 2021\n"
            "Net income 72,361 72,738 61,271\nNet cash from operations 87,582 89,035 76,740\n"
        )
        read = read_pages("ACME_2023_10K", [(59, balance), (60, flows)])
        kinds = {t.page: t.statement for t in read.tables}
        assert kinds == {59: "balance", 60: "cashflow"}

    def test_basic_reads_with_its_heading(self) -> None:
        """'Basic' under EPS is a per-share figure; under weighted-average shares a share count."""
        read = read_pages("ACME_2022_10K", [(10, INCOME_THOUSANDS)])
        basic = [f for f in read.tables[0].facts if f.label == "Basic" and f.period.key == "FY2022"]
        assert [(f.unit, f.item, f.value) for f in basic] == [
            ("USD/share", "eps_basic", 1.23),
            ("shares", "shares_basic", 975_000),
        ]

    def test_share_counts_in_their_own_scale(self) -> None:
        """'Shares used in calculation (000s)' under a table in millions: the counts are in
        thousands as their heading states, not in the table's millions."""
        text = INCOME_THOUSANDS.replace(
            "(in thousands, except per share data)", "(in millions, except per share data)"
        ).replace(  # fmt: skip
            "Weighted-average shares outstanding:", "Shares used in calculation (000s)"
        )
        read = read_pages("ACME_2022_10K", [(10, text)])
        facts = [f for f in read.tables[0].facts if f.period.key == "FY2022"]
        shares = next(f for f in facts if f.item == "shares_basic")
        assert shares.unit == "shares" and shares.value == 975_000
        assert next(f for f in facts if f.label == "Net sales").value == 1_200_500_000_000

    def test_parentheses_are_negative(self) -> None:
        """A parenthesised cell is read as negative and keeps its raw text; an expense's value
        is the expense (+12,300 thousand), as its tag would be (statements.signs)."""
        read = read_pages("ACME_2022_10K", [(10, INCOME_THOUSANDS)])
        fact = next(f for f in read.tables[0].facts if f.label == "Interest expense")
        assert fact.negative and fact.raw == "(12,300)" and fact.value == 12_300_000
        eps = next(f for f in read.tables[0].facts if f.raw == "(0.45)")
        assert eps.value == -0.45

    def test_catalogue_id_from_label(self) -> None:
        """Labels the lexicon's catalogue knows carry its id; lookup finds them by that id."""
        from finqa.lexicon.statements import MemoryStatementStore

        read = read_pages("ACME_2022_10K", [(10, INCOME_THOUSANDS)])
        store = MemoryStatementStore(read.tables)
        assert [f.value for f in store.lookup("ACME_2022_10K", "revenue", 2022)] == [1_200_500_000]

    def test_multi_level_header(self) -> None:
        """'Three Months | Six Months' over 'June 30,' over four years gives Q2 and six-month columns."""
        read = read_pages("ACME_2023Q2_10Q", [(3, MULTI_LEVEL)])
        table = read.tables[0]
        assert [p.key for p in table.periods] == ["2023Q2", "2022Q2", "2023M6", "2022M6"]
        assert all(p.unaudited for p in table.periods)
        assert [p.months for p in table.periods] == [3, 3, 6, 6]
        facts = {(f.label, f.period.key): f.value for f in table.facts}
        assert facts[("Revenues", "2023M6")] == 990e6

    def test_quarter_only_10q_balance(self) -> None:
        """A 10-Q balance sheet's columns are a quarter-end instant and the prior year end."""
        read = read_pages("ACME_2023Q2_10Q", [(2, QUARTER_BALANCE)])
        periods = read.tables[0].periods
        assert [p.key for p in periods] == ["2023Q2@end", "FY2022@end"]
        assert periods[0].end_date == date(2023, 6, 30) and periods[0].instant

    def test_53_week_year_and_restated_column(self) -> None:
        """A 53-week year and an 'As Restated' column are marked on their own columns."""
        read = read_pages("ACME_2017_10K", [(40, WEEKS_RESTATED)])
        p2018, p2017 = read.tables[0].periods
        assert (p2018.weeks, p2017.weeks) == (53, 52)
        assert (p2018.restated, p2017.restated) == (False, True)
        assert p2018.end_date == date(2018, 2, 3)

    def test_quarters_of_twelve_weeks(self) -> None:
        """'12 Weeks Ended | 24 Weeks Ended' over four dates: two quarter and two half-year columns."""
        read = read_pages("ACME_2023Q2_EARNINGS", [(4, TWELVE_WEEK_QUARTERS)])
        table = read.tables[0]
        assert [p.key for p in table.periods] == ["2023Q2", "2022Q2", "2023M6", "2022M6"]
        facts = {(f.label, f.period.key): f.value for f in table.facts}
        assert facts[("Operating Profit", "2022Q2")] == 2077e6

    def test_weeks_in_words(self) -> None:
        """'Thirteen weeks ended | Thirty-nine weeks ended' are a quarter and nine months each."""
        read = read_pages("ACME_2023Q3_10Q", [(4, THIRTEEN_WEEKS_IN_WORDS)])
        periods = read.tables[0].periods
        assert [(p.months, p.end_date) for p in periods] == [
            (3, date(2022, 10, 29)), (3, date(2021, 10, 30)), (9, date(2022, 10, 29)), (9, date(2021, 10, 30))
        ]  # fmt: skip

    def test_percent_of_sales_beside_each_amount(self) -> None:
        """A release's percent-of-sales cell after each amount is no column: the amounts are read."""
        read = read_pages("ACME_2023Q2_EARNINGS", [(5, PERCENT_OF_SALES)])
        facts = {(f.label, f.column): f.value for t in read.tables for f in t.facts}
        assert facts[("Income before income taxes", 0)] == 396_091e3
        assert facts[("Interest income, net", 1)] == -108e3
        assert all(f.unit == "USD" for t in read.tables for f in t.facts)

    def test_a_line_of_days_over_a_line_of_years(self) -> None:
        """'April 29, January 28, April 30,' over '2023 2023 2022': each column its own day and
        year (the last day does not run onto the first year, the middle column is January 28)."""
        read = read_pages("ACME_2024Q1_EARNINGS", [(5, DAYS_OVER_YEARS)])
        periods = read.tables[0].periods
        assert [p.end_date for p in periods] == [date(2023, 4, 29), date(2023, 1, 28), date(2022, 4, 30)]  # fmt: skip

    def test_numbers_split_across_lines(self) -> None:
        """'394,' followed by '328' on the next line is one number, 394,328."""
        assert join_split_numbers(["Net sales", "394,", "328 $", "365,817"]) == [
            "Net sales",
            "394,328 $",
            "365,817",
        ]
        text = "CONSOLIDATED BALANCE SHEETS\n(in millions)\n2022\n2021\nTotal assets\n394,\n328\n365,817\n"
        assert _facts(text)[("Total assets", "FY2022@end")] == 394_328e6

    def test_half_table_half_prose(self) -> None:
        """Prose under a table yields no rows; the table's rows are read."""
        facts = _facts(HALF_PROSE)
        assert facts[("Total liabilities", "FY2021@end")] == 900e6
        assert len(facts) == 4

    def test_statement_without_periods_is_reported(self) -> None:
        """A statement whose period header cannot be read is reported, with no facts guessed."""
        read = read_pages("ACME_2022_10K", [(5, NO_HEADER)])
        assert read.tables == [] and read.statement_pages == [5] and read.typed_pages == []
        assert "period" in read.failures[0].reason

    def test_row_with_missing_cell_is_skipped(self) -> None:
        """A row with fewer numbers than columns is skipped and noted, never shifted."""
        text = "CONSOLIDATED BALANCE SHEETS\n(in millions)\n2022 2021\nGoodwill 50 40\nAssets held for sale 683\n"
        read = read_pages("ACME_2022_10K", [(1, text)])
        labels = {f.label for f in read.tables[0].facts}
        assert labels == {"Goodwill"}
        assert any("Assets held for sale" in n for n in read.tables[0].notes)

    def test_segment_heading_over_prose_is_not_a_statement(self) -> None:
        """A 'Business Segments' heading over descriptions (no table of figures) is not typed."""
        prose = "Business Segments\nSafety and Industrial\nAbrasives and tapes\nHealth Care\nOral care\n"
        assert read_pages("ACME_2022_10K", [(4, prose)]).statement_pages == []

    def test_segment_table_after_its_heading_page(self) -> None:
        """A segment table on the page after the note's heading page is typed as a segment table."""
        prose = "Note 19. Reportable Segments\nWe have four reportable segments described below.\n"
        table = "YEAR ENDED MAY 31,\n(Dollars in millions)\n2019\n2018\nNorth America\n$\n15,902\n$\n14,855\nEurope\n9,812\n9,242\nGreater China\n6,208\n5,134\n"
        read = read_pages("ACME_2019_10K", [(82, prose), (83, table)])
        assert read.statement_pages == [83] and read.tables[0].statement == "segment"
        assert read.tables[0].facts[0].value == 15_902e6

    def test_non_statement_page_is_ignored(self) -> None:
        """A page of prose or an index of the statements is not a statement page."""
        index = "Index to Financial Statements\nConsolidated Statements of Income 58\nConsolidated Balance Sheets 60\n"
        read = read_pages("ACME_2022_10K", [(0, "Item 1. Business\nWe make widgets."), (1, index)])
        assert read.statement_pages == [] and read.tables == []

    def test_index_running_head_over_a_statement(self) -> None:
        """A statement page headed by the 'Index to Consolidated Financial Statements' link is read."""
        index = (
            "Index to Consolidated Financial Statements\nPage\n"
            "Consolidated Statements of Operations for the years ended December 31, 2022 and 2021\n"
            "106\nConsolidated Balance Sheets at December 31, 2022 and 2021\n107\n"
        )
        sheet = (
            "Index to Consolidated Financial Statements\nConsolidated Balance Sheets\n"
            "At December 31,\nIn millions\n2022\n2021\nCash and cash equivalents\n$\n12,945 $\n"
            "9,408\nTotal current assets\n65,682\n60,008\nTotal assets\n$\n228,275 $\n232,999\n"
        )
        read = read_pages("ACME_2022_10K", [(105, index), (106, sheet)])
        assert read.statement_pages == [106] and read.page_kinds[106] == "balance"
        facts = {f.label: f.value for f in read.tables[0].facts if f.period.fiscal_year == 2022}
        assert facts["Total current assets"] == 65_682e6


class TestTitles:
    def test_parenthetical_in_a_title(self) -> None:
        """A parenthetical inside a statement title ('STOCKHOLDERS' (DEFICIT) EQUITY') keeps its kind."""
        assert (
            title_kind("CONSOLIDATED STATEMENTS OF STOCKHOLDERS\u2019 (DEFICIT) EQUITY") == "equity"
        )
        assert title_kind("CONSOLIDATED STATEMENTS OF COMPREHENSIVE (LOSS) INCOME") == "income"

    def test_and_other_information(self) -> None:
        """A release's 'Consolidated Statements of Income and Other Information' is an income statement."""
        assert title_kind("Consolidated Statements of Income and Other Information") == "income"
        assert title_kind("Consolidated Statements of Income and Other Matters") is None

    def test_prose_is_no_title(self) -> None:
        """A sentence that mentions a statement is not a title."""
        assert title_kind("See the consolidated balance sheets for the amounts.") is None


EQUITY_SECTION = """CONSOLIDATED BALANCE SHEETS
(In millions, except per share amounts)
December 31, 2022 2021
Total assets 30,775 28,898
Corning Incorporated shareholders' equity:
Common stock \u2013 Par value $0.50 per share; Shares authorized 3.8 billion;
Shares issued: 1,726 million and 1,718 million 863 859
Retained earnings 16,120 16,408
Total equity 13,448 12,899
"""


class TestRowUnits:
    def test_balance_sheet_rows_are_amounts(self) -> None:
        """Under a 'Par value $0.50 per share; Shares issued' caption, balance-sheet rows stay amounts."""
        read = read_pages("ACME_2022_10K", [(60, EQUITY_SECTION)])
        facts = {f.label: f for f in read.tables[0].facts if f.column == 0}
        assert facts["Total equity"].unit == "USD" and facts["Total equity"].value == 13_448e6
        assert facts["Retained earnings"].value == 16_120e6
        assert all(f.unit == "USD" for f in facts.values())

    def test_dividends_with_their_rate_are_amounts(self) -> None:
        """'Cash dividends declared ($1.96 per share)' is an amount; 'Dividends per share' is not."""
        text = (
            "Consolidated Statements of Shareholders' Equity\n(in millions, except per share data)\n"
            "2022 2021\nCash dividends declared ($1.96 and $1.92 per share) (1,195.8) (1,180.0)\n"
            "Dividends per share 1.96 1.92\n"
        )
        read = read_pages("ACME_2022_10K", [(61, text)])
        facts = {f.label: f for f in read.tables[0].facts if f.column == 0}
        declared = facts["Cash dividends declared ($1.96 and $1.92 per share)"]
        assert declared.unit == "USD" and declared.value == -1_195.8e6
        assert facts["Dividends per share"].unit == "USD/share"

    def test_stockholders_equity_statements_title(self) -> None:
        """Microsoft's 'STOCKHOLDERS' EQUITY STATEMENTS' page is an equity statement."""
        assert title_kind("STOCKHOLDERS\u2019 EQUITY STATEMENTS") == "equity"


UNCAPTIONED_TOTALS = (
    "CONSOLIDATED BALANCE SHEETS\n(In thousands)\nDecember 31,\n2022\n2021\n"
    "Total current assets\n8,154,692\n6,416,182\nProperty and equipment, net\n5,223,928\n"
    "14,435,493\nTotal other assets\n32,313,586\n20,047,441\n$\n45,692,206\n$\n40,899,116\n"
    "LIABILITIES AND STOCKHOLDERS' EQUITY\nTotal current liabilities\n4,515,892\n3,442,264\n"
    "Total stockholders' equity\n5,210,123\n10,976,766\n$\n45,692,206\n$\n40,899,116\n"
)


class TestGrandTotals:
    def test_uncaptioned_totals_by_the_identity(self) -> None:
        """Bare figures under a balance sheet's last subtotals are total assets and total liabilities and equity."""
        read = read_pages("ACME_2022_10K", [(58, UNCAPTIONED_TOTALS)])
        facts = {f.label: f for f in read.tables[0].facts if f.column == 0}
        assert facts["Total assets"].value == 45_692_206e3
        assert facts["Total assets"].item == "total_assets"
        assert facts["Total other assets"].value == 32_313_586e3
        assert facts["Total stockholders' equity"].value == 5_210_123e3
        assert facts["Total liabilities and equity"].value == 45_692_206e3

    def test_caption_wrapped_before_a_date(self) -> None:
        """A caption cut after 'and' whose next line is a date continues; it starts no new table."""
        text = (
            "Consolidated Balance Sheets\n(MILLIONS)\nAs of December 31,\n2021\n2020\n"
            "Total liabilities\n104,013\n90,756\nPreferred stock, no par value; no shares issued or "
            "outstanding at December 31, 2021 and\nDecember 31, 2020\n\u2014\n\u2014\n"
            "Retained earnings\n103,394\n90,392\nTotal equity\n77,462\n63,473\n"
        )
        read = read_pages("ACME_2021_10K", [(58, text)])
        assert len(read.tables) == 1
        facts = {f.label: f.value for f in read.tables[0].facts if f.column == 1}
        assert facts["Total equity"] == 63_473e6 and facts["Retained earnings"] == 90_392e6

    def test_unequal_totals_are_not_named(self) -> None:
        """When the two bare totals differ the rows stay unread rather than guessed."""
        at = UNCAPTIONED_TOTALS.rindex("45,692,206")
        text = UNCAPTIONED_TOTALS[:at] + "45,692,207" + UNCAPTIONED_TOTALS[at + 10 :]
        read = read_pages("ACME_2022_10K", [(58, text)])
        labels = {f.label for f in read.tables[0].facts}
        assert "Total assets" not in labels and "Total other assets" not in labels


class TestSplitRow:
    def test_label_keeps_its_own_numbers(self) -> None:
        """Numbers inside a label ('net of $40 and $42') stay label when cells follow."""
        assert split_row("Inventories (Note 5) 2,904 2,481") == (
            "Inventories (Note 5)",
            ["2,904", "2,481"],
        )

    def test_dash_is_a_cell(self) -> None:
        """A dash in a value column is a nil cell."""
        assert split_row("Goodwill impairment \u2014 123") == (
            "Goodwill impairment",
            ["\u2014", "123"],
        )


QUARTERLY = """Note 12 - QUARTERLY RESULTS (UNAUDITED)
Unaudited quarterly results are as follows (in millions, except per share data):
Year Ended December 31, 2016 (1)
First
Quarter
Second
Quarter
Third
Quarter (2)
Fourth
Quarter
Net sales
$
29,128
$
30,404
$
32,714
$
43,741
"""


class TestQuarterlyNote:
    def test_quarter_captions_under_a_year(self) -> None:
        """'First Quarter ... Fourth Quarter' under 'Year Ended December 31, 2016' are 2016Q1..Q4."""
        read = read_pages("ACME_2016_10K", [(71, QUARTERLY)])
        table = read.tables[0]
        assert table.statement == "quarterly"
        assert [p.key for p in table.periods] == ["2016Q1", "2016Q2", "2016Q3", "2016Q4"]
        assert table.periods[1].end_date == date(2016, 6, 30) and table.periods[0].unaudited
        assert [f.value for f in table.facts] == [29_128e6, 30_404e6, 32_714e6, 43_741e6]


class TestScaleNotes:
    def test_dollars_and_shares_in_millions(self) -> None:
        """'$ and shares in millions, except per share amounts' scales amounts by a million."""
        text = (
            "Condensed Consolidated Statements of Earnings\n"
            "$ and shares in millions, except per share amounts (unaudited)\n"
            "Three Months Ended\nJuly 29, 2023\nJuly 30, 2022\n"
            "Revenue\n$\n9,583 $\n10,329\n"
        )
        read = read_pages("BESTBUY_2024Q2_10Q", [(3, text)])
        assert [f.value for f in read.tables[0].facts] == [9_583e6, 10_329e6]

    def test_share_counts_header_does_not_scale_money(self) -> None:
        """'(shares in thousands)' alone does not scale dollar amounts."""
        from finqa.lexicon.numbers import detect_scale

        assert detect_scale("(shares in thousands)") is None


EQUITY = """ACME CORP
CONSOLIDATED STATEMENTS OF STOCKHOLDERS' EQUITY
(In thousands)
Common Stock
Retained
Earnings
Total
Balances at December 31, 2020
100
$ 500
$ 600
Net income
\u2014
120
120
Dividends declared
\u2014
(20)
(20)
Balances at December 31, 2021
100
600
700
"""


class TestEquityMatrix:
    def test_total_column_by_row_period(self) -> None:
        """An equity matrix types its total column: balances as instants, movements as the year."""
        read = read_pages("ACME_2021_10K", [(60, EQUITY)])
        table = read.tables[0]
        facts = {(f.label, f.period.key): f.value for f in table.facts}
        assert facts == {
            ("Balances at December 31, 2020", "FY2020@end"): 600e3,
            ("Net income", "FY2021"): 120e3,
            ("Dividends declared", "FY2021"): -20e3,
            ("Balances at December 31, 2021", "FY2021@end"): 700e3,
        }
        assert table.statement == "equity" and "total column" in table.notes[0]

    def test_matrix_without_total_is_reported(self) -> None:
        """Without a total column the matrix is reported as not parsed, not half-read."""
        read = read_pages("ACME_2021_10K", [(60, EQUITY.replace("Total\n", ""))])
        assert read.tables == [] and "total" in read.failures[0].reason
