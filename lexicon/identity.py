"""Which filing a document is, read from the document itself.

Company (registrant -> gazetteer company, CIK, ticker), form (10-K, 10-Q, 8-K, earnings
release, other; amendments), fiscal year and period by the company's own convention
(FY N ends in calendar year N), period-end date and filing date. Sources, in order of trust:
a sidecar row (the user's `--metadata`), inline XBRL `dei:` facts, an EDGAR SGML header,
the cover page, an earnings release's first lines, and the file name last (only names of
a known shape: `3M_2018_10K`, `adbe-20241129`, `adbe-10-k-2025-01-13`). Every field records
the source that gave it. A field no source states stays None: nothing is guessed from
stray digits.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date, timedelta
from pathlib import PurePath
from typing import Any

from finqa.lexicon.entities import Company, find_companies, lookup_company
from finqa.lexicon.periods import DATE_PATTERN, parse_date, quarter_of

__all__ = [
    "FilingIdentity",
    "identify",
    "parse_sgml_header",
    "normalize_form",
    "FIELDS",
]

FIELDS = (
    "company",
    "ticker",
    "cik",
    "registrant",
    "form",
    "doc_type",
    "amendment",
    "fiscal_year",
    "fy_label",
    "fiscal_period",
    "period",
    "period_end",
    "filing_date",
    "report_date",
)


@dataclass(frozen=True)
class FilingIdentity:
    """What a filing is; `sources[field]` names where each known field came from."""

    company: str | None = None  # gazetteer name when known, else the registrant as printed
    ticker: str | None = None
    cik: str | None = None
    registrant: str | None = None  # exact name as printed in the filing
    registrants: tuple[str, ...] = ()  # every registrant of a combined filing
    form: str | None = None  # as filed: '10-K', '10-Q/A', '8-K', 'earnings release', ...
    doc_type: str | None = None  # 10k | 10q | 8k | earnings | other
    amendment: bool = False
    fiscal_year: int | None = None  # FY N ends in calendar year N
    # how the filer itself names its fiscal years: 'end' (by the calendar year a year ends in,
    # most filers) or 'start' (a retailer's year ended February 3, 2024 is its 'fiscal 2023');
    # None when nothing in the filing says (the gazetteer's naming is then the fall-back)
    fy_label: str | None = None
    fiscal_period: str | None = None  # FY | Q1..Q4
    period: str | None = None  # 'FY2024' | '2025Q3'
    period_end: str | None = None  # ISO date
    filing_date: str | None = None  # ISO date
    report_date: str | None = None  # ISO date of an 8-K's event or a release's dateline
    sources: Mapping[str, str] = field(default_factory=dict)

    @property
    def unknown(self) -> bool:
        """True when no source named the company or the form."""
        return self.company is None and self.doc_type is None

    def as_meta(self) -> dict[str, Any]:
        """Plain dict for chunk / document metadata (JSON-serialisable)."""
        out: dict[str, Any] = {k: getattr(self, k) for k in FIELDS}
        out["registrants"] = list(self.registrants)
        out["sources"] = dict(self.sources)
        return out


# --------------------------------------------------------------------------- forms

_FORM_TYPES = {
    "10K": "10k",
    "10KT": "10k",
    "10K405": "10k",
    "10Q": "10q",
    "10QT": "10q",
    "8K": "8k",
    "20F": "other",
    "40F": "other",
    "6K": "other",
    "EARNINGS": "earnings",
    "EARNINGS RELEASE": "earnings",
    "ANNUAL REPORT": "10k",
}


def normalize_form(value: str | None) -> tuple[str | None, bool]:
    """('10k' | '10q' | '8k' | 'earnings' | 'other' | None, is_amendment) of a form name."""
    if not value or not value.strip():
        return None, False
    s = value.strip().upper()
    amendment = bool(re.search(r"/\s*A\b|\bAMENDMENT\b", s))
    s = re.sub(r"/\s*A\b", "", s).strip()
    key = s.replace("-", "").replace(" ", "") if not s.startswith("EARNINGS") else s
    if key in _FORM_TYPES:
        return _FORM_TYPES[key], amendment
    if s.startswith("EARNINGS") or s == "ANNUAL REPORT":
        return _FORM_TYPES.get(s, "earnings"), amendment
    return "other", amendment


# --------------------------------------------------------------------------- helpers


class _Draft:
    """Fields filled in source order: the first source to state a field wins."""

    def __init__(self) -> None:
        self.values: dict[str, Any] = {}
        self.sources: dict[str, str] = {}
        self.registrants: list[str] = []
        # (year, source) of the filer's own name for the reported fiscal year: the dei
        # fiscal-year focus, or the first pages' 'fiscal 2023 ... ended February 3, 2024'
        self.named_year: tuple[int, str] | None = None
        self.named_end: date | None = None  # the period end the text names the year with

    def put(self, name: str, value: Any, source: str) -> None:
        if value in (None, "") or name in self.values:
            return
        self.values[name] = value
        self.sources[name] = source

    def get(self, name: str) -> Any:
        return self.values.get(name)


def _iso(day: date | None) -> str | None:
    return day.isoformat() if day else None


def _date_in(text: str) -> date | None:
    m = re.search(DATE_PATTERN, text, re.I)
    return parse_date(m) if m else None


def _company(name: str | None) -> Company | None:
    if not name:
        return None
    cleaned = re.sub(r"\s+", " ", name).strip(" ,.;:")
    return lookup_company(cleaned) or lookup_company(cleaned.title())


def _fiscal_year(day: date, company: Company | None, fye_month: int | None) -> int:
    """FY N ends in calendar year N; 52/53-week years end up to a week into the next month."""
    month = company.fiscal_year_end_month if company else fye_month
    if day.day <= 7:
        day = day - timedelta(days=7)
    if month is None:
        return day.year
    return day.year if day.month <= month else day.year + 1


def _quarter(day: date, company: Company | None, fye_month: int | None) -> int | None:
    if company is not None:
        return quarter_of(day, company)
    if fye_month is None:
        return None
    shifted = day - timedelta(days=7) if day.day <= 7 else day
    return ((shifted.month - (fye_month % 12 + 1)) % 12) // 3 + 1


# --------------------------------------------------------------------------- dei: facts


def _from_dei(dei: Mapping[str, str], d: _Draft) -> None:
    src = "xbrl dei"
    names = [n for n in dei.get("EntityRegistrantName", "").split("\n") if n.strip()]
    for n in names:
        if n.strip() not in d.registrants:
            d.registrants.append(n.strip())
    if names:
        d.put("registrant", names[0].strip(), src)
    d.put("cik", (dei.get("EntityCentralIndexKey") or "").strip().lstrip("0") or None, src)
    symbols = [s for s in (dei.get("TradingSymbol") or "").split("\n") if s.strip()]
    if symbols:
        d.put("ticker", symbols[0].strip().upper(), src)
    form, amended = normalize_form(dei.get("DocumentType"))
    d.put("doc_type", form, src)
    if form:
        d.put("form", dei.get("DocumentType", "").strip(), src)
    flag = (dei.get("AmendmentFlag") or "").strip().lower()
    if flag in ("true", "false") or amended:
        d.put("amendment", amended or flag == "true", src)
    if (dei.get("DocumentFiscalYearFocus") or "").strip().isdigit():
        # the filer's own name for the year; the end-year FY is derived from the period end
        # when there is one (see `_naming`), this is the fall-back
        d.named_year = (int(dei["DocumentFiscalYearFocus"].strip()), src)
    fp = (dei.get("DocumentFiscalPeriodFocus") or "").strip().upper()
    if fp in ("FY", "Q1", "Q2", "Q3", "Q4"):
        d.put("fiscal_period", fp, src)
    d.put("period_end", _iso(_date_in(dei.get("DocumentPeriodEndDate") or "")), src)
    fye = (dei.get("CurrentFiscalYearEndDate") or "").strip()
    m = re.match(r"-*(\d\d)-?(\d\d)$", fye)
    month = int(m.group(1)) if m else None
    if month is None:
        named = re.match(r"([A-Za-z]+)", fye)
        if named:
            guess = _date_in(f"{named.group(1)} 1, 2000")
            month = guess.month if guess else None
    if month:
        d.put("fye_month", month, src)


# --------------------------------------------------------------------------- SGML header

_SGML_KEYS = {
    "COMPANY CONFORMED NAME": "name",
    "CENTRAL INDEX KEY": "cik",
    "CONFORMED SUBMISSION TYPE": "form",
    "CONFORMED PERIOD OF REPORT": "period",
    "FILED AS OF DATE": "filed",
    "FISCAL YEAR END": "fye",
}


def parse_sgml_header(text: str) -> dict[str, list[str]]:
    """Key fields of an EDGAR full-submission header (`<SEC-HEADER>` ... `</SEC-HEADER>`)."""
    head = text.split("</SEC-HEADER>", 1)[0] if "</SEC-HEADER>" in text else text[:20000]
    out: dict[str, list[str]] = {}
    for line in head.splitlines():
        key, sep, value = line.partition(":")
        name = _SGML_KEYS.get(key.strip().upper())
        if sep and name and value.strip():
            out.setdefault(name, []).append(value.strip())
    return out


def _yyyymmdd(value: str) -> date | None:
    m = re.fullmatch(r"((?:19|20)\d\d)(\d\d)(\d\d)", value.strip())
    if not m:
        return None
    try:
        return date(int(m.group(1)), int(m.group(2)), int(m.group(3)))
    except ValueError:
        return None


def _from_sgml(header: Mapping[str, Sequence[str]], d: _Draft) -> None:
    src = "sgml header"
    names = list(header.get("name", ()))
    if not d.registrants:  # the registrants of one source: a combined filing's, not a mix
        d.registrants.extend(dict.fromkeys(names))
    if names:
        d.put("registrant", names[0], src)
    ciks = header.get("cik", ())
    if ciks:
        d.put("cik", ciks[0].lstrip("0") or None, src)
    forms = header.get("form", ())
    if forms:
        kind, amended = normalize_form(forms[0])
        d.put("doc_type", kind, src)
        d.put("form", forms[0], src)
        d.put("amendment", amended, src)
    periods = header.get("period", ())
    if periods:
        d.put("period_end", _iso(_yyyymmdd(periods[0])), src)
    filed = header.get("filed", ())
    if filed:
        d.put("filing_date", _iso(_yyyymmdd(filed[0])), src)
    fye = header.get("fye", ())
    if fye and re.fullmatch(r"\d{4}", fye[0]):
        d.put("fye_month", int(fye[0][:2]), src)


# --------------------------------------------------------------------------- cover page

_SEC_COVER = re.compile(r"SECURITIES\s+AND\s+EXCHANGE\s+COMMISSION", re.I)
_FORM_LINE = re.compile(
    r"\bFORM\s+(10-?K(?:405|T)?|10-?Q(?:T)?|8-?K|20-?F|40-?F|6-?K)\s*(/\s*A)?(?![\w-])", re.I
)
_REPORT_KIND = re.compile(
    r"\b(ANNUAL|QUARTERLY|CURRENT)\s+REPORT\s+(?:PURSUANT|Pursuant)\s+to\s+Section", re.I
)
_AMENDMENT = re.compile(r"\bAmendment\s+No\.?\s*\d+\b", re.I)
_EXACT = re.compile(
    r"\(?\s*Exact\s+name\s+of\s+(?:the\s+)?registrants?\s+as\s+specified\s+in\s+(?:its|their)?\s*charter",
    re.I,
)
_PERIOD_ENDED = re.compile(
    r"For\s+the\s+(?P<kind>fis\s*cal\s+year|year|quarterly\s+period|quarter|transition\s+period)"
    r"\s+ended\s*:?(?P<gap>.{0,40}?)(?P<date>" + DATE_PATTERN + ")",
    re.I | re.S,
)
_REPORT_DATE = re.compile(
    r"Date\s+of\s+(?:Report|report)\s*\(Date\s+of\s+earliest\s+event\s+reported\)\s*:?\s*(?P<date>"
    + DATE_PATTERN
    + ")",
    re.I | re.S,
)
_REPORT_DATE_BEFORE = re.compile(  # 'July 21, 2021 / Date of Report (date of earliest event ...)'
    r"(?P<date>" + DATE_PATTERN + r")\s*\n\s*Date\s+of\s+Report", re.I
)
_NAME_TAIL = re.compile(
    r"^(?:PLC|INC\.?|CORP\.?|CO\.?|COMPANY|CORPORATION|LTD\.?|N\.?V\.?|S\.?A\.?|L\.?P\.?|LLC)$",
    re.I,
)
_NOT_NAME = re.compile(
    r"Commission\s+file|^(?:Commission|File\s+(?:No\.?|Number)|Number)$|I\.R\.S\.|Employer|\(State|jurisdiction|^\(?Mark\s+One|^[\d\s()./-]+$|"
    r"^[☒☐xo]$|TRANSITION|PURSUANT|_{3,}|-{3,}",
    re.I,
)


def _cover_start(pages: Sequence[str]) -> int | None:
    """Index of the page holding the SEC cover (within the first pages), or None."""
    for i, text in enumerate(pages[:8]):
        sec = _SEC_COVER.search(text[:1000])  # the cover's title, not a mention in a release
        head = text[: (sec.end() + 1500) if sec else 0]
        if (
            sec
            and re.search(r"Washington|20549", head, re.I)  # the SEC's address: a real cover
            and (_FORM_LINE.search(head) or _REPORT_KIND.search(head))
        ):
            return i
    return None


def _name_from_lines(lines: list[str]) -> str | None:
    """The registrant printed above '(Exact name of registrant ...)': the shortest run of
    the last lines that the gazetteer knows, else the last line or two as printed."""
    tail: list[str] = []
    for ln in reversed(lines[-5:]):
        if _NOT_NAME.search(ln) or len(ln) > 90:
            break
        tail.insert(0, ln)
    for size in range(1, len(tail) + 1):
        joined = " ".join(tail[-size:])
        if _company(joined) or _company(joined.replace(" ", "")):
            return joined
    if not tail:
        return None
    keep = tail[-2:] if len(tail) >= 2 and _NAME_TAIL.match(tail[-1]) else tail[-1:]
    return " ".join(keep)


def _registrants(cover: str) -> list[str]:
    names: list[str] = []
    for m in _EXACT.finditer(cover):
        lines = [ln.strip() for ln in cover[: m.start()].splitlines() if ln.strip()]
        name = _name_from_lines(lines)
        if name:
            name = re.sub(r"\s+", " ", name).strip(" ,")
            if name and name not in names:
                names.append(name)
    return names


def _from_cover(pages: Sequence[str], d: _Draft) -> bool:
    start = _cover_start(pages)
    if start is None:
        return False
    src = "cover page"
    cover = "\n".join(pages[start : start + 2])
    head = cover[:6000]
    fm = _FORM_LINE.search(head)
    kind = None
    if fm:
        form = fm.group(1).upper()
        form = form if "-" in form else form[:-1] + "-" + form[-1]
        if fm.group(2) or _AMENDMENT.search(head[:1500]):
            form += "/A"
        kind, amended = normalize_form(form)
        d.put("form", form, src)
        d.put("doc_type", kind, src)
        d.put("amendment", amended, src)
    else:
        rk = _REPORT_KIND.search(head)
        if rk:
            kind = {"ANNUAL": "10k", "QUARTERLY": "10q", "CURRENT": "8k"}[rk.group(1).upper()]
            d.put("doc_type", kind, src)
            d.put("form", {"10k": "10-K", "10q": "10-Q", "8k": "8-K"}[kind], src)
            d.put("amendment", bool(_AMENDMENT.search(head[:1500])), src)
    names = _registrants(cover[:8000])
    if not d.registrants:  # dei / SGML header registrants, when given, are the list
        d.registrants.extend(names)
    if names:
        d.put("registrant", names[0], src)
    pm = _PERIOD_ENDED.search(head)
    if pm and not pm.group("kind").lower().startswith("transition"):
        day = _date_in(pm.group("date"))
        d.put("period_end", _iso(day), src)
    rd = _REPORT_DATE.search(head) or _REPORT_DATE_BEFORE.search(head)
    if rd:
        d.put("report_date", _iso(_date_in(rd.group("date"))), src)
    if d.get("registrant") is None or _company(str(d.get("registrant"))) is None:
        # no readable "Exact name" line (a logo, a table layout): the first company the cover names
        found = [m for m in find_companies(head) if m.via in ("name", "alias", "former")]
        found = found or [m for m in find_companies(head) if m.via == "ticker"]  # 12(b) table
        if found:
            if d.sources.get("registrant") == src:
                del d.values["registrant"], d.sources["registrant"]
            d.put("registrant", found[0].matched, src)
    return True


# --------------------------------------------------------------------------- earnings release

_EXCHANGE_TICKER = re.compile(
    r"[(\[]\s*(?:NYSE(?:\s+American)?|NASDAQ(?:\s*GS|\s*GM)?|Nasdaq(?:\s*GS)?|LSE|ASX|TSX|NYSE\s+Arca)"
    r"\s*:\s*(?P<t>[A-Z][A-Z.]{0,5})\s*[)\]]",
)
_RELEASE_WORDS = re.compile(
    r"\b(?:reports?|reported|announces?|announced|results|FOR\s+IMMEDIATE\s+RELEASE|press\s+release)\b",
    re.I,
)
_FULL_DATE = re.compile(r"(?<![\w,.])" + DATE_PATTERN.split("|(?P<mon3>")[0] + ")", re.I)
_MONTH_QUARTER = re.compile(  # 'June 2023 quarter', 'the December 2022 quarter'
    r"\b(?P<date>(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[a-z]*\.?\s+(?:19|20)\d\d)\s+quarter\b",
    re.I,
)
_RELEASE_PERIOD = re.compile(
    r"\bended\s+(?P<date>" + DATE_PATTERN + ")", re.I
)  # the first: the period reported


def _looks_released(first_page: str) -> bool:
    """A first page that announces results with an exchange ticker ('(NYSE: KO)')."""
    return bool(_EXCHANGE_TICKER.search(first_page[:2500]))


def _quarter_end_before(day: date, company: Company | None) -> date:
    """The end of the last fiscal quarter whose closing month is before the dateline's month
    (results come out weeks after a quarter closes; 52/53-week quarters close in that month)."""
    fye = company.fiscal_year_end_month if company else 12
    ends = {(fye - 1 - 3 * k) % 12 + 1 for k in range(4)}
    probe = date(day.year, day.month, 1) - timedelta(days=1)  # last day of the month before
    while probe.month not in ends:
        probe = date(probe.year, probe.month, 1) - timedelta(days=1)
    return probe


def _from_release(pages: Sequence[str], d: _Draft) -> bool:
    head = "\n".join(pages[:2])[:2500]
    ticker = _EXCHANGE_TICKER.search(head)
    if not ticker and not _RELEASE_WORDS.search(head[:400]):  # a headline, not a body page
        return False
    if re.search(r"\bPART\s+I\b|\bITEM\s+1\.", head[:600]):  # a report's body, not a release
        return False
    src = "release first lines"
    if ticker:
        d.put("ticker", ticker.group("t"), src)
        before = head[max(0, ticker.start() - 80) : ticker.start()]
        found = [m for m in find_companies(before) if m.via in ("name", "alias", "former")]
        if found:
            d.put("registrant", found[-1].matched, src)
    if d.get("registrant") is None:
        found = [m for m in find_companies(head) if m.via in ("name", "alias", "former")]
        if found:
            d.put("registrant", found[0].matched, src)
    if not (ticker or d.get("registrant")):
        return False
    d.put("doc_type", "earnings", src)
    d.put("form", "earnings release", src)
    pm = _RELEASE_PERIOD.search(head)
    mq = _MONTH_QUARTER.search(head)
    if pm:
        d.put("period_end", _iso(_date_in(pm.group("date"))), src)
    elif mq:
        d.put("period_end", _iso(_date_in(mq.group("date"))), src)
    full = _FULL_DATE.search(head)  # the dateline: a full date ('April 25, 2023')
    dateline = parse_date(full) if full else None
    if dateline:
        d.put("report_date", _iso(dateline), src)
    return True


# 'fiscal 2022 ... ended January 28, 2023' / 'fiscal year ended January 28, 2023 ("fiscal
# 2022")': a year name and the date its period ends, close together on the first pages
_NAMED_YEAR = re.compile(
    r"\bfiscal(?:\s+year)?\s+(?P<y>(?:19|20)\d\d)\b(?P<gap>(?:(?!(?:19|20)\d\d)[^.;]){0,80}?)"
    r"\bended\s+(?P<date>" + DATE_PATTERN + ")",
    re.I | re.S,
)


def _from_naming_text(pages: Sequence[str], d: _Draft) -> None:
    """The year name the first pages give a period end, when no dei focus gave one."""
    if d.named_year is not None:
        return
    m = _NAMED_YEAR.search("\n".join(pages[:2])[:6000])
    if m is None:
        return
    day = _date_in(m.group("date"))
    if day is not None:
        d.named_year = (int(m.group("y")), "first pages text")
        d.named_end = day


def _from_first_text(pages: Sequence[str], d: _Draft) -> None:
    """No cover, no release: only an explicit 'for the fiscal year ended DATE' is taken."""
    pm = _PERIOD_ENDED.search("\n".join(pages[:2])[:4000])
    if pm and pm.group("kind").lower().startswith(("fiscal", "year")):
        day = _date_in(pm.group("date"))
        if day is not None:
            d.put("fiscal_year", _fiscal_year(day, None, None), "first page text")
            d.put("period_end", day.isoformat(), "first page text")


# --------------------------------------------------------------------------- file name

_FB_NAME = re.compile(
    r"^(?P<co>[A-Za-z0-9]+(?:_[A-Za-z]+)*?)_(?P<year>(?:19|20)\d\d)(?:Q(?P<q>[1-4]))?"
    r"_(?P<type>10K|10Q|8K|EARNINGS|10K_ANNUALREPORT)(?:_dated[-_](?P<date>\d{4}-\d\d-\d\d))?$",
    re.I,
)
_EDGAR_PERIOD = re.compile(r"^(?P<t>[a-z.]{1,6})-(?P<d>(?:19|20)\d{6})$", re.I)
_EDGAR_FILED = re.compile(
    r"^(?P<t>[a-z.]{1,6})-(?P<form>10-?k|10-?q|8-?k)(?P<a>-?a)?-(?P<d>(?:19|20)\d\d-\d\d-\d\d)$",
    re.I,
)


def _from_name(file_name: str, d: _Draft) -> None:
    src = "file name"
    stem = PurePath(file_name).name
    stem = re.sub(r"\.(pdf|html?|txt|jsonl?(?:\.gz)?|md)$", "", stem, flags=re.I)
    m = _FB_NAME.match(stem)
    if m:
        company = lookup_company(m["co"]) or lookup_company(m["co"].replace("_", " "))
        d.put("registrant", company.name if company else m["co"].replace("_", " ").title(), src)
        kind = normalize_form(m["type"].split("_")[0])[0]
        d.put("doc_type", kind, src)
        year = int(m["year"])
        d.put("fiscal_year", year, src)
        if m["q"]:
            d.put("fiscal_period", f"Q{m['q']}", src)
        elif kind == "10k":
            d.put("fiscal_period", "FY", src)
        if m["date"]:
            d.put("report_date", m["date"], src)
        return
    m = _EDGAR_FILED.match(stem)
    if m:
        company = lookup_company(m["t"].upper())
        if company:
            d.put("registrant", company.name, src)
            d.put("ticker", company.ticker, src)
        form = m["form"].upper().replace("-", "")
        form = form[:-1] + "-" + form[-1] + ("/A" if m["a"] else "")
        d.put("form", form, src)
        d.put("doc_type", normalize_form(form)[0], src)
        d.put("filing_date", m["d"], src)
        return
    m = _EDGAR_PERIOD.match(stem)
    if m:
        company = lookup_company(m["t"].upper())
        if company:
            d.put("registrant", company.name, src)
            d.put("ticker", company.ticker, src)
        d.put("period_end", _iso(_yyyymmdd(m["d"])), src)


# --------------------------------------------------------------------------- sidecar


def _from_sidecar(row: Mapping[str, Any], d: _Draft) -> None:
    src = "sidecar"
    if row.get("company"):
        d.put("registrant", str(row["company"]), src)
    if row.get("ticker"):
        d.put("ticker", str(row["ticker"]).upper(), src)
    if row.get("cik"):
        d.put("cik", str(row["cik"]).lstrip("0"), src)
    kind, amended = normalize_form(str(row.get("doc_type") or row.get("form") or ""))
    d.put("doc_type", kind, src)
    if kind and amended:
        d.put("amendment", True, src)
    period = str(row.get("doc_period") or row.get("fiscal_year") or "")
    if period[:4].isdigit():
        d.put("fiscal_year", int(period[:4]), src)
    for key in ("period_end", "filing_date"):
        if row.get(key):
            d.put(key, str(row[key])[:10], src)


# --------------------------------------------------------------------------- assembly


def identify(
    pages: Sequence[str] = (),
    *,
    dei: Mapping[str, str] | None = None,
    sgml: Mapping[str, Sequence[str]] | None = None,
    file_name: str | None = None,
    sidecar: Mapping[str, Any] | None = None,
) -> FilingIdentity:
    """Identity of one filing from its first pages' text and whatever structured hints it has."""
    d = _Draft()
    if sidecar:
        _from_sidecar(sidecar, d)
    if dei:
        _from_dei(dei, d)
    if sgml:
        _from_sgml(sgml, d)
    texts = [p for p in pages if p and p.strip()]
    release_first = bool(texts) and _cover_start(texts) is None and _looks_released(texts[0])
    if texts:
        done = release_first and _from_release(texts, d)
        if not (done or _from_cover(texts, d) or _from_release(texts, d)):
            _from_first_text(texts, d)
        _from_naming_text(texts, d)
    if file_name:
        _from_name(file_name, d)
    return _finish(d)


