"""`finqa statements`: what finqa read from a filing's statements, with page anchors.

    finqa statements DOC_ID [--index DIR] [--statement income|balance|...] [--json|--csv]
    finqa statements --build [DOC_ID...] [--index DIR] [--method text|pdf] [--force]
    finqa statements [--index DIR]            # documents with a model and their coverage

`--build` makes the model of documents already in the index without re-embedding
anything: each document's source is re-read, checked against the content hash the index
committed, parsed and stored in `<index>/statements/`.
"""

from __future__ import annotations

import argparse
import csv
import json
import sqlite3
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from finqa.agents.errors import IndexError_

__all__ = ["register", "build_models", "BuildReport", "render_tables"]

_KINDS = ("income", "balance", "cashflow", "equity", "segment", "quarterly", "other")


def register(sub: Any) -> None:
    parser = sub.add_parser(
        "statements",
        help="show the statement tables finqa read from a filing (or --build them)",
        description="Show the statement model of an indexed filing: line items as filed, "
        "periods, values in base units and the page each came from.",
    )
    parser.add_argument("docs", nargs="*", metavar="DOC_ID", help="document id(s) in the index")
    parser.add_argument("--index", metavar="DIR", help="index folder (default: index.path)")
    parser.add_argument("--config", metavar="FILE", help="YAML config file")
    parser.add_argument("--statement", choices=_KINDS, help="only this statement")
    fmt = parser.add_mutually_exclusive_group()
    fmt.add_argument("--json", action="store_true", help="JSON: tables with every fact")
    fmt.add_argument("--csv", action="store_true", help="CSV: one row per fact")
    parser.add_argument(
        "--build", action="store_true", help="build missing/outdated models of indexed documents"
    )
    parser.add_argument(
        "--method",
        choices=("text", "pdf"),
        default="text",
        help="reader for --build: page text (default) or PyMuPDF find_tables on PDF sources",
    )
    parser.add_argument("--force", action="store_true", help="with --build: rebuild every model")
    parser.set_defaults(func=_run)


@dataclass
class BuildReport:
    built: list[str] = field(default_factory=list)
    current: list[str] = field(default_factory=list)
    skipped: list[tuple[str, str]] = field(default_factory=list)
    seconds: float = 0.0

    def summary(self) -> str:
        more = "; ".join(f"{d}: {r}" for d, r in self.skipped[:5])
        return (
            f"statement models: {len(self.built)} built, {len(self.current)} already current, "
            f"{len(self.skipped)} skipped"
            + (f" [{more}]" if more else "")
            + f", {self.seconds:.1f} s"
        )


def _index_dir(args: argparse.Namespace) -> Path:
    from finqa.agents.config import load_settings

    settings = load_settings(args.config, overrides={"index.path": args.index})
    where = Path(settings.index.path).expanduser()
    if not (where / "chunks.sqlite").exists():
        raise IndexError_(
            f"no finqa index at {where}; build one with: finqa ingest PATH... --index {where}"
        )
    return where


def _indexed(index_dir: Path) -> list[tuple[str, str, str, str]]:
    """(doc_id, content_hash, source, kind) of every committed document."""
    con = sqlite3.connect(f"file:{index_dir / 'chunks.sqlite'}?mode=ro", uri=True)
    try:
        rows = con.execute("SELECT doc_id, content_hash, source, kind FROM docs").fetchall()
    finally:
        con.close()
    return [(str(r[0]), str(r[1]), str(r[2] or ""), str(r[3] or "")) for r in rows]


def build_models(
    index_dir: str | Path,
    doc_ids: Sequence[str] = (),
    *,
    method: str = "text",
    force: bool = False,
    out: TextIO | None = None,
) -> BuildReport:
    """Build the statement model of indexed documents from their sources (no re-embedding)."""
    import time

    from finqa.agents.retrieval.ingest import build_statement_model
    from finqa.agents.retrieval.loaders import LoadedDoc, load_path
    from finqa.lexicon.statements import read_pdf, write_model
    from finqa.lexicon.statements.store import MODEL_VERSION, manifest_entry

    started = time.perf_counter()
    index_dir = Path(index_dir)
    report = BuildReport()
    wanted = set(doc_ids)
    docs = [d for d in _indexed(index_dir) if not wanted or d[0] in wanted]
    for missing in sorted(wanted - {d[0] for d in docs}):
        report.skipped.append((missing, "not in the index"))
    by_source: dict[str, dict[str, str]] = {}
    for doc_id, content_hash, source, _kind in docs:
        entry = manifest_entry(index_dir, doc_id)
        same = (
            bool(entry)
            and entry.get("content_hash") == content_hash  # type: ignore[union-attr]
            and entry.get("version") == MODEL_VERSION  # type: ignore[union-attr]
        )  # a model built by an older reader is outdated even when the source is unchanged
        if not force and same and (method == "text" or entry.get("method") == method):  # type: ignore[union-attr]
            report.current.append(doc_id)
            continue
        by_source.setdefault(source.split("#", 1)[0], {})[doc_id] = content_hash
    for source, hashes in by_source.items():
        path = Path(source) if source else None  # a JSONL source holds many documents
        if path is None or not path.exists():
            report.skipped.extend((d, f"source file {source or '?'} not found") for d in hashes)
            continue
        for item in load_path(path):
            if not isinstance(item, LoadedDoc) or item.doc_id not in hashes:
                continue
            expected = hashes.pop(item.doc_id)
            if item.content_hash != expected:
                report.skipped.append(
                    (item.doc_id, "source changed since ingest; re-run finqa ingest")
                )
                continue
            try:
                if method == "pdf" and item.kind == "pdf":
                    write_model(index_dir, read_pdf(item.doc_id, path), content_hash=expected)
                else:
                    build_statement_model(index_dir, item, force=True)
            except Exception as exc:  # noqa: BLE001 - one bad document never stops the rest; it is reported
                report.skipped.append((item.doc_id, f"not parsed: {exc}"))
                continue
            report.built.append(item.doc_id)
            if out is not None:
                print(f"finqa statements: built {item.doc_id}", file=out, flush=True)
        report.skipped.extend((d, "not found in its source") for d in hashes)
    report.seconds = time.perf_counter() - started
    return report


