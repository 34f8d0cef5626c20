"""Refusal and abstention phrases ("cannot determine", "not enough information"), shared by the
Reasoning agent (confidence signals), the Judge (abstention handling) and the benchmark grader,
so all three read an answer's refusal the same way."""

from __future__ import annotations

import re

__all__ = ["REFUSAL", "PART_NOT_FOUND", "is_refusal", "part_not_found", "declines_part"]

REFUSAL = re.compile(
    r"\b(?:cannot|can ?not|can't|unable to|could not|couldn't)\s+(?:be\s+)?"
    r"(?:determine|determined|answer|answered|find|found|calculate|calculated|compute|computed|verify)"
    r"|\bnot (?:enough|sufficient) (?:information|data|evidence)"
    r"|\binsufficient (?:information|data|evidence)"
    r"|\b(?:information|data) (?:is|are) not (?:available|provided|given)"
    r"|\bdo(?:es)? not (?:contain|provide|include) (?:enough|sufficient|any|the (?:necessary|required))"
    r"|\bno (?:relevant )?(?:information|evidence|data) (?:was )?(?:found|available|provided)"
    r"|\bi (?:do not|don't) know\b"
    r"|\bnot (?:available|disclosed) in the (?:provided )?(?:evidence|filings?)",
    re.IGNORECASE,
)


def is_refusal(text: str) -> bool:
    """True when the text declines to answer (an empty text declines too)."""
    return not text.strip() or bool(REFUSAL.search(text))


# an answer's statement that it found nothing for one asked part ('finqa found no stated reason
# for the change in gross margin in the retrieved pages'; 'the filing does not state why'): the
# part is named as unanswered, not silently dropped, while the rest of the answer stands
PART_NOT_FOUND = re.compile(
    r"\bfound no\b[^.]{0,160}?\bin the retrieved pages\b"
    r"|\b(?:does|do|did) not (?:state|say|explain|disclose|give)\b[^.]{0,60}?"
    r"\b(?:reasons?|causes?|drivers?|why)\b"
    r"|\bno (?:stated |specific )?(?:reasons?|causes?|explanations?|drivers?) (?:is|are|was|were) "
    r"(?:given|stated|provided|disclosed)\b",
    re.IGNORECASE,
)


def part_not_found(what: str) -> str:
    """The words an answer uses for an asked part it found nothing for ('finqa found no stated
    reason for X in the retrieved pages'); `PART_NOT_FOUND` reads them back."""
    return f"finqa found no {what} in the retrieved pages"


def declines_part(text: str) -> bool:
    """The text says it found nothing for an asked part (`PART_NOT_FOUND`), without declining
    the whole question."""
    return bool(PART_NOT_FOUND.search(text))
