"""Filing metadata from a document name: '3M_2018_10K', 'Pfizer_2023Q2_10Q',
'AMCOR_2022_8K_dated-2022-07-01', 'ULTABEAUTY_2023Q4_EARNINGS', 'aapl-20230930.htm'."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date
from pathlib import PurePath

from finqa.lexicon.entities import Company, company_for_doc, lookup_company

__all__ = ["DocMeta", "parse_doc_name"]


@dataclass(frozen=True, slots=True)
class DocMeta:
    company: str | None = None
    ticker: str | None = None
    doc_type: str | None = None  # 10k | 10q | 8k | earnings | 10k_annualreport
    fiscal_year: int | None = None
    quarter: int | None = None
    period: str | None = None  # 'FY2018' | '2023Q2'
    date: str | None = None  # ISO date of an 8-K / release when the name has one


_TYPES = {
    "10K": "10k",
    "10-K": "10k",
    "10Q": "10q",
    "10-Q": "10q",
    "8K": "8k",
    "8-K": "8k",
    "EARNINGS": "earnings",
    "ANNUALREPORT": "10k_annualreport",
    "ANNUAL_REPORT": "10k_annualreport",
}
_TYPE_RX = re.compile(r"(?:^|[_\-\s])(10-?K|10-?Q|8-?K|EARNINGS|ANNUAL_?REPORT)(?=$|[_\-\s])", re.I)
_YEAR_Q = re.compile(r"(?:^|[_\-\s])((?:19|20)\d\d)(?:Q([1-4]))?(?=$|[_\-\s])", re.I)
_DATED = re.compile(r"dated[_\-\s]?((?:19|20)\d\d)-(\d\d)-(\d\d)", re.I)
_EDGAR = re.compile(r"^([a-z.]{1,6})-((?:19|20)\d\d)(\d\d)(\d\d)$", re.I)


def parse_doc_name(doc_name: str) -> DocMeta:
    """Company, ticker, doc type, fiscal year / quarter / period and date from a filing name.

    Works on FinanceBench names and on file names or paths with an extension; fields it
    cannot read are None. The fiscal year follows the name (FinanceBench's doc_period).
    """
    stem = PurePath(doc_name.strip()).name
    stem = re.sub(r"\.(pdf|html?|txt|jsonl?|gz|xml)$", "", stem, flags=re.I)
    company: Company | None = company_for_doc(stem)
    doc_type = fiscal_year = quarter = iso = None
    edgar = _EDGAR.match(stem)
    if edgar:
        company = company or lookup_company(edgar.group(1).upper())
        iso = f"{edgar.group(2)}-{edgar.group(3)}-{edgar.group(4)}"
    tm = _TYPE_RX.search(stem)
    if tm:
        doc_type = _TYPES.get(tm.group(1).upper().replace("-", "")) or _TYPES.get(
            tm.group(1).upper()
        )
    dm = _DATED.search(stem)
    if dm:
        iso = f"{dm.group(1)}-{dm.group(2)}-{dm.group(3)}"
    # the year/quarter token comes before the doc type; ignore the one inside 'dated-...'
    head = stem[: dm.start()] if dm else stem
    ym = _YEAR_Q.search(head)
    if ym:
        fiscal_year = int(ym.group(1))
        quarter = int(ym.group(2)) if ym.group(2) else None
    elif iso is not None:
        day = date.fromisoformat(iso)
        fiscal_year = company.fiscal_year_of(day) if company else day.year
    period = None
    if fiscal_year is not None:
        period = f"{fiscal_year}Q{quarter}" if quarter else f"FY{fiscal_year}"
    return DocMeta(
        company=company.name if company else None,
        ticker=company.ticker if company else None,
        doc_type=doc_type,
        fiscal_year=fiscal_year,
        quarter=quarter,
        period=period,
        date=iso,
    )
