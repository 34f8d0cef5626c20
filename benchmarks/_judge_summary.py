"""Judge acceptance figures: correct answers accepted and wrong answers accepted, overall, per
question type, per failure kind and per company-grouped fold; and the labelled real-LLM set.

Folds: a deterministic company-grouped 5-fold (companies dealt to the smallest fold by question
count): every question of a company falls in one fold, so any setting chosen on four folds is reported on the fifth's
companies, which it has not seen.
"""

from __future__ import annotations

import hashlib
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path
from typing import Any

__all__ = [
    "company_fold",
    "company_folds",
    "summary",
    "by_source",
    "distinct_pairs",
    "answer_key",
    "fit_threshold",
    "fold_fit",
    "run_llm_set",
    "run_offline_set",
    "llm_judge_sample",
    "FOLDS",
]

FOLDS = 5


def company_folds(rows: Sequence[dict[str, Any]], folds: int = FOLDS) -> dict[str, int]:
    """Company -> fold, all of a company's questions in one fold, folds of near-equal size:
    companies by decreasing question count (ties by a hash of the name) go to the smallest fold."""
    counts: dict[str, int] = defaultdict(int)
    for r in rows:
        counts[_company(r)] += 1

    def key(c: str) -> tuple[int, str]:
        return (-counts[c], hashlib.sha256(c.encode()).hexdigest())

    sizes = [0] * folds
    out: dict[str, int] = {}
    for c in sorted(counts, key=key):
        f = min(range(folds), key=lambda i: (sizes[i], i))
        out[c] = f
        sizes[f] += counts[c]
    return out


def _company(row: dict[str, Any]) -> str:
    return str(row.get("company") or "").strip().lower()


def company_fold(row: dict[str, Any], folds: dict[str, int]) -> int:
    """The fold of a question row (by its company)."""
    return folds.get(_company(row), 0)


def _rate(items: Sequence[dict[str, Any]]) -> str:
    if not items:
        return "      -"
    acc = sum(bool(r["accepted"]) for r in items)
    return f"{acc:>3}/{len(items):<3} {100.0 * acc / len(items):5.1f}%"


def summary(rows: Sequence[dict[str, Any]], title: str, *, by: str = "category") -> str:
    """Correct accepted (target >= 85%) and wrong accepted (target <= 5%), broken down."""
    good = [r for r in rows if r.get("should_accept") is True]
    bad = [r for r in rows if r.get("should_accept") is False]
    lines = [
        f"\n{title}: correct answers accepted {_rate(good)} (target >= 85%), "
        f"wrong answers accepted {_rate(bad)} (target <= 5%)"
    ]
    lines.append(f"  {'question type':<22} {'correct accepted':>18} {'wrong accepted':>18}")
    types = sorted({str(r.get("question_type")) for r in rows})
    for t in types:
        g = [r for r in good if str(r.get("question_type")) == t]
        b = [r for r in bad if str(r.get("question_type")) == t]
        lines.append(f"  {t:<22} {_rate(g):>18} {_rate(b):>18}")
    kinds: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for r in bad:
        kinds[str(r.get(by))].append(r)
    lines.append(f"  wrong answers accepted, by {'failure kind' if by == 'category' else by}:")
    for k in sorted(kinds):
        lines.append(f"    {k:<20} {_rate(kinds[k])}")
    lines.append("  by company-grouped fold (held out: no setting here was fitted on it):")
    for f in range(FOLDS):
        g = [r for r in good if r.get("fold") == f]
        b = [r for r in bad if r.get("fold") == f]
        lines.append(f"    fold {f}: correct accepted {_rate(g)}, wrong accepted {_rate(b)}")
    return "\n".join(lines)


THRESHOLDS = tuple(round(0.2 + 0.05 * i, 2) for i in range(15))  # 0.20 ... 0.90
MAX_WRONG = 0.05  # the target: at most 5% of wrong answers accepted


def fit_threshold(rows: Sequence[dict[str, Any]]) -> float:
    """The acceptance threshold that best separates the correct answers of `rows` from their
    wrong ones (correct accepted minus wrong accepted), accepting at most 5% of the wrong ones
    (ties: the higher, stricter threshold)."""
    good = [float(r["utility"]) for r in rows if r.get("should_accept") is True]
    bad = [float(r["utility"]) for r in rows if r.get("should_accept") is False]
    best: tuple[float, float] | None = None
    for tau in THRESHOLDS:
        wrong = sum(u >= tau for u in bad) / len(bad) if bad else 0.0
        if wrong > MAX_WRONG:
            continue
        right = sum(u >= tau for u in good) / len(good) if good else 0.0
        if best is None or right - wrong >= best[1]:
            best = (tau, right - wrong)
    return best[0] if best else THRESHOLDS[-1]


