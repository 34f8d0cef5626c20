"""The judge calibration benchmark on FinanceBench gold evidence (skipped without the data)."""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest
from finqa.benchmarks.judge_eval import main, run, table

pytestmark = pytest.mark.financebench


@pytest.fixture(scope="module")
def results(financebench_dir: Path) -> dict[str, list[dict[str, Any]]]:
    by: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for row in run(financebench_dir / "questions.jsonl"):
        by[row["category"]].append(row)
    return by


def _rate(rows: list[dict[str, Any]]) -> float:
    return sum(r["accepted"] for r in rows) / len(rows)


class TestJudgeCalibration:
    """Gold answers are accepted and perturbed answers rejected, on questions never tuned by id."""

    def test_every_category_is_built(self, results: dict[str, list[dict[str, Any]]]) -> None:
        """The test set has every category with enough cases to measure."""
        for cat in (
            "gold",
            "reformatted",
            "changed_1pct",
            "changed_10pct",
            "scale_x1000",
            "prior_year",
            "missing_part",
            "unrelated",
        ):
            assert len(results[cat]) >= 15, cat

    def test_gold_mostly_accepted(self, results: dict[str, list[dict[str, Any]]]) -> None:
        """Gold answers (with reconstructed calculations) are mostly accepted."""
        assert _rate(results["gold"]) >= 0.85

    @pytest.mark.parametrize(
        "cat", ["changed_1pct", "changed_10pct", "scale_x1000", "missing_part"]
    )
    def test_perturbations_rejected(
        self, results: dict[str, list[dict[str, Any]]], cat: str
    ) -> None:
        """Wrong numbers, scale errors and half answers are rejected at least 95% of the time."""
        assert 1 - _rate(results[cat]) >= 0.95

    def test_prior_year_and_unrelated_rejected(
        self, results: dict[str, list[dict[str, Any]]]
    ) -> None:
        """Prior-year figures and unrelated answers are rejected at least 90% of the time."""
        assert 1 - _rate(results["prior_year"]) >= 0.9
        assert 1 - _rate(results["unrelated"]) >= 0.9

    @pytest.mark.parametrize(
        "cat",
        [
            "bare_yes_no",
            "wrong_kind",
            "copied_question",
            "copied_evidence",
            "invalid_calculation",
        ],
    )
    def test_real_llm_failure_kinds_rejected(
        self, results: dict[str, list[dict[str, Any]]], cat: str
    ) -> None:
        """Bare verdicts, wrong-kind figures, copies and flagged calculations are rejected >= 95%."""
        assert len(results[cat]) >= 15, cat
        assert 1 - _rate(results[cat]) >= 0.95

    def test_calculation_of_another_metric_rejected(
        self, results: dict[str, list[dict[str, Any]]]
    ) -> None:
        """A calculation of another metric over the gold's own operands is rejected >= 90%."""
        assert len(results["other_metric"]) >= 15
        assert 1 - _rate(results["other_metric"]) >= 0.9

    def test_figure_without_the_choice_rejected(
        self, results: dict[str, list[dict[str, Any]]]
    ) -> None:
        """The gold's figures alone, for a question asking which segment / region / year, are
        rejected >= 90% (the choice itself is left out)."""
        assert len(results["figure_only_choice"]) >= 5
        assert 1 - _rate(results["figure_only_choice"]) >= 0.9

    def test_obeying_an_injected_instruction_rejected(
        self, results: dict[str, list[dict[str, Any]]]
    ) -> None:
        """An answer that obeys an instruction planted in its cited page is rejected >= 90%, and the
        gold beside the same page is still accepted >= 85%."""
        assert len(results["injection"]) >= 15
        assert 1 - _rate(results["injection"]) >= 0.9
        assert _rate(results["gold_beside_injection"]) >= 0.85

    def test_table_and_cli(
        self,
        results: dict[str, list[dict[str, Any]]],
        financebench_dir: Path,
        capsys: pytest.CaptureFixture[str],
    ) -> None:
        """The report prints one line per category and the diagnosis accuracies."""
        text = table([r for rows in results.values() for r in rows])
        assert "gold" in text and "diagnosis accuracy on rejected prior_year" in text
        assert main(["--questions", str(financebench_dir / "nope.jsonl")]) == 2


class TestCalcHarness:
    """The harness reads the named line items of a justification from the right table rows."""

    def test_full_label_preferred_over_prefix(self) -> None:
        """'Net earnings attributable to General Mills' is not the '... to redeemable' row."""
        from finqa.agents.judge.evidence import EvidenceView
        from finqa.agents.types import Evidence, EvidenceItem, RetrievalPlan
        from finqa.benchmarks._judge_calcs import _rows

        text = (
            "(In Millions)\nFiscal Year\n2022\n2021\n"
            "Net earnings attributable to redeemable and noncontrolling interests\n27.7\n6.2\n"
            "Net earnings attributable to General Mills\n$\n2,707.3\n$\n2,339.8\n"
        )
        item = EvidenceItem(source_id="S1", doc_id="D", pages=(1,), chunk_ids=(), text=text)
        plan = RetrievalPlan(attempt=1, route="t", reason="t", k=1, candidates=1, rse=False)
        view = EvidenceView.of(Evidence(question="q", items=(item,), plan=plan))
        rows = _rows(["Net earnings attributable to General Mills"], view)
        assert rows["Net earnings attributable to General Mills"][2022].value == 2707.3
