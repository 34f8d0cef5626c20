"""The one catalogue of finqa: every line item and metric, in `lexicon/data/metrics.yaml`.

One entry per catalogue key; the key is what the statement model's facts, the reasoner's
Book, the judge and every formula call the item ('revenue', 'depreciation_amortization',
'accounts_receivable'). An entry states, as far as it applies:

- what it is: `name`, `statement` (income | balance | cash_flow | equity | derived | segment
  | other), `unit`, `nature` (revenue, expense, gain, loss, asset, liability, equity, inflow,
  outflow), `period` (instant | duration) and `balance` (debit | credit), as XBRL concepts do;
- how filings tag it: `concepts` (the us-gaap concepts that report it);
- how filings and questions say it: `synonyms`, `line_items` (statement captions) and, for an
  item a statement reader finds by its caption, `read:` (labels, prefixes, exclusions, sign
  conventions: `lexicon.line_items`), every caption justified by filings in
  `label_support.json`;
- for a metric, its `formula` over catalogue keys (`lexicon.formula`'s one notation), and the
  `formulas` a statement reader tries in order when they differ from the formula alone.

`metrics.py` (metrics), `line_items.py` (line items) and `xbrl.py` (concepts) are views of
these entries; nothing else reads the file.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from finqa.errors import FinqaError
from finqa.lexicon._data import data_cache, read_yaml, withheld_captions
from finqa.lexicon.label_keys import label_key

__all__ = [
    "CATALOGUE_FILE",
    "CatalogueError",
    "ConceptRow",
    "entries",
    "concept_rows",
    "without_captions",
]

CATALOGUE_FILE = "metrics.yaml"
NATURES = frozenset(
    {"revenue", "expense", "gain", "loss", "asset", "liability", "equity", "inflow", "outflow"}
)
PERIODS = frozenset({"instant", "duration"})
_FIELDS = frozenset(
    {
        "name",
        "statement",
        "unit",
        "synonyms",
        "line_items",
        "formula",
        "formulas",
        "growth_of",
        "phrase",
        "unread",
        "convention",
        "parts_of",
        "decimals",
        "operator_words",
        "nature",
        "period",
        "balance",
        "concepts",
        "read",
    }
)
_READ_FIELDS = frozenset(
    {
        "statement",
        "name",
        "unit",
        "note",
        "labels",
        "prefixes",
        "exclude",
        "off_statement",
        "magnitude",
        "signed_expense",
        "summed",
    }
)


class CatalogueError(FinqaError):
    """The catalogue file states something it may not (an unknown field, nature or period)."""


@data_cache()
def entries() -> Mapping[str, Mapping[str, Any]]:
    """key -> the entry as written, checked against the schema (module docstring); within
    `_data.withholding(keys)`, without the captions withheld (`without_captions`)."""
    raw = read_yaml(CATALOGUE_FILE) or {}
    for key, spec in raw.items():
        _check(str(key), spec)
    out = {str(k): v for k, v in raw.items()}
    withheld = withheld_captions()
    return without_captions(out, withheld) if withheld else out


def without_captions(
    raw: Mapping[str, Mapping[str, Any]], withheld: frozenset[str]
) -> dict[str, Mapping[str, Any]]:
    """The entries with every caption (`line_items`, `read:` labels, and a synonym spelt the
    same: a reader matches captions against synonyms too) whose `label_key` is in `withheld`,
    and every `read:` prefix whose 'prefix:KEY' is, left out (a copy: the file's own entries
    are not touched)."""

    def kept(captions: Any, prefix: str = "") -> list[str]:
        return [c for c in captions or () if prefix + label_key(str(c)) not in withheld]

    out: dict[str, Mapping[str, Any]] = {}
    for key, spec in raw.items():
        spec = dict(spec)
        for field in ("line_items", "synonyms"):
            if spec.get(field):
                spec[field] = kept(spec[field])
        if spec.get("read"):
            read = dict(spec["read"])
            for field, prefix in (("labels", ""), ("prefixes", "prefix:")):
                if read.get(field):
                    read[field] = kept(read[field], prefix)
            spec["read"] = read
        out[key] = spec
    return out


def _check(key: str, spec: Mapping[str, Any]) -> None:
    where = f"{CATALOGUE_FILE}: {key}"
    unknown = set(spec) - _FIELDS
    if unknown:
        raise CatalogueError(f"{where}: unknown field(s) {sorted(unknown)}")
    unknown = set(spec.get("read") or {}) - _READ_FIELDS
    if unknown:
        raise CatalogueError(f"{where}: unknown read: field(s) {sorted(unknown)}")
    if spec.get("nature") and spec["nature"] not in NATURES:
        raise CatalogueError(f"{where}: nature {spec['nature']!r} is none of {sorted(NATURES)}")
    if spec.get("period") and spec["period"] not in PERIODS:
        raise CatalogueError(f"{where}: period {spec['period']!r} is none of {sorted(PERIODS)}")


@dataclass(frozen=True, slots=True)
class ConceptRow:
    """One XBRL concept and the catalogue item it reports, with the item's taxonomy facts."""

    concept: str
    item: str
    balance: str  # debit | credit | '' (net flows, per-share figures, counts)
    period_type: str  # instant | duration
    nature: str  # NATURES, or '' for none


@data_cache()
def concept_rows() -> tuple[ConceptRow, ...]:
    """Every concept the catalogue maps (each entry's `concepts`), in file order."""
    out: list[ConceptRow] = []
    for key, spec in entries().items():
        for concept in spec.get("concepts") or ():
            out.append(
                ConceptRow(
                    str(concept),
                    key,
                    str(spec.get("balance") or ""),
                    str(spec.get("period") or ""),
                    str(spec.get("nature") or ""),
                )
            )
    return tuple(out)
