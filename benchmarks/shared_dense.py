"""Embed the shared store (all filings of pages.jsonl.gz) into a dense index: a resumable
background benchmark, never a test.

    nice -n 19 python -m finqa.benchmarks.shared_dense --out /work/var/shared-dense

Step 1 (once): the pages file is split into one JSONL per filing under OUT/pages/ (derived
data, outside the repository), numbered so the dev questions' filings come first - a store
that is only partly embedded already holds every filing the questions ask about. Step 2: the
folder is ingested into OUT/index with the default embedder (a filing is committed whole or
not at all, so the same command resumes where a killed run stopped and re-embeds nothing).
A monitor thread rewrites OUT/progress.json every `--every` seconds and after the run:
filings and pages done of the total, pages/s of this run, an ETA at that rate, and the resume
command. `--embed-min-words N` keeps pages with fewer words out of the forward pass (they
stay in BM25), as measured by `embed_speed`; `--set index.KEY=VALUE` pins other settings (the
index records its embedder backend, so a resumed run keeps it; chunking is not recorded, so
resume with the same `--set`s - progress.json shows the command).

    python -m finqa.benchmarks.shared_dense --out DIR --latency 200

measures retrieval latency (p50/p95 of the default attempt-1 retrieval: dense + BM25 +
fusion + filter + rerank) over the questions whose filing is already committed, each asked
against the whole (partly built) store, and prints recall@5/10, hit@10 and MRR of those
questions (attempt 1), and, untimed, recall@20 of attempt 2 (20 items) and recall@30 of
attempt 3 (30 items). Wall-clock
and CPU time of the process (less sensitive to a loaded machine) are both reported, with the
load average. The embedder and Chroma are loaded before timing; a filing's BM25 partition and
vectors are read from disk on its first question, unless `--warm` asks every question once
untimed first (a long-running process that has seen the filings).

    python -m finqa.benchmarks.shared_dense --out DIR --rebuild-bm25

rewrites the BM25 partitions of an index built before the reranker's per-chunk statistics
(number density, title on page) were stored in them; without it those are computed per
candidate at query time (~10 ms more a query). Run it when no ingest is writing the index.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import statistics
import sys
import threading
import time
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import yaml

__all__ = ["split_pages", "progress", "main"]


def split_pages(pages_file: Path, folder: Path, first: Sequence[str]) -> int:
    """One `NNNN_<doc>.jsonl` per filing in `folder` (filings in `first` numbered first, then
    the rest by name); written once (a `.done` marker), returns the number of filings."""
    done = folder / ".done"
    if done.exists():
        return int(done.read_text(encoding="utf-8"))
    docs: dict[str, list[str]] = {}
    with gzip.open(pages_file, "rt", encoding="utf-8") as fh:
        for line in fh:
            row = json.loads(line)
            docs.setdefault(str(row["doc_name"]), []).append(line.rstrip("\n"))
    order = [d for d in dict.fromkeys(first) if d in docs]
    order += sorted(set(docs) - set(order))
    folder.mkdir(parents=True, exist_ok=True)
    for n, doc in enumerate(order):
        target = folder / f"{n:04d}_{doc}.jsonl"
        tmp = target.with_suffix(".tmp")
        tmp.write_text("\n".join(docs[doc]) + "\n", encoding="utf-8")
        tmp.replace(target)
    done.write_text(str(len(order)), encoding="utf-8")
    return len(order)


def _page_counts(folder: Path) -> dict[str, int]:
    counts: dict[str, int] = {}
    for path in sorted(folder.glob("*.jsonl")):
        with path.open(encoding="utf-8") as fh:
            counts[path.stem.split("_", 1)[1]] = sum(1 for _ in fh)
    return counts


def progress(index: Any, totals: dict[str, int], start: dict[str, Any]) -> dict[str, Any]:
    """Where the embedding stands: filings/pages committed, this run's rate, an ETA."""
    catalog = index.catalog(refresh=True)
    pages = sum(totals.get(d, r.n_pages) for d, r in catalog.items())
    total = sum(totals.values())
    elapsed = time.monotonic() - start["t"]
    rate = (pages - start["pages"]) / elapsed if elapsed > 0 else 0.0
    return {
        "updated": datetime.now(UTC).isoformat(timespec="seconds"),
        "filings_done": len(catalog),
        "filings_total": len(totals),
        "pages_done": pages,
        "pages_total": total,
        "pages_this_run": pages - start["pages"],
        "seconds_this_run": round(elapsed),
        "pages_per_s_this_run": round(rate, 3),
        "eta_hours_at_this_rate": round((total - pages) / rate / 3600, 1) if rate > 0 else None,
        "embed_backend": index.info.get("embed_backend"),
        "embed_min_words": start["min_words"],
        "resume": start["resume"],
    }


