"""`finqa judge` and the optional LLM entailment judge (fake LLM client and fake HTTP server)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from finqa.agents.config import Settings
from finqa.agents.judge import JudgeAgent
from finqa.agents.types import Answer, Evidence, EvidenceItem, RetrievalPlan
from finqa.orchestrator.cli import main
from finqa.testing import ScriptedLLM

PAGE = {
    "doc_name": "CORNING_2022_10K",
    "page": 59,
    "text": "Consolidated Balance Sheets\n(in millions)\n2022\n2021\nCash and cash equivalents\n$\n1,671 $\n2,148\n",
}
QUESTION = "What were Corning's cash and cash equivalents at the end of FY2022?"


@pytest.fixture()
def pages(tmp_path: Path) -> Path:
    path = tmp_path / "evidence.jsonl"
    path.write_text(json.dumps(PAGE) + "\n", encoding="utf-8")
    return path


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["judge", *argv])
    out = capsys.readouterr()
    return code, out.out, out.err


class TestJudgeCommand:
    """The command line prints scores, decision, diagnosis and per-item detail."""

    def test_json_output(self, pages: Path, capsys: pytest.CaptureFixture[str]) -> None:
        """--json prints one object with scores, utility, threshold, decision and diagnosis."""
        code, out, _ = _run(
            capsys,
            "--question",
            QUESTION,
            "--answer",
            "Cash was $2,148 million [S1].",
            "--evidence",
            str(pages),
            "--json",
        )
        data = json.loads(out)
        assert code == 0
        assert set(data["scores"]) == {"grounding", "completeness", "numeric"}
        assert data["decision"] == "retry" and data["diagnosis"] == "reasoning"
        assert data["threshold"] == pytest.approx(0.5)
        assert data["details"]["numbers"][0]["status"] == "period_mismatch"

    def test_attempt_lowers_threshold(
        self, pages: Path, capsys: pytest.CaptureFixture[str]
    ) -> None:
        """--attempt 3 judges against the decayed threshold 0.3."""
        _, out, _ = _run(
            capsys,
            "--question",
            QUESTION,
            "--answer",
            "Cash was $1,671 million.",
            "--evidence",
            str(pages),
            "--json",
            "--attempt",
            "3",
        )
        assert json.loads(out)["threshold"] == pytest.approx(0.3)

    def test_plain_text_evidence_and_human_output(
        self, tmp_path: Path, capsys: pytest.CaptureFixture[str]
    ) -> None:
        """Plain-text evidence works and the human output shows claims, numbers and facets."""
        path = tmp_path / "page.txt"
        path.write_text(PAGE["text"], encoding="utf-8")
        code, out, _ = _run(
            capsys,
            "--question",
            QUESTION,
            "--answer",
            "Cash was $1.671 billion.",
            "--evidence",
            str(path),
        )
        assert code == 0
        assert out.startswith("decision: accept")
        assert "$1.671 billion: evidence [S1]" in out and "facets:" in out

    def test_calculations_file(
        self, pages: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
    ) -> None:
        """--calculations adds recorded calculations that the judge re-executes."""
        calc = {
            "expression": "a - b",
            "operands": [
                {"name": "a", "value": 1671, "scale": 1e6},
                {"name": "b", "value": 2148, "scale": 1e6},
            ],
            "result": -477,
            "unit": "USD",
        }
        path = tmp_path / "calc.json"
        path.write_text(json.dumps([calc]), encoding="utf-8")
        q = "By how much did Corning's cash change in FY2022?"
        _, out, _ = _run(
            capsys,
            "--question",
            q,
            "--answer",
            "Cash fell by $477 million.",
            "--evidence",
            str(pages),
            "--calculations",
            str(path),
            "--json",
        )
        assert json.loads(out)["details"]["numbers"][0]["status"] == "calculation"

    def test_missing_file_is_one_line_error(self, capsys: pytest.CaptureFixture[str]) -> None:
        """A missing evidence file exits non-zero with a one-line message, no traceback."""
        code, _, err = _run(
            capsys, "--question", "q", "--answer", "a", "--evidence", "/nonexistent/e.jsonl"
        )
        assert code == 2 and err.strip().startswith("finqa: error: evidence file not found")
        assert len(err.strip().splitlines()) == 1


def _evidence() -> Evidence:
    item = EvidenceItem(
        source_id="S1", doc_id=PAGE["doc_name"], pages=(59,), chunk_ids=(), text=PAGE["text"]
    )
    plan = RetrievalPlan(attempt=1, route="t", reason="t", k=1, candidates=1, rse=False)
    return Evidence(question=QUESTION, items=(item,), plan=plan)


class TestLLMJudge:
    """The LLM entailment check is combined with, never replaces, the deterministic checks."""

    def test_llm_lowers_grounding_when_it_disagrees(self) -> None:
        """An LLM 'contradicted' label halves the grounding of an otherwise supported claim."""
        settings = Settings().with_overrides({"judge.llm_judge": True})
        answer = Answer(text="Corning held cash and cash equivalents of $1,671 million.")
        agree = JudgeAgent(settings, llm=ScriptedLLM('{"labels": ["supported"]}')).evaluate(
            QUESTION, answer, _evidence(), 1
        )
        llm = ScriptedLLM('{"labels": ["contradicted"]}')
        disagree = JudgeAgent(settings, llm=llm).evaluate(QUESTION, answer, _evidence(), 1)
        assert agree.grounding == pytest.approx(1.0)
        assert disagree.grounding == pytest.approx(0.5)
        assert disagree.numeric == 1.0  # numbers stay deterministic
        assert "Cash and cash equivalents" in llm.prompts[0][1]["content"]

    def test_llm_cannot_rescue_wrong_number(self) -> None:
        """A wrong figure stays unsupported whatever the LLM says."""
        settings = Settings().with_overrides({"judge.llm_judge": True})
        answer = Answer(text="Corning held cash of $1,900 million.")
        v = JudgeAgent(settings, llm=ScriptedLLM('{"labels": ["supported"]}')).evaluate(
            QUESTION, answer, _evidence(), 1
        )
        assert v.decision == "retry" and v.grounding == 0.0

    def test_off_by_default_and_garbage_tolerated(self) -> None:
        """Without llm_judge the LLM is never called; an unparseable reply leaves the verdict deterministic."""
        llm = ScriptedLLM("not json")
        answer = Answer(text="Cash was $1,671 million.")
        JudgeAgent(Settings(), llm=llm).evaluate(QUESTION, answer, _evidence(), 1)
        assert llm.prompts == []
        v = JudgeAgent(Settings().with_overrides({"judge.llm_judge": True}), llm=llm).evaluate(
            QUESTION, answer, _evidence(), 1
        )
        assert v.details["llm"]["status"] == "unparseable reply" and v.decision == "accept"

    def test_over_http_with_fake_server(self) -> None:
        """The LLM judge works through the real OpenAI client against the fake server."""
        from finqa.agents.reasoning import OpenAIChatClient
        from finqa.agents.reasoning.fake_server import FakeOpenAIServer

        with FakeOpenAIServer(['{"labels": ["supported"]}']) as server:
            settings = Settings().with_overrides(
                {
                    "judge.llm_judge": True,
                    "llm.backend": "openai",
                    "llm.base_url": server.url,
                    "llm.backoff_s": 0.0,
                    "llm.timeout_s": 5.0,
                }
            )
            client = OpenAIChatClient(settings.llm, api_key="k")
            v = JudgeAgent(settings, llm=client).evaluate(
                QUESTION, Answer(text="Cash was $1,671 million."), _evidence(), 1
            )
        assert v.details["llm"]["status"] == "ok" and v.decision == "accept"
