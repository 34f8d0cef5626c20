"""Verdict rules over the cash flow statement, the income statement's restructuring line and the tax note.

- operating / investing / financing: the largest of the three cash-flow totals is named;
- dividends to common shareholders: a non-zero 'Dividends paid' cash-flow line is 'Yes'; 'No' only
  when the cash flow statement was read through its financing total and no line names a dividend;
- restructuring costs: the income statement's 'Restructuring ...' line (else a note's 'Total
  restructuring ...' line); '0, not outlined' when the statement model holds the whole income
  statement for the year and none of its lines is restructuring; else an abstention naming
  the missing line;
"""

from __future__ import annotations

import re

from finqa.agents.reasoning.offline.book import Book
from finqa.agents.reasoning.offline.question import QuestionSpec
from finqa.agents.reasoning.offline.verdict_kit import (
    Reader,
    abstain,
    money,
    statement_rows,
    verdict,
)
from finqa.agents.types import Answer, Citation

__all__ = [
    "dividends_paid",
    "restructuring",
]

_DIV_SKIP = (
    "noncontrolling",
    "minority",
    "received",
    "declared",
    "pershare",
    "payable",
    "subsidiar",
    "reinvest",
    "equitymethod",
    "proceeds",
    "affiliate",
)
_RESTRUCTURING_ROW = re.compile(r"^(?:total)?restructuring")


def dividends_paid(spec: QuestionSpec, book: Book, strategy: str) -> Answer | None:
    y = spec.target_year
    if y is None:
        return None
    for r in statement_rows(book, "cash_flow"):
        k = r.key
        if "dividend" not in k or any(x in k for x in _DIV_SKIP):
            continue
        if "preferred" in k and "common" not in k:
            continue
        v = r.value_for(y)
        if v is None or v == 0:
            continue  # no figure, or an explicit zero: no 'Yes' from this row
        reader = Reader()
        name = reader.add(f"dividends_paid_fy{y}", r, y)
        calc = reader.calc(f"abs({name})", "USD", f"FY{y} cash dividends paid")
        if calc is None or reader.scale_unknown:
            return None
        text = (
            f"Yes. The FY{y} cash flow statement shows {r.label.strip()[:80]} of "
            f"{money(calc.result, reader.scale)} {reader.refs()}."
        )
        return verdict(text, reader, [calc], strategy, "verdict")
    return _no_dividends(y, book, strategy)


def _no_dividends(y: int, book: Book, strategy: str) -> Answer | None:
    """'No' only when the FY cash flow statement was read through its financing section and no
    line of it (nor of its page) mentions a dividend."""
    rows = [
        r for r in statement_rows(book, "cash_flow") if r.primary and r.value_for(y) is not None
    ]
    # the financing total, read through the catalogue's line item for it
    fact = book.find("cff", y)
    financing = fact.row if fact is not None and fact.row in rows else None
    if financing is None or len(rows) < 8:
        return None
    if any("dividend" in r.key for r in book.rows if r.doc_id == financing.doc_id):
        return None  # a dividend line exists (another year, another table): no 'No'
    reader = Reader()
    name = reader.add(f"financing_cash_flow_fy{y}", financing, y)
    calc = reader.calc(name, "USD", f"FY{y} net cash from financing activities (no dividend line)")
    if calc is None or reader.scale_unknown:
        return None
    text = (
        f"No. The FY{y} cash flow statement {reader.refs()} ({len(rows)} lines read, through "
        f"{financing.label.strip()[:60]!r}) shows no dividends paid line."
    )
    return verdict(text, reader, [calc], strategy, "verdict")


def restructuring(spec: QuestionSpec, book: Book, strategy: str) -> Answer:
    y = spec.target_year or 0
    rows = [
        r
        for r in statement_rows(book, "income")
        if _RESTRUCTURING_ROW.match(r.key)
        and r.value_for(y) is not None
        and not any(x in r.key for x in ("aftertax", "pershare", "reserve", "liabilit"))
    ]
    row = next((r for r in rows if r.primary), None)
    if row is None:  # a restructuring table of the income statement's line, e.g. in a note
        row = next((r for r in rows if r.key.startswith("totalrestructuring")), None)
    if row is None:
        absent = _not_outlined(book, y, "restructuring costs", strategy)
        if absent is not None:
            return absent
        return abstain(
            f"a restructuring line in the FY{y} income statement",
            [f"restructuring costs FY{y}"],
            strategy,
        )
    reader = Reader()
    name = reader.add(f"restructuring_fy{y}", row, y)
    calc = reader.calc(f"abs({name})", "USD", f"FY{y} restructuring costs")
    if calc is None or reader.scale_unknown:
        return abstain(f"restructuring costs for FY{y}", [f"restructuring costs FY{y}"], strategy)
    text = (
        f"{money(calc.result, reader.scale)}. The FY{y} income statement line "
        f"{row.label.strip()[:80]!r} shows restructuring costs of {money(calc.result, reader.scale)} "
        f"{reader.refs()}."
    )
    return verdict(text, reader, [calc], strategy, "verdict")


def _not_outlined(book: Book, y: int, what: str, strategy: str) -> Answer | None:
    """'0: not outlined' when the filing's whole income statement for FY y was read (from the
    statement model, at least MIN_STATEMENT_ROWS lines) and none of its lines is the item."""
    from finqa.agents.reasoning.offline.families import MIN_STATEMENT_ROWS

    rows = [
        r
        for r in book.model_rows
        if r.primary and r.statement == "income" and r.value_for(y) is not None
    ]
    if len(rows) < MIN_STATEMENT_ROWS:
        return None  # only part of the statement was read: absence proves nothing
    first = rows[0]
    reader = Reader()
    reader.cites.append(
        Citation(
            source_id=first.source_id, doc_id=first.doc_id, page=first.page,
            chunk_id=first.chunk_id, quote=first.line[:200],
        )
    )  # fmt: skip
    shown = ", ".join(dict.fromkeys(r.label.strip()[:40] for r in rows[:4]))
    text = (
        f"0. The FY{y} income statement {reader.refs()} ({len(rows)} lines read, e.g. {shown}) "
        f"has no line for {what}: none are outlined in it."
    )
    return verdict(text, reader, [], strategy, "verdict")
