"""Trend questions over several years' FinanceBench 10-Ks, graded by each year's own filing.

    python -m finqa.benchmarks.financebench_trend --out DIR [--companies 3] [--years 4] [--limit N]

Companies with 10-Ks for at least three consecutive fiscal years whose pages are in
`pages.jsonl.gz` (extracted from the PDF, not evidence pages alone) are taken in name order
(`documents.jsonl` names the filings), each with its latest run of consecutive years (at most
`--years`). Only those filings' pages are written to `DIR/pages.jsonl` and ingested into a small
BM25-only index (`DIR/index`, nothing embedded). Questions come from general templates over the
catalogue's line items, never from one filing's wording:

- growth: "By what percentage did <C>'s <item> change from fiscal <A> to fiscal <B>?"
- CAGR: "What was <C>'s <item> CAGR from fiscal <A> to fiscal <B>?"
- a margin's move: "By how many percentage points did <C>'s <margin> change from fiscal <A> to
  fiscal <B>?" (the catalogue's formula of the margin, e.g. operating income / revenue)
- the highest year: "In which fiscal year from <A> to <B> was <C>'s <item> the highest?"

over revenue, operating income, net income and operating cash flow (margins: operating and net).
The gold of each year is the figure **that year's own 10-K** reports for its own fiscal year, as
the index's statement model read it (`lexicon.statements`, the primary fact of the lookup), not
the figure a leg used (a later 10-K's comparative may be restated); a question whose years do
not all have an own figure is left out and counted. Numeric answers are graded like every
benchmark here (`benchmarks.grading.grade`); a "which year" answer is right when its first
sentence names the gold year and no other year of the span. Writes questions.jsonl,
results.jsonl (resumable: a question already there is not asked again), audit.jsonl and
summary.json (right / wrong / abstained, wrong accepted, seconds per leg) to `--out`.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import sys
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any

__all__ = [
    "Filing",
    "TrendQuestion",
    "grade_answer",
    "own_figures",
    "runs_of_10k",
    "trend_questions",
    "run",
    "main",
]

ITEMS = ("revenue", "operating_income", "net_income", "cfo")
MARGINS = ("operating_margin", "net_margin")
KINDS = ("growth", "cagr", "margin", "highest")
_LABELS = ("correct", "wrong", "abstained", "ungraded")


@dataclass(frozen=True)
class Filing:
    """One 10-K of the store: its document name, company (as `documents.jsonl` names it) and
    fiscal year."""

    doc: str
    company: str
    year: int


@dataclass(frozen=True)
class TrendQuestion:
    """A generated question, its gold from each year's own filing, and the facts it rests on."""

    qid: str
    kind: str  # growth | cagr | margin | highest
    company: str
    item: str  # catalogue metric id
    years: tuple[int, ...]
    question: str
    answer: str  # gold as text for the grader
    value: float  # gold in the question's unit (the year, for 'highest')
    facts: tuple[str, ...]  # 'DOC p.N item FYyyyy = value (as printed)' of each figure used
    restated: tuple[str, ...] = ()  # years a later 10-K reports otherwise (see `_restated`)
    latest_answer: str = ""  # the gold from each year's latest reported figure (restatements)
    latest_value: float | None = None


def runs_of_10k(
    documents: Iterable[Mapping[str, Any]], paged: Mapping[str, str], *, min_years: int = 3
) -> dict[str, list[Filing]]:
    """Each company's latest run of consecutive fiscal years of 10-Ks whose pages the store holds
    from the filing itself (`paged`: doc -> 'pdf' | 'evidence_only'), when it has `min_years`."""
    by_company: dict[str, dict[int, Filing]] = {}
    for d in documents:
        doc, kind = str(d.get("doc_name")), str(d.get("doc_type") or "").lower()
        if kind != "10k" or paged.get(doc) != "pdf" or not isinstance(d.get("doc_period"), int):
            continue
        year = int(d["doc_period"])
        by_company.setdefault(str(d["company"]), {})[year] = Filing(doc, str(d["company"]), year)
    out: dict[str, list[Filing]] = {}
    for company, years in sorted(by_company.items()):
        run: list[int] = []
        for y in sorted(years):
            run = [*run, y] if run and y == run[-1] + 1 else [y]
            if len(run) >= min_years:
                out[company] = [years[x] for x in run]  # a later run replaces an earlier one
    return out