def _write(path: Path, data: dict[str, Any]) -> None:
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(data, indent=1), encoding="utf-8")
    tmp.replace(path)


def _settings(args: argparse.Namespace) -> Any:
    from finqa.agents.config import load_settings

    overrides: dict[str, Any] = {"index.path": args.index or str(Path(args.out) / "index")}
    if args.embed_min_words is not None:
        overrides["index.embed_min_words"] = args.embed_min_words
    for item in args.set or []:
        key, _, value = item.partition("=")
        overrides[key] = yaml.safe_load(value)
    return load_settings(args.config, overrides=overrides)


def embed(args: argparse.Namespace) -> int:
    from finqa.agents.retrieval.ingest import ingest_paths
    from finqa.agents.retrieval.store import open_index
    from finqa.benchmarks.questions import load_questions

    out = Path(args.out)
    first = [q.doc_name for q in load_questions(args.questions) if q.doc_name]
    n = split_pages(Path(args.pages_file), out / "pages", first)
    totals = _page_counts(out / "pages")
    settings = _settings(args)
    index = open_index(settings)
    resume = " ".join(
        ["nice -n 19 .venv/bin/python -m finqa.benchmarks.shared_dense", *sys.argv[1:]]
    )
    start = {
        "t": time.monotonic(),
        "pages": sum(totals.get(d, 0) for d in index.catalog(refresh=True)),
        "min_words": settings.index.embed_min_words,
        "resume": f"cd <a finqa checkout> && {resume}",
    }
    print(f"shared_dense: {n} filings, {sum(totals.values())} pages -> {out / 'index'}", flush=True)
    stop = threading.Event()

    def monitor() -> None:
        watcher = open_index(settings)
        while not stop.wait(args.every):
            _write(out / "progress.json", progress(watcher, totals, start))

    thread = threading.Thread(target=monitor, daemon=True)
    thread.start()
    try:
        report = ingest_paths([out / "pages"], settings, index=index, progress=False)
    finally:
        stop.set()
        thread.join(30)
        final = progress(open_index(settings), totals, start)
        _write(out / "progress.json", final)
        print(json.dumps(final), flush=True)
    print(report.summary(), flush=True)
    return 0


