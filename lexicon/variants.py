"""Recognised variants of a metric's definition, and the one a question's own words select.

Where general financial practice defines a metric more than one way (a turnover on average or
year-end balances, the quick ratio's quick assets, capital intensity as capex or as total assets
over revenue), the catalogue lists each definition under the metric's `variants`
(`lexicon/data/metrics.yaml`), the first being the metric's own formula. A question that states
its convention ('using ending inventory', 'average total assets', 'quick assets defined as
current assets less inventories', its own 'X is defined as ...' clause) selects one and no
ambiguity is left; otherwise an answer's figure depends on the convention wherever the variants
give different values, and says so.
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
    if defines_metric(question):
        return VariantReading(
            metric_id, fits, own_definition=True, how="the question defines the metric itself"
        )
    balance = stated_conventions(question).balance
    if balance is not None:
        chosen = [v for v in fits if v.basis == balance]
        if len(chosen) == 1:
            return VariantReading(
                metric_id, fits, chosen[0], how=f"the question states {balance} balances"
            )
    named = [
        (max(len(p) for p in v.stated_by if f" {_words(p)}" in words), v)
        for v in fits
        if any(f" {_words(p)}" in words for p in v.stated_by)
    ]
    if named:
        longest = max(n for n, _v in named)
        chosen = [v for n, v in named if n == longest]
        if len(chosen) == 1:
            return VariantReading(
                metric_id, fits, chosen[0], how=f"the question names {chosen[0].name}"
            )
    return VariantReading(metric_id, fits, how="the question states no convention")
