"""Automatic checkpoints: a signed head at the end of every run and batch, used by verify by default."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from finqa.agents.config import Settings
from finqa.agents.errors import AuditError
from finqa.audit import load_records, verify_log
from finqa.audit.canonical import canonical_bytes, record_hash
from finqa.audit.checkpoints import (
    auto_checkpoint,
    checkpoint_dir,
    default_key_path,
    latest_checkpoint,
    verify_keys,
)
from finqa.audit.report_data import build_report_data
from finqa.benchmarks.report_bench import write_fake_log
from finqa.orchestrator.api import FinQA
from finqa.orchestrator.cli import main


@pytest.fixture
def fake_log(tmp_path: Path) -> Path:
    """Four questions written by the real orchestrator and audit log, checkpointed once."""
    log = write_fake_log(tmp_path / "logs" / "audit.jsonl", 4)
    auto_checkpoint(log, key_path=None, folder=None)
    return log


def _rewrite(log: Path, seq: int, edit: Any) -> None:
    """Edit record `seq` in place and recompute every hash after it (a forger with file access)."""
    records = load_records(log)
    prev = None
    lines = []
    for rec in records:
        if rec["seq"] == seq:
            edit(rec)
        if prev is not None:
            rec["prev_hash"] = prev
        if rec["seq"] >= seq:
            rec["hash"] = record_hash(rec)
        prev = rec["hash"]
        lines.append(canonical_bytes(rec) + b"\n")
    log.write_bytes(b"".join(lines))


def _final_seq(log: Path, qid: str) -> int:
    return next(
        r["seq"] for r in load_records(log) if r["question_id"] == qid and r["event"] == "final"
    )


def _set_answer(rec: dict[str, Any]) -> None:
    rec["data"]["answer"] = "999"


class TestAutoCheckpoint:
    def test_run_and_batch_write_a_signed_checkpoint_beside_the_log(
        self, tmp_path: Path, fake_factories: None
    ) -> None:
        """ask_batch checkpoints the head when the batch ends, and close after a further ask."""
        log = tmp_path / "idx" / "audit.jsonl"
        settings = Settings().with_overrides({"audit.path": str(log), "audit.fsync": False})
        with FinQA(settings) as fq:
            fq.ask_batch(["one?", "two?"])
            first = latest_checkpoint(log)
            assert first is not None and first.parent == log.with_name("audit.jsonl.checkpoints")
            fq.ask("three?")
        last = latest_checkpoint(log)
        assert last is not None and last != first
        cp = json.loads(last.read_text())
        assert (
            cp["format"] == "finqa-audit-checkpoint/2" and cp["seq"] == load_records(log)[-1]["seq"]
        )
        assert default_key_path().is_file() and not default_key_path().is_relative_to(log.parent)
        keys = verify_keys(None, None)
        assert verify_log(log, last, keys=keys).checkpoint_lines == cp["lines"]

    def test_key_inside_log_folder_is_refused_and_run_goes_on(
        self, tmp_path: Path, fake_factories: None
    ) -> None:
        """A machine key configured in the log's folder: no checkpoint, a reason, the answer returned."""
        log = tmp_path / "idx" / "audit.jsonl"
        settings = Settings().with_overrides(
            {
                "audit.path": str(log),
                "audit.fsync": False,
                "audit.checkpoint_key": str(tmp_path / "idx" / "machine.key"),
            }
        )
        fq = FinQA(settings)
        result = fq.ask("one?")
        fq.close()
        assert result.status != "failed" and latest_checkpoint(log) is None
        assert fq.checkpoint_error is not None and "inside the log's folder" in fq.checkpoint_error

    def test_configured_checkpoint_folder(self, tmp_path: Path) -> None:
        """audit.checkpoint_dir keeps one sub-folder per log, elsewhere."""
        log = write_fake_log(tmp_path / "a" / "audit.jsonl", 1)
        path = auto_checkpoint(log, key_path=None, folder=str(tmp_path / "cps"))
        assert path.parent == checkpoint_dir(log, str(tmp_path / "cps"))
        assert latest_checkpoint(log, str(tmp_path / "cps")) == path
        assert latest_checkpoint(log) is None

    def test_rewrite_is_not_laundered_by_the_next_checkpoint(self, fake_log: Path) -> None:
        """After a re-chained rewrite, the next run's checkpoint is refused; verify still exits 1."""
        _rewrite(fake_log, _final_seq(fake_log, "q00001"), _set_answer)
        write_fake_log(fake_log, 1, run_id="later")  # an honest run appends afterwards
        with pytest.raises(AuditError, match="does not verify against"):
            auto_checkpoint(fake_log, key_path=None, folder=None)
        assert main(["audit", "verify", str(fake_log)]) == 1

    def test_damaged_log_is_not_checkpointed(self, fake_log: Path) -> None:
        """A log that does not verify gets no checkpoint (one never vouches for a damaged log)."""
        before = latest_checkpoint(fake_log)
        with fake_log.open("ab") as f:
            f.write(b'{"torn')
        with pytest.raises(Exception, match="not checkpointing"):
            auto_checkpoint(fake_log, key_path=None, folder=None)
        assert latest_checkpoint(fake_log) == before


