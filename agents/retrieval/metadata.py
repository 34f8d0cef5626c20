"""Filing metadata (company, ticker, doc_type, fiscal_year, period) from name, sidecar and text.

Order of trust: sidecar row (documents.jsonl / CSV) > lexicon (`parse_doc_name`,
`company_for_doc`) > the file-name pattern `COMPANY_2022_10K` > the cover page text.
The lexicon is imported lazily: retrieval works (with less) while it is absent.
"""

from __future__ import annotations

import csv
import json
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from finqa.agents.errors import IngestError

__all__ = ["DocInfo", "load_sidecar", "doc_metadata", "normalize_doc_type", "name_key"]

DocInfo = dict[str, Any]  # company, ticker, doc_type, fiscal_year, period (None when unknown)

_NAME = re.compile(
    r"^(?P<co>.+?)_(?P<year>(?:19|20)\d\d)(?:Q(?P<q>[1-4]))?_(?P<type>10K|10Q|8K|EARNINGS|10K_ANNUALREPORT)"
    r"(?:_dated[-_](?P<date>\d{4}-\d\d-\d\d))?$",
    re.IGNORECASE,
)
_FY_TEXT = re.compile(
    r"(?:fiscal\s+)?(?:year|quarter(?:ly period)?)\s+ended\s+\w+\s+\d{1,2},?\s+((?:19|20)\d\d)",
    re.I,
)
_TYPES = {
    "10k": "10k",
    "10-k": "10k",
    "10k_annualreport": "10k_annualreport",
    "annual report": "10k",
    "10q": "10q",
    "10-q": "10q",
    "8k": "8k",
    "8-k": "8k",
    "earnings": "earnings",
}


def normalize_doc_type(value: str | None) -> str | None:
    if not value:
        return None
    return _TYPES.get(value.strip().lower(), value.strip().lower())


def name_key(text: str) -> str:
    """Lower-case alphanumerics separated by single spaces ('JOHNSON_JOHNSON' -> 'johnson johnson')."""
    return " ".join(re.findall(r"[a-z0-9]+", text.lower().replace("&", " ")))


def load_sidecar(path: str | Path) -> dict[str, dict[str, Any]]:
    """Read documents.jsonl or a CSV with a `doc_name` column into {doc_name: row}."""
    p = Path(path)
    rows: list[dict[str, Any]] = []
    try:
        if p.suffix.lower() == ".csv":
            with p.open(newline="", encoding="utf-8") as fh:
                rows = list(csv.DictReader(fh))
        else:
            for line in p.read_text(encoding="utf-8").splitlines():
                if line.strip():
                    try:
                        rows.append(json.loads(line))
                    except json.JSONDecodeError:
                        continue
    except OSError as exc:
        raise IngestError(
            f"cannot read metadata file {p}: {exc.strerror or exc}", path=str(p)
        ) from None
    out = {str(r["doc_name"]): r for r in rows if isinstance(r, dict) and r.get("doc_name")}
    if not out:
        raise IngestError(f"metadata file {p} has no rows with a doc_name column", path=str(p))
    return out


def _from_name(doc_id: str) -> DocInfo:
    info: DocInfo = {}
    m = _NAME.match(doc_id)
    if not m:
        return info
    year = int(m["year"])
    doc_type = normalize_doc_type(m["type"])
    info.update(company=m["co"].replace("_", " ").title(), doc_type=doc_type, fiscal_year=year)
    info["period"] = f"{year}Q{m['q']}" if m["q"] else (f"FY{year}" if doc_type == "10k" else None)
    if m["date"]:
        info["date"] = m["date"]
    return info


def _from_lexicon(doc_id: str) -> DocInfo:
    try:
        from finqa.lexicon import company_for_doc, parse_doc_name
    except ImportError:
        return {}
    info: DocInfo = {}
    try:
        meta = parse_doc_name(doc_id)
        for key in ("company", "ticker", "doc_type", "fiscal_year", "period", "date"):
            value = getattr(meta, key, None)
            if value is not None:
                info[key] = value
        company = company_for_doc(doc_id)
        if company is not None:
            info["company"] = company.name
            if company.ticker:
                info["ticker"] = company.ticker
    except Exception:  # a lexicon bug must not stop ingestion
        return info
    return info


def doc_metadata(
    doc_id: str, sidecar: Mapping[str, Any] | None = None, first_text: str = ""
) -> DocInfo:
    """Best-known metadata of one filing; keys with unknown values are None."""
    info: DocInfo = {
        "company": None,
        "ticker": None,
        "doc_type": None,
        "fiscal_year": None,
        "period": None,
    }
    text_year = _FY_TEXT.search(first_text[:4000])
    if text_year:
        info["fiscal_year"] = int(text_year.group(1))
    info.update({k: v for k, v in _from_name(doc_id).items() if v is not None})
    if sidecar:
        if sidecar.get("company"):
            info["company"] = info["company_alias"] = str(sidecar["company"])
        if sidecar.get("doc_type"):
            info["doc_type"] = normalize_doc_type(str(sidecar["doc_type"]))
        period = sidecar.get("doc_period")
        if period not in (None, "") and str(period)[:4].isdigit():
            info["fiscal_year"] = int(str(period)[:4])
        if sidecar.get("ticker"):
            info["ticker"] = str(sidecar["ticker"])
    lexicon = _from_lexicon(doc_id)  # canonical names win: they are what query analysis returns
    for key in ("company", "ticker"):
        if lexicon.get(key):
            info[key] = lexicon[key]
    for key in ("doc_type", "fiscal_year", "period", "date"):
        if lexicon.get(key) is not None and info.get(key) is None:
            info[key] = lexicon[key]
    if info.get("doc_type") == "10k" and info.get("fiscal_year") and not info.get("period"):
        info["period"] = f"FY{info['fiscal_year']}"
    m = _NAME.match(doc_id)
    info["company_key"] = name_key(m["co"] if m else str(info.get("company") or doc_id))
    return info
