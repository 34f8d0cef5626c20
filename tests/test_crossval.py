"""Company-grouped cross-validation: deterministic folds, gates chosen on training folds only."""

from __future__ import annotations

from collections import Counter
from typing import Any

from finqa.benchmarks.crossval import (
    apply_gates,
    choose_gates,
    company_folds,
    crossvalidate,
)


def _rows(spec: dict[str, int]) -> list[dict[str, Any]]:
    return [
        {"company": c, "financebench_id": f"{c}-{i}"} for c, n in spec.items() for i in range(n)
    ]


def _rec(label: str, mode: str, conf: float, qtype: str = "metrics-generated") -> dict[str, Any]:
    return {"label": label, "mode": mode, "confidence": conf, "question_type": qtype}


class TestCompanyFolds:
    def test_no_company_spans_two_folds(self) -> None:
        """Every question of a company lands in the same fold."""
        rows = _rows({"A": 9, "B": 7, "C": 7, "D": 6, "E": 3, "F": 1, "G": 1, "H": 2})
        folds = company_folds(rows, 5)
        by_company: dict[str, set[int]] = {}
        for r, f in zip(rows, folds, strict=True):
            by_company.setdefault(r["company"], set()).add(f)
        assert all(len(s) == 1 for s in by_company.values())

    def test_folds_are_deterministic_and_balanced(self) -> None:
        """The same rows in another order give each company the same fold; sizes stay close."""
        rows = _rows({"A": 4, "B": 4, "C": 3, "D": 3, "E": 2, "F": 2, "G": 1, "H": 1})
        folds = company_folds(rows, 4)
        again = company_folds(list(reversed(rows)), 4)
        fold_of = {r["company"]: f for r, f in zip(rows, folds, strict=True)}
        assert all(fold_of[r["company"]] == f for r, f in zip(reversed(rows), again, strict=True))
        sizes = Counter(folds).values()
        assert max(sizes) - min(sizes) <= 1


class TestGates:
    def test_gate_withholds_low_confidence_wrong_answers(self) -> None:
        """A mode whose low-confidence answers are wrong gets a gate that withholds them."""
        train = [_rec("wrong", "extractive", 0.3)] * 3 + [_rec("correct", "extractive", 0.7)] * 2
        gates = choose_gates(train)
        assert 0.3 < gates["extractive"] <= 0.7
        labels = [r["label"] for r in apply_gates(train, gates)]
        assert labels.count("abstained") == 3 and labels.count("correct") == 2

    def test_gate_stays_open_when_answers_are_right(self) -> None:
        """A mode whose answers are all correct keeps a zero gate."""
        assert choose_gates([_rec("correct", "metric", 0.5)] * 4) == {"metric": 0.0}

    def test_held_out_fold_never_trains_its_gate(self) -> None:
        """A fold's gate comes from the other folds: wrong answers only in fold 0 do not gate fold 0."""
        records = [_rec("wrong", "extractive", 0.4)] * 3 + [_rec("correct", "extractive", 0.4)] * 3
        folds = [0, 0, 0, 1, 1, 1]
        oof, gates = crossvalidate(records, folds, 2)
        assert gates[0] == {"extractive": 0.0}  # trained on fold 1: all correct
        assert [r["label"] for r in oof[:3]] == ["wrong"] * 3
        assert [r["label"] for r in oof[3:]] == ["abstained"] * 3  # gated by fold 0's wrongs
