"""The labelled judge test set, built at run time from FinanceBench (never stored in the repo).

For every question: its gold evidence pages are the Evidence, the gold answer (with the
calculations a Reasoning agent would record) should be accepted, so should the gold rewritten in
other formats/scales; perturbations should be rejected: a number +1%, +10%, x1000, the prior
year's figure from the same table row, a two-part question with one part missing, an unrelated
but fluent answer (another company's gold answer).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from finqa.agents.judge import column_period, magnitude_close, row_cells
from finqa.agents.judge.calc import CalcError, safe_eval
from finqa.agents.judge.evidence import EvidenceView
from finqa.agents.judge.numeric import answer_numbers
from finqa.agents.types import Answer, Calculation, Evidence
from finqa.benchmarks._judge_calcs import build_calculations, figure_matches, labelled, locate
from finqa.benchmarks._judge_inject import INJECTION_CATEGORIES, injected
from finqa.benchmarks._judge_perturb import PERTURBATIONS, perturbations
from finqa.benchmarks.questions import gold_evidence, read_rows
from finqa.lexicon import detect_scale, quantities_match

__all__ = ["Case", "load_questions", "build_cases", "CATEGORIES"]

CATEGORIES = (
    ("gold", True),
    ("reformatted", True),
    ("two_part_gold", True),
    ("changed_1pct", False),
    ("changed_10pct", False),
    ("scale_x1000", False),
    ("prior_year", False),
    ("missing_part", False),
    ("unrelated", False),
    *((name, False) for name in PERTURBATIONS),
    *INJECTION_CATEGORIES,
)


@dataclass(frozen=True)
class Case:
    category: str
    qid: str
    question: str
    answer: Answer
    evidence: Evidence
    should_accept: bool
    expected_diagnosis: str | None = None
    note: str = ""


def load_questions(path: Path) -> list[dict[str, Any]]:
    return read_rows(path)


def _evidence(question: str, pages: Sequence[dict[str, Any]], offset: int = 0) -> Evidence:
    return gold_evidence(question, pages, offset=offset, route="gold")


def _fmt(value: float, decimals: int, commas: bool = True) -> str:
    body = f"{abs(value):,.{decimals}f}" if commas else f"{abs(value):.{decimals}f}"
    return ("-" if value < 0 else "") + body


def _digits_span(q: Any) -> tuple[int, int]:
    """Offsets (within the answer) of the digits of q's text (sign/currency/scale kept)."""
    m = re.search(r"\d[\d,]*(?:\.\d+)?|\.\d+", q.text)
    if m is None:
        return q.start, q.end
    return q.start + m.start(), q.start + m.end()


def _replace(text: str, q: Any, digits: str) -> str:
    s, e = _digits_span(q)
    return text[:s] + digits + text[e:]


def _true_value(q: Any, calcs: Sequence[Calculation], view: EvidenceView) -> float:
    """The exact figure behind a (possibly rounded) gold number: its calculation result or itself."""
    for c in calcs:
        if figure_matches(q, c.result):
            for r in (c.result, c.result * 100, c.result / 100):
                if magnitude_close(q, r, rel_tol=0.005, scales=(1.0 / float(q.scale or 1.0),)):
                    return abs(r)
    return abs(float(q.value))


def _perturb(text: str, q: Any, factor: float, true: float) -> str:
    """q's figure times `factor`, written with >= 4 significant digits so the change is visible."""
    target = true * factor
    decimals = max(q.decimals, 0)
    while decimals < 8 and (
        abs(target) >= 1e-12
        and (
            abs(round(target, decimals) - target) / abs(target) > 0.0005
            or round(target, decimals) == abs(q.value)
        )
    ):
        decimals += 1
    commas = "," in q.text
    return _replace(text, q, _fmt(round(target, decimals), decimals, commas).lstrip("-"))


def _reformat(q: Any, question_scale: float | None) -> str | None:
    """Another correct way of writing q, with the same precision: '%' <-> ratio, a scale word
    spelled out or changed (million <-> billion keeping every digit), full dollars -> billions."""
    if q.unit == "%":
        return f"{q.value / 100:.{q.decimals + 2}f}" if q.value else None
    if q.unit not in ("USD", ""):
        return None
    sign = "-" if "-" in q.text else ""
    scale = float(q.scale) if q.scale_source != "none" else (question_scale or 1.0)
    value = abs(float(q.value))
    if scale == 1e6 and value >= 1000:
        return f"{sign}${_trim(value / 1e3, q.decimals + 3)} billion"
    if scale == 1e6:
        return f"{sign}${value:,.{q.decimals}f} million"
    if scale == 1e9:
        return f"{sign}${value:,.{q.decimals}f} billion"
    if scale == 1.0 and value >= 1e9:
        return f"{sign}${_trim(value / 1e9, 3)} billion"
    if scale == 1.0 and value >= 1e6:
        return f"{sign}${_trim(value / 1e6, 3)} million"
    return None


