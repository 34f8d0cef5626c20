"""Line items of the catalogue, as statement readers find them: the reasoner's Book, the judge.

A view of the one catalogue (`lexicon.catalogue`, `lexicon/data/metrics.yaml`). Every line item
is found by its entry's one caption list, `line_items` (best first), the same captions the
statement model maps a row by (`lexicon.statements.catalogue`). An entry with a `read:` block
is a line item of its own with the rules the block states (caption prefixes, disqualifying
substrings, sign conventions, `also`: the captions of other entries read after its own;
`read: {}`: none beyond its captions): `line_items()`; any other entry that is a plain statement
line (no formula) is found by its captions alone (`caption_items()`).
`get_item` reads either, by the catalogue key the statement model's facts carry too.
Captions are compared as `label_key`s (letters only, lower case). Every caption is justified by
the filings that use it (`lexicon/data/label_support.json`, written by
`python -m finqa.benchmarks.label_mining --write-support`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from finqa.lexicon._data import DATA_DIR, data_cache
from finqa.lexicon.catalogue import entries
from finqa.lexicon.label_keys import label_key

__all__ = [
    "LineItem",
    "SUPPORT_PATH",
    "label_key",
    "line_items",
    "caption_items",
    "catalogue_items",
    "get_line_item",
    "get_item",
    "item_for_metric",
]

SUPPORT_PATH = DATA_DIR / "label_support.json"


@dataclass(frozen=True)
class LineItem:
    """One statement line item and the captions filings give it; `id` is its catalogue key."""

    id: str
    name: str
    statement: str  # income | balance | cash_flow
    labels: tuple[str, ...]  # captions that are this item (best first)
    prefixes: tuple[str, ...] = ()  # captions that start like this item
    exclude: tuple[str, ...] = ()  # substrings that disqualify a caption
    # substrings that disqualify a caption anywhere but the item's own primary statement:
    # 'Long-Term Debt Obligations' is the balance sheet's debt line, while 'Long-term debt
    # obligations' in a contractual-obligations schedule are payments due, not a balance
    off_statement: tuple[str, ...] = ()
    # read as |value| in a formula: filings print this outflow or expense with either sign
    # ('(10,069)' and '10,069' both mean a cost of 10,069), so the sign as printed says nothing
    magnitude: bool = False
    # an expense read signed (positive: expense, negative: benefit); a caption showing the
    # expense in parentheses ('Income tax (expense)/benefit') is read negated
    # (`statements.signs.caption_sign`)
    signed_expense: bool = False
    metrics: tuple[str, ...] = ()  # the catalogue keys this line item is (its own; 'ebit')
    # the item is the sum of every line of one statement that carries one of its captions
    # (short-term debt: 'Commercial paper' + 'Current portion of long-term debt')
    summed: bool = False
    unit: str = "USD"  # USD (an amount as filed, with the statement's scale) | % (a stated rate)
    note: str = ""  # what the item covers when filers differ ('excluding lease liabilities')
    nature: str | None = None  # revenue, expense, gain, loss, asset, liability, equity, ...
    period_type: str | None = None  # instant | duration
    concepts: tuple[str, ...] = ()  # XBRL concepts that report it
    # the entries its `read: also` names: the whole or the part of the same line by owners
    # (consolidated net income, total equity); a line the statement model's layout typed as
    # one of them is not this item
    partners: tuple[str, ...] = ()
    # the item from other line items of the same date where no line of it is printed
    # ('total_equity - noncontrolling_interest'), in the catalogue's notation; '' for none
    derive: str = ""

    def keys(self) -> tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]:
        """label_keys of (labels, prefixes, exclude); a caption written two ways ('Net income',
        'Net Income') is one key, ranked where it first appears."""
        return (
            tuple(dict.fromkeys(label_key(x) for x in self.labels)),
            tuple(label_key(x) for x in self.prefixes),
            tuple(label_key(x) for x in self.exclude),
        )

    def off_statement_keys(self) -> tuple[str, ...]:
        """label_keys of `off_statement`."""
        return tuple(label_key(x) for x in self.off_statement)


_STATEMENTS = frozenset({"income", "balance", "cash_flow"})


def _captions(key: str) -> tuple[str, ...]:
    """The entry's captions, then those of the entries its `read: also` names (a filer without
    noncontrolling interests prints one net income line: both items read it)."""
    raw = entries()
    also = (raw[key].get("read") or {}).get("also") or ()
    return tuple(str(x) for k in (key, *also) for x in raw[k].get("line_items") or ())


def _item(key: str, spec: Mapping[str, Any], also: tuple[str, ...]) -> LineItem:
    d: Mapping[str, Any] = spec.get("read") or {}
    return LineItem(
        id=key,
        name=str(d.get("name") or spec["name"]).lower(),
        statement=str(d.get("statement") or spec["statement"]),
        labels=_captions(key),
        prefixes=tuple(str(x) for x in d.get("prefixes") or ()),
        exclude=tuple(str(x) for x in d.get("exclude") or ()),
        off_statement=tuple(str(x) for x in d.get("off_statement") or ()),
        magnitude=bool(d.get("magnitude", False)),
        signed_expense=bool(d.get("signed_expense", False)),
        metrics=(key, *also),
        summed=bool(d.get("summed", False)),
        unit=str(d.get("unit") or spec.get("unit") or "USD"),
        note=" ".join(str(d.get("note", "")).split()),
        partners=tuple(str(x) for x in d.get("also") or ()),
        derive=" ".join(str(d.get("derive") or "").split()),
        **_kind(spec),
    )


def _kind(spec: Mapping[str, Any]) -> dict[str, Any]:
    return {
        "nature": str(spec["nature"]) if spec.get("nature") else None,
        "period_type": str(spec["period"]) if spec.get("period") else None,
        "concepts": tuple(str(c) for c in spec.get("concepts") or ()),
    }


@data_cache()
def line_items() -> dict[str, LineItem]:
    """key -> LineItem for every catalogue entry that is a line item of its own (`_labelled`),
    in catalogue order."""
    raw = entries()
    # a metric defined as one line item is that item ('ebit: operating_income')
    also: dict[str, list[str]] = {}
    for key, spec in raw.items():
        formula = str(spec.get("formula") or "").strip()
        if formula in raw and formula != key and _labelled(raw[formula]):
            also.setdefault(formula, []).append(key)
    return {
        key: _item(key, spec, tuple(also.get(key, ())))
        for key, spec in raw.items()
        if _labelled(spec)
    }


def _labelled(spec: Mapping[str, Any]) -> bool:
    """A line item of its own: the entry states `read:` rules (`read: {}`: none beyond its
    captions)."""
    return "read" in spec


@data_cache()
def caption_items() -> dict[str, LineItem]:
    """key -> LineItem for every other plain statement line of the catalogue (no formula, no
    `read:` rules, a statement of its own, statement captions): found by those captions."""
    out: dict[str, LineItem] = {}
    for key, spec in entries().items():
        if _labelled(spec) or spec.get("formula") or spec.get("unread"):
            continue
        if spec.get("statement") not in _STATEMENTS or not spec.get("line_items"):
            continue
        if item_for_metric(key) is not None:
            continue
        out[key] = LineItem(
            key,
            str(spec["name"]).lower(),
            str(spec["statement"]),
            tuple(str(x) for x in spec["line_items"]),
            **_kind(spec),
        )
    return out


def catalogue_items() -> dict[str, LineItem]:
    """Every line item a statement reader can find: `caption_items()`, then `line_items()`."""
    return {**caption_items(), **line_items()}


def item_for_metric(metric_id: str) -> str | None:
    """The line item key a catalogue key is read from ('ebit' -> 'operating_income')."""
    if metric_id in line_items():
        return metric_id
    for item in line_items().values():
        if metric_id in item.metrics:
            return item.id
    return None


def get_line_item(item_id: str) -> LineItem | None:
    """The line item with `read:` rules and this key, or None."""
    return line_items().get(item_id)


def get_item(key: str) -> LineItem | None:
    """Any line item a statement reader can find by this key (`catalogue_items`), or None."""
    return line_items().get(key) or caption_items().get(key)


def spelled_captions(question: str) -> tuple[tuple[str, str], ...]:
    """(item, caption key) for each catalogue line the question names by one of the item's own
    captions ('as a percentage of net sales': revenue by 'Net sales'): where a filer prints
    that caption beside another of the item's ('Net sales' above 'Membership fees' and 'Total
    revenue'), the line the question spells is the one it asks."""
    from finqa.lexicon.label_keys import label_key
    from finqa.lexicon.metrics import find_metrics

    out: dict[str, str] = {}
    for m in find_metrics(question):
        li = line_items().get(m.canonical)
        key = label_key(m.matched)
        # a lone word ('revenue', 'sales') is how any caption of the item is named, not one
        if li is not None and " " in m.matched.strip() and key in li.keys()[0]:
            out.setdefault(m.canonical, key)
    return tuple(out.items())