def _paged(pages: Path) -> dict[str, str]:
    """doc -> how its pages came ('pdf' when any page is from the PDF, else the source)."""
    found: dict[str, str] = {}
    with gzip.open(pages, "rt", encoding="utf-8") as fh:
        for line in fh:
            rec = json.loads(line)
            doc, source = str(rec["doc_name"]), str(rec.get("source") or "pdf")
            if found.get(doc) != "pdf":
                found[doc] = source
    return found


def _write_pages(pages: Path, docs: set[str], target: Path) -> Path:
    """The chosen filings' page records, one a line (kept when already written for them)."""
    stamp = target.with_suffix(".docs")
    if (
        target.exists()
        and stamp.exists()
        and stamp.read_text(encoding="utf-8") == "\n".join(sorted(docs))
    ):
        return target
    tmp = target.with_name(target.name + ".tmp")
    with gzip.open(pages, "rt", encoding="utf-8") as src, tmp.open("w", encoding="utf-8") as out:
        for line in src:
            rec = json.loads(line)
            if rec["doc_name"] in docs:
                out.write(json.dumps({k: rec[k] for k in ("doc_name", "page", "text")}) + "\n")
    os.replace(tmp, target)
    stamp.write_text("\n".join(sorted(docs)), encoding="utf-8")
    return target


def _same(a: float, b: float) -> bool:
    """Two readings of one figure agree: within 0.05% (a figure printed in millions, rounded)."""
    return abs(a - b) <= 5e-4 * max(abs(a), abs(b), 1e-9)


@dataclass(frozen=True)
class _Own:
    value: float
    fact: str
    later: float | None = None  # the latest later 10-K's figure for the same year (comparative)
    later_fact: str = ""


def _read(
    store: Any, doc: str, year: int, metric: str
) -> tuple[float, str] | None:  # fmt: skip
    """(value, 'DOC p.N item FYyyyy = value (raw)') of one filing's figure for one fiscal year:
    a line item is the statement model's primary fact of the lookup; a margin is the
    catalogue's formula over the same filing's line items."""
    from finqa.lexicon.arith import evaluate
    from finqa.lexicon.metrics import METRICS
    from finqa.lexicon.statements import primary_fact

    spec = METRICS[metric]
    items = [metric] if spec.formula is None else list(spec.inputs)
    values: dict[str, float] = {}
    shown: list[str] = []
    for item in items:
        fact = primary_fact(store.lookup(doc, item, year))
        if fact is None:
            return None
        values[item] = fact.value
        shown.append(f"{doc} p.{fact.page} {item} FY{year} = {fact.value:,.0f} ({fact.raw})")
    try:
        value = values[metric] if spec.formula is None else evaluate(spec.formula, values)
    except (ZeroDivisionError, ValueError):
        return None
    return value, "; ".join(shown)


def own_figures(
    store: Any, filings: Sequence[Filing], metrics: Sequence[str]
) -> dict[tuple[str, int], _Own]:
    """{(metric, year): the figure the year's own 10-K reports for its own fiscal year}, with
    the figure the latest later 10-K of the run reports for that year beside it (a restated or
    reclassified comparative shows; the product's legs take the latest figure)."""
    out: dict[tuple[str, int], _Own] = {}
    for f in filings:
        later_filings = sorted((g for g in filings if g.year > f.year), key=lambda g: -g.year)
        for metric in metrics:
            own = _read(store, f.doc, f.year, metric)
            if own is None:
                continue
            later = next(
                (r for g in later_filings if (r := _read(store, g.doc, f.year, metric))), None
            )
            out[(metric, f.year)] = _Own(
                own[0], own[1], later[0] if later else None, later[1] if later else ""
            )
    return out


