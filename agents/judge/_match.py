"""Finding a claimed figure in the evidence: unit/scale-aware match, period and topic checks."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from finqa.agents.judge import _lex
from finqa.agents.judge.evidence import EvidenceView, SourceView
from finqa.agents.types import FigureStatus
from finqa.lexicon.statements.located import column_period, percent_column, row_cells, row_label

__all__ = ["match", "ratio_in_percent_column", "period_ok", "find"]

_CONTEXT_BEFORE = 400  # chars before a figure that name it (row label, sentence, table head)
_CONTEXT_AFTER = 80


def _claim_close(x: float, x_decimals: int, y: float, y_decimals: int, rel_tol: float) -> bool:
    """Claim x (written to x_decimals) vs evidence y, magnitudes, as `quantities_match` with
    directional=True: x's own rounding, plus rel_tol only when x is the coarser figure (so
    '20%' and '20.1%' match a column's 20.1, '20.12%' does not)."""
    px, py = 0.5 * 10.0 ** -int(x_decimals or 0), 0.5 * 10.0 ** -int(y_decimals or 0)
    x, y = abs(x), abs(y)
    tol = px + (rel_tol * max(x, y) if px > py else 0.0)
    return abs(x - y) <= tol * (1 + 1e-9)


def match(q: Any, e: Any, rel_tol: float) -> bool:
    """q (a claim) equals e (evidence): unit/scale-aware, q's rounding, magnitudes."""
    if q.unit == "%" and e.unit in ("", "USD") and e.scale_source != "explicit":
        # a 'Percent to Sales' column: bare figures (PDF text may even put '$' before them)
        return _claim_close(float(q.value), q.decimals, float(e.value), e.decimals, rel_tol)
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


def _ratio_claim(q: Any) -> bool:
    """A plain decimal fraction as written ('0.201', '0.009'): it may be a percentage as a ratio."""
    return (
        q.unit in ("", "ratio")
        and q.scale_source == "none"
        and int(q.decimals or 0) > 0
        and abs(float(q.value)) < 10
    )


def ratio_in_percent_column(q: Any, e: Any, text: str, rel_tol: float) -> bool:
    """q, a ratio ('0.201'), equals e, a bare figure that its table context makes a percentage
    ('20.1' in a 'Percent to Sales' column, or over a '\n%' line): e / 100 within q's rounding.

    The lexicon reads such a figure as a plain (even dollar) amount, so '20.1%' matches it but
    its ratio form would not; the context check keeps '0.54' from matching any bare '54'."""
    if not _ratio_claim(q) or e.unit not in ("", "USD") or e.scale_source == "explicit":
        return False
    if not _claim_close(
        float(q.value) * 100.0, int(q.decimals or 0) - 2, float(e.value), e.decimals, rel_tol
    ):
        return False
    return percent_column(text, e.start, e.end)


def period_ok(year: int | None, header: Sequence[int | None], expected: Sequence[int]) -> bool:
    """A value is in the wrong period only if its column is known, differs from every expected
    period, and the table also has a column for an expected period (so the right figure was there)."""
    if year is None or not expected:
        return True
    if year in expected:
        return True
    return not any(y in header for y in expected)


_PER_SHARE = re.compile(r"\bper[\s-]+(?:\w+\s+){0,2}share\b|\b[A-Z]{0,4}PS\b")
_PER_SHARE_BEFORE = 160  # a per-share measure names the figure in its row label / clause
_PER_SHARE_AFTER = 40


def _on_topic(
    src: SourceView,
    e: Any,
    topic: frozenset[str] | None,
    q: Any | None = None,
    label_terms: tuple[frozenset[str], ...] = (),
    claim: frozenset[str] = frozenset(),
) -> bool:
    """Does the evidence around e (its row label / sentence) share a word with the claim or question?

    A per-share claim is also on topic next to a per-share measure, written out or as its
    acronym (EPS, DPS, BVPS, TBVPS: tangible book value per share)."""
    if topic is None:
        return True
    near = src.text[max(0, e.start - _PER_SHARE_BEFORE) : e.end + _PER_SHARE_AFTER]
    if q is not None and q.unit == "USD/share" and _PER_SHARE.search(near):
        return True
    label = row_label(src.text, e.start)
    if label is not None and (_lex.year_mentions(label) or len(label) < 3):
        label = None
    # a table figure is named by its row label (which must name the asked line item or an
    # operand of the asked metric when the catalogue knows it); a narrative one by its context
    window = label or src.text[max(0, e.start - _CONTEXT_BEFORE) : e.end + _CONTEXT_AFTER]
    # PDF text glues words: 'Merchandiseinventories'
    squashed = "".join(ch for ch in window.lower() if "a" <= ch <= "z")
    if label is not None and label_terms:
        return any(all(t in squashed for t in term) for term in label_terms)
    if label is not None and len(claim) >= 2 and not _names_row(label, claim | (topic or set())):
        # no catalogue line to ask for: the row must be one the answer's claim (or the
        # question) names ('Cross currency swaps ... its notional value', not the 'Forward
        # starting interest rate swaps' row)
        return False
    return any(len(t) >= 4 and t in squashed for t in topic)


