"""Which convention disagreement keeps an answer from acceptance: chosen on company-grouped folds.

    finqa bench financebench ... --mode self-improving --out RUN   # with FINQA_JUDGE__CONVENTION_POLICY=record
    python -m finqa.benchmarks.convention_fit RUN [--questions FILE] [--folds 5]

The judge records, for every answer about a metric with recognised variants
(`agents/judge/convention.py`), each variant's value, the largest relative gap between them
(`spread`), whether the answer's conclusion flips between them and whether a variant leaves it
open. A run with `convention_policy: record` (never decisive) holds the acceptance of every
answer without the convention check; this replays each candidate (policy, tolerance) over it:
an accepted answer stays accepted unless the candidate calls it convention-dependent.

The candidate is picked on the training folds (companies never split, `crossval.company_folds`)
to maximise correct accepted - WRONG_COST x wrong accepted. Ties go to the design's prior and
the folds move away from it only where that gains: the smallest tolerance (figures that differ
beyond rounding are two answers), a yes/no or direction answer judged on its conclusion before
its figures, and `record` (never decisive) last. The held-out folds' figures are pooled and
reported beside the in-sample ones; the choice over all folds is the setting to ship.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from finqa.benchmarks.crossval import WRONG_COST, company_folds

__all__ = ["CANDIDATES", "accepted_under", "choose", "load_run", "main"]

POLICIES = ("conclusion", "conclusion_open", "figure")  # the prior first
TOLERANCES = (0.005, 0.01, 0.02, 0.05, 0.1, 0.15, 0.2, 0.25, 0.5, 1.0)
# in order of preference on ties (the module docstring); `record` never decides: last
CANDIDATES = (*((p, t) for t in TOLERANCES for p in POLICIES), ("record", float("inf")))


def load_run(run: Path, questions: Path) -> list[dict[str, Any]]:
    """One row per question: its company, grade label, acceptance and the judge's convention
    record of the attempt it returned."""
    companies = {}
    for line in questions.read_text(encoding="utf-8").splitlines():
        if line.strip():
            q = json.loads(line)
            companies[str(q.get("financebench_id"))] = q.get("company") or q.get("doc_name")
    checks: dict[tuple[str, int], dict[str, Any]] = {}
    for log in sorted((run / "audit").glob("*.jsonl")):
        for line in log.read_text(encoding="utf-8").splitlines():
            rec = json.loads(line)
            details = (rec.get("data") or {}).get("details")
            if rec.get("agent") == "judge" and isinstance(details, dict):
                found = details.get("conventions")
                if found:
                    checks[(str(rec.get("question_id")), int(rec.get("attempt") or 0))] = found
    rows = []
    for line in (run / "results.jsonl").read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        r = json.loads(line)
        qid = str(r["id"])
        rows.append(
            {
                "id": qid,
                "company": companies.get(qid) or r.get("doc_name"),
                "label": (r.get("grade") or {}).get("label"),
                "accepted": r.get("status") == "accepted",
                "conventions": checks.get((qid, int(r.get("best_attempt") or 1))),
            }
        )
    return rows


def _dependent(check: Mapping[str, Any] | None, policy: str, tolerance: float) -> bool:
    """`agents.judge.convention.convention_dependent` over the recorded check."""
    from finqa.agents.judge.convention import ConventionCheck, convention_dependent

    if not check or check.get("outcome") in (None, "stated", "no_route"):
        return False
    replayed = ConventionCheck(
        str(check["metric"]),
        int(check["year"]),
        check["form"],
        "agree",
        spread=float(check.get("spread") or 0.0),
        flips=bool(check.get("flips")),
        open=bool(check.get("open")),
    )
    return convention_dependent(replayed, policy, tolerance)  # type: ignore[arg-type]


def accepted_under(row: Mapping[str, Any], policy: str, tolerance: float) -> bool:
    return bool(row["accepted"]) and not _dependent(row.get("conventions"), policy, tolerance)


def _counts(rows: Iterable[Mapping[str, Any]], policy: str, tolerance: float) -> dict[str, int]:
    out = {"accepted": 0, "correct_accepted": 0, "wrong_accepted": 0, "correct": 0, "n": 0}
    for r in rows:
        out["n"] += 1
        out["correct"] += r["label"] == "correct"
        if accepted_under(r, policy, tolerance):
            out["accepted"] += 1
            out["correct_accepted"] += r["label"] == "correct"
            out["wrong_accepted"] += r["label"] == "wrong"
    return out


def _utility(c: Mapping[str, int]) -> float:
    return c["correct_accepted"] - WRONG_COST * c["wrong_accepted"]


def choose(rows: Sequence[Mapping[str, Any]]) -> tuple[str, float]:
    """The (policy, tolerance) maximising the utility on `rows`; ties to the earlier candidate
    (`CANDIDATES` order: the design's prior first)."""
    best = max(range(len(CANDIDATES)), key=lambda i: (_utility(_counts(rows, *CANDIDATES[i])), -i))
    return CANDIDATES[best]


def _line(title: str, c: Mapping[str, int]) -> str:
    return (
        f"{title:<34} accepted {c['accepted']:>3}/{c['n']}  correct accepted "
        f"{c['correct_accepted']:>3}/{c['correct']}  wrong accepted {c['wrong_accepted']:>2}/{c['n']}"
    )


def run(rows: Sequence[dict[str, Any]], k: int) -> dict[str, Any]:
    folds = company_folds(rows, k)
    held: list[dict[str, Any]] = []
    chosen = []
    for f in range(k):
        train = [r for r, g in zip(rows, folds, strict=True) if g != f]
        policy, tol = choose(train)
        chosen.append({"fold": f, "policy": policy, "tolerance": tol})
        for r, g in zip(rows, folds, strict=True):
            if g == f:
                held.append({**r, "accepted": accepted_under(r, policy, tol)})
    policy, tol = choose(rows)
    return {
        "record_only": _counts(rows, "record", 0.0),
        "out_of_fold": _counts(held, "record", 0.0),
        "in_sample": _counts(rows, policy, tol),
        "folds": chosen,
        "chosen": {"policy": policy, "tolerance": tol},
    }


def main(argv: list[str] | None = None) -> int:
    from finqa.benchmarks.reasoning_eval import DEFAULT_QUESTIONS

    p = argparse.ArgumentParser(
        prog="python -m finqa.benchmarks.convention_fit",
        description=(__doc__ or "").split("\n")[0],
    )
    p.add_argument("run", type=Path, help="a bench run made with convention_policy: record")
    p.add_argument("--questions", type=Path, default=DEFAULT_QUESTIONS)
    p.add_argument("--folds", type=int, default=5)
    p.add_argument("--json", type=Path, default=None, help="also write the figures here")
    args = p.parse_args(argv)
    if not (args.run / "results.jsonl").exists() or not args.questions.exists():
        print(f"error: no results.jsonl in {args.run} or no {args.questions}", file=sys.stderr)
        return 2
    out = run(load_run(args.run, args.questions), args.folds)
    print(_line("convention check recorded only", out["record_only"]))
    print(_line("out of fold (chosen on training)", out["out_of_fold"]))
    print(_line("in sample (chosen on all folds)", out["in_sample"]))
    for f in out["folds"]:
        print(f"  fold {f['fold']}: policy {f['policy']}, tolerance {f['tolerance']}")
    print(f"chosen on all folds: policy {out['chosen']['policy']}, "
          f"tolerance {out['chosen']['tolerance']}")  # fmt: skip
    if args.json:
        args.json.write_text(json.dumps(out, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
