"""Progress bars as tqdm-based tools show them: the real total, lines above the bar, summary last."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path
from typing import Any

import pytest
from finqa.agents.progress import LineStream, live_bars, write_line
from finqa.orchestrator import _factory as factory
from finqa.orchestrator.cli import main as finqa_main
from finqa.testing import FakeReasoner, FakeRetriever, ScriptedJudge

SAMPLES = Path(__file__).resolve().parent.parent / "orchestrator" / "samples" / "filings"


def _screen(text: str) -> list[str]:
    """The lines a terminal would keep: what follows the last carriage return of each line."""
    return [seg.rsplit("\r", 1)[-1].rstrip() for seg in text.split("\n")]


def _totals(text: str, unit: str) -> set[int]:
    """Every total a bar drew ('3/7 [..., 1.2unit/s]' -> 7)."""
    return {int(m) for m in re.findall(rf"\d+/(\d+) \[[^\]]*{unit}", text)}


class _Tty(io.StringIO):
    """A captured stream that says it is a terminal (tqdm then draws as it would on one)."""

    def isatty(self) -> bool:
        return True


class TestWriteLine:
    """`write_line` steps around a live bar and is plain without one."""

    def test_plain_without_bar(self) -> None:
        """With no bar open, the line is written as is, with its newline."""
        out = io.StringIO()
        assert live_bars() is None
        write_line("hello", out)
        assert out.getvalue() == "hello\n"

    def test_above_a_live_bar(self) -> None:
        """With a bar open on the stream, the line is on a screen line of its own and the bar is redrawn."""
        from tqdm import tqdm

        out = _Tty()
        with tqdm(total=4, file=out, desc="work", mininterval=0) as bar:
            bar.update(1)
            write_line('{"event": "x"}', out)
            bar.update(1)
        screen = _screen(out.getvalue())
        assert '{"event": "x"}' in screen
        assert all("work" not in line or "{" not in line for line in screen)

    def test_line_stream_waits_for_newline(self) -> None:
        """A message written in pieces (text, then newline) becomes one line."""
        out = io.StringIO()
        stream = LineStream(lambda: out)
        stream.write('{"a": 1}')
        assert out.getvalue() == ""
        stream.write("\n")
        assert out.getvalue() == '{"a": 1}\n'


class TestIngestBar:
    """`finqa ingest` draws one bar over the files, with its total known from the start."""

    def test_total_is_the_file_count_and_notes_above(
        self, tmp_path: Path, capsys: pytest.CaptureFixture[str]
    ) -> None:
        """Four files (one damaged): every drawing of the bar says /4, the skip note is its own line."""
        from finqa.agents.config import Settings
        from finqa.agents.retrieval.ingest import ingest_paths

        corpus = tmp_path / "corpus"
        corpus.mkdir()
        for f in SAMPLES.iterdir():
            (corpus / f.name).write_bytes(f.read_bytes())
        (corpus / "broken.pdf").write_text("not a pdf at all")
        settings = Settings().with_overrides(
            {"index.path": str(tmp_path / "idx"), "index.dense": "none"}
        )
        report = ingest_paths([corpus], settings, progress=True)
        err = capsys.readouterr().err
        assert report.documents == 3 and len(report.skipped) == 1
        assert _totals(err, "file") == {4}
        screen = _screen(err)
        notes = [line for line in screen if line.startswith("finqa ingest: skipped")]
        assert len(notes) == 1 and "broken.pdf" in notes[0]
        assert "4/4" in err  # the bar ends full, once


@pytest.fixture
def workdir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A folder with an (empty) index and fake agents behind the real factory and audit log."""
    import structlog

    monkeypatch.chdir(tmp_path)
    (tmp_path / "idx").mkdir()
    monkeypatch.setenv("FINQA_AUDIT__FSYNC", "false")
    monkeypatch.setattr(factory, "build_retriever", lambda s: FakeRetriever(s))
    monkeypatch.setattr(factory, "build_reasoner", lambda s, llm=None: FakeReasoner(("a1",)))
    monkeypatch.setattr(factory, "build_judge", lambda s, llm=None: ScriptedJudge(s, (0.9,)))
    yield tmp_path
    structlog.reset_defaults()


class TestBatchBar:
    """`finqa ask --questions` keeps log lines and results off the bar's line; the summary ends."""

    def test_log_lines_never_glued_to_bar(
        self, workdir: Path, capsys: pytest.CaptureFixture[str]
    ) -> None:
        """Each JSON log line on stderr is a screen line of its own; the summary is the last line."""
        qfile = workdir / "q.jsonl"
        qfile.write_text("".join(json.dumps({"question": f"Q{i}?"}) + "\n" for i in range(3)))
        assert finqa_main(["ask", "--questions", str(qfile), "--index", "idx"]) == 0
        captured = capsys.readouterr()
        screen = [line for line in _screen(captured.err) if line]
        logs = [line for line in screen if "{" in line]
        assert logs and all(line.startswith("{") for line in logs)
        assert all(json.loads(line)["event"] for line in logs)
        assert _totals(captured.err, "q") == {3}
        assert screen[-1].startswith("3 question(s) answered: 3 accepted")
        answers: list[dict[str, Any]] = [json.loads(x) for x in captured.out.splitlines() if x]
        assert len(answers) == 3
