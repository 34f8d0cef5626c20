"""The `finqa` command line. Subcommands live with their packages (`*/cli.py: register`).

Heavy libraries are imported inside handlers, so `finqa --help` stays fast.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
import traceback
from collections.abc import Sequence
from types import TracebackType

from finqa.agents.errors import FinqaError
from finqa.agents.redact import redact_text
from finqa.agents.terminal import printable
from finqa.orchestrator.flags import add_global_flags

__all__ = ["main", "build_parser"]

# Modules that contribute subcommands; each has `register(subparsers) -> None`.
_COMMAND_MODULES = (
    "finqa.agents.retrieval.cli",  # ingest
    "finqa.orchestrator.commands",  # ask, demo
    "finqa.orchestrator.serve",  # serve
    "finqa.orchestrator.statements",  # statements
    "finqa.lexicon.cli",  # lexicon analyze
    "finqa.agents.judge.cli",  # judge
    "finqa.audit.cli",  # audit verify|checkpoint|show|export
    "finqa.benchmarks.cli",  # bench retrieval|financebench
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="finqa",
        description="Auditable question answering over SEC filings from a closed corpus.",
    )
    parser.add_argument("--debug", action="store_true", help="show tracebacks on errors")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in _COMMAND_MODULES:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name != name:
                raise
            continue
        module.register(sub)
    add_global_flags(parser)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    os.environ.setdefault("ANONYMIZED_TELEMETRY", "False")
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    debug = bool(args.debug or os.environ.get("FINQA_DEBUG"))
    sys.excepthook = _redacted_traceback  # a traceback (--debug, or a crash) may quote a URL
    try:
        return int(args.func(args) or 0)
    except FinqaError as exc:
        if debug:
            raise
        print(f"finqa: error: {printable(redact_text(str(exc)))}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("finqa: interrupted", file=sys.stderr)
        return 130


def _redacted_traceback(
    kind: type[BaseException], exc: BaseException, tb: TracebackType | None
) -> None:
    """Print an uncaught exception's traceback as Python would, secrets redacted."""
    text = "".join(traceback.format_exception(kind, exc, tb))
    sys.stderr.write(printable(redact_text(text)))


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
