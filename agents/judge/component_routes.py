"""The printed total against the sum of its printed components: the judge's route inside one
statement table (`lexicon.statements.components`).

* A line a heading names whose parts the table prints with no total (AMCOR's 'Inventories,
  net' over 'Raw materials and supplies' and 'Work in process and finished goods') is read
  as the parts' sum, labelled as derived from components with the lines used: the definition
  names the whole, so the whole is the operand, never one part.
* A printed total ('Total current assets') whose parts, framed by the heading that names the
  same line, add up to another figure beyond the printed rounding is contested by its own
  table: the sum is a reading of its own (route `components`), shown beside the total with
  its page, and a figure resting on the total is not accepted (`routes_disagree`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from finqa.agents.types import StatementFact

__all__ = ["contested_totals", "whole_facts"]

_PRIMARY = ("income", "balance")


def _tables(store: Any, doc: str) -> list[Any]:
    """The primary tables of `doc` (the evidence pages' own model behind `LazyPages.model`)."""
    if hasattr(store, "model"):
        store = store.model()
    try:
        return [t for t in store.tables(doc) if t.statement in _PRIMARY]
    except Exception:  # noqa: BLE001 - a store without tables: no component route
        return []


def whole_facts(store: Any, doc: str, item: str, year: int) -> list[StatementFact]:
    """`item` for fiscal `year` as the sum of the parts a primary table prints under a heading
    that names it with no total (one fact per table and column, labelled with the lines)."""
    from finqa.lexicon.statements.components import derived_wholes

    out: list[StatementFact] = []
    for table in _tables(store, doc):
        for whole in derived_wholes(table, item):
            fact = whole.fact()
            if fact.period.matches(year):
                out.append(fact)
    return out


def contested_totals(
    store: Any, doc: str, facts: Sequence[StatementFact]
) -> list[tuple[StatementFact, float, str]]:
    """(printed total, its parts' sum, the parts as printed) for each total among `facts` whose
    parts disagree with it beyond the printed rounding."""
    from finqa.lexicon.statements.components import printed_whole

    tables = {t.table_id: t for t in _tables(store, doc)}
    out: list[tuple[StatementFact, float, str]] = []
    for fact in facts:
        table = tables.get(fact.table_id)
        if table is None or fact.source == "xbrl":
            continue
        whole = printed_whole(table, fact)
        if whole is not None and not whole.agrees:
            out.append((fact, whole.value, whole.lines()))
    return out


def part_for_whole(
    store: Any, doc: str, wholes: Sequence[str], figure: float, figures: Sequence[float] = ()
) -> str | None:
    """Where `figure` (as written) is the one printed part of a line the definition names
    (`wholes`: catalogue line items) that the calculation takes (`figures`: all its operands):
    'Deferred revenue 2,405,950 is one part of Current liabilities (3,527,457, DOC p.56)'. None
    when no printed total or heading-framed line of those items has it among its parts, or
    when the calculation takes several parts of that line (a subtotal of its own choosing,
    'operating' working capital: another convention, not a part for the whole) or the line."""
    from finqa.lexicon.statements.components import derived_wholes, printed_whole

    target = abs(figure)
    if not target:
        return None
    for table in _tables(store, doc):
        found = list(derived_wholes(table))
        for fact in table.facts:
            if fact.item in wholes:
                whole = printed_whole(table, fact)
                if whole is not None and whole.agrees:
                    found.append(whole)
        for whole in found:
            if whole.item not in wholes:
                continue
            total = whole.fact()
            if any(_same(total.filed_value, f) for f in (figure, *figures)):
                continue  # the whole itself is an operand
            hit = [p for p in whole.parts if _same(p.filed_value, target)]
            taken = [p for p in whole.parts if any(_same(p.filed_value, f) for f in figures)]
            if hit and len(taken) <= 1:
                part = hit[0]
                return (
                    f"'{part.label} {part.raw}' is one part of {whole.caption} "
                    f"({total.raw}, {doc} p.{part.page}), the line the definition names"
                )
    return None


def _same(a: float, b: float) -> bool:
    return abs(abs(a) - abs(b)) <= 0.001 * max(abs(a), abs(b))
