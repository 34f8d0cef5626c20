"""`finqa bench financebench`: FinanceBench-style runs, single pass vs self-correction, ablations.

    finqa bench financebench --questions ../shared/financebench/questions.jsonl \\
        --index /work/var/index-pdfs --out /work/var/bench-single --mode all --store single

Writes to `--out`: results.jsonl (one line per question x mode, appended as it goes; a rerun
resumes), summary.json (the issue's shape), metrics.json (correction flow, retrieval, tokens,
LLM grader), report.md (the paper-shaped tables) and PNG plots.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from finqa.agents.errors import FinqaError, IndexError_
from finqa.benchmarks.modes import DEFAULT_MODES, MODES, parse_modes

if TYPE_CHECKING:
    from finqa.agents.config import Settings
    from finqa.benchmarks.questions import BenchQuestion
    from finqa.benchmarks.runner import AnswerGrader, Asker, SystemFactory

__all__ = ["add_parser", "run_financebench", "write_outputs", "finqa_factory"]


def add_parser(bench_sub: Any) -> None:
    """Add `finqa bench financebench` to the `finqa bench` subcommands."""
    p = bench_sub.add_parser(
        "financebench",
        help="FinanceBench-style accuracy: single pass vs self-improving loop, ablations",
        description=__doc__.split("\n\n")[0] if __doc__ else None,
    )
    p.add_argument(
        "--questions", required=True, help="FinanceBench JSONL, or CSV/JSONL with question/answer"
    )
    p.add_argument("--index", required=True, help="index directory (built by `finqa ingest`)")
    p.add_argument("--out", required=True, help="output directory (results resume from here)")
    p.add_argument(
        "--mode",
        action="append",
        metavar="MODE",
        help=f"repeatable or comma list of {', '.join(MODES)}, or all "
        "(default: single-pass,self-improving)",
    )
    p.add_argument("--store", choices=("single", "shared"), default="single",
                   help="single: each question restricted to its filing; shared: whole index")  # fmt: skip
    p.add_argument("--limit", type=int, default=None, help="only the first N questions")
    p.add_argument("--workers", type=int, default=1, help="questions in parallel (remote LLMs)")
    p.add_argument(
        "--config", default=None, help="configuration YAML (default configs/default.yaml)"
    )
    p.add_argument("--llm-grader", action="store_true",
                   help="also grade with an LLM that sees the gold answer (oracle-guided, reported apart)")  # fmt: skip
    p.add_argument("--rel-tol", type=float, default=0.01, help="relative tolerance for numbers")
    p.add_argument("--seed", type=int, default=0, help="bootstrap seed")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.add_argument("--verbose", action="store_true",
                   help="operational logs at the configured level (default: warnings only)")  # fmt: skip
    from finqa.orchestrator.flags import add_llm_flags

    add_llm_flags(p)
    p.set_defaults(func=_cmd)


def _cmd(args: argparse.Namespace) -> int:
    if args.limit is not None and args.limit < 1:
        raise FinqaError("--limit must be at least 1")
    if args.workers < 1:
        raise FinqaError("--workers must be at least 1")
    from finqa.agents.config import load_settings
    from finqa.agents.logs import configure_logging
    from finqa.benchmarks.questions import load_questions
    from finqa.orchestrator.flags import llm_overrides

    settings = load_settings(
        args.config, overrides={"index.path": args.index, **llm_overrides(args)}
    )
    configure_logging(settings.log_level if args.verbose else "warning")
    if settings.index.chroma_url is None and not Path(settings.index.path).exists():
        raise IndexError_(
            f"no index at {args.index}; build one with `finqa ingest PATH --index {args.index}`",
            path=args.index,
        )
    out = Path(args.out)
    grader: AnswerGrader | None = None
    if args.llm_grader:
        from finqa.benchmarks.llm_grader import LLMGrader

        grader = LLMGrader.from_settings(settings)
    summary = run_financebench(
        load_questions(args.questions, limit=args.limit),
        out,
        finqa_factory(settings, out / "audit"),
        modes=parse_modes(args.mode),
        store=args.store,
        workers=args.workers,
        rel_tol=args.rel_tol,
        llm_grader=grader,
        seed=args.seed,
        progress=not args.no_progress,
        meta={"questions file": args.questions, "index": args.index, "config": args.config
              or "configs/default.yaml", "llm backend": settings.llm.backend},
    )  # fmt: skip
    from finqa.benchmarks.report import main_table

    details = json.loads((out / "metrics.json").read_text(encoding="utf-8"))["modes"]
    print("\n".join(main_table(summary, details)))
    print(f"\nwrote {out}/results.jsonl, summary.json, metrics.json, report.md and plots")
    return 0


def finqa_factory(settings: Settings, audit_dir: Path) -> SystemFactory:
    """Modes share one retriever and one reasoner; each gets its own judge and audit log."""
    shared: dict[str, Any] = {}

    def make(mode: str, overrides: Mapping[str, Any]) -> Asker:
        from finqa.orchestrator import FinQA

        audit_dir.mkdir(parents=True, exist_ok=True)
        mode_settings = settings.with_overrides(
            {**overrides, "audit.path": str(audit_dir / f"{mode}.jsonl")}
        )
        if "retriever" not in shared:
            from finqa.agents.reasoning import build_reasoner
            from finqa.agents.retrieval import RetrievalAgent
            from finqa.lexicon.statements import shared_store

            shared["retriever"] = RetrievalAgent(settings)
            # the reasoner as FinQA.open builds it: reading the index's statement model
            shared["reasoner"] = build_reasoner(
                settings, statements=shared_store(settings.index.path)
            )
            _warm_up(shared["retriever"])
        from finqa.agents.judge import JudgeAgent
        from finqa.lexicon.statements import shared_store

        return FinQA(
            mode_settings,
            retriever=shared["retriever"],
            reasoner=shared["reasoner"],
            judge=JudgeAgent(mode_settings, statements=shared_store(settings.index.path)),
        )

    return make


def _warm_up(retriever: Any) -> None:
    """Open lazily built resources (Chroma collection, embedder) once, before worker threads
    share them: concurrent first opens of a Chroma PersistentClient race."""
    dense = bool(getattr(getattr(retriever, "index", None), "dense", False))
    for chain in (("index", "collection"), ("embedder",)) if dense else ():
        obj = retriever
        try:
            for name in chain:
                obj = getattr(obj, name)
        except Exception:  # noqa: BLE001 - a failed warm-up surfaces on the first question
            return


def run_financebench(
    questions: Sequence[BenchQuestion],
    out_dir: str | Path,
    factory: SystemFactory,
    *,
    modes: Sequence[str] = DEFAULT_MODES,
    store: str = "single",
    workers: int = 1,
    rel_tol: float = 0.01,
    llm_grader: AnswerGrader | None = None,
    seed: int = 0,
    progress: bool = True,
    plots: bool = True,
    meta: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """Run or resume, then write summary.json, metrics.json, report.md and plots; return summary."""
    from finqa.benchmarks.runner import run_benchmark

    t0 = time.perf_counter()
    if store == "single" and any(not q.doc_name for q in questions):
        missing = next(q.id for q in questions if not q.doc_name)
        raise FinqaError(f"question {missing} has no doc_name: the single store needs one")
    records = run_benchmark(
        questions, out_dir, factory, modes=modes, store=store, workers=workers, rel_tol=rel_tol,
        llm_grader=llm_grader, progress=progress,
    )  # fmt: skip
    wall = time.perf_counter() - t0
    busy = sum(float((r.get("timings") or {}).get("wall_s") or 0.0)
               for rs in records.values() for r in rs)  # fmt: skip
    info = {**(meta or {}), "modes": ", ".join(modes), "workers": workers,
            "wall time of this invocation (s)": round(wall, 1),
            "sum of per-question wall times over all modes (s)": round(busy, 1)}  # fmt: skip
    return write_outputs(out_dir, records, questions=len(questions), store=store, seed=seed,
                         plots=plots, meta=info)  # fmt: skip


def write_outputs(
    out_dir: str | Path,
    records: Mapping[str, Sequence[Mapping[str, Any]]],
    *,
    questions: int,
    store: str,
    seed: int = 0,
    plots: bool = True,
    meta: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """summary.json, metrics.json, report.md (+ PNGs) from the records of a run."""
    from finqa.benchmarks.metrics import mode_details, summarize
    from finqa.benchmarks.report import render_report

    out = Path(out_dir)
    summary = summarize(records, questions=questions, store=store, seed=seed)
    details = {m: mode_details(rs, seed=seed) for m, rs in records.items()}
    _write_json(out / "summary.json", summary)
    _write_json(out / "metrics.json", {"questions": questions, "store": store,
                                       "meta": dict(meta or {}), "modes": details})  # fmt: skip
    names: list[str] = []
    if plots:
        from finqa.benchmarks.plots import write_plots

        try:
            names = write_plots(out, summary, details, records)
        except Exception as exc:  # noqa: BLE001 - a plotting failure must not lose the report
            print(f"finqa: warning: plots not written: {exc}", file=sys.stderr)
    report = render_report(summary, details, meta=meta, plots=names)
    (out / "report.md").write_text(report, encoding="utf-8")
    return summary


def _write_json(path: Path, data: Any) -> None:
    tmp = path.with_suffix(path.suffix + ".tmp")
    tmp.write_text(json.dumps(data, indent=2, sort_keys=False) + "\n", encoding="utf-8")
    os.replace(tmp, path)
