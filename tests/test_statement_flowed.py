"""The text reader on layouts it was not tuned on: flowed rows, headers run into rows, titles
run into headers or after a running head, statements below a release's prose (issue #25)."""

from __future__ import annotations

from finqa.lexicon.statements import read_pages
from finqa.lexicon.statements.classify import statement_of_page
from finqa.lexicon.statements.header import read_header
from finqa.lexicon.statements.text import header_prefix, split_row, unglue_rows

# the header, then several rows to a line (an extraction that flowed the table's lines)
FLOWED_BALANCE = """Consolidated Balance Sheets
$ and shares in millions, except per share amounts March 1, 2025 March 2, 2024 Assets Current assets Cash and cash equivalents $ 1,100 $ 900 Receivables, net 400 350 Inventories 2,000 1,900 Total current assets 3,500 3,150
Property, net 1,000 950 Total assets $ 4,500 $ 4,100 Liabilities and equity Accounts payable $ 1,200 $ 1,100
Preferred stock, $1.00 par value: Authorized - 400 shares; Issued - none - - Total equity 3,300 3,000
"""

# a title run into the header and the rows, after a running head ('Index') that links back
RUN_ON_TITLE = (
    "Acme Index Consolidated Statements of Cash Flows Acme Incorporated and Subsidiary "
    "Companies Years ended December 31, (In millions) 2024 2023 2022 Cash Flows from\n"
    "Operating Activities: Net income $ 1,339 $ 2,472 $ 1,961 Depreciation (Note 9) 1,130 "
    "1,167 971 Other liabilities (Note 11 and 14) 20 30 40\n"
)

# a release: prose, then the entity's name over a formal title over the scale note
RELEASE = """The forward-looking statements in this news release are intended to be subject to the
safe harbor protection provided by the federal securities laws, and they speak only as of the date
of this release; the company disclaims a duty to update them after that date for any reason.
Factors that could cause results to differ are discussed in the company's filings with the SEC.
Results for the quarter ended June 25, 2024 were affected by matters described above in detail.
Investors should not place undue reliance on the forward-looking statements in this release.
The company's filings may be accessed through its website or the website maintained by the SEC.
Copies are also available from the company's investor relations office on written request.
These are only some of the factors that may affect the statements in this news release.
Acme Corporation
Consolidated Balance Sheets
(unaudited, in millions)
June 25,
2024
Dec. 31,
2023
Cash and cash equivalents $ 3,673 $ 2,547
Total assets $ 56,978 $ 52,880
"""

NINE_MONTHS_FLOWS = """ACME CORPORATION
CONDENSED CONSOLIDATED STATEMENTS OF CASH FLOWS
(in millions)
Nine Months Ended September 30, 2024
2024 2023
Net income (loss) $ 1,297 $ (564)
Net cash provided by operating activities 3,100 2,200
"""


def _facts(doc: str, text: str) -> dict[tuple[str, str], float]:
    read = read_pages(doc, [(40, text)])
    return {(f.label, f.period.key): f.value for t in read.tables for f in t.facts}


