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

import json
import time
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from datetime import date, timedelta
from pathlib import Path
from typing import Any

from finqa.agents.errors import FinqaError
from finqa.benchmarks._xbrl_recovery import fye_month_of, statement_recovery

__all__ = [
    "XbrlQuestion",
    "calendar_fiscal_year",
    "generate_questions",
    "strip_tags",
    "filings_in",
    "prepare_filings",
    "Asked",
    "ask_and_grade",
    "tally",
    "run",
    "run_out_of_fold",
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


def filings_in(folder: Path) -> list[Path]:
    files = sorted(p for p in folder.iterdir() if p.suffix.lower() in (".htm", ".html"))
    if not files:
        raise FinqaError(f"no .htm/.html filings in {folder}")
    return files


def prepare_filings(files: Sequence[Path], mode: str, work: Path) -> list[Path]:
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
    from finqa.lexicon.display import own_year

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
        fye = fye_month_of(meta, period_end, quarter)
        keyed = calendar_fiscal_year(period_end, fye)
        questions += generate_questions(
            path.name, str(meta["company"]), doc.facts, fye, keyed, quarter, period_end,
            named=own_year(int(fy), meta.get("fy_label")),
        )  # fmt: skip
    return questions


@dataclass(frozen=True)
class Asked:
    """What `ask_and_grade` returns: one graded row per question, the filings as ingested and
    the ingest's time and report."""

    rows: list[dict[str, Any]]
    prepared: list[Path]
    ingest_seconds: float
    ingest: Any


def ask_and_grade(
    questions: Sequence[XbrlQuestion], files: Sequence[Path], mode: str, out: Path,
    config: str | None = None, withheld: frozenset[str] = frozenset(),
) -> Asked:  # fmt: skip
    """Write questions.jsonl, ingest the filings as `mode` has them (BM25-only), ask each
    question through the product and grade it; results.jsonl is resumable (a question already
    in it is not asked again) and a failing question is recorded, the run goes on. Ingest and
    answers use the catalogue view without the captions `withheld` (none: the whole catalogue)."""
    from finqa.agents.config import load_settings
    from finqa.agents.retrieval.ingest import ingest_paths
    from finqa.benchmarks._resumable import ask_each
    from finqa.benchmarks.grading import grade
    from finqa.lexicon.caches import withholding

    out.mkdir(parents=True, exist_ok=True)
    with (out / "questions.jsonl").open("w", encoding="utf-8") as fh:
        for q in questions:
            fh.write(json.dumps(asdict(q)) + "\n")
    prepared = prepare_filings(files, mode, out / "filings")
    index = out / "index"
    settings = load_settings(config, overrides={"index.path": str(index), "index.dense": "none"})
    started = time.perf_counter()
    with withholding(withheld):
        report = ingest_paths(prepared, settings, progress=False)
    ingest_s = time.perf_counter() - started

    def row_of(q: Any, res: Any, answer: str, status: str, seconds: float) -> dict[str, Any]:
        g = grade(q.question, q.answer, answer, abstained=status == "abstained")
        return {"qid": q.qid, "kind": q.kind, "filing": q.filing, "status": status,
                "label": g.label, "legs": len(res.legs) if res is not None else 0,
                "seconds": seconds, "answer": answer[:400], "gold": q.answer,
                "detail": g.detail}  # fmt: skip

    with withholding(withheld):
        rows = ask_each(index, questions, out, row_of, config)
    return Asked(rows, prepared, ingest_s, report.summary())


_LABELS = ("correct", "wrong", "abstained", "ungraded")


def tally(rows: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """Counts and shares of graded rows, by kind and by filing."""
    n = len(rows)
    count = {k: sum(r["label"] == k for r in rows) for k in _LABELS}
    filings = sorted({str(r["filing"]) for r in rows})
    return {
        "questions": n,
        **{k: round(v / n, 4) if n else None for k, v in count.items()},
        "counts": count,
        "by_kind": {
            kind: {k: sum(r["label"] == k for r in rows if r["kind"] == kind) for k in count}
            for kind in ("item", "change", "ratio")
        },
        "by_filing": {
            f: {k: sum(r["label"] == k for r in rows if r["filing"] == f) for k in count}
            for f in filings
        },
    }


def run(
    filings: Path, mode: str, out: Path, *, limit: int | None = None, config: str | None = None,
    holdout: str = "none",
) -> dict[str, Any]:  # fmt: skip
    """Generate, ask and grade; write questions.jsonl, results.jsonl, summary.json to `out`.
    `holdout='company'` also reads and answers each company's filings out of fold, without
    the catalogue captions only that company taught (`_xbrl_holdout`; `out_of_fold`)."""
    files = filings_in(filings)
    questions = _questions(files)[: limit or None]
    asked = ask_and_grade(questions, files, mode, out, config)
    summary: dict[str, Any] = {
        "mode": mode,
        "filings": len(files),
        **tally(asked.rows),
        "ingest_seconds": round(asked.ingest_seconds, 1),
        "ingest": asked.ingest,
    }
    if mode == "text-only":
        summary["statement_recovery"] = statement_recovery(asked.prepared, files)
    if holdout == "company":
        summary["out_of_fold"] = run_out_of_fold(
            questions, files, mode, out / "out-of-fold", config
        )
    (out / "summary.json").write_text(json.dumps(summary, indent=1), encoding="utf-8")
    return summary


def run_out_of_fold(
    questions: Sequence[Any], files: Sequence[Path], mode: str, out: Path,
    config: str | None = None, support: Mapping[str, Mapping[str, Any]] | None = None,
) -> dict[str, Any]:  # fmt: skip
    """Each company's filings ingested and their questions answered under the catalogue view
    without the captions that company alone taught (one index per company under `out/TICKER`),
    graded like the in-sample run; in text-only mode the statement recovery is measured out of
    fold too. Returns the tally (`xbrl.tally`), the captions withheld per company and the
    recovery."""
    from finqa.benchmarks._xbrl_holdout import filing_companies, withheld_by_filing

    company_of = filing_companies(files)
    withheld = withheld_by_filing(company_of, support)
    rows: list[dict[str, Any]] = []
    prepared: list[Path] = []
    for company in sorted(set(company_of.values())):
        mine = [p for p in files if company_of.get(p.name) == company]
        names = {p.name for p in mine}
        asked = ask_and_grade(
            [q for q in questions if q.filing in names], mine, mode, out / company, config,
            withheld=withheld[mine[0].name],
        )  # fmt: skip
        rows += asked.rows
        prepared += asked.prepared
    result: dict[str, Any] = {
        **tally(rows),
        "withheld": {
            c: sorted(withheld[next(n for n, k in company_of.items() if k == c)])
            for c in sorted(set(company_of.values()))
        },
    }
    if mode == "text-only":
        tagged = {p.name: p for p in files}
        result["statement_recovery"] = statement_recovery(
            prepared, [tagged[p.name] for p in prepared], withheld
        )
    return result
