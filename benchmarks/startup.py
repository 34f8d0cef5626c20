"""Start-up cost of the CLI: cold `finqa --help` and `finqa ask` wall time, CPU time and peak RSS.

    python -m finqa.benchmarks.startup --index DIR [--question Q] [--repeat 5] [--json]

Each run is a new Python process (what a user's shell starts), so every import and every
model or store load is paid again. One untimed run goes first: it writes the bytecode caches
where Python may (a fresh install's first run), so the timed runs measure what every later
run costs. The questions' audit records go to a scratch log, never the index's own.

Printed per command: wall time median / min / max, CPU (user + system) median, peak RSS
median, and which heavy libraries the process imported (torch, chromadb,
sentence_transformers, transformers, onnxruntime, pandas). CPU time is the figure that does
not depend on what else the machine runs; wall time on a shared machine does.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

__all__ = ["Sample", "Summary", "HEAVY", "run_cold", "summarise", "main"]

HEAVY = (
    "torch",
    "chromadb",
    "sentence_transformers",
    "transformers",
    "onnxruntime",
    "tokenizers",
    "pandas",
)

# The child runs finqa's console entry point (what the `finqa` script runs) and, at exit, writes
# the heavy libraries it imported to the file named by FINQA_STARTUP_MODULES.
_CHILD = """
import atexit, json, os, sys
def _report():
    names = [m for m in json.loads(os.environ["FINQA_STARTUP_HEAVY"]) if m in sys.modules]
    with open(os.environ["FINQA_STARTUP_MODULES"], "w", encoding="utf-8") as fh:
        json.dump(names, fh)
atexit.register(_report)
from finqa.orchestrator.cli import main
sys.exit(main(sys.argv[1:]))
"""


@dataclass(frozen=True)
class Sample:
    """One cold process: wall and CPU seconds, peak RSS in MB, exit status, heavy imports."""

    wall: float
    cpu: float
    rss_mb: float
    status: int
    heavy: tuple[str, ...]


@dataclass(frozen=True)
class Summary:
    """Medians (and the wall range) over the timed runs of one command."""

    command: str
    runs: int
    wall_median: float
    wall_min: float
    wall_max: float
    cpu_median: float
    rss_mb_median: float
    heavy: tuple[str, ...]
    statuses: tuple[int, ...]


def run_cold(args: Sequence[str], *, env: dict[str, str] | None = None) -> Sample:
    """Run `finqa ARGS` in a new process; its own rusage (wait4) gives CPU time and peak RSS."""
    with tempfile.TemporaryDirectory(prefix="finqa-startup-") as tmp:
        modules = Path(tmp) / "modules.json"
        child_env = dict(os.environ if env is None else env)
        child_env["FINQA_STARTUP_MODULES"] = str(modules)
        child_env["FINQA_STARTUP_HEAVY"] = json.dumps(HEAVY)
        started = time.perf_counter()
        proc = subprocess.Popen(
            [sys.executable, "-c", _CHILD, *args],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            env=child_env,
        )
        _, raw_status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - started
        proc.returncode = os.waitstatus_to_exitcode(raw_status)  # reaped here, not by Popen
        heavy = tuple(json.loads(modules.read_text())) if modules.exists() else ()
    return Sample(
        wall=wall,
        cpu=usage.ru_utime + usage.ru_stime,
        rss_mb=usage.ru_maxrss / 1024.0,  # KiB on Linux
        status=proc.returncode,
        heavy=heavy,
    )


def summarise(command: str, samples: Sequence[Sample]) -> Summary:
    walls = [s.wall for s in samples]
    heavy = sorted({name for s in samples for name in s.heavy})
    return Summary(
        command=command,
        runs=len(samples),
        wall_median=statistics.median(walls),
        wall_min=min(walls),
        wall_max=max(walls),
        cpu_median=statistics.median(s.cpu for s in samples),
        rss_mb_median=statistics.median(s.rss_mb for s in samples),
        heavy=tuple(heavy),
        statuses=tuple(sorted({s.status for s in samples})),
    )


def _measure(command: str, args: Sequence[str], repeat: int, env: dict[str, str]) -> Summary:
    run_cold(args, env=env)  # untimed: bytecode caches, the OS page cache
    return summarise(command, [run_cold(args, env=env) for _ in range(repeat)])


def _line(s: Summary) -> str:
    heavy = ", ".join(s.heavy) if s.heavy else "none"
    return (
        f"{s.command}: wall {s.wall_median:.2f} s (min {s.wall_min:.2f}, max {s.wall_max:.2f}), "
        f"CPU {s.cpu_median:.2f} s, peak RSS {s.rss_mb_median:.0f} MB, {s.runs} runs, "
        f"exit {'/'.join(map(str, s.statuses))}; heavy imports: {heavy}"
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m finqa.benchmarks.startup", description=__doc__.splitlines()[0]
    )
    parser.add_argument("--index", required=True, help="a built index (BM25-only or dense)")
    parser.add_argument(
        "--question",
        default="What was the company's total revenue in its latest fiscal year?",
        help="the question `finqa ask` answers",
    )
    parser.add_argument("--repeat", type=int, default=5, help="timed runs per command")
    parser.add_argument("--json", action="store_true", help="one JSON object per command")
    args = parser.parse_args(argv)
    if args.repeat < 1:
        parser.error("--repeat must be at least 1")
    if not Path(args.index).is_dir():
        print(f"startup: error: no index at {args.index}", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory(prefix="finqa-startup-audit-") as scratch:
        env = dict(os.environ)
        env["FINQA_AUDIT__PATH"] = str(Path(scratch) / "audit.jsonl")
        load = os.getloadavg()[0]
        results = [
            _measure("finqa --help", ["--help"], args.repeat, env),
            _measure("finqa ask", ["ask", args.question, "--index", args.index], args.repeat, env),
        ]
    bytecode = "not written" if env.get("PYTHONDONTWRITEBYTECODE") else "cached"
    for s in results:
        print(json.dumps(asdict(s)) if args.json else _line(s))
    if not args.json:
        print(
            f"load average {load:.1f} at start, {os.cpu_count()} CPUs; bytecode {bytecode}; "
            f"index {args.index}"
        )
    return 0 if all(s.statuses == (0,) for s in results) else 1


if __name__ == "__main__":
    raise SystemExit(main())
