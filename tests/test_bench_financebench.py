"""The FinanceBench runner: modes, stores, results file, resume, failures, summary, report, plots."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest
from finqa.benchmarks.financebench import run_financebench, write_outputs
from finqa.benchmarks.questions import BenchQuestion, load_questions
from finqa.benchmarks.runner import MODES, parse_modes, read_results, run_benchmark
from finqa.orchestrator.result import AttemptRecord, QAResult, Status

SUMMARY_MODE_KEYS = {
    "accuracy", "accuracy_ci", "by_type", "wrong_rate", "abstain_rate", "acceptance_rate",
    "lazarus_rate", "judge_tpr", "judge_fpr", "attempts_mean", "llm_calls_mean",
    "latency_s_p50", "latency_s_p95",
}  # fmt: skip

# Our own toy questions (not FinanceBench data): id -> (type, question, gold, doc, gold pages).
QUESTIONS = [
    BenchQuestion(id="q1", type="metrics-generated", doc_name="ACME_2022_10K",
                  question="What is ACME's FY2022 capex? Answer in USD millions.", answer="$1200.00",
                  evidence_pages=(("ACME_2022_10K", 50),)),
    BenchQuestion(id="q2", type="domain-relevant", doc_name="ACME_2022_10K",
                  question="Does ACME have positive working capital in FY2022?",
                  answer="Yes. ACME's working capital was $300 million.",
                  evidence_pages=(("ACME_2022_10K", 48), ("ACME_2022_10K", 49))),
    BenchQuestion(id="q3", type="novel-generated", doc_name="BETA_2021_10K",
                  question="Which segment grew fastest?", answer="Cloud Services",
                  evidence_pages=(("BETA_2021_10K", 7),)),
    BenchQuestion(id="q4", type="metrics-generated", doc_name="BETA_2021_10K",
                  question="What is BETA's FY2021 gross margin?", answer="41.5%",
                  evidence_pages=(("BETA_2021_10K", 30),)),
    BenchQuestion(id="q5", type="metrics-generated", doc_name="BETA_2021_10K",
                  question="What is BETA's FY2021 quick ratio?", answer="0.91",
                  evidence_pages=(("BETA_2021_10K", 31),)),
]  # fmt: skip

# Scripted attempts per question: (answer, decision, evidence page). The last attempt is final.
SCRIPT: dict[str, list[tuple[str, str, int]]] = {
    "q1": [("Capex was $1,150 million.", "retry", 12), ("Capex was $1.2 billion.", "accept", 50)],
    "q2": [("Yes, working capital was $300 million.", "accept", 48)],
    "q3": [("Cannot determine from the filings.", "retry", 3),
           ("The Cloud Services segment grew fastest.", "accept", 7)],
    "q4": [("Gross margin was 41.5%.", "retry", 30), ("Gross margin was 39.0%.", "retry", 30),
           ("Gross margin was 39.0%.", "retry", 30)],
}  # fmt: skip


class FakeSystem:
    """Scripted stand-in for FinQA: honours the mode's budget; q5 raises."""

    def __init__(self, mode: str, overrides: Mapping[str, Any], calls: list[dict[str, Any]]):
        self.mode = mode
        self.budget = int(overrides.get("orchestrator.budget", 2))
        self.calls = calls
        self._lock = threading.Lock()

    def ask(
        self,
        question: str,
        *,
        company: str | None = None,
        doc_ids: Sequence[str] | None = None,
        question_id: str | None = None,
    ) -> QAResult:
        with self._lock:
            self.calls.append({"mode": self.mode, "id": question_id, "doc_ids": doc_ids})
        if question_id == "q5":
            raise RuntimeError("retriever exploded")
        script = SCRIPT[str(question_id)][: self.budget + 1]
        attempts = tuple(
            AttemptRecord(
                attempt=i + 1, k=10 * (i + 1), candidates=30, rse=False, route="hybrid+filter",
                strategy="standard", query=question, answer=text,
                scores={"grounding": 0.5, "completeness": 0.5, "numeric": 0.5},
                utility=0.4 + 0.1 * i, threshold=0.5, decision=decision,
                evidence=({"source_id": "S1", "doc_id": (doc_ids or ["X"])[0], "pages": [page],
                           "chunk_ids": ["c"], "scores": {}},),
                llm_calls=1, prompt_tokens=100, completion_tokens=20, latency_ms=5.0,
            )
            for i, (text, decision, page) in enumerate(script)
        )  # fmt: skip
        last = attempts[-1]
        status: Status = "accepted" if last.decision == "accept" else "best_effort"
        return QAResult(
            question=question, question_id=str(question_id), answer=last.answer, status=status,
            utility=last.utility, attempts=attempts, best_attempt=last.attempt,
            run_id=f"run-{self.mode}", audit_log=f"/tmp/{self.mode}.jsonl",
            latency_ms=10.0 * len(attempts),
        )  # fmt: skip


