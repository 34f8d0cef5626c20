"""Rebuild, from a FinanceBench justification, the Calculation records a Reasoning agent would
attach to the gold answer (operands located in the gold evidence pages), so a computed gold
figure is verifiable. Two sources: arithmetic written in the justification
('1721+2904+1157-1804-3147', '31,089/((12,483+10,387)/2)'), and, for 'metrics-generated'
questions whose justification only names line items, the named rows of the evidence tables
combined by the usual definitions (ratio, margin, averages, changes, DPO/DIO/DSO)."""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from finqa.agents.judge import column_period, magnitude_close, row_cells, row_label, year_mentions
from finqa.agents.judge.calc import CalcError, safe_eval
from finqa.agents.judge.evidence import EvidenceView
from finqa.agents.types import Calculation, Operand
from finqa.lexicon import extract_quantities

__all__ = ["build_calculations", "arith_calculations", "locate", "labelled"]

_CONSTANTS = {1.0, 2.0, 3.0, 100.0, 365.0}


@dataclass(frozen=True)
class Located:
    source_id: str
    value: float
    scale: float
    year: int | None
    text: str


def locate(value: float, view: EvidenceView, *, decimals: int = 0) -> Located | None:
    """Find a figure as written (magnitude) in the evidence; its source, scale and column year."""
    for src in view.sources:
        for e in src.quantities:
            if (
                e.unit == "%"
                or abs(abs(e.value) - abs(value)) > 0.5 * 10.0 ** -max(decimals, 0) * 1.0001
            ):
                continue
            if decimals == 0 and e.decimals > 0 and abs(e.value) != abs(value):
                continue
            col = column_period(src.text, e.start, e.end)
            return Located(src.source_id, e.value, e.scale, col.year, e.text)
    return None


def _operand(name: str, value: float, view: EvidenceView, decimals: int) -> Operand:
    found = locate(value, view, decimals=decimals)
    if found is None:
        return Operand(name=name, value=value, unit="USD", scale=1.0)
    period = f"FY{found.year}" if found.year else None
    return Operand(
        name=name,
        value=abs(found.value) if value >= 0 else -abs(found.value),
        unit="USD",
        scale=found.scale,
        period=period,
        source_id=found.source_id,
        text=found.text,
    )


_RUN = re.compile(r"[$(\-]*\d[\d,.$() \t+\-*/x×]*")
_NUMBER = re.compile(r"\d+(?:,\d{3})+(?:\.\d+)?|\d+(?:[.,]\d+)?")


def arith_calculations(justification: str, view: EvidenceView) -> list[Calculation]:
    """Calculations written out in the justification, operands looked up in the evidence.

    The justification is arithmetic, not prose: it is tokenised here as an expression
    ('1721+2904+1157-1804-3147', '$328.1 million /$900 million * 100'); the operands' scale
    and period come from where the lexicon finds them in the evidence."""
    text = re.sub(r"[ \t]*\b(?:million|billion|thousand)s?\b", "", justification, flags=re.I)
    calcs: list[Calculation] = []
    for m in _RUN.finditer(text):
        raw = m.group(0).rstrip(" .,\t")
        numbers = list(_NUMBER.finditer(raw))
        if len(numbers) < 2 or not re.search(r"\d[\d,.)( \t$]*[-+*/x×][ \t$(]*[\d(]", raw):
            continue
        expr, last = "", 0
        operands: list[Operand] = []
        for n in numbers:
            token = n.group(0)
            value = float(
                token.replace(",", "")
                if re.fullmatch(r"\d+(?:,\d{3})+(?:\.\d+)?", token)
                else token.replace(",", ".")
            )
            decimals = len(token.split(".")[1]) if "." in token else 0
            expr += raw[last : n.start()]
            last = n.end()
            if value in _CONSTANTS and decimals == 0:
                expr += f"{value:g}"
                continue
            name = f"x{len(operands)}"
            operands.append(_operand(name, value, view, decimals))
            expr += f" {name} "
        expr += raw[last:]
        expr = _balance(re.sub(r"[x×](?!\d)", "*", expr.replace("$", "")).strip())
        if not operands:
            continue
        try:
            result = safe_eval(expr, {o.name: o.value for o in operands})
        except CalcError:
            continue
        calcs.append(Calculation(expression=expr, operands=tuple(operands), result=result, unit=""))
    return calcs


