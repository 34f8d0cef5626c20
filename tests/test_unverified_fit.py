"""The unverified-answer policy fit: chosen without the held-out fold, either way by the data."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from finqa.benchmarks import unverified_fit as uf


def _row(i: int, company: str, status: str, label: str) -> dict[str, Any]:
    return {"id": f"q{i}", "company": company, "status": status, "grade": {"label": label}}


class TestChoose:
    def test_unverified_answers_mostly_wrong_abstain(self) -> None:
        rows = [_row(1, "A", "best_effort", "correct"), _row(2, "B", "best_effort", "wrong")]
        assert uf.choose(rows, {}) == "abstain"

    def test_unverified_answers_right_enough_are_answered(self) -> None:
        """Four right for one wrong clears the cost of a wrong answer (three): answered."""
        rows = [_row(i, "A", "best_effort", "correct") for i in range(4)]
        rows.append(_row(9, "B", "best_effort", "wrong"))
        assert uf.choose(rows, {}) == "answer"

    def test_a_tie_abstains_and_hand_grades_count(self) -> None:
        rows = [_row(i, "A", "best_effort", "correct") for i in range(3)]
        rows += [_row(7, "B", "best_effort", "wrong"), _row(8, "C", "accepted", "wrong")]
        assert uf.choose(rows, {}) == "abstain"  # 3 - 3 * 1 = 0; the accepted one is not counted
        rows = [_row(1, "A", "best_effort", "correct"), _row(2, "A", "best_effort", "ungraded")]
        assert uf.choose(rows, {"q2": "wrong"}) == "abstain"
        assert uf.choose(rows, {"q2": "correct"}) == "answer"


class TestFit:
    def test_out_of_fold_applies_each_folds_own_choice(self, tmp_path: Path) -> None:
        rows = [_row(i, f"C{i}", "best_effort", "wrong" if i % 2 else "correct") for i in range(10)]
        rows += [_row(20 + i, f"C{i}", "accepted", "correct") for i in range(10)]
        got = uf.fit(rows, {})
        assert got["fixed"]["answer"] == {"correct": 15, "wrong": 5}
        assert got["fixed"]["abstain"] == {"correct": 10, "abstained": 10}
        assert got["folds"] == ["abstain"] * 5 and got["out_of_fold"] == got["fixed"]["abstain"]
        run = tmp_path / "run"
        run.mkdir()
        (run / "results.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
        assert uf.main(["--run", str(run), "--questions", str(tmp_path / "none.jsonl")]) == 0
