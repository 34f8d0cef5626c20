"""The Python API (FinQA) and `finqa ask`, with fake agents and the real audit log."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from finqa.agents.config import Settings
from finqa.agents.errors import FinqaError, IndexError_
from finqa.orchestrator import FinQA, QAResult
from finqa.orchestrator import _factory as factory
from finqa.orchestrator.cli import main as finqa_main
from finqa.testing import FakeReasoner, FakeRetriever, MemorySink, ScriptedJudge


def _fq(
    settings: Settings, *, sink: Any = None, utilities: tuple[float, ...] = (0.3, 0.45), **kw: Any
) -> FinQA:
    return FinQA(
        settings,
        retriever=kw.pop("retriever", None) or FakeRetriever(settings),
        reasoner=FakeReasoner(("a1", "a2", "a3")),
        judge=ScriptedJudge(settings, utilities),
        audit=sink if sink is not None else MemorySink(),
        **kw,
    )


pytestmark = pytest.mark.usefixtures("reset_structlog")


class TestAsk:
    """One question through the API."""

    def test_ask_returns_typed_result(self) -> None:
        """ask returns a QAResult with answer, status, utility, citations and attempts."""
        result = _fq(Settings()).ask("What were 3M's net sales in 2018?")
        assert isinstance(result, QAResult)
        assert (result.status, result.answer, result.utility) == ("accepted", "a2", 0.45)
        assert [a.k for a in result.attempts] == [10, 20]
        assert result.citations and result.run_id == "run-test"

    def test_empty_question_is_an_error(self) -> None:
        """An empty question is rejected with a one-line error."""
        with pytest.raises(FinqaError, match="empty"):
            _fq(Settings()).ask("   ")

    def test_open_without_index_says_what_to_do(self, tmp_path: Path) -> None:
        """Opening a missing index fails with the ingest command to run."""
        with pytest.raises(IndexError_, match="finqa ingest"):
            FinQA.open(index=str(tmp_path / "nope"))

    def test_open_applies_typed_overrides(self, tmp_path: Path) -> None:
        """Typed keyword overrides (budget, backend, model, base_url) reach the settings."""
        fq = FinQA.open(
            tmp_path, budget=0, backend="openai", model="m1", base_url="http://127.0.0.1:1/v1"
        )
        assert fq.settings.index.path == str(tmp_path)
        assert fq.settings.orchestrator.budget == 0
        assert (fq.settings.llm.backend, fq.settings.llm.model) == ("openai", "m1")
        assert fq.settings.llm.base_url == "http://127.0.0.1:1/v1"

    def test_open_takes_settings_object(self, tmp_path: Path) -> None:
        """A Settings object can stand for the config file, with overrides on top."""
        base = Settings().with_overrides({"judge.tau0": 0.7})
        fq = FinQA.open(tmp_path, config=base, budget=1)
        assert fq.settings.judge.tau0 == 0.7 and fq.settings.orchestrator.budget == 1

    def test_open_rejects_a_bad_override_in_one_line(self, tmp_path: Path) -> None:
        """An invalid override is a one-line configuration error naming the key."""
        with pytest.raises(FinqaError, match="orchestrator.budget"):
            FinQA.open(tmp_path, budget="many")  # type: ignore[arg-type]

    def test_open_config_with_bad_key_names_it(self, tmp_path: Path) -> None:
        """A config file with an unknown key fails with one line naming the key."""
        cfg = tmp_path / "c.yaml"
        cfg.write_text("judge:\n  tau_zero: 0.4\n")
        with pytest.raises(FinqaError, match="judge.tau_zero") as info:
            FinQA.open(tmp_path, config=cfg)
        assert "\n" not in str(info.value)


class TestResultReadsLikeAnAnswer:
    """str(result) and result.sources, for notebook users."""

    def test_str_shows_answer_status_and_sources(self) -> None:
        """str(result) gives the answer, the status with utility, and sources as DOC p. N."""
        result = _fq(Settings()).ask("What were 3M's net sales in 2018?")
        text = str(result)
        lines = text.splitlines()
        assert lines[0] == "a2"
        assert lines[1].startswith("status: accepted (utility 0.45, 2 attempts)")
        cited = {f"{c.doc_id} p. {c.printed_page}" for c in result.citations}
        assert lines[2].startswith("sources: ") and all(c in lines[2] for c in cited)

    def test_sources_are_unique_pages_with_quotes(self) -> None:
        """sources lists each cited page once, keeping its quoted text."""
        from finqa.agents.types import Citation

        result = QAResult(
            question="q",
            question_id="q1",
            answer="x",
            status="accepted",
            utility=1.0,
            run_id="r",
            audit_log="a",
            citations=(
                Citation(source_id="S1", doc_id="D", page=3, quote="net sales 100"),
                Citation(source_id="S2", doc_id="D", page=3, quote="cost 40"),
                Citation(source_id="S3", doc_id="E", page=1, quote=""),
            ),
        )
        assert [(s.doc_id, s.page) for s in result.sources] == [("D", 3), ("E", 1)]
        assert "net sales 100" in result.sources[0].quote and "cost 40" in result.sources[0].quote
        assert "sources: D p. 4, E p. 2" in str(result)  # no printed label: position from 1


class TestBatch:
    """Batches: order, concurrency, failures, DataFrame."""

    def test_batch_in_order_with_threads(self) -> None:
        """A concurrent batch returns results in input order with distinct ids for duplicates."""
        fq = _fq(Settings(), utilities=(0.9,))
        questions = [f"Question {i}?" for i in range(6)] + ["Question 0?"]
        results = fq.ask_batch(questions, workers=3)
        assert [r.question for r in results] == questions
        assert len({r.question_id for r in results}) == len(questions)
        assert all(r.status == "accepted" for r in results)

    def test_failure_does_not_stop_the_batch(self) -> None:
        """A failing question is reported as failed and the others are answered."""
        settings = Settings()
        sink = MemorySink()
        retriever = FakeRetriever(settings, fail_on=lambda q: "bad" in q)
        fq = _fq(settings, sink=sink, retriever=retriever, utilities=(0.9,))
        results = fq.ask_batch(
            ["good one?", {"question": "bad one?", "question_id": "x"}, "good two?"]
        )
        assert [r.status for r in results] == ["accepted", "failed", "accepted"]
        assert results[1].question_id == "x"
        assert any(r["event"] == "error" and r["question_id"] == "x" for r in sink.records)

    def test_batch_items_carry_scope(self) -> None:
        """Mapping items pass company and doc ids to the retriever."""
        settings = Settings()
        retriever = FakeRetriever(settings)
        _fq(settings, retriever=retriever, utilities=(0.9,)).ask_batch(
            [{"question": "q?", "company": "3M", "doc_name": "3M_2018_10K"}]
        )
        assert retriever.calls[0]["company"] == "3M"

    def test_frame(self) -> None:
        """frame gives one row a question with status, utility, attempts and citations."""
        fq = _fq(Settings())
        df = fq.frame(fq.ask_batch(["q1?", "q2?"]))
        assert list(df["status"]) == ["accepted", "accepted"]
        assert list(df["attempts"]) == [2, 2] and list(df["final_k"]) == [20, 20]
        assert df.loc[0, "citations"] == "3M_2018_10K p.40"
        assert {"utility", "answer", "latency_ms", "run_id", "error"} <= set(df.columns)


class TestRealAuditLog:
    """The API with the real audit log: run start, per-attempt records, no secrets."""

    def test_log_is_complete_and_verifies(
        self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fake_factories: None
    ) -> None:
        """The log has a run start, every attempt's records, verifies, and never holds a secret."""
        from finqa.audit import load_records, verify_log

        secret = "sk-test-SECRET-0123456789"
        monkeypatch.setenv("OPENAI_API_KEY", secret)
        settings = Settings().with_overrides(
            {"audit.path": str(tmp_path / "a.jsonl"), "audit.fsync": False}
        )
        fq = FinQA(settings)
        monkeypatch.setattr(
            fq,
            "_retriever",
            FakeRetriever(settings, fail_on=lambda q: "bad" in q and _raise(secret)),
        )
        results = fq.ask_batch(["good?", "bad?"])
        records = load_records(fq.audit_path)
        assert records[0]["event"] == "run_start"
        assert records[0]["params"]["models"]["llm"] == "offline"
        for r in results:
            per = [
                rec["attempt"]
                for rec in records
                if rec["question_id"] == r.question_id and rec["attempt"]
            ]
            assert sorted(set(per)) == [a.attempt for a in r.attempts]
        assert verify_log(fq.audit_path).ok
        assert secret not in Path(fq.audit_path).read_text()
        assert results[1].error is not None and secret not in results[1].error