def make_factory(calls: list[dict[str, Any]]) -> Callable[[str, Mapping[str, Any]], FakeSystem]:
    return lambda mode, overrides: FakeSystem(mode, overrides, calls)


def counter_timer() -> Callable[[], float]:
    state = {"t": 0.0}
    lock = threading.Lock()

    def tick() -> float:
        with lock:
            state["t"] += 0.5
            return state["t"]

    return tick


MODES2 = ("single-pass", "self-improving")


@pytest.fixture()
def calls() -> list[dict[str, Any]]:
    return []


def run(out: Path, calls: list[dict[str, Any]], **kw: Any) -> dict[str, list[dict[str, Any]]]:
    kw.setdefault("modes", MODES2)
    return run_benchmark(QUESTIONS, out, make_factory(calls), timer=counter_timer(),
                         progress=False, **kw)  # fmt: skip


class TestRunner:
    """One line per question x mode, graded per attempt, with retrieval recall."""

    def test_results_lines_and_grades(self, tmp_path: Path, calls: list[dict[str, Any]]) -> None:
        """Every question x mode gets a line; grades follow the budget of the mode."""
        by_mode = run(tmp_path, calls)
        rows = read_results(tmp_path / "results.jsonl")
        assert len(rows) == len(QUESTIONS) * 2
        single = {r["id"]: r for r in by_mode["single-pass"]}
        full = {r["id"]: r for r in by_mode["self-improving"]}
        assert single["q1"]["grade"]["label"] == "wrong"  # $1,150M vs $1,200M
        assert full["q1"]["grade"]["label"] == "correct"  # Lazarus
        assert single["q3"]["grade"]["label"] == "abstained"
        assert full["q3"]["grade"]["label"] == "correct"
        assert full["q4"]["grade"]["label"] == "wrong"  # right -> wrong
        assert [a["grade"]["label"] for a in full["q4"]["attempts"]] == [
            "correct",
            "wrong",
            "wrong",
        ]
        assert full["q1"]["attempts"][0]["page_recall"] == 0.0
        assert full["q1"]["attempts"][1]["page_recall"] == 1.0
        assert full["q2"]["attempts"][0]["page_recall"] == 0.5
        assert full["q1"]["llm_calls"] == 2 and full["q1"]["prompt_tokens"] == 200
        assert full["q1"]["run_id"] == "run-self-improving"

    def test_failure_is_recorded_and_run_goes_on(
        self, tmp_path: Path, calls: list[dict[str, Any]]
    ) -> None:
        """A question that raises is a 'failed' line with its error; the others still run."""
        by_mode = run(tmp_path, calls)
        failed = [r for r in by_mode["self-improving"] if r["status"] == "failed"]
        assert [r["id"] for r in failed] == ["q5"]
        assert "retriever exploded" in failed[0]["error"]
        assert failed[0]["grade"]["label"] == "ungraded"
        assert len(by_mode["self-improving"]) == len(QUESTIONS)

    def test_single_store_restricts_to_the_filing(
        self, tmp_path: Path, calls: list[dict[str, Any]]
    ) -> None:
        """Single store passes doc_ids=[doc_name]; shared store passes no filter."""
        run(tmp_path / "single", calls, modes=["self-improving"], store="single")
        assert {tuple(c["doc_ids"]) for c in calls} == {("ACME_2022_10K",), ("BETA_2021_10K",)}
        calls.clear()
        run(tmp_path / "shared", calls, modes=["self-improving"], store="shared")
        assert all(c["doc_ids"] is None for c in calls)

    def test_store_mismatch_refused(self, tmp_path: Path, calls: list[dict[str, Any]]) -> None:
        """Resuming a single-store folder as shared store is refused with a clear error."""
        run(tmp_path, calls, modes=["single-pass"], store="single")
        with pytest.raises(Exception, match="another --out"):
            run(tmp_path, calls, modes=["single-pass"], store="shared")

    def test_modes_map_to_overrides(self) -> None:
        """Each mode is the documented config override, and parse_modes accepts lists and 'all'."""
        assert MODES["single-pass"] == {"orchestrator.budget": 0}
        assert MODES["budget-1"] == {"orchestrator.budget": 1}
        assert MODES["no-deterministic-verify"] == {"judge.deterministic_verify": False}
        assert parse_modes(["single-pass,budget-1", "self-improving"]) == [
            "single-pass", "budget-1", "self-improving",
        ]  # fmt: skip
        assert parse_modes(["all"]) == list(MODES)
        assert parse_modes(None) == ["single-pass", "self-improving"]
        with pytest.raises(Exception, match="unknown mode"):
            parse_modes(["turbo"])