def _finish(d: _Draft) -> FilingIdentity:
    registrant = d.get("registrant")
    company = _company(registrant)
    if company is None and d.get("ticker"):
        company = lookup_company(str(d.get("ticker")))
    v, s = d.values, d.sources
    name_src = s.get("registrant")
    if company is not None:
        v["company"], s["company"] = company.name, name_src or s.get("ticker", "")
        if "ticker" not in v:
            v["ticker"], s["ticker"] = company.ticker, "lexicon (from " + (name_src or "") + ")"
    elif registrant:
        v["company"], s["company"] = re.sub(r"\s+", " ", str(registrant)).strip(), name_src or ""
    kind = v.get("doc_type")
    fye = v.get("fye_month")
    end = date.fromisoformat(v["period_end"]) if v.get("period_end") else None
    report_date = date.fromisoformat(v["report_date"]) if v.get("report_date") else None
    if kind == "earnings" and end is None and report_date is not None:
        end = _quarter_end_before(report_date, company)
        v["period_end"], s["period_end"] = end.isoformat(), s["report_date"] + " (dateline)"
    fy_label = _named_fiscal_year(d, company, end, fye, kind)
    if end is not None:
        derived = s["period_end"]
        if kind in ("10k", "10q", "earnings"):
            fy_month = fye
            if company is None and fy_month is None and kind == "10k":
                fy_month = (end - timedelta(days=7) if end.day <= 7 else end).month
            d.put("fiscal_year", _fiscal_year(end, company, fy_month), derived)
        if kind == "10k":
            d.put("fiscal_period", "FY", derived)
        elif kind in ("10q", "earnings"):
            q = _quarter(end, company, fye)
            if q is not None:
                d.put("fiscal_period", f"Q{q}", derived)
    if kind == "8k" and report_date is not None:  # an event filing: the report date's year
        d.put("fiscal_year", report_date.year, s["report_date"])
    fy, fp = v.get("fiscal_year"), v.get("fiscal_period")
    if fy is not None and fp is not None:
        period = f"FY{fy}" if fp == "FY" else f"{fy}{fp}"
        v["period"] = period
        s["period"] = s["fiscal_period"]
    registrants = tuple(d.registrants) or ((str(registrant),) if registrant else ())
    return FilingIdentity(
        company=v.get("company"),
        ticker=v.get("ticker"),
        cik=v.get("cik"),
        registrant=registrant,
        registrants=registrants,
        form=v.get("form") or ({"10k": "10-K", "10q": "10-Q", "8k": "8-K"}.get(kind or "")),
        doc_type=kind,
        amendment=bool(v.get("amendment", False)),
        fiscal_year=fy,
        fy_label=fy_label,
        fiscal_period=fp,
        period=v.get("period"),
        period_end=v.get("period_end"),
        filing_date=v.get("filing_date"),
        report_date=v.get("report_date"),
        sources={k: src for k, src in s.items() if k in FIELDS},
    )