def test_unglue_rows_cuts_after_a_full_run_of_cells() -> None:
    """A run of exactly as many cells as columns, then a capitalised word, ends a row; shorter
    runs, runs a lower-case word continues, and note references are label text; a longer run
    ends the row too (its first cells are the label's)."""
    line = "Cash $ 2,936 $ 5,494 Receivables, net 1,042 1,061 Goodwill 1 2"
    assert unglue_rows(line, 2) == ["Cash $ 2,936 $ 5,494", "Receivables, net 1,042 1,061",
                                    "Goodwill 1 2"]  # fmt: skip
    assert unglue_rows(line, 3) == [line]
    assert unglue_rows("Issued: 2,300 2,300 2,300 Common stock 840 836", 2) == [
        "Issued: 2,300 2,300 2,300",
        "Common stock 840 836",
    ]
    assert unglue_rows("Stock, $1.00 par value - 400 shares; none - - Total 5 6", 2) == [
        "Stock, $1.00 par value - 400 shares; none - -",
        "Total 5 6",
    ]
    assert unglue_rows("Trade receivables - $48 and $47 1,372 1,501 Other 1 2", 2) == [
        "Trade receivables - $48 and $47 1,372 1,501",
        "Other 1 2",
    ]
    assert unglue_rows("Other assets (Note 8 and 15) 1,513 1,722 Total 9 9", 2) == [
        "Other assets (Note 8 and 15) 1,513 1,722",
        "Total 9 9",
    ]
    assert unglue_rows(line, 0) == [line]
    assert unglue_rows("Refer to Note 18 — Acquisitions and Divestitures", 1) == [
        "Refer to Note 18 — Acquisitions and Divestitures"
    ]
    assert unglue_rows("Paid-in capital - - Retained earnings 2,668 4,233", 2) == [
        "Paid-in capital - -",
        "Retained earnings 2,668 4,233",
    ]


def test_split_row_keeps_a_note_reference_in_the_label() -> None:
    """'(Note 11 and 14)' closes in the label: '14)' is no cell."""
    assert split_row("Other liabilities (Note 11 and 14) 1,308 1,291") == (
        "Other liabilities (Note 11 and 14)",
        ["1,308", "1,291"],
    )
    assert split_row("Restructuring charges (34) 254") == ("Restructuring charges", ["(34)", "254"])


def test_header_prefix_cuts_the_header_off_its_rows() -> None:
    """A period header that opens a line of rows is cut off it, caption kept apart; prose that
    names a date and a balance row that names one are no header."""
    cut = header_prefix("year Ended December 31, 2019 2018 Net income $ 2,214 $ 583", "income")
    assert cut == ("", "year Ended December 31, 2019 2018", "Net income $ 2,214 $ 583")
    assert header_prefix("2022 2021 Assets", "balance") == ("", "2022 2021", "Assets")
    caption, head, rest = header_prefix(
        "$ in millions, except per share amounts March 1, 2025 March 2, 2024 Cash $ 1 $ 2",
        "balance",
    ) or ("", "", "")
    assert head.endswith("March 1, 2025 March 2, 2024") and rest == "Cash $ 1 $ 2"
    assert caption + head == "$ in millions, except per share amounts March 1, 2025 March 2, 2024"
    assert header_prefix("Balance at December 31, 2021 1,000 2,000", "equity") is None
    assert (
        header_prefix("In 2022 the Company sold 12 plants for $300 million in cash", "income")
        is None
    )


def test_flowed_balance_sheet_reads_every_row() -> None:
    facts = _facts("ACME_2025_10K", FLOWED_BALANCE)
    # the section headings flowed into the first row stay in its label (never guessed apart)
    assert facts[("Assets Current assets Cash and cash equivalents", "2025Q1@end")] == 1_100e6
    assert facts[("Receivables, net", "2024Q1@end")] == 350e6
    assert facts[("Total current assets", "2025Q1@end")] == 3_500e6
    assert facts[("Total assets", "2025Q1@end")] == 4_500e6
    assert facts[("Total equity", "2025Q1@end")] == 3_300e6
    assert len(facts) == 18  # nine rows, two columns each


def test_title_run_into_the_header_after_a_running_head() -> None:
    lines = [ln for ln in RUN_ON_TITLE.split("\n") if ln]
    kind, title = statement_of_page(lines)
    assert kind == "cashflow" and title.startswith("Acme Index Consolidated Statements of Cash")
    facts = _facts("ACME_2024_10K", RUN_ON_TITLE)
    assert facts[("Operating Activities: Net income", "FY2023")] == 2_472e6
    assert facts[("Depreciation (Note 9)", "FY2022")] == 971e6
    assert facts[("Other liabilities (Note 11 and 14)", "FY2024")] == 20e6