def _raise(secret: str) -> bool:
    raise RuntimeError(f"connection refused with key {secret}")


class TestAskCommand:
    """`finqa ask`."""

    def test_json_shape(
        self,
        tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str],
        fake_factories: None,
    ) -> None:
        """--json prints exactly QAResult.to_json_dict() with the documented keys."""
        monkeypatch.chdir(tmp_path)
        (tmp_path / "idx").mkdir()
        code = finqa_main(
            [
                "ask",
                "What were 3M's net sales in 2018?",
                "--index",
                "idx",
                "--json",
                "--company",
                "3M",
            ]
        )
        assert code == 0
        out = json.loads(capsys.readouterr().out)
        expected = {
            "question",
            "answer",
            "status",
            "utility",
            "attempts",
            "citations",
            "run_id",
            "audit_log",
        }
        assert expected <= set(out)
        assert out["status"] == "accepted" and out["answer"] == "a2"
        assert [a["k"] for a in out["attempts"]] == [10, 20]
        assert set(out["attempts"][0]) >= {"k", "strategy", "scores", "threshold", "decision"}
        assert set(out["citations"][0]) == {
            "source_id", "doc_id", "page", "page_index", "page_label_source", "chunk_id", "quote",
            "xbrl_concept",
        }  # fmt: skip
        first = out["citations"][0]
        assert first["page_label_source"] == "position" and first["page"] == first["page_index"] + 1
        assert Path(out["audit_log"]).exists()

    def test_text_output(
        self,
        tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str],
        fake_factories: None,
    ) -> None:
        """Without --json the answer, its citation (doc, page) and one line `audit: PATH` naming the index's own log are printed."""
        monkeypatch.chdir(tmp_path)
        (tmp_path / "idx").mkdir()
        assert finqa_main(["ask", "Net sales 2018?", "--index", "idx"]) == 0
        out = capsys.readouterr().out
        assert (
            "A: a2" in out and "3M_2018_10K p. 41 (position; index 40)" in out and "audit:" in out
        )
        lines = out.splitlines()
        log = (tmp_path / "idx" / "audit.jsonl").resolve()
        assert f"   audit: {log}" in lines and log.is_file()


