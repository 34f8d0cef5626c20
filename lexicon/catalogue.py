"""The one catalogue of finqa: every line item and metric, in `lexicon/data/metrics.yaml`.

One entry per catalogue key; the key is what the statement model's facts, the reasoner's
Book, the judge and every formula call the item ('revenue', 'depreciation_amortization',
'accounts_receivable'). An entry states, as far as it applies:

- what it is: `name`, `statement` (income | balance | cash_flow | equity | derived | segment
  | other), `unit`, `nature` (revenue, expense, gain, loss, asset, liability, equity, inflow,
  outflow), `period` (instant | duration) and `balance` (debit | credit), as XBRL concepts do;
- which way it is good for it to move, where its general definition fixes that: `favourable`
  (higher | lower | none; unset, an item's nature decides: revenue and gain higher, expense and
  loss lower, others none: `lexicon.movement.favourable_direction`);
- how filings tag it: `concepts` (the us-gaap concepts that report it);
- how filings and questions say it: `synonyms` and `line_items`, the one list of its statement
  captions, best first, read by the statement model, the reasoner's Book and the judge alike
  (every caption justified by filings in `label_support.json`); for an item a statement reader
  finds with rules of its own, `read:` states those rules and nothing else (prefixes,
  exclusions, sign conventions, `also`: other entries whose captions it reads after its own:
  `lexicon.line_items`) — a caption list inside `read:` is refused;
- for a metric, its `formula` over catalogue keys (`lexicon.formula`'s one notation), and the
  `formulas` a statement reader tries in order when they differ from the formula alone;
- for a metric whose standard definition has recognised variants, its `variants`: each with a
  `name`, a `formula` (same notation, over catalogue keys), `standard` (where that variant is
  the standard one), optionally the balance `basis` it takes (average | ending: what a
  question's 'ending inventory' or 'average assets' selects), `stated_by` (words of a question
  that state it), `unit` (when not the metric's) and `asked_as` (the variant is a reading of
  the metric only when a question names it so: 'capital intensity' read as assets / revenue,
  never 'capex as a % of revenue'). The first variant is the entry's own `formula`
  (`lexicon.variants` reads them).

`metrics.py` (metrics), `line_items.py` (line items) and `xbrl.py` (concepts) are views of
these entries; nothing else reads the file.
"""

from __future__ import annotations

import ast
import re
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
FAVOURABLE = frozenset({"higher", "lower", "none"})
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
        "paid_for",
        "moved_by",
        "bridges",
        "decimals",
        "quoted",
        "operator_words",
        "nature",
        "favourable",
        "period",
        "balance",
        "concepts",
        "read",
        "variants",
    }
)
_VARIANT_FIELDS = frozenset(
    {"name", "formula", "standard", "basis", "stated_by", "unit", "asked_as"}
)
BASES = frozenset({"average", "ending"})
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
        "derive",
    }
)


class CatalogueError(FinqaError):
    """The catalogue file states something it may not (an unknown field, nature or period)."""


@data_cache()
def entries() -> Mapping[str, Mapping[str, Any]]:
    """key -> the entry as written, checked against the schema (module docstring); within
    `_data.withholding(keys)`, without the captions withheld (`without_captions`)."""
    raw = read_yaml(CATALOGUE_FILE) or {}
    known = frozenset(str(k) for k in raw)
    for key, spec in raw.items():
        _check(str(key), spec, known)
    _check_also(raw)
    out = {str(k): v for k, v in raw.items()}
    withheld = withheld_captions()
    return without_captions(out, withheld) if withheld else out


