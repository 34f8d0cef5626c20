"""Ask a benchmark's generated questions through the product, resumably: `results.jsonl` in the
run folder holds one row per question asked (a torn last line from a kill is skipped), a question
already in it is not asked again, and a question that raises is recorded as failed and the run
goes on. The bench xbrl question sets and the FinanceBench trend bench share it."""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Protocol

__all__ = ["Generated", "ask_each"]


class Generated(Protocol):
    @property
    def qid(self) -> str: ...

    @property
    def question(self) -> str: ...


# (question, the product's result or None when it raised, answer text, status, seconds) -> row
RowOf = Callable[[Any, Any, str, str, float], dict[str, Any]]


def _done(results: Path) -> dict[str, dict[str, Any]]:
    done: dict[str, dict[str, Any]] = {}
    if not results.exists():
        return done
    for line in results.read_text(encoding="utf-8").splitlines():
        try:
            row = json.loads(line)
        except json.JSONDecodeError:
            continue  # a line torn by a kill: that question is asked again
        if isinstance(row, dict) and "qid" in row:
            done[str(row["qid"])] = row
    return done


def ask_each(
    index: Path, questions: Sequence[Generated], out: Path, row_of: RowOf,
    config: str | None = None,
) -> list[dict[str, Any]]:  # fmt: skip
    """The row of every question, in question order: the stored one, else asked now and appended."""
    from finqa.orchestrator import FinQA

    results = out / "results.jsonl"
    done = _done(results)
    pending = [q for q in questions if q.qid not in done]
    if pending:
        qa = FinQA.open(str(index), config=config, audit_path=str(out / "audit.jsonl"))
        try:
            with results.open("a", encoding="utf-8") as fh:
                for q in pending:
                    t0 = time.perf_counter()
                    res: Any = None
                    try:
                        res = qa.ask(q.question, question_id=q.qid)
                        answer, status = res.answer, res.status
                    except Exception as exc:  # noqa: BLE001 - a failing question is recorded, the run goes on
                        answer, status = f"failed: {type(exc).__name__}: {exc}", "failed"
                    row = row_of(q, res, answer, status, round(time.perf_counter() - t0, 3))
                    done[q.qid] = row
                    fh.write(json.dumps(row) + "\n")
                    fh.flush()
        finally:
            qa.close()
    return [done[q.qid] for q in questions if q.qid in done]
