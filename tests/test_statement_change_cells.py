"""A release's income statement prints, after the quarter's and the prior year's figures, the
change between them ('Inc/ (Dec)': in dollars and in percent). Those cells are dropped row by
row where the arithmetic confirms them; a third figure that is not the difference is never
taken for a change (the row is not read as two periods)."""

from __future__ import annotations

from finqa.lexicon.statements import read_pages

DOC = "ACME_2023Q2_EARNINGS"
PAGE = """ACME CORPORATION
CONDENSED CONSOLIDATED STATEMENT OF INCOME (UNAUDITED)
Dollars and shares in millions, except per share data
Quarters Ended June 30, 2023 2022 Inc/ (Dec)
Revenues
Sales by company-operated stores $ 2,487.0 $ 2,112.8 $ 374.2 18 %
Revenues from franchised stores 3,933.3 3,526.8 406.5 12
Other revenues 77.2 78.8 (1.6) (2)
TOTAL REVENUES 6,497.5 5,718.4 779.1 14
Operating costs and expenses
Company-operated store expenses 2,091.3 1,769.8 321.5 18
Other operating (income) expense, net (35.8) 886.1 (921.9) n/m
Total operating costs and expenses 2,055.5 2,655.9 (600.4) (23)
OPERATING INCOME 4,442.0 3,062.5 1,379.5 45
NET INCOME $ 3,310.4 $ 2,188.0 $ 1,122.4 51 %
EARNINGS PER SHARE-DILUTED $ 3.15 $ 1.60 $ 1.55 97 %
"""


def _facts(text: str) -> dict[str, list[float]]:
    read = read_pages(DOC, [(4, text)])
    out: dict[str, list[float]] = {}
    for t in read.tables:
        if t.statement == "income":
            for f in t.facts:
                out.setdefault(f.label, []).append(f.value)
    return out


def test_change_cells_dropped_where_the_arithmetic_confirms_them() -> None:
    facts = _facts(PAGE)
    assert facts["TOTAL REVENUES"] == [6_497.5e6, 5_718.4e6]
    assert facts["Other operating (income) expense, net"] == [-35.8e6, 886.1e6]
    assert facts["EARNINGS PER SHARE-DILUTED"] == [3.15, 1.60]


def test_a_third_figure_that_is_no_difference_is_not_dropped() -> None:
    """'2,487.0 2,112.8 1,950.0' is three figures, not two and their change: not read."""
    text = PAGE.replace("$ 374.2 18 %", "$ 1,950.0 18 %")
    facts = _facts(text)
    assert "Sales by company-operated stores" not in facts
    assert facts["TOTAL REVENUES"] == [6_497.5e6, 5_718.4e6]
