"""Part figures (a segment's, a region's, a product line's) the statement model reads from
filings printed as text, listed for a hand check of their precision.

    python -m finqa.benchmarks.part_figures [--financebench DIR] [--pages FILE] [--out DIR]
        [--docs DOC...] [--sample N] [--seed S]

Every filing of `pages.jsonl.gz` (or `--pages`, a JSONL of `doc_name`, `page`, `text`) is read
from its page text (`statements.read_pages`); each fact of a 'segment' table with a dimension
is one part figure. OUT/part_figures.jsonl lists them (filing, page, table, axis, member, line
item, period, value, the row's caption and the printed cell); OUT/summary.json counts them,
the filers with one, and the figures by reader (the table id's suffix). `--sample N` prints N
figures drawn at random (seed `--seed`), at most a few per filing, each with the page lines
that print its cell, for a hand check of part name, line item, period and value.
"""

from __future__ import annotations

import argparse
import gzip
import json
import random
import re
import sys
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from finqa.benchmarks.statement_coverage import DEFAULT_FB

__all__ = ["filing_pages", "main", "part_figures"]


def filing_pages(path: Path, only: set[str]) -> Iterator[tuple[str, list[tuple[int, str]]]]:
    """(doc, its pages in order) of a pages JSONL, one filing at a time; a damaged line is
    skipped and counted on stderr."""
    opener = gzip.open if path.suffix == ".gz" else open
    pages: dict[str, list[tuple[int, str]]] = {}
    damaged = 0
    with opener(path, "rt", encoding="utf-8") as fh:
        for line in fh:
            try:
                row = json.loads(line)
                doc, page, text = str(row["doc_name"]), int(row["page"]), str(row["text"])
            except (ValueError, KeyError, TypeError):
                damaged += 1
                continue
            if only and doc not in only:
                continue
            pages.setdefault(doc, []).append((page, text))
    if damaged:
        print(f"{path}: {damaged} damaged line(s) skipped", file=sys.stderr)
    for doc in sorted(pages):
        yield doc, sorted(pages[doc])


def _reader(table_id: str) -> str:
    """The reader a part table comes from, by its id: 'p9-t0-parts' a typed table's rows,
    'p90-n0-blocks' a note's line-item blocks, 'p63-c17-parts' a page's text columns."""
    m = re.fullmatch(r"p\d+-(?P<kind>[a-z]+)\d*(?:-(?P<how>[a-z]+))?", table_id)
    return f"{m.group('kind')}-{m.group('how') or ''}" if m else table_id


def part_figures(doc: str, pages: list[tuple[int, str]]) -> list[dict[str, Any]]:
    """The part figures of one filing read from its page text."""
    from finqa.lexicon.statements import read_pages

    read = read_pages(doc, pages)
    out = []
    for table in read.tables:
        if table.statement != "segment" or table.source == "xbrl":
            continue
        for f in table.facts:
            if not f.dimensions:
                continue
            axis, member = f.dimensions[0]
            out.append(
                {
                    "doc": doc, "page": f.page, "table": table.table_id,
                    "reader": _reader(table.table_id), "axis": axis, "member": member,
                    "item": f.item, "period": f.period.key, "value": f.value,
                    "label": f.label, "raw": f.raw,
                }
            )  # fmt: skip
    return out


def _lines_with(text: str, raw: str, label: str) -> list[str]:
    cell = raw.strip().strip("$()").strip()
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    hit = [ln for ln in lines if cell and cell in ln and (not label or label[:12] in ln)]
    return (hit or [ln for ln in lines if cell and cell in ln])[:3]


def filings_args(prog: str, out: str, argv: list[str] | None) -> tuple[argparse.Namespace, Path]:
    """The options of a benchmark over every filing of pages.jsonl.gz (`filing_pages`), parsed,
    and the pages file they name; the output directory is made."""
    ap = argparse.ArgumentParser(prog=f"python -m finqa.benchmarks.{prog}")
    ap.add_argument("--financebench", type=Path, default=DEFAULT_FB)
    ap.add_argument("--pages", type=Path, default=None)
    ap.add_argument("--out", type=Path, default=Path(out))
    ap.add_argument("--docs", nargs="*", default=[])
    ap.add_argument("--sample", type=int, default=0)
    ap.add_argument("--seed", type=int, default=25)
    args = ap.parse_args(argv)
    path = args.pages or args.financebench / "pages.jsonl.gz"
    if not path.is_file():
        ap.error(f"no pages file at {path} (give --pages or --financebench)")
    args.out.mkdir(parents=True, exist_ok=True)
    return args, path


def main(argv: list[str] | None = None) -> int:
    args, path = filings_args("part_figures", "part-figures", argv)
    figures: list[dict[str, Any]] = []
    texts: dict[tuple[str, int], str] = {}
    for doc, pages in filing_pages(path, set(args.docs)):
        got = part_figures(doc, pages)
        figures += got
        if args.sample:
            wanted = {g["page"] for g in got}
            texts.update({(doc, p): t for p, t in pages if p in wanted})
        print(f"{doc}: {len(got)} part figures", file=sys.stderr)
    with (args.out / "part_figures.jsonl").open("w", encoding="utf-8") as fh:
        for g in figures:
            fh.write(json.dumps(g) + "\n")
    summary = {
        "figures": len(figures),
        "filers": len({g["doc"].split("_")[0] for g in figures}),
        "filings": len({g["doc"] for g in figures}),
        "by_reader": dict(Counter(g["reader"] for g in figures).most_common()),
    }
    (args.out / "summary.json").write_text(json.dumps(summary, indent=2) + "\n")
    print(json.dumps(summary, indent=2))
    if args.sample:
        rng = random.Random(args.seed)
        by_filer: dict[str, list[dict[str, Any]]] = {}
        for g in figures:
            by_filer.setdefault(g["doc"].split("_")[0], []).append(g)
        filers = sorted(by_filer)
        rng.shuffle(filers)
        per = max(1, -(-args.sample // max(1, len(filers))))
        drawn = [g for f in filers for g in rng.sample(by_filer[f], min(per, len(by_filer[f])))]
        for i, g in enumerate(drawn[: args.sample], 1):
            print(f"\n#{i} {g['doc']} p{g['page']} {g['table']} [{g['member']}] {g['item']} "
                  f"{g['period']} = {g['value']:,.2f}  (row {g['label']!r}, cell {g['raw']!r})")  # fmt: skip
            for ln in _lines_with(texts.get((g["doc"], g["page"]), ""), g["raw"], g["label"]):
                print("    |", ln[:160])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
