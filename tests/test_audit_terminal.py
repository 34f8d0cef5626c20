"""Plain-text CLI output (`finqa ask`, `finqa audit show|verify`) shows control characters, never obeys them."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from finqa.agents.terminal import json_printable, printable
from finqa.agents.types import Citation
from finqa.orchestrator import QAResult
from finqa.orchestrator import _factory as factory
from finqa.orchestrator.cli import main as finqa_main
from finqa.orchestrator.render import render_result
from finqa.testing import FakeReasoner, FakeRetriever, ScriptedJudge

OSC = "\x1b]0;pwned\x07"  # retitles the terminal window
CSI_C1 = "\x9b2J"  # clears the screen (the 8-bit CSI)
CONTROLS = ("\x1b", "\x07", "\x9b", "\r")


pytestmark = pytest.mark.usefixtures("reset_structlog")


@pytest.fixture
def hostile_agents(monkeypatch: pytest.MonkeyPatch) -> None:
    """Fake agents whose answer carries an escape sequence, as filing or LLM text could."""
    answer = f"Net sales{CSI_C1} were $1\r$9 million"
    monkeypatch.setattr(factory, "build_retriever", lambda s: FakeRetriever(s))
    monkeypatch.setattr(factory, "build_reasoner", lambda s, llm=None: FakeReasoner((answer,)))
    monkeypatch.setattr(factory, "build_judge", lambda s, llm=None: ScriptedJudge(s, (0.9,)))


def _raw_controls(text: str) -> list[str]:
    return [c for c in CONTROLS if c in text]


class TestPrintable:
    """One helper escapes C0/C1 controls and DEL, keeping the layout's newline and tab."""

    def test_escapes(self) -> None:
        """ESC, BEL, CR, DEL and C1 characters are written as \\xNN; newline and tab stay."""
        assert printable(f"a{OSC}b") == "a\\x1b]0;pwned\\x07b"
        assert printable("x\r\x7f\x9b\x00y") == "x\\x0d\\x7f\\x9b\\x00y"
        assert printable("line 1\n\tline 2") == "line 1\n\tline 2"
        assert printable("a\nb", layout=False) == "a\\x0ab"
        assert printable("Café — 10‑K €5") == "Café — 10‑K €5"

    def test_json_stays_json(self) -> None:
        """JSON output escapes C1 characters as \\u00NN and still parses to the same value."""
        text = json_printable(json.dumps({"answer": f"a{CSI_C1}{OSC}"}, ensure_ascii=False))
        assert _raw_controls(text) == []
        assert json.loads(text) == {"answer": f"a{CSI_C1}{OSC}"}


class TestAskOutput:
    """`finqa ask` prints the question, answer and quotes escaped."""

    def test_render_result(self) -> None:
        """Question, answer, quote and reason with escape sequences reach the terminal escaped."""
        result = QAResult(
            question=f"What was revenue?{OSC}",
            question_id="q1",
            answer=f"$5{CSI_C1} million",
            status="accepted",
            utility=0.9,
            citations=(Citation(source_id="S1", doc_id="D", page=3, quote=f"Revenue\r{OSC}"),),
            run_id="r",
            audit_log="a.jsonl",
            reason=f"why{OSC}",
        )
        out = io.StringIO()
        render_result(result, out)
        text = out.getvalue()
        assert _raw_controls(text) == []
        assert "What was revenue?\\x1b]0;pwned\\x07" in text and "$5\\x9b2J million" in text
        assert text.count("\n") == len(text.splitlines())  # one record a line, layout kept

    def test_ask_command(
        self,
        tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str],
        hostile_agents: None,
    ) -> None:
        """`finqa ask` (text and --json) and `finqa audit show` print no raw control character."""
        monkeypatch.chdir(tmp_path)
        (tmp_path / "idx").mkdir()
        question = f"What were net sales?{OSC}"
        assert finqa_main(["ask", question, "--index", "idx"]) == 0
        text = capsys.readouterr().out
        assert "Q: What were net sales?\\x1b]0;pwned\\x07" in text
        assert _raw_controls(text) == []
        assert finqa_main(["ask", question, "--index", "idx", "--json"]) == 0
        shown = capsys.readouterr().out
        assert json.loads(shown)["question"] == question and _raw_controls(shown) == []
        log = tmp_path / "idx" / "audit.jsonl"  # the audit trail lives with the index
        records = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
        asked = [r["data"].get("question") for r in records if r["event"] == "question_start"]
        assert asked == [question, question]  # the log keeps what was asked
        qid = json.loads(shown)["question_id"]
        for argv in (["--question-id", qid], [], ["--event", "reasoning"]):
            assert finqa_main(["audit", "show", str(log), *argv]) == 0
            out = capsys.readouterr().out
            assert "pwned" in out or "Net sales" in out
            assert _raw_controls(out) == []

    def test_verify_excerpt(self, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
        """`audit verify` prints a damaged line's excerpt escaped."""
        log = tmp_path / "a.jsonl"
        log.write_bytes(b'{"seq": 1, "x": "\x1b]0;pwned\x07"}\n')
        finqa_main(["audit", "verify", str(log)])
        out = capsys.readouterr().out
        assert "pwned" in out and _raw_controls(out) == []
