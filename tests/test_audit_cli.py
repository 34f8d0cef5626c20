"""`finqa audit verify|checkpoint|show|export|recover`, the pandas loader and the export files."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest
from finqa.agents.clock import FixedClock
from finqa.agents.config import Settings
from finqa.agents.errors import AuditError
from finqa.audit import AuditLog, export, load_frame
from finqa.orchestrator.cli import main

KEY = "cli-test-hmac-key"


@pytest.fixture
def qa_log(tmp_path: Path) -> Path:
    """A log shaped like the orchestrator's: run start, one question over two attempts, final."""
    path = tmp_path / "audit.jsonl"
    log = AuditLog(path, run_id="run-1", clock=FixedClock(), fsync=False)
    log.start_run(
        Settings(), index_version="idx-1", models={"embedder": "all-MiniLM-L6-v2", "llm": "offline"}
    )
    q = "q-capex"
    log.append(
        event="question_start",
        agent="orchestrator",
        question_id=q,
        data={"question": "What was 3M's FY2018 capex?"},
    )
    for a in (1, 2):
        log.append(
            event="retrieval", agent="retrieval", question_id=q, attempt=a, decision="evidence",
            params={"route": "hybrid+filter+rerank", "k": 10 * a, "rse": a == 2, "filters": {"company": "3M"}},
            reason="ticker/company + computation -> hybrid + filter + rerank",
            data={"items": [{"source_id": "S1", "doc_id": "3M_2018_10K", "pages": [47], "scores": {"rerank": 0.91}}]},
        )  # fmt: skip
        log.append(
            event="reasoning", agent="reasoning", question_id=q, attempt=a, decision="answer",
            params={"strategy": ("standard", "conservative")[a - 1], "template_hash": "ab12"},
            data={"answer": "$1,577 million [S1]"},
        )  # fmt: skip
        log.append(
            event="judge", agent="judge", question_id=q, attempt=a, decision=("retry", "accept")[a - 1],
            scores={"grounding": 0.8, "completeness": 1.0, "numeric": 0.5 * a, "utility": 0.3 + 0.25 * a,
                    "threshold": 0.5 - 0.1 * (a - 1)},
            data={"diagnosis": "retrieval" if a == 1 else None},
        )  # fmt: skip
        log.append(
            event="decision", agent="orchestrator", question_id=q, attempt=a,
            decision=("retry", "accept")[a - 1], reason=("U 0.55 < tau 0.5? widen k", "U >= tau")[a - 1],
        )  # fmt: skip
    log.append(
        event="final", agent="orchestrator", question_id=q, decision="accepted", reason="attempt 2 accepted",
        scores={"utility": 0.8, "attempts": 2}, data={"answer": "$1,577 million [S1]"},
    )  # fmt: skip
    return path


def _flip(path: Path, line: int) -> None:
    lines = path.read_bytes().splitlines(keepends=True)
    lines[line - 1] = lines[line - 1].replace(b'"k":10', b'"k":99')
    path.write_bytes(b"".join(lines))


