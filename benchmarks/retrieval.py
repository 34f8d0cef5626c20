"""`finqa bench retrieval`: page recall@k, filing hit@10, MRR and latency per retrieval configuration.

Configurations (each stage added to the previous): semantic, bm25, hybrid (RRF), hybrid+filter,
hybrid+filter+rerank, +rse, and `default` (what `RetrievalAgent.retrieve(q, attempt=1)` routes to).
Every configuration is run to depth 30 (candidates 3x30) so recall@5..30 come from one ranking.
Single store: each question searches only its own filing (`doc_ids=[doc_name]`); shared store:
the whole index. Latency is per query, wall clock, after one warm-up query.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

__all__ = ["add_parser", "run_bench", "score_items", "CONFIGS"]

CONFIGS = ("semantic", "bm25", "hybrid", "hybrid+filter", "hybrid+filter+rerank", "+rse", "default")
_KS = (5, 10, 20, 30)
DEPTH = 30


def add_parser(bench_sub: Any) -> None:
    p = bench_sub.add_parser(
        "retrieval", help="retrieval recall/latency per configuration (no LLM)"
    )
    p.add_argument("--questions", required=True, help="FinanceBench-format questions (JSONL)")
    p.add_argument("--index", required=True, help="index folder")
    p.add_argument("--store", choices=["single", "shared"], default="single")
    p.add_argument("--out", help="write DIR/retrieval.json (and per-question rows)")
    p.add_argument("--limit", type=int, help="first N questions")
    p.add_argument("--config", help="YAML config file")
    p.add_argument("--configs", help="comma-separated subset of: " + ",".join(CONFIGS))
    p.add_argument(
        "--threads", type=int, default=1, help="torch CPU threads for query embedding (default 1)"
    )
    p.add_argument(
        "--reranker",
        help="retrieval.reranker for this run: finance (fitted), finance-hand, none, or a model path",
    )
    p.set_defaults(func=_run)


def score_items(
    items: Sequence[Any], gold: set[tuple[str, int]], gold_docs: set[str]
) -> dict[str, float]:
    """recall@k over pages of the top-k items, hit@10 on filings, reciprocal rank of first gold page."""
    out: dict[str, float] = {}
    for k in _KS:
        found = {(it.doc_id, p) for it in items[:k] for p in it.pages} & gold
        out[f"recall@{k}"] = len(found) / len(gold) if gold else 0.0
    out["hit@10"] = float(any(it.doc_id in gold_docs for it in items[:10]))
    out["rr"] = next(
        (1.0 / r for r, it in enumerate(items, 1) if {(it.doc_id, p) for p in it.pages} & gold), 0.0
    )
    return out


def _routes(agent: Any, analysis: Any, filt: Any, step: Any, single: bool) -> dict[str, Any]:
    from finqa.agents.retrieval.router import Route, route

    dense = agent.index.dense
    cand = DEPTH * step.candidates_factor
    base = {"k": DEPTH, "candidates": cand, "rse": False}
    scoped = single  # single store: the question's filing is the store
    routes = {
        "semantic": Route("semantic", "bench", True, False, scoped, False, **base),
        "bm25": Route("bm25", "bench", False, True, scoped, False, **base),
        "hybrid": Route("hybrid", "bench", dense, True, scoped, False, **base),
        "hybrid+filter": Route("hybrid+filter", "bench", dense, True, True, False, **base),
        "hybrid+filter+rerank": Route(
            "hybrid+filter+rerank", "bench", dense, True, True, True, **base
        ),
    }
    routes["+rse"] = Route(
        "hybrid+filter+rerank+rse",
        "bench",
        dense,
        True,
        True,
        True,
        rse=True,
        k=DEPTH,
        candidates=cand,
    )
    from finqa.agents.config import EscalationStep

    chosen = route(
        analysis,
        EscalationStep(k=DEPTH, candidates_factor=step.candidates_factor, rse=step.rse),
        has_target=filt.doc_ids is not None,
        dense_available=dense,
        reranker_available=agent.reranker is not None,
        filters_enabled=agent.settings.retrieval.use_metadata_filters or single,
        rerank_all=agent.settings.retrieval.rerank_routes == "all",
    )
    routes["default"] = chosen
    if not dense:
        routes.pop("semantic")
    return routes


def run_bench(
    questions_file: str,
    index_dir: str,
    *,
    store: str = "single",
    limit: int | None = None,
    config: str | None = None,
    only: Sequence[str] | None = None,
    progress: bool = True,
    threads: int = 1,
    reranker: str | None = None,
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    from finqa.agents.config import load_settings
    from finqa.agents.retrieval.agent import RetrievalAgent
    from finqa.agents.retrieval.analysis import analyze_question
    from finqa.agents.retrieval.filters import resolve_filters
    from finqa.benchmarks.questions import load_questions
    from tqdm import tqdm

    settings = load_settings(
        config,
        overrides={
            "index.path": index_dir,
            "index.torch_threads": threads,
            "retrieval.reranker": reranker,
        },
    )
    agent = RetrievalAgent(settings)
    questions = [q for q in load_questions(questions_file, limit=limit) if q.evidence_pages]
    single = store == "single"
    step = settings.retrieval.step(1)
    agent.retrieve(questions[0].question, 1)  # warm-up: model load, caches
    stats: dict[str, dict[str, list[float]]] = {}
    rows: list[dict[str, Any]] = []
    for q in tqdm(questions, desc=f"bench {store}", file=sys.stderr, disable=not progress):
        gold = {(d, p) for d, p in q.evidence_pages}
        gold_docs = {d for d, _ in gold}
        doc_ids = [q.doc_name] if single and q.doc_name else None
        t0 = time.perf_counter()
        analysis = analyze_question(q.question)
        filt = resolve_filters(analysis, agent.index.catalog(), doc_ids=doc_ids)
        prep_ms = (time.perf_counter() - t0) * 1000
        row: dict[str, Any] = {
            "id": q.id,
            "doc_name": q.doc_name,
            "gold": sorted(gold),
            "filter": filt.reason,
        }
        for name, r in _routes(agent, analysis, filt, step, single).items():
            if only and name not in only:
                continue
            ev = agent.run(q.question, analysis, r, filt)
            s = score_items(ev.items, gold, gold_docs)
            s["latency_ms"] = ev.latency_ms + prep_ms
            for key, value in s.items():
                stats.setdefault(name, {}).setdefault(key, []).append(value)
            row[name] = {
                **{k: round(v, 4) for k, v in s.items()},
                "route": r.name,
                "top": [[it.doc_id, list(it.pages)] for it in ev.items[:5]],
            }
        rows.append(row)
    configs: dict[str, dict[str, float]] = {}
    for name in CONFIGS:
        if name not in stats:
            continue
        st = stats[name]
        lat = sorted(st["latency_ms"])
        configs[name] = {
            **{f"recall@{k}": round(statistics.fmean(st[f"recall@{k}"]), 4) for k in _KS},
            "hit@10": round(statistics.fmean(st["hit@10"]), 4),
            "mrr": round(statistics.fmean(st["rr"]), 4),
            "latency_ms_p50": round(_pct(lat, 50), 1),
            "latency_ms_p95": round(_pct(lat, 95), 1),
        }
    return {"questions": len(questions), "store": store, "configs": configs}, rows


def _pct(sorted_values: list[float], q: float) -> float:
    if not sorted_values:
        return 0.0
    idx = (len(sorted_values) - 1) * q / 100
    lo, hi = int(idx), min(int(idx) + 1, len(sorted_values) - 1)
    return sorted_values[lo] + (sorted_values[hi] - sorted_values[lo]) * (idx - lo)


def markdown(result: dict[str, Any]) -> str:
    head = [
        "config",
        "recall@5",
        "recall@10",
        "recall@20",
        "recall@30",
        "hit@10",
        "mrr",
        "latency_ms_p50",
        "latency_ms_p95",
    ]
    lines = [
        f"retrieval benchmark: {result['questions']} questions, {result['store']} store",
        "| " + " | ".join(head) + " |",
        "|" + "---|" * len(head),
    ]
    for name, m in result["configs"].items():
        lines.append(
            "| "
            + " | ".join(
                [name]
                + [
                    f"{m[h]:.3f}" if "recall" in h or h in ("hit@10", "mrr") else f"{m[h]:.1f}"
                    for h in head[1:]
                ]
            )
            + " |"
        )
    return "\n".join(lines)


def _run(args: argparse.Namespace) -> int:
    only = [c.strip() for c in args.configs.split(",")] if args.configs else None
    result, rows = run_bench(
        args.questions,
        args.index,
        store=args.store,
        limit=args.limit,
        config=args.config,
        only=only,
        threads=args.threads,
        reranker=args.reranker,
    )
    print(markdown(result))
    if args.out:
        out = Path(args.out)
        out.mkdir(parents=True, exist_ok=True)
        (out / "retrieval.json").write_text(json.dumps(result, indent=2), encoding="utf-8")
        with (out / "retrieval_questions.jsonl").open("w", encoding="utf-8") as fh:
            for row in rows:
                fh.write(json.dumps(row) + "\n")
        print(f"wrote {out / 'retrieval.json'}", file=sys.stderr)
    return 0
