"""Lexicon figures on FinanceBench (issue 3).

    python -m finqa.benchmarks.lexicon_eval [--data DIR] [--json OUT] [--verbose]

On every question of questions.jsonl: company detection accuracy (target >= 0.98),
fiscal-year detection accuracy against the filing's period (target >= 0.95), share of
questions whose metric is recognised. On gold answers of questions that need no
calculation (question_reasoning says information extraction, not numerical reasoning):
share of their numbers found in the evidence pages by unit-aware matching (target >= 0.95)
and the false-match rate of the same numbers changed by 1% and by x1000 (target 0).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from finqa.lexicon import (
    Quantity,
    analyze,
    company_for_doc,
    detect_scale,
    extract_quantities,
    find_in_text,
    find_periods,
    lookup_company,
    parse_doc_name,
    parse_quantity,
    primary_fiscal_year,
)

__all__ = ["main", "run", "perturb"]

DEFAULT_DIR = Path(
    os.environ.get(
        "FINQA_FINANCEBENCH", Path(__file__).resolve().parents[2] / "shared" / "financebench"
    )
)


def _load(path: Path) -> list[dict[str, Any]]:
    with open(path, encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def needs_no_calculation(q: dict[str, Any]) -> bool:
    reasoning = (q.get("question_reasoning") or "").lower()
    return "information extraction" in reasoning and "numerical" not in reasoning


def _format(value: float, decimals: int) -> str:
    return f"{value:,.{max(decimals, 0)}f}"


def perturb(q: Quantity, factor: float, source: str) -> Quantity | None:
    """q changed by `factor`, written back as text and re-read (so the parser is exercised).

    For a 1% change the figure gets enough decimals to show the change at its own precision
    (a change hidden by the rounding of the written figure is not a different figure).
    """
    value = q.value * factor
    decimals = q.decimals
    if factor < 10:
        while decimals < 6 and abs(round(value, decimals) - q.value) < abs(value - q.value) * 0.5:
            decimals += 1
        magnitude = abs(value) or 1.0
        while decimals < 6 and 0.5 * 10.0**-decimals > 0.002 * magnitude:
            decimals += 1
    literal = q.text
    digits = [c for c in literal if c.isdigit() or c in ".,"]
    raw = "".join(digits).strip(".,")
    new = _format(abs(value), decimals)
    text = literal.replace(raw, new, 1) if raw and raw in literal else new
    scale = q.scale if q.scale_source == "default" else None
    out = parse_quantity(text, scale)
    if out is None or out.kind != "number":
        return None
    if q.value < 0 and out.value > 0:
        out = replace(out, value=-out.value)
    return out


def run(data_dir: Path, *, verbose: bool = False) -> dict[str, Any]:
    questions = _load(data_dir / "questions.jsonl")
    docs = {d["doc_name"]: d for d in _load(data_dir / "documents.jsonl")}
    misses: dict[str, list[str]] = {"company": [], "year": [], "metric": [], "number": []}
    result: dict[str, Any] = {
        **_all_gold_numbers(questions),
        "questions": len(questions),
        **_entities(questions, docs, misses),
        **_gold_numbers(questions, misses),
    }
    if verbose:
        result["misses"] = misses
    return result


def _rate(hits: int, total: int) -> float:
    return hits / total if total else math.nan


def _entities(
    questions: list[dict[str, Any]], docs: dict[str, Any], misses: dict[str, list[str]]
) -> dict[str, Any]:
    """Company, fiscal year and metric detection against each question's filing."""
    n = len(questions)
    company_ok = year_ok = year_any = year_pred = metric_ok = year_ok_named = 0
    named = named_ok = wrong_company = 0
    for q in questions:
        qa = analyze(q["question"])
        gold = lookup_company(q["company"]) or company_for_doc(q["doc_name"])
        if qa.companies:
            named += 1
            named_ok += gold is not None and gold.name in qa.companies
            wrong_company += gold is None or any(c != gold.name for c in qa.companies)
        if gold is not None and gold.name in qa.companies:
            company_ok += 1
        else:
            misses["company"].append(
                f"{q['financebench_id']}: {q['question'][:90]!r} -> {qa.companies}"
            )
        period = (
            docs.get(q["doc_name"], {}).get("doc_period")
            or parse_doc_name(q["doc_name"]).fiscal_year
        )
        pred = primary_fiscal_year(find_periods(q["question"], gold.name if gold else None))
        year_pred += pred is not None
        year_ok_named += pred is not None and pred == period
        year_ok += pred == period
        if pred != period:
            misses["year"].append(
                f"{q['financebench_id']} {q['doc_name']}: {q['question'][:80]!r} -> {pred}"
            )
        year_any += period in qa.fiscal_years
        metric_ok += bool(qa.metrics)
        if not qa.metrics:
            misses["metric"].append(f"{q['financebench_id']}: {q['question'][:100]!r}")
    return {
        "company_accuracy": company_ok / n,
        "company_accuracy_when_named": _rate(named_ok, named),
        "questions_naming_a_company": named,
        "questions_with_another_company": wrong_company,
        "fiscal_year_accuracy": year_ok / n,
        "fiscal_year_accuracy_when_named": _rate(year_ok_named, year_pred),
        "fiscal_year_any_detected": year_any / n,
        "fiscal_year_predicted_share": year_pred / n,
        "metric_recognised_share": metric_ok / n,
    }


