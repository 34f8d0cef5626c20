"""FinanceBench trend bench: companies with consecutive 10-Ks, questions from templates, each
year graded by its own filing (a later filing's restated comparative is not the gold)."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest
from finqa.benchmarks.financebench_trend import (
    Filing,
    TrendQuestion,
    grade_answer,
    main,
    runs_of_10k,
    trend_questions,
)

# FY2024's 10-K restates FY2023's revenue (19,409 as first filed -> 19,500)
FY2023 = """ADOBE INC.
ANNUAL REPORT ON FORM 10-K FOR THE FISCAL YEAR ENDED DECEMBER 1, 2023

CONSOLIDATED STATEMENTS OF INCOME
(In millions)
Years ended December 1, 2023 December 2, 2022
Total revenue 19,409 17,606
Operating income 6,650 6,098
Net income 5,428 4,756
"""
FY2024 = """ADOBE INC.
ANNUAL REPORT ON FORM 10-K FOR THE FISCAL YEAR ENDED NOVEMBER 29, 2024

CONSOLIDATED STATEMENTS OF INCOME
(In millions)
Years ended November 29, 2024 December 1, 2023
Total revenue 21,505 19,500
Operating income 6,741 6,650
Net income 5,560 5,428
"""


def _doc(name: str, year: int, kind: str = "10k") -> dict[str, object]:
    return {"doc_name": name, "company": "Adobe", "doc_type": kind, "doc_period": year}


@pytest.fixture
def financebench(tmp_path: Path) -> Path:
    """A FinanceBench-shaped folder: documents.jsonl and pages.jsonl.gz of two Adobe 10-Ks."""
    root = tmp_path / "fb"
    root.mkdir()
    docs = [_doc("ADOBE_2023_10K", 2023), _doc("ADOBE_2024_10K", 2024), _doc("ADOBE_2024Q1_10Q", 2024, "10q")]  # fmt: skip
    (root / "documents.jsonl").write_text("".join(json.dumps(d) + "\n" for d in docs))
    with gzip.open(root / "pages.jsonl.gz", "wt", encoding="utf-8") as fh:
        for name, text in (("ADOBE_2023_10K", FY2023), ("ADOBE_2024_10K", FY2024)):
            fh.write(
                json.dumps({"doc_name": name, "page": 0, "text": text, "source": "pdf"}) + "\n"
            )
    return root


class TestSelection:
    def test_latest_run_of_consecutive_10ks_with_pages(self) -> None:
        """A gap starts a new run; evidence-only filings and 10-Qs do not count; short runs are dropped."""
        docs = [_doc(f"A_{y}_10K", y) for y in (2015, 2016, 2018, 2019, 2020, 2021)]
        docs += [_doc("A_2022_10K", 2022), _doc("A_2020Q1_10Q", 2020, "10q")]
        paged = {d["doc_name"]: "pdf" for d in docs} | {"A_2022_10K": "evidence_only"}
        runs = runs_of_10k(docs, paged)
        assert [f.year for f in runs["Adobe"]] == [2018, 2019, 2020, 2021]
        assert runs_of_10k(docs[:2], paged) == {}


class TestGold:
    def _question(self, kind: str, value: float, gold: str) -> TrendQuestion:
        years = (2022, 2023, 2024)
        text = {
            "growth": "By what percentage did Adobe's revenue change from fiscal 2022 to fiscal 2024?",
            "highest": "In which fiscal year from 2022 to 2024 was Adobe's revenue the highest?",
        }[kind]
        return TrendQuestion("q", kind, "Adobe", "revenue", years, text, gold, value, ())

    def test_numeric_answers_graded_on_the_headline(self) -> None:
        """The combined figure is graded, not a leg's figure; an abstention is not wrong."""
        q = self._question("growth", 22.14, "22.14%")
        right = "Adobe revenue FY2022: $17,606 million; ... Change from FY2022 to FY2024: +22.14%."
        assert grade_answer(q, right, abstained=False)[0] == "correct"
        assert grade_answer(q, right.replace("22.14", "18.02"), abstained=False)[0] == "wrong"
        assert grade_answer(q, "Cannot answer: no figure found.", abstained=True)[0] == "abstained"

    def test_which_year_needs_one_year_named(self) -> None:
        """'Which year was highest' is right only when the first sentence names the gold year alone."""
        q = self._question("highest", 2024.0, "fiscal 2024")
        assert grade_answer(q, "FY2024 had the highest revenue ($21,505 million).", abstained=False)[0] == "correct"  # fmt: skip
        assert grade_answer(q, "Fiscal 2023 was the highest.", abstained=False)[0] == "wrong"
        label, why = grade_answer(
            q, "Adobe revenue FY2022: $17,606 million; Adobe revenue FY2024: $21,505 million.", abstained=False
        )  # fmt: skip
        assert label == "wrong" and "no single year" in why