def _restated(figs: Sequence[_Own], years: Sequence[int]) -> tuple[str, ...]:
    """The years whose latest later 10-K gives another figure than their own."""
    out = []
    for year, g in zip(years, figs, strict=True):
        if g.later is not None and not _same(g.later, g.value):
            out.append(
                f"FY{year}: own {g.value:,.4g} vs later 10-K {g.later:,.4g} ({g.later_fact})"
            )
    return tuple(out)


_TEMPLATES = {
    "growth": "By what percentage did {c}'s {m} change from fiscal {a} to fiscal {b}?",
    "cagr": "What was {c}'s {m} CAGR from fiscal {a} to fiscal {b}?",
    "margin": "By how many percentage points did {c}'s {m} change from fiscal {a} to fiscal {b}?",
    "highest": "In which fiscal year from {a} to {b} was {c}'s {m} the highest?",
}


def _gold(kind: str, years: Sequence[int], values: Sequence[float]) -> tuple[float, str] | None:
    """(gold value, gold text) of a kind over one figure a year; None when it has none (a growth
    from zero, a CAGR of a figure that is not positive at both ends)."""
    first, last = values[0], values[-1]
    if kind == "growth":
        if first == 0:
            return None
        value = (last - first) / abs(first) * 100
    elif kind == "cagr":
        if first <= 0 or last <= 0:
            return None
        value = ((last / first) ** (1 / (years[-1] - years[0])) - 1) * 100
    elif kind == "margin":
        value = last - first  # points of a percentage: compared as a percent
    else:
        best = years[max(range(len(years)), key=lambda i: values[i])]
        return float(best), f"fiscal {best}"
    return value, f"{value:.2f}%"


def trend_questions(
    runs: Mapping[str, Sequence[Filing]], own: Mapping[tuple[str, str, int], _Own]
) -> tuple[list[TrendQuestion], int]:
    """The questions over each company's run of years (first to last year), and how many were
    left out because a year's own filing gives no figure (or the figures give no CAGR)."""
    from finqa.lexicon.metrics import METRICS

    out: list[TrendQuestion] = []
    skipped = 0
    for company, filings in runs.items():
        years = tuple(f.year for f in filings)
        a, b = years[0], years[-1]
        slug = "".join(ch for ch in company.lower() if ch.isalnum())
        for metric in (*ITEMS, *MARGINS):
            figs = [own.get((company, metric, y)) for y in years]
            have = [g for g in figs if g is not None]
            kinds = ("margin",) if metric in MARGINS else ("growth", "cagr", "highest")
            for kind in kinds:
                gold = _gold(kind, years, [g.value for g in have]) if len(have) == len(years) else None  # fmt: skip
                if gold is None:
                    skipped += 1
                    continue
                latest = _gold(kind, years, [g.value if g.later is None else g.later for g in have])  # fmt: skip
                text = _TEMPLATES[kind].format(c=company, m=METRICS[metric].name.lower(), a=a, b=b)
                out.append(
                    TrendQuestion(
                        f"{slug}-{metric}-{kind}-fy{a}-fy{b}", kind, company, metric, years,
                        text, gold[1], gold[0], tuple(g.fact for g in have),
                        _restated(have, years), latest[1] if latest else "",
                        latest[0] if latest else None,
                    )
                )  # fmt: skip
    return out, skipped


