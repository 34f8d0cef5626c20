"""Whose equity a calculation divides by, and whose net income it takes, checked by the judge's
own route: the statements' arithmetic, total = the company's share + noncontrolling interests.

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

Net income is read the same way from the income statement (`income_splits`): a margin, a return
or earnings per share takes the net income attributable to the company (us-gaap NetIncomeLoss)
unless the question asks for the consolidated figure. Two rows near the noncontrolling
interests' row that differ by exactly its figure, in every column the table prints, are the
consolidated total (printed first: 'Net income', then 'Less: ... noncontrolling interests', then
the company's share; or the total, then 'Attributable to: the company / noncontrolling
interests') and the company's share, whatever their captions (a caption printed a word a line,
a name the lexicon does not know).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

from finqa.lexicon.display import format_number as _fmt
from finqa.lexicon.model import StatementFact, StatementTable
from finqa.lexicon.statements.attribution import NCI_CAPTION as _NCI

__all__ = [
    "OwnersSplit",
    "asked_income_owners",
    "asked_owners",
    "equity_splits",
    "income_splits",
    "wrong_owners",
]

Owners = Literal["company", "consolidated"]

_OUTSIDE = re.compile(r"\bredeemable|temporary|liabilit|income|earnings", re.I)
_EQUITY = re.compile(r"equity|deficit", re.I)
_NOT_TOTAL = re.compile(r"liabilities|per share|comprehensive", re.I)
# the noncontrolling interests' share of net income ('Less: Net income attributable to
# noncontrolling interests', or 'Noncontrolling interests' under 'Net income attributable to:'),
# not their share of comprehensive income, a dividend or a per-share line
_NOT_NET = re.compile(r"comprehensive|per share|dividend|distribution|redeemable", re.I)
_NEAR_ROWS = 3  # the total and the company's share are printed right around the NCI line


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
    line: str = "equity"  # what is split: 'equity' or 'net income'


def asked_owners(question: str, metric: str | None) -> Owners | None:
    """Whose equity the asked metric takes: the company's by default, the consolidated total
    where the question states it; None when the metric's formula takes no equity."""
    return _asked(question, metric, r"\b(?:shareholders_equity|total_equity)\b", "total_equity")


def asked_income_owners(question: str, metric: str | None) -> Owners | None:
    """Whose net income the asked metric takes: the company's by default, the consolidated
    total where the question states it; None when the metric's formula takes no net income."""
    return _asked(question, metric, r"\bnet_income(?:_consolidated)?\b", "net_income_consolidated")


def _asked(question: str, metric: str | None, takes: str, total: str) -> Owners | None:
    if metric is None:
        return None
    from finqa.lexicon.conventions import apply_conventions, stated_conventions

    try:
        from finqa.lexicon import get_metric

        own = get_metric(metric)
    except Exception:  # noqa: BLE001 - not a catalogue metric: nothing to judge
        return None
    formula = own.formula or metric
    if not re.search(takes, formula):
        return None
    stated = apply_conventions(formula, stated_conventions(question))
    return "consolidated" if re.search(rf"\b{total}\b", stated) else "company"


def equity_splits(store: Any, doc: str) -> list[OwnersSplit]:
    """Every balance date of `doc`'s balance sheets where two printed equity figures differ by
    exactly the noncontrolling interests' figure (parent + NCI = total)."""
    out: list[OwnersSplit] = []
    for table in _statements(store, doc, "balance"):
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


def income_splits(store: Any, doc: str) -> list[OwnersSplit]:
    """Every period of `doc`'s income statements where two rows near the noncontrolling
    interests' share of net income differ by exactly that share, in every column."""
    out: list[OwnersSplit] = []
    for table in _statements(store, doc, "income"):
        rows: dict[int, dict[str, StatementFact]] = {}
        for f in table.facts:
            if f.unit == "USD" and not f.dimensions:
                rows.setdefault(f.row, {}).setdefault(f.period.key, f)
        nci = {r for r, cells in rows.items() if _NCI.search(next(iter(cells.values())).label)}
        for row in sorted(nci):
            cells = rows[row]
            if _NOT_NET.search(next(iter(cells.values())).label) or not any(
                c.value for c in cells.values()
            ):
                continue
            near = [rows[r] for r in sorted(rows) if r not in nci and abs(r - row) <= _NEAR_ROWS]
            out += _income_pairs(doc, cells, near)
    return out