def _gold_numbers(questions: list[dict[str, Any]], misses: dict[str, list[str]]) -> dict[str, Any]:
    """Gold numbers of no-calculation questions found in their evidence; perturbed ones not."""
    found = total = 0
    fm1 = fm1000 = fm1_dir = fm1000_dir = tried1 = tried1000 = 0
    for q in questions:
        if not needs_no_calculation(q):
            continue
        pages = "\n\n".join(e["evidence_text_full_page"] for e in q["evidence"])
        for gq in extract_quantities(q["answer"], detect_scale(q["question"])):
            if gq.kind != "number" or gq.value == 0:
                continue  # '0' answers mean 'not reported'
            total += 1
            if _find_in_pages(gq, q["evidence"]) is not None:
                found += 1
            else:
                misses["number"].append(
                    f"{q['financebench_id']}: {gq.text!r} (scale {gq.scale:g}) not in evidence"
                )
            for factor in (1.01, 0.99, 1000.0, 0.001):
                pq = perturb(gq, factor, pages)
                if pq is None:
                    continue
                bad = _find_in_pages(pq, q["evidence"]) is not None
                bad_dir = _find_in_pages(pq, q["evidence"], directional=False) is not None
                if factor in (1.01, 0.99):
                    tried1, fm1, fm1_dir = tried1 + 1, fm1 + bad, fm1_dir + bad_dir
                else:
                    tried1000, fm1000 = tried1000 + 1, fm1000 + bad
                    fm1000_dir += bad_dir
                if bad:
                    misses["number"].append(
                        f"{q['financebench_id']}: perturbed {pq.text!r} x{factor:g} matched"
                    )
    return {
        "gold_numbers": total,
        "gold_numbers_found_share": _rate(found, total),
        "perturbed_1pct": tried1,
        "false_match_1pct": _rate(fm1, tried1),
        "false_match_1pct_symmetric": _rate(fm1_dir, tried1),
        "perturbed_x1000": tried1000,
        "false_match_x1000": _rate(fm1000, tried1000),
        "false_match_x1000_symmetric": _rate(fm1000_dir, tried1000),
    }


