"""An in-memory `StatementStore` over already-parsed tables (tests, and the index loader's cache)."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from finqa.lexicon.model import StatementFact, StatementKind, StatementPeriod, StatementTable

__all__ = ["MemoryStatementStore", "label_key", "primary_fact", "is_tagged_total"]

_NOT_LETTER = re.compile(r"[^a-z]")


def label_key(text: str) -> str:
    """Letters only, lower case: 'Cost of goods sold' and 'Costofgoodssold' both -> 'costofgoodssold'."""
    return _NOT_LETTER.sub("", text.lower())


_PRIORITY = {"income": 0, "balance": 0, "cashflow": 0, "equity": 1, "quarterly": 2, "segment": 3}


def _is_catalogue_item(name: str) -> bool:
    """Whether `name` is a catalogue item's id ('net_income'), not a caption as filed."""
    from finqa.lexicon.catalogue import entries

    return name in entries()


def is_tagged_total(fact: StatementFact) -> bool:
    """A figure the filing itself tags (inline XBRL) for the entity as a whole (no dimension)."""
    return fact.source == "xbrl" and not fact.dimensions and fact.item is not None


def primary_fact(facts: Sequence[StatementFact]) -> StatementFact | None:
    """The one fact to use among a lookup's results: the filing's own tag for the total (inline
    XBRL, no dimension) first, then a primary statement's (income, balance, cash flows) before
    equity, quarterly and segment tables, then the first in page order. None when there is
    none; so every caller gives the same answer for the same lookup."""
    if not facts:
        return None
    return min(
        facts,
        key=lambda f: (
            not is_tagged_total(f),
            _PRIORITY.get(f.statement, 4),
            f.page,
            f.row,
            f.column,
        ),
    )


class MemoryStatementStore:
    """Serves tables held in memory; satisfies `finqa.agents.types.StatementStore`."""

    def __init__(self, tables: Iterable[StatementTable] = ()) -> None:
        self._tables: dict[str, list[StatementTable]] = {}
        for table in tables:
            self.add(table)

    def add(self, table: StatementTable) -> None:
        """Append one table to its document (tables keep the order they were added in)."""
        self._tables.setdefault(table.doc_id, []).append(table)

    def docs(self) -> list[str]:
        return sorted(self._tables)

    def tables(self, doc_id: str, statement: StatementKind | None = None) -> list[StatementTable]:
        found = self._tables.get(doc_id, [])
        return [t for t in found if statement is None or t.statement == statement]

    def lookup(
        self, doc_id: str, item: str, period: str | int | StatementPeriod | None = None
    ) -> list[StatementFact]:
        key = label_key(item)
        catalogued = _is_catalogue_item(item)
        out: list[StatementFact] = []
        for table in self._tables.get(doc_id, []):
            for fact in table.facts:
                if fact.dimensions:
                    continue  # a segment's or a region's figure: `lexicon.dimensions` reads it
                if fact.item != item and (
                    label_key(fact.label) != key or (catalogued and fact.item is not None)
                ):
                    # a caption asked matches a line by its letters; a catalogue item asked is
                    # not a line the lexicon or the layout read as another item ('Net income'
                    # above the noncontrolling interests' share is the consolidated total)
                    continue
                if period is not None and not fact.period.matches(period):
                    continue
                out.append(fact)
        # the filing's own tags for the total come first (stable: filed order within each)
        return sorted(out, key=lambda f: not is_tagged_total(f))
