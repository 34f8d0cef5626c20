"""Ingest speed and recall per embedder backend and chunking choice, on the same pages, one run.

    python -m finqa.benchmarks.embed_speed --pages 150 --out DIR [--choices a,b,...]

The page sample: for each dev question in file order, its filing's first two pages (cover,
contents) and its gold pages with one page either side, until `--pages` pages; written once to
DIR/pages.jsonl (derived, outside the repository). For every choice a fresh index is built
from those pages (the embedder is loaded before the clock starts) and timed; recall@10 is the
page recall of the default attempt-1 retrieval for the questions whose gold pages are all in
the sample, each searching its own filing. Choices differ in `index.embed_backend`,
`chunk_overlap`, `chunk_header` and `embed_min_words` (pages with fewer words: BM25 only).
"""

from __future__ import annotations

import argparse
import gzip
import json
import shutil
import statistics
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

__all__ = ["CHOICES", "sample_pages", "main"]

# name -> index overrides; "default" is today's default (torch fp32, 240 tokens, 40 overlap, headers)
CHOICES: dict[str, dict[str, Any]] = {
    "default": {},
    "onnx": {"index.embed_backend": "onnx"},
    "onnx-int8": {"index.embed_backend": "onnx-int8"},
    "openvino": {"index.embed_backend": "openvino"},
    "torch overlap0": {"index.chunk_overlap": 0},
    "torch no-header": {"index.chunk_header": False},
    "torch skip<50w": {"index.embed_min_words": 50},
    "onnx-int8 overlap0": {"index.embed_backend": "onnx-int8", "index.chunk_overlap": 0},
    "onnx-int8 overlap0 skip<50w": {
        "index.embed_backend": "onnx-int8",
        "index.chunk_overlap": 0,
        "index.embed_min_words": 50,
    },
    "onnx-int8 overlap0 no-header": {
        "index.embed_backend": "onnx-int8",
        "index.chunk_overlap": 0,
        "index.chunk_header": False,
    },
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
            backend=cfg.embed_backend,
            device=cfg.device,
        )
    except FinqaError as exc:
        return {"choice": name, "error": str(exc)}
    embedder.embed(["warm up"])
    report = ingest_paths([pages], settings, embedder=embedder, progress=False)
    agent = RetrievalAgent(settings, embedder=embedder)
    catalog = agent.index.catalog()
    present = {(r.doc_id, p) for r in catalog.values() for p in range(r.n_pages)}
    rows = []
    for q in questions:
        gold = set(q.evidence_pages)
        if not gold or q.doc_name not in catalog or not gold <= _sampled(pages, present):
            continue
        ev = agent.retrieve(q.question, 1, doc_ids=[q.doc_name])
        rows.append(score_items(ev.items, gold, {d for d, _ in gold}))
    chunks = agent.index.count_chunks()
    return {
        "choice": name,
        "pages": report.pages,
        "chunks": chunks,
        "seconds": round(report.seconds, 2),
        "pages_per_s": round(report.pages_per_second, 2),
        "embed_seconds": round(report.embed_seconds, 2),
        "questions": len(rows),
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
    p.add_argument("--out", required=True)
    p.add_argument("--choices", help="comma-separated subset of: " + ", ".join(CHOICES))
    args = p.parse_args(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    questions = [q for q in load_questions(args.questions) if q.evidence_pages and q.doc_name]
    sample = out / "pages.jsonl"
    if not sample.exists():
        rows = sample_pages(questions, Path(args.pages_file), args.pages)
        sample.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    names = [c.strip() for c in args.choices.split(",")] if args.choices else list(CHOICES)
    results = []
    for name in names:
        t0 = time.perf_counter()
        res = _run_choice(name, CHOICES[name], sample, out / "idx", questions)
        results.append(res)
        print(json.dumps(res), flush=True)
        print(f"embed_speed: {name} done in {time.perf_counter() - t0:.0f} s", file=sys.stderr)
        (out / "embed_speed.json").write_text(json.dumps(results, indent=1), encoding="utf-8")
    print(markdown(results))
    return 0


def markdown(results: Sequence[dict[str, Any]]) -> str:
    base = next((r for r in results if r["choice"] == "default" and "error" not in r), None)
    lines = [
        "| choice | pages/s | x default | chunks | recall@10 | mrr | questions |",
        "|---|---|---|---|---|---|---|",
    ]
    for r in results:
        if "error" in r:
            lines.append(f"| {r['choice']} | not run: {r['error'][:80]} | | | | | |")
            continue
        speed = r["pages_per_s"] / base["pages_per_s"] if base and base["pages_per_s"] else 0.0
        lines.append(
            f"| {r['choice']} | {r['pages_per_s']:.2f} | {speed:.2f} | {r['chunks']} | "
            f"{r['recall@10']:.3f} | {r['mrr']:.3f} | {r['questions']} |"
        )
    return "\n".join(lines)


if __name__ == "__main__":
    raise SystemExit(main())
