"""Finding a claimed figure in the evidence: unit/scale-aware match, period and topic checks."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from agents.judge import _lex
from agents.judge._tables import column_period
from agents.judge.evidence import EvidenceView, SourceView

__all__ = ["match", "period_ok", "find"]

_CONTEXT_BEFORE = 400  # chars before a figure that name it (row label, sentence, table head)
_CONTEXT_AFTER = 80


def match(q: Any, e: Any, rel_tol: float) -> bool:
    """q (a claim) equals e (evidence): unit/scale-aware, q's rounding, magnitudes."""
    if q.unit == "%" and e.unit in ("", "USD") and e.scale_source != "explicit":
        # a 'Percent to Sales' column: bare figures (PDF text may even put '$' before them)
        return _lex.magnitude_close(q, abs(float(e.value)), rel_tol=rel_tol)
    if not _lex.quantities_match(q, e, rel_tol, signed=False, directional=True):
        if (
            e.scale_source == "none"
            and q.scale_source == "none"
            and q.unit in ("USD", "")
            and e.unit in ("USD", "")
        ):
            # a table whose '(in millions)' header is not on this page: the usual scales only
            target = abs(float(e.value))
            return any(_lex.magnitude_close(q, target * k, rel_tol=rel_tol) for k in (1e3, 1e6))
        return False
    scaled = q.scale_source != "none" and e.scale_source != "none"
    if scaled and q.unit not in ("%", "bps") and e.unit not in ("%", "bps", "USD/share"):
        # both sides know their scale: a figure 1000x off must not pass as 'the same digits'
        a, b = abs(_lex.absolute(q)), abs(_lex.absolute(e))
        return abs(a - b) <= float(q.precision) + rel_tol * max(a, b) * (1 + 1e-9)
    return True


def period_ok(year: int | None, header: Sequence[int | None], expected: Sequence[int]) -> bool:
    """A value is in the wrong period only if its column is known, differs from every expected
    period, and the table also has a column for an expected period (so the right figure was there)."""
    if year is None or not expected:
        return True
    if year in expected:
        return True
    return not any(y in header for y in expected)


def _on_topic(src: SourceView, e: Any, topic: frozenset[str] | None) -> bool:
    """Does the evidence around e (its row label / sentence) share a word with the claim or question?"""
    if topic is None:
        return True
    window = src.text[max(0, e.start - _CONTEXT_BEFORE) : e.end + _CONTEXT_AFTER]
    squashed = re.sub(
        r"[^a-z]", "", window.lower()
    )  # PDF text glues words: 'Merchandiseinventories'
    return any(len(t) >= 4 and t in squashed for t in topic)


def find(
    q: Any,
    view: EvidenceView,
    preferred: Sequence[str],
    expected: Sequence[int],
    rel_tol: float,
    topic: frozenset[str] | None = None,
) -> tuple[str, SourceView | None, Any, int | None]:
    """('evidence' | 'period_mismatch' | 'off_topic' | 'not_found', source, evidence quantity, year)."""
    mismatch: tuple[SourceView, Any, int | None] | None = None
    off_topic: tuple[SourceView, Any] | None = None
    for src in view.ordered(preferred):
        for e in src.quantities:
            if not match(q, e, rel_tol):
                continue
            if not _on_topic(src, e, topic):
                off_topic = off_topic or (src, e)
                continue
            col = column_period(src.text, e.start, e.end)
            if period_ok(col.year, col.header, expected):
                return "evidence", src, e, col.year
            mismatch = mismatch or (src, e, col.year)
    if mismatch:
        return "period_mismatch", mismatch[0], mismatch[1], mismatch[2]
    if off_topic:
        return "off_topic", off_topic[0], off_topic[1], None
    return "not_found", None, None, None