class TestVerifyCommand:
    """Exit codes 0 ok, 1 tampered, 2 truncated/torn, 3 cannot check; the first bad line is printed."""

    def test_ok(self, qa_log: Path, capsys: pytest.CaptureFixture[str]) -> None:
        """An untouched log exits 0 and says OK."""
        assert main(["audit", "verify", str(qa_log)]) == 0
        assert capsys.readouterr().out.startswith("OK")

    def test_tampered(self, qa_log: Path, capsys: pytest.CaptureFixture[str]) -> None:
        """An edited value exits 1 and prints the line number and the line."""
        _flip(qa_log, 3)
        assert main(["audit", "verify", str(qa_log)]) == 1
        out = capsys.readouterr().out
        assert "TAMPERED" in out and "first bad line 3:" in out and '"event":"retrieval"' in out

    def test_torn(self, qa_log: Path, capsys: pytest.CaptureFixture[str]) -> None:
        """A torn last line exits 2; `finqa audit recover` then makes it verify."""
        with qa_log.open("ab") as f:
            f.write(b'{"agent":"judge","attem')
        assert main(["audit", "verify", str(qa_log)]) == 2
        assert "line 12" in capsys.readouterr().out
        assert main(["audit", "recover", str(qa_log)]) == 0
        assert main(["audit", "verify", str(qa_log)]) == 0

    def test_truncated_against_checkpoint(
        self,
        qa_log: Path,
        tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str],
    ) -> None:
        """checkpoint signs the head; dropping the last record then exits 2."""
        monkeypatch.setenv("FINQA_AUDIT_HMAC_KEY", KEY)
        cp = tmp_path / "elsewhere" / "audit.cp.json"
        assert main(["audit", "checkpoint", str(qa_log), "--out", str(cp)]) == 0
        assert json.loads(cp.read_text())["seq"] == 11
        assert main(["audit", "verify", str(qa_log), "--checkpoint", str(cp)]) == 0
        qa_log.write_bytes(b"".join(qa_log.read_bytes().splitlines(keepends=True)[:-1]))
        assert main(["audit", "verify", str(qa_log)]) == 0  # invisible without the checkpoint
        assert main(["audit", "verify", str(qa_log), "--checkpoint", str(cp)]) == 2
        assert "truncated" in capsys.readouterr().out

    def test_checkpoint_without_key(
        self, qa_log: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
    ) -> None:
        """Without FINQA_AUDIT_HMAC_KEY, checkpoint fails with one clear line and no traceback."""
        monkeypatch.delenv("FINQA_AUDIT_HMAC_KEY", raising=False)
        assert main(["audit", "checkpoint", str(qa_log)]) != 0
        err = capsys.readouterr().err.strip()
        assert err.count("\n") == 0 and "FINQA_AUDIT_HMAC_KEY is not set" in err
        assert main(["audit", "verify", str(qa_log), "--checkpoint", "x.json"]) == 3

    def test_missing_log(self, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
        """A log that does not exist exits 3 with a one-line error."""
        assert main(["audit", "verify", str(tmp_path / "none.jsonl")]) == 3
        assert "not found" in capsys.readouterr().err


class TestShowCommand:
    """show prints a question's life readably: attempts, plan, scores, decisions, outcome."""

    def test_question_life(self, qa_log: Path, capsys: pytest.CaptureFixture[str]) -> None:
        """Every attempt is a section with retrieval plan, evidence, scores and the decision; then the outcome."""
        assert main(["audit", "show", str(qa_log), "--question-id", "q-capex"]) == 0
        out = capsys.readouterr().out
        assert "What was 3M's FY2018 capex?" in out
        assert (
            out.index("── attempt 1 ──") < out.index("── attempt 2 ──") < out.index("── outcome ──")
        )
        assert (
            "route=hybrid+filter+rerank" in out
            and "k=20" in out
            and "S1 3M_2018_10K p.47 (rerank 0.91)" in out
        )
        assert "utility=0.55" in out and "judge/judge -> retry" in out and "final: accepted" in out

    def test_summary(self, qa_log: Path, capsys: pytest.CaptureFixture[str]) -> None:
        """Without a question id, show lists runs (config, index, code, models) and questions."""
        assert main(["audit", "show", str(qa_log)]) == 0
        out = capsys.readouterr().out
        assert (
            "run run-1" in out
            and "index idx-1" in out
            and "q-capex: 2 attempt(s)" in out
            and "accepted" in out
        )

    def test_unknown_question(self, qa_log: Path, capsys: pytest.CaptureFixture[str]) -> None:
        """An unknown question id says so."""
        main(["audit", "show", str(qa_log), "--question-id", "nope"])
        assert "no records for question 'nope'" in capsys.readouterr().out


class TestExport:
    """The pandas loader and CSV/Parquet export."""

    def test_load_frame(self, qa_log: Path) -> None:
        """One row per record with typed columns and flattened scores."""
        df = load_frame(qa_log)
        assert len(df) == 11 and list(df["seq"]) == list(range(1, 12))
        assert str(df["ts"].dt.tz) == "UTC" and str(df["attempt"].dtype) == "Int64"
        judge = df[df["event"] == "judge"]
        assert list(judge["scores.utility"]) == pytest.approx([0.55, 0.8])
        assert len(load_frame(qa_log, question_id="q-capex", event="retrieval")) == 2

    @pytest.mark.parametrize("suffix", [".csv", ".parquet"])
    def test_export_round_trip(self, qa_log: Path, tmp_path: Path, suffix: str) -> None:
        """`finqa audit export` writes every record; params/scores/data are JSON text."""
        out = tmp_path / f"audit{suffix}"
        assert main(["audit", "export", str(qa_log), "--out", str(out)]) == 0
        df = pd.read_csv(out) if suffix == ".csv" else pd.read_parquet(out)
        assert len(df) == 11 and set(df["event"]) >= {"run_start", "retrieval", "final"}
        row = df[df["event"] == "retrieval"].iloc[0]
        assert json.loads(row["params"])["k"] == 10

    def test_bad_suffix(self, qa_log: Path, tmp_path: Path) -> None:
        """Exporting to anything but .csv/.parquet is a clear error."""
        with pytest.raises(AuditError, match=r"\.csv or \.parquet"):
            export(qa_log, tmp_path / "x.xlsx")