def _statements(store: Any, doc: str, kind: str) -> list[StatementTable]:
    """`doc`'s tables of statement `kind` in `store`; none where the store cannot read it."""
    try:
        return [t for t in store.tables(doc) if t.statement == kind]
    except Exception:  # noqa: BLE001 - a store that cannot read the filing: no split
        return []


def _income_pairs(
    doc: str, nci: dict[str, StatementFact], rows: Sequence[dict[str, StatementFact]]
) -> list[OwnersSplit]:
    """The (total, company) row pairs whose magnitudes differ by the noncontrolling interests'
    share in every column both print; the total is the one printed first."""
    found: list[OwnersSplit] = []
    for i, upper in enumerate(rows):
        for lower in rows[i + 1 :]:
            keys = [k for k in nci if k in upper and k in lower and nci[k].value]
            if not keys or not all(_differ_by(upper[k], lower[k], nci[k]) for k in keys):
                continue
            for k in keys:
                t, p, n = upper[k], lower[k], nci[k]
                found.append(
                    OwnersSplit(
                        doc,
                        t.page,
                        k,
                        abs(p.filed_value),
                        abs(n.filed_value),
                        abs(t.filed_value),
                        p.label,
                        t.label,
                        "net income",
                    )
                )
    return found


def _rounding(fact: StatementFact) -> float:
    """How far a printed figure may be off a sum of other printed figures: the table's rounding."""
    return max(2.0 * (fact.scale or 1.0), 0.0005 * abs(fact.value))


def _differ_by(a: StatementFact, b: StatementFact, n: StatementFact) -> bool:
    if not a.value or not b.value or abs(a.value) == abs(b.value):
        return False
    return abs(abs(abs(a.value) - abs(b.value)) - abs(n.value)) <= _rounding(a)


def _pairs(doc: str, key: str, n: Any, rows: Sequence[Any]) -> list[OwnersSplit]:
    found: list[OwnersSplit] = []
    if not n.value:
        return found
    for p in rows:
        for t in rows:
            if p is t or p.value == t.value:
                continue
            if abs(p.value + n.value - t.value) <= _rounding(t):
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
    """Why an operand among `figures` (as written) is the other owners' equity or net income,
    or None."""
    for s in splits:
        other, own = (s.total, s.parent) if owners == "company" else (s.parent, s.total)
        if any(_same(f, own) for f in figures):
            continue  # the asked owners' equity is an operand
        if any(_same(f, other) for f in figures):
            if s.line != "equity":
                return _wrong_income(owners, s)
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


def _wrong_income(owners: Owners, s: OwnersSplit) -> str:
    if owners == "company":
        return (
            f"the calculation takes {_fmt(s.total)} ('{s.total_label}', {s.doc} p.{s.page + 1}), "
            f"net income including the noncontrolling interests' share of {_fmt(s.nci)}: the "
            f"company's share is {_fmt(s.parent)} ('{s.parent_label}'), the net income the "
            "metric takes unless the question asks for consolidated net income"
        )
    return (
        f"the calculation takes {_fmt(s.parent)} ('{s.parent_label}', {s.doc} p.{s.page + 1}), "
        "the company's share of net income, where the question asks for consolidated net "
        f"income including the noncontrolling interests' share of {_fmt(s.nci)}: "
        f"{_fmt(s.total)} ('{s.total_label}')"
    )


def _same(a: float, b: float) -> bool:
    return abs(abs(a) - abs(b)) <= 0.001 * max(abs(a), abs(b))
