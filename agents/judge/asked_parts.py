"""Every part a question asks, and which the answer addresses: the judge's account of a question
with several parts ('Did X's gross margin improve? What drove the change?', 'Did X record a
deferred tax expense or benefit, and how large was it?').

The parts are the lexicon's one parse (`lexicon.question_parts`, held by the question's intent);
the facet checklist (`facets.py`) says which of them the answer addresses. Each part is one of:

* `addressed` - the answer answers it;
* `stated as not found` - the answer says in words that it found nothing for it ('finqa found
  no stated reason for ... in the retrieved pages': `lexicon.refusal.declines_part`): sent back
  once for wider retrieval (the first attempt's pages may not hold it), then the verdict may
  accept the rest as a partial answer, the part named as missing;
* `missing` - neither: half an answer that looks whole. Such an answer is never accepted (it
  goes back for another attempt, and an answer no attempt completes is returned unverified),
  since an analyst reading it would take it for the whole answer.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

from finqa.agents.judge.context import counted
from finqa.agents.judge.facets import Facet
from finqa.agents.judge.kind import KindProblem
from finqa.lexicon.question_parts import QuestionParts

__all__ = ["PartStatus", "dropped_parts", "hold_for_parts", "part_statuses", "PARTIAL_FROM"]

# the first attempt at which an answer that states a part not found may be accepted as partial
# (the attempts before it look for the part with wider retrieval)
PARTIAL_FROM = 2

PartStatus = Literal["addressed", "stated as not found", "missing"]


def _status(facets: Sequence[Facet]) -> PartStatus:
    if all(f.addressed for f in facets):
        return "addressed"
    if any(f.dropped for f in facets):
        return "missing"
    return "stated as not found"


def part_statuses(parsed: QuestionParts, facets: Sequence[Facet]) -> list[dict[str, Any]]:
    """Each asked part with its form and whether the answer addresses it (module docstring)."""
    out = []
    for part in parsed.parts:
        mine = [f for f in facets if f.part == part.index and f.kind != "conditional"]
        if mine:
            out.append(
                {"part": part.index, "text": part.text, "form": part.form, "status": _status(mine)}
            )
    return out


def dropped_parts(facets: Sequence[Facet]) -> list[Facet]:
    """The facets of a question with several parts that the answer leaves out without saying so
    (for a question of one part, only the figure of a year it asks beside another: its answer
    is otherwise scored by completeness alone)."""
    asked = {f.part for f in facets if f.kind not in ("conditional", "entity")}
    if len(asked) < 2:
        # one part asking a figure for each of several years: a year left out is dropped
        return [f for f in facets if f.kind == "figure" and f.period is not None and f.dropped]
    return [f for f in facets if counted(f) and f.kind != "entity" and f.dropped]


def hold_for_parts(facets: Sequence[Facet], attempt: int, *, abstained: bool) -> KindProblem | None:
    """Why the answer is not accepted whatever its utility (module docstring): a part dropped
    (`part_dropped`, at every attempt), or a part stated as not found before `PARTIAL_FROM`
    (`part_not_found`: look again); None when its parts allow acceptance."""
    if abstained:
        return None
    dropped = dropped_parts(facets)
    if dropped:
        return KindProblem(
            "part_dropped",
            "the answer leaves out a part the question asks without saying it was not found ("
            + "; ".join(f.text for f in dropped)
            + ")",
        )
    declared = [f for f in facets if counted(f) and f.meta.get("declared")]
    if declared and attempt < PARTIAL_FROM:
        return KindProblem(
            "part_not_found",
            "the answer found nothing for "
            + "; ".join(f.text for f in declared)
            + " in these pages: look for it in more of the filing",
        )
    return None
