"""A PDF page whose statement text runs on one line puts the section headings on the first
caption under them ('Assets Current assets Cash and cash equivalents $ 5,494 $ 2,229', 'Cash
flows from investing activities Capital expenditures, net of construction payable (739,006)'):
the statement reader reads the caption after the headings, so the cash balance and the capital
expenditures are read (issue #25: a balance asked, the statement not read)."""

from __future__ import annotations

import pytest
from finqa.lexicon.statements.catalogue import item_for_label
from finqa.lexicon.statements.reader import read_pages

PAGE = (
    "Consolidated Balance Sheets\n$ and shares in millions, except per share amounts January 30, "
    "2021 February 1, 2020 Assets Current assets Cash and cash equivalents $ 5,494 $ 2,229 "
    "Receivables, net 1,061 1,149 Merchandise inventories 5,612 5,174 Other current assets 373 "
    "305 Total current assets 12,540 8,857 Total assets $ 19,067 $ 15,591 Liabilities and equity "
    "Current liabilities Accounts payable $ 6,979 $ 5,288 Total current liabilities 10,521 8,060"
)


@pytest.mark.parametrize(
    ("caption", "item"),
    [
        ("Assets Current assets Cash and cash equivalents", "cash"),
        ("Liabilities and equity Current liabilities Accounts payable", "accounts_payable"),
        ("Current assets Merchandise inventories", "inventory"),
        ("Assets held for sale", None),  # a caption of its own, no heading before another
        ("Revenues Casino", None),  # an income statement heading over a part: not a balance
        (
            "Cash flows from investing activities Capital expenditures, net of construction payable",
            "capex",
        ),
        (
            "Cash flows from financing activities Dividends paid to common shareholders",
            "dividends_paid",
        ),
        ("Cash flows from operating activities", "cfo"),  # the heading alone: the section's own
    ],
)
def test_caption_after_the_headings(caption: str, item: str | None) -> None:
    assert item_for_label(caption) == item


def test_the_cash_balance_is_read_from_a_one_line_page() -> None:
    read = read_pages("BESTBUY_2021_10K", [(40, PAGE)])
    cash = [
        f.value
        for t in read.tables
        for f in t.facts
        if f.item == "cash" and f.period.fiscal_year == 2021
    ]
    assert cash == [5_494_000_000.0]


def test_without_headings_gives_the_caption_itself() -> None:
    from finqa.lexicon.statements.catalogue import without_headings

    assert without_headings("Assets Current assets Cash and cash equivalents") == (
        "Cash and cash equivalents"
    )
    # a side word of the caption's own stays: the current portion is the current side
    assert (
        without_headings("Current portion of long-term debt") == "Current portion of long-term debt"
    )


def test_the_balance_read_under_headings_is_accepted() -> None:
    """The judge reads the caption after the headings too: 'Current assets' over the cash line
    is no side of cash (it used to refuse the balance as 'the current side')."""
    from _reasoning_data import evidence
    from finqa.agents.config import Settings
    from finqa.agents.judge import JudgeAgent
    from finqa.agents.types import Answer, Calculation, Operand

    q = "How much cash and cash equivalents did Best Buy report on its balance sheet at January 30, 2021?"
    row = "Assets Current assets Cash and cash equivalents $ 5,494 $ 2,229"
    answer = Answer(
        text=f"Cash and cash equivalents as of January 30, 2021: $5,494 million [S1]. Read from "
        f"the line '{row}' [S1] (amounts in USD millions). Answer: $5,494 million.",
        calculations=(
            Calculation(
                description="Cash and cash equivalents as of January 30, 2021 (USD millions)",
                expression="cash_fy2021",
                operands=(
                    Operand(name="cash_fy2021", value=5494.0, unit="USD", scale=1e6,
                            period="FY2021", source_id="S1", text=row),
                ),
                result=5494.0,
                unit="USD",
            ),
        ),
    )  # fmt: skip
    ev = evidence(PAGE, doc="BESTBUY_2021_10K", question=q)
    verdict = JudgeAgent(Settings()).evaluate(q, answer, ev, 1)
    assert verdict.decision == "accept", verdict.details["answer_problems"]


def test_a_dash_between_words_joins_a_caption() -> None:
    """'Cost of sales—intellectual property licenses 28': the dash joins the caption's words;
    only a dash standing alone is a nil figure."""
    from finqa.lexicon.named_line import captions

    assert captions("Cost of sales\u2014intellectual property licenses 28 34 87") == (
        "Cost of sales\u2014intellectual property licenses",
    )
    assert captions("Goodwill impairment \u2014 1,467,991") == ("Goodwill impairment",)
