"""report.md: the paper-shaped tables (main result, per type, correction flow, ablation, retrieval)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

__all__ = ["render_report", "main_table"]

_ABLATIONS = (
    "no-prompt-escalation",
    "no-retrieval-escalation",
    "no-deterministic-verify",
    "budget-1",
)


def _pct(x: float | None) -> str:
    return "–" if x is None else f"{100 * x:.1f}%"


def _num(x: float | None, digits: int = 2) -> str:
    return "–" if x is None else f"{x:.{digits}f}"


def _ci(block: Mapping[str, Any]) -> str:
    ci = block.get("accuracy_ci")
    acc = _pct(block.get("accuracy"))
    return f"{acc} [{100 * ci[0]:.1f}–{100 * ci[1]:.1f}]" if ci else acc


def _table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> list[str]:
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return lines


def main_table(summary: Mapping[str, Any], details: Mapping[str, Mapping[str, Any]]) -> list[str]:
    """Main result: one row per mode."""
    rows = []
    for mode, s in summary["modes"].items():
        d = details.get(mode, {})
        counts = d.get("counts", {})
        rows.append([
            mode, _ci(s), _pct(d.get("graded_accuracy")), _pct(s["wrong_rate"]),
            _pct(s["abstain_rate"]), str(counts.get("ungraded", "–")), _pct(s["acceptance_rate"]),
            _num(s["attempts_mean"]), _num(s["llm_calls_mean"]), _num(d.get("tokens_mean"), 0),
            f"{_num(s['latency_s_p50'])} / {_num(s['latency_s_p95'])}",
        ])  # fmt: skip
    header = [
        "mode", "accuracy [95% CI]", "acc. of graded", "wrong", "abstained", "ungraded", "accepted",
        "attempts/q", "LLM calls/q", "tokens/q", "latency s p50 / p95",
    ]  # fmt: skip
    return _table(header, rows)


def _type_table(summary: Mapping[str, Any]) -> list[str]:
    modes = list(summary["modes"])
    types = sorted({t for s in summary["modes"].values() for t in s["by_type"]})
    rows = []
    for t in types:
        row = [t, str(next((s["by_type"][t]["n"] for s in summary["modes"].values()
                            if t in s["by_type"]), 0))]  # fmt: skip
        for mode in modes:
            block = summary["modes"][mode]["by_type"].get(t)
            row.append(
                f"{_ci(block)}; wrong {_pct(block['wrong_rate'])}, abst. {_pct(block['abstain_rate'])}"
                if block
                else "–"
            )
        rows.append(row)
    return _table(["question type", "n", *modes], rows)


def _flow_table(summary: Mapping[str, Any], details: Mapping[str, Mapping[str, Any]]) -> list[str]:
    transitions = (
        ("correct", "correct"), ("wrong", "correct"), ("abstained", "correct"),
        ("correct", "wrong"), ("correct", "abstained"), ("wrong", "wrong"),
        ("wrong", "abstained"), ("abstained", "wrong"), ("abstained", "abstained"),
    )  # fmt: skip
    header = ["mode", *(f"{a}→{b}" for a, b in transitions), "other", "Lazarus", "TPR", "FPR"]
    rows = []
    for mode, s in summary["modes"].items():
        flow = details.get(mode, {}).get("correction_flow", {})
        named = [flow.get(f"{a}->{b}", 0) for a, b in transitions]
        other = sum(flow.values()) - sum(named)
        rows.append([
            mode, *(str(n) for n in named), str(other), _pct(s["lazarus_rate"]),
            _pct(s["judge_tpr"]), _pct(s["judge_fpr"]),
        ])  # fmt: skip
    return _table(header, rows)


def _ablation_table(summary: Mapping[str, Any]) -> list[str]:
    modes = summary["modes"]
    ref = modes.get("self-improving")
    rows = []
    for mode in ("self-improving", *_ABLATIONS, "single-pass"):
        s = modes.get(mode)
        if s is None:
            continue
        delta = "–"
        if ref is not None and s["accuracy"] is not None and ref["accuracy"] is not None:
            delta = f"{100 * (s['accuracy'] - ref['accuracy']):+.1f} pt"
        rows.append([
            mode, _ci(s), delta, _pct(s["wrong_rate"]), _pct(s["lazarus_rate"]),
            _num(s["attempts_mean"]),
        ])  # fmt: skip
    return _table(["configuration", "accuracy [95% CI]", "Δ vs full", "wrong", "Lazarus",
                   "attempts/q"], rows)  # fmt: skip


def _retrieval_table(details: Mapping[str, Mapping[str, Any]]) -> list[str]:
    rows = [
        [
            mode, _num(d.get("page_recall_first")), _num(d.get("page_recall_final")),
            _num(d.get("page_recall_best")), str(d.get("wrong_gold_page_retrieved", 0)),
            str(d.get("wrong_gold_page_missing", 0)),
        ]
        for mode, d in details.items()
    ]  # fmt: skip
    header = [
        "mode", "page recall@k attempt 1", "final attempt", "best attempt",
        "wrong/abstained with a gold page (reasoning)", "without (retrieval)",
    ]  # fmt: skip
    return _table(header, rows)


def _kind_table(details: Mapping[str, Mapping[str, Any]]) -> list[str]:
    rows = []
    for mode, d in details.items():
        for kind, counts in sorted(d.get("by_kind", {}).items()):
            rows.append([mode, kind, *(str(counts.get(k, 0)) for k in
                                       ("correct", "wrong", "abstained", "ungraded"))])  # fmt: skip
    return _table(["mode", "gold kind", "correct", "wrong", "abstained", "ungraded"], rows)


def render_report(
    summary: Mapping[str, Any],
    details: Mapping[str, Mapping[str, Any]],
    *,
    title: str = "FinanceBench",
    meta: Mapping[str, Any] | None = None,
    plots: Sequence[str] = (),
) -> str:
    """The whole report.md text."""
    meta = dict(meta or {})
    out = [f"# {title} — {summary['store']} store, {summary['questions']} questions", ""]
    if meta:
        out += [f"- {k}: {v}" for k, v in meta.items()] + [""]
    out += [
        "Deterministic grading (numbers unit- and scale-aware within 1% relative or the gold's "
        "rounding; yes/no on the leading word; other text correct only on a clear key-number or "
        "entity match, otherwise *ungraded*). Accuracy is over all questions; 95% bootstrap "
        "intervals. A wrong answer is worse than an abstention: both are reported.",
        "",
        "## Main result",
        "",
        *main_table(summary, details),
        "",
        "## Accuracy by question type",
        "",
        *_type_table(summary),
        "",
        "## Correction flow (attempt-1 grade → final grade)",
        "",
        "Lazarus = share of questions wrong or abstained after attempt 1 that are correct at the "
        "end. Judge TPR = P(retry | attempt 1 incorrect), FPR = P(retry | attempt 1 correct) (in "
        "single-pass the judge still decides, but no retry follows).",
        "",
        *_flow_table(summary, details),
        "",
        "## Ablation",
        "",
        *_ablation_table(summary),
        "",
        "## Retrieval (page recall of each attempt's evidence vs the gold evidence pages)",
        "",
        *_retrieval_table(details),
        "",
        "## Grades by kind of gold answer",
        "",
        *_kind_table(details),
        "",
    ]
    graded = {m: d for m, d in details.items() if d.get("llm_grader_n")}
    if graded:
        rows = [
            [m, _num(d["llm_grader_mean"], 3),
             f"[{d['llm_grader_ci'][0]:.3f}–{d['llm_grader_ci'][1]:.3f}]" if d.get("llm_grader_ci")
             else "–", str(d["llm_grader_n"])]
            for m, d in graded.items()
        ]  # fmt: skip
        out += [
            "## Oracle-guided LLM grading (0 / 0.5 / 1, sees the gold answer; not the blind judge)",
            "",
            *_table(["mode", "mean score", "95% CI", "n"], rows),
            "",
        ]
    if plots:
        out += ["## Plots", ""] + [f"![{p}]({p})" for p in plots] + [""]
    return "\n".join(out)
