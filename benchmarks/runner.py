"""The benchmark runner: questions x modes through the orchestrator, graded, appended as it goes.

`run_benchmark` owns the run: it resumes from `results.jsonl` (skipping question x mode pairs
already done), asks the pending ones (a thread pool when `workers > 1`), grades every attempt,
appends one line per question x mode, and at the end rewrites the file in canonical order
(modes in the requested order, questions in file order) so a resumed run and an uninterrupted one
produce the same file. A question that raises is recorded as failed and the run goes on.

The system under test comes from a `SystemFactory(mode, overrides) -> Asker`; tests inject fakes,
the CLI uses `finqa_factory` (the orchestrator's `FinQA.open`).
"""

from __future__ import annotations

import json
import os
import sys
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor, as_completed
from pathlib import Path
from typing import Any, Protocol

from finqa.agents.errors import FinqaError
from finqa.benchmarks.grading import grade
from finqa.benchmarks.modes import MODES, parse_modes
from finqa.benchmarks.questions import BenchQuestion
from finqa.orchestrator.result import QAResult

__all__ = [
    "MODES",
    "Asker",
    "SystemFactory",
    "AnswerGrader",
    "run_benchmark",
    "read_results",
    "parse_modes",
    "RESULTS_FILE",
]

RESULTS_FILE = "results.jsonl"


class Asker(Protocol):
    """What the runner needs from the system under test (FinQA satisfies it)."""

    def ask(
        self,
        question: str,
        *,
        company: str | None = None,
        doc_ids: Sequence[str] | None = None,
        question_id: str | None = None,
    ) -> QAResult: ...


SystemFactory = Callable[[str, Mapping[str, Any]], Asker]


class AnswerGrader(Protocol):
    """An optional second grader (the oracle-guided LLM grader): score in {0, 0.5, 1}."""

    def grade(self, question: str, gold: str, predicted: str) -> Mapping[str, Any]: ...


def read_results(path: Path) -> list[dict[str, Any]]:
    """Every valid line of a results file (a torn last line from a kill is skipped)."""
    if not path.exists():
        return []
    out: list[dict[str, Any]] = []
    with path.open(encoding="utf-8") as fh:
        for line in fh:
            try:
                row = json.loads(line)
            except json.JSONDecodeError:
                continue
            if isinstance(row, dict) and "id" in row and "mode" in row:
                out.append(row)
    return out


def run_benchmark(
    questions: Sequence[BenchQuestion],
    out_dir: str | Path,
    factory: SystemFactory,
    *,
    modes: Sequence[str] = ("single-pass", "self-improving"),
    store: str = "single",
    workers: int = 1,
    rel_tol: float = 0.01,
    llm_grader: AnswerGrader | None = None,
    timer: Callable[[], float] = time.perf_counter,
    progress: bool = True,
) -> dict[str, list[dict[str, Any]]]:
    """Run (or resume) the benchmark; returns the records by mode, in question order."""
    if store not in ("single", "shared"):
        raise FinqaError(f"unknown store {store!r}; choose single or shared")
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    path = out / RESULTS_FILE
    _drop_torn_tail(path)
    existing = read_results(path)
    for row in existing:
        if row.get("store", store) != store:
            raise FinqaError(
                f"{path} holds a {row.get('store')}-store run; use another --out for store={store}"
            )
    done = {(r["id"], r["mode"]) for r in existing if not r.get("error")}
    pending = [(m, q) for m in modes for q in questions if (q.id, m) not in done]

    systems: dict[str, Asker] = {}
    lock = threading.Lock()

    def system(mode: str) -> Asker:
        with lock:
            if mode not in systems:
                systems[mode] = factory(mode, MODES[mode])
            return systems[mode]

    bar = _progress(len(pending), progress)
    with path.open("a", encoding="utf-8") as fh:

        def work(mode: str, q: BenchQuestion) -> None:
            record = _run_one(system(mode), mode, q, store, rel_tol, llm_grader, timer)
            line = json.dumps(record, ensure_ascii=False, sort_keys=True)
            with lock:
                fh.write(line + "\n")
                fh.flush()
                bar.update(1)

        try:
            if workers <= 1:
                for mode, q in pending:
                    work(mode, q)
            else:
                pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="finqa-bench")
                try:
                    futures = [pool.submit(work, m, q) for m, q in pending]
                    for fut in as_completed(futures):
                        fut.result()
                except BaseException:
                    # Ctrl-C or a broken system: stop queued questions, keep what is written.
                    pool.shutdown(wait=False, cancel_futures=True)
                    raise
                pool.shutdown()
        finally:
            bar.close()
            for built in systems.values():
                closer = getattr(built, "close", None)
                if callable(closer):
                    closer()
    return _compact(path, questions, modes, rel_tol)


