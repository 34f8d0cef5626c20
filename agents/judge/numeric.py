"""Numeric faithfulness: every number in the answer must be in the evidence, in the right period,
or be the re-executed result of a recorded calculation over evidence figures.

A number is one of:
  evidence         found in a source (unit/scale-aware, within the answer's own rounding) in a
                   column/sentence of the period the answer or the question asks for;
  calculation      the judge's re-execution of a recorded Calculation whose operands are in the
                   evidence (allowing the answer's rounding, % <-> ratio);
  derived          simple arithmetic (difference, ratio, change) of other verified answer numbers;
  rederived        equal to the asked metric as the judge computes it from the statement model;
  period_mismatch  present in the evidence, but only in another period's column;
  calc_mismatch    matches what the reasoner recorded, not what the arithmetic gives;
  calc_unverified  a calculation's result whose operands are not in the evidence;
  wrong_direction  the size of a change the evidence gives, stated as moving the other way;
  route_conflict   the judge's second route (routes.py) gives another value;
  implausible / wrong_sign  outside what the asked metric can be by its definition;
  not_found        none of the above (the full list: `agents.types.FigureStatus`).
Years, dates, references, list markers and numbers quoted from the question are not claims.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from finqa.agents.judge import _lex
from finqa.agents.judge._match import find
from finqa.agents.judge.calc import CalcCheck, magnitude_target, match_calc, verify_calculations
from finqa.agents.judge.evidence import EvidenceView, SourceView
from finqa.agents.judge.text import content_tokens
from finqa.agents.types import FIGURE_OK, FigureStatus
from finqa.lexicon.question_intent import read_intent
from finqa.lexicon.statements.located import row_label

__all__ = [
    "NumberCheck",
    "CalcCheck",
    "OK_STATUSES",
    "answer_numbers",
    "check_numbers",
    "claimed_year",
    "verify_calculations",
    "numeric_score",
    "derive_remaining",
    "FAIL_CAP",
]

OK_STATUSES = FIGURE_OK
_SPAN = re.compile(r"\b(?:between|from)\b.{0,40}?\b(?:and|to)\b.{0,30}", re.I)
_BASELINE = re.compile(
    r"\b(?:up from|down from|increased from|decreased from|compared (?:to|with)|versus|vs\.?|"
    r"prior[- ]year|previous year|a year (?:earlier|ago))\s*(?:of\s*)?[~$(\s]*$",
    re.I,
)
_CONSTANTS = {2.0, 12.0, 100.0, 365.0, 1000.0}
_LIST_MARKER = re.compile(r"^\(?\d{1,2}[).]$")
_DURATION = re.compile(r"^[\s-]*(?:months?|weeks?|years?|quarters?)\b", re.I)
_AFTER_PERIOD = re.compile(
    r"^\s*(?:\)|,)?\s*(?:in|for|during|as of|at|of|by)?\s*(?:the\s+)?(?:end\s+of\s+)?"
    r"(?:(?:fiscal\s+(?:year\s+)?)|fy\s?'?|q[1-4]\s+(?:of\s+)?(?:fy\s?)?)?$",
    re.I,
)
_CRITERION = ("threshold", "threshold of", "tolerance", "tolerance of", "cut-off of", "cutoff of")
# a percentage of the question or the answer itself ('60% of what the question asks about'): a
# measure of the answer, not a figure of the filing
_OF_THE_ANSWER = re.compile(r"^\s*of\s+(?:what\s+)?(?:the|this)\s+(?:question|answer)\b", re.I)
FAIL_CAP = 0.2  # an answer with any unverifiable number keeps at most this share of mu_n


@dataclass
class NumberCheck:
    """The verdict on one number of the answer."""

    text: str
    start: int
    end: int
    value: float
    unit: str
    status: FigureStatus = "not_found"
    source: str | None = None
    period: int | None = None  # the column/sentence period where it was found
    expected: tuple[int, ...] = ()  # the periods it should come from
    calculation: int | None = None
    detail: str = ""
    quantity: Any = field(default=None, repr=False)

    @property
    def ok(self) -> bool:
        return self.status in OK_STATUSES

    def to_dict(self) -> dict[str, Any]:
        return {
            "text": self.text,
            "value": self.value,
            "unit": self.unit,
            "status": self.status,
            "source": self.source,
            "period": self.period,
            "expected_periods": list(self.expected),
            "calculation": self.calculation,
            "detail": self.detail,
        }


def answer_numbers(answer: str, question: str) -> tuple[list[Any], list[dict[str, Any]]]:
    """The checkable quantities of the answer, and the skipped ones with the reason."""
    intent = read_intent(question)  # the lexicon's one reading of the question
    qscale = intent.scale
    asked = intent.stated
    keep: list[Any] = []
    skipped: list[dict[str, Any]] = []
    criteria: set[tuple[float, str]] = set()
    for q in _lex.extract_quantities(answer, default_scale=qscale):
        if q.scale_source == "default" and abs(float(q.value)) >= 1e6:
            q = _lex.unscaled(q)  # '$303,000,000' is in dollars whatever 'in USD millions' says
        before = answer[max(0, q.start - 24) : q.start].lower().rstrip(" (:=")
        if q.kind != "number":
            skipped.append({"text": q.text, "reason": q.kind})
        elif _in_name(answer, q):
            skipped.append({"text": q.text, "reason": "part of a name"})
        elif _LIST_MARKER.match(q.text.strip()) and not q.unit and abs(q.value) < 100:
            skipped.append({"text": q.text, "reason": "list marker"})
        elif not q.unit and q.decimals == 0 and _DURATION.match(answer[q.end : q.end + 20]):
            skipped.append({"text": q.text, "reason": "duration"})
        elif abs(q.value) in _CONSTANTS and (
            before[-1:] in ("*", "/", "x") or answer[q.end : q.end + 3].lstrip()[:1] in ("*", "/")
        ):
            # '* 100', '/ 365' and '365 * avg(...)' (also '- 365 * ...' inside a formula)
            skipped.append({"text": q.text, "reason": "formula constant"})
        elif before.endswith(_CRITERION) or (float(q.value), q.unit or "") in criteria:
            # 'threshold 30%', 'a tolerance of 2 points': the rule applied, not a filing figure
            criteria.add((float(q.value), q.unit or ""))
            skipped.append({"text": q.text, "reason": "criterion"})
        elif q.unit == "%" and _OF_THE_ANSWER.match(answer[q.end : q.end + 40]):
            skipped.append(
                {"text": q.text, "reason": "a share of the question, not a filing figure"}
            )
        elif any(_lex.quantities_match(q, a, 0.0) for a in asked) or (
            not q.unit and any(float(q.value) == float(a.value) for a in asked)
        ):
            skipped.append(
                {
                    "text": q.text,
                    "reason": "quoted from the question",
                    "start": q.start,
                    "end": q.end,
                }
            )
        else:
            keep.append(q)
    return keep, skipped


def _in_name(answer: str, q: Any) -> bool:
    """'COVID-19', 'Form 10-K', 'Section 16(a)': digits joined to a word by a hyphen, with no
    unit, are part of a name, not a figure."""
    at = q.start + (1 if q.text.startswith("-") else 0)
    return (
        not q.unit
        and at >= 2
        and answer[at - 1] == "-"
        and answer[at - 2].isalpha()
        and int(q.decimals or 0) == 0
    )


def claimed_year(answer: str, q: Any) -> int | None:
    """The period the answer attaches to a number: 'X in FY2021', 'In 2021, ... X', or the
    later end of 'X between FY2022 and FY2023' (a change is for its latest period)."""
    mentions = _lex.year_mentions(answer)
    for year, start, end in mentions:
        if start >= q.end and _AFTER_PERIOD.match(answer[q.end : start]):
            if answer[end : end + 2].lstrip().startswith(":"):
                break  # 'FY2021: 22.37%, FY2022: 22.49%': that year labels the next figure
            return year
    stops = [i for i in (answer.find(". ", q.end), answer.find(";", q.end)) if i >= 0]
    rest = answer[q.end : min(stops) if stops else len(answer)]
    span = _SPAN.search(rest)
    if span and not _has_digit(rest[: span.start()]):
        years = [y for y, _s, _e in _lex.year_mentions(span.group(0))]
        if len(years) >= 2:
            return max(years)
    sentence_start = max(answer.rfind(".", 0, q.start - 1), answer.rfind(";", 0, q.start), 0)
    before = [m for m in mentions if sentence_start <= m[1] < q.start]
    if before:
        year, _s, end = before[-1]
        between = answer[end : q.start]
        if not _has_digit(between) and not re.search(
            r"\b(?:compared|vs|versus|from|while)\b", between
        ):
            return year
    return None


# --------------------------------------------------------------------------- matching


def _raw_found(q: Any, view: EvidenceView) -> SourceView | None:
    """Ablation: the paper-style check, the number's digits as written appear in a source."""
    digits = re.sub(r"[^\d.]", "", q.text.split()[0] if q.text.split() else q.text).strip(".")
    if not digits:
        return None
    rx = re.compile(r"(?<![\d.])" + re.escape(digits) + r"(?![\d])")
    for src in view.sources:
        if rx.search(src.text.replace(",", "")):
            return src
    return None


