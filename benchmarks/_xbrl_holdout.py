"""`finqa bench xbrl --holdout-captions company`: each filing read out of fold, without the
catalogue captions that only its own company taught.

The catalogue's captions are justified by filings (`lexicon/data/label_support.json`, written by
`python -m finqa.benchmarks.label_mining`): FinanceBench filings that print them (`companies`,
`examples`) and EDGAR filings whose own tags say the row is the item (`tagged`). A caption whose
every supporting filing belongs to one company was learnt from that company: graded on that
company's filings, it is in sample. Out of fold, a filing is read and answered with a catalogue
view without those captions (`lexicon._data.withholding`: every cache built from the catalogue is
keyed by the view, so nothing read under one filing's view is seen under another's).

A caption's supporters are the companies of its `tagged` filings (by the registrant each filing
names in its own `dei` cover facts; a filing not in the bench folder counts as another company)
and of its FinanceBench filings (the one company of its `examples` when `companies` is 1; two or
more companies: another company supports it). A caption with no support at all was not learnt
from any filing and is kept.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

__all__ = [
    "company_key",
    "filing_companies",
    "supporters",
    "withheld_for",
    "withheld_by_filing",
]

_OTHER = "<another company>"


def company_key(name: str) -> str:
    """The company a registrant name, ticker or FinanceBench doc name's company stands for: its
    ticker in the companies list, else the name in capitals with letters only."""
    from finqa.lexicon import lookup_company

    company = lookup_company(name)
    if company is not None:
        return company.ticker
    return "".join(c for c in name.upper() if c.isalnum())


def _fb_company(doc_name: str) -> str:
    from finqa.lexicon.entities import company_for_doc

    company = company_for_doc(doc_name)
    return company.ticker if company is not None else company_key(doc_name.split("_")[0])


def supporters(entry: Mapping[str, Any], company_of: Mapping[str, str]) -> frozenset[str]:
    """The companies whose filings support one caption of `label_support.json` (module
    docstring); `company_of` maps an EDGAR file name to its company."""
    out = {company_of.get(str(f), _OTHER) for f in entry.get("tagged") or ()}
    n = int(entry.get("companies") or 0)
    if n == 1 and entry.get("examples"):
        out.add(_fb_company(str(entry["examples"][0])))
    elif n >= 2:
        out.add(_OTHER)
    return frozenset(out)


def withheld_for(
    company: str, support: Mapping[str, Mapping[str, Any]], company_of: Mapping[str, str]
) -> frozenset[str]:
    """The caption keys (`label_key`, a read prefix as 'prefix:KEY') that `company`'s own
    filings alone support: withheld when that company's filings are read out of fold."""
    return frozenset(
        key for key, entry in support.items() if supporters(entry, company_of) == {company}
    )


def filing_companies(files: Sequence[Path]) -> dict[str, str]:
    """File name -> company (`company_key` of the registrant its `dei` cover facts name) of
    every inline-XBRL filing in `files` that names one."""
    from finqa.agents.retrieval.loaders import LoadedDoc, load_path
    from finqa.agents.retrieval.metadata import doc_metadata

    out: dict[str, str] = {}
    for path in files:
        doc = next((d for d in load_path(path) if isinstance(d, LoadedDoc)), None)
        if doc is None:
            continue
        company = doc_metadata(doc.doc_id, dei=doc.dei).get("company")
        if company:
            out[path.name] = company_key(str(company))
    return out


def withheld_by_filing(
    company_of: Mapping[str, str], support: Mapping[str, Mapping[str, Any]] | None = None
) -> dict[str, frozenset[str]]:
    """File name -> the captions withheld when it is read out of fold (`withheld_for` its
    company); `support` defaults to the catalogue's `label_support.json`."""
    if support is None:
        from finqa.lexicon.line_items import SUPPORT_PATH

        support = json.loads(SUPPORT_PATH.read_text(encoding="utf-8"))
    by_company = {c: withheld_for(c, support, company_of) for c in set(company_of.values())}
    return {name: by_company[c] for name, c in company_of.items()}