def grade_answer(q: TrendQuestion, answer: str, *, abstained: bool) -> tuple[str, str]:
    """(label, why): numeric kinds by `benchmarks.grading.grade`; 'highest' by the fiscal years
    the answer's first sentence names among the span's."""
    from finqa.benchmarks.grading import grade, is_abstention

    if q.kind != "highest":
        g = grade(q.question, q.answer, answer, abstained=abstained)
        return g.label, g.detail
    if abstained or is_abstention(answer):
        return "abstained", "answer abstains"
    from finqa.lexicon.periods import find_periods

    head = answer.strip().split(". ")[0]
    named = sorted({p.fiscal_year for p in find_periods(head) if p.fiscal_year in q.years})
    if named == [int(q.value)]:
        return "correct", f"names fiscal {int(q.value)} alone"
    if len(named) == 1:
        return "wrong", f"names fiscal {named[0]}; the gold is fiscal {int(q.value)}"
    listed = ", ".join(str(y) for y in named) or "none"
    return "wrong", f"names no single year (first sentence names: {listed})"


def _figures_of(filings: Sequence[Filing], store: Any) -> dict[tuple[str, str, int], _Own]:
    own: dict[tuple[str, str, int], _Own] = {}
    by_company: dict[str, list[Filing]] = {}
    for f in filings:
        by_company.setdefault(f.company, []).append(f)
    for company, mine in by_company.items():
        for (metric, year), fig in own_figures(store, mine, (*ITEMS, *MARGINS)).items():
            own[(company, metric, year)] = fig
    return own


def _leg_rows(result: Any, own: Mapping[tuple[str, str, int], _Own], company: str) -> list[dict[str, Any]]:  # fmt: skip
    """Each leg: its year, figure, status, the filing it cites, and the own filing's figure."""
    rows = []
    for leg in result.legs:
        mine = own.get((company, leg.metric, leg.fiscal_year or 0))
        rows.append(
            {
                "year": leg.fiscal_year, "value": leg.value, "status": leg.status,
                "cited": sorted({c.doc_id for c in leg.citations}),
                "pages": sorted({c.page for c in leg.citations}),
                "own": mine.value if mine else None,
            }
        )  # fmt: skip
    return rows


def run(
    out: Path, *, financebench: Path, companies: int = 3, years: int = 4,
    limit: int | None = None, config: str | None = None, min_years: int = 3,
) -> dict[str, Any]:  # fmt: skip
    """Select, ingest, generate, ask (the product's cross-filing path) and grade."""
    from finqa.agents.config import load_settings
    from finqa.agents.retrieval.ingest import ingest_paths
    from finqa.benchmarks._resumable import ask_each
    from finqa.lexicon.statements import IndexStatementStore

    out.mkdir(parents=True, exist_ok=True)
    pages = financebench / "pages.jsonl.gz"
    documents = [
        json.loads(line)
        for line in (financebench / "documents.jsonl").read_text(encoding="utf-8").splitlines()
        if line.strip()
    ]
    chosen = runs_of_10k(documents, _paged(pages), min_years=min_years)
    runs = dict(list(chosen.items())[:companies])
    runs = {c: list(fs)[-years:] for c, fs in runs.items()}
    filings = [f for fs in runs.values() for f in fs]
    page_file = _write_pages(pages, {f.doc for f in filings}, out / "pages.jsonl")
    index = out / "index"
    settings = load_settings(config, overrides={"index.path": str(index), "index.dense": "none"})
    started = time.perf_counter()
    report = ingest_paths([page_file], settings, progress=False)
    ingest_s = time.perf_counter() - started
    own = _figures_of(filings, IndexStatementStore(index))
    questions, skipped = trend_questions(runs, own)
    questions = questions[: limit or None]
    with (out / "questions.jsonl").open("w", encoding="utf-8") as fh:
        for q in questions:
            fh.write(json.dumps(asdict(q)) + "\n")

    def row_of(q: Any, res: Any, answer: str, status: str, seconds: float) -> dict[str, Any]:
        legs = _leg_rows(res, own, q.company) if res is not None else []
        label, detail = grade_answer(q, answer, abstained=status == "abstained")
        by_latest = label
        if q.latest_answer and q.latest_answer != q.answer:
            other = replace(q, answer=q.latest_answer, value=q.latest_value or 0.0)
            by_latest = grade_answer(other, answer, abstained=status == "abstained")[0]
        return {"qid": q.qid, "kind": q.kind, "company": q.company, "status": status,
                "label": label, "detail": detail, "gold": q.answer, "legs": len(legs),
                "seconds": seconds, "answer": answer[:1000], "leg_figures": legs,
                "facts": list(q.facts), "restated": list(q.restated),
                "latest_gold": q.latest_answer, "label_by_latest_gold": by_latest}  # fmt: skip

    rows = ask_each(index, questions, out, row_of, config)
    restated = {q.qid: q.restated for q in questions}
    return _summary(rows, runs, skipped, ingest_s, report.summary(), out, restated)


