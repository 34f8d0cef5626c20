"""Fit the finance reranker on the dev questions' gold pages; choose the default configuration
out of fold.

    python -m finqa.benchmarks.fit_reranker --questions Q.jsonl --index DIR [--out DIR] [--write]

1. For every question whose filing is in the index (single store: the question's own filing),
   the candidate pool of the hybrid+filter+rerank route (`--pool` chunks) is built once and each
   candidate's `rerank.FEATURES` computed; label = the chunk lies on a gold evidence page.
2. Questions are split into `--folds` folds grouped by company (no company is in both a
   training and a held-out fold). A linear model is fitted on the training folds (logistic
   regression, pointwise or pairwise, L2 on standardised features, Newton/IRLS in numpy)
   and every configuration is run through `RetrievalAgent.run` on the held-out questions
   with that fold's model: reranker (fitted, hand-set), candidate pool, unit (page, chunk, RSE
   segments) and which routes are reranked. Each question is scored only by a model that
   never saw its company.
3. The configuration with the best out-of-fold recall@10 (then MRR) is the default; the model
   refitted on all questions is written to `agents/retrieval/reranker_model.json` (`--write`)
   with the out-of-fold figures it printed.

`--shared-index DIR` adds the same questions asked of a whole shared store (each over the
filings its metadata filters select, with the index's own dense lists): their candidates join
the training folds of their companies, the model is fitted on both stores, and the default
configuration's out-of-fold figures on that store are printed beside those of a model fitted
on the single store alone (the filing-level `doc_*` features only vary there).

On a BM25-only index (`index.dense: none`) the dense features come from embedding each
question's candidate chunks (header + text, as ingest embeds them) on the fly, cached in
`--vector-cache`; there is then no dense candidate list (`dense_rr` stays 0), so the `none`
rows are BM25 + filter alone and semantic-only search cannot be measured on such an index.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from finqa.benchmarks._fit_shared import shared_data, shared_meta

__all__ = ["fit_linear", "company_folds", "Config", "main"]

_KS = (5, 10, 20, 30)
DEPTH = 30


@dataclass(frozen=True)
class Config:
    """One retrieval configuration evaluated out of fold."""

    reranker: str  # fitted | hand | none
    pool: int  # candidate chunks fused before reranking
    unit: str  # page | chunk | rse
    routes: str  # numeric | all (which questions are reranked)

    @property
    def name(self) -> str:
        return f"{self.reranker} pool={self.pool} unit={self.unit} rerank={self.routes}"


def company_folds(companies: Sequence[str], n_folds: int) -> list[int]:
    """Fold number per question; companies (largest first, then by name) go to the fold with
    the fewest questions so far, so a company never straddles folds and folds stay even."""
    counts: dict[str, int] = {}
    for c in companies:
        counts[c] = counts.get(c, 0) + 1
    sizes = [0] * n_folds
    fold_of: dict[str, int] = {}
    for company in sorted(counts, key=lambda c: (-counts[c], c)):
        f = min(range(n_folds), key=lambda i: (sizes[i], i))
        fold_of[company] = f
        sizes[f] += counts[company]
    return [fold_of[c] for c in companies]


def _irls(x: Any, y: Any, w: Any, lam: float, *, bias: bool) -> Any:
    """Weighted L2 logistic regression by Newton steps; returns coefficients (+ bias last)."""
    if bias:
        x = np.hstack([x, np.ones((x.shape[0], 1))])
    beta = np.zeros(x.shape[1])
    reg = np.full(x.shape[1], lam)
    if bias:
        reg[-1] = 0.0
    for _ in range(50):
        p = 1.0 / (1.0 + np.exp(-np.clip(x @ beta, -30, 30)))
        grad = x.T @ (w * (p - y)) + reg * beta
        hess = (x * (w * p * (1 - p))[:, None]).T @ x + np.diag(reg) + 1e-9 * np.eye(x.shape[1])
        step = np.linalg.solve(hess, grad)
        beta -= step
        if float(np.abs(step).max()) < 1e-8:
            break
    return beta


def fit_linear(
    groups: Sequence[tuple[Any, Any]],
    names: Sequence[str],
    *,
    loss: str = "pairwise",
    lam: float = 1.0,
) -> tuple[dict[str, float], float]:
    """Fit on (features, labels) per question; each question weighs the same in the loss.
    Returns raw-feature weights and bias (score = bias + w . x); ranking-equivalent to the
    model on standardised features. Questions without a positive or negative are ignored."""
    usable = [(x, y) for x, y in groups if 0 < y.sum() < len(y)]
    if not usable:
        raise ValueError("no question has both gold and non-gold candidates")
    allx = np.vstack([x for x, _ in usable])
    mean = allx.mean(axis=0)
    scale = allx.std(axis=0)
    scale[scale < 1e-9] = 1.0
    if loss == "pointwise":
        xs, ys, ws = [], [], []
        for x, y in usable:
            pos = y.sum()
            neg = len(y) - pos
            xs.append((x - mean) / scale)
            ys.append(y)
            ws.append(np.where(y > 0, 0.5 / pos, 0.5 / neg))
        beta = _irls(np.vstack(xs), np.concatenate(ys), np.concatenate(ws), lam, bias=True)
        coef, b = beta[:-1], float(beta[-1])
    elif loss == "pairwise":  # logistic loss on (gold - non-gold) differences, both orders
        diffs, ws = [], []
        for x, y in usable:
            z = (x - mean) / scale
            pos, neg = z[y > 0], z[y == 0]
            d = (pos[:, None, :] - neg[None, :, :]).reshape(-1, z.shape[1])
            diffs.append(d)
            ws.append(np.full(len(d), 1.0 / len(d)))
        d = np.vstack(diffs)
        w = np.concatenate(ws)
        beta = _irls(
            np.vstack([d, -d]),
            np.r_[np.ones(len(d)), np.zeros(len(d))],
            np.r_[w, w],
            lam,
            bias=False,
        )
        coef, b = beta, 0.0
    else:
        raise ValueError(f"loss must be pointwise or pairwise, not {loss!r}")
    raw = coef / scale
    bias = b - float((coef * mean / scale).sum())
    return {n: round(float(v), 6) for n, v in zip(names, raw, strict=True)}, round(bias, 6)


class _CandidateVectors:
    """Embeds candidate chunks of a BM25-only index on demand; a .npz cache makes re-runs free."""

    def __init__(self, index: Any, embedder: Any, cache: Path | None) -> None:
        self.index = index
        self.embedder = embedder
        self.cache = cache
        self.vectors: dict[str, Any] = {}
        self.queries: dict[str, Any] = {}
        if cache is not None and cache.exists():
            with np.load(cache) as data:
                self.vectors = dict(
                    zip([str(i) for i in data["ids"]], data["vectors"], strict=True)
                )
        self.new = 0

    def query(self, text: str) -> Any:
        if text not in self.queries:
            self.queries[text] = np.asarray(self.embedder.embed([text])[0], dtype=np.float32)
        return self.queries[text]

    def chunks(self, chunk_ids: Sequence[str]) -> list[Any]:
        missing = [c for c in dict.fromkeys(chunk_ids) if c not in self.vectors]
        if missing:
            texts = self.index.indexed_texts(missing)
            for cid, vec in zip(texts, self.embedder.embed(list(texts.values())), strict=True):
                self.vectors[cid] = np.asarray(vec, dtype=np.float32)
            self.new += len(texts)
        return [self.vectors.get(c) for c in chunk_ids]

    def save(self) -> None:
        if self.cache is None or not self.new:
            return
        ids = list(self.vectors)
        tmp = self.cache.with_suffix(".tmp.npz")
        np.savez(tmp, ids=np.asarray(ids), vectors=np.stack([self.vectors[i] for i in ids]))
        tmp.replace(self.cache)
        self.new = 0


@dataclass
class _Q:
    question: Any  # BenchQuestion
    analysis: Any
    filt: Any
    numeric: bool
    x: Any  # candidate features (pool x FEATURES)
    y: Any  # 1.0 when the candidate's page is gold


def _collect(
    agent: Any,
    questions: Sequence[Any],
    pool: int,
    progress: bool,
    source: _CandidateVectors | None = None,
    *,
    shared: bool = False,
) -> list[_Q]:
    """Candidate features per question: of its own filing (single store), or of the filings the
    question's metadata filters select in the whole store (`shared`; a question naming a company
    the store lacks has no candidates and is left out)."""
    from finqa.agents.retrieval.analysis import analyze_question
    from finqa.agents.retrieval.filters import resolve_filters
    from finqa.agents.retrieval.rerank import FEATURES, features
    from finqa.agents.retrieval.router import Route

    out: list[_Q] = []
    for n, q in enumerate(questions, 1):
        analysis = analyze_question(q.question)
        if shared:
            filt = resolve_filters(analysis, agent.index.catalog())
            if filt.unknown_company or filt.doc_ids == []:
                continue
        else:
            filt = resolve_filters(analysis, agent.index.catalog(), doc_ids=[q.doc_name])
        r = Route("pool", "fit", agent.index.dense, True, True, True, False, DEPTH, pool)
        fused, chunks, vector = agent.candidates(q.question, analysis, r, filt.doc_ids)
        gold = set(q.evidence_pages)
        inputs = agent.rerank_inputs(analysis, q.question, fused, chunks, vector)
        texts = [chunks[c.chunk_id] for c in fused]
        feats = features(analysis, q.question, texts, **inputs)
        x = np.array([[f[k] for k in FEATURES] for f in feats], dtype=float).reshape(
            -1, len(FEATURES)
        )
        y = np.array(
            [
                float(any((c.doc_id, p) in gold for p in range(c.page, (c.page_end or c.page) + 1)))
                for c in texts
            ]
        )
        numeric = analysis.is_computation or analysis.is_comparison or bool(analysis.metrics)
        out.append(_Q(q, analysis, filt, numeric, x, y))
        if progress and n % 10 == 0:
            print(f"fit_reranker: features of {n}/{len(questions)} questions", file=sys.stderr)
            if source is not None:
                source.save()
    return out


def _evaluate(agent: Any, q: _Q, cfg: Config, model: Any) -> dict[str, float]:
    from finqa.agents.retrieval.rerank import FinanceReranker
    from finqa.agents.retrieval.router import Route
    from finqa.benchmarks.retrieval import score_items

    rerank = cfg.reranker != "none" and (cfg.routes == "all" or q.numeric)
    agent.reranker = None if cfg.reranker == "none" else FinanceReranker(model=model)
    agent.settings = agent.settings.with_overrides(
        {"retrieval.unit": "chunk" if cfg.unit == "chunk" else "page"}
    )
    r = Route(
        cfg.name, "fit", agent.index.dense, True, True, rerank, cfg.unit == "rse", DEPTH, cfg.pool
    )
    ev = agent.run(q.question.question, q.analysis, r, q.filt)
    gold = set(q.question.evidence_pages)
    return score_items(ev.items, gold, {d for d, _ in gold})


def _summary(rows: list[dict[str, float]]) -> dict[str, float]:
    out = {f"recall@{k}": round(statistics.fmean(r[f"recall@{k}"] for r in rows), 4) for k in _KS}
    out["hit@10"] = round(statistics.fmean(r["hit@10"] for r in rows), 4)
    out["mrr"] = round(statistics.fmean(r["rr"] for r in rows), 4)
    return out


def grid(pools: Sequence[int]) -> list[Config]:
    """No reranker (fusion order), the fitted and the hand-set reranker, by pool, unit, routes."""
    configs = [Config("none", pool, unit, "numeric") for pool in pools for unit in ("page", "rse")]
    for reranker in ("fitted", "hand"):
        for pool in pools:
            for unit in ("page", "chunk", "rse"):
                for routes in ("numeric", "all"):
                    configs.append(Config(reranker, pool, unit, routes))
    return configs


def run(args: argparse.Namespace) -> dict[str, Any]:
    from finqa.agents.config import load_settings
    from finqa.agents.retrieval.agent import RetrievalAgent
    from finqa.agents.retrieval.rerank import FEATURES, HAND_WEIGHTS, LinearModel
    from finqa.benchmarks.questions import load_questions

    settings = load_settings(
        args.config, overrides={"index.path": args.index, "index.torch_threads": 1}
    )
    agent = RetrievalAgent(settings)
    source = None
    if not agent.index.dense:  # cosine features from candidate vectors embedded on demand
        from finqa.agents.retrieval.embedder import get_embedder

        cache = Path(args.vector_cache) if args.vector_cache else None
        embedder = get_embedder(threads=1, backend=args.embed_backend)
        source = _CandidateVectors(agent.index, embedder, cache)
        agent = RetrievalAgent(settings, index=agent.index, candidate_vectors=source)
    catalog = agent.index.catalog()
    every = [q for q in load_questions(args.questions, limit=args.limit) if q.evidence_pages]
    questions = [q for q in every if q.doc_name in catalog]
    print(
        f"fit_reranker: {len(questions)} of {len(every)} questions have their filing in {args.index}",
        file=sys.stderr,
    )
    pools = sorted({int(p) for p in args.pools.split(",")})
    t0 = time.perf_counter()
    data = _collect(agent, questions, max(pools), progress=True, source=source)
    if source is not None:
        source.save()
    companies = [q.question.company or q.question.doc_name or "" for q in data]
    folds = company_folds(companies, args.folds)
    fold_of = dict(zip(companies, folds, strict=True))
    shared = shared_data(args, settings, max(pools), fold_of, _collect)
    hand = LinearModel(HAND_WEIGHTS, name="hand")
    configs = (
        grid(pools)
        if args.grid == "full"
        else [
            c
            for c in grid(pools)
            if c.reranker != "hand" or (c.unit == "page" and c.routes == "numeric")
        ]
    )
    step = settings.retrieval.step(1)
    default = Config(
        "fitted",
        step.k * step.candidates_factor,
        "rse" if step.rse else settings.retrieval.unit,
        settings.retrieval.rerank_routes,
    )
    per_config: dict[Config, list[dict[str, float]]] = {c: [] for c in configs}
    fold_models: list[dict[str, Any]] = []
    shared_rows: dict[str, list[dict[str, float]]] = {"single": [], "both": []}
    for f in range(args.folds):
        train = [(d.x, d.y) for d, g in zip(data, folds, strict=True) if g != f]
        both = train + [(d.x, d.y) for d, g in shared.items if g != f] if shared else train
        weights, bias = fit_linear(both, FEATURES, loss=args.loss, lam=args.lam)
        fitted = LinearModel(weights, bias, name=f"fold{f}")
        fold_models.append({"fold": f, "weights": weights})
        held = [d for d, g in zip(data, folds, strict=True) if g == f]
        for cfg in configs:
            model = hand if cfg.reranker == "hand" else fitted
            per_config[cfg].extend(_evaluate(agent, d, cfg, model) for d in held)
        if shared:  # the default configuration on the whole store, fitted with and without it
            single = LinearModel(*fit_linear(train, FEATURES, loss=args.loss, lam=args.lam))
            for key, m in (("single", single), ("both", fitted)):
                shared_rows[key].extend(
                    _evaluate(shared.agent, d, default, m) for d, g in shared.items if g == f
                )
        print(
            f"fit_reranker: fold {f + 1}/{args.folds} done ({len(held)} held out)", file=sys.stderr
        )
    table = {c.name: _summary(rows) for c, rows in per_config.items()}
    best = max(configs, key=lambda c: (table[c.name]["recall@10"], table[c.name]["mrr"], -c.pool))
    every_xy = [(d.x, d.y) for d in data] + (
        [(d.x, d.y) for d, _ in shared.items] if shared else []
    )
    weights, bias = fit_linear(every_xy, FEATURES, loss=args.loss, lam=args.lam)
    model = LinearModel(
        weights,
        bias,
        name=f"logistic-{args.loss}",
        meta={
            "fitted_by": "python -m finqa.benchmarks.fit_reranker",
            "features": list(FEATURES),
            "loss": args.loss,
            "l2": args.lam,
            "questions": len(data),
            "companies": len({q.question.company for q in data}),
            "folds": args.folds,
            "pool": max(pools),
            "dense": "index" if source is None else "candidates embedded (BM25-only index)",
            "shared_store": shared_meta(shared, shared_rows, _summary),
            "best_config_out_of_fold": best.name,
            "out_of_fold": {best.name: table[best.name]},
            "out_of_fold_all": table,
            "out_of_fold_hand": {
                c.name: table[c.name]
                for c in configs
                if c.reranker == "hand" and c.pool == best.pool
            },
        },
    )
    result = {
        "questions": len(data),
        "questions_total": len(every),
        "index": args.index,
        "folds": args.folds,
        "loss": args.loss,
        "l2": args.lam,
        "seconds": round(time.perf_counter() - t0, 1),
        "dense": "index" if source is None else "candidates embedded on the fly (BM25-only index)",
        "configs": table,
        "best": best.name,
        "default": default.name,
        "fold_models": fold_models,
        "shared": shared_meta(shared, shared_rows, _summary),
        "model": model.to_json(),
    }
    print(markdown(result))
    if args.out:
        out = Path(args.out)
        out.mkdir(parents=True, exist_ok=True)
        (out / "fit_reranker.json").write_text(json.dumps(result, indent=1), encoding="utf-8")
    if args.write:
        target = Path(args.write)
        target.write_text(json.dumps(model.to_json(), indent=1) + "\n", encoding="utf-8")
        print(f"fit_reranker: wrote {target}", file=sys.stderr)
    return result


def markdown(result: Mapping[str, Any]) -> str:
    head = ["config", *[f"recall@{k}" for k in _KS], "hit@10", "mrr"]
    lines = [
        f"out-of-fold retrieval, single store: {result['questions']} questions, "
        f"{result['folds']} company-grouped folds, {result['loss']} logistic (l2={result['l2']}); "
        f"dense: {result['dense']}",
        "| " + " | ".join(head) + " |",
        "|" + "---|" * len(head),
    ]
    for name, m in result["configs"].items():
        mark = " **(best)**" if name == result["best"] else ""
        mark += " (default config)" if name == result.get("default") else ""
        lines.append("| " + " | ".join([name + mark] + [f"{m[h]:.3f}" for h in head[1:]]) + " |")
    shared = result.get("shared")
    if shared:
        lines.append(
            f"\nout of fold, shared store {shared['index']} ({shared['questions']} questions, "
            f"each over the filings its filters select; default config): model fitted on"
        )
        lines += ["| " + " | ".join(["fitted on", *head[1:]]) + " |", "|" + "---|" * len(head)]
        for name, m in shared["configs"].items():
            lines.append("| " + " | ".join([name] + [f"{m[h]:.3f}" for h in head[1:]]) + " |")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    from finqa.agents.retrieval.rerank import MODEL_FILE

    p = argparse.ArgumentParser(
        prog="python -m finqa.benchmarks.fit_reranker", description=__doc__.split("\n")[0]
    )
    p.add_argument("--questions", required=True)
    p.add_argument("--index", required=True)
    p.add_argument("--config")
    p.add_argument("--folds", type=int, default=5)
    p.add_argument("--loss", choices=["pointwise", "pairwise"], default="pairwise")
    p.add_argument("--lam", type=float, default=1.0, help="L2 strength on standardised features")
    p.add_argument("--pools", default="30,60,90", help="candidate pool sizes to compare")
    p.add_argument("--grid", choices=["small", "full"], default="small")
    p.add_argument("--limit", type=int)
    p.add_argument("--vector-cache", help="BM25-only index: .npz cache of candidate vectors")
    p.add_argument(
        "--embed-backend", default="torch", help="BM25-only index: backend embedding candidates"
    )
    p.add_argument(
        "--shared-index",
        help="also fit on (and report out of fold) the questions asked of this whole store "
        "(dense vectors in the index), folds grouped by the same companies",
    )
    p.add_argument("--out", help="write DIR/fit_reranker.json")
    p.add_argument(
        "--write",
        nargs="?",
        const=str(MODEL_FILE),
        help=f"write the refitted model (default {MODEL_FILE})",
    )
    args = p.parse_args(argv)
    run(args)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
