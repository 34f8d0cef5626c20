"""Recognised variants of a metric's definition, and the one a question's own words select.

Where general financial practice defines a metric more than one way (a turnover on average or
year-end balances, the quick ratio's quick assets, capital intensity as capex or as total assets
over revenue), the catalogue lists each definition under the metric's `variants`
(`lexicon/data/metrics.yaml`), the first being the metric's own formula. A question that states
its convention ('using ending inventory', 'average total assets', 'quick assets defined as
current assets less inventories', its own 'X is defined as ...' clause) selects one and no
ambiguity is left; otherwise an answer's figure depends on the convention wherever the variants
give different values, and says so.

The line items a question names select too (issue #25 class 5: the operands the question names
win over the catalogue's default): 'DPO ... using cost of sales' leaves only the definitions over
cost of sales open (purchases name the change in inventory it does not), 'inventory turnover on
net sales' the sales-based ones; definitions compared by the line items they rest on, derived
metrics expanded ('dio + dso - dpo' rests on the same lines as its year-end form). The one the
question's words lead with where it is not the catalogue's formula (`VariantReading.leading`) is
what the reasoner computes (`QuestionAsk.variant`) and what the judge's route derives.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from finqa.lexicon._data import data_cache
from finqa.lexicon.answer_form import defines_metric
from finqa.lexicon.catalogue import entries
from finqa.lexicon.conventions import stated_conventions

__all__ = ["Variant", "VariantReading", "metric_variants", "read_variants"]


@dataclass(frozen=True, slots=True)
class Variant:
    """One recognised definition of a metric: its formula over catalogue keys (the catalogue's
    notation) and where it is the standard one."""

    metric: str
    name: str
    formula: str
    standard: str
    unit: str  # the variant's own unit (the metric's unless the catalogue says otherwise)
    basis: Literal["average", "ending"] | None = None
    stated_by: tuple[str, ...] = ()
    asked_as: tuple[str, ...] = ()

    @property
    def is_default(self) -> bool:
        """The catalogue's own formula for the metric (its first variant)."""
        return metric_variants(self.metric)[0] == self


@dataclass(frozen=True)
class VariantReading:
    """The variants a question leaves open for a metric, and the one it states, if any."""

    metric: str
    variants: tuple[Variant, ...]  # recognised for the question's wording, the default first
    stated: Variant | None = None  # the variant the question's own words select
    own_definition: bool = False  # the question defines the metric itself ('... defined as')
    how: str = ""  # why the question's wording selects (or leaves open) a variant
    # the recognised definitions over line items the question does not name (DPO on purchases
    # where it names cost of sales): a figure by one of them answers another definition
    ruled_out: tuple[Variant, ...] = ()

    @property
    def leading(self) -> Variant | None:
        """The definition an answer computes where it is not the metric's own formula: the one
        stated, else the first the question's operands leave open; None: the catalogue's."""
        lead = self.stated or (self.variants[0] if self.ruled_out and self.variants else None)
        if lead is None or lead.is_default:
            return None
        # a variant of the balance basis alone is the catalogue's formula under the question's
        # stated convention (`lexicon.conventions`): no other formula
        own = metric_variants(self.metric)[0]
        same = formula_operands(lead.formula) == formula_operands(own.formula)
        return None if same and lead.basis is not None else lead

    @property
    def ambiguous(self) -> bool:
        """More than one definition fits and the question says nothing that picks one."""
        return len(self.variants) > 1 and self.stated is None and not self.own_definition


@data_cache()
def _all() -> dict[str, tuple[Variant, ...]]:
    out: dict[str, tuple[Variant, ...]] = {}
    for key, spec in entries().items():
        listed = spec.get("variants") or ()
        unit = str(spec.get("unit") or "USD")
        out[key] = tuple(
            Variant(
                metric=key,
                name=str(v["name"]),
                formula=str(v["formula"]),
                standard=" ".join(str(v["standard"]).split()),
                unit=str(v.get("unit") or unit),
                basis=v.get("basis") or None,
                stated_by=tuple(str(x).lower() for x in v.get("stated_by") or ()),
                asked_as=tuple(str(x).lower() for x in v.get("asked_as") or ()),
            )
            for v in listed
        )
    return out


def metric_variants(metric_id: str) -> tuple[Variant, ...]:
    """Every variant the catalogue lists for the metric (empty: one definition only)."""
    return _all().get(metric_id, ())


def _words(text: str) -> str:
    return " ".join("".join(c if c.isalnum() or c in "&-" else " " for c in text.lower()).split())