def _summary(
    rows: Sequence[Mapping[str, Any]], runs: Mapping[str, Sequence[Filing]], skipped: int,
    ingest_s: float, ingest: Any, out: Path, restated: Mapping[str, Sequence[str]],
) -> dict[str, Any]:  # fmt: skip
    n = len(rows)
    count = {k: sum(r["label"] == k for r in rows) for k in _LABELS}
    legs = sum(int(r.get("legs") or 0) for r in rows)
    seconds = sum(float(r.get("seconds") or 0.0) for r in rows)
    figures = [g for r in rows for g in r.get("leg_figures") or [] if g.get("value") is not None]
    same = sum(g["own"] is not None and _same(g["value"], g["own"]) for g in figures)
    summary: dict[str, Any] = {
        "companies": {c: [f.doc for f in fs] for c, fs in runs.items()},
        "questions": n,
        "left_out_no_own_figure": skipped,
        **{k: round(v / n, 4) if n else None for k, v in count.items()},
        "counts": count,
        "wrong_accepted": sum(r["label"] == "wrong" and r["status"] == "accepted" for r in rows),
        "accepted": sum(r["status"] == "accepted" for r in rows),
        "by_kind": {
            kind: {k: sum(r["label"] == k for r in rows if r["kind"] == kind) for k in _LABELS}
            for kind in KINDS
        },
        "legs": legs,
        "leg_figures_equal_own_filing": f"{same}/{len(figures)}",
        "gold_differs_by_latest_figures": sum(
            r.get("latest_gold") not in (None, "", r["gold"]) for r in rows
        ),
        "counts_by_latest_gold": {
            k: sum(r.get("label_by_latest_gold", r["label"]) == k for r in rows) for k in _LABELS
        },
        "with_a_restated_year": {
            k: sum(r["label"] == k for r in rows if restated.get(r["qid"])) for k in _LABELS
        },
        "seconds_per_leg": round(seconds / legs, 3) if legs else None,
        "seconds_per_question": round(seconds / n, 3) if n else None,
        "ingest_seconds": round(ingest_s, 1),
        "ingest": ingest,
    }
    (out / "summary.json").write_text(json.dumps(summary, indent=1), encoding="utf-8")
    return summary


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m finqa.benchmarks.financebench_trend")
    p.add_argument("--out", required=True, type=Path)
    p.add_argument("--companies", type=int, default=3)
    p.add_argument("--years", type=int, default=4, help="at most this many fiscal years a company")
    p.add_argument("--limit", type=int, default=None)
    p.add_argument("--financebench", type=Path, default=Path("../shared/financebench"))
    p.add_argument("--config", default=None)
    p.add_argument("--min-years", type=int, default=3, help="consecutive 10-Ks a company needs")
    args = p.parse_args(argv)
    if args.years < args.min_years or args.min_years < 2:
        p.error("--years must be at least --min-years, and that at least 2")
    summary = run(
        args.out, financebench=args.financebench, companies=args.companies, years=args.years,
        limit=args.limit, config=args.config, min_years=args.min_years,
    )  # fmt: skip
    json.dump(summary, sys.stdout, indent=1)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