def _names_row(label: str, words: frozenset[str] | set[str]) -> bool:
    """Every content word of a row label is among `words` (stems, as `content_tokens` gives)."""
    from finqa.agents.judge.text import content_tokens

    own = [t for t in content_tokens(label) if len(t) >= 4]
    return bool(own) and all(t in words for t in own)


def _year_like(e: Any) -> bool:
    """'2018' in 'Shares outstanding - 2018: ...' is a date, not a figure (even read as '-2018')."""
    digits = "".join(ch for ch in e.text if ch.isdecimal())
    return (
        len(digits) == 4
        and 1900 <= int(digits) <= 2100
        and int(e.decimals or 0) == 0
        and not any(ch in "$,%" for ch in e.text)
    )


def find(
    q: Any,
    view: EvidenceView,
    preferred: Sequence[str],
    expected: Sequence[int],
    rel_tol: float,
    topic: frozenset[str] | None = None,
    label_terms: tuple[frozenset[str], ...] = (),
    claim: frozenset[str] = frozenset(),
) -> tuple[FigureStatus, SourceView | None, Any, int | None]:
    """('evidence' | 'period_mismatch' | 'off_topic' | 'not_found', source, evidence quantity, year)."""
    mismatch: tuple[SourceView, Any, int | None] | None = None
    off_topic: tuple[SourceView, Any] | None = None
    for src in view.ordered(preferred):
        for e in src.quantities:
            if _year_like(e) or not (
                match(q, e, rel_tol) or ratio_in_percent_column(q, e, src.text, rel_tol)
            ):
                continue
            if not _on_topic(src, e, topic, q, label_terms, claim):
                off_topic = off_topic or (src, e)
                continue
            col = column_period(src.text, e.start, e.end)
            dated = _sentence_years(src.text, e) if col.year is None else set()
            if dated and expected and not any(_same_year(y, f, expected) for y, f in dated):
                # 'On October 28, 2015, X agreed to repurchase $1.25 billion' for 2017: a
                # narrative figure dated only in other years is of another period
                mismatch = mismatch or (src, e, max(y for y, _f in dated))
                continue
            if period_ok(col.year, col.header, expected) and (
                col.year is None or col.year in expected or not _other_table(src, e, view, expected)
            ):
                return "evidence", src, e, col.year
            mismatch = mismatch or (src, e, col.year)
    if mismatch:
        return "period_mismatch", mismatch[0], mismatch[1], mismatch[2]
    if off_topic:
        return "off_topic", off_topic[0], off_topic[1], None
    return "not_found", None, None, None


# where a narrative sentence ends: a full stop before a space and a capital, a line break
_SENTENCE_END = re.compile(r"(?<=[.!?;])\s+(?=[A-Z\u201c\"])|\n")


def _sentence_years(text: str, e: Any) -> set[tuple[int, bool]]:
    """The years a narrative figure's own sentence names, each with whether it is named as a
    fiscal year ('fiscal 2022', 'FY2022'; a table row's figure, whose column says its period,
    gives none): empty when the sentence names no year."""
    if row_label(text, e.start) is not None:
        return set()
    starts = [m.end() for m in _SENTENCE_END.finditer(text, 0, e.start)]
    start = starts[-1] if starts else 0
    stop = _SENTENCE_END.search(text, e.end)
    sentence = text[start : stop.start() if stop else len(text)]
    if len(sentence.split()) < 8:
        return set()
    # a mention's span holds its 'fiscal' / 'FY' prefix (`year_mentions`)
    return {
        (y, bool(re.match(r"fiscal|fy", sentence[at:end], re.I)))
        for y, at, end in _lex.year_mentions(sentence)
    }


def _same_year(year: int, fiscal: bool, expected: Sequence[int]) -> bool:
    """A sentence's year is an expected one: a date's exactly; a fiscal year the filer names,
    which may be the year it starts in (Ulta's fiscal 2022 ended January 28, 2023), within one
    year either way."""
    if fiscal:
        return any(abs(year - e) <= 1 for e in expected)
    return year in expected


def _other_table(src: SourceView, e: Any, view: EvidenceView, expected: Sequence[int]) -> bool:
    """Another table of the evidence has the same row (by label) with a column for an expected
    period: the figure was read from the wrong table's column."""
    label = row_label(src.text, e.start)
    if not label or len(label) < 4:
        return False
    needle = label.lower()
    for other in view.sources:
        low = other.text.lower()
        at = low.find(needle)
        while at >= 0:
            for q in other.quantities:
                if q.start > at + len(needle) and q.start - at < 200:
                    years = {y for _s, _e, y in row_cells(other.text, q.start)}
                    if years & set(expected):
                        return True
                    break
            at = low.find(needle, at + 1)
    return False
