"""Statement model coverage on the FinanceBench question filings.

    python -m finqa.benchmarks.statement_coverage [--financebench DIR] [--out DIR]
        [--pdf-limit N] [--docs DOC...] [--all-filings]

Filings: the PDFs in `pdfs/` (page text as the loader extracts it) plus the text-only
(`evidence_only`) pages of the question filings without a PDF in `pages.jsonl.gz`.
`--all-filings`: every filing of `pages.jsonl.gz` (344, most with no dev question: a proxy for
filings finqa was not developed on) from its extracted page text; the primary-statement count
is given for the filings with and without a dev question apart.
Figures:
- statement pages parsed into typed tables (text reader; PDF `find_tables` on the first
  `--pdf-limit` PDFs, with its own share), and parse seconds per filing for both readers;
- gold figures of metrics-generated questions present in the model with the right period
  and scale: each line item the justification names ('... line item named: X'), for each
  fiscal year the question names (ranges expanded), must be a fact of the question's
  filing whose label is that line item, whose period is that fiscal year, and whose value
  is a number printed on a gold evidence page times the scale that page declares;
- annual and quarterly reports with each primary statement (income, balance sheet, cash
  flow) typed, naming the reports without one (`primary_statements`).
Per-filing results are cached in OUT (resumable); the summary is OUT/summary.json.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import re
import statistics
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from finqa.agents.types import StatementFact
from finqa.lexicon.numbers import detect_scale, extract_quantities
from finqa.lexicon.statements import (
    IndexStatementStore,
    StatementRead,
    label_key,
    read_pages,
    read_pdf,
    write_model,
)

__all__ = ["main", "gold_figures", "GoldFigure"]

DEFAULT_FB = Path(
    os.environ.get(
        "FINQA_FINANCEBENCH",
        Path(__file__).resolve().parent.parent.parent / "shared" / "financebench",
    )
)
_NAMED = re.compile(
    r"line item (?:named|name, as seen in the 10K, was):\s*(.+?)\s*(?:\.\s*$|\.\n|\n|$)", re.M
)
_FY = re.compile(r"\bFY\s?(\d{4})\b")
_RANGE = re.compile(r"\bFY\s?(\d{4})\s*(?:-|–|to|through)\s*FY\s?(\d{4})\b")


class GoldFigure(tuple[str, str, int, tuple[int, ...], str]):
    """(doc_id, line item as named, fiscal year, evidence pages, question id)."""

    __slots__ = ()

    @property
    def doc_id(self) -> str:
        return self[0]

    @property
    def label(self) -> str:
        return self[1]

    @property
    def year(self) -> int:
        return self[2]


def gold_figures(questions: list[dict[str, Any]]) -> list[GoldFigure]:
    """Every (filing, named line item, fiscal year) a metrics-generated question is computed from."""
    out: list[GoldFigure] = []
    for q in questions:
        if q.get("question_type") != "metrics-generated":
            continue
        names = [
            n.replace("\u00c2\u00a0", " ").replace("\u00a0", " ").strip()
            for n in _NAMED.findall(q.get("justification", ""))
        ]
        names = [n for n in names if n and not n.startswith("[")]
        text = q["question"]
        years: set[int] = {int(y) for y in _FY.findall(text)}
        for a, b in _RANGE.findall(text):
            years.update(range(int(a), int(b) + 1))
        pages = tuple(sorted({int(e["evidence_page_num"]) for e in q.get("evidence", [])}))
        for name in names:
            for year in sorted(years):
                out.append(GoldFigure((q["doc_name"], name, year, pages, q["financebench_id"])))
    return out


def _pdf_pages(path: Path) -> list[tuple[int, str]]:
    from finqa.agents.retrieval.loaders import LoadedDoc, load_path

    for item in load_path(path):
        if isinstance(item, LoadedDoc):
            return list(item.pages)
    return []


def _jsonl_docs(
    fb: Path, wanted: set[str], every: bool = False
) -> Iterator[tuple[str, list[tuple[int, str]]]]:
    pages: dict[str, list[tuple[int, str]]] = {}
    with gzip.open(fb / "pages.jsonl.gz", "rt", encoding="utf-8") as fh:
        for line in fh:
            rec = json.loads(line)
            kept = every or rec.get("source") == "evidence_only"
            if kept and (not wanted or rec["doc_name"] in wanted):
                pages.setdefault(rec["doc_name"], []).append((int(rec["page"]), rec["text"]))
    for doc_id, p in sorted(pages.items()):
        yield doc_id, sorted(p)


def _summary_of(read: StatementRead, pages: int | None = None) -> dict[str, Any]:
    return {
        "doc_id": read.doc_id,
        "method": read.method,
        "seconds": round(read.seconds, 3),
        "statement_pages": read.statement_pages,
        "typed_pages": read.typed_pages,
        "page_kinds": {str(k): v for k, v in read.page_kinds.items()},
        "pages": pages,
        "tables": len(read.tables),
        "tables_from_grid": sum(1 for t in read.tables if t.source == "pdf"),
        "facts": sum(len(t.facts) for t in read.tables),
        "failures": [(f.page, f.kind, f.reason) for f in read.failures],
    }


_PRIMARY = ("income", "balance", "cashflow")


def primary_statements(results: list[dict[str, Any]]) -> dict[str, Any]:
    """Annual and quarterly reports (10-K, 10-Q) with each primary statement typed: a statement
    page the reader never found is in no page count, so a report without a balance sheet
    shows here only. `missing` names each such report, its statements and its page count (a
    filing held as its evidence pages only has no full statements to read)."""
    from finqa.lexicon.identity import identify

    reports = [r for r in results if identify(file_name=r["doc_id"]).doc_type in ("10k", "10q")]
    have: dict[str, int] = dict.fromkeys(_PRIMARY, 0)
    missing: dict[str, dict[str, Any]] = {}
    for r in reports:
        typed = set(r["typed_pages"])
        kinds = {k for p, k in r.get("page_kinds", {}).items() if int(p) in typed}
        for kind in _PRIMARY:
            have[kind] += int(kind in kinds)
        lost = [k for k in _PRIMARY if k not in kinds]
        if lost:
            missing[r["doc_id"]] = {"statements": lost, "pages": r.get("pages")}
    return {
        "reports": len(reports),
        "with_all_three": len(reports) - len(missing),
        "by_statement": {k: f"{have[k]}/{len(reports)}" for k in _PRIMARY},
        "missing": missing,
    }


def _evidence(questions: list[dict[str, Any]]) -> dict[tuple[str, int], str]:
    out: dict[tuple[str, int], str] = {}
    for q in questions:
        for e in q.get("evidence", []):
            out[(e.get("doc_name") or q["doc_name"], int(e["evidence_page_num"]))] = e.get(
                "evidence_text_full_page", ""
            )
    return out


def _printed(fact: StatementFact, page_text: str) -> bool:
    """The fact's value is a number printed on the page, times the scale the page declares."""
    scale = 1.0 if fact.unit in ("USD/share", "%") else (detect_scale(page_text) or 1.0)
    if abs(fact.scale - scale) > 1e-9:
        return False
    filed = abs(fact.value / scale)
    return any(
        q.kind == "number" and abs(abs(q.value) - filed) < 1e-6
        for q in extract_quantities(page_text)
    )


