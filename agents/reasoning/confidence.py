"""Confidence signals of an answer text (paper A.5): hedging, refusal, specific figures, length."""

from __future__ import annotations

import re
from typing import Any

from finqa.lexicon.refusal import REFUSAL, is_refusal

__all__ = ["confidence_signals", "is_refusal", "REFUSAL"]

_HEDGE = re.compile(
    r"\b(?:approximately|roughly|about|around|likely|unlikely|may|might|could|possibly|perhaps|appears?|"
    r"seems?|suggests?|estimated?|uncertain|unclear|assum(?:e|ing|ption)|probably)\b",
    re.IGNORECASE,
)
_FIGURE = re.compile(
    r"[$€£]?\(?-?\d[\d,]*(?:\.\d+)?\)?\s*(?:%|percent|million|billion|thousand|bn|m\b)?", re.I
)


def confidence_signals(text: str, *, cited: bool, base: float | None = None) -> dict[str, Any]:
    """Signals plus a heuristic score in [0, 1] (`base` overrides the starting point)."""
    hedges = len(_HEDGE.findall(text))
    refusal = is_refusal(text)
    figures = len([m for m in _FIGURE.findall(text) if re.search(r"\d", m)])
    words = len(text.split())
    score = 0.6 if base is None else base
    if refusal:
        score = 0.05
    else:
        score += 0.1 if figures else -0.1
        score += 0.1 if cited else -0.3
        score -= min(0.3, 0.08 * hedges)
        if words > 250:
            score -= 0.1
    return {
        "hedging": hedges,
        "refusal": refusal,
        "figures": figures,
        "length": words,
        "cited": cited,
        "score": round(max(0.0, min(1.0, score)), 3),
    }