def test_title_cut_from_the_page_before() -> None:
    """'heets Consolidated Balance Sheets': the tail of a word cut off the page before."""
    lines = ["Index", "heets Consolidated Balance Sheets Acme Incorporated", "December 31,"]
    assert statement_of_page(lines)[0] == "balance"
    assert statement_of_page(["Index", "net income was lower than expected"])[0] is None


def test_statement_below_a_release_prose() -> None:
    facts = _facts("ACME_2024Q2_10Q", RELEASE)
    assert facts[("Total assets", "2024Q2@end")] == 56_978e6  # scale from its own note
    assert facts[("Cash and cash equivalents", "FY2023@end")] == 2_547e6
    lines = [ln for ln in RELEASE.split("\n") if ln]
    assert statement_of_page(lines) == ("balance", "Consolidated Balance Sheets")
    # a formal title mid-page without the entity's name over it (an MD&A heading) is no page
    no_entity = [ln for ln in lines if ln != "Acme Corporation"]
    assert statement_of_page(no_entity) == (None, "")


def test_caption_year_over_the_column_years() -> None:
    """'Nine Months Ended September 30, 2024' over '2024 2023' names two columns, not three."""
    info = read_header(["Nine Months Ended September 30, 2024", "2024 2023"], "cashflow")
    assert info is not None
    assert [(p.fiscal_year, p.months) for p in info.periods] == [(2024, 9), (2023, 9)]
    two = read_header(["December 31, 2024 2023"], "balance")  # a dated column and a year
    assert two is not None and [p.fiscal_year for p in two.periods] == [2024, 2023]
    three = read_header(["Year Ended December 31, 2024", "2023 2022"], "income")
    assert three is not None and [p.fiscal_year for p in three.periods] == [2024, 2023, 2022]
    facts = _facts("ACME_2024Q3_10Q", NINE_MONTHS_FLOWS)
    assert len({k[1] for k in facts}) == 2


def test_one_month_and_day_per_column_over_a_line_of_years() -> None:
    """'October 29, October 30, January 29,' over '2022 2021 2022*': each column its own day
    (a quarter-end, the year-earlier quarter-end, the last year-end), not the first day for all."""
    info = read_header(
        ["October 29, October 30, January 29,", "($ in millions) 2022 2021 2022*"], "balance"
    )
    assert info is not None
    assert [str(p.end_date) for p in info.periods] == ["2022-10-29", "2021-10-30", "2022-01-29"]


def test_a_day_broken_onto_its_own_line_stays_in_the_header() -> None:
    """'Three Months Ended April' / '30,' / '2023 2022': the day is the header's (the quarter
    ended April 30), not lost, so the columns get their end dates."""
    page = (
        "Acme Inc.\nCondensed Consolidated Statements of Income\n(Unaudited)\n"
        "Three Months Ended April\n30,\n(Amounts in millions) 2023 2022\n"
        "Total revenues 152,301 141,569\nOperating income 6,240 5,318\n"
        "Consolidated net income 1,896 2,103\n"
    )
    facts = [f for t in read_pages("ACME_2023Q1_10Q", [(2, page)]).tables for f in t.facts]
    assert {str(f.period.end_date) for f in facts} == {"2023-04-30", "2022-04-30"}


def test_an_index_run_onto_one_line_is_no_statement_page() -> None:
    """'Consolidated Statements of Operations 56 Consolidated Statements of ... 57 ...': the
    statements an index lists, with their page numbers, on one line."""
    lines = [
        "ITEM 8. FINANCIAL STATEMENTS AND SUPPLEMENTARY DATA",
        "Consolidated Statements of Operations 56 Consolidated Statements of Comprehensive "
        "Income (Loss) 57 Consolidated Statements of Cash Flows 58 Consolidated Statements of "
        "Stockholders' Equity 59 Notes to Consolidated Financial Statements 60",
    ]
    assert statement_of_page(lines) == (None, "")


