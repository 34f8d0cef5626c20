"""`finqa bench xbrl --cross-filing`: questions across filings, graded by the filings' own tags.

    finqa bench xbrl --filings ../shared/edgar --cross-filing --mode text-only --out DIR

From every annual filing's tagged totals (no dimension, catalogue item, USD), questions of three
general kinds, worded by templates (never by one filing):

- peers, higher: "Which had the higher <item> in FY<FY>, <A> or <B>?" — gold: the company
  whose tagged figure is higher (graded as a choice among the two names);
- peers, difference: "What was the difference between <A>'s and <B>'s <item> in FY<FY>, in
  USD millions?" — gold: A's tag less B's;
- trend, CAGR: "What was <A>'s <item> CAGR from fiscal <FY-2> to fiscal <FY>?" — gold from the
  10-K's own tags of the three years;
- stitched: "What was <A>'s <item> in the second half (fourth quarter) of fiscal <FY>, in USD
  millions?" — gold: the 10-K's tagged year less the year-to-date a 10-Q of the same company
  tags for that fiscal year's first six (nine) months (its comparative column, when the 10-Q is
  of the next year).
- TTM: "What was <A>'s trailing-twelve-month <item> as of its latest 10-Q, in USD millions?" —
  gold: the 10-K's tagged prior fiscal year + the latest 10-Q's tagged year-to-date − the same
  10-Q's tagged year-to-date of the prior year (its comparative column); duration items only.

A single company's question names a year as the filer does ('fiscal <N>': a retailer's year
ended February 3, 2024 is its fiscal 2023, from its dei fiscal year focus); peers, who may name
years differently, are asked 'FY<N>', the year ending in N, one reading for both. Peers are
companies whose 10-Ks report the same end-year fiscal year, paired in name order (each
with the next), so the pairing is fixed by the corpus, not chosen by looking at answers. The
answers are graded like every benchmark here (`benchmarks.grading.grade`). Writes
questions.jsonl, results.jsonl (resumable) and summary.json to `--out`.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from datetime import date
from pathlib import Path
from typing import Any

from finqa.benchmarks.xbrl import XbrlQuestion, ask_and_grade, filings_in

__all__ = ["cross_questions", "run_cross"]

# duration items asked across filings (a 10-K's income and cash-flow totals); per-share items
# and balances stay with the single-filing bench
_ITEMS = ("revenue", "operating_income", "net_income", "cfo")
_KINDS = ("higher", "difference", "cagr", "stitched", "ttm")
_PART = {6: "second half", 9: "fourth quarter"}  # year-to-date months -> the part left


def _ytd_facts(path: Path) -> tuple[str, dict[tuple[str, date, int], float]] | None:
    """(company, {(item, start, months): value}) of a 10-Q's tagged 6- and 9-month totals."""
    got = _quarter_facts(path)
    if got is None:
        return None
    company, _, values = got
    return company, {k: v for k, v in values.items() if k[2] in _PART}


def _quarter_facts(
    path: Path,
) -> tuple[str, tuple[int, int, str], dict[tuple[str, date, int], float]] | None:
    """(company, (dei fiscal year, fiscal quarter, period end), {(item, start, months): value})
    of a 10-Q's tagged 3-, 6- and 9-month totals."""
    from finqa.agents.retrieval.loaders import LoadedDoc, load_path
    from finqa.agents.retrieval.metadata import doc_metadata

    doc = next((d for d in load_path(path) if isinstance(d, LoadedDoc)), None)
    if doc is None or not doc.facts:
        return None
    meta = doc_metadata(doc.doc_id, dei=doc.dei)
    fp = str(meta.get("fiscal_period") or "")
    if not meta.get("company") or fp not in ("Q1", "Q2", "Q3") or not meta.get("fiscal_year"):
        return None
    values: dict[tuple[str, date, int], set[float]] = {}
    for f in doc.facts:
        if (
            f.item in _ITEMS
            and f.is_total
            and f.unit == "USD"
            and f.start
            and f.months in (3, 6, 9)
        ):
            values.setdefault((f.item, f.start, f.months), set()).add(round(f.value, 6))
    when = (int(meta["fiscal_year"]), int(fp[1]), str(meta.get("period_end") or ""))
    return (
        str(meta["company"]),
        when,
        {k: next(iter(v)) for k, v in values.items() if len(v) == 1},
    )