def prose_calculations(justification: str, view: EvidenceView) -> list[Calculation]:
    """'... amount of $4,200,000,000 - ... amount of $3,800,000,000 = $400,000,000': amounts
    joined by one operator with words in between (dates are not operands)."""
    calcs: list[Calculation] = []
    for segment in justification.split("="):
        qs = [
            q
            for q in extract_quantities(segment)
            if q.kind == "number" and (q.unit == "USD" or q.scale_source == "explicit")
        ]
        if len(qs) < 2:
            continue
        expr = ""
        operands: list[Operand] = []
        for k, q in enumerate(qs):
            if k:
                ops = re.findall(r"\s([-+*/])\s", segment[qs[k - 1].end : q.start])
                if len(ops) != 1:
                    break
                expr += f" {ops[0]} "
            name = f"x{len(operands)}"
            operands.append(_operand(name, abs(float(q.value)), view, q.decimals))
            expr += name
        else:
            try:
                result = safe_eval(expr, {o.name: o.value for o in operands})
            except CalcError:
                continue
            calcs.append(Calculation(expression=expr, operands=tuple(operands), result=result))
    return calcs


def _balance(expr: str) -> str:
    while expr.count("(") > expr.count(")") and expr.startswith("("):
        expr = expr[1:]
    while expr.count(")") > expr.count("("):
        expr = expr[:-1] if expr.endswith(")") else expr
        if expr.count(")") > expr.count("(") and not expr.endswith(")"):
            break
    return expr + ")" * max(0, expr.count("(") - expr.count(")"))


# --------------------------------------------------------------------------- line-item templates


def _squash(text: str) -> str:
    return re.sub(r"[^a-z]", "", text.lower())


def _label_end(text: str, full: str, key: str) -> int:
    """End offset of the line labelled `full` (letters only), else of the first line starting
    with its 24-letter prefix `key` ('Net earnings attributable to General Mills' is not
    'Net earnings attributable to redeemable ... interests'); -1 if none."""
    best = -1
    offset = 0
    for line in text.split("\n"):
        squashed = _squash(line)
        if squashed.startswith(full):
            return offset + len(line)
        if best < 0 and squashed.startswith(key):
            best = offset + len(line)
        offset += len(line) + 1
    return best


def _rows(names: Sequence[str], view: EvidenceView) -> dict[str, dict[int, Located]]:
    """item name -> {year: magnitude} read from the labelled row of an evidence table (labels
    compared letters-only: PDF text glues or splits words)."""
    out: dict[str, dict[int, Located]] = {}
    for name in names:
        full = _squash(name.replace("\u00c2", " ").replace("\xa0", " "))
        key = full[:24]
        if len(key) < 4 or name.startswith("["):
            continue
        for src in view.sources:
            found_at = _label_end(src.text, full, key)
            if found_at < 0:
                continue
            after = [q for q in src.quantities if q.start >= found_at][:1]
            if not after:
                continue
            vals: dict[int, Located] = {}
            for s, _e, year in row_cells(src.text, after[0].start):
                q = next((q for q in src.quantities if q.start == s), None)
                if q is not None and year is not None and year not in vals:
                    vals[year] = Located(src.source_id, abs(q.value), q.scale, year, q.text)
            if vals:
                out[name] = vals
                break
    return out


def _templates(items: list[str], years: list[int]) -> list[tuple[str, list[tuple[str, int]]]]:
    """(expression over x0.., [(item, year) per operand]) candidates, most specific first."""
    y = max(years)
    out: list[tuple[str, list[tuple[str, int]]]] = []
    for a, b in itertools.permutations(items, 2):
        out.append(("x0 / x1", [(a, y), (b, y)]))
        out.append(("x0 / x1 * 100", [(a, y), (b, y)]))
        out.append(("x0 - x1", [(a, y), (b, y)]))
        out.append(("1 - x0 / x1", [(a, y), (b, y)]))
        out.append(("x0 / ((x1 + x2) / 2)", [(a, y), (b, y), (b, y - 1)]))
        if len(years) >= 2 and min(years) < y:
            y0 = min(years)
            span = list(range(y0, y + 1))
            terms = " + ".join(f"x{2 * i} / x{2 * i + 1}" for i in range(len(span)))
            ops = [p for t in span for p in ((a, t), (b, t))]
            out.append((f"({terms}) / {len(span)} * 100", ops))
            out.append(("(x0 / x1 - x2 / x3) * 100", [(a, y), (b, y), (a, y0), (b, y0)]))
    for a, b, c in itertools.permutations(items, 3):
        out.append(("x0 + x1 - x2", [(a, y), (b, y), (c, y)]))
        out.append(("(x0 + x1) / x2 * 100", [(a, y), (b, y), (c, y)]))
        out.append(
            (
                "365 * ((x0 + x1) / 2) / (x2 + x3 - x4)",
                [(a, y), (a, y - 1), (b, y), (c, y), (c, y - 1)],
            )
        )
        if len(years) >= 2 and min(years) < y:
            span = list(range(min(years), y + 1))
            terms = " + ".join(
                f"(x{3 * i} + x{3 * i + 1}) / x{3 * i + 2}" for i in range(len(span))
            )
            ops = [p for t in span for p in ((a, t), (b, t), (c, t))]
            out.append((f"({terms}) / {len(span)} * 100", ops))
    return out


