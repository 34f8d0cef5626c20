"""The bundled samples and `finqa demo` (the end-to-end run is an integration test)."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from finqa.agents.config import Settings
from finqa.orchestrator import Orchestrator
from finqa.orchestrator.demo import (
    SAMPLES,
    attempt_coverage,
    run_demo,
    sample_files,
    sample_questions,
)
from finqa.testing import FakeReasoner, FakeRetriever, MemorySink, ScriptedJudge


class TestSamples:
    """The bundled sample corpus is small, real-page-numbered and question-free."""

    def test_small_and_well_formed(self) -> None:
        """Sample pages are page JSONL records of a few filings, under 1 MB in all."""
        total = sum(p.stat().st_size for p in SAMPLES.rglob("*") if p.is_file())
        assert total < 1_000_000
        files = sample_files()
        assert len(files) >= 2
        for path in files:
            recs = [json.loads(line) for line in path.read_text().splitlines()]
            assert 3 <= len(recs) <= 4
            assert all(
                set(r) == {"doc_name", "page", "text"} and r["doc_name"] == path.stem for r in recs
            )
            assert all(r["text"].strip() and r["page"] >= 0 for r in recs)

    def test_questions_have_ids(self) -> None:
        """Every sample question has a unique id and one asks about a company outside the corpus."""
        questions = sample_questions()
        assert len({q["question_id"] for q in questions}) == len(questions) >= 4
        assert any("Tesla" in q["question"] for q in questions)

    def test_no_financebench_question(self, financebench_dir: Path) -> None:
        """No sample question is a FinanceBench question."""
        fb = {
            json.loads(line)["question"].strip().lower()
            for line in (financebench_dir / "questions.jsonl").read_text().splitlines()
        }
        assert not fb & {q["question"].strip().lower() for q in sample_questions()}


class TestCoverage:
    """The records-per-attempt check the demo prints."""

    def test_complete_log_passes_and_a_gap_fails(self) -> None:
        """A complete log passes; dropping one judge record is reported as incomplete."""
        settings = Settings()
        sink = MemorySink()
        orch = Orchestrator(
            settings,
            FakeRetriever(settings),
            FakeReasoner(("a", "b")),
            ScriptedJudge(settings, [0.1, 0.9]),
            sink,
        )
        result = orch.run("q?", question_id="q1")
        rows = attempt_coverage([result], sink.records)
        assert rows[0]["ok"] and rows[0]["records_per_attempt"] == {1: 4, 2: 4}
        gap = [r for r in sink.records if not (r["event"] == "judge" and r["attempt"] == 2)]
        assert not attempt_coverage([result], gap)[0]["ok"]

    def test_abstained_attempt_is_covered(self) -> None:
        """An attempt that found no evidence is reported and logged (retrieval, decision)."""
        settings = Settings()
        sink = MemorySink()
        orch = Orchestrator(
            settings,
            FakeRetriever(settings, empty=True),
            FakeReasoner(),
            ScriptedJudge(settings, [0.9]),
            sink,
        )
        rows = attempt_coverage([orch.run("q?", question_id="q2")], sink.records)
        assert rows[0]["ok"] and rows[0]["records_per_attempt"] == {1: 2}


@pytest.mark.integration
class TestDemoRun:
    """`finqa demo` end to end on the bundled samples (real embedder, chroma, offline agents)."""

    def test_demo(self, tmp_path: Path) -> None:
        """The demo answers with citations, shows a trail, verifies the log and finds it complete."""
        out = io.StringIO()
        code = run_demo(out=str(tmp_path / "demo"), stream=out)
        text = out.getvalue()
        assert code == 0, text
        assert "page" in text and "cite [S" in text
        assert "OK (status 0)" in text
        assert "INCOMPLETE" not in text and text.count("-> complete") == len(sample_questions())
        assert "demo-7: abstained" in text
        log = (tmp_path / "demo" / "index" / "audit.jsonl").resolve()
        assert f"   audit: {log}\n" in text  # each answer says where its trail went
        assert log.is_file()