def _annual_facts(path: Path) -> tuple[str, int, dict[tuple[str, int], float]] | None:
    """(company, end-year fiscal year, {(item, fiscal year): value}) of a 10-K's tagged annual
    totals, with the fiscal year's first day as an ordinal under ('start', 0) and the filer's own
    naming of its years under ('named', 0) (1 when it names a year by the calendar year it
    starts in); None for a 10-Q or a filing without tags."""
    from finqa.agents.retrieval.loaders import LoadedDoc, load_path
    from finqa.agents.retrieval.metadata import doc_metadata
    from finqa.benchmarks._xbrl_recovery import fye_month_of
    from finqa.lexicon.xbrl import period_key

    doc = next((d for d in load_path(path) if isinstance(d, LoadedDoc)), None)
    if doc is None or not doc.facts:
        return None
    meta = doc_metadata(doc.doc_id, dei=doc.dei)
    fy, end, company = meta.get("fiscal_year"), meta.get("period_end"), meta.get("company")
    if not (fy and end and company) or str(meta.get("fiscal_period") or "FY") != "FY":
        return None
    fye = fye_month_of(meta, date.fromisoformat(str(end)), None)
    values: dict[tuple[str, int], set[float]] = {}
    for f in doc.facts:
        if f.item not in _ITEMS or not f.is_total or f.unit != "USD":
            continue
        key = period_key(f, fye)
        if key.startswith("FY") and key[2:].isdigit():
            values.setdefault((f.item, int(key[2:])), set()).add(round(f.value, 6))
            if int(key[2:]) == int(fy) and f.start is not None:
                values.setdefault(("start", 0), {f.start.toordinal()})
    one = {k: next(iter(v)) for k, v in values.items() if len(v) == 1}  # tags that agree
    one[("named", 0)] = 1.0 if meta.get("fy_label") == "start" else 0.0
    return str(company), int(fy), one


def _own(fy: int, values: Mapping[tuple[str, int], float]) -> int:
    """The filer's own name for its end-year fiscal year `fy` (a single company's question says
    'fiscal N' as the filer does; peers are asked 'FYN', one reading for both)."""
    from finqa.lexicon.display import own_year

    return own_year(fy, "start" if values.get(("named", 0)) else "end")


def cross_questions(files: Sequence[Path]) -> list[XbrlQuestion]:
    """The cross-filing questions of a folder of filings, from their tags."""
    from finqa.lexicon import get_metric

    by_year: dict[int, list[tuple[str, Path, Mapping[tuple[str, int], float]]]] = {}
    out: list[XbrlQuestion] = []
    for path in files:
        got = _annual_facts(path)
        if got is None:
            continue
        company, fy, values = got
        by_year.setdefault(fy, []).append((company, path, values))
        for item in _ITEMS:
            first, last = values.get((item, fy - 2)), values.get((item, fy))
            if first is None or last is None or first <= 0 or last <= 0:
                continue
            cagr = ((last / first) ** 0.5 - 1) * 100
            name = get_metric(item).name.lower()
            out.append(
                XbrlQuestion(
                    f"{path.stem}-{item}-cagr", path.name, "cagr",
                    f"What was {company}'s {name} CAGR from fiscal {_own(fy - 2, values)} to "
                    f"fiscal {_own(fy, values)}?",
                    f"{cagr:.2f}%", cagr, (),
                )
            )  # fmt: skip
    out += _stitched(files, by_year)
    out += _ttm(files, by_year)
    for fy, peers in sorted(by_year.items()):
        peers.sort(key=lambda p: p[0])
        for (a, pa, va), (b, pb, vb) in zip(peers, peers[1:], strict=False):
            for item in _ITEMS:
                x, y = va.get((item, fy)), vb.get((item, fy))
                if x is None or y is None or x == y:
                    continue
                name = get_metric(item).name.lower()
                pair = f"{pa.stem}+{pb.stem}-{item}"
                out.append(
                    XbrlQuestion(
                        f"{pair}-higher", f"{pa.name}+{pb.name}", "higher",
                        f"Which had the higher {name} in FY{fy}, {a} or {b}?",
                        a if x > y else b, 0.0, (),
                    )
                )  # fmt: skip
                diff = (x - y) / 1e6
                out.append(
                    XbrlQuestion(
                        f"{pair}-difference", f"{pa.name}+{pb.name}", "difference",
                        f"What was the difference between {a}'s and {b}'s {name} in FY{fy}, "
                        "in USD millions?",
                        f"{diff:.2f}", diff, (),
                    )
                )  # fmt: skip
    return out