EQUITY_WITH_FOOT = """CONSOLIDATED STATEMENTS OF SHAREHOLDERS' EQUITY
(In millions)
Shares Amount Retained Earnings Total Equity
Balances as of September 26, 2015 5,578,753 27,416 92,284 119,355
Net income - - 45,687 45,687
Balances as of September 24, 2016 5,336,166 31,251 96,364 128,249
Acme Inc. | 2016 Form 10-K | 42
"""


def test_a_date_after_figures_opens_no_header() -> None:
    """A running foot naming a year after the rows ('Acme Inc. | 2016 Form 10-K | 42') and prose
    naming a year ('Following the 2015 Merger, we revised ...') are no period headers."""
    read = read_pages("ACME_2016_10K", [(44, EQUITY_WITH_FOOT)])
    assert [t.statement for t in read.tables] == ["equity"]
    assert not any("Form 10-K" in t.labels for t in read.tables)
    prose = "Following the 2015 Merger, we revised our segment structure and began to report four"
    assert header_prefix(prose, "segment") is None
    assert header_prefix("Fiscal Year 2022 2021 Net earnings, including earnings of", "income")
    sentence = "Exchange of bonds maturing in 2038 for $1.8 billion of new 2.735% U.K. Bonds"
    assert header_prefix(sentence, "cashflow") is None  # one year, after a sentence
    assert header_prefix("Zogg fire, and 2021 Dixie fire, net of insurance.", "income") is None


def test_a_contents_page_listing_statements_with_their_periods_is_no_statement() -> None:
    """A table of contents whose entries run on past the title ('Consolidated statements of
    income (unaudited) for the three and six months ended June 30, 2024 and 2023') lists the
    statements: none of its entries is a title, and the page is an index."""
    lines = [
        "FORM 10-Q",
        "TABLE OF CONTENTS",
        "Page",
        "Consolidated Financial Statements - Acme Corp.:",
        "Consolidated statements of income (unaudited) for the three and six months ended June "
        "30, 2024 and 2023",
        "88",
        "Consolidated balance sheets (unaudited) at June 30, 2024 and December 31, 2023",
        "90",
        "Consolidated statements of cash flows (unaudited) for the six months ended June 30, 2024",
        "92",
    ]
    assert statement_of_page(lines) == (None, "")


# a section heading glued to its first row, each row complete on its line, and the section's
# total printed without a caption on the line after its last row
GLUED_HEADING = """ACME RESORTS INC. CONSOLIDATED STATEMENTS OF OPERATIONS
(In thousands, except per share data)
Year Ended December 31, 2024 2023 Revenues Casino $ 6,500 $ 5,700
Rooms 2,300 2,200
Reimbursed costs 400 425
9,200 8,325
Expenses Casino 3,600 3,100
Depreciation and amortization 1,300 1,100
4,900 4,200
Operating income 4,300 4,125
Allowance for doubtful accounts of $40 and $42
"""


def test_uncaptioned_total_is_no_row_of_its_own_and_names_the_glued_heading() -> None:
    """A figures-only line that sums the run of rows above it is their total: the row before
    it keeps its own figures, and a heading glued to the run's first caption ('Revenues
    Casino') names the total, not the first row; figures that do not sum stay apart."""
    facts = _facts("ACMERESORTS_2024_10K", GLUED_HEADING)
    assert facts[("Casino", "FY2024")] == 6_500_000
    assert facts[("Total revenues", "FY2024")] == 9_200_000
    assert facts[("Reimbursed costs", "FY2023")] == 425_000
    assert facts[("Depreciation and amortization", "FY2024")] == 1_300_000
    assert ("Revenues Casino", "FY2024") not in facts