def without_captions(
    raw: Mapping[str, Mapping[str, Any]], withheld: frozenset[str]
) -> dict[str, Mapping[str, Any]]:
    """The entries with every caption (`line_items`, and a synonym spelt the same: a reader
    matches captions against synonyms too) whose `label_key` is in `withheld`,
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
            if read.get("prefixes"):
                read["prefixes"] = kept(read["prefixes"], "prefix:")
            spec["read"] = read
        out[key] = spec
    return out


def _check(key: str, spec: Mapping[str, Any], known: frozenset[str] | None = None) -> None:
    """The entry against the schema; `known`: every catalogue key (a variant's operands)."""
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
    if "favourable" in spec and spec["favourable"] not in FAVOURABLE:
        raise CatalogueError(
            f"{where}: favourable {spec['favourable']!r} is none of {sorted(FAVOURABLE)}"
        )
    if spec.get("period") and spec["period"] not in PERIODS:
        raise CatalogueError(f"{where}: period {spec['period']!r} is none of {sorted(PERIODS)}")
    if spec.get("variants") is not None:
        _check_variants(where, spec, known)
    if spec.get("paid_for") and known is not None and spec["paid_for"] not in known:
        raise CatalogueError(f"{where}: paid_for names no catalogue key: {spec['paid_for']!r}")
    moved = spec.get("moved_by")
    if moved and known is not None and moved not in known:
        raise CatalogueError(f"{where}: moved_by names no catalogue key: {moved!r}")
    if moved and spec.get("period") != "instant":
        raise CatalogueError(f"{where}: moved_by is for a balance (period: instant)")
    bridged = spec.get("bridges")
    if bridged is not None and (
        not isinstance(bridged, list)
        or len(bridged) != 2
        or (known is not None and any(b not in known for b in bridged))
    ):
        raise CatalogueError(f"{where}: bridges names two catalogue keys, not {bridged!r}")
    if "read" in spec and not spec.get("line_items"):
        raise CatalogueError(f"{where}: `read:` rules without captions (`line_items`) to read")


def _check_variants(where: str, spec: Mapping[str, Any], known: frozenset[str] | None) -> None:
    """Each variant names itself, says where it is standard and computes over catalogue keys
    only; the first is the entry's own formula."""
    variants = spec["variants"]
    if not isinstance(variants, list) or len(variants) < 2:
        raise CatalogueError(f"{where}: variants must list at least two definitions")
    for n, variant in enumerate(variants):
        if not isinstance(variant, Mapping):
            raise CatalogueError(f"{where}: variant {n + 1} is not a mapping")
        name = variant.get("name")
        unknown = set(variant) - _VARIANT_FIELDS
        if unknown:
            raise CatalogueError(f"{where}: variant {name!r}: unknown field(s) {sorted(unknown)}")
        missing = [f for f in ("name", "formula", "standard") if not variant.get(f)]
        if missing:
            raise CatalogueError(f"{where}: variant {n + 1} lacks {', '.join(missing)}")
        if variant.get("basis") and variant["basis"] not in BASES:
            raise CatalogueError(f"{where}: variant {name!r}: basis is none of {sorted(BASES)}")
        operands = _operands(where, str(name), str(variant["formula"]))
        strange = [k for k in operands if known is not None and k not in known]
        if strange:
            raise CatalogueError(f"{where}: variant {name!r}: unknown operand(s) {strange}")
    if str(variants[0]["formula"]).split() != str(spec.get("formula") or "").split():
        raise CatalogueError(f"{where}: the first variant must be the entry's own formula")


def _operands(where: str, name: str, formula: str) -> list[str]:
    """The names a formula reads, its functions (avg, prev, change, abs) left out."""
    try:
        tree = ast.parse(formula, mode="eval")
    except SyntaxError as exc:
        raise CatalogueError(f"{where}: variant {name!r}: bad formula: {exc.msg}") from None
    called = {
        id(n.func)
        for n in ast.walk(tree)
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)
    }
    return [n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and id(n) not in called]


def _check_also(raw: Mapping[str, Mapping[str, Any]]) -> None:
    """`read: also` names other entries of the catalogue, each with captions to read; `read:
    derive` is arithmetic over other such entries."""
    for key, spec in raw.items():
        derive = str((spec.get("read") or {}).get("derive") or "")
        for other in re.findall(r"[a-z_]+", derive):
            spec_other = raw.get(other) or {}
            if (
                other == key
                or not spec_other.get("line_items")
                or "read" not in spec_other  # a line item of the reasoner's own
                or (spec_other.get("read") or {}).get("derive")  # one level: no chains
            ):
                raise CatalogueError(f"{CATALOGUE_FILE}: {key}: read: derive names {other!r}")
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
