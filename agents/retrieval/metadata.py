"""Filing metadata (company, ticker, doc_type, fiscal_year, period, ...) of one document.

The identity is read by `finqa.lexicon.identity` from the document itself. Order of trust:
sidecar row (documents.jsonl / CSV) > inline XBRL dei: facts > EDGAR SGML header > cover
page > an earnings release's first lines > the file name. `sources` records which one gave
each field.
"""

from __future__ import annotations

import csv
import json
import re
from collections.abc import Mapping, Sequence
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
    """Read a JSONL or CSV sidecar with a `doc_id` column (or FinanceBench's `doc_name`) into {doc_id: row}."""
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
    out = {
        str(r.get("doc_id") or r["doc_name"]): r
        for r in rows
        if isinstance(r, dict) and (r.get("doc_id") or r.get("doc_name"))
    }
    if not out:
        raise IngestError(f"metadata file {p} has no rows with a doc_id column", path=str(p))
    return out


def doc_metadata(
    doc_id: str,
    sidecar: Mapping[str, Any] | None = None,
    first_text: str = "",
    *,
    pages: Sequence[str] | None = None,
    dei: Mapping[str, str] | None = None,
    sgml: Mapping[str, Sequence[str]] | None = None,
) -> DocInfo:
    """Best-known metadata of one filing (`finqa.lexicon.identity`); unknown values are None.

    `sources` maps each known field to where it came from (sidecar, xbrl dei, sgml header,
    cover page, release first lines, file name).
    """
    from finqa.lexicon.identity import identify

    ident = identify(
        list(pages) if pages is not None else [first_text],
        dei=dei,
        sgml=sgml,
        file_name=doc_id,
        sidecar=sidecar,
    )
    info: DocInfo = ident.as_meta()
    if sidecar and sidecar.get("company"):
        info["company_alias"] = str(sidecar["company"])
    if ident.report_date:
        info["date"] = ident.report_date
    info["identified"] = not ident.unknown
    m = _NAME.match(doc_id)
    info["company_key"] = name_key(m["co"] if m else str(info.get("company") or doc_id))
    return info