def fold_fit(rows: Sequence[dict[str, Any]], title: str, default: float) -> str:
    """Company-grouped cross-validation of the threshold: fitted on four folds, the fifth's
    acceptance at that threshold; beside the shipped default's on the same fold."""
    lines = [
        f"\n{title}: threshold fitted on 4 company folds, reported on the held-out fold "
        f"(default tau={default:.2f})"
    ]
    totals = {"fit": [0, 0, 0, 0], "default": [0, 0, 0, 0]}
    for f in range(FOLDS):
        train = [r for r in rows if r.get("fold") != f]
        test = [r for r in rows if r.get("fold") == f]
        tau = fit_threshold(train)
        cells = []
        for name, t in (("fit", tau), ("default", default)):
            good = [r for r in test if r.get("should_accept") is True]
            bad = [r for r in test if r.get("should_accept") is False]
            g = sum(float(r["utility"]) >= t for r in good)
            b = sum(float(r["utility"]) >= t for r in bad)
            acc = totals[name]
            acc[0], acc[1], acc[2], acc[3] = (
                acc[0] + g,
                acc[1] + len(good),
                acc[2] + b,
                acc[3] + len(bad),
            )
            cells.append(f"{name} {_pct(g, len(good))} / {_pct(b, len(bad))}")
        lines.append(f"  fold {f}: tau={tau:.2f}  correct / wrong accepted: " + "; ".join(cells))
    for name, (g, ng, b, nb) in totals.items():
        lines.append(
            f"  held-out total ({name}): correct accepted {_pct(g, ng)}, wrong accepted {_pct(b, nb)}"
        )
    return "\n".join(lines)


def _pct(n: int, d: int) -> str:
    return f"{n}/{d} {100.0 * n / d:.1f}%" if d else "-"


def by_source(rows: Sequence[dict[str, Any]]) -> str:
    """Correct and wrong answers accepted per source run (and backend) of the labelled items."""
    lines = [f"  {'by source (backend)':<44} {'correct accepted':>18} {'wrong accepted':>18}"]
    for src in sorted({str(r.get("source")) for r in rows}):
        mine = [r for r in rows if str(r.get("source")) == src]
        good = [r for r in mine if r.get("should_accept") is True]
        bad = [r for r in mine if r.get("should_accept") is False]
        lines.append(f"  {src:<44} {_rate(good):>18} {_rate(bad):>18}")
    return "\n".join(lines)


def answer_key(text: str) -> str:
    """An answer's identity for counting distinct answers: its text, whitespace collapsed."""
    return hashlib.sha256(" ".join(text.split()).encode()).hexdigest()[:16]


def _pair_rate(pairs: Sequence[dict[str, Any]]) -> str:
    if not pairs:
        return "      -"
    acc = float(sum(float(p["share"]) for p in pairs))
    shown = f"{acc:g}" if acc.is_integer() else f"{acc:.1f}"
    return f"{shown:>4}/{len(pairs):<3} {100.0 * acc / len(pairs):5.1f}%"


def _pairs(rows: Sequence[dict[str, Any]], *extra: str) -> list[dict[str, Any]]:
    """One record per distinct (question, answer[, extra fields]) of the labelled rows: its label
    (the grader's, the same for identical text), how many attempts gave it, and the share of
    them the judge accepted (identical text judged on different evidence may differ)."""
    groups: dict[tuple[str, ...], list[dict[str, Any]]] = defaultdict(list)
    for r in rows:
        if r.get("should_accept") is None:
            continue
        key = (str(r["qid"]), str(r.get("answer_key") or r.get("answer")))
        groups[key + tuple(str(r.get(e)) for e in extra)].append(r)
    out = []
    for items in groups.values():
        first = items[0]
        out.append(
            {
                **{k: first.get(k) for k in ("qid", "question_type", "label", *extra)},
                "should_accept": first.get("should_accept"),
                "n": len(items),
                "share": sum(bool(r["accepted"]) for r in items) / len(items),
            }
        )
    return out


