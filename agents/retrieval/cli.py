"""`finqa ingest PATH... [--index DIR] [--config FILE] [--metadata FILE]` and `finqa docs`."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any, TextIO

__all__ = ["register"]


def register(sub: Any) -> None:
    parser = sub.add_parser(
        "ingest", help="ingest filings (PDF, HTML, text, page JSONL[.gz]) into an index"
    )
    parser.add_argument("paths", nargs="+", metavar="PATH", help="files or folders")
    parser.add_argument("--index", help="index folder (default: index.path of the config)")
    parser.add_argument("--config", help="YAML config file (default: configs/default.yaml)")
    parser.add_argument(
        "--metadata", help="sidecar with doc_id, company, doc_type, doc_period (JSONL or CSV)"
    )
    parser.add_argument(
        "--dense", choices=["all", "none"], help="override index.dense (none = BM25 only)"
    )
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    parser.set_defaults(func=_run)
    docs = sub.add_parser(
        "docs",
        help="list indexed filings: company, form, fiscal year, period, and where each came from",
    )
    docs.add_argument("--index", help="index folder (default: index.path of the config)")
    docs.add_argument("--config", help="YAML config file (default: configs/default.yaml)")
    docs.add_argument("--json", action="store_true", help="one JSON object per filing")
    docs.set_defaults(func=_docs)


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


_DOC_FIELDS = (
    "company",
    "ticker",
    "cik",
    "form",
    "fiscal_year",
    "period",
    "period_end",
    "filing_date",
    "report_date",
)


def _docs(args: argparse.Namespace) -> int:
    from finqa.agents.config import load_settings
    from finqa.agents.retrieval.store import open_index

    settings = load_settings(args.config, overrides={"index.path": args.index})
    index = open_index(settings, create=False)
    rows = [_doc_row(rec.doc_id, rec.n_pages, rec.meta) for rec in index.catalog().values()]
    rows.sort(key=lambda r: str(r["doc_id"]))
    if args.json:
        for row in rows:
            print(json.dumps(row, sort_keys=False))
    else:
        render_docs(rows, sys.stdout)
    return 0


def _doc_row(doc_id: str, n_pages: int, meta: Any) -> dict[str, Any]:
    row: dict[str, Any] = {"doc_id": doc_id, "pages": n_pages}
    row.update({k: meta.get(k) for k in _DOC_FIELDS})
    row["doc_type"] = meta.get("doc_type")
    row["amendment"] = bool(meta.get("amendment"))
    row["registrants"] = list(meta.get("registrants") or [])
    row["sources"] = dict(meta.get("sources") or {})
    row["identified"] = bool(meta.get("company") or meta.get("doc_type"))
    return row


def render_docs(rows: list[dict[str, Any]], out: TextIO) -> None:
    """One line per filing, then the source of each field; unknown fields print as '?'."""
    if not rows:
        print("no filings in the index", file=out)
        return
    for row in rows:
        form = str(row.get("form") or "?")
        bits = [
            str(row["doc_id"]),
            str(row.get("company") or "?") + (f" ({row['ticker']})" if row.get("ticker") else ""),
            form,
            str(row.get("period") or row.get("fiscal_year") or "?"),
            f"ended {row['period_end']}" if row.get("period_end") else "",
            f"filed {row['filing_date']}" if row.get("filing_date") else "",
            f"report {row['report_date']}" if row.get("report_date") else "",
        ]
        print("  ".join(b for b in bits if b), file=out)
        if len(row.get("registrants") or []) > 1:
            print("    registrants: " + "; ".join(row["registrants"]), file=out)
        if not row["identified"]:
            print("    identity unknown: no cover page, dei facts or known file name", file=out)
        by_source: dict[str, list[str]] = {}
        for name, source in (row.get("sources") or {}).items():
            by_source.setdefault(str(source), []).append(name)
        if by_source:
            shown = "; ".join(f"{src}: {', '.join(names)}" for src, names in by_source.items())
            print(f"    from {shown}", file=out)