class TestAuditLocation:
    """Where `finqa ask` writes its audit log."""

    def test_runs_from_two_folders_share_the_index_log(
        self,
        tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str],
        fake_factories: None,
    ) -> None:
        """Two runs against one index from different working directories append to one log."""
        index = tmp_path / "idx"
        index.mkdir()
        for folder in ("a", "b"):
            (tmp_path / folder).mkdir()
            monkeypatch.chdir(tmp_path / folder)
            assert finqa_main(["ask", "Net sales 2018?", "--index", str(index), "--json"]) == 0
            out = json.loads(capsys.readouterr().out)
            assert out["audit_log"] == str((index / "audit.jsonl").resolve())
        assert not (tmp_path / "a" / ".finqa").exists() and not (tmp_path / "b" / ".finqa").exists()
        from finqa.audit import load_records

        runs = {r["run_id"] for r in load_records(str(index / "audit.jsonl"))}
        assert len(runs) == 2

    def test_explicit_audit_path_wins(
        self,
        tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str],
        fake_factories: None,
    ) -> None:
        """FINQA_AUDIT__PATH (audit.path) sends the log there, not beside the index."""
        monkeypatch.chdir(tmp_path)
        (tmp_path / "idx").mkdir()
        monkeypatch.setenv("FINQA_AUDIT__PATH", str(tmp_path / "elsewhere.jsonl"))
        assert finqa_main(["ask", "Net sales 2018?", "--index", "idx", "--json"]) == 0
        out = json.loads(capsys.readouterr().out)
        assert out["audit_log"] == str((tmp_path / "elsewhere.jsonl").resolve())
        assert not (tmp_path / "idx" / "audit.jsonl").exists()

    def test_missing_index_exit_code(
        self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
    ) -> None:
        """A missing index exits non-zero with a one-line error."""
        monkeypatch.chdir(tmp_path)
        assert finqa_main(["ask", "q?", "--index", "missing"]) == 2
        assert "finqa ingest" in capsys.readouterr().err


class TestRunRecord:
    """What the run-start record says about the index and models."""

    def test_index_version_digests_the_catalog(self) -> None:
        """The index version changes when a document's content hash changes."""
        from types import SimpleNamespace

        def retriever(content_hash: str) -> Any:
            rec = SimpleNamespace(content_hash=content_hash, n_chunks=7)
            return SimpleNamespace(index=SimpleNamespace(catalog=lambda: {"3M_2018_10K": rec}))

        a = factory.index_version(Settings(), retriever("h1"))
        assert a.startswith("sha256:") and "(1 docs, 7 chunks)" in a
        assert a != factory.index_version(Settings(), retriever("h2"))

    def test_model_ids_carry_no_secrets(self, monkeypatch: pytest.MonkeyPatch) -> None:
        """Model ids name the models and backend, never the API key or endpoint."""
        monkeypatch.setenv("OPENAI_API_KEY", "sk-should-not-appear")
        settings = Settings().with_overrides(
            {"llm.backend": "openai", "llm.base_url": "http://127.0.0.1:9"}
        )
        ids = factory.model_ids(settings)
        assert ids["llm"] == "gpt-4o-mini" and ids["llm_backend"] == "openai"
        assert "sk-should-not-appear" not in str(ids) and "127.0.0.1" not in str(ids)


