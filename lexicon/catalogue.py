"""The one catalogue of finqa: every line item and metric, in `lexicon/data/metrics.yaml`.

One entry per catalogue key; the key is what the statement model's facts, the reasoner's
Book, the judge and every formula call the item ('revenue', 'depreciation_amortization',
'accounts_receivable'). An entry states, as far as it applies:

- what it is: `name`, `statement` (income | balance | cash_flow | equity | derived | segment
  | other), `unit`, `nature` (revenue, expense, gain, loss, asset, liability, equity, inflow,
  outflow), `period` (instant | duration) and `balance` (debit | credit), as XBRL concepts do;
- how filings tag it: `concepts` (the us-gaap concepts that report it);
- how filings and questions say it: `synonyms` and `line_items`, the one list of its statement
  captions, best first, read by the statement model, the reasoner's Book and the judge alike
  (every caption justified by filings in `label_support.json`); for an item a statement reader
  finds with rules of its own, `read:` states those rules and nothing else (prefixes,
  exclusions, sign conventions, `also`: other entries whose captions it reads after its own:
  `lexicon.line_items`) — a caption list inside `read:` is refused;
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
from finqa.lexicon._data import data_cache, read_yaml

__all__ = ["CATALOGUE_FILE", "CatalogueError", "ConceptRow", "entries", "concept_rows"]

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
        "also",
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
    """key -> the entry as written, checked against the schema (module docstring)."""
    raw = read_yaml(CATALOGUE_FILE) or {}
    for key, spec in raw.items():
        _check(str(key), spec)
    _check_also(raw)
    return {str(k): v for k, v in raw.items()}


def _check(key: str, spec: Mapping[str, Any]) -> None:
    where = f"{CATALOGUE_FILE}: {key}"
    unknown = set(spec) - _FIELDS
    if unknown:
        raise CatalogueError(f"{where}: unknown field(s) {sorted(unknown)}")
    if "labels" in (spec.get("read") or {}):
        raise CatalogueError(
            f"{where}: two caption lists (`read: labels` beside `line_items`); an entry has one,"
            " its `line_items`"
        )
    unknown = set(spec.get("read") or {}) - _READ_FIELDS
    if unknown:
        raise CatalogueError(f"{where}: unknown read: field(s) {sorted(unknown)}")
    if spec.get("nature") and spec["nature"] not in NATURES:
        raise CatalogueError(f"{where}: nature {spec['nature']!r} is none of {sorted(NATURES)}")
    if spec.get("period") and spec["period"] not in PERIODS:
        raise CatalogueError(f"{where}: period {spec['period']!r} is none of {sorted(PERIODS)}")
    if "read" in spec and not spec.get("line_items"):
        raise CatalogueError(f"{where}: `read:` rules without captions (`line_items`) to read")


def _check_also(raw: Mapping[str, Mapping[str, Any]]) -> None:
    """`read: also` names other entries of the catalogue, each with captions to read."""
    for key, spec in raw.items():
        for other in (spec.get("read") or {}).get("also") or ():
            if other == key or not (raw.get(other) or {}).get("line_items"):
                raise CatalogueError(f"{CATALOGUE_FILE}: {key}: read: also names {other!r}")


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
