"""The LLM-path benchmark's fixed subset and its table over run directories."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from finqa.benchmarks.llm_answers import answer_rows
from finqa.benchmarks.llm_path import (
    first_attempt_run,
    main,
    run_table,
    select_subset,
    subset_ids,
)


def _rows() -> list[dict[str, str]]:
    types = ("metrics-generated", "domain-relevant", "novel-generated")
    return [
        {"financebench_id": f"id_{i:03d}", "question_type": types[i % 3], "company": f"C{i % 7}"}
        for i in range(60)
    ]


class TestSubset:
    """The subset is fixed, stratified by question type and spread over companies."""

    def test_stratified_and_stable(self) -> None:
        """Equal shares per type, the same ids on every call and in any input order."""
        rows = _rows()
        a = select_subset(rows, 12)
        b = select_subset(list(reversed(rows)), 12)
        assert [r["financebench_id"] for r in a] == [r["financebench_id"] for r in b]
        counts = {
            t: sum(1 for r in a if r["question_type"] == t)
            for t in {"metrics-generated", "domain-relevant", "novel-generated"}
        }
        assert set(counts.values()) == {4}

    def test_companies_spread(self) -> None:
        """Within a type no company repeats while unused companies remain."""
        picked = [r for r in select_subset(_rows(), 12) if r["question_type"] == "domain-relevant"]
        assert len({r["company"] for r in picked}) == len(picked)


class TestSubsetCommand:
    """`subset` derives the questions from a questions file, or takes a pinned id list."""

    def test_selects_from_the_questions_file(self, tmp_path: Path) -> None:
        """Without --ids it writes `select_subset`'s pick, in its order, and prints the ids."""
        src = tmp_path / "q.jsonl"
        src.write_text("".join(json.dumps(r) + "\n" for r in _rows()))
        out = tmp_path / "subset.jsonl"
        assert main(["subset", "--questions", str(src), "--out", str(out), "-n", "12"]) == 0
        written = [json.loads(x)["financebench_id"] for x in out.read_text().splitlines()]
        assert written == [r["financebench_id"] for r in select_subset(_rows(), 12)]

    def test_pinned_ids(self, tmp_path: Path) -> None:
        """--ids writes the listed questions in the listed order, whatever the file's order."""
        ids = ["id_007", "id_002", "id_031"]
        pins = tmp_path / "ids.txt"
        pins.write_text("# pinned\n" + "\n".join(ids) + "\n")
        assert subset_ids(pins) == ids
        src = tmp_path / "q.jsonl"
        src.write_text("".join(json.dumps(r) + "\n" for r in _rows()))
        out = tmp_path / "subset.jsonl"
        argv = ["subset", "--questions", str(src), "--out", str(out), "--ids", str(pins)]
        assert main(argv) == 0
        assert [json.loads(x)["financebench_id"] for x in out.read_text().splitlines()] == ids

    def test_pinned_ids_missing(self, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
        """A questions file lacking pinned ids is an error naming them, and nothing is written."""
        pins = tmp_path / "ids.txt"
        pins.write_text("absent_1\n")
        src = tmp_path / "q.jsonl"
        src.write_text(json.dumps({"financebench_id": "other"}) + "\n")
        out = tmp_path / "subset.jsonl"
        argv = ["subset", "--questions", str(src), "--out", str(out), "--ids", str(pins)]
        assert main(argv) == 2
        assert "absent_1" in capsys.readouterr().err and not out.exists()


class TestAnswerRows:
    """Every attempt of a run, joined to its audit records, for judge labelling."""

    def test_attempts_joined_to_audit(self, tmp_path: Path) -> None:
        """Each attempt carries the model's reply, citations, judge feedback and its gold grade."""
        run = tmp_path / "run"
        (run / "audit").mkdir(parents=True)
        result = {
            "id": "q1", "mode": "self-improving", "run_id": "r1", "status": "best_effort",
            "answer": "B", "best_attempt": 2, "grade": {"label": "wrong"}, "question": "Q?", "gold": "G",
            "attempts": [
                {"attempt": 1, "answer": "A", "grade": {"label": "abstained"}, "decision": "retry", "utility": 0.1},
                {"attempt": 2, "answer": "B", "grade": {"label": "wrong"}, "decision": "retry", "utility": 0.3},
            ],
        }  # fmt: skip
        (run / "results.jsonl").write_text(json.dumps(result) + "\n")
        recs = [
            {"event": "run_start", "run_id": "r1",
             "params": {"code_version": "git:abc", "models": {"llm_backend": "openai", "llm": "m"}}},
            {"event": "reasoning", "run_id": "r1", "question_id": "q1", "attempt": 1,
             "params": {"backend": "openai"},
             "data": {"raw": "{}", "citations": [{"doc_id": "D", "page": 3}],
                      "confidence": {"schema_valid": True, "response_format": "json_object"}}},
            {"event": "judge", "run_id": "r1", "question_id": "q1", "attempt": 1,
             "data": {"feedback": "cite the page"}},
            {"event": "reasoning", "run_id": "r0", "question_id": "q1", "attempt": 2, "data": {}},
        ]  # fmt: skip
        (run / "audit" / "self-improving.jsonl").write_text(
            "".join(json.dumps(r) + "\n" for r in recs) + '{"torn'
        )
        (row,) = answer_rows(run)
        assert row["code_version"] == "git:abc" and row["gold_grade"] == "wrong"
        first, second = row["attempts"]
        assert first["citations"] == [{"doc_id": "D", "page": 3}] and first["schema_valid"]
        assert first["judge"]["feedback"] == "cite the page" and first["grade"] == "abstained"
        assert first["audit_found"] and not second["audit_found"]  # another run's record


class TestTable:
    """The table reads schema validity and who answered from the audit logs."""

    def test_row_from_run_dir(self, tmp_path: Path) -> None:
        """Validity counts only LLM replies; a wrong accepted answer is counted."""
        run = tmp_path / "run-hybrid"
        (run / "audit").mkdir(parents=True)
        summary = {
            "modes": {"single-pass": {"accuracy": 0.5, "wrong_rate": 0.5, "abstain_rate": 0.0}}
        }
        (run / "summary.json").write_text(json.dumps(summary))
        (run / "metrics.json").write_text(
            json.dumps({"meta": {"llm backend": "hybrid"}, "modes": {}})
        )
        results = [
            {"mode": "single-pass", "status": "accepted", "grade": {"label": "wrong"}, "best_attempt": 1,
             "attempts": [{"attempt": 1, "strategy": "standard"}]},
            {"mode": "single-pass", "status": "accepted", "grade": {"label": "correct"}, "best_attempt": 1,
             "attempts": [{"attempt": 1, "strategy": "standard"}]},
        ]  # fmt: skip
        (run / "results.jsonl").write_text("".join(json.dumps(r) + "\n" for r in results))
        recs = [
            {"event": "reasoning", "scores": {"calls": 1},
             "data": {"confidence": {"schema_valid": True, "response_format": "json_object+schema", "answered_by": "llm"}}},
            {"event": "reasoning", "scores": {"calls": 0}, "data": {"confidence": {"answered_by": "offline"}}},
        ]  # fmt: skip
        (run / "audit" / "single-pass.jsonl").write_text(
            "".join(json.dumps(r) + "\n" for r in recs)
        )
        text, rows = run_table([run])
        row = rows[0]
        assert row["schema_valid"] == 1.0 and row["llm_replies"] == 1
        assert row["wrong_accepted"] == 0.5
        assert row["answered_by"] == {"llm": 1, "offline": 1}
        assert "| run-hybrid | hybrid | single-pass | 2 | 0.5 |" in text


class TestFirstAttempt:
    """A single-pass run derived from attempt 1 of a self-improving run."""

    def test_statuses_and_costs_of_attempt_one(self, tmp_path: Path) -> None:
        """Attempt 1 alone gives each question's single-pass answer, status, calls and latency."""
        src, dst = tmp_path / "si", tmp_path / "sp"
        (src / "audit").mkdir(parents=True)
        a1 = {
            "attempt": 1,
            "answer": "A1",
            "decision": "retry",
            "utility": 0.2,
            "llm_calls": 1,
            "prompt_tokens": 10,
            "completion_tokens": 2,
            "latency_ms": 1500.0,
        }
        a2 = {"attempt": 2, "answer": "A2", "decision": "accept", "utility": 0.9, "llm_calls": 1}
        results = [
            {"id": "q1", "mode": "self-improving", "run_id": "r", "answer": "A2", "status": "accepted",
             "attempts": [a1, a2], "llm_calls": 2},
            {"id": "q2", "mode": "self-improving", "run_id": "r", "answer": "A1", "status": "accepted",
             "attempts": [{**a1, "decision": "accept"}], "llm_calls": 1},
            {"id": "q3", "mode": "self-improving", "run_id": "r", "answer": "x", "status": "abstained",
             "attempts": [a1], "llm_calls": 1},
            {"id": "q4", "mode": "self-improving", "run_id": "r", "status": "failed", "attempts": [],
             "error": "boom"},
        ]  # fmt: skip
        (src / "results.jsonl").write_text("".join(json.dumps(r) + "\n" for r in results))
        recs = [
            {"event": "reasoning", "run_id": "r", "question_id": q, "attempt": 1,
             "data": {"abstained": q == "q3"}}
            for q in ("q1", "q2", "q3")
        ] + [{"event": "reasoning", "run_id": "r", "question_id": "q1", "attempt": 2, "data": {}}]  # fmt: skip
        (src / "audit" / "self-improving.jsonl").write_text(
            "".join(json.dumps(r) + "\n" for r in recs)
        )
        assert first_attempt_run(src, dst) == 3
        rows = {
            r["id"]: r for r in map(json.loads, (dst / "results.jsonl").read_text().splitlines())
        }
        assert [rows[q]["status"] for q in ("q1", "q2", "q3")] == [
            "best_effort",
            "accepted",
            "abstained",
        ]
        assert rows["q1"]["answer"] == "A1" and len(rows["q1"]["attempts"]) == 1
        assert rows["q1"]["llm_calls"] == 1 and rows["q1"]["timings"]["latency_s"] == 1.5
        audit = (dst / "audit" / "single-pass.jsonl").read_text().splitlines()
        assert len(audit) == 3 and all(json.loads(x)["attempt"] == 1 for x in audit)