def distinct_pairs(rows: Sequence[dict[str, Any]], title: str) -> str:
    """The acceptance figures counted over distinct (question, answer) pairs: repeated identical
    attempts are one answer (a pair judged differently on different evidence counts the share of
    its attempts accepted), overall, per question type and per backend."""
    pairs = _pairs(rows)
    good = [p for p in pairs if p["should_accept"] is True]
    bad = [p for p in pairs if p["should_accept"] is False]
    mixed = sum(1 for p in pairs if 0.0 < p["share"] < 1.0)
    repeated = sum(p["n"] for p in pairs) - len(pairs)
    lines = [
        f"\n{title}, counted over DISTINCT (question, answer) pairs ({len(pairs)} pairs from "
        f"{len(pairs) + repeated} items; {mixed} pair(s) judged differently on different "
        f"evidence count their accepted share): correct answers accepted {_pair_rate(good)}, "
        f"wrong answers accepted {_pair_rate(bad)}",
        f"  {'question type':<22} {'correct accepted':>18} {'wrong accepted':>18}",
    ]
    for t in sorted({str(p.get("question_type")) for p in pairs}):
        g = [p for p in good if str(p.get("question_type")) == t]
        b = [p for p in bad if str(p.get("question_type")) == t]
        lines.append(f"  {t:<22} {_pair_rate(g):>18} {_pair_rate(b):>18}")
    lines.append(f"  {'by backend (pairs)':<22} {'correct accepted':>18} {'wrong accepted':>18}")
    per_backend = _pairs(rows, "backend")
    for name in sorted({str(p.get("backend")) for p in per_backend}):
        g = [p for p in per_backend if p["should_accept"] is True and str(p["backend"]) == name]
        b = [p for p in per_backend if p["should_accept"] is False and str(p["backend"]) == name]
        lines.append(f"  {name:<22} {_pair_rate(g):>18} {_pair_rate(b):>18}")
    return "\n".join(lines)


def _label(rec: dict[str, Any]) -> str:
    """The grader's label, marking a correct verdict that gives no basis (not to be accepted)."""
    label = str(rec.get("label"))
    if label == "correct" and rec.get("should_accept") is False:
        return "correct but no basis (bare yes/no)"
    return label


def run_llm_set(
    fixture: Path,
    questions: Path,
    *,
    attempt: int = 1,
    ablation: bool = False,
    index: Path | None = None,
) -> list[dict[str, Any]]:
    """Judge every labelled real-LLM answer against the evidence it was answered from: a
    benchmark run's item against its recorded evidence (the index's chunks when `index` is
    given, else the same pages' text from pages.jsonl.gz beside `questions`), an item of the
    gold-evidence run against its question's gold evidence pages."""
    from finqa.agents.config import load_settings
    from finqa.agents.judge import JudgeAgent
    from finqa.agents.types import Answer
    from finqa.benchmarks._judge_runs import RunEvidence
    from finqa.benchmarks.judge_labels import load_fixture
    from finqa.benchmarks.questions import gold_evidence, read_rows

    overrides = {"judge.deterministic_verify": False} if ablation else None
    judge = JudgeAgent(load_settings(overrides=overrides))
    rows = read_rows(questions)
    source = {str(r["financebench_id"]): r for r in rows}
    folds = company_folds(rows)
    items = load_fixture(fixture)
    recorded = RunEvidence(index=index, pages_file=questions.parent / "pages.jsonl.gz")
    recorded.prefetch(r for r in items if r.get("evidence_items"))
    out: list[dict[str, Any]] = []
    for rec in items:
        q = source.get(str(rec["qid"]))
        if q is None or rec.get("answer") is None:
            continue
        question = str(q["question"])
        answer = Answer.model_validate(
            {k: v for k, v in rec["answer"].items() if k in Answer.model_fields}
        )
        if rec.get("evidence_items"):
            evidence = recorded.evidence(question, rec["evidence_items"])
        else:
            evidence = gold_evidence(question, q["evidence"])
        verdict = judge.evaluate(question, answer, evidence, attempt)
        out.append(
            {
                "category": "llm_" + str(rec.get("label")),
                "label": _label(rec),
                "source": f"{rec.get('source') or 'gold-evidence run'} ({answer.backend or '-'})",
                "qid": rec["qid"],
                "question_type": q.get("question_type", "unknown"),
                "fold": company_fold(q, folds),
                "should_accept": rec.get("should_accept"),
                "accepted": verdict.decision == "accept",
                "correct": (verdict.decision == "accept") == rec.get("should_accept"),
                "utility": verdict.utility,
                "scores": [verdict.grounding, verdict.completeness, verdict.numeric],
                "answer": answer.text[:160],
                "answer_key": answer_key(answer.text),
                "backend": answer.backend or "-",
                "problems": [p["code"] for p in verdict.details.get("answer_problems", [])],
                "unsupported": list(verdict.unsupported_numbers),
            }
        )
    return out