def _stitched(
    files: Sequence[Path],
    by_year: Mapping[int, Sequence[tuple[str, Path, Mapping[tuple[str, int], float]]]],
) -> list[XbrlQuestion]:
    """The later part of a 10-K's fiscal year: the year less a 10-Q's year-to-date for it."""
    from finqa.lexicon import get_metric

    out: list[XbrlQuestion] = []
    for path in files:
        got = _ytd_facts(path)
        if got is None:
            continue
        company, ytd = got
        for fy, peers in sorted(by_year.items()):
            for name, annual_path, values in peers:
                first = values.get(("start", 0))
                if name != company or first is None:
                    continue
                start = date.fromordinal(int(first))
                for (item, begin, months), part in sorted(ytd.items()):
                    year = values.get((item, fy))
                    if year is None or abs((begin - start).days) > 7:
                        continue
                    rest = (year - part) / 1e6
                    label = get_metric(item).name.lower()
                    out.append(
                        XbrlQuestion(
                            f"{path.stem}-{item}-{_PART[months].replace(' ', '_')}-fy{fy}",
                            f"{annual_path.name}+{path.name}", "stitched",
                            f"What was {company}'s {label} in the {_PART[months]} of fiscal "
                            f"{_own(fy, values)}, in USD millions?",
                            f"{rest:.2f}", rest, (),
                        )
                    )  # fmt: skip
    return out


def _ttm(
    files: Sequence[Path],
    by_year: Mapping[int, Sequence[tuple[str, Path, Mapping[tuple[str, int], float]]]],
) -> list[XbrlQuestion]:
    """Twelve months to each company's latest 10-Q: the prior fiscal year (its 10-K's tag) + the
    10-Q's year-to-date − the 10-Q's prior-year year-to-date (both tagged in the 10-Q)."""
    from finqa.lexicon import get_metric

    latest: dict[str, tuple[tuple[int, int, str], Path, dict[tuple[str, date, int], float]]] = {}
    for path in files:
        got = _quarter_facts(path)
        if got is None:
            continue
        company, when, tagged = got
        held = latest.get(company)
        if held is None or (when[0], when[2]) > (held[0][0], held[0][2]):
            latest[company] = (when, path, tagged)
    out: list[XbrlQuestion] = []
    for company, ((fy, quarter, _), path, ytd) in sorted(latest.items()):
        months = quarter * 3
        for name, annual_path, values in by_year.get(fy - 1, ()):
            first = values.get(("start", 0))
            if name != company or first is None:
                continue
            start = date.fromordinal(int(first))
            for item in _ITEMS:
                year = values.get((item, fy - 1))
                now = _near(ytd, item, start.replace(year=start.year + 1), months)
                before = _near(ytd, item, start, months)
                if year is None or now is None or before is None:
                    continue
                ttm = (year + now - before) / 1e6
                label = get_metric(item).name.lower()
                out.append(
                    XbrlQuestion(
                        f"{path.stem}-{item}-ttm", f"{annual_path.name}+{path.name}", "ttm",
                        f"What was {company}'s trailing-twelve-month {label} as of its latest "
                        "10-Q, in USD millions?",
                        f"{ttm:.2f}", ttm, (),
                    )
                )  # fmt: skip
    return out


def _near(
    values: Mapping[tuple[str, date, int], float], item: str, start: date, months: int
) -> float | None:
    """The tagged value of `item` over `months` from within a week of `start` (52/53 weeks)."""
    for (it, begin, m), value in values.items():
        if it == item and m == months and abs((begin - start).days) <= 7:
            return value
    return None


def run_cross(
    filings: Path, mode: str, out: Path, *, limit: int | None = None, config: str | None = None,
) -> dict[str, Any]:  # fmt: skip
    """Generate, ask (the product's cross-filing path) and grade; write results to `out`."""
    files = filings_in(filings)
    questions = cross_questions(files)[: limit or None]
    asked = ask_and_grade(questions, files, mode, out, config)
    return _summary(asked.rows, mode, len(files), asked.ingest_seconds, asked.ingest, out)


def _summary(
    rows: Sequence[Mapping[str, Any]], mode: str, n_files: int, ingest_s: float,
    ingest: Any, out: Path,
) -> dict[str, Any]:  # fmt: skip
    labels = ("correct", "wrong", "abstained", "ungraded")
    n = len(rows)
    count = {k: sum(r["label"] == k for r in rows) for k in labels}
    accepted_wrong = sum(r["label"] == "wrong" and r["status"] == "accepted" for r in rows)
    legs = sum(int(r.get("legs") or 0) for r in rows)
    seconds = sum(float(r.get("seconds") or 0.0) for r in rows)
    summary: dict[str, Any] = {
        "mode": mode,
        "cross_filing": True,
        "filings": n_files,
        "questions": n,
        **{k: round(v / n, 4) if n else None for k, v in count.items()},
        "counts": count,
        "wrong_accepted": accepted_wrong,
        "by_kind": {
            kind: {k: sum(r["label"] == k for r in rows if r["kind"] == kind) for k in labels}
            for kind in _KINDS
        },  # fmt: skip
        "seconds_per_leg": round(seconds / legs, 3) if legs else None,
        "ingest_seconds": round(ingest_s, 1),
        "ingest": ingest,
    }
    (out / "summary.json").write_text(json.dumps(summary, indent=1), encoding="utf-8")
    return summary
