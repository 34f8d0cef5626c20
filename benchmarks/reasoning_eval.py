"""Reasoning-agent figures on FinanceBench: offline backend with oracle or finqa retrieval; fake-LLM run.

    python -m finqa.benchmarks.reasoning_eval --mode oracle       # evidence = the gold evidence pages
    python -m finqa.benchmarks.reasoning_eval --mode retrieval    # RetrievalAgent over /work/var/index-pdfs,
                                                            # single store (doc_ids=[doc_name])
    python -m finqa.benchmarks.reasoning_eval --mode fake         # OpenAI path against the FakeOpenAIServer

Prints correct / wrong / abstained / ungraded per question type (graded by benchmarks.grading),
and writes one JSON line per question to --out for failure analysis. The fake mode prints LLM
calls, retries and latency per attempt (strategy) with injected 429s, 500s and delays.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

from finqa.agents.config import Settings, load_settings
from finqa.agents.logs import configure_logging
from finqa.agents.reasoning import OpenAIChatClient, build_reasoner
from finqa.agents.types import Answer, Evidence, RetrievalPlan, Verdict
from finqa.benchmarks.questions import gold_evidence, read_rows

__all__ = ["main", "oracle_evidence", "load_questions"]


def _shared_dir() -> Path:
    """../shared beside the repository (a worktree under /work/wt/NAME looks one level higher)."""
    here = Path(__file__).resolve()
    for parent in (here.parents[2], here.parents[3]):
        if (parent / "shared" / "financebench").is_dir():
            return parent / "shared"
    return here.parents[2] / "shared"


DEFAULT_QUESTIONS = _shared_dir() / "financebench" / "questions.jsonl"
DEFAULT_INDEX = Path("/work/var/index-pdfs")
TYPES = ("metrics-generated", "domain-relevant", "novel-generated")


def load_questions(
    path: Path, limit: int | None = None, qtype: str | None = None
) -> list[dict[str, Any]]:
    return read_rows(path, limit=limit, qtype=qtype)


def oracle_evidence(q: Mapping[str, Any]) -> Evidence:
    """Evidence built from the gold evidence pages (full page text, doc_name, 0-based page)."""
    return gold_evidence(str(q["question"]), q.get("evidence") or [])


def _grade(q: Mapping[str, Any], text: str, abstained: bool) -> tuple[str, str]:
    from finqa.benchmarks.grading import grade

    g = grade(str(q["question"]), str(q["answer"]), text, abstained=abstained)
    return g.label, g.detail


def _table(results: Iterable[Mapping[str, Any]], title: str) -> None:
    counts: dict[str, Counter[str]] = defaultdict(Counter)
    for r in results:
        counts[r["question_type"]][r["label"]] += 1
        counts["all"][r["label"]] += 1
    print(f"\n{title}")
    print(
        f"{'question type':<20} {'n':>4} {'correct':>13} {'wrong':>13} {'abstained':>13} {'ungraded':>13}"
    )
    for qtype in (*TYPES, "all"):
        c = counts.get(qtype)
        if not c:
            continue
        n = sum(c.values())
        cells = " ".join(
            f"{c[k]:>4} ({100 * c[k] / n:5.1f}%)"
            for k in ("correct", "wrong", "abstained", "ungraded")
        )
        print(f"{qtype:<20} {n:>4} {cells}")


def _feedback(answer: Any) -> Verdict:
    """What the Judge would say about an abstention: retrieval lacked these line items."""
    missing = answer.missing
    return Verdict(
        grounding=0.0,
        completeness=0.0,
        numeric=0.0,
        utility=0.0,
        threshold=0.5,
        decision="retry",
        diagnosis="retrieval",
        missing_facets=missing,
        feedback=("missing line items: " + ", ".join(missing)) if missing else answer.text,
    )


def run_offline(
    questions: list[dict[str, Any]],
    mode: str,
    settings: Settings,
    attempt: int,
    out: Path | None,
    escalate: bool = False,
    *,
    resume: bool = False,
    statements: Path | None = None,
) -> list[dict[str, Any]]:
    """Answer each question offline and grade it; one JSON line per question to `out`.

    With `resume`, questions already in `out` are read back instead of re-run and new ones are
    appended as they finish (a long single-store run survives an interruption). `statements`:
    the index folder whose statement model the reasoner reads (None: evidence text only)."""
    done = _done(out) if resume and out is not None else {}
    todo = [q for q in questions if str(q.get("financebench_id")) not in done]
    if out is not None:
        out.parent.mkdir(parents=True, exist_ok=True)
        if not resume:
            out.write_text("", encoding="utf-8")
    if not todo:
        return [done[str(q.get("financebench_id"))] for q in questions]
    store = None
    if statements is not None:
        from finqa.lexicon.statements import shared_store

        store = shared_store(statements)
    reasoner = build_reasoner(settings.with_overrides({"llm.backend": "offline"}), statements=store)
    errors: list[str] = []
    retrieve = _retriever(mode, settings, errors)

    results: list[dict[str, Any]] = []
    for q in todo:
        t0 = time.perf_counter()
        ev = retrieve(q, attempt, None)
        t1 = time.perf_counter()
        used = attempt
        try:
            ans = reasoner.generate(str(q["question"]), ev, attempt)
            while escalate and mode == "retrieval" and ans.abstained and used < 3:
                used += 1
                fb = _feedback(ans)
                ev = retrieve(q, used, fb)
                ans = reasoner.generate(str(q["question"]), ev, used, feedback=fb)
        except Exception as exc:  # noqa: BLE001 - a failing question is recorded, the run goes on
            errors.append(f"{q.get('financebench_id')}: {type(exc).__name__}: {exc}")
            ans = Answer(text=f"error: {type(exc).__name__}: {str(exc)[:200]}", abstained=True,
                         confidence={"mode": "error", "score": 0.0})  # fmt: skip
        t2 = time.perf_counter()
        label, detail = _grade(q, ans.text, ans.abstained)
        gold_pages = {(e["doc_name"], e["evidence_page_num"]) for e in q.get("evidence") or []}
        got_pages = {(i.doc_id, p) for i in ev.items for p in i.pages}
        results.append(
            {
                "financebench_id": q.get("financebench_id"),
                "question_type": q.get("question_type"),
                "question": q["question"],
                "gold": q["answer"],
                "answer": ans.text,
                "abstained": ans.abstained,
                "label": label,
                "detail": detail,
                "mode": ans.confidence.get("mode"),
                "confidence": ans.confidence.get("score"),
                "citations": [[c.doc_id, c.page] for c in ans.citations],
                "gold_page_hit": bool(gold_pages & got_pages),
                "evidence_items": len(ev.items),
                "retrieval_ms": round(1000 * (t1 - t0), 1),
                "reasoning_ms": round(1000 * (t2 - t1), 1),
                "attempts": used,
            }
        )
        if out is not None:
            with out.open("a", encoding="utf-8") as fh:
                fh.write(json.dumps(results[-1]) + "\n")
    if errors:
        print(f"{len(errors)} error(s), first: {errors[0]}", file=sys.stderr)
    fresh = {str(r["financebench_id"]): r for r in results}
    return [fresh.get(str(q.get("financebench_id"))) or done[str(q.get("financebench_id"))]
            for q in questions]  # fmt: skip


def _done(out: Path) -> dict[str, dict[str, Any]]:
    """Results already in `out`, by question id (a torn last line is skipped: it re-runs)."""
    done: dict[str, dict[str, Any]] = {}
    if not out.exists():
        return done
    for line in out.read_text(encoding="utf-8").splitlines():
        try:
            rec = json.loads(line)
        except json.JSONDecodeError:
            continue  # a torn last line from an interrupted run: that question re-runs
        done[str(rec.get("financebench_id"))] = rec
    return done


def _retriever(
    mode: str, settings: Settings, errors: list[str]
) -> Callable[[dict[str, Any], int, Verdict | None], Evidence]:
    """Evidence for a question: its gold pages (oracle), or finqa's retrieval over its filing."""
    if mode == "oracle":
        return lambda q, n, fb: oracle_evidence(q)
    from finqa.agents.retrieval import RetrievalAgent

    agent = RetrievalAgent(settings)

    def retrieve(q: dict[str, Any], n: int, fb: Verdict | None) -> Evidence:
        try:
            return agent.retrieve(str(q["question"]), n, doc_ids=[str(q["doc_name"])], feedback=fb)
        except Exception as exc:  # noqa: BLE001 - one failed question must not end the run
            errors.append(f"{q.get('financebench_id')}: {type(exc).__name__}: {exc}")
            plan = RetrievalPlan(
                attempt=n, route="error", reason=str(exc)[:200], k=0, candidates=0, rse=False
            )
            return Evidence(question=str(q["question"]), plan=plan)

    return retrieve