# the entity's name and the title printed a word a line (MGM Resorts' statements): the title
# ends below the first eight lines
WORD_A_LINE = """ACME
RESORTS
INTERNATIONAL
AND
SUBSIDIARIES
CONSOLIDATED
STATEMENTS
OF
CASH
FLOWS
(In thousands)
Year
Ended
December
31,
2016 2015 2014
Cash
flows
from
operating
activities
Net income (loss) $ 1,236,878 $ (1,039,649) $ 127,178
Net cash provided by operating activities 1,533,972 1,005,079 1,130,670
Capital expenditures, net of construction payable (2,262,473) (1,466,819) (872,041)
"""


def test_title_printed_a_word_a_line() -> None:
    """A statement titled a word a line under its entity's name printed the same way is read
    as its statement; a page opening on a few short words and no formal title is none."""
    kind, title = statement_of_page(WORD_A_LINE.split("\n"))
    assert kind == "cashflow" and title == "CONSOLIDATED STATEMENTS OF CASH FLOWS"
    facts = _facts("ACME_2016_10K", WORD_A_LINE)
    # an outflow item: its figure is the amount spent
    assert (
        abs(facts[("Capital expenditures, net of construction payable", "FY2016")]) == 2_262_473e3
    )
    prose = [
        "Table",
        "of",
        "Contents",
        "Item",
        "7.",
        "Results",
        "of",
        "Operations",
        "Revenue",
        "grew",
    ]
    assert statement_of_page(prose)[0] is None


WORD_A_LINE_INCOME = """ACME
RESORTS
INTERNATIONAL
AND
SUBSIDIARIES
CONSOLIDATED
STATEMENTS
OF
OPERATIONS
(In thousands, except per share data)
Year
Ended
December
31,
2016 2015 2014
Revenues 9,455,123 9,190,068 10,081,984
Income
(loss)
before
income
taxes 1,259,177 (1,046,243) 410,886
Benefit (provision) for income taxes (22,299) 6,594 (283,708)
Net
income
(loss) 1,236,878 (1,039,649) 127,178
Less: Net (income) loss attributable to noncontrolling interests (135,438) 591,929 (277,051)
Net
income
(loss)
attributable
to
ACME
Resorts
International $ 1,101,440 $ (447,720) $ (149,873)
Net
income
(loss)
per
share
attributable
to
ACME
Resorts
International
Basic $ 1.94 $ (0.82) $ (0.31)
"""


def test_caption_goes_on_past_a_joining_word_and_a_name() -> None:
    """'Net income (loss) attributable to' never ends a caption: the name printed a word a line
    below it is the caption's, to its last word ('International'); the row after that is a row
    of its own ('Basic')."""
    facts = _facts("ACME_2016_10K", WORD_A_LINE_INCOME)
    assert (
        facts[("Net income (loss) attributable to ACME Resorts International", "FY2016")]
        == 1_101_440e3
    )
    assert facts[("Basic", "FY2016")] == 1.94
    assert ("International", "FY2016") not in facts


NET_OF_DEDUCTION = """ACME RESORTS INTERNATIONAL AND SUBSIDIARIES
CONSOLIDATED STATEMENTS OF OPERATIONS
(In thousands)
Year Ended December 31, 2016 2015 2014
Revenues
Casino $ 4,936,490 $ 4,842,836 $ 5,878,775
Rooms 2,023,841 1,876,733 1,768,012
7,000,000 6,800,000 7,700,000
Less: Promotional allowances (793,571) (751,773) (766,280)
9,455,123 9,190,068 10,081,984
Expenses
Casino 2,718,483 2,882,752 3,643,881
"""


def test_net_line_after_a_deduction_row() -> None:
    """The figures-only line after 'Less: Promotional allowances (793,571) ...' is the net of
    the block ('Net revenues'), not figures of the deduction's caption."""
    facts = _facts("ACME_2016_10K", NET_OF_DEDUCTION)
    assert facts[("Net revenues", "FY2016")] == 9_455_123e3
    assert abs(facts[("Less: Promotional allowances", "FY2016")]) == 793_571e3
