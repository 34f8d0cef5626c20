"""`finqa ask --questions`, global flags anywhere, LLM flags and FINQA_* errors (fake agents)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from finqa.agents.config import load_settings
from finqa.agents.errors import ConfigError
from finqa.orchestrator import _factory as factory
from finqa.orchestrator.batch import read_questions
from finqa.orchestrator.cli import main as finqa_main
from finqa.testing import FakeReasoner, FakeRetriever, ScriptedJudge


@pytest.fixture(autouse=True)
def _reset_logging() -> Any:
    """The CLI configures structlog on the captured stderr; reset it afterwards."""
    import structlog

    yield
    structlog.reset_defaults()


@pytest.fixture
def workdir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A folder with an (empty) index and fake agents behind the real factory and audit log."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "idx").mkdir()
    monkeypatch.setenv("FINQA_AUDIT__FSYNC", "false")
    monkeypatch.setattr(factory, "build_retriever", lambda s: FakeRetriever(s))
    monkeypatch.setattr(factory, "build_reasoner", lambda s, llm=None: FakeReasoner(("a1",)))
    monkeypatch.setattr(factory, "build_judge", lambda s, llm=None: ScriptedJudge(s, (0.9,)))
    return tmp_path


def _lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines()]


class TestQuestionFiles:
    """Reading JSONL and CSV question files."""

    def test_broken_and_empty_lines_are_reported_not_fatal(self, tmp_path: Path) -> None:
        """A broken JSON line and a line without a question are listed; the others are read."""
        f = tmp_path / "q.jsonl"
        f.write_text(
            '{"question": "A?", "doc_id": "D1"}\n{broken\n\n{"id": "x"}\n{"question": "B?", "question_id": "b"}\n'
        )
        qf = read_questions(f)
        assert [i["question"] for i in qf.items] == ["A?", "B?"]
        assert qf.items[0]["doc_ids"] == ["D1"] and qf.items[1]["question_id"] == "b"
        assert [(b.line, b.reason.split(" ")[0]) for b in qf.bad] == [(2, "not"), (4, "no")]

    def test_csv_with_doc_id_column(self, tmp_path: Path) -> None:
        """A CSV with question, company and doc_id columns becomes scoped items."""
        f = tmp_path / "q.csv"
        f.write_text("question,company,doc_id\nWhat was revenue?,3M,3M_2018_10K\n,3M,\n")
        qf = read_questions(f)
        assert qf.items[0]["company"] == "3M" and qf.items[0]["doc_ids"] == ["3M_2018_10K"]
        assert [b.line for b in qf.bad] == [3]


class TestAskQuestionsCommand:
    """The batch command: one JSON line per question, resume, summary."""

    def test_answers_every_question_and_reports_bad_lines(
        self, workdir: Path, capsys: pytest.CaptureFixture[str]
    ) -> None:
        """Good lines are answered into --out; a broken line is named on stderr and in the summary."""
        (workdir / "q.jsonl").write_text(
            '{"question": "Q1?", "question_id": "1"}\nnot json\n{"question": "Q2?", "question_id": "2"}\n'
        )
        code = finqa_main(
            ["ask", "--questions", "q.jsonl", "--out", "r.jsonl", "--index", "idx", "--no-progress"]
        )
        err = capsys.readouterr().err
        assert code == 1  # a line was skipped
        assert "q.jsonl:2: skipped" in err and "2 question(s) answered: 2 accepted" in err
        rows = _lines(workdir / "r.jsonl")
        assert sorted(r["question_id"] for r in rows) == ["1", "2"]
        assert all(r["status"] == "accepted" and r["citations"][0]["doc_id"] for r in rows)

    def test_rerun_resumes(self, workdir: Path, capsys: pytest.CaptureFixture[str]) -> None:
        """A rerun answers only the questions not yet in --out."""
        (workdir / "q.jsonl").write_text(
            "".join(
                json.dumps({"question": f"Q{i}?", "question_id": str(i)}) + "\n" for i in range(3)
            )
        )
        (workdir / "r.jsonl").write_text(
            json.dumps({"question_id": "0", "status": "accepted"}) + "\n"
        )
        code = finqa_main(
            ["ask", "--questions", "q.jsonl", "--out", "r.jsonl", "--index", "idx", "--no-progress"]
        )
        assert code == 0
        assert [r["question_id"] for r in _lines(workdir / "r.jsonl")] == ["0", "1", "2"]
        assert "1 already in r.jsonl (resumed)" in capsys.readouterr().err

    def test_empty_file_is_one_line_error(
        self, workdir: Path, capsys: pytest.CaptureFixture[str]
    ) -> None:
        """An empty question file fails with one line and writes nothing."""
        (workdir / "q.jsonl").write_text("")
        code = finqa_main(["ask", "--questions", "q.jsonl", "--out", "r.jsonl", "--index", "idx"])
        err = capsys.readouterr().err.strip().splitlines()
        assert code == 2 and err == ["finqa: error: q.jsonl has no questions to answer"]
        assert not (workdir / "r.jsonl").exists()

    def test_question_and_file_are_exclusive(
        self, workdir: Path, capsys: pytest.CaptureFixture[str]
    ) -> None:
        """Neither or both of QUESTION and --questions is a usage error."""
        assert finqa_main(["ask", "--index", "idx"]) == 2
        assert "either a QUESTION or --questions" in capsys.readouterr().err


class TestFlags:
    """Global flags anywhere; LLM flags; FINQA_* errors name the variable."""

    def test_debug_after_subcommand(self, workdir: Path) -> None:
        """`--debug` after the subcommand is accepted and shows the traceback of an error."""
        from finqa.agents.errors import IndexError_

        with pytest.raises(IndexError_):
            finqa_main(["ask", "Q?", "--index", "nope", "--debug"])
        with pytest.raises(IndexError_):
            finqa_main(["--debug", "ask", "Q?", "--index", "nope"])
        assert finqa_main(["ask", "Q?", "--index", "nope"]) == 2

    def test_backend_model_budget_flags_reach_settings(
        self, workdir: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        """--backend, --model, --base-url and --budget override the config for one run."""
        seen: dict[str, Any] = {}

        def spy(s: Any, llm: Any = None) -> FakeReasoner:
            seen.update(backend=s.llm.backend, model=s.llm.model, budget=s.orchestrator.budget)
            return FakeReasoner(("a1",))

        monkeypatch.setattr(factory, "build_reasoner", spy)
        code = finqa_main(
            ["ask", "Q?", "--index", "idx", "--backend", "openai", "--model", "m9",
             "--base-url", "http://127.0.0.1:9/v1", "--budget", "0", "--json"]
        )  # fmt: skip
        assert code == 0 and seen == {"backend": "openai", "model": "m9", "budget": 0}

    def test_misspelt_env_variable_is_named(self) -> None:
        """A FINQA_* variable naming no setting is reported as that variable, not as the YAML file."""
        with pytest.raises(ConfigError, match="FINQA_JUDGE__TAU_ZERO") as info:
            load_settings(environ={"FINQA_JUDGE__TAU_ZERO": "0.4"})
        assert "invalid configuration in" not in str(info.value)

    def test_bad_env_value_is_named(self) -> None:
        """A FINQA_* variable with a bad value names the variable."""
        with pytest.raises(ConfigError, match="FINQA_ORCHESTRATOR__BUDGET"):
            load_settings(environ={"FINQA_ORCHESTRATOR__BUDGET": "lots"})

    def test_secret_variables_are_not_settings(self) -> None:
        """FINQA_API_KEY and FINQA_AUDIT_HMAC_KEY are secrets, not configuration keys."""
        s = load_settings(environ={"FINQA_API_KEY": "k", "FINQA_AUDIT_HMAC_KEY": "h"})
        assert s.llm.backend == "offline"

    def test_process_switches_are_not_settings(self) -> None:
        """Test and tool switches (FINQA_REQUIRE_BROWSER, FINQA_FINANCEBENCH, ...) never fail config loading."""
        env = {
            "FINQA_REQUIRE_BROWSER": "1",
            "FINQA_FINANCEBENCH": "/data/fb",
            "FINQA_CHROMIUM": "/usr/bin/chromium",
            "FINQA_UPDATE_GOLDEN": "1",
            "FINQA_LLM_TEST_PORT": "8012",
            "FINQA_SOMETHING_ELSE": "x",
            "FINQA_JUDGE__TAU0": "0.6",
        }
        assert load_settings(environ=env).judge.tau0 == 0.6

    def test_misspelt_section_variable_is_named(self) -> None:
        """A variable starting with a section name but one underscore short is reported by name."""
        with pytest.raises(ConfigError, match="FINQA_JUDGE_TAU0"):
            load_settings(environ={"FINQA_JUDGE_TAU0": "0.6"})
