"""Whether an answer the judge never verified is returned (best_effort) or abstained, chosen on
company-grouped folds.

    python -m finqa.benchmarks.unverified_fit --run DIR [--questions FILE] [--hand FILE]

DIR is a `finqa bench financebench` run made with `orchestrator.unverified: answer` (a config
file setting it, passed with `--config`), so that every unverified answer is there, graded, with
status best_effort. For each of five company-grouped folds (`crossval.company_folds`) the policy
is chosen on the other four: "answer" when their best_effort answers score
correct - WRONG_COST * wrong above zero, else "abstain" (a tie abstains: the answer adds nothing
an abstention does not). The chosen policy is applied to the held-out fold; the out-of-fold
right / wrong / abstained over every question are printed beside the figures of each fixed
policy. `--hand` takes grades for answers the grader left ungraded ({"id": "correct" | "wrong"}).
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from finqa.benchmarks.crossval import WRONG_COST, company_folds

__all__ = ["POLICIES", "choose", "fit", "main", "outcome"]

POLICIES = ("answer", "abstain")


def outcome(row: Mapping[str, Any], policy: str, hand: Mapping[str, str]) -> str:
    """The row's label (correct / wrong / abstained / ungraded) under `policy`."""
    if row.get("status") == "best_effort" and policy == "abstain":
        return "abstained"
    label = str((row.get("grade") or {}).get("label", "ungraded"))
    return hand.get(str(row.get("id")), label) if label == "ungraded" else label


def choose(rows: Sequence[Mapping[str, Any]], hand: Mapping[str, str]) -> str:
    """The policy the rows' unverified answers support (a tie: abstain)."""
    got = Counter(outcome(r, "answer", hand) for r in rows if r.get("status") == "best_effort")
    return "answer" if got["correct"] - WRONG_COST * got["wrong"] > 0 else "abstain"


def fit(rows: Sequence[Mapping[str, Any]], hand: Mapping[str, str], k: int = 5) -> dict[str, Any]:
    """Per fold the policy chosen without it, and the out-of-fold and fixed-policy counts."""
    folds = company_folds(rows, k)
    chosen = [
        choose([r for r, g in zip(rows, folds, strict=True) if g != f], hand) for f in range(k)
    ]
    oof = Counter(outcome(r, chosen[g], hand) for r, g in zip(rows, folds, strict=True))
    fixed = {p: Counter(outcome(r, p, hand) for r in rows) for p in POLICIES}
    unverified = Counter(
        outcome(r, "answer", hand) for r in rows if r.get("status") == "best_effort"
    )
    return {
        "folds": chosen,
        "all_folds": choose(rows, hand),
        "out_of_fold": dict(oof),
        "fixed": {p: dict(c) for p, c in fixed.items()},
        "unverified_answers": dict(unverified),
        "n": len(rows),
    }


def _rows(run: Path, questions: Path | None) -> list[dict[str, Any]]:
    company: dict[str, str] = {}
    if questions is not None:
        for line in questions.read_text(encoding="utf-8").splitlines():
            if line.strip():
                q = json.loads(line)
                company[str(q["financebench_id"])] = str(q.get("company") or "")
    rows = []
    for line in (run / "results.jsonl").read_text(encoding="utf-8").splitlines():
        if line.strip():
            r = json.loads(line)
            rows.append({**r, "company": company.get(str(r["id"])) or r.get("doc_name")})
    return rows


def _line(name: str, c: Mapping[str, int], n: int) -> str:
    parts = [f"{c.get(k, 0)} {k} ({100 * c.get(k, 0) / n:.1f}%)" for k in ("correct", "wrong")]
    return f"{name:<22} " + " / ".join(parts) + f" / {c.get('abstained', 0)} abstained"


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--run", type=Path, required=True, help="bench financebench output folder")
    p.add_argument("--questions", type=Path, default=Path("../shared/financebench/questions.jsonl"))
    p.add_argument("--hand", type=Path, default=None, help='{"id": "correct" | "wrong"}')
    args = p.parse_args(argv)
    hand = json.loads(args.hand.read_text(encoding="utf-8")) if args.hand else {}
    questions = args.questions if args.questions.exists() else None
    got = fit(_rows(args.run, questions), hand)
    n = got["n"]
    print(f"unverified answers (best_effort) in the run: {got['unverified_answers']}")
    print(f"policy chosen per fold (without it): {got['folds']}; all folds: {got['all_folds']}")
    print(_line("out of fold", got["out_of_fold"], n))
    for policy, counts in got["fixed"].items():
        print(_line(f"always {policy}", counts, n))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
