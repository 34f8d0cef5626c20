"""Whose equity a calculation divides by, checked by the judge's own route: the balance sheet's
arithmetic, total equity = the company's equity + noncontrolling interests.

A return on equity, book value or leverage ratio takes the equity attributable to the company's
shareholders by default (us-gaap StockholdersEquity); the total including noncontrolling
interests only when the question says so (`lexicon.conventions`: 'total equity', 'including
noncontrolling interests'). Captions cannot tell the two apart ('Total stockholders' equity' is
the total at one filer, the parent's at another), and the reasoner's reading of them is what is
checked, so the judge reads the filing's balance sheet rows itself: for each balance date, the
noncontrolling interests' figure N and every equity row's figure; two equity figures P and T
with P + N = T are the company's equity and the total. An operand that is T where P is asked
(or P where T is asked) is the wrong owners' equity, whatever its caption says. A filer
without noncontrolling interests (no such pair) is not judged here.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

from finqa.lexicon.display import format_number as _fmt
from finqa.lexicon.statements.attribution import NCI_CAPTION as _NCI

__all__ = ["OwnersSplit", "asked_owners", "equity_splits", "wrong_owners"]

Owners = Literal["company", "consolidated"]

_OUTSIDE = re.compile(r"\bredeemable|temporary|liabilit|income|earnings", re.I)
_EQUITY = re.compile(r"equity|deficit", re.I)
_NOT_TOTAL = re.compile(r"liabilities|per share|comprehensive", re.I)


@dataclass(frozen=True)
class OwnersSplit:
    """One balance date's equity by owners, as printed (filed values, before scale)."""

    doc: str
    page: int
    period: str  # the period key ('FY2022@end')
    parent: float  # the company's shareholders' equity
    nci: float  # noncontrolling interests
    total: float  # total equity
    parent_label: str
    total_label: str


def asked_owners(question: str, metric: str | None) -> Owners | None:
    """Whose equity the asked metric takes: the company's by default, the consolidated total
    where the question states it; None when the metric's formula takes no equity."""
    if metric is None:
        return None
    from finqa.lexicon.conventions import apply_conventions, stated_conventions

    try:
        from finqa.lexicon import get_metric

        own = get_metric(metric)
    except Exception:  # noqa: BLE001 - not a catalogue metric: nothing to judge
        return None
    formula = own.formula or metric
    if not re.search(r"\b(?:shareholders_equity|total_equity)\b", formula):
        return None
    stated = apply_conventions(formula, stated_conventions(question))
    return "consolidated" if re.search(r"\btotal_equity\b", stated) else "company"


def equity_splits(store: Any, doc: str) -> list[OwnersSplit]:
    """Every balance date of `doc`'s balance sheets where two printed equity figures differ by
    exactly the noncontrolling interests' figure (parent + NCI = total)."""
    try:
        tables = store.tables(doc)
    except Exception:  # noqa: BLE001 - a store that cannot read the filing: no split
        return []
    out: list[OwnersSplit] = []
    for table in tables:
        if table.statement != "balance":
            continue
        nci: dict[str, Any] = {}
        equity: dict[str, list[Any]] = {}
        for f in table.facts:
            if f.unit != "USD" or f.dimensions or not f.label:
                continue
            if (
                f.item == "noncontrolling_interest" or _NCI.search(f.label)
            ) and not _OUTSIDE.search(f.label):
                nci.setdefault(f.period.key, f)
            elif _EQUITY.search(f.label) and not _NOT_TOTAL.search(f.label):
                equity.setdefault(f.period.key, []).append(f)
        for key, n in nci.items():
            out += _pairs(doc, key, n, equity.get(key, []))
    return out


def _pairs(doc: str, key: str, n: Any, rows: Sequence[Any]) -> list[OwnersSplit]:
    found: list[OwnersSplit] = []
    if not n.value:
        return found
    for p in rows:
        for t in rows:
            if p is t or p.value == t.value:
                continue
            tol = max(2.0 * (t.scale or 1.0), 0.0005 * abs(t.value))  # the table's rounding
            if abs(p.value + n.value - t.value) <= tol:
                found.append(
                    OwnersSplit(
                        doc,
                        t.page,
                        key,
                        p.filed_value,
                        n.filed_value,
                        t.filed_value,
                        p.label,
                        t.label,
                    )
                )
    return found


def wrong_owners(
    owners: Owners, figures: Sequence[float], splits: Sequence[OwnersSplit]
) -> str | None:
    """Why an operand among `figures` (as written) is the other owners' equity, or None."""
    for s in splits:
        other, own = (s.total, s.parent) if owners == "company" else (s.parent, s.total)
        if any(_same(f, own) for f in figures):
            continue  # the asked owners' equity is an operand
        if any(_same(f, other) for f in figures):
            if owners == "company":
                return (
                    f"the calculation takes {_fmt(s.total)} ('{s.total_label}', {s.doc} "
                    f"p.{s.page + 1}), equity including noncontrolling interests of "
                    f"{_fmt(s.nci)}: the company's shareholders' equity is {_fmt(s.total)} - "
                    f"{_fmt(s.nci)} = {_fmt(s.parent)} ('{s.parent_label}'), the equity the "
                    "metric takes unless the question asks for total equity"
                )
            return (
                f"the calculation takes {_fmt(s.parent)} ('{s.parent_label}', {s.doc} "
                f"p.{s.page + 1}), the company's share of equity, where the question asks for "
                f"total equity including noncontrolling interests: {_fmt(s.parent)} + "
                f"{_fmt(s.nci)} = {_fmt(s.total)} ('{s.total_label}')"
            )
    return None


def _same(a: float, b: float) -> bool:
    return abs(abs(a) - abs(b)) <= 0.001 * max(abs(a), abs(b))
