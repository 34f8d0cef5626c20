"""`finqa bench xbrl`: the command, over the three question sets graded by the filings' own tags.

- totals (default): `benchmarks.xbrl` — the company's tagged totals of one filing;
- `--kinds segment`: `benchmarks.xbrl_segments` — segment, geography and product questions;
- `--cross-filing`: `benchmarks.xbrl_cross` — peers, trends and stitched periods across filings.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from finqa.agents.errors import FinqaError
from finqa.benchmarks import xbrl

__all__ = ["add_parser"]


def add_parser(bench_sub: Any) -> None:
    """Add `finqa bench xbrl` to the `finqa bench` subcommands."""
    p = bench_sub.add_parser(
        "xbrl", help="questions from the filings' own inline XBRL tags, graded by the tags"
    )
    p.add_argument("--filings", required=True, help="folder of EDGAR .htm/.html filings")
    p.add_argument("--mode", choices=("as-filed", "text-only"), default="as-filed")
    p.add_argument("--out", default=None, help="output folder (default: ./bench-xbrl-MODE)")
    p.add_argument("--limit", type=int, default=None, help="only the first N questions")
    p.add_argument("--config", default=None, help="configuration YAML")
    p.add_argument(
        "--cross-filing",
        action="store_true",
        help="questions across filings (peers, trends; benchmarks/xbrl_cross.py)",
    )
    p.add_argument(
        "--kinds",
        choices=("totals", "segment"),
        default="totals",
        help="totals: the company's tagged totals; segment: segment, geography and product "
        "questions from the dimensional tags (benchmarks/xbrl_segments.py)",
    )
    p.add_argument(
        "--holdout-captions",
        choices=("none", "company"),
        default="none",
        help="company: also read and answer each company's filings out of fold, without the "
        "catalogue captions only that company's filings support (benchmarks/_xbrl_holdout.py)",
    )
    p.set_defaults(func=_cmd)


def _cmd(args: argparse.Namespace) -> int:
    folder = Path(args.filings)
    if not folder.is_dir():
        raise FinqaError(f"--filings {folder} is not a folder")
    out = Path(args.out or f"bench-xbrl-{args.mode}")
    if args.cross_filing:
        from finqa.benchmarks.xbrl_cross import run_cross

        summary = run_cross(folder, args.mode, out, limit=args.limit, config=args.config)
        print(
            f"bench xbrl --cross-filing ({args.mode}): {summary['questions']} questions from "
            f"{summary['filings']} filings: correct {summary['correct']:.1%}, wrong "
            f"{summary['wrong']:.1%}, abstained {summary['abstained']:.1%} ({summary['counts']}); "
            f"wrong accepted {summary['wrong_accepted']}; by kind {summary['by_kind']}; "
            f"{summary['seconds_per_leg']} s per leg"
        )
        return 0
    if getattr(args, "kinds", "totals") == "segment":
        from finqa.benchmarks import xbrl_segments

        summary = xbrl_segments.run(folder, args.mode, out, limit=args.limit, config=args.config)
        print(
            f"bench xbrl --kinds segment ({args.mode}): {summary['questions']} questions from "
            f"{summary['filings']} filings: {summary['counts']}, wrong accepted "
            f"{summary['wrong_accepted']}; by kind {summary['by_kind']}; filings with no part "
            f"answered: {summary['unread_filings']}"
        )
        return 0
    holdout = getattr(args, "holdout_captions", "none")
    summary = xbrl.run(
        folder, args.mode, out, limit=args.limit, config=args.config, holdout=holdout
    )
    _print_run(f"bench xbrl ({args.mode})", summary)
    oof = summary.get("out_of_fold")
    if oof is not None:
        withheld = {c: len(keys) for c, keys in oof["withheld"].items()}
        print(f"--- out of fold (captions withheld per company: {withheld})")
        _print_run(f"bench xbrl ({args.mode}, out of fold)", {**oof, "filings": summary["filings"]})
    return 0


def _print_run(title: str, summary: dict[str, Any]) -> None:
    c = summary["counts"]
    print(
        f"{title}: {summary['questions']} questions from {summary['filings']} "
        f"filings: correct {summary['correct']:.1%}, wrong {summary['wrong']:.1%}, "
        f"abstained {summary['abstained']:.1%} ({c})",
        file=sys.stdout,
    )
    for name, one in summary.get("by_filing", {}).items():
        print(f"  {name}: {one['correct']}/{one['wrong']}/{one['abstained']} right/wrong/abstained")
    rec = summary.get("statement_recovery")
    if rec and rec.get("measured"):
        totals = {k: v for k, v in rec.items() if k not in ("by_filing", "not_read")}
        print(f"statement model recovery of tagged facts: {totals}")
        for name, one in rec["by_filing"].items():
            missed = ", ".join(one["statements_not_read"])
            state = f"; statements not read: {missed}" if missed else ""
            if not one["read"]:
                state = " (no primary statement printed in the document: not counted)"
            print(f"  {name}: {one['recovered']}/{one['tagged']} recovered, "
                  f"{one['recovered_signed']} with the sign{state}")  # fmt: skip
    elif rec:
        print(f"statement model recovery of tagged facts: {rec}")
