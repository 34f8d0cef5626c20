"""Ingest speed and recall per embedder backend and chunking choice, on the same pages, one run.

    python -m finqa.benchmarks.embed_speed --pages 150 --out DIR [--choices a,b,...]
    python -m finqa.benchmarks.embed_speed --sample filings --filings 40 --per-filing 30 --out DIR

`--sample gold` (default): for each dev question in file order, its filing's first two pages
(cover, contents) and its gold pages with one page either side, until `--pages` pages.
`--sample filings`: for every dev question's filing, the gold pages of all its questions, two
pages either side of each, the first two pages, then pages drawn at random (seeded by the
filing's name) until `--per-filing` pages - so the gold pages must be found among a filing's
worth of distractors and dense recall is not at its ceiling. The sample is written once to
DIR/pages.jsonl (derived, outside the repository); every choice reads the same pages.

For every choice a fresh index is built from those pages (the embedder is loaded before the
clock starts) and timed: wall pages/s, and pages per CPU-second of the process (steadier on a
shared machine). recall@10 is the page recall of the default attempt-1 retrieval (the whole
pipeline); dense@10 is the recall of dense search alone (the question's vector against its own
filing's chunk vectors, pages ranked by their best chunk). Both only count questions whose gold
pages are all in the sample, each searching its own filing. Choices differ in
`index.embed_backend`, `chunk_overlap`, `chunk_header` and `embed_min_words` (pages with fewer
words: BM25 only). Batches are always length-sorted (sentence-transformers sorts each call).
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import random
import shutil
import statistics
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

__all__ = ["CHOICES", "sample_pages", "sample_filings", "dense_recall", "main"]

# Every choice names each setting it measures, so the comparison never depends on the defaults
# in force: "default" is the previous default (torch fp32, 240 tokens, 40 overlap, headers, every
# page embedded), the baseline every choice is compared with.
_BASE: dict[str, Any] = {
    "index.embed_backend": "torch",
    "index.chunk_overlap": 40,
    "index.chunk_header": True,
    "index.embed_min_words": 0,
}
_INT8: dict[str, Any] = {"index.embed_backend": "onnx-int8"}
_NO_OVERLAP: dict[str, Any] = {"index.chunk_overlap": 0}
_SKIP: dict[str, Any] = {"index.embed_min_words": 50}
_NO_HEADER: dict[str, Any] = {"index.chunk_header": False}
CHOICES: dict[str, dict[str, Any]] = {
    name: {**_BASE, **extra}
    for name, extra in {
        "default": {},
        "onnx": {"index.embed_backend": "onnx"},
        "onnx-int8": _INT8,
        "openvino": {"index.embed_backend": "openvino"},
        "torch overlap0": _NO_OVERLAP,
        "torch no-header": _NO_HEADER,
        "torch skip<50w": _SKIP,
        "onnx-int8 overlap0": {**_INT8, **_NO_OVERLAP},
        "onnx-int8 overlap0 skip<50w": {**_INT8, **_NO_OVERLAP, **_SKIP},
        "onnx-int8 overlap0 no-header": {**_INT8, **_NO_OVERLAP, **_NO_HEADER},
        "onnx-int8 overlap0 skip<50w no-header": {**_INT8, **_NO_OVERLAP, **_SKIP, **_NO_HEADER},
        "onnx-int8 skip<50w": {**_INT8, **_SKIP},
    }.items()
}


def sample_pages(questions: Sequence[Any], pages_file: Path, n: int) -> list[dict[str, Any]]:
    """The deterministic page sample described in the module docstring."""
    wanted: list[tuple[str, int]] = []
    for q in questions:
        gold = [p for d, p in q.evidence_pages if d == q.doc_name]
        for page in [0, 1, *(g + d for g in gold for d in (-1, 0, 1))]:
            key = (q.doc_name, page)
            if page >= 0 and key not in wanted:
                wanted.append(key)
    keep = set(wanted)
    found: dict[tuple[str, int], dict[str, Any]] = {}
    with gzip.open(pages_file, "rt", encoding="utf-8") as fh:
        for line in fh:
            row = json.loads(line)
            key = (row["doc_name"], int(row["page"]))
            if key in keep:
                found[key] = {"doc_name": row["doc_name"], "page": row["page"], "text": row["text"]}
    return [found[k] for k in wanted if k in found][:n]


def sample_filings(
    questions: Sequence[Any], pages_file: Path, per_filing: int, filings: int = 0
) -> list[dict[str, Any]]:
    """The `--sample filings` page sample described in the module docstring (`filings` > 0:
    that many of the questions' filings, drawn with a fixed seed)."""
    gold: dict[str, set[int]] = {}
    for q in questions:
        gold.setdefault(q.doc_name, set()).update(p for d, p in q.evidence_pages if d == q.doc_name)
    if 0 < filings < len(gold):
        gold = {d: gold[d] for d in random.Random(0).sample(sorted(gold), filings)}
    texts: dict[str, dict[int, str]] = {d: {} for d in gold}
    with gzip.open(pages_file, "rt", encoding="utf-8") as fh:
        for line in fh:
            row = json.loads(line)
            if row["doc_name"] in texts:
                texts[row["doc_name"]][int(row["page"])] = row["text"]
    out: list[dict[str, Any]] = []
    for doc in sorted(gold):
        have = texts[doc]
        keep = [p for g in sorted(gold[doc]) for p in range(g - 2, g + 3)] + [0, 1]
        chosen = list(dict.fromkeys(p for p in keep if p in have))
        rest = sorted(set(have) - set(chosen))
        random.Random(doc).shuffle(rest)
        chosen += rest[: max(per_filing - len(chosen), 0)]
        out += [{"doc_name": doc, "page": p, "text": have[p]} for p in sorted(chosen)]
    return out


def dense_recall(
    index: Any, embedder: Any, question: str, doc_id: str, gold: set[tuple[str, int]]
) -> tuple[float, float]:
    """(recall@10, reciprocal rank) of dense search alone over one filing, pages ranked by
    their best chunk."""
    hits = index.dense_search(embedder.embed([question])[0], 200, [doc_id])
    chunks = index.get_chunks([cid for cid, _ in hits])
    pages = list(dict.fromkeys((doc_id, chunks[cid].page) for cid, _ in hits if cid in chunks))
    recall = len(set(pages[:10]) & gold) / len(gold)
    rr = next((1.0 / r for r, p in enumerate(pages, 1) if p in gold), 0.0)
    return recall, rr


def _run_choice(
    name: str, overrides: dict[str, Any], pages: Path, work: Path, questions: Sequence[Any]
) -> dict[str, Any]:
    from finqa.agents.config import load_settings
    from finqa.agents.errors import FinqaError
    from finqa.agents.retrieval.agent import RetrievalAgent
    from finqa.agents.retrieval.embedder import get_embedder
    from finqa.agents.retrieval.ingest import ingest_paths
    from finqa.benchmarks.retrieval import score_items

    folder = work / name.replace(" ", "_").replace("<", "lt")
    shutil.rmtree(folder, ignore_errors=True)
    settings = load_settings(overrides={"index.path": str(folder), **overrides})
    cfg = settings.index
    try:
        embedder = get_embedder(
            cfg.embedder,
            batch_size=cfg.embed_batch_size,
            threads=cfg.torch_threads,
            backend=cfg.backend_for(),
            device=cfg.device,
        )
    except FinqaError as exc:
        return {"choice": name, "error": str(exc)}
    embedder.embed(["warm up"])
    load = os.getloadavg()[0]
    cpu0 = time.process_time()
    report = ingest_paths([pages], settings, embedder=embedder, progress=False)
    cpu = time.process_time() - cpu0
    agent = RetrievalAgent(settings, embedder=embedder)
    catalog = agent.index.catalog()
    present = {(r.doc_id, p) for r in catalog.values() for p in range(r.n_pages)}
    rows = []
    dense: list[tuple[float, float]] = []
    for q in questions:
        gold = set(q.evidence_pages)
        if not gold or q.doc_name not in catalog or not gold <= _sampled(pages, present):
            continue
        ev = agent.retrieve(q.question, 1, doc_ids=[q.doc_name])
        rows.append(score_items(ev.items, gold, {d for d, _ in gold}))
        dense.append(dense_recall(agent.index, embedder, q.question, q.doc_name, gold))
    chunks = agent.index.count_chunks()
    from finqa.agents.retrieval.embedder import cpu_kind

    return {
        "choice": name,
        "cpu_kind": cpu_kind(),  # the int8 gain depends on it (AVX2 vs AVX-512 VNNI)
        "embedder": getattr(embedder, "identity", {}),  # what actually embedded (after a fallback)
        "pages": report.pages,
        "chunks": chunks,
        "seconds": round(report.seconds, 2),
        "pages_per_s": round(report.pages_per_second, 2),
        "embed_seconds": round(report.embed_seconds, 2),
        "cpu_seconds": round(cpu, 2),
        "pages_per_cpu_s": round(report.pages / cpu, 3) if cpu > 0 else 0.0,
        "load": round(load, 2),
        "questions": len(rows),
        "dense@10": round(statistics.fmean(r for r, _ in dense), 4) if dense else 0.0,
        "dense_mrr": round(statistics.fmean(r for _, r in dense), 4) if dense else 0.0,
        "recall@10": round(statistics.fmean(r["recall@10"] for r in rows), 4) if rows else 0.0,
        "mrr": round(statistics.fmean(r["rr"] for r in rows), 4) if rows else 0.0,
    }


_SAMPLED: dict[Path, set[tuple[str, int]]] = {}


def _sampled(pages: Path, _present: set[tuple[str, int]]) -> set[tuple[str, int]]:
    if pages not in _SAMPLED:
        with pages.open(encoding="utf-8") as fh:
            _SAMPLED[pages] = {(r["doc_name"], int(r["page"])) for r in (json.loads(x) for x in fh)}
    return _SAMPLED[pages]


def main(argv: Sequence[str] | None = None) -> int:
    from finqa.benchmarks.questions import load_questions

    p = argparse.ArgumentParser(prog="python -m finqa.benchmarks.embed_speed")
    p.add_argument("--questions", default="../shared/financebench/questions.jsonl")
    p.add_argument("--pages-file", default="../shared/financebench/pages.jsonl.gz")
    p.add_argument("--pages", type=int, default=150)
    p.add_argument("--sample", choices=("gold", "filings"), default="gold")
    p.add_argument("--per-filing", type=int, default=30)
    p.add_argument("--filings", type=int, default=0, help="--sample filings: only this many")
    p.add_argument("--out", required=True)
    p.add_argument("--choices", help="comma-separated subset of: " + ", ".join(CHOICES))
    args = p.parse_args(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    questions = [q for q in load_questions(args.questions) if q.evidence_pages and q.doc_name]
    sample = out / "pages.jsonl"
    if not sample.exists():
        rows = (
            sample_filings(questions, Path(args.pages_file), args.per_filing, args.filings)
            if args.sample == "filings"
            else sample_pages(questions, Path(args.pages_file), args.pages)
        )
        sample.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    names = [c.strip() for c in args.choices.split(",")] if args.choices else list(CHOICES)
    saved = out / "embed_speed.json"  # choices measured by an earlier, interrupted run are kept
    results = json.loads(saved.read_text(encoding="utf-8")) if saved.exists() else []
    results = [r for r in results if "error" not in r]
    for name in names:
        if any(r["choice"] == name for r in results):
            continue
        t0 = time.perf_counter()
        res = _run_choice(name, CHOICES[name], sample, out / "idx", questions)
        results.append(res)
        print(json.dumps(res), flush=True)
        print(f"embed_speed: {name} done in {time.perf_counter() - t0:.0f} s", file=sys.stderr)
        saved.write_text(json.dumps(results, indent=1), encoding="utf-8")
    print(markdown(results))
    return 0


def markdown(results: Sequence[dict[str, Any]]) -> str:
    base = next((r for r in results if r["choice"] == "default" and "error" not in r), None)
    lines = [
        "| choice | pages/s | x default | pages/CPU-s | x default | chunks | dense@10 | dense MRR "
        "| recall@10 | mrr | questions |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in results:
        if "error" in r:
            lines.append(f"| {r['choice']} | not run: {r['error'][:80]} |" + " |" * 10)
            continue
        speed = r["pages_per_s"] / base["pages_per_s"] if base and base["pages_per_s"] else 0.0
        cpu = r.get("pages_per_cpu_s", 0.0)
        base_cpu = base.get("pages_per_cpu_s", 0.0) if base else 0.0
        cpu_x = cpu / base_cpu if base_cpu else 0.0
        lines.append(
            f"| {r['choice']} | {r['pages_per_s']:.2f} | {speed:.2f} | {cpu:.3f} | {cpu_x:.2f} | "
            f"{r['chunks']} | {r.get('dense@10', 0.0):.3f} | {r.get('dense_mrr', 0.0):.3f} | "
            f"{r['recall@10']:.3f} | {r['mrr']:.3f} | {r['questions']} |"
        )
    return "\n".join(lines)


if __name__ == "__main__":
    raise SystemExit(main())
