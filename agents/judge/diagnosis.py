"""Why an answer was sent back: what the evidence lacks (retrieval) vs what the answer got wrong
(reasoning), and the feedback paragraph for the next attempt."""

from __future__ import annotations

import contextlib
import re
from collections.abc import Sequence
from typing import Any

from finqa.agents.judge import _lex
from finqa.agents.judge.evidence import EvidenceView
from finqa.agents.judge.facets import Facet
from finqa.agents.judge.grounding import ClaimCheck
from finqa.agents.judge.numeric import CalcCheck, NumberCheck
from finqa.agents.judge.text import content_tokens
from finqa.agents.types import Diagnosis

__all__ = ["evidence_gaps", "diagnose", "feedback_text"]


def _year_in(text: str, year: int) -> bool:
    short = str(year)[2:]
    return bool(re.search(rf"(?<!\d){year}(?!\d)|\bfy\s?'?{short}\b", text, re.I))


def evidence_gaps(
    view: EvidenceView, analysis: Any, asked_years: Sequence[int], *, figures: bool = True
) -> list[str]:
    """Needed things the evidence does not contain: nothing at all, a metric (when a figure is
    asked: a qualitative question names metrics only in passing), a period, the company."""
    if not view:
        return ["no evidence was retrieved"]
    gaps: list[str] = []
    text = view.lower
    squashed = _squash(text)
    for metric in (getattr(analysis, "metrics", ()) or ()) if figures else ():
        if not _metric_present(metric, squashed):
            gaps.append(f"metric '{metric}' is not in the evidence")
    for year in asked_years:
        if not _year_in(text, year):
            gaps.append(f"period FY{year} is not in the evidence")
    companies = getattr(analysis, "companies", ()) or ()
    if companies:
        docs = " ".join(s.doc_id.lower() for s in view.sources)
        present = False
        for name in companies:
            words = [w for w in re.split(r"\W+", str(name).lower()) if len(w) > 2][:1]
            if any(w in text or w in docs for w in words):
                present = True
        with contextlib.suppress(Exception):  # company detection refines; it never blocks a verdict
            present = present or any(_lex.find_companies(s.text[:4000]) for s in view.sources)
        if not present:
            gaps.append("the company asked about is not in the evidence")
    return gaps


def _squash(text: str) -> str:
    """Letters only: PDF text glues words ('Cashandcashequivalents')."""
    return "".join(ch for ch in text.lower() if "a" <= ch <= "z")


def _metric_present(metric: str, squashed: str, depth: int = 0) -> bool:
    """A metric is in the evidence if one of its names / line items is, or (for a derived
    metric such as a margin) every input of its formula is."""
    if any(_squash(t) and _squash(t) in squashed for t in _lex.metric_terms(metric)):
        return True
    words = [w for w in metric.split("_") if len(w) >= 4]
    if words and all(w in squashed for w in words):
        return True
    formula = _lex.metric_formula(metric)
    if not formula or depth > 2:
        return False
    inputs = [
        x for x in re.findall(r"[a-z_][a-z0-9_]*", formula) if x not in ("avg", "abs", "min", "max")
    ]
    return bool(inputs) and all(_metric_present(x, squashed, depth + 1) for x in inputs)


