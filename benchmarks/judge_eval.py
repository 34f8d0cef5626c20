"""Judge calibration on FinanceBench: acceptance per category of a labelled test set built at run
time from ../shared/financebench/questions.jsonl (gold evidence pages as evidence).

    python -m finqa.benchmarks.judge_eval [--questions FILE] [--attempt N] [--ablation] [--json OUT]
                                    [--show CATEGORY] [--llm-set [PATH]] [--offline]

Targets: gold and reformatted gold accepted >= 90%; every perturbation rejected >= 95%; the
diagnosis of 'missing part' and 'prior-year figure' rejections should be 'reasoning'. The
perturbations include the failure kinds of real LLM answers (bare yes/no, a figure of the wrong
kind, from another line or period, the question or the evidence copied back, a figure beside a
calculation flagged invalid, a calculation of another metric than the asked one, an answer that
obeys an instruction planted in its cited page, and the gold beside that page). `--llm-set
[PATH]` also judges the labelled real-LLM answers (built by `python -m
finqa.benchmarks.judge_labels from-bench RUN_DIR... --out PATH`; FinanceBench-derived, so kept
outside the repository: default $FINQA_JUDGE_LLM_SET, else ~/.cache/finqa/judge_llm_answers.jsonl),
`--folds` fits the acceptance threshold on four company-grouped folds and reports the fifth
(the only threshold chosen by looking at questions, so it is chosen out of fold),
`--offline` the offline backend's answers: correct accepted (target >= 85%) and wrong accepted
(target <= 5%), per question type, failure kind and company-grouped fold.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections import Counter, defaultdict
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from finqa.agents.config import load_settings
from finqa.agents.judge import JudgeAgent
from finqa.benchmarks._judge_cases import CATEGORIES, build_cases, load_questions
from finqa.benchmarks._judge_summary import (
    by_source,
    company_fold,
    company_folds,
    distinct_pairs,
    summary,
)
from finqa.benchmarks.judge_labels import default_set

__all__ = ["main", "run"]

_DEFAULT = Path("<default labelled set>")  # --llm-set without a path

DEFAULT_QUESTIONS = (
    Path(
        os.environ.get(
            "FINQA_FINANCEBENCH", Path(__file__).resolve().parents[2] / "shared" / "financebench"
        )
    )
    / "questions.jsonl"
)


def run(questions: Path, *, attempt: int = 1, ablation: bool = False) -> list[dict[str, Any]]:
    """Evaluate every case; one result row per case."""
    overrides = {"judge.deterministic_verify": False} if ablation else None
    judge = JudgeAgent(load_settings(overrides=overrides))
    rows: list[dict[str, Any]] = []
    source = load_questions(questions)
    meta = {str(r["financebench_id"]): r for r in source}
    folds = company_folds(source)
    for case in build_cases(source):
        verdict = judge.evaluate(case.question, case.answer, case.evidence, attempt)
        accepted = verdict.decision == "accept"
        first = meta.get(case.qid.split("+")[0].rstrip("'"), {})
        rows.append(
            {
                "category": case.category,
                "qid": case.qid,
                "question_type": first.get("question_type", "unknown"),
                "fold": company_fold(first, folds),
                "should_accept": case.should_accept,
                "accepted": accepted,
                "correct": accepted == case.should_accept,
                "utility": verdict.utility,
                "scores": [verdict.grounding, verdict.completeness, verdict.numeric],
                "diagnosis": verdict.diagnosis,
                "expected_diagnosis": case.expected_diagnosis,
                "answer": case.answer.text[:160],
                "unsupported": list(verdict.unsupported_numbers),
                "missing": list(verdict.missing_facets),
            }
        )
    return rows


def table(rows: Sequence[dict[str, Any]]) -> str:
    by: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for r in rows:
        by[r["category"]].append(r)
    lines = [f"{'category':<15} {'n':>4} {'accepted':>9} {'accept %':>9} {'target':>14} {'met':>4}"]
    for cat, should in CATEGORIES:
        items = by.get(cat, [])
        if not items:
            continue
        acc = sum(r["accepted"] for r in items)
        pct = 100.0 * acc / len(items)
        target = "accept >= 90%" if should else "reject >= 95%"
        met = pct >= 90 if should else (100 - pct) >= 95
        lines.append(
            f"{cat:<15} {len(items):>4} {acc:>9} {pct:>8.1f}% {target:>14} {'yes' if met else 'NO':>4}"
        )
    gold_ok = {r["qid"] for r in by.get("gold", []) if r["accepted"]}
    conditional = (
        ("reformatted", [r for r in by.get("reformatted", []) if r["qid"] in gold_ok]),
        (
            "two_part_gold",
            [r for r in by.get("two_part_gold", []) if set(r["qid"].split("+")) <= gold_ok],
        ),
    )
    for cat, items in conditional:
        if items:
            acc = sum(r["accepted"] for r in items)
            lines.append(
                f"{cat} where the gold itself is accepted: {acc}/{len(items)} = "
                f"{100.0 * acc / len(items):.1f}%"
            )
    for cat in ("missing_part", "prior_year"):
        rejected = [r for r in by.get(cat, []) if not r["accepted"]]
        if rejected:
            right = sum(r["diagnosis"] == r["expected_diagnosis"] for r in rejected)
            counts = Counter(r["diagnosis"] for r in rejected)
            lines.append(
                f"diagnosis accuracy on rejected {cat}: {right}/{len(rejected)} = "
                f"{100.0 * right / len(rejected):.1f}% (expected 'reasoning'; got {dict(counts)})"
            )
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m finqa.benchmarks.judge_eval", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("--questions", type=Path, default=DEFAULT_QUESTIONS)
    parser.add_argument(
        "--attempt", type=int, default=1, help="threshold attempt (default 1: tau=0.5)"
    )
    parser.add_argument(
        "--ablation", action="store_true", help="deterministic_verify=False (raw-string check)"
    )
    parser.add_argument("--json", type=Path, default=None, help="write every case's result here")
    parser.add_argument("--show", default=None, help="print the misjudged cases of this category")
    parser.add_argument(
        "--llm-set",
        type=Path,
        nargs="?",
        const=_DEFAULT,
        default=None,
        help="also judge the labelled real-LLM answers at PATH (default: $FINQA_JUDGE_LLM_SET, "
        "else ~/.cache/finqa/judge_llm_answers.jsonl)",
    )
    parser.add_argument(
        "--folds",
        action="store_true",
        help="fit the acceptance threshold on 4 company-grouped folds, report the held-out fold",
    )
    parser.add_argument(
        "--index",
        type=Path,
        default=None,
        help="the index a benchmark run's labelled answers were retrieved from (their evidence "
        "is rebuilt from its chunks; without it, from the same pages' text)",
    )
    parser.add_argument(
        "--offline",
        action="store_true",
        help="also judge the offline backend's answers on the gold evidence, graded by the grader",
    )
    parser.add_argument(
        "--llm-judge",
        metavar="BASE_URL",
        default=None,
        help="also run the optional LLM judge against this OpenAI-compatible server on a few "
        "qualitative answers and print what it changes",
    )
    parser.add_argument("--llm-judge-limit", type=int, default=2)
    args = parser.parse_args(argv)
    if not args.questions.exists():
        print(f"judge_eval: questions file not found: {args.questions}", file=sys.stderr)
        return 2
    if args.llm_set == _DEFAULT:
        args.llm_set = default_set()
    if args.llm_set is not None and not args.llm_set.exists():
        print(
            f"judge_eval: labelled real-LLM set not found: {args.llm_set} (build it with "
            "python -m finqa.benchmarks.judge_labels from-bench RUN_DIR... --out PATH)",
            file=sys.stderr,
        )
        return 2
    rows = run(args.questions, attempt=args.attempt, ablation=args.ablation)
    mode = "ablation (raw-string numeric check)" if args.ablation else "deterministic"
    print(f"judge calibration on {args.questions} — attempt {args.attempt}, {mode}")
    print(table(rows))
    print(summary(rows, "perturbation set"))
    if args.folds:
        from finqa.benchmarks._judge_summary import fold_fit

        default = load_settings().judge.threshold(args.attempt)
        print(fold_fit(rows, "perturbation set", default))
    if args.llm_set:
        from finqa.benchmarks._judge_summary import run_llm_set

        llm_rows = run_llm_set(
            args.llm_set,
            args.questions,
            attempt=args.attempt,
            ablation=args.ablation,
            index=args.index,
        )
        print(summary(llm_rows, f"real-LLM answers ({args.llm_set.name}), every item", by="label"))
        print(by_source(llm_rows))
        print(distinct_pairs(llm_rows, f"real-LLM answers ({args.llm_set.name})"))
        if args.folds:
            from finqa.benchmarks._judge_summary import fold_fit

            default = load_settings().judge.threshold(args.attempt)
            print(fold_fit(llm_rows, "real-LLM answers", default))
        rows = rows + llm_rows
    if args.offline:
        from finqa.benchmarks._judge_summary import run_offline_set

        off_rows = run_offline_set(args.questions, attempt=args.attempt, ablation=args.ablation)
        print(summary(off_rows, "offline backend's answers (graded against the gold)", by="label"))
        rows = rows + off_rows
    if args.llm_judge:
        from finqa.benchmarks._judge_summary import llm_judge_sample

        sample = llm_judge_sample(args.questions, args.llm_judge, limit=args.llm_judge_limit)
        print("\noptional LLM judge on qualitative answers (deterministic -> with LLM):")
        for x in sample:
            print(
                f"  {x['category']:<10} {x['qid']:<24} should accept {x['should_accept']!s:<5} "
                f"{x['deterministic']} -> {x['with_llm']}  grounding {x['grounding'][0]:.2f} -> "
                f"{x['grounding'][1]:.2f}  llm: {x['llm']} {x['labels']}"
            )
    if args.show:
        for r in rows:
            if r["category"] == args.show and not r["correct"]:
                print(json.dumps(r, ensure_ascii=False))
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text("\n".join(json.dumps(r) for r in rows) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