class TestVerifyUsesLatest:
    def test_clean_log_verifies_against_latest(
        self, fake_log: Path, capsys: pytest.CaptureFixture[str]
    ) -> None:
        """`audit verify LOG` checks the latest checkpoint without being told: exit 0, it says so."""
        assert main(["audit", "verify", str(fake_log)]) == 0
        assert "checkpoint at seq" in capsys.readouterr().out

    def test_records_cut_from_end_detected_by_default(
        self, fake_log: Path, capsys: pytest.CaptureFixture[str]
    ) -> None:
        """Dropping the last whole records is TRUNCATED (2) against the automatic checkpoint."""
        lines = fake_log.read_bytes().splitlines(keepends=True)
        fake_log.write_bytes(b"".join(lines[:-3]))
        assert main(["audit", "verify", str(fake_log), "--no-checkpoint"]) == 0
        assert main(["audit", "verify", str(fake_log)]) == 2

    def test_rewrite_with_recomputed_chain_is_tampered(
        self, fake_log: Path, capsys: pytest.CaptureFixture[str]
    ) -> None:
        """An answer edited in place with the chain recomputed after it: verify exits 1."""
        _rewrite(fake_log, _final_seq(fake_log, "q00001"), _set_answer)
        assert main(["audit", "verify", str(fake_log), "--no-checkpoint"]) == 0
        assert main(["audit", "verify", str(fake_log)]) == 1
        assert "rewritten" in capsys.readouterr().out

    def test_forged_latest_checkpoint_is_tampered(self, fake_log: Path) -> None:
        """A checkpoint file edited (or written with another key) in the folder: exit 1."""
        cp = latest_checkpoint(fake_log)
        assert cp is not None
        body = json.loads(cp.read_text())
        body["lines"] -= 1
        cp.write_text(json.dumps(body))
        assert main(["audit", "verify", str(fake_log)]) == 1

    def test_appends_after_checkpoint_still_verify(self, fake_log: Path) -> None:
        """A log that grew after its latest checkpoint still verifies against it."""
        write_fake_log(fake_log, 1, run_id="later")
        assert main(["audit", "verify", str(fake_log)]) == 0


