"""A statement page the extraction printed a word a line (PG&E's 10-Ks): the title under
'ITEM 8.', captions broken one word a line with their figures one a line after them, read back
into rows; the tax line then signed by the statement's own identity."""

from __future__ import annotations

from finqa.lexicon.statements import MemoryStatementStore, read_pages
from finqa.lexicon.statements.text import join_word_lines

DOC = "ACME_2015_10K"

WORDS = ["ITEM", "8.", "FINANCIAL", "STATEMENTS", "AND", "SUPPLEMENTARY", "DATA", "Acme"]
WORDS += ["Corporation", "CONSOLIDATED", "STATEMENTS", "OF", "INCOME"]

PAGE = "\n".join(
    [
        *WORDS,
        "(in",
        "millions,",
        "except",
        "per",
        "share",
        "amounts)",
        "Year",
        "ended",
        "December",
        "31,",
        "2015 2014 2013",
        "Operating",
        "Revenues",
        "Electric $ 13,657 $ 13,658 $ 12,494",
        "Natural gas 3,176 3,432 3,104",
        "Total",
        "operating",
        "revenues 16,833",
        " 17,090",
        " 15,598",
        "Operating",
        "Expenses",
        "Cost of electricity 15,972 14,640 13,836",
        "Operating",
        "Income 17 1,882 1,762",
        "Other income, net 844 (87) (666)",
        "Income",
        "Before",
        "Income",
        "Taxes 861",
        " 1,795",
        " 1,096",
        "Income tax (benefit) provision (27) 345 268",
        "Net",
        "Income 888",
        " 1,450",
        " 828",
        "See accompanying Notes to the Consolidated Financial Statements.",
    ]
)


def _facts() -> dict[tuple[str, str], float]:
    store = MemoryStatementStore(read_pages(DOC, [(68, PAGE)]).tables)
    return {
        (f.item or f.label, f.period.key): f.filed_value
        for t in store.tables(DOC)
        if t.statement == "income"
        for f in t.facts
    }


def test_captions_and_their_figures_read_back_into_rows() -> None:
    lines = join_word_lines([ln.strip() for ln in PAGE.split("\n")])
    assert "Total operating revenues 16,833 17,090 15,598" in lines
    assert "Income Before Income Taxes 861 1,795 1,096" in lines
    assert "Operating Revenues" in lines  # a heading over its own rows
    assert "Electric $ 13,657 $ 13,658 $ 12,494" in lines


def test_statement_found_under_item_8_and_read() -> None:
    facts = _facts()
    assert facts[("revenue", "FY2015")] == 16833.0
    assert facts[("pretax_income", "FY2014")] == 1795.0
    assert facts[("net_income", "FY2013")] == 828.0
    # (27) on '(benefit) provision': 861 - (-27) = 888, a benefit
    assert facts[("income_tax_expense", "FY2015")] == -27.0
    assert facts[("income_tax_expense", "FY2014")] == 345.0


def test_a_page_of_ordinary_rows_is_left_as_it_is() -> None:
    lines = ["Net sales 45,754 43,004", "Cost of sales 30,000 28,000", "Gross profit 15,754 15,004"]
    assert join_word_lines(lines * 10) == lines * 10


def test_a_run_over_rows_of_one_word_is_their_heading() -> None:
    """'Earnings' / 'per' / 'share' over 'Basic $ 3.39 ...' and 'Diluted $ 3.35 ...' (MGM's
    page): a heading of two rows, not the start of the first one's caption."""
    words = [ln.strip() for ln in PAGE.split("\n")]
    lines = join_word_lines(
        [
            *words,
            "Earnings",
            "per",
            "share",
            "Basic $ 3.39 $ 1.94 $ (0.82)",
            "Diluted $ 3.35 $ 1.92",
        ]
    )
    assert lines[-3:] == [
        "Earnings per share",
        "Basic $ 3.39 $ 1.94 $ (0.82)",
        "Diluted $ 3.35 $ 1.92",
    ]