def run_offline_set(
    questions: Path, *, attempt: int = 1, ablation: bool = False
) -> list[dict[str, Any]]:
    """The offline backend answers every dev question from its gold evidence pages; each answer
    is graded against the gold (the labelled set) and judged blind."""
    from finqa.agents.config import load_settings
    from finqa.agents.judge import JudgeAgent
    from finqa.agents.reasoning import build_reasoner
    from finqa.benchmarks.judge_labels import label_row
    from finqa.benchmarks.questions import gold_evidence, read_rows

    overrides: dict[str, Any] = {"llm.backend": "offline"}
    if ablation:
        overrides["judge.deterministic_verify"] = False
    settings = load_settings(overrides=overrides)
    judge, reasoner = JudgeAgent(settings), build_reasoner(settings)
    rows = read_rows(questions)
    folds = company_folds(rows)
    out: list[dict[str, Any]] = []
    for q in rows:
        question = str(q["question"])
        evidence = gold_evidence(question, q["evidence"])
        answer = reasoner.generate(question, evidence, attempt)
        labels = label_row(question, str(q["answer"]), answer.model_dump(mode="json"))
        verdict = judge.evaluate(question, answer, evidence, attempt)
        accepted = verdict.decision == "accept"
        out.append(
            {
                "category": "offline_" + labels["label"],
                "label": _label(labels),
                "qid": q["financebench_id"],
                "question_type": q.get("question_type", "unknown"),
                "fold": company_fold(q, folds),
                "should_accept": labels["should_accept"],
                "accepted": accepted,
                "correct": accepted == labels["should_accept"],
                "utility": verdict.utility,
                "answer": answer.text[:160],
                "problems": [p["code"] for p in verdict.details.get("answer_problems", [])],
                "unsupported": list(verdict.unsupported_numbers),
            }
        )
    return out


def llm_judge_sample(
    questions: Path, base_url: str, *, model: str = "qwen05", limit: int = 2
) -> list[dict[str, Any]]:
    """What the optional LLM judge adds on qualitative answers: for the first `limit` questions
    that expect no figure, the gold answer and another company's answer (`unrelated`) are judged
    with and without the LLM entailment check; one row per case with both decisions."""
    from finqa.agents.config import load_settings
    from finqa.agents.judge import JudgeAgent
    from finqa.agents.judge.facets import decompose
    from finqa.agents.judge.kind import expected_kind
    from finqa.agents.reasoning import OpenAIChatClient
    from finqa.benchmarks._judge_cases import build_cases, load_questions

    plain = JudgeAgent(load_settings(overrides={"llm.backend": "offline"}))
    settings = load_settings(
        overrides={
            "llm.backend": "openai",
            "llm.base_url": base_url,
            "llm.model": model,
            "llm.timeout_s": 900.0,
            "judge.llm_judge": True,
        }
    )
    assisted = JudgeAgent(settings, llm=OpenAIChatClient(settings.llm, api_key="local"))
    rows = load_questions(questions)
    picked: list[dict[str, Any]] = []
    for r in rows:
        q = str(r["question"])
        kinds = [f.kind for f in decompose(q)]
        if expected_kind(q, kinds).kind in (None, "explanation"):
            picked.append(r)
        if len(picked) >= limit:
            break
    out: list[dict[str, Any]] = []
    for case in build_cases(picked):
        if case.category not in ("gold", "unrelated"):
            continue
        before = plain.evaluate(case.question, case.answer, case.evidence, 1)
        after = assisted.evaluate(case.question, case.answer, case.evidence, 1)
        out.append(
            {
                "qid": case.qid,
                "category": case.category,
                "should_accept": case.should_accept,
                "deterministic": before.decision,
                "with_llm": after.decision,
                "grounding": [before.grounding, after.grounding],
                "llm": (after.details.get("llm") or {}).get("status"),
                "labels": (after.details.get("llm") or {}).get("labels"),
            }
        )
    return out