def _drop_torn_tail(path: Path) -> None:
    """Cut a last line left unfinished by a kill, so appended lines start on a line of their own."""
    if not path.exists() or path.stat().st_size == 0:
        return
    with path.open("rb+") as fh:
        data = fh.read()
        if data.endswith(b"\n"):
            return
        fh.truncate(data.rfind(b"\n") + 1)


def _compact(
    path: Path, questions: Sequence[BenchQuestion], modes: Sequence[str], rel_tol: float
) -> dict[str, list[dict[str, Any]]]:
    """Rewrite the results file deduplicated (last line wins), regraded with the current grader,
    in canonical order; return the records of `questions` x `modes` by mode."""
    latest = {(r["id"], r["mode"]): _regrade(r, rel_tol) for r in read_results(path)}
    by_mode: dict[str, list[dict[str, Any]]] = {}
    ordered: list[dict[str, Any]] = []
    asked = {q.id for q in questions}
    mode_order = list(modes) + sorted({m for _, m in latest} - set(modes))
    ids = [q.id for q in questions] + sorted({i for i, _ in latest} - asked)
    for mode in mode_order:
        for qid in ids:
            row = latest.get((qid, mode))
            if row is not None:
                ordered.append(row)
                if mode in modes and qid in asked:
                    by_mode.setdefault(mode, []).append(row)
    tmp = path.with_suffix(".jsonl.tmp")
    with tmp.open("w", encoding="utf-8") as fh:
        for row in ordered:
            fh.write(json.dumps(row, ensure_ascii=False, sort_keys=True) + "\n")
        fh.flush()
        os.fsync(fh.fileno())
    os.replace(tmp, path)
    return {m: by_mode.get(m, []) for m in modes}


def _progress(total: int, enabled: bool) -> Any:
    from tqdm import tqdm

    return tqdm(
        total=total, desc="financebench", unit="q", file=sys.stderr, disable=not enabled,
        dynamic_ncols=True,
    )  # fmt: skip


def _run_one(
    system: Asker,
    mode: str,
    q: BenchQuestion,
    store: str,
    rel_tol: float,
    llm_grader: AnswerGrader | None,
    timer: Callable[[], float],
) -> dict[str, Any]:
    base: dict[str, Any] = {
        "id": q.id,
        "mode": mode,
        "store": store,
        "type": q.type,
        "question": q.question,
        "gold": q.answer,
        "doc_name": q.doc_name,
        "gold_pages": [list(p) for p in q.evidence_pages],
    }
    doc_ids = [q.doc_name] if store == "single" and q.doc_name else None
    t0 = timer()
    try:
        result = system.ask(q.question, company=None, doc_ids=doc_ids, question_id=q.id)
        wall = timer() - t0
        return {**base, **_result_fields(result, q, rel_tol, wall, llm_grader)}
    except Exception as exc:  # noqa: BLE001 - a failing question is recorded, the run goes on
        wall = timer() - t0
        message = f"{type(exc).__name__}: {exc}".splitlines()[0][:500]
        return {
            **base, "answer": "", "status": "failed", "utility": None, "best_attempt": None,
            "grade": {"label": "ungraded", "kind": "text", "detail": f"run failed: {message}"},
            "attempts": [], "timings": {"latency_s": round(wall, 4), "wall_s": round(wall, 4)},
            "llm_calls": 0, "prompt_tokens": 0, "completion_tokens": 0,
            "run_id": None, "audit_log": None, "error": message,
        }  # fmt: skip