def read_variants(metric_id: str, question: str) -> VariantReading:
    """The variants of `metric_id` that fit how `question` names it, and the one it states:
    its balance basis ('ending inventory', 'average assets'), words naming a variant's
    operands ('current assets less inventories'), or its own definition of the metric."""
    listed = metric_variants(metric_id)
    words = f" {_words(question)} "
    fits = tuple(
        v for v in listed if not v.asked_as or any(f" {_words(a)} " in words for a in v.asked_as)
    )
    if len(fits) < 2:
        return VariantReading(metric_id, fits)
    # the operands the question names select among definitions over other line items (DPO on
    # cost of sales rather than on purchases): those of the others' operands it leaves unnamed
    named_ops, among = _by_operands(metric_id, question, fits)
    ruled_out = tuple(v for v in fits if v not in among)
    defined = defines_metric(question)
    balance = stated_conventions(question).balance
    if balance is None and defined and ruled_out:
        balance = "ending"  # its own definition over balances it does not average: year-end
    if balance is not None:
        chosen = [v for v in among if v.basis == balance]
        if len(chosen) == 1 and (chosen[0] != fits[0] or not defined):
            how = f"the question {named_ops}states {balance} balances"
            return VariantReading(metric_id, among, chosen[0], how=how, ruled_out=ruled_out)
    if len(among) == 1 and (among[0] != fits[0] or not defined):
        how = f"the question {named_ops.strip(', ')}"
        return VariantReading(metric_id, among, among[0], how=how, ruled_out=ruled_out)
    if defined:
        return VariantReading(
            metric_id, fits, own_definition=True, how="the question defines the metric itself"
        )
    named = [
        (max(len(p) for p in v.stated_by if f" {_words(p)}" in words), v)
        for v in among
        if any(f" {_words(p)}" in words for p in v.stated_by)
    ]
    if named:
        longest = max(n for n, _v in named)
        chosen = [v for n, v in named if n == longest]
        if len(chosen) == 1:
            how = f"the question names {chosen[0].name}"
            return VariantReading(metric_id, among, chosen[0], how=how, ruled_out=ruled_out)
    if ruled_out:
        how = f"the question {named_ops}states no balance basis"
        return VariantReading(metric_id, among, how=how, ruled_out=ruled_out)
    return VariantReading(metric_id, fits, how="the question states no convention")


def formula_operands(formula: str) -> frozenset[str]:
    """The line items a variant's formula rests on, derived metrics expanded through their own
    catalogue formulas ('dio + dso - dpo' -> inventory, cogs, receivables, revenue, payables)."""
    from finqa.lexicon.formula import keys

    return frozenset().union(*(_leaves(k) for k in keys(formula)))


@data_cache()
def _leaves(key: str, depth: int = 0) -> frozenset[str]:
    """The line items a catalogue key rests on: itself, or its formula's, expanded."""
    from finqa.lexicon.formula import keys
    from finqa.lexicon.metrics import METRICS

    metric = METRICS.get(key)
    formula = str(metric.formula or "") if metric is not None else ""
    if not formula or depth > 6:
        return frozenset({key})
    own = keys(formula)
    if own == (key,):
        return frozenset({key})
    return frozenset().union(*(_leaves(k, depth + 1) for k in own))


def _by_operands(
    metric_id: str, question: str, fits: tuple[Variant, ...]
) -> tuple[str, tuple[Variant, ...]]:
    """The variants whose operands the question names: where it names a line item that only
    some definitions read (cost of sales, not the purchases' change in inventory), those whose
    distinguishing operands it names and none it leaves unnamed; every variant where it names
    none. Returns what it names ('names cost of sales, ') and the variants kept."""
    from finqa.lexicon.metrics import find_metrics

    ops = [formula_operands(v.formula) for v in fits]
    common = frozenset.intersection(*ops)
    differ = frozenset.union(*ops) - common
    found = [m for m in find_metrics(question) if m.canonical != metric_id]
    named = frozenset().union(*(_leaves(str(m.canonical)) for m in found))
    if not differ or not (named & frozenset.union(*ops)):
        return "", fits
    scores = [(len((o & differ) - named), -len(o & differ & named)) for o in ops]
    best = min(scores)
    kept = tuple(v for v, sc in zip(fits, scores, strict=True) if sc == best)
    if len(kept) == len(fits):
        return "", fits
    every = frozenset.union(*ops)
    said = ", ".join(dict.fromkeys(m.matched for m in found if _leaves(str(m.canonical)) & every))
    return f"names {said}, ", kept
