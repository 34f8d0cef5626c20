"""Company-grouped k-fold cross-validation of the offline backend over FinanceBench questions.

    python -m finqa.benchmarks.crossval                      # oracle and single-store evidence
    python -m finqa.benchmarks.crossval --evidence oracle    # gold evidence pages only (fast)
    python -m finqa.benchmarks.crossval --evidence single --index /work/var/index-pdfs

The reasoner reads --index's statement model (`<index>/statements`) in both evidence modes
(`--no-statements`: the evidence text only, as before the model existed).

Folds group questions by company (no company is in two folds) and are deterministic: companies
sorted by (-questions, name) go one by one to the fold with the fewest questions so far. Every
question is answered once per evidence mode by `reasoning_eval.run_offline` (resumable JSONL
under --out) and graded by `benchmarks.grading`.

What is chosen by looking at questions is chosen on the training folds only: here the minimum
answer confidence, per answer mode (metric, verdict, extractive, ...), below which an answer is
withheld (abstains). It is picked on the k-1 training folds to maximise
correct - WRONG_COST * wrong and applied to the held-out fold; the out-of-fold figures are the
held-out folds pooled. The ungated figures (nothing chosen) are printed beside them.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

__all__ = ["company_folds", "choose_gates", "apply_gates", "crossvalidate", "main", "WRONG_COST"]

TYPES = ("metrics-generated", "domain-relevant", "novel-generated")
LABELS = ("correct", "wrong", "abstained", "ungraded")
WRONG_COST = 3.0  # a wrong answer costs an analyst three abstentions (product policy, not fitted)
GATE_GRID = tuple(round(0.05 * i, 2) for i in range(21))  # 0.00 .. 1.00


def company_folds(rows: Sequence[Mapping[str, Any]], k: int = 5) -> list[int]:
    """The fold (0..k-1) of each row; all rows of one company share a fold, sizes balanced."""
    if k < 2:
        raise ValueError("k must be at least 2")
    sizes = Counter(str(r.get("company") or r.get("doc_name") or "") for r in rows)
    fold_of: dict[str, int] = {}
    load = [0] * k
    for company, n in sorted(sizes.items(), key=lambda kv: (-kv[1], kv[0])):
        f = min(range(k), key=lambda i: (load[i], i))
        fold_of[company] = f
        load[f] += n
    return [fold_of[str(r.get("company") or r.get("doc_name") or "")] for r in rows]


def _gated(rec: Mapping[str, Any], gates: Mapping[str, float]) -> str:
    label = str(rec["label"])
    if label == "abstained":
        return label
    score = float(rec.get("confidence") or 0.0)
    return "abstained" if score < gates.get(str(rec.get("mode")), 0.0) else label


def _utility(records: Iterable[Mapping[str, Any]], gates: Mapping[str, float]) -> float:
    c = Counter(_gated(r, gates) for r in records)
    return c["correct"] - WRONG_COST * c["wrong"]


def choose_gates(train: Sequence[Mapping[str, Any]]) -> dict[str, float]:
    """Per answer mode, the lowest confidence gate maximising correct - WRONG_COST * wrong."""
    gates: dict[str, float] = {}
    by_mode: dict[str, list[Mapping[str, Any]]] = defaultdict(list)
    for r in train:
        by_mode[str(r.get("mode"))].append(r)
    for mode, recs in sorted(by_mode.items()):
        best = max(GATE_GRID, key=lambda g: (_utility(recs, {mode: g}), -g))
        gates[mode] = best
    return gates


def apply_gates(
    records: Sequence[Mapping[str, Any]], gates: Mapping[str, float]
) -> list[dict[str, Any]]:
    """The records with labels after withholding answers below their mode's gate."""
    return [{**r, "label": _gated(r, gates)} for r in records]


def crossvalidate(
    records: Sequence[Mapping[str, Any]], folds: Sequence[int], k: int
) -> tuple[list[dict[str, Any]], list[dict[str, float]]]:
    """Out-of-fold gated records (in input order) and the gates chosen for each fold."""
    out: list[dict[str, Any]] = [dict(r) for r in records]
    chosen: list[dict[str, float]] = []
    for f in range(k):
        train = [r for r, g in zip(records, folds, strict=True) if g != f]
        gates = choose_gates(train)
        chosen.append(gates)
        for i, g in enumerate(folds):
            if g == f:
                out[i] = {**records[i], "label": _gated(records[i], gates), "fold": f}
    return out, chosen


def counts_by_type(records: Iterable[Mapping[str, Any]]) -> dict[str, Counter[str]]:
    counts: dict[str, Counter[str]] = defaultdict(Counter)
    for r in records:
        counts[str(r.get("question_type"))][str(r["label"])] += 1
        counts["all"][str(r["label"])] += 1
    return counts


