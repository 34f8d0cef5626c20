"""Orchestration overhead: wall time per question minus LLM time, as a share of wall time.

    python -m finqa.benchmarks.overhead [--latency 1.0] [--repeat 1] [--http] [--retrieval] [--json]

A fake LLM of fixed latency (default 1 s) answers through the `LLMClient` seam (or, with
`--http`, through the real OpenAI client against `FakeOpenAIServer` on 127.0.0.1). Everything
else is real when available: the reasoning agent (OpenAI backend: prompt building, JSON parsing,
citation and calculation checks), the judge (deterministic verification), the orchestrator loop
and the audit log (hash chain, file lock, fsync per record). Evidence comes from the bundled sample
pages without an index (retrieval is a separate stage with its own benchmark); `--retrieval`
adds the real retrieval agent over an index of the samples and reports that share separately.

Scripted replies make some questions take several attempts (an abstention first, or an
unsupported figure), so retries and escalation are part of what is measured. Target: <= 5%.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import re
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from finqa.agents.config import Settings, load_settings
from finqa.agents.logs import configure_logging
from finqa.agents.types import (
    Evidence,
    EvidenceItem,
    RetrievalPlan,
    Verdict,
)
from finqa.testing import ScriptedLLM

__all__ = ["SleepLLM", "run", "main", "TARGET_SHARE"]

TARGET_SHARE = 0.05
_SAMPLES = Path(__file__).resolve().parent.parent / "orchestrator" / "samples"

# (question, doc, script) — script per attempt: "abstain" | "bad" (unsupported figure) | "good".
QUESTIONS: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    ("What were NIKE's total revenues in fiscal 2023?", "NIKE_2023_10K", ("good",)),
    ("What was 3M's net income in 2018?", "3M_2018_10K", ("abstain", "good")),
    (
        "What were Microsoft's total current assets as of June 30, 2023?",
        "MICROSOFT_2023_10K",
        ("good",),
    ),
    ("What was 3M's total operating expenses in 2018?", "3M_2018_10K", ("bad", "bad", "good")),
)


def SleepLLM(latency_s: float, reply: Callable[[Sequence[Mapping[str, str]]], str]) -> ScriptedLLM:  # noqa: N802
    """An `LLMClient` of fixed latency (`finqa.testing.ScriptedLLM`), named by its latency."""
    return ScriptedLLM(reply, latency_s=latency_s, model=f"fake-{latency_s:g}s")


# --------------------------------------------------------------------------- scripted replies


class _Script:
    """Replies by (question, attempt): parses the prompt's evidence to quote a real figure."""

    def __init__(self) -> None:
        self._seen: dict[str, int] = {}
        self._lock = threading.Lock()

    def reset(self) -> None:
        """Start every question's script from its first step (call before each question)."""
        with self._lock:
            self._seen.clear()

    def __call__(self, messages: Sequence[Mapping[str, str]]) -> str:
        text = "\n".join(str(m.get("content", "")) for m in messages)
        match = re.search(r"Question:\s*(.+)", text)
        question = match.group(1).strip() if match else ""
        script = next((s for q, _, s in QUESTIONS if q == question), ("good",))
        with self._lock:
            n = self._seen.get(question, 0)
            self._seen[question] = n + 1
        step = script[min(n, len(script) - 1)]
        if step == "abstain":
            reply = {
                "answer": "cannot determine from the filings",
                "citations": [],
                "calculations": [],
                "abstain": True,
            }
            return json.dumps(reply)
        sid, line, figure = _figure(text, question)
        if step == "bad":
            figure = f"{987_654 + n:,}"
        answer = f"{_label(question)} was ${figure} million [{sid}]."
        return json.dumps(
            {
                "answer": answer,
                "citations": [{"source": sid, "quote": line}],
                "calculations": [],
                "abstain": False,
            }
        )


_KEYS = {"revenues": "Revenues", "net income": "Net income", "current assets": "Total current assets",
         "operating expenses": "Total operating expenses"}  # fmt: skip


def _label(question: str) -> str:
    return next((v for k, v in _KEYS.items() if k in question.lower()), "The figure")


def _figure(prompt: str, question: str) -> tuple[str, str, str]:
    """(source id, line, first number) of the first evidence line starting with the asked item."""
    key = _label(question)
    parts = re.split(r"\[(S\d+)\]", prompt)
    for sid, block in zip(parts[1::2], parts[2::2], strict=False):
        for line in block.splitlines():
            number = re.search(r"\d{1,3}(?:,\d{3})+", line)
            if line.strip().startswith(key) and number:
                return sid, line.strip(), number.group(0)
    return "S1", "", "0"


# --------------------------------------------------------------------------- evidence


