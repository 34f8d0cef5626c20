"""`finqa ask` and `finqa demo` (registered by orchestrator/cli.py).

Handlers import the API lazily, so `finqa --help` stays fast.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any, TextIO

from finqa.orchestrator.result import QAResult

__all__ = ["register", "render_result"]


def register(sub: Any) -> None:
    ask = sub.add_parser(
        "ask",
        help="answer one question from the indexed filings",
        description="Answer one question from the indexed filings; every decision goes to the audit log.",
        epilog="exit status: 0 answered (accepted, best_effort or abstained), 1 the question failed, "
        "2 usage or configuration error",
    )
    ask.add_argument("question", help="the question, in quotes")
    ask.add_argument(
        "--index", metavar="DIR", help="index directory (default: index.path of the config)"
    )
    ask.add_argument(
        "--json", action="store_true", help="print one JSON object (QAResult.to_json_dict)"
    )
    ask.add_argument("--company", metavar="X", help="restrict to one company (name or ticker)")
    ask.add_argument(
        "--doc",
        metavar="DOC_ID",
        action="append",
        dest="docs",
        help="restrict to a filing (repeatable)",
    )
    ask.add_argument("--config", metavar="FILE", help="YAML config (default: configs/default.yaml)")
    ask.add_argument("--question-id", metavar="ID", help="id for the audit log (default: a hash)")
    ask.set_defaults(func=_ask)

    demo = sub.add_parser(
        "demo", help="ingest the bundled sample filings and answer sample questions"
    )
    demo.add_argument("--index", metavar="DIR", help="index directory (default: OUT/index)")
    demo.add_argument(
        "--out", metavar="DIR", help="where the index and audit log go (default: .finqa/demo)"
    )
    demo.add_argument(
        "--config", metavar="FILE", help="YAML config (the demo forces the offline backend)"
    )
    demo.set_defaults(func=_demo)


def _ask(args: argparse.Namespace) -> int:
    from finqa.agents.config import load_settings
    from finqa.agents.logs import configure_logging
    from finqa.orchestrator.api import FinQA

    configure_logging(load_settings(args.config).log_level)
    with FinQA.open(index=args.index, config=args.config) as fq:
        result = fq.ask(
            args.question, company=args.company, doc_ids=args.docs, question_id=args.question_id
        )
    if args.json:
        print(json.dumps(result.to_json_dict(), ensure_ascii=False, indent=2))
    else:
        render_result(result, sys.stdout)
    return 1 if result.status == "failed" else 0


def _demo(args: argparse.Namespace) -> int:
    from finqa.orchestrator.demo import run_demo

    return run_demo(index=args.index, out=args.out, config=args.config)


def render_result(result: QAResult, out: TextIO, *, verbose: bool = True) -> None:
    """A human-readable answer: status, answer, citations (doc, page), calculations, attempts."""
    best = f", best attempt {result.best_attempt}" if result.best_attempt else ""
    out.write(f"Q: {result.question}\n")
    out.write(f"A: {result.answer}\n")
    out.write(
        f"   status: {result.status} (utility {result.utility:.2f}, {len(result.attempts)} attempt(s){best})\n"
    )
    if result.reason:
        out.write(f"   why: {result.reason}\n")
    for c in result.citations:
        quote = " ".join(c.quote.split())
        quote = f' "{quote[:100]}{"..." if len(quote) > 100 else ""}"' if quote else ""
        out.write(f"   cite [{c.source_id}] {c.doc_id} page {c.page} (0-based){quote}\n")
    for calc in result.calculations:
        ops = ", ".join(f"{o.name}={o.value:g}" for o in calc.operands)
        out.write(
            f"   calc {calc.description or calc.expression}: {calc.expression} with {ops} = {calc.result:g} {calc.unit}\n"
        )
    if verbose:
        for a in result.attempts:
            out.write(
                f"   attempt {a.attempt}: k={a.k} rse={'on' if a.rse else 'off'} strategy={a.strategy} "
                f"U={a.utility:.2f} tau={a.threshold:.2f} -> {a.decision}"
                + (f" (diagnosis: {a.diagnosis})" if a.diagnosis else "")
                + "\n"
            )
    if result.error:
        out.write(f"   error: {result.error}\n")
    out.write(
        f"   audit: {result.audit_log} (run {result.run_id}, question {result.question_id})\n"
    )
