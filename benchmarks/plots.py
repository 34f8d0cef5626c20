"""PNG plots of a benchmark run (matplotlib, Agg backend; imported lazily)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

__all__ = ["write_plots"]

_FLOW_ORDER = (
    ("correct", "correct", "#2e7d32"),
    ("wrong", "correct", "#66bb6a"),
    ("abstained", "correct", "#a5d6a7"),
    ("correct", "wrong", "#c62828"),
    ("correct", "abstained", "#ef9a9a"),
    ("wrong", "wrong", "#e57373"),
    ("abstained", "abstained", "#bdbdbd"),
)


def write_plots(
    out_dir: str | Path,
    summary: Mapping[str, Any],
    details: Mapping[str, Mapping[str, Any]],
    records_by_mode: Mapping[str, Sequence[Mapping[str, Any]]],
) -> list[str]:
    """Write accuracy.png, correction_flow.png and latency.png; return their file names."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    out = Path(out_dir)
    names = []
    modes = list(summary["modes"])

    # Accuracy by mode and type, with 95% bootstrap intervals.
    types = ["overall", *sorted({t for s in summary["modes"].values() for t in s["by_type"]})]
    fig, ax = plt.subplots(figsize=(max(6.0, 1.6 * len(types) + 2), 4.2))
    width = 0.8 / max(1, len(modes))
    for i, mode in enumerate(modes):
        s = summary["modes"][mode]
        blocks = [s] + [s["by_type"].get(t, {}) for t in types[1:]]
        acc = [100 * (b.get("accuracy") or 0.0) for b in blocks]
        err_lo, err_hi = [], []
        for b, a in zip(blocks, acc, strict=True):
            ci = b.get("accuracy_ci") or [a / 100, a / 100]
            err_lo.append(max(0.0, a - 100 * ci[0]))
            err_hi.append(max(0.0, 100 * ci[1] - a))
        xs = [j + (i - (len(modes) - 1) / 2) * width for j in range(len(types))]
        ax.bar(xs, acc, width, label=mode, yerr=[err_lo, err_hi], capsize=3)
    ax.set_xticks(range(len(types)), types)
    ax.set_ylabel("accuracy (%)")
    ax.set_ylim(0, 105)
    ax.set_title(f"Accuracy by mode and question type ({summary['store']} store, 95% CI)")
    ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    fig.tight_layout()
    fig.savefig(out / "accuracy.png", dpi=110)
    plt.close(fig)
    names.append("accuracy.png")

    # Correction flow: attempt-1 grade -> final grade, stacked per mode.
    fig, ax = plt.subplots(figsize=(max(6.0, 1.3 * len(modes) + 3), 4.2))
    bottoms = [0.0] * len(modes)
    for first, final, color in _FLOW_ORDER:
        key = f"{first}->{final}"
        vals = [float(details.get(m, {}).get("correction_flow", {}).get(key, 0)) for m in modes]
        ax.bar(modes, vals, bottom=bottoms, color=color, label=f"{first} → {final}")
        bottoms = [b + v for b, v in zip(bottoms, vals, strict=True)]
    rest = [
        float(sum(details.get(m, {}).get("correction_flow", {}).values())) - b
        for m, b in zip(modes, bottoms, strict=True)
    ]
    ax.bar(modes, rest, bottom=bottoms, color="#90a4ae", label="other (ungraded, ...)")
    ax.set_ylabel("questions")
    ax.set_title("Correction flow: attempt-1 grade → final grade")
    ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    plt.setp(ax.get_xticklabels(), rotation=20, ha="right")
    fig.tight_layout()
    fig.savefig(out / "correction_flow.png", dpi=110)
    plt.close(fig)
    names.append("correction_flow.png")

    # Latency distribution per mode.
    fig, ax = plt.subplots(figsize=(max(6.0, 1.3 * len(modes) + 2), 4.2))
    data = [
        [
            float((r.get("timings") or {}).get("latency_s") or 0.0)
            for r in records_by_mode.get(m, [])
        ]
        or [0.0]
        for m in modes
    ]
    ax.boxplot(data, showfliers=True)
    ax.set_xticks(range(1, len(modes) + 1), modes)
    ax.set_ylabel("latency per question (s)")
    ax.set_title("Latency distribution")
    plt.setp(ax.get_xticklabels(), rotation=20, ha="right")
    fig.tight_layout()
    fig.savefig(out / "latency.png", dpi=110)
    plt.close(fig)
    names.append("latency.png")
    return names
