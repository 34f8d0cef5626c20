"""Comparison across segments: the parts a filing breaks a statement line into, read from the model.

A breakdown is found, not assumed: in a table of the filing's statement model, a run of
consecutive lines whose figures for the year add up to a 'total' line equal (within
`TOTAL_TOLERANCE`) to the consolidated line item the question asks about (the catalogue line
item it names, revenue by default) is that item's breakdown by segment, region or product line.
Families over it:

- share threshold: "are there any segments / product categories that represent more than N%
  of revenue?": each part's share of the total, Yes (naming the parts above N%) or No;
- extreme: "which segment had the highest / lowest revenue?": the part named, with every
  part's figure.

Lines that are not parts of the business (eliminations, unallocated, corporate) stay in the sum
but are never named as a segment. Without such a breakdown the family returns None.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from finqa.agents.reasoning.offline.book import Book
from finqa.agents.reasoning.offline.solver import formula_items
from finqa.agents.reasoning.offline.tables import Row
from finqa.agents.reasoning.offline.verdict_kit import Reader, money, verdict
from finqa.agents.types import Answer, Evidence
from finqa.lexicon import METRICS, extract_quantities, find_metrics, intent
from finqa.lexicon.line_items import item_for_metric, line_items
from finqa.lexicon.question_ask import QuestionAsk
from finqa.lexicon.recipes import get_recipe

__all__ = ["segment_comparison", "breakdown", "Breakdown", "TOTAL_TOLERANCE"]

TOTAL_TOLERANCE = 0.005  # parts add up to the consolidated figure within half a percent
_MAX_PARTS = 15
_NOT_A_PART = ("elimination", "unallocated", "corporate", "intersegment", "reconcil", "adjustment", "total", "other")  # fmt: skip


@dataclass(frozen=True)
class Breakdown:
    item: str
    year: int
    total: Row
    parts: tuple[Row, ...]  # every line of the sum, in filed order


def breakdown(book: Book, item: str, year: int) -> Breakdown | None:
    """The first model table run of lines adding up to the consolidated `item` for `year`."""
    fact = book.find(item, year)
    if fact is None or not fact.row.primary:
        return None
    target = fact.value * (fact.row.scale or 1.0)
    if target == 0:
        return None
    tables: dict[str, list[Row]] = {}
    for r in book.model_rows:
        if r.table_id and not r.primary and r.statement not in ("comprehensive", "equity"):
            tables.setdefault(r.table_id, []).append(r)
    for rows in tables.values():
        found = _run(rows, year, target)
        if found is not None:
            total, parts = found
            return Breakdown(item, year, total, parts)
    return None


def _close(a: float, b: float) -> bool:
    return abs(a - b) <= TOTAL_TOLERANCE * abs(b)


def _run(rows: Sequence[Row], year: int, target: float) -> tuple[Row, tuple[Row, ...]] | None:
    vals = [(r, r.value_for(year)) for r in rows]
    for i, (row, v) in enumerate(vals):
        if v is None or not _close(v * (row.scale or 1.0), target):
            continue
        acc = 0.0
        for j in range(i - 1, max(-1, i - 1 - _MAX_PARTS), -1):
            r, w = vals[j]
            if w is None or r.scale != row.scale:
                break
            acc += w
            if i - j >= 2 and _close(acc * (row.scale or 1.0), target):
                parts = tuple(r for r, _ in vals[j:i])
                if sum(1 for p in parts if _is_part(p)) >= 2:
                    return row, parts
    return None


def _is_part(r: Row) -> bool:
    return not any(w in r.key for w in _NOT_A_PART)


def _asked_item(question: str, recipe_id: str | None) -> str:
    """The catalogue line item the question names (a plain amount: operating income, net
    income, ...; a segment metric, the consolidated line its parts add up to), else revenue,
    the line a breakdown is most often asked of."""
    recipe = get_recipe(recipe_id)
    if recipe is not None and recipe.unit == "USD" and len(recipe.formulas) == 1:
        items = formula_items(recipe.formulas[0])
        if len(items) == 1 and recipe.formulas[0] == f"{items[0]}[y]":
            return items[0]
    totals = [METRICS[m.canonical].parts_of for m in find_metrics(question)]
    named = [item for t in totals if t and (item := item_for_metric(t)) is not None]
    return next((i for i in named if i != "revenue"), "revenue")


def _threshold(question: str) -> float | None:
    for q in extract_quantities(question):
        if q.unit == "%" and q.kind != "year":
            return float(q.value)
    return None


def segment_comparison(
    question: str, evidence: Evidence, strategy: str, book: Book | None, ask: QuestionAsk
) -> Answer | None:
    """A share-threshold or extreme question over the breakdown of a line item, or None."""
    q = " ".join(question.split())
    if not intent.asks_about_parts(q):
        return None
    share = intent.asks_share_over(q) and _threshold(q) is not None
    extreme = intent.asked_extreme(q)
    if not share and not (extreme and intent.asks_which(q)):
        return None
    book = book if book is not None else Book(evidence)
    spec = ask
    item = _asked_item(q, spec.recipe)
    years = [spec.target_year] if spec.target_year else sorted({y for r in book.model_rows if r.primary for y in r.years}, reverse=True)[:1]  # fmt: skip
    if not years or years[0] is None:
        return None
    y = years[0]
    found = breakdown(book, item, y)
    if found is None:
        return None
    reader = Reader()
    names = {p: reader.add(f"{p.key[:30]}_fy{y}", p, y) for p in found.parts}
    total_name = reader.add(f"total_{item}_fy{y}", found.total, y)
    if reader.scale_unknown:
        return None
    parts = [p for p in found.parts if _is_part(p)]
    li = line_items().get(item)
    what = li.name if li is not None else item.replace("_", " ")
    if share:
        limit = _threshold(q) or 0.0
        shares = {p: 100 * reader.values[names[p]] / reader.values[total_name] for p in parts}
        above = [p for p in parts if shares[p] > limit]
        calcs = [
            c
            for p in parts
            if (
                c := reader.calc(
                    f"{names[p]} / {total_name} * 100",
                    "%",
                    f"{p.label.strip()} share of FY{y} {what}",
                )
            )
            is not None  # fmt: skip
        ]
        shown = "; ".join(f"{p.label.strip()}: {shares[p]:.1f}%" for p in parts)
        lead = "Yes" if above else "No"
        named = ", ".join(p.label.strip() for p in above)
        text = (
            f"{lead}. "
            + (
                f"{named} each represent more than {limit:g}% of FY{y} {what}. "
                if above
                else f"No part represents more than {limit:g}% of FY{y} {what}. "
            )  # fmt: skip
            + f"Shares of total {what} ({money(reader.values[total_name], reader.scale)}): {shown} {reader.refs()}."
        )
        return verdict(text, reader, calcs, strategy, "verdict")
    if extreme is None:
        return None
    pick = max if extreme == "highest" else min
    best = pick(parts, key=lambda p: reader.values[names[p]])
    calc = reader.calc(f"{pick.__name__}({', '.join(names[p] for p in parts)})", "USD", f"{'highest' if pick is max else 'lowest'} FY{y} {what} by part")  # fmt: skip
    shown = "; ".join(f"{p.label.strip()}: {money(reader.values[names[p]], reader.scale)}" for p in parts)  # fmt: skip
    text = (
        f"{best.label.strip()}. In FY{y}, {best.label.strip()} had the "
        f"{'highest' if pick is max else 'lowest'} {what} ({shown}) {reader.refs()}."
    )
    return verdict(text, reader, [calc] if calc else [], strategy, "verdict")
