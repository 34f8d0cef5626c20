"""Refusal and abstention phrases ("cannot determine", "not enough information"), shared by the
Reasoning agent (confidence signals), the Judge (abstention handling) and the benchmark grader,
so all three read an answer's refusal the same way."""

from __future__ import annotations

import re

__all__ = ["REFUSAL", "is_refusal"]

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
