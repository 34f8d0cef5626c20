"""`finqa judge --question Q --answer A --evidence FILE [--json] [--attempt N] [--config FILE]`.

The evidence file is plain text (one source, S1) or page JSONL (`{"doc_id","page","text"}`, FinanceBench's `doc_name` accepted too,
one a line, optionally gzipped; sources S1..Sn in file order). Citations `[S2]` in the answer
refer to those sources. `--calculations FILE` adds recorded calculations (a JSON list of
Calculation objects) for the judge to re-execute.
"""

from __future__ import annotations

import argparse
import gzip
import json
import sys
from pathlib import Path
from typing import Any

from finqa.agents.errors import FinqaError

__all__ = ["register", "load_evidence"]


def register(sub: Any) -> None:
    parser = sub.add_parser(
        "judge", help="score an answer against evidence (scores, decision, diagnosis)"
    )
    parser.add_argument("--question", required=True, help="the question asked")
    parser.add_argument("--answer", required=True, help="the answer to judge (may cite [S1] ...)")
    parser.add_argument("--evidence", required=True, help="plain text or page JSONL[.gz] file")
    parser.add_argument("--calculations", help="JSON list of recorded calculations to re-execute")
    parser.add_argument(
        "--attempt", type=int, default=1, help="attempt number for the threshold (default 1)"
    )
    parser.add_argument("--config", help="YAML config file (default: configs/default.yaml)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--abstained", action="store_true", help="mark the answer as an abstention")
    parser.add_argument(
        "--raw-numbers",
        action="store_true",
        help="ablation: raw-string numeric check (deterministic_verify=false)",
    )
    parser.add_argument(
        "--llm-judge", action="store_true", help="add the LLM entailment check (needs llm config)"
    )
    parser.set_defaults(func=_run)


def _read_text(path: Path) -> str:
    if not path.exists():
        raise FinqaError(f"evidence file not found: {path}", path=str(path))
    raw = path.read_bytes()
    if path.suffix == ".gz":
        raw = gzip.decompress(raw)
    return raw.decode("utf-8", errors="replace")


def load_evidence(path: Path, question: str) -> Any:
    """Evidence from a plain-text or page-JSONL file (sources S1..Sn)."""
    from finqa.agents.types import Evidence, EvidenceItem, RetrievalPlan

    text = _read_text(path)
    items: list[EvidenceItem] = []
    lines = [ln for ln in text.splitlines() if ln.strip()]
    if lines and all(ln.lstrip().startswith("{") for ln in lines):
        for n, line in enumerate(lines, 1):
            try:
                row = json.loads(line)
                page_text = str(row["text"])
            except (json.JSONDecodeError, KeyError, TypeError):
                raise FinqaError(
                    f"{path}:{n}: expected a JSON object with doc_id, page, text", path=str(path)
                ) from None
            items.append(
                EvidenceItem(
                    source_id=f"S{len(items) + 1}",
                    doc_id=str(row.get("doc_id") or row.get("doc_name") or path.stem),
                    pages=(int(row.get("page") or 0),),
                    chunk_ids=(),
                    text=page_text,
                )
            )
    elif text.strip():
        items.append(
            EvidenceItem(source_id="S1", doc_id=path.stem, pages=(0,), chunk_ids=(), text=text)
        )
    plan = RetrievalPlan(
        attempt=1,
        route="file",
        reason=f"evidence from {path.name}",
        k=len(items),
        candidates=len(items),
        rse=False,
    )
    return Evidence(question=question, items=tuple(items), plan=plan)


def _calculations(path: str | None) -> tuple[Any, ...]:
    if not path:
        return ()
    from finqa.agents.types import Calculation
    from pydantic import ValidationError

    try:
        data = json.loads(_read_text(Path(path)))
        items = data if isinstance(data, list) else [data]
        return tuple(Calculation.model_validate(x) for x in items)
    except (json.JSONDecodeError, ValidationError) as exc:
        raise FinqaError(
            f"calculations file {path} is not a JSON list of calculations: {str(exc).splitlines()[0]}"
        ) from None


def _run(args: argparse.Namespace) -> int:
    from finqa.agents.config import load_settings
    from finqa.agents.judge import JudgeAgent
    from finqa.agents.types import Answer, Citation

    overrides: dict[str, Any] = {}
    if args.raw_numbers:
        overrides["judge.deterministic_verify"] = False
    if args.llm_judge:
        overrides["judge.llm_judge"] = True
    settings = load_settings(args.config, overrides=overrides)
    if args.attempt < 1:
        raise FinqaError("--attempt must be >= 1")
    evidence = load_evidence(Path(args.evidence), args.question)
    llm = None
    if settings.judge.llm_judge:
        from finqa.agents.llm_client import OpenAIChatClient

        llm = OpenAIChatClient(settings)
    from finqa.agents.judge.text import CITATION

    cited = dict.fromkeys(
        "S" + part.strip().lstrip("Ss")
        for m in CITATION.finditer(args.answer)
        for part in m.group(1).replace(";", ",").split(",")
    )
    citations = tuple(
        Citation(source_id=s, doc_id=item.doc_id, page=item.pages[0])
        for s in cited
        if (item := evidence.by_source(s)) is not None
    )
    answer = Answer(
        text=args.answer,
        citations=citations,
        calculations=_calculations(args.calculations),
        abstained=args.abstained,
    )
    verdict = JudgeAgent(settings, llm=llm).evaluate(args.question, answer, evidence, args.attempt)
    if args.json:
        out = {
            "scores": {
                "grounding": verdict.grounding,
                "completeness": verdict.completeness,
                "numeric": verdict.numeric,
            },
            "utility": verdict.utility,
            "threshold": verdict.threshold,
            "decision": verdict.decision,
            "diagnosis": verdict.diagnosis,
            "missing_facets": list(verdict.missing_facets),
            "unsupported_numbers": list(verdict.unsupported_numbers),
            "feedback": verdict.feedback,
            "details": dict(verdict.details),
        }
        print(json.dumps(out, indent=2, ensure_ascii=False, default=str))
    else:
        _print_human(verdict)
    return 0


def _print_human(verdict: Any) -> None:
    w = sys.stdout.write
    w(
        f"decision: {verdict.decision}   utility {verdict.utility:.3f} vs threshold {verdict.threshold:.3f}"
        + (f"   diagnosis: {verdict.diagnosis}" if verdict.diagnosis else "")
        + "\n"
    )
    w(
        f"scores: grounding {verdict.grounding:.3f}  completeness {verdict.completeness:.3f}  numeric {verdict.numeric:.3f}\n"
    )
    d = verdict.details
    w("claims:\n")
    for c in d.get("claims", []):
        mark = "ok " if c["supported"] else "-- "
        w(f"  {mark}{c['text'][:100]}  ({c['reason']})\n")
    if d.get("numbers"):
        w("numbers:\n")
        for n in d["numbers"]:
            where = f" [{n['source']}]" if n.get("source") else ""
            w(
                f"  {n['text']}: {n['status']}{where}{' - ' + n['detail'] if n.get('detail') else ''}\n"
            )
    w("facets:\n")
    for f in d.get("facets", []):
        if f.get("counted", True):
            w(
                f"  {'ok ' if f['addressed'] else '-- '}{f['text'][:100]}{' (' + f['how'] + ')' if f.get('how') else ''}\n"
            )
    if d.get("evidence_gaps"):
        w("evidence gaps: " + "; ".join(d["evidence_gaps"]) + "\n")
    w(f"feedback: {verdict.feedback}\n")