class TestOnTwoFilings:
    def test_each_year_graded_by_its_own_filing(self, financebench: Path, tmp_path: Path) -> None:
        """FY2023's gold is 19,409 (its own 10-K), not the 19,500 FY2024's 10-K restates it to;
        the run writes one row per question and a second run asks nothing again."""
        out = tmp_path / "out"
        argv = ["--out", str(out), "--financebench", str(financebench), "--min-years", "2"]
        assert main([*argv, "--limit", "3"]) == 0
        questions = [json.loads(x) for x in (out / "questions.jsonl").read_text().splitlines()]
        growth = next(q for q in questions if q["kind"] == "growth" and q["item"] == "revenue")
        assert growth["value"] == pytest.approx((21_505 - 19_409) / 19_409 * 100)
        assert any(
            "ADOBE_2023_10K p.0 revenue FY2023 = 19,409,000,000" in f for f in growth["facts"]
        )
        assert [r.split(" vs ")[0] for r in growth["restated"]] == ["FY2023: own 1.941e+10"]
        assert growth["latest_answer"] == f"{(21_505 - 19_500) / 19_500 * 100:.2f}%"  # restated
        rows = [json.loads(x) for x in (out / "results.jsonl").read_text().splitlines()]
        assert [r["qid"] for r in rows] == [q["qid"] for q in questions]
        assert all(r["label"] in ("correct", "wrong", "abstained", "ungraded") for r in rows)
        assert {r["label_by_latest_gold"] for r in rows} <= {"correct", "wrong", "abstained", "ungraded"}  # fmt: skip
        summary = json.loads((out / "summary.json").read_text())
        assert summary["questions"] == 3 and summary["companies"] == {
            "Adobe": ["ADOBE_2023_10K", "ADOBE_2024_10K"]
        }
        assert main([*argv, "--limit", "3"]) == 0  # resumable: nothing asked twice
        assert len((out / "results.jsonl").read_text().splitlines()) == 3

    def test_generator_templates_and_left_out(self) -> None:
        """Every line item gets growth, CAGR and highest; margins their move; a year without an
        own figure leaves the question out and counts it."""
        from finqa.benchmarks.financebench_trend import ITEMS, MARGINS, _Own

        runs = {"Adobe": [Filing("A_2023_10K", "Adobe", 2023), Filing("A_2024_10K", "Adobe", 2024)]}
        own = {("Adobe", m, y): _Own(v, "") for m, y, v in [
            ("revenue", 2023, 100.0), ("revenue", 2024, 121.0),
            ("operating_margin", 2023, 20.0), ("operating_margin", 2024, 18.5),
        ]}  # fmt: skip
        qs, left_out = trend_questions(runs, own)
        by = {(q.item, q.kind): q for q in qs}
        assert by[("revenue", "cagr")].value == pytest.approx(21.0)
        assert by[("revenue", "highest")].answer == "fiscal 2024"
        assert by[("operating_margin", "margin")].value == pytest.approx(-1.5)
        assert "percentage points" in by[("operating_margin", "margin")].question
        assert left_out == (len(ITEMS) - 1) * 3 + (len(MARGINS) - 1)