def run_fake(questions: list[dict[str, Any]], settings: Settings) -> None:
    """The OpenAI path against the fake server with injected faults: calls/retries/latency per attempt."""
    from finqa.agents.reasoning.fake_server import FakeOpenAIServer, FakeReply

    counter = {"n": 0}

    def script(body: Mapping[str, Any]) -> str | FakeReply:
        counter["n"] += 1
        n = counter["n"]
        if n % 7 == 0:
            return FakeReply.error(429)
        if n % 11 == 0:
            return FakeReply.error(500)
        user = str(body["messages"][-1]["content"])
        cited = "S1" if "[S1]" in user else ""
        reply = {
            "answer": f"See the statement [{cited}]."
            if cited
            else "cannot determine from the filings",
            "citations": [{"source": cited, "quote": ""}] if cited else [],
            "abstain": not cited,
        }
        return FakeReply(content=json.dumps(reply), delay_s=0.05 if n % 5 == 0 else 0.0)

    per: dict[str, list[Any]] = defaultdict(list)
    with FakeOpenAIServer(script) as srv:
        cfg = settings.with_overrides(
            {
                "llm.backend": "openai",
                "llm.base_url": srv.url,
                "llm.backoff_s": 0.01,
                "llm.timeout_s": 5.0,
                "llm.max_retries": 2,
            }
        )
        reasoner = build_reasoner(cfg, OpenAIChatClient(cfg.llm, api_key="fake"))
        for q in questions:
            ev = oracle_evidence(q)
            for attempt in (1, 2, 3):
                a = reasoner.generate(str(q["question"]), ev, attempt)
                per[a.strategy].append(a)
    print("\nfake OpenAI server (429 every 7th request, 500 every 11th, 50 ms delay every 5th)")
    print(
        f"{'attempt/strategy':<18} {'answers':>7} {'calls':>6} {'retries':>8} {'errors':>7} "
        f"{'latency mean ms':>16} {'p95 ms':>8} {'tokens':>7}"
    )
    for n, strategy in enumerate(("standard", "conservative", "detailed"), start=1):
        answers = per[strategy]
        lat = sorted(a.usage.latency_ms for a in answers) or [0.0]
        p95 = lat[min(len(lat) - 1, int(0.95 * len(lat)))]
        errors = sum(1 for a in answers if a.confidence.get("mode") == "llm-error")
        print(
            f"{n}/{strategy:<16} {len(answers):>7} {sum(a.usage.calls for a in answers):>6} "
            f"{sum(a.usage.retries for a in answers):>8} {errors:>7} {statistics.mean(lat):>16.1f} {p95:>8.1f} "
            f"{sum(a.usage.prompt_tokens + a.usage.completion_tokens for a in answers):>7}"
        )


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(
        prog="python -m finqa.benchmarks.reasoning_eval", description=__doc__.split("\n")[0]
    )
    p.add_argument("--mode", choices=("oracle", "retrieval", "fake"), default="oracle")
    p.add_argument("--questions", type=Path, default=DEFAULT_QUESTIONS)
    p.add_argument("--index", type=Path, default=DEFAULT_INDEX)
    p.add_argument("--config", default=None)
    p.add_argument(
        "--attempt", type=int, default=1, help="retrieval/reasoning attempt (escalation step)"
    )
    p.add_argument(
        "--escalate",
        action="store_true",
        help="retrieval mode: on abstention retry at the next attempt (up to 3) with the missing "
        "line items as feedback, as the orchestrator does",
    )
    p.add_argument(
        "--statements",
        type=Path,
        default=None,
        help="index folder whose statement model the reasoner reads (default: none, evidence "
        "text only; retrieval mode: --index)",
    )
    p.add_argument("--type", dest="qtype", choices=TYPES, default=None)
    p.add_argument("--limit", type=int, default=None)
    p.add_argument(
        "--allow-unready", action="store_true", help="use an index without its .READY marker"
    )
    p.add_argument(
        "--out",
        type=Path,
        default=None,
        help="per-question JSONL (default /work/var/reasoning_eval/MODE.jsonl)",
    )
    args = p.parse_args(argv)
    if not args.questions.exists():
        print(f"error: questions file not found: {args.questions}", file=sys.stderr)
        return 2
    questions = load_questions(args.questions, args.limit, args.qtype)
    overrides: dict[str, Any] = {}
    if args.mode == "retrieval":
        ready = Path(f"{args.index}.READY").exists() or (args.index / "READY").exists()
        if not ready and not (args.allow_unready and (args.index / "index.json").exists()):
            print(
                f"error: index {args.index} is not ready ({args.index}.READY missing); build it first",
                file=sys.stderr,
            )
            return 2
        overrides["index.path"] = str(args.index)
    configure_logging("warning")
    settings = load_settings(args.config, overrides=overrides)
    if args.mode == "fake":
        run_fake(questions, settings)
        return 0
    tag = f"a{args.attempt}" + ("-escalate" if args.escalate else "")
    out = args.out or Path("/work/var/reasoning_eval") / f"{args.mode}-{tag}.jsonl"
    t0 = time.perf_counter()
    model = args.statements or (args.index if args.mode == "retrieval" else None)
    results = run_offline(
        questions, args.mode, settings, args.attempt, out, args.escalate, statements=model
    )
    how = f"attempt {args.attempt}" + (" escalating to 3 on abstention" if args.escalate else "")
    _table(
        results,
        f"offline backend, {args.mode} evidence, {how} "
        f"({len(results)} questions, {time.perf_counter() - t0:.1f} s) -> {out}",
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
