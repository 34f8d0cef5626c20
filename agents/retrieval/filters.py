"""Metadata filters: the question's company / years / quarter / doc type -> a set of filings.

Filters act at the filing level (company, ticker, fiscal year, period and doc type are
properties of a filing), so they resolve against the index catalogue into `doc_ids`; both
Chroma (`where doc_id $in`) and the BM25 partitions then search only those filings.
Matching works with or without the lexicon: names are compared as normalised keys
(`'Johnson & Johnson'`, `'JOHNSON_JOHNSON'` -> `'johnson johnson'`), tickers exactly.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from finqa.agents.retrieval.analysis import primary_year
from finqa.agents.retrieval.metadata import name_key
from finqa.agents.retrieval.store import DocRecord
from finqa.agents.types import QueryAnalysis

__all__ = ["FilterResult", "resolve_filters", "doc_keys", "companies_in_text", "tickers_named"]


@dataclass(frozen=True)
class FilterResult:
    doc_ids: list[str] | None  # None = no restriction (whole index)
    applied: dict[str, Any] = field(default_factory=dict)
    reason: str = ""
    unknown_company: str | None = None  # a named company with no filing in the index


# id(record) -> (record, its keys): a catalogue is read once per process and its records are
# reused by every query, so their company keys are worked out once (the record is kept so an
# id is never reused for another record while cached)
_KEYS: dict[int, tuple[DocRecord, frozenset[str]]] = {}


def doc_keys(record: DocRecord) -> frozenset[str]:
    """The company name keys a filing answers to (its company, alias and company key)."""
    hit = _KEYS.get(id(record))
    if hit is not None and hit[0] is record:
        return hit[1]
    meta = record.meta
    keys = {str(meta.get("company_key") or "")}
    for name in (meta.get("company"), meta.get("company_alias")):
        if name:
            keys.add(name_key(str(name)))
    registrants = [meta.get("registrant"), *(meta.get("registrants") or ())]
    for name in dict.fromkeys(str(r) for r in registrants if r):
        keys.update(name_key(form) for form in _name_forms(name))
    keys.discard("")
    if len(_KEYS) > 100_000:
        _KEYS.clear()
    _KEYS[id(record)] = (record, frozenset(keys))
    return _KEYS[id(record)][1]


def _name_forms(name: str) -> tuple[str, ...]:
    """The short forms of a registrant name (lexicon), or the name alone without the lexicon."""
    try:
        from finqa.lexicon.entities import name_forms
    except ImportError:
        return (name,)
    forms: tuple[str, ...] = name_forms(name)
    return forms


def tickers_named(text: str, catalog: Mapping[str, DocRecord]) -> list[str]:
    """Tickers of the catalogue's filings that the text writes ('JPM's', 'JnJ')."""
    try:
        from finqa.lexicon.entities import tickers_in_text
    except ImportError:
        return []
    found: list[str] = tickers_in_text(text, set(_catalog_keys(catalog).by_ticker))
    return found


def _company_keys(name: str) -> tuple[set[str], set[str]]:
    """(name keys, tickers) for a company name/ticker, widened by the lexicon when present."""
    keys = {name_key(name)}
    tickers = {name.upper()} if name.isupper() and len(name) <= 5 else set()
    try:
        from finqa.lexicon import lookup_company

        company: Any = lookup_company(name)
    except Exception:  # noqa: BLE001 - an unresolvable name only drops the company filter
        company = None
    if company is not None:
        keys.add(name_key(company.name))
        keys.update(name_key(a) for a in getattr(company, "aliases", ()))
        keys.update(name_key(p) for p in getattr(company, "doc_prefixes", ()))
        if getattr(company, "ticker", None):
            tickers.add(str(company.ticker).upper())
    keys.discard("")
    return keys, tickers


class _CatalogKeys:
    """A catalogue's company keys and tickers -> filings, worked out once per catalogue (a
    query then costs a few dict lookups, not a scan of every filing of the store)."""

    def __init__(self, catalog: Mapping[str, DocRecord]) -> None:
        self.catalog = catalog  # kept so its id is never reused while cached
        self.by_key: dict[str, list[str]] = {}
        self.by_ticker: dict[str, list[str]] = {}
        for doc_id, rec in catalog.items():
            for key in doc_keys(rec):
                self.by_key.setdefault(key, []).append(doc_id)
            if rec.meta.get("ticker"):
                self.by_ticker.setdefault(str(rec.meta["ticker"]).upper(), []).append(doc_id)
        self.longest_first = sorted(self.by_key, key=len, reverse=True)


_CATALOGS: dict[int, _CatalogKeys] = {}


def _catalog_keys(catalog: Mapping[str, DocRecord]) -> _CatalogKeys:
    hit = _CATALOGS.get(id(catalog))
    if hit is not None and hit.catalog is catalog and len(hit.catalog) == len(catalog):
        return hit
    if len(_CATALOGS) > 16:
        _CATALOGS.clear()
    built = _CATALOGS[id(catalog)] = _CatalogKeys(catalog)
    return built


def companies_in_text(text: str, catalog: Mapping[str, DocRecord]) -> list[str]:
    """Company keys of the catalogue that the text names (longest first, whole words)."""
    hay = f" {name_key(text)} "
    found: list[str] = []
    for key in _catalog_keys(catalog).longest_first:
        if len(key) >= 2 and f" {key} " in hay and not any(key in f for f in found):
            found.append(key)
    return found


def _docs_for_company(name: str, catalog: Mapping[str, DocRecord]) -> list[str]:
    keys, tickers = _company_keys(name)
    index = _catalog_keys(catalog)
    hits = {d for k in keys for d in index.by_key.get(k, ())}
    hits.update(d for t in tickers for d in index.by_ticker.get(t, ()))
    return [doc_id for doc_id in catalog if doc_id in hits]


def resolve_filters(
    analysis: QueryAnalysis,
    catalog: Mapping[str, DocRecord],
    *,
    company: str | None = None,
    doc_ids: Sequence[str] | None = None,
    use_periods: bool = True,
) -> FilterResult:
    """Filings to search, the filters applied, and why."""
    if doc_ids is not None:
        known = [d for d in doc_ids if d in catalog]
        if not known:
            return FilterResult(
                [],
                {"doc_ids": list(doc_ids)},
                f"none of the requested filings {list(doc_ids)} is in the index",
            )
        return FilterResult(
            known, {"doc_ids": known}, f"restricted to {len(known)} requested filing(s)"
        )
    names = [company] if company else list(analysis.companies) + list(analysis.tickers)
    applied: dict[str, Any] = {}
    selected: list[str] | None = None
    if names:
        selected = sorted({d for n in names for d in _docs_for_company(n, catalog)})
        applied["company"] = names
        if not selected:
            return FilterResult(
                [], applied, f"no filing of {names[0]!r} in the index", unknown_company=names[0]
            )
    else:
        keys = companies_in_text(analysis.question, catalog)
        tickers = tickers_named(analysis.question, catalog)
        if keys or tickers:
            index = _catalog_keys(catalog)
            hits = {d for k in keys for d in index.by_key.get(k, ())}
            hits.update(d for t in tickers for d in index.by_ticker.get(t, ()))
            selected = sorted(hits)
            applied["company"] = keys + tickers
    if selected is None:
        return _periods_only(analysis, catalog, applied, use_periods)
    reason = [f"company {applied['company']} -> {len(selected)} filing(s)"]
    if analysis.doc_types:
        typed = [d for d in selected if catalog[d].meta.get("doc_type") in analysis.doc_types]
        if typed:
            selected = typed
            applied["doc_type"] = list(analysis.doc_types)
            reason.append(f"doc type {list(analysis.doc_types)} -> {len(typed)}")
    if use_periods and analysis.fiscal_years:
        selected, note = _by_period(selected, analysis, catalog, applied)
        reason.append(note)
    elif use_periods and len(selected) > 1:
        selected, note = _latest(selected, catalog, applied)
        reason.append(note)
    return FilterResult(selected, applied, "; ".join(reason))


_ANNUAL = ("10k", "10k_annualreport")


def _periods_only(
    analysis: QueryAnalysis,
    catalog: Mapping[str, DocRecord],
    applied: dict[str, Any],
    use_periods: bool,
) -> FilterResult:
    """No company named: the filings of the period the question names, of every company (the
    same period rules as for one company); the whole index when it names none or none match."""
    if not (use_periods and analysis.fiscal_years) or not catalog:
        return FilterResult(None, applied, "no company named: whole index")
    every = sorted(catalog)
    selected, note = _by_period(every, analysis, catalog, applied)
    if len(selected) == len(every):
        applied.pop("fiscal_year", None)
        applied.pop("period", None)
        return FilterResult(None, applied, "no company named: whole index")
    return FilterResult(selected, applied, f"no company named; {note}")


def _fy(catalog: Mapping[str, DocRecord], doc_id: str) -> int | None:
    value = catalog[doc_id].meta.get("fiscal_year")
    return int(value) if value is not None else None


def _latest(
    selected: list[str], catalog: Mapping[str, DocRecord], applied: dict[str, Any]
) -> tuple[list[str], str]:
    """No period named: the latest annual report, what was filed in or after its year, and the
    interim filings (10-Q, 8-K, earnings) of the year before."""
    annual = [d for d in selected if catalog[d].meta.get("doc_type") in _ANNUAL and _fy(catalog, d)]
    if not annual:
        return selected, "no period named"
    year = max(_fy(catalog, d) or 0 for d in annual)
    recent = [
        d
        for d in selected
        if (_fy(catalog, d) or 0) >= year
        or ((_fy(catalog, d) or 0) == year - 1 and catalog[d].meta.get("doc_type") not in _ANNUAL)
    ]
    applied["fiscal_year"] = f">={year}"
    recent = _prefer_10k(recent, catalog)
    note = (
        f"no period named: latest annual report (FY{year}), later and FY{year - 1} interim filings"
    )
    return recent, f"{note} -> {len(recent)}"


def _glossy(catalog: Mapping[str, DocRecord], doc_id: str) -> bool:
    return (
        catalog[doc_id].meta.get("doc_type") == "10k_annualreport"
        or "annualreport" in doc_id.lower()
    )


def _prefer_10k(docs: list[str], catalog: Mapping[str, DocRecord]) -> list[str]:
    """Drop a glossy annual report when the 10-K of the same year is there (same content)."""
    years_10k = {
        _fy(catalog, d)
        for d in docs
        if catalog[d].meta.get("doc_type") == "10k" and not _glossy(catalog, d)
    }
    return [d for d in docs if not (_glossy(catalog, d) and _fy(catalog, d) in years_10k)]


def _by_period(
    selected: list[str],
    analysis: QueryAnalysis,
    catalog: Mapping[str, DocRecord],
    applied: dict[str, Any],
) -> tuple[list[str], str]:
    """The filing(s) of the latest year the question names (it carries prior-year comparatives)."""
    years = set(analysis.fiscal_years)
    if analysis.quarters:
        periods = {f"{y}Q{q}" for y in years for q in analysis.quarters}
        hit = [d for d in selected if catalog[d].meta.get("period") in periods]
        if hit:
            applied["period"] = sorted(periods)
            return hit, f"period {sorted(periods)} -> {len(hit)}"
    target = primary_year(analysis) or max(years)
    # a filing that names its years by their start reads the question's 'fiscal 2023' as its
    # year ending in 2024 (`FilingIdentity.fy_label`): each filing is held to its own reading
    named: dict[str | None, int] = {None: target}

    def wanted_by(doc_id: str, shift: int) -> int:
        label = catalog[doc_id].meta.get("fy_label")
        label = label if label in ("end", "start") else None
        if label not in named:
            named[label] = primary_year(analysis, label) or target
        return named[label] + shift

    steps = (
        (0, "fiscal year"),
        (1, "next year's filing (comparatives)"),
        (-1, "prior year's filing (outlook)"),
    )
    for shift, label in steps:
        wanted = target + shift
        hit = [d for d in selected if _fy(catalog, d) == wanted_by(d, shift)]
        if hit and not analysis.quarters and not analysis.doc_types:
            annual = [d for d in hit if catalog[d].meta.get("doc_type") in _ANNUAL]
            if annual:
                hit = sorted(
                    set(annual)
                    | {d for d in hit if catalog[d].meta.get("doc_type") in ("earnings", "8k")}
                )
        if hit:
            applied["fiscal_year"] = sorted({wanted, *(_fy(catalog, d) or wanted for d in hit)})
            hit = _prefer_10k(hit, catalog)
            return hit, f"{label} {wanted} -> {len(hit)}"
    return selected, f"no filing for years {sorted(years)}: year filter dropped"