def _pages() -> dict[str, list[tuple[int, str]]]:
    pages: dict[str, list[tuple[int, str]]] = {}
    for path in sorted((_SAMPLES / "filings").glob("*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            rec = json.loads(line)
            pages.setdefault(rec["doc_name"], []).append((int(rec["page"]), rec["text"]))
    return pages


class _PageRetriever:
    """Evidence = the sample pages of the question's filing, the asked item's page first (no index)."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.pages = _pages()

    def retrieve(
        self,
        question: str,
        attempt: int,
        *,
        company: str | None = None,
        doc_ids: Sequence[str] | None = None,
        feedback: Verdict | None = None,
    ) -> Evidence:
        step = self.settings.retrieval.step(attempt)
        doc = (doc_ids or [next((d for q, d, _ in QUESTIONS if q == question), "3M_2018_10K")])[0]
        key = _label(question)
        ranked = sorted(self.pages.get(doc, []), key=lambda p: key not in p[1])
        items = tuple(
            EvidenceItem(source_id=f"S{i + 1}", doc_id=doc, pages=(page,), chunk_ids=(f"{doc}-p{page}",), text=text,
                         scores={"rrf": 1.0 / (i + 1)})
            for i, (page, text) in enumerate(ranked[: step.k])
        )  # fmt: skip
        plan = RetrievalPlan(attempt=attempt, route="hybrid+filter", reason="benchmark: sample pages of the filing",
                             k=step.k, candidates=step.k * step.candidates_factor, rse=step.rse, query=question)  # fmt: skip
        return Evidence(question=question, items=items, plan=plan)


# --------------------------------------------------------------------------- timing


class _Timed:
    """Wraps an agent or the audit sink and adds the wall time of every call to `seconds`."""

    def __init__(self, inner: Any, method: str) -> None:
        self._inner = inner
        self._method = method
        self.seconds = 0.0

    def __getattr__(self, name: str) -> Any:
        target = getattr(self._inner, name)
        if name != self._method:
            return target

        def timed(*args: Any, **kwargs: Any) -> Any:
            t0 = time.perf_counter()
            try:
                return target(*args, **kwargs)
            finally:
                self.seconds += time.perf_counter() - t0

        return timed


# --------------------------------------------------------------------------- the run


def run(
    latency_s: float = 1.0, *, repeat: int = 1, http: bool = False, retrieval: bool = False
) -> dict[str, Any]:
    """Run the benchmark (after one unmeasured warm-up question); per-question rows and shares."""
    from finqa.agents.judge import JudgeAgent
    from finqa.agents.reasoning import OpenAIChatClient, build_reasoner
    from finqa.audit import AuditLog
    from finqa.orchestrator.loop import Orchestrator

    script = _Script()
    llm = SleepLLM(latency_s, script)
    used = {"reasoner": "finqa.agents.reasoning, openai backend via " + ("HTTP + FakeOpenAIServer" if http else "the LLMClient seam"),
            "judge": "finqa.agents.judge (deterministic checks)", "audit": "audit.AuditLog (fsync per record)"}  # fmt: skip
    rows: list[dict[str, Any]] = []
    with (
        tempfile.TemporaryDirectory(prefix="finqa-overhead-") as tmp,
        contextlib.ExitStack() as stack,
    ):
        overrides: dict[str, Any] = {"audit.path": str(Path(tmp) / "audit.jsonl"), "llm.backend": "openai",
                                     "llm.model": llm.model, "index.path": str(Path(tmp) / "index"),
                                     "llm.max_retries": 0}  # fmt: skip
        server = None
        if http:
            from finqa.agents.reasoning.fake_server import FakeOpenAIServer, FakeReply

            server = stack.enter_context(
                FakeOpenAIServer(
                    lambda body: FakeReply(
                        content=script(body.get("messages") or []), delay_s=latency_s
                    )
                )
            )
            overrides["llm.base_url"] = server.url
        settings = load_settings(overrides=overrides)
        retriever = _Timed(_PageRetriever(settings), "retrieve")
        used["retriever"] = "bundled sample pages, no index"
        if retrieval:
            from finqa.agents.retrieval import RetrievalAgent, ingest_paths

            ingest_paths(sorted((_SAMPLES / "filings").glob("*.jsonl")), settings, progress=False)
            retriever = _Timed(RetrievalAgent(settings), "retrieve")
            used["retriever"] = "finqa.agents.retrieval over an index of the bundled samples"
        reasoner = _Timed(
            build_reasoner(settings, OpenAIChatClient(settings) if server else llm), "generate"
        )
        judge = _Timed(JudgeAgent(settings), "evaluate")
        audit = _Timed(AuditLog(settings.audit_path, fsync=settings.audit.fsync), "append")
        audit.start_run(settings, index_version="benchmark", models={"llm": llm.model})
        orch = Orchestrator(settings, retriever, reasoner, judge, audit)

        def llm_stats() -> tuple[int, float]:
            if server is not None:
                return len(server.requests), len(server.requests) * latency_s
            return llm.calls, llm.seconds

        script.reset()
        orch.run(
            QUESTIONS[0][0], question_id="warm-up", doc_ids=[QUESTIONS[0][1]]
        )  # imports, caches
        for r in range(repeat):
            for i, (question, doc, _) in enumerate(QUESTIONS):
                script.reset()
                calls0, llm0 = llm_stats()
                parts0 = (retriever.seconds, reasoner.seconds, judge.seconds, audit.seconds)
                t0 = time.perf_counter()
                result = orch.run(question, question_id=f"bench-{r}-{i}", doc_ids=[doc])
                wall = time.perf_counter() - t0
                calls1, llm1 = llm_stats()
                llm_s = llm1 - llm0
                retr, reas, jud, aud = (b - a for a, b in zip(parts0, (retriever.seconds, reasoner.seconds,
                                                                       judge.seconds, audit.seconds), strict=True))  # fmt: skip
                rows.append({"question_id": result.question_id, "status": result.status,
                             "attempts": len(result.attempts), "llm_calls": calls1 - calls0, "wall_s": wall,
                             "llm_s": llm_s, "overhead_s": wall - llm_s,
                             "overhead_share": (wall - llm_s) / wall if wall > 0 else 0.0,
                             "retrieval_s": retr, "reasoning_s": max(reas - llm_s, 0.0), "judge_s": jud,
                             "audit_s": aud, "loop_s": wall - llm_s - retr - max(reas - llm_s, 0.0) - jud - aud})  # fmt: skip
    return _summary(rows, latency_s, "http" if http else "seam", used)


def _summary(
    rows: list[dict[str, Any]], latency_s: float, mode: str, used: dict[str, str]
) -> dict[str, Any]:
    wall = sum(r["wall_s"] for r in rows)
    llm_total = sum(r["llm_s"] for r in rows)
    parts = {
        k: sum(r[f"{k}_s"] for r in rows)
        for k in ("retrieval", "reasoning", "judge", "audit", "loop")
    }
    return {
        "latency_s": latency_s,
        "mode": mode,
        "components": used,
        "questions": len(rows),
        "attempts": sum(r["attempts"] for r in rows),
        "llm_calls": sum(r["llm_calls"] for r in rows),
        "wall_s": wall,
        "llm_s": llm_total,
        "overhead_share": (wall - llm_total) / wall if wall > 0 else 0.0,
        "overhead_share_excl_retrieval": (wall - llm_total - parts["retrieval"]) / wall
        if wall > 0
        else 0.0,
        "overhead_ms_per_question": 1000 * (wall - llm_total) / max(len(rows), 1),
        "breakdown_share": {k: v / wall if wall > 0 else 0.0 for k, v in parts.items()},
        "share_median": statistics.median(r["overhead_share"] for r in rows),
        "share_max": max(r["overhead_share"] for r in rows),
        "target_share": TARGET_SHARE,
        "rows": rows,
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m finqa.benchmarks.overhead", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument(
        "--latency", type=float, default=1.0, help="fake LLM latency in seconds (default 1)"
    )
    parser.add_argument("--repeat", type=int, default=1, help="passes over the questions")
    parser.add_argument(
        "--http", action="store_true", help="through the OpenAI client and FakeOpenAIServer"
    )
    parser.add_argument(
        "--retrieval", action="store_true", help="add real retrieval (embedder + chroma)"
    )
    parser.add_argument("--json", action="store_true", help="print the result as JSON")
    args = parser.parse_args(argv)
    configure_logging("warning")
    out = run(args.latency, repeat=args.repeat, http=args.http, retrieval=args.retrieval)
    if args.json:
        print(json.dumps(out, indent=2))
        return 0
    for key, value in out["components"].items():
        print(f"{key:>10}: {value}")
    for r in out["rows"]:
        print(f"{r['question_id']}: {r['status']:<11} attempts={r['attempts']} llm_calls={r['llm_calls']} "
              f"wall={r['wall_s']:.3f}s llm={r['llm_s']:.3f}s non-LLM={1000 * r['overhead_s']:.1f}ms "
              f"({100 * r['overhead_share']:.2f}%)")  # fmt: skip
    parts = ", ".join(f"{k} {100 * v:.2f}%" for k, v in out["breakdown_share"].items())
    verdict = "PASS" if out["overhead_share"] <= TARGET_SHARE else "FAIL"
    print(f"non-LLM time by part (share of wall time): {parts}")
    print(f"orchestration overhead ({out['mode']}, fake LLM {out['latency_s']:g} s, retriever: "
          f"{out['components']['retriever']}): wall minus LLM time = {100 * out['overhead_share']:.2f}% of wall time "
          f"({out['overhead_ms_per_question']:.1f} ms/question; median {100 * out['share_median']:.2f}%, "
          f"max {100 * out['share_max']:.2f}%) over {out['questions']} questions, {out['attempts']} attempts, "
          f"{out['llm_calls']} LLM calls -> {verdict} (target <= {100 * TARGET_SHARE:.0f}%)")  # fmt: skip
    if args.retrieval:
        print(
            f"excluding retrieval: {100 * out['overhead_share_excl_retrieval']:.2f}% of wall time"
        )
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