class TestReportNeverSaysMore:
    def test_rewrite_marks_nothing_verified(self, fake_log: Path) -> None:
        """After a failed checkpoint no question, record or run is shown as verified."""
        _rewrite(fake_log, _final_seq(fake_log, "q00002"), _set_answer)
        cp = latest_checkpoint(fake_log)
        data = build_report_data(fake_log, checkpoint=cp, keys=verify_keys(None, None))
        assert data["verify"]["status"] == 1 and data["verify"]["verified_through_seq"] == 0
        assert not any(q["verified"] for q in data["questions"])
        assert not any(r["verified"] for r in data["runs"])

    def test_truncation_against_checkpoint_marks_nothing_verified(self, fake_log: Path) -> None:
        """A log shorter than its checkpoint (a cut, or a rewrite that shrank it) vouches for nothing."""
        lines = fake_log.read_bytes().splitlines(keepends=True)
        fake_log.write_bytes(b"".join(lines[:-2]))
        cp = latest_checkpoint(fake_log)
        data = build_report_data(fake_log, checkpoint=cp, keys=verify_keys(None, None))
        assert data["verify"]["status"] == 2 and not any(q["verified"] for q in data["questions"])

    def test_records_after_checkpoint_are_chain_only(self, fake_log: Path) -> None:
        """Questions up to the checkpoint are checkpointed; ones appended later are chain-verified only."""
        write_fake_log(fake_log, 1, run_id="later")
        cp = latest_checkpoint(fake_log)
        data = build_report_data(fake_log, checkpoint=cp, keys=verify_keys(None, None))
        by_run = {q["run_id"]: q for q in data["questions"]}
        assert by_run["bench-run"]["checkpointed"] and by_run["bench-run"]["verified"]
        assert by_run["later"]["verified"] and not by_run["later"]["checkpointed"]

    def test_report_cli_uses_latest_and_exits_1_on_rewrite(
        self, fake_log: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
    ) -> None:
        """`audit report` checks the latest checkpoint by default: a rewrite exits 1, page written."""
        _rewrite(fake_log, _final_seq(fake_log, "q00001"), _set_answer)
        out = tmp_path / "r.html"
        assert main(["audit", "report", str(fake_log), "--out", str(out)]) == 1
        page = out.read_text()
        assert '"verified":false' in page.replace(" ", "")
        assert '"verified":true' not in page.replace(" ", "")


class TestOtherOutputsNeverSayMore:
    def test_show_reports_a_rewrite_against_the_latest_checkpoint(
        self, fake_log: Path, capsys: pytest.CaptureFixture[str]
    ) -> None:
        """`audit show` states TAMPERED for a re-chained log, as verify does, not "ok"."""
        _rewrite(fake_log, _final_seq(fake_log, "q00001"), _set_answer)
        capsys.readouterr()
        assert main(["audit", "show", str(fake_log)]) == 0
        first = capsys.readouterr().out.splitlines()[0]
        assert "TAMPERED" in first and "ok:" not in first

    def test_review_records_the_failed_checkpoint(self, fake_log: Path) -> None:
        """A review of a re-chained log records status 1 (what the reviewer had), not 0."""
        from finqa.audit import review_question

        _rewrite(fake_log, _final_seq(fake_log, "q00001"), _set_answer)
        rec = review_question(fake_log, "q00001", "approved", "Ann")
        assert rec["params"]["log_status"] == 1


class TestVerifySince:
    """What the writer checks before its next checkpoint: only what was appended since the last."""

    def test_tail_verified_with_same_head_as_full_verify(self, fake_log: Path) -> None:
        """After appends, verify_since gives the head, lines and bytes verify_log gives."""
        from finqa.audit.verify import verify_since

        write_fake_log(fake_log, 2, run_id="later")
        cp = latest_checkpoint(fake_log)
        assert cp is not None
        since, full = verify_since(fake_log, cp, keys=verify_keys(None, None)), verify_log(fake_log)
        assert since.ok and (since.head_seq, since.head_hash, since.lines, since.bytes) == (
            full.head_seq,
            full.head_hash,
            full.lines,
            full.bytes,
        )

    def test_edit_after_checkpoint_detected(self, fake_log: Path) -> None:
        """An edited record among those appended since the checkpoint is TAMPERED."""
        from finqa.audit.verify import verify_since

        write_fake_log(fake_log, 1, run_id="later")
        cp = latest_checkpoint(fake_log)
        assert cp is not None
        lines = fake_log.read_bytes().splitlines(keepends=True)
        lines[-2] = lines[-2].replace(b'"later"', b'"LATER"', 1)
        fake_log.write_bytes(b"".join(lines))
        assert verify_since(fake_log, cp, keys=verify_keys(None, None)).status == 1

    def test_checkpointed_line_rewritten_detected(self, fake_log: Path) -> None:
        """A re-chained rewrite changes the checkpointed line: TAMPERED without reading the rest."""
        from finqa.audit.verify import verify_since

        cp = latest_checkpoint(fake_log)
        assert cp is not None
        _rewrite(fake_log, _final_seq(fake_log, "q00003"), _set_answer)
        assert verify_since(fake_log, cp, keys=verify_keys(None, None)).status == 1