def table(records: Iterable[Mapping[str, Any]], title: str) -> list[str]:
    counts = counts_by_type(records)
    lines = [title, f"{'question type':<20} {'n':>4} " + " ".join(f"{x:>14}" for x in LABELS)]
    for qtype in (*TYPES, "all"):
        c = counts.get(qtype)
        if not c:
            continue
        n = sum(c.values())
        cells = " ".join(f"{c[x]:>4} ({100 * c[x] / n:5.1f}%)" for x in LABELS)
        lines.append(f"{qtype:<20} {n:>4} {cells}")
    return lines


def _summary(records: Iterable[Mapping[str, Any]]) -> dict[str, dict[str, float]]:
    out: dict[str, dict[str, float]] = {}
    for qtype, c in counts_by_type(records).items():
        n = sum(c.values())
        out[qtype] = {"n": n, **{x: round(c[x] / n, 4) for x in LABELS}}
    return out


def run(args: argparse.Namespace) -> int:
    from finqa.agents.config import load_settings
    from finqa.agents.logs import configure_logging
    from finqa.benchmarks.questions import read_rows
    from finqa.benchmarks.reasoning_eval import run_offline

    if not args.questions.exists():
        print(f"error: questions file not found: {args.questions}", file=sys.stderr)
        return 2
    rows = read_rows(args.questions, limit=args.limit)
    folds = company_folds(rows, args.folds)
    configure_logging("warning")
    modes = ("oracle", "single") if args.evidence == "both" else (args.evidence,)
    summary: dict[str, Any] = {"folds": args.folds, "questions": len(rows), "modes": {}}
    for ev_mode in modes:
        overrides: dict[str, Any] = {}
        if ev_mode == "single":
            ready = Path(f"{args.index}.READY").exists() or (args.index / "READY").exists()
            if not ready and not (args.allow_unready and (args.index / "index.json").exists()):
                print(
                    f"error: index {args.index} is not ready ({args.index}.READY missing); "
                    "build it first or pass --evidence oracle",
                    file=sys.stderr,
                )
                return 2
            overrides["index.path"] = str(args.index)
        settings = load_settings(args.config, overrides=overrides)
        out = args.out / f"{ev_mode}.jsonl"
        records = run_offline(
            rows,
            "oracle" if ev_mode == "oracle" else "retrieval",
            settings,
            1,
            out,
            escalate=ev_mode == "single",
            resume=not args.fresh,
            statements=None if args.no_statements else args.index,
        )
        oof, gates = crossvalidate(records, folds, args.folds)
        name = "oracle evidence" if ev_mode == "oracle" else f"single store ({args.index})"
        print()
        print("\n".join(table(records, f"offline backend, {name}: as built (nothing chosen)")))
        print()
        print("\n".join(table(oof, f"offline backend, {name}: out-of-fold, gates chosen on training folds")))  # fmt: skip
        for f, g in enumerate(gates):
            print(f"  fold {f}: gates {json.dumps(g, sort_keys=True)}")
        summary["modes"][ev_mode] = {
            "as_built": _summary(records),
            "out_of_fold": _summary(oof),
            "gates": gates,
            "results": str(out),
        }
    (args.out / "summary.json").write_text(json.dumps(summary, indent=2) + "\n", encoding="utf-8")
    print(f"\nwrote {args.out}/summary.json")
    return 0


def main(argv: list[str] | None = None) -> int:
    from finqa.benchmarks.reasoning_eval import DEFAULT_INDEX, DEFAULT_QUESTIONS

    p = argparse.ArgumentParser(
        prog="python -m finqa.benchmarks.crossval", description=(__doc__ or "").split("\n")[0]
    )
    p.add_argument("--questions", type=Path, default=DEFAULT_QUESTIONS)
    p.add_argument("--evidence", choices=("oracle", "single", "both"), default="both")
    p.add_argument("--index", type=Path, default=DEFAULT_INDEX)
    p.add_argument("--folds", type=int, default=5)
    p.add_argument("--limit", type=int, default=None)
    p.add_argument("--config", default=None)
    p.add_argument("--out", type=Path, default=Path("/work/var/crossval"))
    p.add_argument("--fresh", action="store_true", help="re-run questions already in --out")
    p.add_argument("--allow-unready", action="store_true", help="use an index without .READY")
    p.add_argument(
        "--no-statements",
        action="store_true",
        help="the reasoner reads the evidence text only (not --index's statement model)",
    )
    args = p.parse_args(argv)
    if args.folds < 2:
        print("error: --folds must be at least 2", file=sys.stderr)
        return 2
    args.out.mkdir(parents=True, exist_ok=True)
    return run(args)


if __name__ == "__main__":
    raise SystemExit(main())
