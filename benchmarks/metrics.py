"""Benchmark metrics from result records: accuracy with bootstrap CIs, loop and retrieval metrics.

A record is one line of `results.jsonl` (one question x mode). Rates are over all questions of a
mode (accuracy = correct / N, so ungraded and failed questions count as not correct); the
"incorrect" side of the loop metrics is `wrong` or `abstained` at attempt 1, ungraded excluded.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

__all__ = [
    "bootstrap_ci",
    "mode_summary",
    "mode_details",
    "summarize",
    "percentile",
    "LABELS",
]

LABELS = ("correct", "wrong", "abstained", "ungraded")
Record = Mapping[str, Any]


def bootstrap_ci(
    values: Sequence[float], *, n_boot: int = 2000, seed: int = 0, level: float = 0.95
) -> list[float] | None:
    """Percentile bootstrap interval of the mean of `values` (seeded, so reruns agree)."""
    if not values:
        return None
    arr = np.asarray(values, dtype=float)
    rng = np.random.default_rng(seed)
    means = arr[rng.integers(0, len(arr), size=(n_boot, len(arr)))].mean(axis=1)
    alpha = (1.0 - level) / 2.0
    lo, hi = np.quantile(means, [alpha, 1.0 - alpha])
    return [round(float(lo), 4), round(float(hi), 4)]


def percentile(values: Sequence[float], q: float) -> float | None:
    return round(float(np.percentile(np.asarray(values, dtype=float), q)), 4) if values else None


def _rate(num: int, den: int) -> float | None:
    return round(num / den, 4) if den else None


def _label(record: Record) -> str:
    grade = record.get("grade") or {}
    return str(grade.get("label", "ungraded"))


def _first_label(record: Record) -> str:
    attempts = record.get("attempts") or []
    if attempts and attempts[0].get("grade"):
        return str(attempts[0]["grade"]["label"])
    return _label(record)


def _first_decision(record: Record) -> str | None:
    attempts = record.get("attempts") or []
    return str(attempts[0].get("decision")) if attempts and attempts[0].get("decision") else None


def _latency_s(record: Record) -> float:
    timings = record.get("timings") or {}
    return float(timings.get("latency_s") or timings.get("wall_s") or 0.0)


def _accuracy_block(records: Sequence[Record], seed: int) -> dict[str, Any]:
    labels = [_label(r) for r in records]
    n = len(labels)
    correct = [1.0 if lab == "correct" else 0.0 for lab in labels]
    return {
        "n": n,
        "accuracy": _rate(labels.count("correct"), n),
        "accuracy_ci": bootstrap_ci(correct, seed=seed),
        "wrong_rate": _rate(labels.count("wrong"), n),
        "abstain_rate": _rate(labels.count("abstained"), n),
    }


def mode_summary(records: Sequence[Record], *, seed: int = 0) -> dict[str, Any]:
    """The per-mode block of `summary.json` (exactly the keys of the issue's shape)."""
    n = len(records)
    labels = [_label(r) for r in records]
    first = [_first_label(r) for r in records]
    block = _accuracy_block(records, seed)
    types = sorted({str(r.get("type", "unknown")) for r in records})
    by_type = {
        t: _accuracy_block([r for r in records if str(r.get("type", "unknown")) == t], seed)
        for t in types
    }
    incorrect_first = [i for i, lab in enumerate(first) if lab in ("wrong", "abstained")]
    correct_first = [i for i, lab in enumerate(first) if lab == "correct"]
    decisions = [_first_decision(r) for r in records]
    tp_den = [i for i in incorrect_first if decisions[i] is not None]
    fp_den = [i for i in correct_first if decisions[i] is not None]
    latencies = [_latency_s(r) for r in records]
    return {
        "accuracy": block["accuracy"],
        "accuracy_ci": block["accuracy_ci"],
        "by_type": by_type,
        "wrong_rate": block["wrong_rate"],
        "abstain_rate": block["abstain_rate"],
        "acceptance_rate": _rate(sum(1 for r in records if r.get("status") == "accepted"), n),
        "lazarus_rate": _rate(
            sum(1 for i in incorrect_first if labels[i] == "correct"), len(incorrect_first)
        ),
        "judge_tpr": _rate(sum(1 for i in tp_den if decisions[i] == "retry"), len(tp_den)),
        "judge_fpr": _rate(sum(1 for i in fp_den if decisions[i] == "retry"), len(fp_den)),
        "attempts_mean": _mean([len(r.get("attempts") or []) for r in records]),
        "llm_calls_mean": _mean([float(r.get("llm_calls") or 0) for r in records]),
        "latency_s_p50": percentile(latencies, 50),
        "latency_s_p95": percentile(latencies, 95),
    }


def _mean(values: Sequence[float]) -> float | None:
    return round(float(np.mean(values)), 4) if len(values) else None


def mode_details(records: Sequence[Record], *, seed: int = 0) -> dict[str, Any]:
    """Everything else worth reporting for a mode (goes to metrics.json and report.md)."""
    n = len(records)
    labels = [_label(r) for r in records]
    first = [_first_label(r) for r in records]
    flow = Counter(f"{a}->{b}" for a, b in zip(first, labels, strict=True))
    kinds: dict[str, dict[str, int]] = {}
    for r, lab in zip(records, labels, strict=True):
        kind = str((r.get("grade") or {}).get("kind", "text"))
        row = kinds.setdefault(kind, dict.fromkeys(LABELS, 0))
        row[lab] = row.get(lab, 0) + 1
    recall_first = [_recall(r, "first") for r in records]
    recall_final = [_recall(r, "final") for r in records]
    recall_best = [_recall(r, "best") for r in records]
    wrong_idx = [i for i, lab in enumerate(labels) if lab in ("wrong", "abstained")]
    with_gold = [i for i in wrong_idx if (recall_final[i] or 0.0) > 0.0]
    without_gold = [i for i in wrong_idx if recall_final[i] == 0.0]
    llm_scores = [
        float(r["llm_grade"]["score"])
        for r in records
        if isinstance(r.get("llm_grade"), Mapping) and r["llm_grade"].get("score") is not None
    ]
    tokens = [
        float(r.get("prompt_tokens") or 0) + float(r.get("completion_tokens") or 0) for r in records
    ]
    return {
        "n": n,
        "counts": {lab: labels.count(lab) for lab in LABELS},
        "first_counts": {lab: first.count(lab) for lab in LABELS},
        "failed": sum(1 for r in records if r.get("error")),
        "graded_accuracy": _rate(labels.count("correct"), n - labels.count("ungraded")),
        "correction_flow": dict(sorted(flow.items())),
        "by_kind": kinds,
        "tokens_mean": _mean(tokens),
        "tokens_total": int(sum(tokens)),
        "page_recall_first": _mean([x for x in recall_first if x is not None]),
        "page_recall_final": _mean([x for x in recall_final if x is not None]),
        "page_recall_best": _mean([x for x in recall_best if x is not None]),
        "wrong_gold_page_retrieved": len(with_gold),
        "wrong_gold_page_missing": len(without_gold),
        "llm_grader_mean": _mean(llm_scores),
        "llm_grader_ci": bootstrap_ci(llm_scores, seed=seed),
        "llm_grader_n": len(llm_scores),
    }


def _recall(record: Record, which: str) -> float | None:
    attempts = [a for a in record.get("attempts") or [] if a.get("page_recall") is not None]
    if not attempts:
        return None
    if which == "first":
        return float(attempts[0]["page_recall"])
    if which == "best":
        return max(float(a["page_recall"]) for a in attempts)
    best = record.get("best_attempt")
    chosen = next((a for a in attempts if a.get("attempt") == best), attempts[-1])
    return float(chosen["page_recall"])


def summarize(
    records_by_mode: Mapping[str, Sequence[Record]],
    *,
    questions: int,
    store: str,
    seed: int = 0,
) -> dict[str, Any]:
    """`summary.json`: `{"questions": N, "store": ..., "modes": {mode: mode_summary}}`."""
    return {
        "questions": questions,
        "store": store,
        "modes": {m: mode_summary(rs, seed=seed) for m, rs in records_by_mode.items()},
    }