def template_calculations(
    justification: str, question: str, view: EvidenceView, targets: Sequence[Any]
) -> list[Calculation]:
    """A calculation over the named line items that reproduces one of the gold figures."""
    names = re.findall(r"single line item named: (.+?)\.\s*(?:\n|$)", justification)
    if not names or not targets:
        return []
    rows = _rows(names, view)
    years = sorted({y for y, _s, _e in year_mentions(question)})
    if not rows or not years:
        return []
    items = list(rows)
    for expr, spec in _templates(items, years):
        if any(t not in rows[item] for item, t in spec):
            continue
        located = [rows[item][t] for item, t in spec]
        operands = tuple(
            Operand(
                name=f"x{i}",
                value=loc.value,
                scale=loc.scale,
                period=f"FY{loc.year}",
                source_id=loc.source_id,
                text=loc.text,
            )
            for i, loc in enumerate(located)
        )
        try:
            result = safe_eval(expr, {o.name: o.value for o in operands})
        except CalcError:
            continue
        if any(figure_matches(t, result) for t in targets):
            return [
                Calculation(
                    expression=expr, operands=operands, result=result, description="template"
                )
            ]
    return []


def figure_matches(q: Any, result: float) -> bool:
    for r in (result, result * 100.0, result / 100.0):
        if magnitude_close(q, r, rel_tol=0.005, scales=(1.0 / float(q.scale or 1.0),)):
            return True
    return False


def build_calculations(
    justification: str | None, question: str, view: EvidenceView, targets: Sequence[Any]
) -> list[Calculation]:
    """Arithmetic calculations from the justification, plus combinations of two of them
    (difference, ratio, change) and line-item templates when a gold figure is still unmatched."""
    if not justification:
        return []
    calcs = arith_calculations(justification, view)
    if not any(figure_matches(t, c.result) for t in targets for c in calcs):
        calcs += prose_calculations(justification, view)
    unmatched = [t for t in targets if not any(figure_matches(t, c.result) for c in calcs)]
    if unmatched and len(calcs) >= 2:
        for c1, c2 in itertools.permutations(calcs, 2):
            combo = _combine(c1, c2, unmatched)
            if combo is not None:
                calcs.append(combo)
                break
    unmatched = [t for t in targets if not any(figure_matches(t, c.result) for c in calcs)]
    if unmatched:
        calcs += template_calculations(justification, question, view, unmatched)
    return calcs


def _combine(c1: Calculation, c2: Calculation, targets: Sequence[Any]) -> Calculation | None:
    n1 = len(c1.operands)
    renamed = re.sub(r"\bx(\d+)\b", lambda m: f"x{int(m.group(1)) + n1}", c2.expression)
    ops2 = tuple(o.model_copy(update={"name": f"x{int(o.name[1:]) + n1}"}) for o in c2.operands)
    for form in ("({a}) - ({b})", "({a}) / ({b}) - 1", "(({a}) / ({b}) - 1) * 100"):
        expr = form.format(a=c1.expression, b=renamed)
        operands = c1.operands + ops2
        try:
            result = safe_eval(expr, {o.name: o.value for o in operands})
        except CalcError:
            continue
        if any(figure_matches(t, result) for t in targets):
            return Calculation(
                expression=expr, operands=operands, result=result, description="combined"
            )
    return None


def labelled(calcs: Sequence[Calculation], view: EvidenceView) -> tuple[Calculation, ...]:
    """The calculations with each operand's text the row it was read from ('Total current assets
    7,453'), as a Reasoning agent records it (the judge reads what an operand is from it)."""
    out = []
    for calc in calcs:
        operands = []
        for op in calc.operands:
            label = _row_of(op, view)
            text = f"{label} {op.text}" if label and not op.text.startswith(label) else op.text
            operands.append(op.model_copy(update={"text": text}))
        out.append(calc.model_copy(update={"operands": tuple(operands)}))
    return tuple(out)


def _row_of(op: Operand, view: EvidenceView) -> str | None:
    src = view.get(op.source_id) if op.source_id else None
    if src is None:
        return None
    for e in src.quantities:
        if e.text == op.text and abs(abs(float(e.value)) - abs(op.value)) < 1e-9:
            return row_label(src.text, e.start)
    return None