def latency(args: argparse.Namespace) -> int:
    from finqa.agents.retrieval.agent import RetrievalAgent
    from finqa.benchmarks.questions import load_questions
    from finqa.benchmarks.retrieval import score_items

    settings = _settings(args).with_overrides({"index.torch_threads": 1})
    agent = RetrievalAgent(settings)
    catalog = agent.index.catalog()
    qs = [q for q in load_questions(args.questions) if q.evidence_pages and q.doc_name in catalog]
    qs = qs[: args.latency]
    if not qs:
        print("shared_dense: no question has its filing committed yet", file=sys.stderr)
        return 1
    agent.warm()  # loads the embedder and opens Chroma: once per process, not timed
    if args.warm:  # steady state: every filing's BM25 partition and vectors already loaded
        for q in qs:
            agent.retrieve(q.question, 1)
        agent = RetrievalAgent(
            settings, index=agent.index, embedder=agent.embedder
        )  # no cached query vectors
        agent.warm()
    times, cpu, rows = [], [], []
    for q in qs:
        t0, c0 = time.perf_counter(), time.process_time()
        ev = agent.retrieve(q.question, 1)
        times.append((time.perf_counter() - t0) * 1000)
        cpu.append((time.process_time() - c0) * 1000)
        gold = set(q.evidence_pages)
        rows.append(score_items(ev.items, gold, {d for d, _ in gold}))
    deeper = []  # untimed: attempts 2 and 3 return 20 and 30 items (recall@20, @30)
    for q in qs:
        gold = set(q.evidence_pages)
        docs = {d for d, _ in gold}
        two = score_items(agent.retrieve(q.question, 2).items, gold, docs)
        three = score_items(agent.retrieve(q.question, 3).items, gold, docs)
        deeper.append((two["recall@20"], three["recall@30"]))
    times.sort()
    cpu.sort()
    result = {
        "filings_in_store": len(catalog),
        "chunks_in_store": agent.index.count_chunks(),
        "questions": len(qs),
        "p50_ms": round(statistics.median(times), 1),
        "p95_ms": round(times[min(len(times) - 1, int(0.95 * len(times)))], 1),
        "recall@5": round(statistics.fmean(r["recall@5"] for r in rows), 4),
        "recall@10": round(statistics.fmean(r["recall@10"] for r in rows), 4),
        "hit@10": round(statistics.fmean(r["hit@10"] for r in rows), 4),
        "mrr": round(statistics.fmean(r["rr"] for r in rows), 4),
        "recall@20_attempt2": round(statistics.fmean(d[0] for d in deeper), 4),
        "recall@30_attempt3": round(statistics.fmean(d[1] for d in deeper), 4),
        "cpu_ms_p50": round(statistics.median(cpu), 1),
        "cpu_ms_p95": round(cpu[min(len(cpu) - 1, int(0.95 * len(cpu)))], 1),
        "warm": bool(args.warm),
        "load": round(os.getloadavg()[0], 2),
    }
    print(json.dumps(result), flush=True)
    Path(args.out).mkdir(parents=True, exist_ok=True)
    _write(Path(args.out) / "latency.json", result)
    return 0


def rebuild_stats(args: argparse.Namespace) -> int:
    """Rewrite every committed filing's BM25 partition from the chunk store, under the ingest
    lock: partitions built before the reranker's per-chunk statistics gain them (the BM25
    scores stay the same), so queries read them instead of computing them per candidate."""
    from filelock import FileLock
    from finqa.agents.retrieval.store import open_index

    index = open_index(_settings(args), create=False)
    t0 = time.perf_counter()
    with FileLock(str(index.path / ".ingest.lock")):
        done = index.rebuild_bm25()
    print(
        f"shared_dense: {done} partitions rebuilt in {time.perf_counter() - t0:.0f} s", flush=True
    )
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m finqa.benchmarks.shared_dense")
    p.add_argument("--out", required=True, help="working folder (outside the repository)")
    p.add_argument("--pages-file", default="../shared/financebench/pages.jsonl.gz")
    p.add_argument("--questions", default="../shared/financebench/questions.jsonl")
    p.add_argument("--config")
    p.add_argument("--embed-min-words", type=int, help="pages with fewer words: BM25 only")
    p.add_argument(
        "--set",
        action="append",
        metavar="KEY=VALUE",
        help="a setting for this run, e.g. index.chunk_overlap=0 (repeat; keep them when resuming)",
    )
    p.add_argument("--every", type=float, default=60.0, help="seconds between progress writes")
    p.add_argument("--latency", type=int, help="measure retrieval latency on N questions instead")
    p.add_argument("--index", help="--latency: another index with vectors (default OUT/index)")
    p.add_argument(
        "--warm",
        action="store_true",
        help="--latency: ask every question once untimed first (partitions and vectors loaded)",
    )
    p.add_argument(
        "--rebuild-bm25",
        action="store_true",
        help="rewrite the index's BM25 partitions from its chunk store (adds the reranker's "
        "per-chunk statistics to an index built before them) and stop",
    )
    args = p.parse_args(argv)
    if args.rebuild_bm25:
        return rebuild_stats(args)
    return latency(args) if args.latency else embed(args)


if __name__ == "__main__":
    raise SystemExit(main())
