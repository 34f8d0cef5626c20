"""`finqa bench xbrl`: questions generated from each filing's own inline XBRL tags, graded by them.

    finqa bench xbrl --filings ../shared/edgar --mode as-filed --out /work/var/i15/xbrl

For every HTML filing in `--filings`, the tagged facts (no dimension: the company as a
whole) of catalogue line items give questions of three kinds: a line item for a period, a
change between the filing's two fiscal years, and a ratio of two tagged items. The gold is
the tag (value after scale and sign), never text anyone here wrote. Modes:

- as-filed: the filings are ingested as they are;
- text-only: every `ix:` tag is unwrapped and the hidden `ix:header` dropped before ingest,
  so the answers come from text and tables alone. The statement model's recovery of the
  tagged facts (right value, period and scale) is measured too, when a statement reader
  (`finqa.lexicon.statements.read_pages`) is installed.

Answers are graded like FinanceBench's (`benchmarks.grading.grade`: the answer's stated
figure, unit- and scale-aware, 1% tolerance). Writes questions.jsonl, results.jsonl and
summary.json to `--out`.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from datetime import date, timedelta
from pathlib import Path
from typing import Any

from finqa.agents.errors import FinqaError

__all__ = [
    "XbrlQuestion",
    "calendar_fiscal_year",
    "generate_questions",
    "strip_tags",
    "add_parser",
    "run",
]

# line items asked about, in order; per-share items are answered in dollars
_ITEMS = ("revenue", "net_income", "operating_income", "cfo", "total_assets", "eps_diluted")
_RATIOS = (
    ("operating_income", "revenue", "operating margin"),
    ("net_income", "revenue", "net margin"),
)
_BALANCE = {"total_assets"}


@dataclass(frozen=True)
class XbrlQuestion:
    """One generated question, its gold from the tags, and the facts it rests on."""

    qid: str
    filing: str  # file name
    kind: str  # item | change | ratio
    question: str
    answer: str  # gold as text for the grader, e.g. '21505.00' (USD millions)
    value: float  # gold in the question's unit
    facts: tuple[str, ...]  # 'concept@context p.N' of each tag used


def _fmt(value: float, decimals: int = 2) -> str:
    return f"{value:.{decimals}f}"


def _when(fy: int, quarter: int | None, end: date) -> str:
    if quarter is None:
        return f"fiscal year {fy}"
    return (
        f"the quarter ended {end.strftime('%B')} {end.day}, {end.year} (Q{quarter} of fiscal {fy})"
    )


def calendar_fiscal_year(day: date, fye_month: int) -> int:
    """The fiscal year a period ending on `day` is keyed by in the statement model (the
    calendar year its year ends in; a 52/53-week year ends up to a week into the next month)."""
    end = day - timedelta(days=7) if day.day <= 7 else day
    return end.year if end.month <= fye_month else end.year + 1


def generate_questions(
    filing: str, company: str, facts: Sequence[Any], fye_month: int, fiscal_year: int,
    quarter: int | None, period_end: date, *, named: int | None = None,
) -> list[XbrlQuestion]:  # fmt: skip
    """Questions about one filing from its tagged totals; an item whose tags disagree is skipped.

    `fiscal_year` is the year the statement model keys the filing's period by (the calendar
    year its fiscal year ends in); `named` is what the filer calls it (its dei:
    DocumentFiscalYearFocus: a retailer's year ended February 3, 2024 is its fiscal 2023),
    and the questions name every year the filer's way (default: the same)."""
    shift = (named - fiscal_year) if named is not None else 0
    from finqa.lexicon import get_metric
    from finqa.lexicon.xbrl import period_key

    def key_of(fy: int) -> tuple[str, str]:
        base = f"FY{fy}" if quarter is None else f"{fy}Q{quarter}"
        return base, f"{base}@end"

    values: dict[tuple[str, str], set[float]] = {}
    cites: dict[tuple[str, str], str] = {}
    ends: dict[tuple[str, str], date] = {}
    for f in facts:
        if f.item is None or not f.is_total:
            continue
        k = period_key(f, fye_month)
        if quarter is not None and f.months not in (0, 3):
            continue
        values.setdefault((f.item, k), set()).add(round(f.value, 6))
        cites.setdefault((f.item, k), f"{f.concept}@{f.context_id} p.{f.page}")
        ends.setdefault((f.item, k), f.end)

    def one(item: str, fy: int) -> float | None:
        dur, inst = key_of(fy)
        got = values.get((item, inst if item in _BALANCE else dur))
        return next(iter(got)) if got and len(got) == 1 else None

    out: list[XbrlQuestion] = []
    stem = Path(filing).stem
    for item in _ITEMS:
        name = get_metric(item).name.lower() if get_metric(item) else item
        per_share = item.startswith("eps")
        unit = "in USD" if per_share else "in USD millions"
        scale = 1.0 if per_share else 1e6
        cur = one(item, fiscal_year)
        if cur is None:
            continue
        when = _when(fiscal_year + shift, quarter, period_end)
        prefix = "At the end of" if item in _BALANCE else "In"
        cite = cites[(item, key_of(fiscal_year)[1 if item in _BALANCE else 0])]
        out.append(
            XbrlQuestion(
                f"{stem}-{item}", filing, "item",
                f"{prefix} {when}, what was {company}'s {name}, {unit}?",
                _fmt(cur / scale), cur / scale, (cite,),
            )
        )  # fmt: skip
        prev = one(item, fiscal_year - 1)
        if prev is not None and not per_share:
            prior_end = ends.get((item, key_of(fiscal_year - 1)[0]), period_end)
            then = _when(fiscal_year - 1 + shift, quarter, prior_end)
            change = (cur - prev) / scale
            out.append(
                XbrlQuestion(
                    f"{stem}-{item}-change", filing, "change",
                    f"By how much did {company}'s {name} change from {then} to {when}, {unit}?",
                    _fmt(change), change, (cite,),
                )
            )  # fmt: skip
    for num, den, label in _RATIOS:
        a, b = one(num, fiscal_year), one(den, fiscal_year)
        if a is None or not b:
            continue
        ratio = 100.0 * a / b
        when = _when(fiscal_year + shift, quarter, period_end)
        out.append(
            XbrlQuestion(
                f"{stem}-{label.replace(' ', '_')}", filing, "ratio",
                f"What was {company}'s {label} ({num.replace('_', ' ')} as a percentage of "
                f"{den}) in {when}?",
                f"{ratio:.1f}%", ratio, (),
            )
        )  # fmt: skip
    return out


def strip_tags(data: bytes) -> bytes:
    """The document with every `ix:` element unwrapped and the hidden `ix:header` removed."""
    from finqa.agents.retrieval.loaders import html_tree
    from lxml import etree

    root = html_tree(data)
    for header in [e for e in root.iter() if _ix(e.tag) == "header"]:
        parent = header.getparent()
        if parent is not None:
            _drop(header)
    for el in [e for e in root.iter() if _ix(e.tag)]:
        _unwrap(el)
    return bytes(etree.tostring(root, encoding="utf-8"))


def _ix(tag: Any) -> str:
    if isinstance(tag, str) and ("inlineXBRL" in tag or tag.lower().startswith("ix:")):
        return tag.rsplit("}", 1)[-1].rsplit(":", 1)[-1].lower()
    return ""


def _drop(el: Any) -> None:
    parent = el.getparent()
    tail = el.tail or ""
    prev = el.getprevious()
    if prev is not None:
        prev.tail = (prev.tail or "") + tail
    else:
        parent.text = (parent.text or "") + tail
    parent.remove(el)


def _unwrap(el: Any) -> None:
    parent = el.getparent()
    if parent is None:
        return
    idx = parent.index(el)
    text = el.text or ""
    prev = el.getprevious()
    if prev is not None:
        prev.tail = (prev.tail or "") + text
    else:
        parent.text = (parent.text or "") + text
    children = list(el)
    for offset, child in enumerate(children):
        parent.insert(idx + offset, child)
    last = children[-1] if children else el.getprevious()
    tail = el.tail or ""
    if last is not None and last is not el:
        last.tail = (last.tail or "") + tail
    else:
        parent.text = (parent.text or "") + tail
    parent.remove(el)


# --------------------------------------------------------------------------- running


def _filings(folder: Path) -> list[Path]:
    files = sorted(p for p in folder.iterdir() if p.suffix.lower() in (".htm", ".html"))
    if not files:
        raise FinqaError(f"no .htm/.html filings in {folder}")
    return files


def _prepare(files: Sequence[Path], mode: str, work: Path) -> list[Path]:
    work.mkdir(parents=True, exist_ok=True)
    out = []
    for path in files:
        target = work / path.name
        if not target.exists():
            data = path.read_bytes()
            target.write_bytes(strip_tags(data) if mode == "text-only" else data)
        out.append(target)
    return out


def _questions(files: Sequence[Path]) -> list[XbrlQuestion]:
    from finqa.agents.retrieval.loaders import LoadedDoc, load_path
    from finqa.agents.retrieval.metadata import doc_metadata

    questions: list[XbrlQuestion] = []
    for path in files:
        doc = next((d for d in load_path(path) if isinstance(d, LoadedDoc)), None)
        if doc is None or not doc.facts:
            continue
        meta = doc_metadata(doc.doc_id, dei=doc.dei)
        fy, end = meta.get("fiscal_year"), meta.get("period_end")
        if not (fy and end and meta.get("company")):
            continue
        period_end = date.fromisoformat(end)
        fp = str(meta.get("fiscal_period") or "FY")
        quarter = int(fp[1]) if fp.startswith("Q") else None
        fye = _fye_month(meta, period_end, quarter)
        keyed = calendar_fiscal_year(period_end, fye)
        questions += generate_questions(
            path.name, str(meta["company"]), doc.facts, fye, keyed, quarter, period_end,
            named=int(fy),
        )  # fmt: skip
    return questions


def _fye_month(meta: dict[str, Any], period_end: date, quarter: int | None) -> int:
    from finqa.lexicon import lookup_company

    company = lookup_company(str(meta.get("company") or ""))
    if company is not None:
        return company.fiscal_year_end_month
    day = period_end if period_end.day > 7 else period_end.replace(day=1)
    month = day.month if period_end.day > 7 else (day.month - 2) % 12 + 1
    return month if quarter is None else (month + 3 * (4 - quarter) - 1) % 12 + 1


_KEY_ITEMS = frozenset(
    {"revenue", "net_income", "total_assets", "total_liabilities_and_equity", "cfo"}
)
_PRIMARY = frozenset({"income", "balance", "cashflow"})
_KEY_STATEMENT = {"revenue": "income", "net_income": "income", "total_assets": "balance",
                  "cfo": "cashflow"}  # fmt: skip
_COUNTS = ("tagged", "recovered", "recovered_signed", "on_statement_pages", "recovered_there",
           "recovered_there_signed", "in_tables", "recovered_in_tables")  # fmt: skip


def _recover_one(plain: Any, tagged: Any, fye: int, read_pages: Any) -> dict[str, Any]:
    """One filing's recovery counts, the tags missed (at most 12), and which primary statements
    the document prints (by its tags) and the reader typed."""
    from finqa.lexicon.xbrl import period_key

    read = read_pages(plain.doc_id, plain.pages, [(t.page, t.rows) for t in plain.tables])
    have: dict[str, list[float]] = {}
    kinds: set[str] = set()
    for table in read.tables:
        for f in table.facts:
            have.setdefault(f.period.key, []).append(float(f.value))
            if f.item in _KEY_ITEMS and table.statement in _PRIMARY:
                kinds.add(table.statement)
    counts = dict.fromkeys(_COUNTS, 0)
    misses: list[str] = []
    # statement pages, by the tags themselves: where the key totals are tagged
    pages = {f.page for f in tagged.facts if f.item in _KEY_ITEMS and f.is_total}
    for fact in tagged.facts:
        if fact.item is None or not fact.is_total or fact.unit != "USD":
            continue
        tol = max(1.0, 0.0005 * abs(fact.value))  # the table's rounding
        key = period_key(fact, fye)
        found = have.get(key, ())
        hit = any(abs(abs(v) - abs(fact.value)) <= tol for v in found)
        signed = any(abs(v - fact.value) <= tol for v in found)
        counts["tagged"] += 1
        counts["recovered"] += hit
        counts["recovered_signed"] += signed
        if not signed and len(misses) < 12:
            why = "sign" if hit else "value"
            misses.append(f"{fact.concept} {key} {fact.value:g} p.{fact.page} ({why})")
        if fact.in_table:
            counts["in_tables"] += 1
            counts["recovered_in_tables"] += hit
        if fact.page in pages:
            counts["on_statement_pages"] += 1
            counts["recovered_there"] += hit
            counts["recovered_there_signed"] += signed
    # the primary statements the document prints, by its own tags: a key total tagged in a table
    printed = {_KEY_STATEMENT[f.item] for f in tagged.facts
               if f.item in _KEY_STATEMENT and f.is_total and f.in_table}  # fmt: skip
    return {
        **counts,
        "statements_in_document": sorted(printed),
        "statements_read": sorted(kinds),
        "statements_not_read": sorted(printed - kinds),
        "read": bool(printed),
        "misses": misses,
    }


def _share(a: int, b: int) -> float | None:
    return round(a / b, 4) if b else None


def _recovery(files: Sequence[Path], tagged_from: Sequence[Path]) -> dict[str, Any]:
    """Share of tagged totals the statement reader finds with the right value, period, scale.

    For every tag with no dimension, a catalogue item and unit USD, the statement model read
    from the tag-stripped document (page text and its table cells, as ingest reads it) must
    hold a fact with the same period key whose value is within the table's rounding (0.05%,
    at least $1): `recovered` compares magnitudes, `recovered_signed` also the sign, which
    follows the concept's convention (a cash-flow outflow printed '(183)' is tagged +183 for a
    PaymentsTo... concept, and the reader gives the outflow +183 from its nature).
    `on_statement_pages` counts only the tags on the pages where the key totals are tagged;
    `in_tables` only the tags shown in a table cell (a figure tagged inside a sentence, 'SBC
    expense was $22.8 billion', is not a table's to recover).

    Per filing (`by_filing`): the primary statements the document prints, by its own tags (a
    key total tagged in a table cell: revenue or net income, total assets, operating cash
    flow), those the reader typed, and those it missed. A filing that prints none of them (a
    filer whose statements are in an exhibit) has `read: false` and is left out of the
    totals (`not_read`), never counted as read.
    """
    import importlib

    try:  # the statement model's text reader (lexicon/statements), when installed
        read_pages = importlib.import_module("finqa.lexicon.statements").read_pages
    except (ImportError, AttributeError):
        return {"measured": False, "reason": "no statement reader installed"}
    from finqa.agents.retrieval.loaders import LoadedDoc, load_path
    from finqa.agents.retrieval.metadata import doc_metadata

    counts = dict.fromkeys(_COUNTS, 0)
    by_filing: dict[str, dict[str, Any]] = {}
    for text_path, tagged_path in zip(files, tagged_from, strict=True):
        tagged = next((d for d in load_path(tagged_path) if isinstance(d, LoadedDoc)), None)
        plain = next((d for d in load_path(text_path) if isinstance(d, LoadedDoc)), None)
        if tagged is None or plain is None:
            continue
        meta = doc_metadata(tagged.doc_id, dei=tagged.dei)
        end = meta.get("period_end")
        if not end:
            continue
        fp = str(meta.get("fiscal_period") or "FY")
        fye = _fye_month(meta, date.fromisoformat(end), int(fp[1]) if fp.startswith("Q") else None)
        one = _recover_one(plain, tagged, fye, read_pages)
        one["share"] = _share(one["recovered"], one["tagged"])
        one["share_signed"] = _share(one["recovered_signed"], one["tagged"])
        by_filing[tagged_path.name] = one
        if one["read"]:
            for k in _COUNTS:
                counts[k] += one[k]
    t, s = counts["tagged"], counts["on_statement_pages"]
    return {
        "measured": True,
        **counts,
        "share": _share(counts["recovered"], t),
        "share_signed": _share(counts["recovered_signed"], t),
        "share_in_tables": _share(counts["recovered_in_tables"], counts["in_tables"]),
        "share_on_statement_pages": _share(counts["recovered_there"], s),
        "share_on_statement_pages_signed": _share(counts["recovered_there_signed"], s),
        "not_read": sorted(name for name, one in by_filing.items() if not one["read"]),
        "by_filing": by_filing,
    }


def run(
    filings: Path, mode: str, out: Path, *, limit: int | None = None, config: str | None = None,
) -> dict[str, Any]:  # fmt: skip
    """Generate, ask and grade; write questions.jsonl, results.jsonl, summary.json to `out`."""
    from finqa.agents.config import load_settings
    from finqa.agents.retrieval.ingest import ingest_paths
    from finqa.benchmarks.grading import grade
    from finqa.orchestrator import FinQA

    files = _filings(filings)
    out.mkdir(parents=True, exist_ok=True)
    questions = _questions(files)[: limit or None]
    with (out / "questions.jsonl").open("w", encoding="utf-8") as fh:
        for q in questions:
            fh.write(json.dumps(asdict(q)) + "\n")
    prepared = _prepare(files, mode, out / "filings")
    index = out / "index"
    settings = load_settings(config, overrides={"index.path": str(index), "index.dense": "none"})
    started = time.perf_counter()
    report = ingest_paths(prepared, settings, progress=False)
    ingest_s = time.perf_counter() - started
    done: dict[str, dict[str, Any]] = {}
    results = out / "results.jsonl"
    if results.exists():
        for line in results.read_text(encoding="utf-8").splitlines():
            row = json.loads(line)
            done[row["qid"]] = row
    qa = FinQA.open(str(index), config=config, audit_path=str(out / "audit.jsonl"))
    with results.open("a", encoding="utf-8") as fh:
        for q in questions:
            if q.qid in done:
                continue
            try:
                res = qa.ask(q.question, question_id=q.qid)
                answer, status = res.answer, res.status
            except Exception as exc:  # noqa: BLE001 - a failing question is recorded, the run goes on
                answer, status = f"failed: {type(exc).__name__}: {exc}", "failed"
            g = grade(q.question, q.answer, answer, abstained=status == "abstained")
            row = {"qid": q.qid, "kind": q.kind, "status": status, "label": g.label,
                   "answer": answer[:400], "gold": q.answer, "detail": g.detail}  # fmt: skip
            done[q.qid] = row
            fh.write(json.dumps(row) + "\n")
            fh.flush()
    rows = [done[q.qid] for q in questions if q.qid in done]
    n = len(rows)
    count = {
        k: sum(r["label"] == k for r in rows) for k in ("correct", "wrong", "abstained", "ungraded")
    }
    summary: dict[str, Any] = {
        "mode": mode,
        "filings": len(files),
        "questions": n,
        **{k: round(v / n, 4) if n else None for k, v in count.items()},
        "counts": count,
        "by_kind": {
            kind: {k: sum(r["label"] == k for r in rows if r["kind"] == kind) for k in count}
            for kind in ("item", "change", "ratio")
        },
        "ingest_seconds": round(ingest_s, 1),
        "ingest": report.summary(),
    }
    if mode == "text-only":
        summary["statement_recovery"] = _recovery(prepared, files)
    (out / "summary.json").write_text(json.dumps(summary, indent=1), encoding="utf-8")
    return summary


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
        import importlib  # like `finqa bench`'s own modules: a plug-in, no import cycle

        xbrl_segments = importlib.import_module("finqa.benchmarks.xbrl_segments")
        summary = xbrl_segments.run(folder, args.mode, out, limit=args.limit, config=args.config)
        print(
            f"bench xbrl --kinds segment ({args.mode}): {summary['questions']} questions from "
            f"{summary['filings']} filings: {summary['counts']}, wrong accepted "
            f"{summary['wrong_accepted']}; by kind {summary['by_kind']}; filings with no part "
            f"answered: {summary['unread_filings']}"
        )
        return 0
    summary = run(folder, args.mode, out, limit=args.limit, config=args.config)
    c = summary["counts"]
    print(
        f"bench xbrl ({args.mode}): {summary['questions']} questions from {summary['filings']} "
        f"filings: correct {summary['correct']:.1%}, wrong {summary['wrong']:.1%}, "
        f"abstained {summary['abstained']:.1%} ({c})",
        file=sys.stdout,
    )
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
    return 0