def _all_gold_numbers(questions: list[dict[str, Any]]) -> dict[str, Any]:
    """Informational: every gold answer number found in its evidence, all questions."""
    all_found = all_total = all_fm1 = all_fm1000 = all_t1 = all_t1000 = 0
    for q in questions:
        for gq in extract_quantities(q["answer"], detect_scale(q["question"])):
            if gq.kind != "number" or gq.value == 0:
                continue
            all_total += 1
            if _find_in_pages(gq, q["evidence"]) is None:
                continue
            all_found += 1
            for factor in (1.01, 0.99, 1000.0, 0.001):
                pq = perturb(gq, factor, "")
                if pq is None:
                    continue
                bad = _find_in_pages(pq, q["evidence"]) is not None
                if factor in (1.01, 0.99):
                    all_t1, all_fm1 = all_t1 + 1, all_fm1 + bad
                else:
                    all_t1000, all_fm1000 = all_t1000 + 1, all_fm1000 + bad
    return {
        "all_gold_numbers": all_total,
        "all_gold_numbers_found": all_found,
        "all_false_match_1pct": _rate(all_fm1, all_t1),
        "all_false_match_x1000": _rate(all_fm1000, all_t1000),
        "all_perturbed": all_t1 + all_t1000,
    }


def _find_in_pages(q: Quantity, evidence: list[dict[str, Any]], **kw: Any) -> Quantity | None:
    for e in evidence:
        hit = find_in_text(q, e["evidence_text_full_page"], **kw)
        if hit is not None:
            return hit
    return None


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m finqa.benchmarks.lexicon_eval", description=__doc__.split("\n")[0]
    )
    parser.add_argument("--data", type=Path, default=DEFAULT_DIR, help="FinanceBench folder")
    parser.add_argument("--json", type=Path, help="also write the figures to this JSON file")
    parser.add_argument("--verbose", action="store_true", help="list every miss")
    args = parser.parse_args(argv)
    if not (args.data / "questions.jsonl").exists():
        print(f"lexicon_eval: no questions.jsonl in {args.data}", file=sys.stderr)
        return 2
    result = run(args.data, verbose=args.verbose)
    misses = result.pop("misses", None)
    n = result["questions"]
    print(f"FinanceBench questions: {n}")
    print(
        f"company detection accuracy:          {result['company_accuracy']:.3f}  (target >= 0.98)"
    )
    print(
        f"  on questions naming a company:      {result['company_accuracy_when_named']:.3f}  of {result['questions_naming_a_company']}"
    )
    print(
        f"  questions where another company was detected: {result['questions_with_another_company']}"
    )
    print(
        f"fiscal-year accuracy (primary year):  {result['fiscal_year_accuracy']:.3f}  (target >= 0.95)"
    )
    print(f"  on questions naming a period:       {result['fiscal_year_accuracy_when_named']:.3f}")
    print(f"  filing year among detected years:   {result['fiscal_year_any_detected']:.3f}")
    print(f"  questions with a detected year:     {result['fiscal_year_predicted_share']:.3f}")
    print(f"metric recognised:                    {result['metric_recognised_share']:.3f}")
    print(f"gold numbers (no-calculation questions): {result['gold_numbers']}")
    print(
        f"  found in evidence pages:            {result['gold_numbers_found_share']:.3f}  (target >= 0.95)"
    )
    print(
        f"  false match, changed by 1%:         {result['false_match_1pct']:.3f}  of {result['perturbed_1pct']}  (target 0)"
    )
    print(
        f"  false match, changed by x1000:      {result['false_match_x1000']:.3f}  of {result['perturbed_x1000']}  (target 0)"
    )
    print(
        f"  (symmetric rule: 1% {result['false_match_1pct_symmetric']:.3f}, x1000 {result['false_match_x1000_symmetric']:.3f})"
    )
    print(
        f"all questions (informational): {result['all_gold_numbers_found']} of "
        f"{result['all_gold_numbers']} gold numbers found as written (the rest are computed); "
        f"false match on them: 1% {result['all_false_match_1pct']:.3f}, "
        f"x1000 {result['all_false_match_x1000']:.3f} ({result['all_perturbed']} perturbations)"
    )
    if misses:
        for kind, items in misses.items():
            for item in items:
                print(f"miss[{kind}] {item}")
    if args.json:
        args.json.write_text(json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