# --------------------------------------------------------------------------- calculations


def _derived(q: Any, others: Sequence[NumberCheck], rel_tol: float) -> str | None:
    """q = a-b, a+b, a/b, a/b*100 or (a-b)/b*100 of two verified answer numbers."""
    vals = [
        (c.text, _lex.absolute(c.quantity) if c.unit != "%" else c.value, c.unit)
        for c in others
        if c.ok
    ]
    for (ta, a, ua), (tb, b, ub) in itertools.permutations(vals, 2):
        cands = [(a - b, f"{ta} - {tb}")] if ua == ub else []
        cands += [(a + b, f"{ta} + {tb}")] if ua == ub and ua != "%" else []
        if b:
            cands += [(a / b, f"{ta} / {tb}"), (a / b * 100, f"{ta} / {tb} x 100")]
            cands += [((a - b) / b * 100, f"change {tb} -> {ta}")]
        for value, how in cands:
            if magnitude_target(q, value, q.unit in ("%", "") or q.scale_source == "none", rel_tol):
                return how
    return None


# --------------------------------------------------------------------------- the check


def check_numbers(
    answer: str,
    question: str,
    view: EvidenceView,
    calcs: Sequence[CalcCheck],
    *,
    asked: Sequence[int],
    cited: Sequence[str],
    rel_tol: float,
    deterministic: bool = True,
    topic: frozenset[str] = frozenset(),
    single_part: bool = True,
    topic_name: str = "",
    label_terms: tuple[frozenset[str], ...] = (),
) -> tuple[list[NumberCheck], list[dict[str, Any]]]:
    """Check every number of the answer; returns the checks and the skipped (non-claim) numbers."""
    quantities, skipped = answer_numbers(answer, question)
    quantities = _drop_quoted(quantities, _verbatim_quotes(answer, view), skipped)
    q_tokens = frozenset(content_tokens(question)) | topic
    answer_years = {y for y, _s, _e in _lex.year_mentions(answer)}
    checks: list[NumberCheck] = []
    # calculations whose result the answer states: their operands may be quoted beside it
    stated = sorted(
        {
            hit[1]
            for q in quantities
            if (hit := match_calc(q, calcs, rel_tol)) is not None and hit[0] == "calculation"
        }
    )
    for q in quantities:
        nc = NumberCheck(q.text, q.start, q.end, q.value, q.unit, quantity=q)
        if not deterministic:
            src = _raw_found(q, view)
            nc.status, nc.source = ("evidence", src.source_id) if src else ("not_found", None)
            checks.append(nc)
            continue
        own = claimed_year(answer, q)
        nc.expected = (own,) if own else tuple(asked)
        if not own and asked and _BASELINE.search(answer[max(0, q.start - 30) : q.start]):
            # 'up from $9.1 billion', 'compared with 4.2%': the baseline is the prior period
            nc.expected = tuple(sorted(set(asked) | {y - 1 for y in asked}))
        topic = q_tokens | frozenset(content_tokens(_sentence(answer, q.start)))
        # a figure computed only from earlier periods than asked: checked when the answer says
        # which period it is for, or does not compare periods (a comparison answer
        # legitimately computes the earlier period's figure too)
        stale_years = nc.expected if (own or (single_part and len(answer_years) <= 1)) else ()
        via_calc = match_calc(q, calcs, rel_tol, stale_years)
        if via_calc is not None and via_calc[0] in ("calculation", "period_mismatch"):
            # the answer says how it got this figure: judge that calculation
            nc.status, nc.calculation = via_calc
            nc.detail = calcs[via_calc[1]].detail or "re-executed calculation"
            if nc.status == "period_mismatch":
                nc.detail = f"calculated only from figures before {_years(nc.expected)}"
            checks.append(nc)
            continue
        operand = _verified_operand(q, [calcs[i] for i in stated], rel_tol)
        if operand is not None:
            nc.status, nc.source, nc.calculation = "evidence", operand[1], operand[0]
            nc.detail = "an operand of a recorded calculation, found in the evidence"
            checks.append(nc)
            continue
        claim = _claim_words(answer, q.start) if not label_terms else frozenset()
        status, src, found_at, col = find(
            q, view, cited, nc.expected, rel_tol, topic, label_terms, claim
        )
        nc.status, nc.source, nc.period = status, src.source_id if src else None, col
        if status != "evidence":
            _explain_miss(nc, via_calc, calcs, src, found_at, topic_name)
        checks.append(nc)
    if deterministic:
        derive_remaining(checks, rel_tol)
    return checks, skipped