def _scale_word(scale: float) -> str:
    return {1e3: "in thousands", 1e6: "in millions", 1e9: "in billions"}.get(scale, "as filed")


def _fmt(value: float, unit: str) -> str:
    if unit in ("USD/share", "%", "pure"):
        return f"{value:,.2f}"
    return f"{value:,.0f}"


def render_tables(tables: Sequence[Any], out: TextIO) -> None:
    """Tables as text: title, statement, pages and scale, then one line per line item with
    its values per period (base units) and the page each was read from."""
    for t in tables:
        pages = ",".join(str(p) for p in t.pages)
        out.write(
            f"== {t.doc_id} {t.table_id}: {t.title or '(untitled)'} [{t.statement}] "
            f"page {pages} (0-based), {_scale_word(t.scale)}, read from {t.source}\n"
        )
        keys = [p.key for p in t.periods]
        flags = [
            "+".join(
                x
                for x, on in (
                    ("restated", p.restated),
                    ("unaudited", p.unaudited),
                    (f"{p.weeks}wk", p.weeks is not None),
                )
                if on
            )
            for p in t.periods
        ]
        head = [f"{k}({f})" if f else k for k, f in zip(keys, flags, strict=True)]
        out.write("   " + f"{'line item':<58}" + "".join(f"{h:>20}" for h in head) + "\n")
        rows: dict[int, dict[int, Any]] = {}
        for f in t.facts:
            rows.setdefault(f.row, {})[f.column] = f
        for r in sorted(rows):
            first = next(iter(rows[r].values()))
            label = first.label if len(first.label) <= 56 else first.label[:55] + "…"
            item = f" <{first.item}>" if first.item else ""
            cells = "".join(
                f"{_fmt(rows[r][c].value, rows[r][c].unit) if c in rows[r] else '':>20}"
                for c in range(len(keys))
            )
            out.write(f"   {(label + item)[:58]:<58}{cells}  p.{first.page}\n")
        for note in t.notes:
            out.write(f"   note: {note}\n")
        out.write("\n")


def _run(args: argparse.Namespace) -> int:
    try:
        return _show(args)
    except BrokenPipeError:  # `finqa statements DOC | head`
        import os

        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


def _show(args: argparse.Namespace) -> int:
    from finqa.lexicon.statements import IndexStatementStore

    index_dir = _index_dir(args)
    if args.build:
        report = build_models(
            index_dir, args.docs, method=args.method, force=args.force, out=sys.stderr
        )
        print(report.summary())
        return 0 if not report.skipped or report.built or report.current else 1
    store = IndexStatementStore(index_dir)
    if not args.docs:
        for doc_id in store.docs():
            rep = store.report(doc_id) or {}
            pages = rep.get("statement_pages", [])
            typed = set(rep.get("typed_pages", [])) & set(pages)
            print(
                f"{doc_id}: {rep.get('tables', 0)} tables, {rep.get('facts', 0)} facts, "
                f"{len(typed)}/{len(pages)} statement pages typed ({rep.get('method', '?')})"
            )
        if not store.docs():
            print(f"no statement models in {index_dir}; build them with: finqa statements --build")
        return 0
    status = 0
    for doc_id in args.docs:
        if doc_id not in store.docs():
            print(
                f"finqa: error: no statement model for {doc_id!r} in {index_dir} "
                f"(see `finqa statements --index {index_dir}`; build with --build)",
                file=sys.stderr,
            )
            status = 1
            continue
        tables = store.tables(doc_id, args.statement)
        if args.json:
            rep = store.report(doc_id) or {}
            payload = {
                "doc_id": doc_id,
                "tables": [t.model_dump(mode="json") for t in tables],
                "failures": rep.get("failures", []),
            }
            print(json.dumps(payload, ensure_ascii=False, indent=1))
        elif args.csv:
            writer = csv.writer(sys.stdout)
            writer.writerow(
                ["doc_id", "statement", "table_id", "title", "label", "item", "period",
                 "period_label", "value", "unit", "scale", "raw", "page", "row", "column"]
            )  # fmt: skip
            for t in tables:
                for f in t.facts:
                    writer.writerow(
                        [f.doc_id, f.statement, f.table_id, f.table_title, f.label, f.item or "",
                         f.period.key, f.period.label, repr(f.value), f.unit, repr(f.scale),
                         f.raw, f.page, f.row, f.column]
                    )  # fmt: skip
        else:
            render_tables(tables, sys.stdout)
            for fail in (store.report(doc_id) or {}).get("failures", []):
                print(
                    f"   not parsed: page {fail['page']} [{fail['statement']}] "
                    f"{fail['title']}: {fail['reason']}"
                )
    return status