def check_gold(
    figures: list[GoldFigure], store: IndexStatementStore, evidence: dict[tuple[str, int], str]
) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    for fig in figures:
        doc, name, year, pages, qid = fig
        key = label_key(re.sub(r"\([^)]*\)", "", name))
        facts = [
            f
            for t in store.tables(doc)
            for f in t.facts
            if label_key(re.sub(r"\([^)]*\)", "", f.label)) == key
        ]
        in_year = [f for f in facts if f.period.matches(year)]
        ok = [
            f
            for f in in_year
            if any(_printed(f, evidence.get((doc, p), "")) for p in pages if (doc, p) in evidence)
        ]
        status = (
            "ok"
            if ok
            else ("wrong_value_or_scale" if in_year else ("no_period" if facts else "missing"))
        )
        rows.append(
            {"question": qid, "doc_id": doc, "label": name, "year": year, "status": status,
             "value": ok[0].value if ok else None, "page": ok[0].page if ok else None}
        )  # fmt: skip
    return rows


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m finqa.benchmarks.statement_coverage")
    ap.add_argument("--financebench", type=Path, default=DEFAULT_FB)
    ap.add_argument("--out", type=Path, default=Path("/work/var/i11a/coverage"))
    ap.add_argument("--pdf-limit", type=int, default=0, help="also run find_tables on N PDFs")
    ap.add_argument("--docs", nargs="*", default=[], help="only these filings")
    ap.add_argument("--fresh", action="store_true", help="ignore cached per-filing results")
    ap.add_argument(
        "--all-filings",
        action="store_true",
        help="every filing of pages.jsonl.gz from its page text (no PDFs read)",
    )
    args = ap.parse_args(argv)
    fb: Path = args.financebench
    if not (fb / "questions.jsonl").exists():
        print(f"no FinanceBench data at {fb}", file=sys.stderr)
        return 2
    out: Path = args.out
    model_dir = out / "model"
    (out / "text").mkdir(parents=True, exist_ok=True)
    (out / "pdf").mkdir(parents=True, exist_ok=True)
    wanted = set(args.docs)
    questions = [json.loads(line) for line in (fb / "questions.jsonl").open(encoding="utf-8")]
    pdfs = sorted(p for p in (fb / "pdfs").glob("*.pdf") if not wanted or p.stem in wanted)
    if args.all_filings:
        pdfs = []  # every filing's extracted pages instead
    text_results: list[dict[str, Any]] = []

    def run_text(doc_id: str, pages: list[tuple[int, str]]) -> None:
        cache = out / "text" / f"{doc_id}.json"
        if cache.exists() and not args.fresh and (model_dir / "statements").exists():
            text_results.append(json.loads(cache.read_text()))
            return
        read = read_pages(doc_id, pages)
        write_model(model_dir, read, content_hash=f"bench:{len(pages)}")
        summary = _summary_of(read, len(pages))
        cache.write_text(json.dumps(summary))
        text_results.append(summary)
        print(f"text {doc_id}: {len(read.typed_pages)}/{len(read.statement_pages)} pages, "
              f"{summary['facts']} facts, {read.seconds:.2f} s", flush=True)  # fmt: skip

    for path in pdfs:
        run_text(path.stem, _pdf_pages(path))
    for doc_id, pages in _jsonl_docs(fb, wanted, args.all_filings):
        run_text(doc_id, pages)
    pdf_results: list[dict[str, Any]] = []
    for path in pdfs[: args.pdf_limit]:
        cache = out / "pdf" / f"{path.stem}.json"
        if cache.exists() and not args.fresh:
            pdf_results.append(json.loads(cache.read_text()))
            continue
        summary = _summary_of(read_pdf(path.stem, path))
        cache.write_text(json.dumps(summary))
        pdf_results.append(summary)
        print(f"pdf {path.stem}: {len(summary['typed_pages'])}/{len(summary['statement_pages'])} "
              f"pages, {summary['facts']} facts, {summary['seconds']:.1f} s", flush=True)  # fmt: skip
    store = IndexStatementStore(model_dir)
    gold = check_gold(
        [g for g in gold_figures(questions) if not wanted or g.doc_id in wanted],
        store,
        _evidence(questions),
    )
    (out / "gold.jsonl").write_text("".join(json.dumps(r) + "\n" for r in gold))

    def share(results: list[dict[str, Any]]) -> dict[str, Any]:
        st = sum(len(r["statement_pages"]) for r in results)
        ty = sum(len(set(r["typed_pages"]) & set(r["statement_pages"])) for r in results)
        secs = [r["seconds"] for r in results]
        kinds: dict[str, list[int]] = {}
        for r in results:
            typed = set(r["typed_pages"])
            for page, kind in r.get("page_kinds", {}).items():
                kinds.setdefault(kind, [0, 0])[0] += 1
                kinds[kind][1] += int(int(page) in typed)
        return {
            "by_statement": {k: f"{t}/{n}" for k, (n, t) in sorted(kinds.items())},
            "filings": len(results),
            "statement_pages": st,
            "typed_pages": ty,
            "share_typed": round(ty / st, 4) if st else None,
            "facts": sum(r["facts"] for r in results),
            "tables": sum(r.get("tables", 0) for r in results),
            "tables_from_find_tables_grid": sum(r.get("tables_from_grid", 0) for r in results),
            "seconds_per_filing_mean": round(statistics.mean(secs), 3) if secs else None,
            "seconds_per_filing_median": round(statistics.median(secs), 3) if secs else None,
        }

    same = {r["doc_id"] for r in pdf_results}
    summary = {
        "text": share(text_results),
        "primary_statements": primary_statements(text_results),
        "primary_statements_no_dev_question": primary_statements(
            [r for r in text_results if r["doc_id"] not in {q["doc_name"] for q in questions}]
        ),
        "text_on_pdf_subset": share([r for r in text_results if r["doc_id"] in same]),
        "pdf_find_tables": share(pdf_results),
        "gold_figures": {
            "n": len(gold),
            "present": sum(1 for r in gold if r["status"] == "ok"),
            "share": round(sum(1 for r in gold if r["status"] == "ok") / len(gold), 4) if gold else None,
            "by_status": {s: sum(1 for r in gold if r["status"] == s) for s in sorted({r["status"] for r in gold})},
        },
    }  # fmt: skip
    (out / "summary.json").write_text(json.dumps(summary, indent=1))
    print(json.dumps(summary, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
