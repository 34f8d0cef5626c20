"""`finqa ingest PATH... [--index DIR] [--config FILE] [--metadata FILE]`."""

from __future__ import annotations

import argparse
from typing import Any

__all__ = ["register"]


def register(sub: Any) -> None:
    parser = sub.add_parser(
        "ingest", help="ingest filings (PDF, HTML, text, page JSONL[.gz]) into an index"
    )
    parser.add_argument("paths", nargs="+", metavar="PATH", help="files or folders")
    parser.add_argument("--index", help="index folder (default: index.path of the config)")
    parser.add_argument("--config", help="YAML config file (default: configs/default.yaml)")
    parser.add_argument(
        "--metadata", help="sidecar with doc_name, company, doc_type, doc_period (JSONL or CSV)"
    )
    parser.add_argument(
        "--dense", choices=["all", "none"], help="override index.dense (none = BM25 only)"
    )
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    parser.set_defaults(func=_run)


def _run(args: argparse.Namespace) -> int:
    from finqa.agents.config import load_settings
    from finqa.agents.logs import configure_logging
    from finqa.agents.retrieval.ingest import ingest_paths

    overrides: dict[str, Any] = {"index.path": args.index, "index.dense": args.dense}
    settings = load_settings(args.config, overrides=overrides)
    configure_logging(settings.log_level)  # operational logs to stderr; stdout keeps the summary
    report = ingest_paths(
        args.paths, settings, metadata_file=args.metadata, progress=not args.no_progress
    )
    print(report.summary())
    return 0 if (report.documents or report.unchanged or not report.skipped) else 1
