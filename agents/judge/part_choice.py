"""The judge's check of a choice among the parts of one breakdown ('which segment had the
highest operating income').

The judge reads the question's ask from the lexicon (`QuestionIntent.part_choice`) and re-reads
the breakdown from the index's statement model itself (`lexicon.breakdowns`): every part's
figure for the period, the part with the highest / lowest value, and the parts against the
consolidated figure where the table prints a total (another source of the same figures). The
answer must name that part first among the breakdown's parts, and a figure it gives for it
must be the part's value; otherwise the answer is not accepted, with the reason. Nothing here
imports the reasoner.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from finqa.agents.types import Answer, Evidence
from finqa.lexicon.breakdowns import Breakdown, PartValue, best_breakdown, pick, read_breakdowns
from finqa.lexicon.dimensions import period_in
from finqa.lexicon.question_intent import read_intent

__all__ = ["ChoiceCheck", "check_part_choice"]


@dataclass
class ChoiceCheck:
    """What the judge found for a choice among a breakdown's parts."""

    asked: str  # 'the highest operating income'
    expected: str | None  # the part the statement model's figures name
    named: str | None  # the part the answer names
    failed: bool = False
    message: str = ""
    verified: list[str] = field(default_factory=list)  # the answer's figures that are parts'

    def to_dict(self) -> dict[str, Any]:
        return {
            "asked": self.asked,
            "expected": self.expected,
            "named": self.named,
            "failed": self.failed,
            "message": self.message,
            "verified": self.verified,
        }


def _named(text: str, parts: Sequence[PartValue]) -> PartValue | None:
    """The part the answer names first (the longest name at the earliest place)."""
    low = text.lower()
    best: tuple[int, int, PartValue] | None = None
    for p in parts:
        at = low.find(p.name.lower())
        if at < 0:
            continue
        rank = (at, -len(p.name))
        if best is None or rank < best[:2]:
            best = (*rank, p)
    return best[2] if best is not None else None


def _matches(nc: Any, b: Breakdown, value: float, rel_tol: float) -> bool:
    q = nc.quantity
    if q is None or q.kind != "number":
        return False
    if b.percent:
        return bool(q.unit == "%" and abs(q.value - value) <= 0.15)
    if q.unit not in ("USD", "$", ""):
        return False
    said = [q.value * s for s in (1.0, 1e3, 1e6, 1e9)] if q.scale_source == "none" else [q.absolute]
    return any(abs(abs(v) - abs(value)) <= max(rel_tol * abs(value), 0.5) for v in said)


def check_part_choice(
    store: Any | None,
    question: str,
    answer: Answer,
    evidence: Evidence,
    numbers: Sequence[Any],
    *,
    abstained: bool,
    rel_tol: float = 0.01,
) -> ChoiceCheck | None:
    """The check of an answer to a choice among a breakdown's parts; None when the question
    asks none, the answer abstains, or no statement model covers the evidence."""
    choice = read_intent(question).part_choice
    if choice is None or abstained or store is None:
        return None
    docs = [d for d in dict.fromkeys(i.doc_id for i in evidence.items) if d in store.docs()]
    if not docs:
        return None
    found = best_breakdown(read_breakdowns(store, docs, choice, period_in(question, docs)), choice)
    if found is None:
        return None  # no breakdown to check the answer against (other checks still run)
    check = ChoiceCheck(choice.describe(), None, None)
    if isinstance(found, str):
        check.failed, check.message = True, f"no part can be checked: {found}"
        return check
    chosen = pick(found, choice)
    named = _named(answer.text or "", (*found.parts, *found.rest))
    check.named = named.name if named is not None else None
    if chosen.winner is None:
        check.failed, check.message = True, f"no part can be named: {chosen.reason}"
        return check
    check.expected = chosen.winner.name
    if named is None or named is not chosen.winner:
        said = f"names {named.name}" if named is not None else "names none of the parts"
        check.failed = True
        check.message = (
            f"the answer {said}; the statement model's figures for the table on p."
            f"{found.page + 1} give {chosen.winner.name} {choice.describe()}"
        )
        return check
    for nc in numbers:
        hit = next(
            (p for p in (*found.parts, *found.rest) if _matches(nc, found, p.value, rel_tol)), None
        )
        if hit is None:
            continue
        nc.status = "rederived"
        nc.detail = (
            f"the statement model's figure of {hit.name} for {found.period}: {hit.value:,.2f}"
        )
        check.verified.append(nc.text)
    return check