class TestFactory:
    def test_reasoner_reads_the_statement_model(
        self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        """The benchmark's system reasons as the product does: over the index's statement model."""
        import finqa.agents.retrieval as retrieval
        from finqa.agents.config import Settings
        from finqa.benchmarks.financebench import finqa_factory

        monkeypatch.setattr(retrieval, "RetrievalAgent", lambda settings: object())
        settings = Settings().with_overrides({"index.path": str(tmp_path / "index")})
        system = finqa_factory(settings, tmp_path / "audit")("single-pass", {})
        assert system._reasoner.statements is not None  # type: ignore[attr-defined]


class TestResume:
    """A run killed half way and resumed produces the same results file as an uninterrupted one."""

    @pytest.mark.parametrize("workers", [1, 3])
    def test_resume_same_file(
        self, tmp_path: Path, calls: list[dict[str, Any]], workers: int
    ) -> None:
        """Kill after 3 questions (plus a torn line), rerun: identical bytes, missing work redone."""
        full_dir, resumed_dir = tmp_path / "full", tmp_path / "resumed"
        run(full_dir, calls)

        class Killer(FakeSystem):
            def ask(self, question: str, **kw: Any) -> QAResult:
                if len(killed_calls) >= 3:
                    raise KeyboardInterrupt
                return super().ask(question, **kw)

        killed_calls: list[dict[str, Any]] = []
        with pytest.raises(KeyboardInterrupt):
            run_benchmark(
                QUESTIONS, resumed_dir, lambda m, o: Killer(m, o, killed_calls),
                modes=MODES2, timer=counter_timer(), progress=False, workers=workers,
            )  # fmt: skip
        written = read_results(resumed_dir / "results.jsonl")
        assert 1 <= len(written) <= 3
        with (resumed_dir / "results.jsonl").open("a") as fh:
            fh.write('{"id": "q4", "mode": "single-pa')  # torn by the kill
        again: list[dict[str, Any]] = []
        run(resumed_dir, again, workers=workers)
        # the finished pairs are skipped (failed ones are retried)
        done = [r for r in written if not r.get("error")]
        assert len(again) == len(QUESTIONS) * 2 - len(done)
        full = (full_dir / "results.jsonl").read_bytes()
        assert (resumed_dir / "results.jsonl").read_bytes() == full

    def test_rerun_of_finished_run_does_nothing_new(
        self, tmp_path: Path, calls: list[dict[str, Any]]
    ) -> None:
        """A finished run rerun only retries its failed questions."""
        run(tmp_path, calls)
        calls.clear()
        run(tmp_path, calls)
        assert sorted(c["id"] for c in calls) == ["q5", "q5"]

    def test_resume_regrades_stored_answers(
        self, tmp_path: Path, calls: list[dict[str, Any]]
    ) -> None:
        """Grades in the file are recomputed from the stored answers, so a grader fix applies."""
        run(tmp_path, calls)
        path = tmp_path / "results.jsonl"
        rows = read_results(path)
        rows[0]["grade"] = {"label": "stale", "kind": "text", "detail": "old grader"}
        path.write_text("".join(json.dumps(r, sort_keys=True) + "\n" for r in rows))
        by_mode = run(tmp_path, calls)
        assert all(r["grade"]["label"] != "stale" for rs in by_mode.values() for r in rs)

    def test_workers_same_file(self, tmp_path: Path, calls: list[dict[str, Any]]) -> None:
        """--workers 4 writes the same results file as --workers 1."""
        run(tmp_path / "w1", calls, workers=1)
        run(tmp_path / "w4", calls, workers=4)
        assert (tmp_path / "w4" / "results.jsonl").read_bytes() == (
            tmp_path / "w1" / "results.jsonl"
        ).read_bytes()


class TestOutputs:
    """summary.json in the issue's shape; report.md tables and PNG plots are written."""

    def test_summary_shape_and_values(self, tmp_path: Path, calls: list[dict[str, Any]]) -> None:
        """Top-level keys, per-mode keys and loop metrics have the documented shape and values."""
        summary = run_financebench(
            QUESTIONS, tmp_path, make_factory(calls), modes=list(MODES2), progress=False
        )
        on_disk = json.loads((tmp_path / "summary.json").read_text())
        assert on_disk == summary
        assert set(summary) == {"questions", "store", "modes"}
        assert summary["questions"] == 5 and summary["store"] == "single"
        assert list(summary["modes"]) == list(MODES2)
        for block in summary["modes"].values():
            assert set(block) == SUMMARY_MODE_KEYS
            assert set(block["by_type"]) == {
                "metrics-generated",
                "domain-relevant",
                "novel-generated",
            }
            lo, hi = block["accuracy_ci"]
            assert lo <= block["accuracy"] <= hi
        sp, si = summary["modes"]["single-pass"], summary["modes"]["self-improving"]
        # single pass: q2 and q4 right; loop: q1, q2, q3 right (q4 went right -> wrong)
        assert sp["accuracy"] == pytest.approx(2 / 5) and si["accuracy"] == pytest.approx(3 / 5)
        # attempt-1 incorrect: q1 (wrong), q3 (abstained); both rescued by the loop
        assert si["lazarus_rate"] == 1.0
        assert si["judge_tpr"] == 1.0  # q1, q3 retried
        assert si["judge_fpr"] == pytest.approx(0.5)  # of q2 (accept), q4 (retry)
        assert si["attempts_mean"] == pytest.approx((2 + 1 + 2 + 3 + 0) / 5)
        assert si["acceptance_rate"] == pytest.approx(3 / 5)
        metrics = json.loads((tmp_path / "metrics.json").read_text())["modes"]["self-improving"]
        assert metrics["correction_flow"]["wrong->correct"] == 1
        assert metrics["correction_flow"]["correct->wrong"] == 1
        assert metrics["failed"] == 1

    def test_report_and_plots(self, tmp_path: Path, calls: list[dict[str, Any]]) -> None:
        """report.md has the paper-shaped sections and the three PNGs exist."""
        run_financebench(QUESTIONS, tmp_path, make_factory(calls), modes=list(MODES2),
                         progress=False)  # fmt: skip
        report = (tmp_path / "report.md").read_text()
        for heading in ("## Main result", "## Accuracy by question type", "## Correction flow",
                        "## Ablation", "## Retrieval"):  # fmt: skip
            assert heading in report
        assert "| self-improving | 60.0% [" in report
        for name in ("accuracy.png", "correction_flow.png", "latency.png"):
            assert (tmp_path / name).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"

    def test_llm_grader_kept_apart(self, tmp_path: Path, calls: list[dict[str, Any]]) -> None:
        """LLM grades go to their own field and report section; a grader error is recorded."""

        class HalfGrader:
            def grade(self, question: str, gold: str, predicted: str) -> Mapping[str, Any]:
                if "Cloud" in gold:
                    raise TimeoutError("grader timed out")
                return {"score": 0.5, "rationale": "partly"}

        run_financebench(QUESTIONS, tmp_path, make_factory(calls), modes=["self-improving"],
                         llm_grader=HalfGrader(), progress=False, plots=False)  # fmt: skip
        rows = {r["id"]: r for r in read_results(tmp_path / "results.jsonl")}
        assert rows["q1"]["llm_grade"]["score"] == 0.5
        assert rows["q1"]["grade"]["label"] == "correct"  # the deterministic grade is untouched
        assert rows["q3"]["llm_grade"]["score"] is None
        assert "timed out" in rows["q3"]["llm_grade"]["rationale"]
        report = (tmp_path / "report.md").read_text()
        assert "## Oracle-guided LLM grading" in report
        metrics = json.loads((tmp_path / "metrics.json").read_text())["modes"]["self-improving"]
        assert metrics["llm_grader_mean"] == 0.5 and metrics["llm_grader_n"] == 3

    def test_write_outputs_without_plots(self, tmp_path: Path) -> None:
        """Outputs from records alone (no run) work for an empty mode too."""
        summary = write_outputs(tmp_path, {"self-improving": []}, questions=0, store="shared",
                                plots=False)  # fmt: skip
        assert summary["modes"]["self-improving"]["accuracy"] is None
        assert (tmp_path / "report.md").exists()


class TestQuestions:
    """Questions load from FinanceBench JSONL and from a CSV with question/answer columns."""

    def test_csv(self, tmp_path: Path) -> None:
        """A CSV needs question and answer; ids default to row numbers; --limit cuts."""
        p = tmp_path / "q.csv"
        p.write_text("question,answer,doc_name\nWhat is X?,$5,ACME_2022_10K\nIs Y?,No,\n")
        qs = load_questions(p)
        assert [q.id for q in qs] == ["q00001", "q00002"]
        assert qs[0].doc_name == "ACME_2022_10K" and qs[1].doc_name is None
        assert len(load_questions(p, limit=1)) == 1

    def test_jsonl_evidence_pages(self, tmp_path: Path) -> None:
        """FinanceBench evidence entries become (doc, page) gold pages."""
        row = {"financebench_id": "fb1", "question": "Q?", "answer": "1", "doc_name": "D",
               "question_type": "metrics-generated",
               "evidence": [{"doc_name": "D", "evidence_page_num": 4}, {"evidence_page_num": 5}]}  # fmt: skip
        p = tmp_path / "q.jsonl"
        p.write_text(json.dumps(row) + "\n")
        (q,) = load_questions(p)
        assert q.evidence_pages == (("D", 4), ("D", 5)) and q.type == "metrics-generated"

    def test_bad_files(self, tmp_path: Path) -> None:
        """A missing file, a missing answer column or a broken line is a one-line error."""
        with pytest.raises(Exception, match="not found"):
            load_questions(tmp_path / "nope.jsonl")
        bad = tmp_path / "bad.csv"
        bad.write_text("question\nWhat?\n")
        with pytest.raises(Exception, match="answer"):
            load_questions(bad)
        broken = tmp_path / "broken.jsonl"
        broken.write_text('{"question": "a", "answer": "b"}\n{oops\n')
        with pytest.raises(Exception, match="line 2"):
            load_questions(broken)

    @pytest.mark.financebench
    def test_financebench_file(self, financebench_dir: Path) -> None:
        """The shared questions load with types, filings and gold pages, and no gold grades wrong."""
        from finqa.benchmarks.grading import grade

        qs = load_questions(financebench_dir / "questions.jsonl")
        assert len(qs) >= 100 and all(q.doc_name and q.evidence_pages for q in qs)
        assert {q.type for q in qs} == {"metrics-generated", "domain-relevant", "novel-generated"}
        assert all(grade(q.question, q.answer, q.answer).label != "wrong" for q in qs)


class TestCli:
    """`finqa bench financebench` is registered and fails cleanly without an index."""

    def test_help_and_missing_index(
        self, tmp_path: Path, capsys: pytest.CaptureFixture[str]
    ) -> None:
        """The subcommand parses; a missing index is a one-line error with exit code 2."""
        from finqa.orchestrator.cli import main

        qfile = tmp_path / "q.csv"
        qfile.write_text("question,answer\nWhat?,1\n")
        code = main(["bench", "financebench", "--questions", str(qfile), "--index",
                     str(tmp_path / "noindex"), "--out", str(tmp_path / "out")])  # fmt: skip
        assert code == 2
        assert "no index" in capsys.readouterr().err


class TestWithOrchestrator:
    """The runner drives the real orchestrator loop (fake agents), mode overrides included."""

    def test_budget_overrides_reach_the_loop(self, tmp_path: Path) -> None:
        """single-pass runs one attempt, budget-1 two; answers, decisions and pages are recorded."""
        from finqa.agents.config import Settings
        from finqa.orchestrator import FinQA
        from finqa.testing import FakeReasoner, FakeRetriever, MemorySink, ScriptedJudge

        def factory(mode: str, overrides: Mapping[str, Any]) -> FinQA:
            s = Settings().with_overrides({"orchestrator.unverified": "answer", **overrides})
            return FinQA(
                s,
                retriever=FakeRetriever(s),
                reasoner=FakeReasoner(["Capex was $1,150 million.", "Capex was $1,200 million."]),
                judge=ScriptedJudge(s, [0.2, 0.9]),
                audit=MemorySink(run_id=f"run-{mode}"),
            )

        by_mode = run_benchmark(
            QUESTIONS[:1], tmp_path, factory, modes=["single-pass", "budget-1"],
            timer=counter_timer(), progress=False,
        )  # fmt: skip
        (sp,), (b1,) = by_mode["single-pass"], by_mode["budget-1"]
        assert len(sp["attempts"]) == 1 and sp["grade"]["label"] == "wrong"
        assert sp["attempts"][0]["decision"] == "retry"
        assert len(b1["attempts"]) == 2 and b1["grade"]["label"] == "correct"
        assert b1["status"] == "accepted" and b1["run_id"] == "run-budget-1"
        assert b1["attempts"][0]["evidence_pages"] == [["3M_2018_10K", 40], ["3M_2018_10K", 41]]
