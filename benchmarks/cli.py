"""`finqa bench ...`: retrieval and FinanceBench benchmark subcommands."""

from __future__ import annotations

import importlib
from typing import Any

__all__ = ["register"]

# Each module has `add_parser(bench_subparsers) -> None` adding one `finqa bench X` command.
_BENCH_MODULES = (
    "finqa.benchmarks.retrieval",
    "finqa.benchmarks.financebench",
    "finqa.benchmarks.xbrl_cli",
)


def register(sub: Any) -> None:
    bench = sub.add_parser("bench", help="run benchmarks (retrieval, financebench, xbrl)")
    bench_sub = bench.add_subparsers(dest="bench_command", metavar="BENCH")
    bench.set_defaults(func=lambda args: (bench.print_help(), 2)[1])
    for name in _BENCH_MODULES:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name != name:
                raise
            continue
        module.add_parser(bench_sub)