def _final_grade(
    question: str, gold: str, answer: str, status: str, error: str | None, rel_tol: float
) -> dict[str, Any]:
    if status == "failed":
        return {"label": "ungraded", "kind": "text", "detail": f"run failed: {error}"}
    g = grade(question, gold, answer, abstained=status == "abstained", rel_tol=rel_tol)
    return g.model_dump(mode="json")


def _regrade(row: dict[str, Any], rel_tol: float) -> dict[str, Any]:
    """The record with every grade recomputed from its stored answers (grading is deterministic)."""
    question, gold = str(row.get("question", "")), str(row.get("gold", ""))
    for a in row.get("attempts") or []:
        a["grade"] = grade(question, gold, str(a.get("answer", "")), rel_tol=rel_tol).model_dump(
            mode="json"
        )
    status = str(row.get("status", ""))
    row["grade"] = _final_grade(
        question, gold, str(row.get("answer", "")), status, row.get("error"), rel_tol
    )
    return row


def _result_fields(
    result: QAResult,
    q: BenchQuestion,
    rel_tol: float,
    wall: float,
    llm_grader: AnswerGrader | None,
) -> dict[str, Any]:
    gold_pages = set(q.evidence_pages)
    attempts: list[dict[str, Any]] = []
    for a in result.attempts:
        pages = sorted(
            {(str(e.get("doc_id")), int(p)) for e in a.evidence for p in (e.get("pages") or ())}
        )
        recall = round(len(gold_pages & set(pages)) / len(gold_pages), 4) if gold_pages else None
        g = grade(q.question, q.answer, a.answer, rel_tol=rel_tol)
        attempts.append({
            "attempt": a.attempt, "answer": a.answer, "grade": g.model_dump(mode="json"),
            "scores": dict(a.scores), "utility": a.utility, "threshold": a.threshold,
            "decision": a.decision, "diagnosis": a.diagnosis, "k": a.k, "strategy": a.strategy,
            "route": a.route, "evidence_pages": [list(p) for p in pages], "page_recall": recall,
            "llm_calls": a.llm_calls, "prompt_tokens": a.prompt_tokens,
            "completion_tokens": a.completion_tokens, "latency_ms": a.latency_ms,
        })  # fmt: skip
    error = (result.error or result.reason or "failed") if result.status == "failed" else None
    fields: dict[str, Any] = {
        "answer": result.answer,
        "status": result.status,
        "utility": result.utility,
        "best_attempt": result.best_attempt,
        "grade": _final_grade(q.question, q.answer, result.answer, result.status, error, rel_tol),
        "attempts": attempts,
        "timings": {
            "latency_s": round(result.latency_ms / 1000.0, 4)
            if result.latency_ms
            else round(wall, 4),
            "wall_s": round(wall, 4),
        },
        "llm_calls": sum(a.llm_calls for a in result.attempts),
        "prompt_tokens": sum(a.prompt_tokens for a in result.attempts),
        "completion_tokens": sum(a.completion_tokens for a in result.attempts),
        "run_id": result.run_id,
        "audit_log": result.audit_log,
        "error": error,
    }
    if llm_grader is not None:
        try:
            fields["llm_grade"] = dict(llm_grader.grade(q.question, q.answer, result.answer))
        except Exception as exc:  # noqa: BLE001 - the optional grader never stops the run
            fields["llm_grade"] = {"score": None, "rationale": f"grader failed: {exc}"[:300]}
    return fields
