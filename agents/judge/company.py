"""The company asked is the company cited: every filing an answer rests on must be one of the
companies the question names (`finqa.lexicon.owners`).

A filing whose company is known (its metadata's name or ticker; without metadata, what the
lexicon reads from its document name, as ingest does) and is none of them is another company's: the answer is rejected, whatever its figures match. A filing with no identified company
supports an answer only when the question names no company, or when the user pinned the filings
(``--doc``: the plan's ``doc_ids`` filter). A question that names no company is not checked.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from finqa.agents.types import Evidence
from finqa.lexicon.owners import is_company
from finqa.lexicon.question_intent import read_intent

__all__ = ["CompanyCheck", "check_companies"]


@dataclass(frozen=True)
class CompanyCheck:
    """The companies asked, the filings cited with their company, and each mismatch (one line)."""

    asked: tuple[str, ...]
    filings: tuple[tuple[str, str | None], ...]  # (doc_id, company) of each cited filing
    problems: tuple[str, ...]
    pinned: bool

    @property
    def ok(self) -> bool:
        return not self.problems

    def to_dict(self) -> dict[str, Any]:
        return {
            "asked": list(self.asked),
            "filings": [{"doc_id": d, "company": c} for d, c in self.filings],
            "problems": list(self.problems),
            "pinned": self.pinned,
        }


@functools.lru_cache(maxsize=4096)
def _named_by(doc_id: str) -> str | None:
    """The company the lexicon reads from a document name alone ('ACME_2022_10K' -> 'Acme')."""
    from finqa.lexicon.identity import identify

    found = identify([""], file_name=doc_id).as_meta().get("company")
    return str(found) if found else None


def check_companies(question: str, evidence: Evidence, cited: Sequence[str]) -> CompanyCheck:
    """Check the filings of the cited sources (`cited`: source ids) against the question."""
    owners = read_intent(question).owners  # the lexicon's one reading of the question
    pinned = "doc_ids" in (evidence.plan.filters or {})
    filings: dict[str, tuple[str | None, str | None]] = {}
    for sid in cited:
        item = evidence.by_source(sid)
        if item is not None and item.doc_id not in filings:
            meta = item.metadata or {}
            name, ticker = meta.get("company"), meta.get("ticker")
            if "company" not in meta and "ticker" not in meta:
                name = _named_by(item.doc_id)
            filings[item.doc_id] = (
                str(name) if name else None,
                str(ticker) if ticker else None,
            )
    problems: list[str] = []
    asked = tuple(o.written for o in owners)
    for doc_id, (name, ticker) in filings.items() if owners else ():
        if not name and not ticker:
            if not pinned:
                problems.append(
                    f"{doc_id} has no identified company, and the question asks about "
                    f"{' and '.join(asked)}"
                )
            continue
        if not any(is_company(o, name, ticker) for o in owners):
            problems.append(f"{doc_id} is {name or ticker}'s filing, not {' or '.join(asked)}'s")
    return CompanyCheck(
        asked=asked,
        filings=tuple((d, n or t) for d, (n, t) in filings.items()),
        problems=tuple(problems),
        pinned=pinned,
    )
