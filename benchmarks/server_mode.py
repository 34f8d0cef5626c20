"""Chroma server mode against the local PersistentClient, side by side, same pages and queries.

    python -m finqa.benchmarks.server_mode --pages FILE.jsonl --out DIR [--real-embedder]
        [--repeat N] [--rounds N]

Starts `chroma run` on loopback (shipped with chromadb), ingests the same pages into a local
index and into the server, then runs the same questions (attempt 1, each against its own
filing) against both: ingest pages/s, and query latency p50/p95 after one warm-up query, plus
the first (cold) query of a process with an empty local folder in server mode, which fetches
its BM25 partition and chunk text from the server. By default a hashing embedder (384-d, no
model) isolates the storage cost; `--real-embedder` uses the configured model (loaded before
either ingest is timed). `--repeat N` asks the questions N times, each round with a new agent
(no query vector cached from the round before). `--rounds N` (default 2) repeats the whole
comparison on new folders and a new server collection, alternating which store goes first;
the summary gives each store's median ingest rate and its query percentiles over all rounds.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import os
import re
import shutil
import socket
import statistics
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

__all__ = ["ChromaServer", "HashEmbedder", "run_rounds", "main"]


class HashEmbedder:
    """Deterministic hashed bag of words (no model): the storage cost without the forward pass."""

    name = "hash-384"
    dimension = 384
    max_tokens = 256
    forward_seconds = 0.0

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        out = []
        for text in texts:
            vec = [0.0] * self.dimension
            for word in re.findall(r"[a-z0-9]+", text.lower()):
                vec[int(hashlib.md5(word.encode()).hexdigest()[:8], 16) % self.dimension] += 1.0
            norm = math.sqrt(sum(v * v for v in vec)) or 1.0
            out.append([v / norm for v in vec])
        return out

    def count_tokens(self, text: str) -> int:
        return len(re.findall(r"\w+|[^\w\s]", text))


class ChromaServer:
    """`chroma run --path DIR --host 127.0.0.1 --port P` as a child process."""

    def __init__(self, data: Path, port: int | None = None) -> None:
        self.data = data
        self.port = port or _free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self, timeout: float = 120) -> None:
        exe = Path(sys.executable).with_name("chroma")
        cmd = [str(exe) if exe.exists() else (shutil.which("chroma") or "chroma"), "run"]
        cmd += ["--path", str(self.data), "--host", "127.0.0.1", "--port", str(self.port)]
        self.data.mkdir(parents=True, exist_ok=True)
        log = (self.data.parent / f"chroma-{self.port}.log").open("ab")
        self.proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=1):
                    return
            except OSError:
                if self.proc.poll() is not None:
                    raise RuntimeError(f"chroma run exited with {self.proc.returncode}") from None
                time.sleep(0.3)
        self.stop()
        raise RuntimeError(f"chroma run did not listen on {self.port} within {timeout:.0f} s")

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.proc = None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _pct(values: list[float], q: float) -> float:
    values = sorted(values)
    idx = (len(values) - 1) * q / 100
    lo, hi = int(idx), min(int(idx) + 1, len(values) - 1)
    return values[lo] + (values[hi] - values[lo]) * (idx - lo)


def _measure(
    settings: Any, pages: Path, embedder: Any, questions: Sequence[Any], repeat: int = 1
) -> dict[str, Any]:
    """Ingest `pages` into the store `settings` names, then ask the questions of its filings
    (attempt 1, each against its own filing) from a reader (server mode: an empty folder)."""
    from finqa.agents.retrieval.agent import RetrievalAgent
    from finqa.agents.retrieval.ingest import ingest_paths

    embedder.embed(["warm up"])  # the model is loaded before timing, for both stores
    report = ingest_paths([pages], settings, embedder=embedder, progress=False)
    fresh = settings.with_overrides({"index.path": settings.index.path + "-reader"})
    reader = RetrievalAgent(fresh if settings.index.chroma_url else settings, embedder=embedder)
    docs = reader.index.catalog()
    asked = [q for q in questions if q.doc_name in docs]
    t0 = time.perf_counter()
    if asked:
        reader.retrieve(asked[0].question, 1, doc_ids=[asked[0].doc_name])
    cold = (time.perf_counter() - t0) * 1000
    lat = []
    for _ in range(repeat):  # each round a new agent: no query vector cached from the last
        agent = RetrievalAgent(reader.settings, index=reader.index, embedder=embedder)
        for q in asked:
            t0 = time.perf_counter()
            agent.retrieve(q.question, 1, doc_ids=[q.doc_name])
            lat.append((time.perf_counter() - t0) * 1000)
    return {
        "filings": len(docs),
        "pages": report.pages,
        "chunks": report.chunks,
        "ingest_s": round(report.seconds, 2),
        "ingest_pages_per_s": round(report.pages_per_second, 2),
        "queries": len(lat),
        "first_query_ms": round(cold, 1),
        "query_ms_p50": round(_pct(lat, 50), 1) if lat else 0.0,
        "query_ms_p95": round(_pct(lat, 95), 1) if lat else 0.0,
        "query_ms_mean": round(statistics.fmean(lat), 1) if lat else 0.0,
        "latencies_ms": [round(v, 2) for v in lat],
        "per_pass": len(asked),  # the first pass meets each filing for the first time
    }


def _summary(runs: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """One store over all rounds: median ingest rate, pooled query percentiles."""
    lat = [v for r in runs for v in r["latencies_ms"]]
    first = [v for r in runs for v in r["latencies_ms"][: r.get("per_pass", 0)]]
    later = [v for r in runs for v in r["latencies_ms"][r.get("per_pass", 0) :]]
    return {
        "rounds": len(runs),
        "ingest_pages_per_s_median": round(
            statistics.median(r["ingest_pages_per_s"] for r in runs), 2
        ),
        "ingest_pages_per_s_each": [r["ingest_pages_per_s"] for r in runs],
        "first_query_ms_median": round(statistics.median(r["first_query_ms"] for r in runs), 1),
        "queries": len(lat),
        "query_ms_p50": round(_pct(lat, 50), 1) if lat else 0.0,
        "query_ms_p95": round(_pct(lat, 95), 1) if lat else 0.0,
        # first pass (each filing's first questions: server mode fetches its vectors and
        # chunk text) and the later passes (`--repeat` > 1: filings already held)
        "first_pass_ms_p50_p95": [round(_pct(first, q), 1) for q in (50, 95)] if first else [],
        "later_passes_ms_p50_p95": [round(_pct(later, q), 1) for q in (50, 95)] if later else [],
    }


def run_rounds(
    out: Path,
    pages: Path,
    embedder: Any,
    name: str,
    questions: Sequence[Any],
    *,
    rounds: int = 2,
    repeat: int = 1,
) -> dict[str, Any]:
    """`rounds` rounds, each ingesting the same pages into a new local index and a new server
    collection; even rounds run the local store first, odd rounds the server first (so the
    order, and a machine load that drifts, weigh on both sides alike). One server serves all
    rounds and is stopped whatever happens."""
    from finqa.agents.config import load_settings

    base = {"index.embedder": name, "index.torch_threads": 1}
    runs: dict[str, list[dict[str, Any]]] = {"local": [], "server": []}
    order: list[str] = []
    server = ChromaServer(out / "work" / "chroma-data")
    server.start()
    try:
        for n in range(rounds):
            stores = {
                "local": load_settings(
                    overrides={**base, "index.path": str(out / "work" / f"local-{n}")}
                ),
                "server": load_settings(
                    overrides={
                        **base,
                        "index.path": str(out / "work" / f"server-cache-{n}"),
                        "index.chroma_url": server.url,
                        "index.collection": f"bench{n}",
                    }
                ),
            }
            for kind in ("local", "server") if n % 2 == 0 else ("server", "local"):
                order.append(kind)
                got = _measure(stores[kind], pages, embedder, questions, repeat)
                got["round"], got["load"] = n, round(os.getloadavg()[0], 2)
                runs[kind].append(got)
    finally:
        server.stop()
    return {
        "embedder": name,
        "order": order,
        "local": _summary(runs["local"]),
        "server": _summary(runs["server"]),
        "runs": runs,
    }


def main(argv: Sequence[str] | None = None) -> int:
    from finqa.benchmarks.questions import load_questions

    p = argparse.ArgumentParser(prog="python -m finqa.benchmarks.server_mode")
    p.add_argument("--pages", required=True, help="pages JSONL (e.g. embed_speed's pages.jsonl)")
    p.add_argument("--questions", default="../shared/financebench/questions.jsonl")
    p.add_argument("--out", required=True)
    p.add_argument("--real-embedder", action="store_true")
    p.add_argument("--repeat", type=int, default=1, help="ask the questions this many times")
    p.add_argument(
        "--rounds", type=int, default=2, help="rounds, alternating which store goes first"
    )
    args = p.parse_args(argv)
    if args.rounds < 1 or args.repeat < 1:
        p.error("--rounds and --repeat must be at least 1")
    out = Path(args.out)
    shutil.rmtree(out / "work", ignore_errors=True)
    (out / "work").mkdir(parents=True)
    questions = [q for q in load_questions(args.questions) if q.doc_name]
    if args.real_embedder:
        from finqa.agents.retrieval.embedder import get_embedder

        embedder: Any = get_embedder()
        name = "all-MiniLM-L6-v2"
    else:
        embedder, name = HashEmbedder(), HashEmbedder.name
    result = run_rounds(
        out, Path(args.pages), embedder, name, questions, rounds=args.rounds, repeat=args.repeat
    )
    (out / "server_mode.json").write_text(json.dumps(result, indent=1), encoding="utf-8")
    print(json.dumps({k: v for k, v in result.items() if k != "runs"}, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
