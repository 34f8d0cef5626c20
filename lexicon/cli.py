"""`finqa lexicon analyze "QUESTION" [--json]`: what the lexicon understands in a question."""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable, Hashable
from typing import Any, TypeVar

T = TypeVar("T")

__all__ = ["register", "analysis_dict"]


def _first(items: list[T], key: Callable[[T], Hashable]) -> list[T]:
    """Items in order, keeping the first of each key (a metric named twice is listed once)."""
    seen: dict[Hashable, T] = {}
    for item in items:
        seen.setdefault(key(item), item)
    return list(seen.values())


def analysis_dict(question: str) -> dict[str, Any]:
    """Companies, periods, metrics, quantities and the expanded query of a question."""
    from finqa.lexicon import (
        analyze,
        extract_quantities,
        find_companies,
        find_metrics,
        find_periods,
        get_metric,
    )

    qa = analyze(question)
    companies = list({(c.name, c.ticker): c for c in find_companies(question)}.values())
    company = companies[0].name if len({c.name for c in companies}) == 1 else None
    return {
        "question": question,
        "companies": [
            {"name": c.name, "ticker": c.ticker, "matched": c.matched} for c in companies
        ],
        "periods": [
            {
                "text": p.text,
                "fiscal_year": p.fiscal_year,
                "quarter": p.quarter,
                "half": p.half,
                "end_date": p.end_date,
                "kind": p.kind,
            }
            for p in _first(
                find_periods(question, company),
                lambda p: (p.fiscal_year, p.quarter, p.half, p.end_date, p.kind),
            )
        ],
        "asked": list(qa.periods),  # the period asked per fiscal year, when shorter than a year
        "metrics": [
            {
                "canonical": m.canonical,
                "matched": m.matched,
                "name": get_metric(m.canonical).name,
                "statement": get_metric(m.canonical).statement,
                "formula": get_metric(m.canonical).formula,
                "convention": get_metric(m.canonical).convention,
            }
            for m in _first(find_metrics(question), lambda m: m.canonical)
        ],
        "quantities": [
            {"text": q.text, "value": q.value, "unit": q.unit, "scale": q.scale, "kind": q.kind}
            for q in extract_quantities(question)
            if q.kind == "number"
        ],
        "statements": list(qa.statements),
        "doc_types": list(qa.doc_types),
        "is_computation": qa.is_computation,
        "is_comparison": qa.is_comparison,
        "expanded_query": qa.expanded_query,
        "notes": list(qa.notes),
    }


def _analyze(args: argparse.Namespace) -> int:
    data = analysis_dict(args.question)
    if args.json:
        print(json.dumps(data, ensure_ascii=False))
        return 0
    print(
        "companies: "
        + (", ".join(f"{c['name']} ({c['ticker']})" for c in data["companies"]) or "-")
    )
    print(
        "periods:   "
        + (
            ", ".join(
                f"{p['text']!r} -> FY{p['fiscal_year']}"
                + (f" Q{p['quarter']}" if p["quarter"] else "")
                + (f" H{p['half']}" if p["half"] else "")
                + (f" (ends {p['end_date']})" if p["end_date"] else "")
                for p in data["periods"]
            )
            or "-"
        )
    )
    if data["asked"]:
        print("asked:     " + ", ".join(data["asked"]))
    print(
        "metrics:   "
        + (
            ", ".join(
                f"{m['matched']!r} -> {m['canonical']}"
                + (f" = {m['formula']}" if m["formula"] else "")
                for m in data["metrics"]
            )
            or "-"
        )
    )
    print(
        "quantities: "
        + (
            ", ".join(
                f"{q['text']!r} = {q['value']:g} x {q['scale']:g} {q['unit']}".rstrip()
                for q in data["quantities"]
            )
            or "-"
        )
    )
    print("statements: " + (", ".join(data["statements"]) or "-"))
    print(f"computation: {data['is_computation']}  comparison: {data['is_comparison']}")
    print("expanded query: " + data["expanded_query"])
    return 0


def register(subparsers: Any) -> None:
    """Add `finqa lexicon analyze`."""
    lex = subparsers.add_parser("lexicon", help="inspect how finqa reads a question")
    lex_sub = lex.add_subparsers(dest="lexicon_command", metavar="LEXICON")
    lex.set_defaults(func=lambda args: (lex.print_help(), 2)[1])
    p = lex_sub.add_parser("analyze", help="companies, periods, metrics, quantities of a question")
    p.add_argument("question", help="the question, in quotes")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=_analyze)