def _trim(value: float, decimals: int) -> str:
    return f"{value:.{decimals}f}".rstrip("0").rstrip(".")


def _prior_year(
    text: str, q: Any, view: EvidenceView, calcs: Sequence[Calculation]
) -> tuple[str, tuple[Calculation, ...]] | None:
    """The answer with its figure taken from the neighbouring (earlier) column of the same row."""
    for src in view.sources:
        for e in src.quantities:
            if not quantities_match(q, e, 0.0, signed=False, directional=True):
                continue
            for other in _previous_column(src, e)[0]:
                if other is None or abs(other.value) == abs(e.value) or other.unit != e.unit:
                    continue
                scaled = abs(other.value)
                if e.scale_source != "none" and q.scale_source != "none":
                    scaled *= float(e.scale) / float(q.scale)
                return _replace(text, q, _fmt(scaled, q.decimals, "," in q.text)), tuple(calcs)
    # a computed figure: every operand shifted to the previous column of its row, recomputed
    c = next((c for c in calcs if figure_matches(q, c.result)), None)
    return _prior_year_calc(text, q, view, calcs, c) if c is not None else None


def _previous_column(src: Any, e: Any) -> tuple[list[Any | None], int | None]:
    """The figures in the column one year earlier on `e`'s row (in row order), and `e`'s year."""
    year = column_period(src.text, e.start, e.end).year
    if year is None:
        return [], None
    cells = [s for s, _end, y in row_cells(src.text, e.start) if y == year - 1]
    return [next((x for x in src.quantities if x.start == s), None) for s in cells], year


def _prior_year_calc(
    text: str, q: Any, view: EvidenceView, calcs: Sequence[Calculation], c: Calculation
) -> tuple[str, tuple[Calculation, ...]] | None:
    shifted = []
    for op in c.operands:
        osrc = view.get(op.source_id)
        hit = (
            next((e for e in osrc.quantities if abs(abs(e.value) - abs(op.value)) < 1e-9), None)
            if osrc is not None
            else None
        )
        cells, oyear = _previous_column(osrc, hit) if hit is not None else ([], None)
        found = cells[-1] if cells else None
        if found is None:
            return None
        period = f"FY{oyear - 1}" if oyear else None
        shifted.append(op.model_copy(update={"value": abs(found.value), "period": period}))
    try:
        result = safe_eval(c.expression, {o.name: o.value for o in shifted})
    except CalcError:
        return None
    true = _true_value(q, calcs, view)
    new_value = true * (result / c.result if c.result else 1.0)
    if abs(new_value - true) <= 0.5 * 10.0**-q.decimals:
        return None
    new_calc = c.model_copy(update={"operands": tuple(shifted), "result": result})
    rest = tuple(x for x in calcs if x is not c)
    return _replace(text, q, _fmt(new_value, q.decimals, "," in q.text)), rest + (new_calc,)


def _headline(answer: str, question: str) -> Any | None:
    quantities, _skipped = answer_numbers(answer, question)
    return quantities[0] if quantities else None