def derive_remaining(checks: Sequence[NumberCheck], rel_tol: float) -> None:
    """Every unverified figure that simple arithmetic over the verified ones gives is `derived`."""
    for nc in checks:
        if nc.status == "not_found":
            how = _derived(nc.quantity, [c for c in checks if c is not nc], rel_tol)
            if how:
                nc.status, nc.detail = "derived", how


def _drop_quoted(
    quantities: Sequence[Any], quotes: Sequence[tuple[int, int]], skipped: list[dict[str, Any]]
) -> list[Any]:
    """The answer's figures outside verbatim quotes of the evidence (those go to `skipped`)."""
    kept = []
    for q in quantities:
        if any(s <= q.start < e for s, e in quotes):
            skipped.append({"text": q.text, "reason": "quoted verbatim from the evidence"})
        else:
            kept.append(q)
    return kept


def _explain_miss(
    nc: NumberCheck,
    via_calc: tuple[FigureStatus, int] | None,
    calcs: Sequence[CalcCheck],
    src: Any,
    found_at: Any,
    topic_name: str,
) -> None:
    """Status and feedback of a figure not supported as asked: its failing calculation, the
    other period it was found for, or the row it really is ('423,961 is total current assets')."""
    if via_calc is not None:
        nc.status, nc.calculation = via_calc
        nc.source = None
        nc.detail = calcs[via_calc[1]].detail or "recorded calculation does not verify"
    elif nc.status == "period_mismatch":
        nc.detail = (
            f"in the evidence only in the FY{nc.period} column; expected {_years(nc.expected)}"
        )
    elif nc.status == "off_topic":
        nc.status = "not_found"
        label = row_label(src.text, found_at.start) if src and found_at else None
        where = f" ({src.label()})" if src else ""
        nc.detail = (
            f"{nc.text.strip()} is {label!r}{where}, not {topic_name or 'what was asked'}"
            if label
            else "the same figure appears only in an unrelated context"
        )


