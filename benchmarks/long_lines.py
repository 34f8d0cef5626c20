"""Ingest cost of one-line text files: wall time, pages/s, MB/s, chunks and peak RSS.

    python -m finqa.benchmarks.long_lines [--sizes 2,20] [--finqa PATH] [--timeout 600]

Writes a one-line text file of each size (MB; deterministic filing-like words and figures, no
newline) to a temporary folder and runs ``finqa ingest FILE --dense none`` on it in a child
process, one at a time; the child's own peak RSS comes from ``os.wait4``. ``--finqa`` picks the
console script to measure (e.g. another checkout's ``.venv/bin/finqa``, for before/after).
A child still running after ``--timeout`` seconds is stopped and reported as such.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

__all__ = ["main", "one_line_file", "measure"]

_WORDS = [
    "revenue",
    "net",
    "income",
    "total",
    "assets",
    "the",
    "company",
    "reported",
    "an",
    "increase",
    "decrease",
    "of",
    "million",
    "in",
    "fiscal",
    "year",
    "operating",
    "cash",
    "flow",
    "segment",
    "margin",
    "1,234",
    "5.6%",
    "(789)",
    "$",
    "12.5",
    "billion",
    "2024",
    "2023",
]
_INGESTED = re.compile(r"(\d+) pages, (\d+) chunks")


def one_line_file(path: Path, megabytes: float, seed: int = 7) -> Path:
    """A text file of about `megabytes` MB on a single line (no newline at all)."""
    rng = random.Random(seed)
    target = int(megabytes * (1 << 20))
    with path.open("w", encoding="utf-8") as f:
        written = 0
        while written < target:
            block = " ".join(rng.choice(_WORDS) for _ in range(4096)) + " "
            f.write(block)
            written += len(block)
    return path


def measure(finqa: str, file: Path, index: Path, timeout: float) -> dict[str, object]:
    """Run one ingest; wall seconds, peak RSS (MB), pages, chunks, exit status."""
    cmd = [finqa, "ingest", str(file), "--index", str(index), "--dense", "none", "--no-progress"]
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    deadline = start + timeout
    status: int | str | None = None
    while status is None:
        pid, raw, usage = os.wait4(proc.pid, os.WNOHANG)
        if pid:
            status = os.waitstatus_to_exitcode(raw)
            break
        if time.perf_counter() > deadline:
            proc.send_signal(signal.SIGKILL)
            _, raw, usage = os.wait4(proc.pid, 0)
            status = "timeout"
            break
        time.sleep(0.2)
    wall = time.perf_counter() - start
    out = proc.stdout.read() if proc.stdout else ""
    proc.returncode = 0  # reaped by wait4 above
    found = _INGESTED.search(out)
    pages, chunks = (int(found[1]), int(found[2])) if found else (0, 0)
    return {
        "wall_s": wall,
        "rss_mb": usage.ru_maxrss / 1024,
        "pages": pages,
        "chunks": chunks,
        "status": status,
        "tail": out.strip().splitlines()[-1] if out.strip() else "",
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="2,20", help="file sizes in MB, comma-separated")
    beside = Path(sys.executable).with_name("finqa")
    default = str(beside) if beside.is_file() else shutil.which("finqa") or "finqa"
    ap.add_argument("--finqa", default=default, help="the finqa console script to measure")
    ap.add_argument("--timeout", type=float, default=600.0, help="seconds per ingest")
    args = ap.parse_args(argv)
    sizes = [float(s) for s in args.sizes.split(",") if s.strip()]
    print(f"finqa: {args.finqa}")
    print(
        f"{'size':>7} {'wall s':>8} {'MB/s':>7} {'pages/s':>8} {'chunks':>7} {'peak RSS':>9}  status"
    )
    with tempfile.TemporaryDirectory(prefix="finqa-longlines-") as tmp:
        for mb in sizes:
            file = one_line_file(Path(tmp) / f"one-line-{mb:g}mb.txt", mb)
            r = measure(args.finqa, file, Path(tmp) / f"index-{mb:g}", args.timeout)
            wall = float(r["wall_s"])  # type: ignore[arg-type]
            pages = int(r["pages"])  # type: ignore[call-overload]
            print(
                f"{mb:>5g}MB {wall:>8.1f} {mb / wall:>7.2f} {pages / wall:>8.3f} "
                f"{r['chunks']:>7} {float(r['rss_mb']):>7.0f}MB  {r['status']}"  # type: ignore[arg-type]
            )
            if r["status"] != 0:
                print(f"        {str(r['tail'])[:200]}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