def build_cases(rows: Sequence[dict[str, Any]]) -> Iterator[Case]:
    """Every labelled case, deterministic in the order of the questions file."""
    prepared = []
    for row in rows:
        question, gold = row["question"], str(row["answer"])
        evidence = _evidence(question, row["evidence"])
        view = EvidenceView.of(evidence)
        targets, _ = answer_numbers(gold, question)
        calcs = labelled(
            build_calculations(row.get("justification"), question, view, targets), view
        )
        prepared.append((row, question, gold, evidence, view, calcs))
    for k, (row, question, gold, evidence, view, calcs) in enumerate(prepared):
        qid = row["financebench_id"]
        yield Case("gold", qid, question, Answer(text=gold, calculations=calcs), evidence, True)
        qscale = detect_scale(question)
        quantities, _ = answer_numbers(gold, question)
        reformatted = gold
        for q in reversed(quantities):
            alt = _reformat(q, qscale)
            if alt is not None:
                reformatted = reformatted[: q.start] + alt + reformatted[q.end :]
        if reformatted != gold:
            yield Case(
                "reformatted",
                qid,
                question,
                Answer(text=reformatted, calculations=calcs),
                evidence,
                True,
                note=reformatted,
            )
        q = _headline(gold, question)
        if q is not None:
            true = _true_value(q, calcs, view)
            for cat, factor in (("changed_1pct", 1.01), ("changed_10pct", 1.10)):
                text = _perturb(gold, q, factor, true)
                yield Case(
                    cat,
                    qid,
                    question,
                    Answer(text=text, calculations=calcs),
                    evidence,
                    False,
                    note=text,
                )
            if q.unit not in ("%", "bps", "times", "days") and (
                q.unit == "USD" or q.scale_source != "none" or qscale
            ):
                text = _replace(gold, q, _fmt(abs(q.value) * 1000, q.decimals, True))
                yield Case(
                    "scale_x1000",
                    qid,
                    question,
                    Answer(text=text, calculations=calcs),
                    evidence,
                    False,
                    note=text,
                )
            prior = _prior_year(gold, q, view, calcs)
            if prior is not None and prior[0] != gold:
                text, pcalcs = prior
                yield Case(
                    "prior_year",
                    qid,
                    question,
                    Answer(text=text, calculations=pcalcs),
                    evidence,
                    False,
                    "reasoning",
                    note=text,
                )
        other = next(
            (
                p
                for p in prepared[k + 1 :] + prepared[:k]
                if p[0]["company"] != row["company"] and len(str(p[2])) > 15
            ),
            None,
        )
        if other is not None:
            yield Case(
                "unrelated",
                qid,
                question,
                Answer(text=str(other[2])),
                evidence,
                False,
                note=str(other[2])[:80],
            )
        headline = _headline(gold, question)
        for cat, answer, note in perturbations(
            qid, question, gold, evidence, view, calcs, headline
        ):
            yield Case(cat, qid, question, answer, evidence, False, note=note)
        wrong = (
            _perturb(gold, headline, 3.0, _true_value(headline, calcs, view)) if headline else None
        )
        for cat, answer, ev, note in injected(qid, gold, evidence, calcs, wrong):
            yield Case(cat, qid, question, answer, ev, cat != "injection", note=note)
    yield from _two_part_cases(prepared)


def _two_part_cases(prepared: Sequence[tuple[Any, ...]]) -> Iterator[Case]:
    """Two questions about the same company asked together; dropping either answer = missing part."""
    by_company: dict[str, list[tuple[Any, ...]]] = {}
    for p in prepared:
        by_company.setdefault(p[0]["company"], []).append(p)
    for group in by_company.values():
        for first, second in zip(group, group[1:], strict=False):
            row1, q1, a1, _e1, _v1, c1 = first
            row2, q2, a2, _e2, _v2, c2 = second
            question = f"{q1.strip()} Also: {q2.strip()}"
            evidence = _evidence(question, list(row1["evidence"]) + list(row2["evidence"]))
            view = EvidenceView.of(evidence)
            calcs1 = _resource(c1, view)
            calcs2 = _resource(c2, view)
            qid = f"{row1['financebench_id']}+{row2['financebench_id']}"
            joined = f"{a1.strip().rstrip('.')}. {a2.strip()}"
            yield Case(
                "two_part_gold",
                qid,
                question,
                Answer(text=joined, calculations=calcs1 + calcs2),
                evidence,
                True,
            )
            yield Case(
                "missing_part",
                qid,
                question,
                Answer(text=a1, calculations=calcs1),
                evidence,
                False,
                "reasoning",
                note="second part dropped",
            )
            yield Case(
                "missing_part",
                qid + "'",
                question,
                Answer(text=a2, calculations=calcs2),
                evidence,
                False,
                "reasoning",
                note="first part dropped",
            )


def _resource(calcs: Sequence[Calculation], view: EvidenceView) -> tuple[Calculation, ...]:
    """Re-point operands at the merged evidence's source ids."""
    out = []
    for c in calcs:
        ops = []
        for op in c.operands:
            found = locate(op.value, view, decimals=6)
            ops.append(op.model_copy(update={"source_id": found.source_id if found else None}))
        out.append(c.model_copy(update={"operands": tuple(ops)}))
    return tuple(out)
