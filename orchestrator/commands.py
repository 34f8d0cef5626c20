"""`finqa ask` and `finqa demo` (registered by orchestrator/cli.py).

Handlers import the API lazily, so `finqa --help` stays fast.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from finqa.agents.errors import FinqaError
from finqa.agents.terminal import json_printable, printable
from finqa.orchestrator.flags import add_llm_flags, llm_overrides
from finqa.orchestrator.render import render_result

__all__ = ["register"]


def register(sub: Any) -> None:
    ask = sub.add_parser(
        "ask",
        help="answer one question from the indexed filings",
        description="Answer one question from the indexed filings; every decision goes to the audit log.",
        epilog="exit status: 0 answered (accepted, best_effort or abstained), 1 the question failed, "
        "2 usage or configuration error",
    )
    ask.add_argument("question", nargs="?", help="the question, in quotes")
    ask.add_argument(
        "--questions",
        metavar="FILE",
        help="answer every question of a JSONL or CSV file (columns: question, question_id, company, doc_id)",
    )
    ask.add_argument(
        "--out",
        metavar="FILE",
        help="with --questions: write one JSON line per question here; a rerun resumes (default: stdout)",
    )
    ask.add_argument(
        "--workers", type=int, help="with --questions: questions answered in parallel (remote LLMs)"
    )
    ask.add_argument("--no-progress", action="store_true", help="no progress bar")
    ask.add_argument(
        "--index", metavar="DIR", help="index directory (default: index.path of the config)"
    )
    ask.add_argument(
        "--json", action="store_true", help="print one JSON object (QAResult.to_json_dict)"
    )
    ask.add_argument("--company", metavar="X", help="restrict to one company (name or ticker)")
    ask.add_argument(
        "--doc-id",
        "--doc",
        metavar="DOC_ID",
        action="append",
        dest="doc_ids",
        help="restrict to a filing (repeatable)",
    )
    ask.add_argument("--config", metavar="FILE", help="YAML config (default: configs/default.yaml)")
    ask.add_argument("--question-id", metavar="ID", help="id for the audit log (default: a hash)")
    add_llm_flags(ask)
    ask.set_defaults(func=_ask)

    demo = sub.add_parser(
        "demo", help="ingest the bundled sample filings and answer sample questions"
    )
    demo.add_argument("--index", metavar="DIR", help="index directory (default: OUT/index)")
    demo.add_argument(
        "--out",
        metavar="DIR",
        help="where the index (and its audit log, DIR/index/audit.jsonl) go (default: .finqa/demo)",
    )
    demo.add_argument(
        "--config", metavar="FILE", help="YAML config (the demo forces the offline backend)"
    )
    demo.set_defaults(func=_demo)


def _ask(args: argparse.Namespace) -> int:
    from finqa.agents.config import load_settings
    from finqa.agents.logs import configure_logging
    from finqa.orchestrator.api import FinQA

    if (args.question is None) == (args.questions is None):
        raise FinqaError("give either a QUESTION or --questions FILE")
    if args.workers is not None and args.workers < 1:
        raise FinqaError("--workers must be at least 1")
    overrides = {"index.path": args.index, **llm_overrides(args)}
    settings = load_settings(args.config, overrides=overrides)
    configure_logging(settings.log_level)
    if args.questions is not None:
        return _ask_file(args, settings)
    with FinQA.open(config=settings) as fq:  # a missing index is a one-line error
        result = fq.ask(
            args.question, company=args.company, doc_ids=args.doc_ids, question_id=args.question_id
        )
    if args.json:
        print(json_printable(json.dumps(result.to_json_dict(), ensure_ascii=False, indent=2)))
    else:
        render_result(result, sys.stdout)
    return 1 if result.status == "failed" else 0


def _ask_file(args: argparse.Namespace, settings: Any) -> int:
    """`finqa ask --questions FILE`: one JSON line per question, resumable, with a summary line."""
    from pathlib import Path

    from finqa.agents.progress import write_line
    from finqa.orchestrator.api import FinQA
    from finqa.orchestrator.batch import done_ids, read_questions
    from tqdm import tqdm

    qfile = read_questions(args.questions)
    for bad in qfile.bad:
        skipped = f"finqa: {args.questions}:{bad.line}: skipped: {bad.reason}"
        print(printable(skipped), file=sys.stderr)
    if not qfile.items:
        raise FinqaError(f"{args.questions} has no questions to answer")
    out_path = Path(args.out) if args.out else None
    done = done_ids(out_path) if out_path else set()
    todo = [item for item in qfile.items if item["question_id"] not in done]
    counts: dict[str, int] = {}
    fq = FinQA.open(config=settings)  # a missing index is a one-line error, before any output
    sink = out_path.open("a", encoding="utf-8") if out_path else sys.stdout
    try:
        with (
            fq,
            tqdm(
                total=len(todo),
                unit="q",
                desc="ask",
                disable=args.no_progress or not todo,
                file=sys.stderr,
                dynamic_ncols=True,
            ) as bar,
        ):
            for result in fq.ask_stream(todo, workers=args.workers):
                line = json_printable(json.dumps(result.to_json_dict(), ensure_ascii=False))
                if out_path:
                    sink.write(line + "\n")
                    sink.flush()
                else:  # stdout may share the terminal with the bar: the line goes above it
                    write_line(line, sys.stdout)
                counts[result.status] = counts.get(result.status, 0) + 1
                bar.update(1)
    finally:
        if out_path:
            sink.close()
    parts = [f"{counts.get(s, 0)} {s}" for s in ("accepted", "best_effort", "abstained", "failed")]
    summary = f"{len(todo)} question(s) answered: " + ", ".join(parts)
    if done:
        summary += f"; {len(qfile.items) - len(todo)} already in {out_path} (resumed)"
    if qfile.bad:
        summary += f"; {len(qfile.bad)} line(s) skipped"
    print(summary, file=sys.stderr)
    return 1 if counts.get("failed") or qfile.bad else 0


def _demo(args: argparse.Namespace) -> int:
    from finqa.orchestrator.demo import run_demo

    return run_demo(index=args.index, out=args.out, config=args.config)
