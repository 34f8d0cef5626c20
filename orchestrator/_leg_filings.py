"""The filings a leg can be read from, and what their statements say for the leg's period.

A leg is one company's figure for one period. Its filings are the company's own, by the
filing's registrant (the index's catalogue: company, registrant, alias), never the ticker alone:
a ticker can belong to another registrant in another year. Of those, the ones that can report
the leg's period: a 10-K of the year or of the two after (its comparatives), a 10-Q of the year
or of the next (its comparative column) for a year-to-date, the filing dated at a balance's date.

The statement model (`StatementStore`) gives, for a filing and the leg's period, the figure as
filed, its scale, its column's own period end and weeks; two filings that give the same period
different figures beyond rounding are a restated comparative.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Any

from finqa.lexicon.legs import Leg

__all__ = [
    "Filing",
    "catalogue",
    "own",
    "shared_ticker",
    "covering",
    "latest_year",
    "latest_quarter",
    "statements",
    "figure_fact",
    "period_figures",
    "beyond_rounding",
    "original_of",
    "iso",
]

_ANNUAL = ("10k", "10k_annualreport")
_INTERIM = ("10q", "earnings", "8k")


@dataclass(frozen=True)
class Filing:
    """A filing of the index as a leg sees it (from its catalogue record)."""

    doc_id: str
    names: frozenset[str]  # the lexicon's company names its registrant / company fields give
    ticker: str
    doc_type: str
    fiscal_year: int | None
    fiscal_period: str
    period_end: str | None
    filing_date: str | None

    @property
    def sort_key(self) -> tuple[str, str, str]:
        return (self.period_end or "", self.filing_date or "", self.doc_id)


def _names(meta: Mapping[str, Any]) -> frozenset[str]:
    """The companies a filing is of, by its own registrant(s) as printed (or given by the
    user's metadata); the company field only when no registrant is known, or when it is the
    registrant's own name (a gazetteer name can come from a ticker, which is not enough)."""
    from finqa.agents.retrieval.metadata import name_key
    from finqa.lexicon.entities import find_companies

    registrants = [str(r) for r in [meta.get("registrant"), *(meta.get("registrants") or ())] if r]
    out: set[str] = set()
    for text in registrants:
        out.update(c.name for c in find_companies(text))
    if out:
        return frozenset(out)
    company = str(meta.get("company") or "")
    if not registrants:
        fields = [company, str(meta.get("company_alias") or "")]
        return frozenset(c.name for text in fields if text for c in find_companies(text))
    keys = {f" {name_key(r)} " for r in registrants}
    if company and any(f" {name_key(company)} " in k for k in keys):
        return frozenset(c.name for c in find_companies(company))
    return frozenset()


def catalogue(index: Any) -> list[Filing]:
    """The index's filings (none when the store has no catalogue)."""
    if index is None:
        return []
    try:
        records = dict(index.catalog())
    except Exception:  # noqa: BLE001 - a store without a catalogue: nothing to resolve by
        return []
    out: list[Filing] = []
    for doc_id, rec in records.items():
        meta = getattr(rec, "meta", None) or {}
        if not isinstance(meta, Mapping):
            continue
        fy = meta.get("fiscal_year")
        kind = str(meta.get("doc_type") or "").lower()
        ended = _end_year(meta.get("period_end")) if kind in _ANNUAL else None
        if ended is not None:
            fy = ended  # finqa's keying, whatever the filer (or the file name) calls the year
        out.append(
            Filing(
                doc_id=str(doc_id),
                names=_names(meta),
                ticker=str(meta.get("ticker") or "").upper(),
                doc_type=str(meta.get("doc_type") or "").lower(),
                fiscal_year=int(fy) if fy not in (None, "") else None,
                fiscal_period=str(meta.get("fiscal_period") or ""),
                period_end=str(meta["period_end"]) if meta.get("period_end") else None,
                filing_date=str(meta["filing_date"]) if meta.get("filing_date") else None,
            )
        )
    return out


def _end_year(value: Any) -> int | None:
    """The fiscal year (finqa's end-year keying) of an annual period ending on `value`: the year
    it ends in, a 52/53-week year that ends in a month's first week counted to the month before
    (Target's year ended February 3, 2024 is FY2024; Apple's ended October 1, 2022 is FY2022)."""
    try:
        day = date.fromisoformat(str(value)[:10]) if value else None
    except ValueError:
        return None
    if day is None:
        return None
    return (day - timedelta(days=7)).year if day.day <= 7 else day.year


def own(all_filings: Iterable[Filing], company: str) -> list[Filing]:
    """The company's own filings, by registrant."""
    return [f for f in all_filings if company in f.names]


def shared_ticker(all_filings: Iterable[Filing], company: str, ticker: str) -> list[Filing]:
    """Filings of another registrant under the company's ticker (a ticker reused over years)."""
    t = ticker.upper()
    return [f for f in all_filings if t and f.ticker == t and company not in f.names]


def covering(leg: Leg, filings: Iterable[Filing]) -> list[Filing]:
    """The filings that can report the leg's period (a filing of unknown year may)."""
    out: list[Filing] = []
    fy = leg.fiscal_year
    for f in filings:
        if fy is None or f.fiscal_year is None:
            out.append(f)
        elif leg.as_of:
            if f.period_end == leg.as_of or f.fiscal_year in (fy, fy + 1):
                out.append(f)
        elif leg.months:
            if f.doc_type in _INTERIM and f.fiscal_year in (fy, fy + 1):
                out.append(f)
        elif (f.doc_type in _ANNUAL and fy <= f.fiscal_year <= fy + 2) or (
            f.doc_type in _INTERIM and f.fiscal_year in (fy, fy + 1)
        ):
            out.append(f)
    return out


def latest_year(filings: Iterable[Filing]) -> int | None:
    """The latest fiscal year of an annual filing."""
    years = [f.fiscal_year for f in filings if f.doc_type in _ANNUAL and f.fiscal_year]
    return max(years) if years else None


def latest_quarter(filings: Iterable[Filing]) -> tuple[int, int, str] | None:
    """(fiscal year, fiscal quarter 1-3, period end) of the latest 10-Q."""
    best: tuple[int, int, str] | None = None
    for f in filings:
        q = f.fiscal_period.upper()
        if (
            f.doc_type != "10q"
            or not f.fiscal_year
            or not f.period_end
            or q not in ("Q1", "Q2", "Q3")
        ):
            continue
        got = (f.fiscal_year, int(q[1]), f.period_end)
        if best is None or (got[0], got[2]) > (best[0], best[2]):
            best = got
    return best


def statements(settings: Any) -> Any | None:
    """The index's statement model, or None (a store without one, a fake orchestrator)."""
    if settings is None:
        return None
    try:
        from finqa.orchestrator._factory import build_statements

        return build_statements(settings)
    except Exception:  # noqa: BLE001 - no statement model: nothing read from the statements
        return None


def _spec(leg: Leg) -> str | None:
    if leg.as_of:
        return leg.as_of
    if leg.fiscal_year is None:
        return None
    return f"{leg.fiscal_year}M{leg.months}" if leg.months else f"FY{leg.fiscal_year}"


def _facts(store: Any, doc_id: str, leg: Leg) -> list[Any]:
    spec = _spec(leg)
    if store is None or spec is None:
        return []
    try:
        facts = list(store.lookup(doc_id, leg.metric, spec))
    except Exception:  # noqa: BLE001 - an unreadable model: no figure from it
        return []
    months = leg.months or (0 if leg.as_of else 12)
    return [f for f in facts if f.period.months in (None, months)]


def beyond_rounding(a: float, scale_a: float, b: float, scale_b: float) -> bool:
    """Two figures of one period differ by more than their printed precision (each is rounded
    to its own scale's unit, so they may differ by up to one unit of the coarser scale)."""
    unit = max(scale_a, scale_b, 1.0)
    return abs(a - b) > unit * 1.0001


def figure_fact(store: Any, doc_ids: Sequence[str], leg: Leg, value: float) -> Any | None:
    """The statement fact a leg's figure is (the same value, within rounding, for the period),
    from the filings it cites."""
    for doc_id in doc_ids:
        for fact in _facts(store, doc_id, leg):
            if not beyond_rounding(fact.value, fact.scale, value, fact.scale):
                return fact
    return None


def period_figures(store: Any, leg: Leg, filings: Iterable[Filing]) -> list[tuple[Filing, Any]]:
    """(filing, its first fact for the leg's period) of each filing whose statements give one,
    oldest filing first."""
    out: list[tuple[Filing, Any]] = []
    for f in sorted(filings, key=lambda f: f.sort_key):
        facts = _facts(store, f.doc_id, leg)
        if facts:
            out.append((f, facts[0]))
    return out


def original_of(leg: Leg, figures: Sequence[tuple[Filing, Any]]) -> tuple[Filing, Any] | None:
    """The figure of the filing of the period's own year (the 10-K of the year, the 10-Q of the
    year-to-date's own year), the earliest such."""
    for f, fact in figures:
        own_kind = f.doc_type in (_INTERIM if leg.months else _ANNUAL)
        if own_kind and f.fiscal_year == leg.fiscal_year:
            return f, fact
    return None


def iso(d: date | None) -> str | None:
    return d.isoformat() if d else None