def _verified_operand(
    q: Any, calcs: Sequence[CalcCheck], rel_tol: float
) -> tuple[int, str | None] | None:
    """(calculation index, source) when q is an operand of a verified recorded calculation (the
    calculation check found it in the evidence, in a plausible period)."""
    for c in calcs:
        if not c.ok:
            continue
        for op in c.operands:
            if op.get("status") != "evidence":
                continue
            target = abs(float(op["value"]))
            if _lex.magnitude_close(q, target, rel_tol=0.0, scales=(1.0 / float(q.scale or 1.0),)):
                return c.index, op.get("source")
    return None


_QUOTE = re.compile(r"'([^'\n]{8,})'|\"([^\"\n]{8,})\"|\u201c([^\u201d\n]{8,})\u201d")


def _squash(text: str) -> str:
    return "".join(ch for ch in text.lower() if ch == "." or (ch.isascii() and ch.isalnum()))


def _has_digit(text: str) -> bool:
    return any(ch.isdecimal() for ch in text)


def _verbatim_quotes(answer: str, view: EvidenceView) -> list[tuple[int, int]]:
    """Spans of the answer quoting a source verbatim: what they contain is the source's, not a claim."""
    if not view:
        return []
    sources = [_squash(s.text) for s in view.sources]
    spans = []
    for m in _QUOTE.finditer(answer):
        quoted = _squash(next(g for g in m.groups() if g))
        if len(quoted) >= 8 and any(quoted in src for src in sources):
            spans.append((m.start(), m.end()))
    return spans


def _sentence(text: str, pos: int) -> str:
    """The sentence of `text` around offset `pos`."""
    start = max(text.rfind(". ", 0, pos), text.rfind("\n", 0, pos), -1) + 1
    ends = [i for i in (text.find(". ", pos), text.find("\n", pos)) if i >= 0]
    return text[start : min(ends) if ends else len(text)]


def _claim_words(answer: str, pos: int) -> frozenset[str]:
    """Content words of the answer's sentence holding `pos` and of the one before it (which
    names what 'Its notional value was $X' is about)."""
    here = _sentence(answer, pos)
    start = answer.find(here) if here else -1
    before = _sentence(answer, start - 2) if start > 1 else ""
    return frozenset(t for t in content_tokens(before + " " + here) if len(t) >= 4)


def _years(years: Sequence[int]) -> str:
    return ", ".join(f"FY{y}" for y in years) or "any period"


def numeric_score(checks: Sequence[NumberCheck]) -> float | None:
    """Share of verified numbers; any failure caps the score (`every` number must hold).

    None when the answer has no numbers to check (the caller decides what that means).
    """
    if not checks:
        return None
    share = sum(c.ok for c in checks) / len(checks)
    return share if share == 1.0 else FAIL_CAP * share
