"""`finqa bench xbrl --kinds segment`: segment, geography and product-line questions generated
from each filing's dimensional inline XBRL tags, graded by the tags.

    finqa bench xbrl --filings ../shared/edgar --kinds segment --mode as-filed --out DIR

For every filing, every tagged fact of one part of the business (a fact whose one dimension,
besides `ConsolidationItemsAxis=OperatingSegmentsMember`, is a member of a segment, geography
or product axis: `lexicon.dimensions.fact_dimension`) for revenue or operating income, for the
filing's own period (the fiscal year of a 10-K, the quarter of a 10-Q), gives one question:

- segment: "What was <company>'s <member> segment's <item> in <period>, in USD millions?"
- geography and product: "What was <company>'s revenue from <member> in <period>, ...?"

The member is named as its tag reads (`aapl:GreaterChinaSegmentMember` -> 'Greater China',
`country:JP` -> 'Japan'). A part whose tags disagree for the period (two values), a residual
member (other, corporate, eliminations) and a name two members share are skipped. The gold is
the tag; an answer of the consolidated figure is wrong. Same modes and grading as `bench
xbrl`; summary.json also counts the questions by kind and by filing, and names the filings
whose parts the text-only model holds no figure for.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import date
from pathlib import Path
from typing import Any

from finqa.benchmarks._xbrl_recovery import fye_month_of
from finqa.benchmarks.xbrl import XbrlQuestion, ask_and_grade, filings_in

__all__ = ["generate_segment_questions", "run", "SEGMENT_ITEMS"]

# line items asked per kind of part
SEGMENT_ITEMS = {
    "segment": ("revenue", "operating_income"),
    "geography": ("revenue",),
    "product": ("revenue",),
}


def generate_segment_questions(
    filing: str, company: str, facts: Sequence[Any], fye_month: int, fiscal_year: int,
    quarter: int | None, period_end: date, *, named: int | None = None,
) -> list[XbrlQuestion]:  # fmt: skip
    """One question per (part, line item) tagged for the filing's own period, gold = the tag.
    `fiscal_year` keys the period (the calendar year its year ends in); `named` is what the
    filer calls that year (default: the same), and the question names it so."""
    from finqa.lexicon import get_metric
    from finqa.lexicon.dimensions import axis_kind, fact_dimension, is_residual, member_name
    from finqa.lexicon.xbrl import period_key

    want = f"FY{fiscal_year}" if quarter is None else f"{fiscal_year}Q{quarter}"
    values: dict[tuple[str, str, str], set[float]] = {}
    cites: dict[tuple[str, str, str], str] = {}
    names: dict[str, set[tuple[str, str]]] = {}
    for f in facts:
        dim = fact_dimension(f)
        if dim is None or f.unit != "USD":
            continue
        kind = axis_kind(dim[0]) or ""
        name = member_name(dim[1])
        if is_residual(name):
            continue
        names.setdefault(name.lower(), set()).add(dim)
        if f.item not in SEGMENT_ITEMS.get(kind, ()) or period_key(f, fye_month) != want:
            continue
        key = (dim[0], dim[1], f.item)
        values.setdefault(key, set()).add(round(f.value, 2))
        cites.setdefault(key, f"{f.concept}@{f.context_id} p.{f.page}")
    out: list[XbrlQuestion] = []
    stem = Path(filing).stem
    when = _when(named if named is not None else fiscal_year, quarter, period_end)
    for (axis, member, item), got in sorted(values.items()):
        name = member_name(member)
        if len(got) != 1 or len(names.get(name.lower(), ())) != 1:
            continue
        value = next(iter(got)) / 1e6
        kind = axis_kind(axis) or "segment"
        metric = get_metric(item)
        label = metric.name.lower() if metric else item.replace("_", " ")
        place = (
            f"the {name}" if member.startswith("country:") and name.startswith("United") else name
        )
        if kind == "segment":
            text = f"What was {company}'s {name} segment's {label} in {when}, in USD millions?"
        else:
            text = f"What was {company}'s revenue from {place} in {when}, in USD millions?"
        qid = f"{stem}-{kind}-{member.split(':')[-1]}-{item}"
        out.append(
            XbrlQuestion(
                qid, filing, str(kind), text, f"{value:.2f}", value,
                (cites[(axis, member, item)],),
            )
        )  # fmt: skip
    return out


# the period naming, filing list and tag stripping of `bench xbrl`, read the same way here
# (benchmarks/xbrl.py keeps its helpers private; its generator is another module's to change)


def _when(fy: int, quarter: int | None, end: date) -> str:
    if quarter is None:
        return f"fiscal year {fy}"
    return (
        f"the quarter ended {end.strftime('%B')} {end.day}, {end.year} (Q{quarter} of fiscal {fy})"
    )


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
        questions += generate_segment_questions(
            path.name, str(meta["company"]), doc.facts, fye, int(fy), quarter, period_end,
            named=own_year(int(fy), meta.get("fy_label")),
        )  # fmt: skip
    return questions


def run(
    filings: Path, mode: str, out: Path, *, limit: int | None = None, config: str | None = None,
) -> dict[str, Any]:  # fmt: skip
    """Generate, ask and grade the part questions; write questions.jsonl, results.jsonl and
    summary.json to `out` (resumable: questions already in results.jsonl are not asked again)."""
    files = filings_in(filings)
    questions = _questions(files)[: limit or None]
    asked = ask_and_grade(questions, files, mode, out, config)
    return _summary(asked.rows, mode, len(files), asked.ingest_seconds, asked.ingest, out)


def _summary(
    rows: list[dict[str, Any]], mode: str, filings: int, ingest_s: float, ingest: Any, out: Path
) -> dict[str, Any]:
    labels = ("correct", "wrong", "abstained", "ungraded")
    n = len(rows)

    def count(sub: list[dict[str, Any]]) -> dict[str, int]:
        return {k: sum(r["label"] == k for r in sub) for k in labels}

    by_filing = {
        f: count([r for r in rows if r.get("filing") == f])
        for f in sorted({str(r.get("filing")) for r in rows})
    }
    total = count(rows)
    summary: dict[str, Any] = {
        "mode": mode,
        "kinds": "segment",
        "filings": filings,
        "questions": n,
        **{k: round(v / n, 4) if n else None for k, v in total.items()},
        "counts": total,
        "wrong_accepted": sum(r["label"] == "wrong" and r["status"] == "accepted" for r in rows),
        "by_kind": {
            kind: count([r for r in rows if r["kind"] == kind])
            for kind in ("segment", "geography", "product")
        },
        "by_filing": by_filing,
        # filings none of whose parts was answered: the reader cannot read how they print them
        "unread_filings": [f for f, c in by_filing.items() if c["correct"] == 0],
        "ingest_seconds": round(ingest_s, 1),
        "ingest": ingest,
    }
    (out / "summary.json").write_text(json.dumps(summary, indent=1), encoding="utf-8")
    return summary