def _named_fiscal_year(
    d: _Draft, company: Company | None, end: date | None, fye: int | None, kind: str | None
) -> str | None:
    """The filer's naming of its years (`_naming`); the dei focus is the fiscal year when it is
    the end-year FY or nothing tells how they relate: it wins over a year the cover's text gave,
    as the dei facts do for every other field (a sidecar, a corpus' own record, wins over it)."""
    fy_label = _naming(d, company, end, fye, kind)
    named = d.named_year
    from_dei = named if d.named_end is None else None
    if from_dei is not None and fy_label != "start" and d.sources.get("fiscal_year") != "sidecar":
        d.values["fiscal_year"], d.sources["fiscal_year"] = from_dei
    return fy_label


def _naming(
    d: _Draft, company: Company | None, end: date | None, fye: int | None, kind: str | None
) -> str | None:
    """How the filer names its fiscal years, from its own name for the reported year against
    the calendar year that year ends in: the same year -> 'end'; the year before -> 'start'
    (the year ended February 3, 2024 called 'fiscal 2023'). Recorded in `sources`."""
    named = d.named_year
    day = d.named_end or end
    if named is None or day is None:
        return None
    month = fye or (company.fiscal_year_end_month if company else None)
    if month is None and (kind == "10k" or d.named_end is not None):
        month = (day - timedelta(days=7) if day.day <= 7 else day).month  # a year's own end
    if month is None:
        return None
    ends_in = _fiscal_year(day, company, month)
    if d.named_end is not None and end is not None and abs((d.named_end - end).days) > 7:
        return None  # the text named another period than the one the filing reports
    label = {ends_in: "end", ends_in - 1: "start"}.get(named[0])
    if label == "start" and (day - timedelta(days=7) if day.day <= 7 else day).month >= 6:
        return None  # a year named by its start lies mostly in that year: it ends by May
    if label is not None:
        d.sources["fy_label"] = f"{named[1]}: fiscal {named[0]} ended {day.isoformat()}"
    return label
