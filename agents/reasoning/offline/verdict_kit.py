"""Shared pieces of the verdict rules: operands read from rows, answers, abstentions."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence

from finqa.agents.reasoning.confidence import confidence_signals
from finqa.agents.reasoning.offline.book import Book
from finqa.agents.reasoning.offline.tables import Row
from finqa.agents.types import Answer, Calculation, Citation, Operand
from finqa.lexicon.arith import ArithmeticError_, evaluate
from finqa.lexicon.display import format_amount

__all__ = [
    "Reader",
    "verdict",
    "abstain",
    "money",
    "statement_rows",
    "source_order",
    "TEMPLATE_ID",
    "TEMPLATE_HASH",
    "offline_answer",
]

TEMPLATE_ID = "offline.v1"
TEMPLATE_HASH = hashlib.sha256(TEMPLATE_ID.encode()).hexdigest()


def offline_answer(
    text: str,
    strategy: str,
    conf: dict[str, object],
    *,
    citations: tuple[Citation, ...] = (),
    calculations: tuple[Calculation, ...] = (),
    abstained: bool = False,
    missing: Sequence[str] = (),
) -> Answer:
    """An answer of the offline backend: its text, sources, calculations and confidence signals,
    stamped with the one offline template id and hash every family shares; `missing`: the line
    items it looked for and did not find (told to the judge)."""
    return Answer(
        text=text,
        abstained=abstained,
        citations=citations,
        calculations=calculations,
        strategy=strategy,
        template_id=TEMPLATE_ID,
        template_hash=TEMPLATE_HASH,
        backend="offline",
        confidence=conf,
        missing=tuple(missing),
    )


class Reader:
    """Operands read from rows, in one common scale, with their citations."""

    def __init__(self) -> None:
        self.values: dict[str, float] = {}
        self.operands: list[Operand] = []
        self.cites: list[Citation] = []
        self.scale: float | None = None
        self.scale_unknown = False  # a USD row without '(in millions)'-style header

    def add(self, name: str, row: Row, year: int, unit: str = "USD") -> str:
        value = row.value_for(year)
        if value is None:
            raise KeyError(name)
        if unit != "USD":
            v, scale = float(value), 1.0
        else:
            self.scale_unknown = self.scale_unknown or row.scale is None
            if self.scale is None:
                self.scale = row.scale or 1.0
            v = float(value) * (row.scale or self.scale) / self.scale
            scale = self.scale
        self.values[name] = v
        self.operands.append(
            Operand(
                name=name,
                value=v,
                unit=unit,
                scale=scale,
                period=f"FY{year}",
                source_id=row.source_id,
                text=row.line[:300],
            )
        )
        if not any(c.source_id == row.source_id and c.quote == row.line[:200] for c in self.cites):
            self.cites.append(
                Citation(
                    source_id=row.source_id,
                    doc_id=row.doc_id,
                    page=row.page,
                    chunk_id=row.chunk_id,
                    quote=row.line[:200],
                    xbrl_concept=row.concept,
                )
            )
        return name

    def calc(self, expression: str, unit: str, description: str) -> Calculation | None:
        try:
            result = evaluate(expression, self.values)
        except ArithmeticError_:
            return None
        return Calculation(
            expression=expression,
            operands=tuple(self.operands),
            result=result,
            unit=unit,
            description=description,
        )

    def refs(self) -> str:
        return "".join(f"[{s}]" for s in source_order(c.source_id for c in self.cites))


def source_order(source_ids: Iterable[str]) -> list[str]:
    """Source ids once each, by number then by kind ('S1' before 'S2'; 'M1' before 'S1'): the
    same order on every run (a set's order is not)."""

    def key(s: str) -> tuple[int, str]:
        return (int(s[1:]) if s[1:].isdigit() else 0, s)

    return sorted(set(source_ids), key=key)


def verdict(
    text: str, reader: Reader, calcs: Iterable[Calculation], strategy: str, mode: str
) -> Answer:
    conf = confidence_signals(text, cited=bool(reader.cites), base=0.8)
    conf["mode"] = mode
    return offline_answer(
        text, strategy, conf, citations=tuple(reader.cites), calculations=tuple(calcs)
    )


def money(v: float, scale: float | None) -> str:
    """An amount as the filing prints it ('$51,217 million'; finqa.lexicon.display)."""
    return format_amount(v, "USD", scale or 1.0)


def statement_rows(book: Book, statement: str) -> list[Row]:
    rows = [r for r in book.rows if r.statement == statement and not r.exhibit]
    return sorted(rows, key=lambda r: (not r.primary, r.page, r.order))


def abstain(what: str, missing: list[str], strategy: str) -> Answer:
    text = f"I cannot determine from the filings: the evidence does not show {what}."
    conf = confidence_signals(text, cited=False)
    conf["mode"] = "abstain"
    return offline_answer(text, strategy, conf, abstained=True, missing=missing)
