"""The LLM path on a real model: a fixed stratified subset, and one table over several runs.

    python -m finqa.benchmarks.llm_path subset --questions ../shared/financebench/questions.jsonl \\
        --out /work/var/llm-bench/subset.jsonl            # 30 questions, 10 per question type
    finqa bench financebench --questions SUBSET --index IDX --out RUN_DIR \\
        --mode single-pass,self-improving --config configs/local-llm.yaml   # hybrid (FINQA_LLM__BACKEND=openai: the model alone)
    python -m finqa.benchmarks.llm_path table RUN_DIR... [--out table.md]

The subset is chosen without looking at answers: per question type, questions ordered by a hash of
their id, at most one per company until every company of that type is used. The table adds to
each run's summary what only the audit log knows: structured-output validity (the reply parsed as
JSON and validated against the reply schema), which backend answered (hybrid), and accuracy per
prompt strategy of the attempt that produced the final answer. The subset is derived at run time
from the questions file (the same questions file gives the same ids in the same order; `--ids
FILE` pins a list kept elsewhere); the subset file is written under `--out`, never into the
repository (FinanceBench is CC BY-NC), and its ids are printed so a note can name them.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from finqa.benchmarks.llm_answers import audit_records

__all__ = [
    "select_subset",
    "subset_ids",
    "run_table",
    "first_attempt_run",
    "main",
]


def _h(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def select_subset(rows: Sequence[Mapping[str, Any]], n: int = 30) -> list[Mapping[str, Any]]:
    """`n` questions stratified by question type (equal shares), spread over companies."""
    by_type: dict[str, list[Mapping[str, Any]]] = defaultdict(list)
    for row in rows:
        by_type[str(row.get("question_type") or "unknown")].append(row)
    types = sorted(by_type)
    share = {t: n // len(types) + (1 if i < n % len(types) else 0) for i, t in enumerate(types)}
    chosen: list[list[Mapping[str, Any]]] = []
    for t in types:
        pool = sorted(by_type[t], key=lambda r: _h(str(r.get("financebench_id"))))
        picked: list[Mapping[str, Any]] = []
        used: set[str] = set()
        for pass_no in (0, 1):
            for row in pool:
                if len(picked) >= share[t]:
                    break
                company = str(row.get("company"))
                if row in picked or (pass_no == 0 and company in used):
                    continue
                picked.append(row)
                used.add(company)
        chosen.append(picked)
    # round-robin over types: any prefix of the file is itself stratified (a partial run of a
    # long benchmark still covers every type)
    out: list[Mapping[str, Any]] = []
    for i in range(max((len(p) for p in chosen), default=0)):
        out.extend(p[i] for p in chosen if i < len(p))
    return out


def subset_ids(path: Path) -> list[str]:
    """FinanceBench ids listed one per line in `path` (`#` comments), in run order."""
    lines = (x.strip() for x in path.read_text(encoding="utf-8").splitlines())
    return [x for x in lines if x and not x.startswith("#")]


def _reasoning_records(audit_dir: Path) -> list[Mapping[str, Any]]:
    return [
        {**rec, "_mode": mode}
        for mode, rec in audit_records(audit_dir)
        if rec.get("event") == "reasoning"
    ]


def _rate(k: int, n: int) -> float | None:
    return round(k / n, 4) if n else None


def run_row(run_dir: Path) -> list[dict[str, Any]]:
    """One table row per mode of a `finqa bench financebench` output directory."""
    summary = json.loads((run_dir / "summary.json").read_text(encoding="utf-8"))
    metrics = json.loads((run_dir / "metrics.json").read_text(encoding="utf-8"))
    results = [json.loads(x) for x in (run_dir / "results.jsonl").read_text().splitlines() if x]
    reasoning = _reasoning_records(run_dir / "audit")
    backend = str(metrics.get("meta", {}).get("llm backend", "?"))
    rows = []
    for mode, block in summary["modes"].items():
        mine = [r for r in results if r.get("mode") == mode]
        recs = [r for r in reasoning if r["_mode"] == mode]
        llm = [r for r in recs if r.get("scores", {}).get("calls")]
        conf = [r.get("data", {}).get("confidence", {}) for r in llm]
        answered_ok = [c for c in conf if c.get("mode") != "llm-error"]
        valid = sum(1 for c in answered_ok if c.get("schema_valid"))
        formats = Counter(str(c.get("response_format")) for c in answered_ok)
        by = Counter(str(r.get("data", {}).get("confidence", {}).get("answered_by")) for r in recs)
        n = len(mine)
        labels = [str((r.get("grade") or {}).get("label")) for r in mine]
        wrong_accepted = sum(
            1
            for r, lab in zip(mine, labels, strict=True)
            if lab == "wrong" and r.get("status") == "accepted"
        )
        per_strategy: dict[str, list[int]] = defaultdict(lambda: [0, 0])
        for r, lab in zip(mine, labels, strict=True):
            best = next(
                (a for a in r.get("attempts") or [] if a.get("attempt") == r.get("best_attempt")),
                None,
            )
            if best is not None:
                cell = per_strategy[str(best.get("strategy"))]
                cell[0] += lab == "correct"
                cell[1] += 1
        every: dict[str, list[int]] = defaultdict(lambda: [0, 0])  # every attempt, by strategy
        for r in mine:
            for a in r.get("attempts") or []:
                cell = every[str(a.get("strategy"))]
                cell[0] += (a.get("grade") or {}).get("label") == "correct"
                cell[1] += 1
        details = metrics["modes"].get(mode, {})
        tokens = [
            float(r.get("prompt_tokens") or 0) + float(r.get("completion_tokens") or 0)
            for r in mine
        ]
        rows.append(
            {
                "run": run_dir.name,
                "backend": backend,
                "mode": mode,
                "n": n,
                "accuracy": block.get("accuracy"),
                "wrong": block.get("wrong_rate"),
                "abstained": block.get("abstain_rate"),
                "failed": details.get("failed"),
                "schema_valid": _rate(valid, len(answered_ok)),
                "llm_replies": len(answered_ok),
                "llm_errors": len(conf) - len(answered_ok),
                "formats": dict(formats),
                "lazarus": block.get("lazarus_rate"),
                "judge_tpr": block.get("judge_tpr"),
                "judge_fpr": block.get("judge_fpr"),
                "wrong_accepted": _rate(wrong_accepted, n),
                "llm_calls_per_q": block.get("llm_calls_mean"),
                "tokens_per_q": round(sum(tokens) / n, 1) if n else None,
                "latency_p50_s": block.get("latency_s_p50"),
                "latency_p95_s": block.get("latency_s_p95"),
                "answered_by": dict(by),
                "accuracy_by_final_strategy": {
                    s: f"{c}/{t}" for s, (c, t) in sorted(per_strategy.items())
                },
                "accuracy_per_attempt_strategy": {
                    s: f"{c}/{t}" for s, (c, t) in sorted(every.items())
                },
            }
        )
    return rows


_COLS = [
    "run",
    "backend",
    "mode",
    "n",
    "accuracy",
    "wrong",
    "abstained",
    "failed",
    "schema_valid",
    "lazarus",
    "judge_tpr",
    "judge_fpr",
    "wrong_accepted",
    "llm_calls_per_q",
    "tokens_per_q",
    "latency_p50_s",
    "latency_p95_s",
]


def run_table(run_dirs: Sequence[Path]) -> tuple[str, list[dict[str, Any]]]:
    """A markdown table (plus the rows) over the given run directories."""
    rows = [row for d in run_dirs if (d / "summary.json").exists() for row in run_row(d)]
    lines = ["| " + " | ".join(_COLS) + " |", "|" + "---|" * len(_COLS)]
    for row in rows:
        lines.append("| " + " | ".join("" if row[c] is None else str(row[c]) for c in _COLS) + " |")
    lines.append("")
    for row in rows:
        lines.append(
            f"- {row['run']} / {row['mode']}: response formats {row['formats']}, LLM errors "
            f"{row['llm_errors']}, answered by {row['answered_by']}, correct attempts per "
            f"strategy {row['accuracy_per_attempt_strategy']}, correct final answers by the "
            f"strategy that produced them {row['accuracy_by_final_strategy']}"
        )
    return "\n".join(lines) + "\n", rows


def first_attempt_run(src: Path, dst: Path) -> int:
    """Write `dst` as the single-pass run that attempt 1 of the self-improving run `src` was.

    Valid only when generation is deterministic (temperature 0, one request at a time): check
    it against a real single-pass run on a few questions first. Each question keeps attempt 1
    only (its answer, judge decision, calls, tokens and latency); the status is what a budget
    of 0 gives (accepted when the judge accepted, abstained when the answer abstained, else
    best_effort); the audit's attempt-1 reasoning records go to dst/audit/single-pass.jsonl.
    Run `finqa bench financebench` on dst afterwards (nothing is pending) for summary.json.
    Returns the number of questions written."""
    abstained: dict[tuple[Any, Any], bool] = {}
    (dst / "audit").mkdir(parents=True, exist_ok=True)
    kept = []
    for rec in _reasoning_records(src / "audit"):
        if rec.get("_mode") == "self-improving" and rec.get("attempt") == 1:
            key = (rec.get("run_id"), rec.get("question_id"))
            abstained[key] = bool((rec.get("data") or {}).get("abstained"))
            kept.append({k: v for k, v in rec.items() if k != "_mode"})
    (dst / "audit" / "single-pass.jsonl").write_text(
        "".join(json.dumps(r) + "\n" for r in kept), encoding="utf-8"
    )
    rows = []
    for line in (src / "results.jsonl").read_text(encoding="utf-8").splitlines():
        r = json.loads(line) if line.strip() else {}
        if r.get("mode") != "self-improving" or not r.get("attempts") or r.get("error"):
            continue
        a = dict(r["attempts"][0])
        if abstained.get((r.get("run_id"), r.get("id"))):
            status = "abstained"
        else:
            status = "accepted" if a.get("decision") == "accept" else "best_effort"
        latency = round(float(a.get("latency_ms") or 0.0) / 1000.0, 4)
        rows.append(
            {
                **r,
                "mode": "single-pass",
                "answer": a.get("answer", ""),
                "status": status,
                "utility": a.get("utility"),
                "best_attempt": 1,
                "attempts": [a],
                "timings": {"latency_s": latency, "wall_s": latency},
                "llm_calls": a.get("llm_calls") or 0,
                "prompt_tokens": a.get("prompt_tokens") or 0,
                "completion_tokens": a.get("completion_tokens") or 0,
                "derived_from": f"{src.name} attempt 1",
            }
        )
    (dst / "results.jsonl").write_text(
        "".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8"
    )
    return len(rows)


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m finqa.benchmarks.llm_path", description=__doc__)
    sub = p.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("subset", help="write the fixed stratified subset as JSONL")
    s.add_argument("--questions", required=True)
    s.add_argument("--out", required=True)
    s.add_argument("-n", type=int, default=30, help="how many (stratified by question type)")
    s.add_argument("--ids", default=None,
                   help="a file of ids (one per line) to take instead of selecting")  # fmt: skip
    t = sub.add_parser("table", help="one table over `finqa bench financebench` output dirs")
    t.add_argument("runs", nargs="+")
    t.add_argument("--out", default=None)
    f = sub.add_parser(
        "first-attempt", help="a single-pass run dir from attempt 1 of a self-improving run"
    )
    f.add_argument("src")
    f.add_argument("--out", required=True)
    args = p.parse_args(argv)
    if args.cmd == "first-attempt":
        n = first_attempt_run(Path(args.src), Path(args.out))
        print(f"wrote {n} single-pass question(s) from attempt 1 of {args.src} to {args.out}")
        return 0
    if args.cmd == "subset":
        rows = [json.loads(x) for x in Path(args.questions).read_text().splitlines() if x.strip()]
        if not args.ids:
            chosen = select_subset(rows, args.n)
        else:
            by_id = {str(r.get("financebench_id")): r for r in rows}
            wanted = subset_ids(Path(args.ids))
            absent = [i for i in wanted if i not in by_id]
            if absent:
                print(f"error: {len(absent)} subset id(s) not in {args.questions}: "
                      f"{', '.join(absent[:5])}", file=sys.stderr)  # fmt: skip
                return 2
            chosen = [by_id[i] for i in wanted]
        out = Path(args.out)
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text("".join(json.dumps(r) + "\n" for r in chosen), encoding="utf-8")
        counts = Counter(str(r.get("question_type")) for r in chosen)
        print(f"wrote {len(chosen)} questions to {out}: {dict(sorted(counts.items()))}")
        print(" ".join(str(r.get("financebench_id")) for r in chosen))
        return 0
    text, rows = run_table([Path(r) for r in args.runs])
    if args.out:
        Path(args.out).write_text(text, encoding="utf-8")
        Path(args.out).with_suffix(".json").write_text(json.dumps(rows, indent=2) + "\n")
    sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
