"""The LLM-path benchmark's fixed subset and its table over run directories."""

from __future__ import annotations

import json
from pathlib import Path

from finqa.benchmarks.llm_path import run_table, select_subset


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