def diagnose(
    *,
    gaps: Sequence[str],
    numbers: Sequence[NumberCheck],
    calcs: Sequence[CalcCheck],
    facets: Sequence[Facet],
    claims: Sequence[ClaimCheck],
    abstained: bool,
    view: EvidenceView | None = None,
) -> tuple[Diagnosis, list[str]]:
    """(diagnosis, reasoning faults). Retrieval = the evidence lacks what is needed; reasoning =
    the evidence has it and the answer misuses, misses or invents it; both = each of these."""
    faults = _number_faults(numbers, calcs)
    soft: list[str] = []
    missing = [f for f in facets if _counts(f) and not f.addressed]
    squashed = _squash(view.lower) if view else ""
    for f in missing:
        if f.period is not None and any(f"FY{f.period}" in g for g in gaps):
            continue
        words = [t for t in content_tokens(f.text.split(":", 1)[-1]) if len(t) >= 4]
        covered = sum(t in squashed for t in words)
        if words and covered / len(words) >= 0.5:
            faults.append(f"missing: {f.text} (the evidence covers it)")
        else:
            soft.append(f"missing: {f.text}")
    if not gaps:
        soft += [
            f"{n.text}: not in the evidence and not a verified calculation"
            for n in numbers
            if n.status in ("not_found", "calc_unverified")
        ]
        soft += [
            f"unsupported claim: {c.text[:80]}"
            for c in claims
            if c.content and not c.supported and not c.failed_numbers
        ]
    faults += soft
    if abstained:
        return ("retrieval" if gaps or not faults else "reasoning"), faults
    hard = len(faults) - len(soft)
    if gaps and hard:
        return "both", faults
    if gaps:
        return "retrieval", faults
    return "reasoning", faults


def _number_faults(numbers: Sequence[NumberCheck], calcs: Sequence[CalcCheck]) -> list[str]:
    """Reasoning faults in the answer's figures: another period, a calculation that does not
    re-execute, or one that uses figures from another period."""
    faults: list[str] = []
    other_period_operand = any(
        o.get("status") == "period_mismatch" for c in calcs for o in c.operands
    )
    for n in numbers:
        if n.status == "period_mismatch":
            faults.append(f"{n.text}: {n.detail or 'figure from another period'}")
        elif n.status == "calc_mismatch":
            faults.append(f"{n.text}: recorded calculation result does not re-execute to it")
        elif n.status in ("calc_other_metric", "wrong_direction"):
            faults.append(f"{n.text}: {n.detail}")
        elif n.status == "calc_unverified" and other_period_operand:
            faults.append(f"{n.text}: calculation uses figures from another period")
    faults += [
        f"calculation {c.index} cannot be re-executed: {c.detail}"
        for c in calcs
        if c.status == "error"
    ]
    return faults


def _counts(f: Facet) -> bool:
    return f.kind != "conditional" or bool(f.meta.get("triggered"))


def feedback_text(
    *,
    decision: str,
    utility: float,
    threshold: float,
    diagnosis: Diagnosis | None,
    gaps: Sequence[str],
    faults: Sequence[str],
    numbers: Sequence[NumberCheck],
    facets: Sequence[Facet],
    abstained: bool,
) -> str:
    """One paragraph the next attempt's retrieval and prompt can use."""
    if decision == "accept":
        return f"Accepted: utility {utility:.2f} >= threshold {threshold:.2f}."
    parts = [
        f"Rejected: utility {utility:.2f} < threshold {threshold:.2f} (diagnosis: {diagnosis})."
    ]
    if abstained:
        parts.append("The answer abstained.")
    if gaps:
        parts.append(
            "The evidence lacks: " + "; ".join(gaps) + ". Retrieve filings/pages that contain it."
        )
    bad = [n for n in numbers if not n.ok]
    if bad:
        listed = "; ".join(
            f"{n.text} ({n.status.replace('_', ' ')}{': ' + n.detail if n.detail else ''})"
            for n in bad
        )
        parts.append(
            "Numbers not supported by the evidence: " + listed + ". Quote figures exactly from the "
            "cited source, from the column of the period asked, and record any calculation with "
            "its operands."
        )
    missing = [f.text for f in facets if _counts(f) and not f.addressed]
    if missing:
        parts.append("Address every part of the question: " + "; ".join(missing) + ".")
    others = [
        f
        for f in faults
        if not any(f.startswith(n.text) for n in bad) and not f.startswith("missing")
    ]
    if others:
        parts.append("Also: " + "; ".join(others[:4]) + ".")
    return " ".join(parts)