class TestMissingKey:
    """A configured OpenAI backend without a key fails fast with one line."""

    def test_openai_backend_without_key_is_a_config_error(
        self, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        """No key and no local base_url: a ConfigError naming the variables to set."""
        from finqa.agents.errors import ConfigError

        for name in ("OPENAI_API_KEY", "FINQA_API_KEY"):
            monkeypatch.delenv(name, raising=False)
        settings = Settings().with_overrides({"llm.backend": "openai"})
        with pytest.raises(ConfigError, match="OPENAI_API_KEY"):
            factory.build_reasoner(settings)

    def test_local_server_needs_no_key(self, monkeypatch: pytest.MonkeyPatch) -> None:
        """A local OpenAI-compatible server (base_url set) is built without a key."""
        for name in ("OPENAI_API_KEY", "FINQA_API_KEY"):
            monkeypatch.delenv(name, raising=False)
        settings = Settings().with_overrides(
            {"llm.backend": "openai", "llm.base_url": "http://127.0.0.1:9/v1"}
        )
        reasoner = factory.build_reasoner(settings)
        assert reasoner.llm.model == settings.llm.model  # type: ignore[attr-defined]


@pytest.mark.integration
class TestIngestAndRetrieve:
    """FinQA.ingest and FinQA.retrieve on a small real corpus (BM25-only index, no model load)."""

    def test_ingest_retrieve_ask(self, tmp_path: Path) -> None:
        """A new index is filled by ingest (a damaged file skipped), searched by retrieve, then asked."""
        import sys

        sys.path.insert(0, str(Path(__file__).resolve().parent / "fixtures" / "retrieval"))
        from retrieval_support import make_acme_pdf

        corpus = tmp_path / "corpus"
        corpus.mkdir()
        make_acme_pdf(corpus / "ACME_2022_10K.pdf")
        (corpus / "broken.pdf").write_text("not a pdf at all")
        settings = Settings().with_overrides(
            {"index.dense": "none", "audit.path": str(tmp_path / "a.jsonl"), "audit.fsync": False}
        )
        with pytest.raises(IndexError_):
            FinQA.open(tmp_path / "idx", config=settings)
        fq = FinQA.open(tmp_path / "idx", config=settings, create=True)
        report = fq.ingest(
            corpus, metadata={"ACME_2022_10K": {"company": "Acme", "doc_type": "10k"}}
        )
        assert report.documents == 1
        assert [Path(s).name for s, _ in report.skipped] == ["broken.pdf"]
        items = fq.retrieve("Acme purchases of property, plant and equipment 2022", k=2)
        assert 1 <= len(items) <= 2 and items[0].doc_id == "ACME_2022_10K"
        assert 2 in items[0].pages and "Purchases of property" in items[0].text
        assert items[0].scores
        result = fq.ask("What were Acme's purchases of property, plant and equipment in FY2022?")
        assert "ACME_2022_10K p. 3" in str(result)  # index 2, no printed label known
        fq.close()


class TestJudgeLLMUsage:
    """The judge's LLM calls are counted and timed like the reasoner's."""

    def test_judge_usage_reaches_attempts_and_log(self) -> None:
        """A judge reporting LLM usage adds its calls, tokens and time to the attempt and the log."""
        from finqa.agents.types import LLMUsage

        settings = Settings()
        sink = MemorySink()
        usage = LLMUsage(calls=1, prompt_tokens=120, completion_tokens=8, latency_ms=250.0)
        fq = FinQA(
            settings,
            retriever=FakeRetriever(settings),
            reasoner=FakeReasoner(("a1",)),
            judge=ScriptedJudge(settings, (0.9,), llm_usage=usage),
            audit=sink,
        )
        attempt = fq.ask("What were 3M's net sales in 2018?").attempts[0]
        assert (attempt.judge_llm_calls, attempt.judge_llm_ms) == (1, 250.0)
        assert attempt.llm_latency_ms >= 250.0 and attempt.prompt_tokens >= 120
        judged = [r for r in sink.records if r["event"] == "judge"]
        assert judged[0]["data"]["llm_usage"]["calls"] == 1
