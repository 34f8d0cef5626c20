"""verify: every edit, deletion, reordering, duplication, truncation and torn line is caught."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from finqa.agents.clock import FixedClock
from finqa.agents.errors import AuditError
from finqa.audit import AuditLog, make_checkpoint, verify_log, write_checkpoint
from finqa.audit.verify import verify_bytes
from finqa.benchmarks.audit_stress import sample_log
from hypothesis import given, settings
from hypothesis import strategies as st

KEY = b"test-hmac-key"


@pytest.fixture(scope="module")
def sample(tmp_path_factory: pytest.TempPathFactory) -> bytes:
    return sample_log(tmp_path_factory.mktemp("audit") / "sample.jsonl", 4).read_bytes()


@pytest.fixture
def log(tmp_path: Path, sample: bytes) -> Path:
    path = tmp_path / "audit.jsonl"
    path.write_bytes(sample)
    return path


def _lines(data: bytes) -> list[bytes]:
    return data.splitlines(keepends=True)


class TestChain:
    """An untouched log verifies; any change to its bytes does not."""

    def test_clean_log_ok(self, log: Path) -> None:
        """A log written by AuditLog verifies with status 0 and reports its head."""
        result = verify_log(log)
        assert result.ok and result.status == 0 and result.records == 4 and result.head_seq == 4

    @given(data=st.data())
    @settings(max_examples=300, deadline=None)
    def test_every_single_bit_flip_detected(self, sample: bytes, data: st.DataObject) -> None:
        """Flipping any one bit of the log makes verify fail (1 tampered, or 2 for the last line).

        The newline that ends the second-to-last line counts with the last line: flipping it joins
        the two into one unparseable last line, which reads like a torn write (2).
        """
        pos = data.draw(st.integers(0, len(sample) - 1), label="byte")
        bit = data.draw(st.integers(0, 7), label="bit")
        flipped = bytearray(sample)
        flipped[pos] ^= 1 << bit
        result = verify_bytes(bytes(flipped))
        assert result.status in (1, 2) and result.first_bad_line is not None
        last_line_start = len(sample) - len(_lines(sample)[-1])
        if pos < last_line_start - 1:
            assert result.status == 1

    def test_bit_flips_exhaustive_on_small_log(self, tmp_path: Path) -> None:
        """Every one of the 8 x size single-bit flips of a 2-record log is detected."""
        data = sample_log(tmp_path / "s.jsonl", 2).read_bytes()
        missed = []
        for pos in range(len(data)):
            for bit in range(8):
                flipped = bytearray(data)
                flipped[pos] ^= 1 << bit
                if verify_bytes(bytes(flipped)).status == 0:
                    missed.append((pos, bit))
        assert missed == []

    def test_form_only_edit_detected(self, sample: bytes) -> None:
        """An edit that keeps every value (pretty-printing a line) is still tampering."""
        lines = _lines(sample)
        lines[1] = json.dumps(json.loads(lines[1]), indent=None).encode() + b"\n"
        result = verify_bytes(b"".join(lines))
        assert result.status == 1 and result.first_bad_line == 2 and "canonical" in result.message

    @pytest.mark.parametrize("index", [0, 1, 2])
    def test_deletion_detected(self, sample: bytes, index: int) -> None:
        """Deleting any record but the last breaks the chain at the next line."""
        lines = _lines(sample)
        del lines[index]
        result = verify_bytes(b"".join(lines))
        assert result.status == 1 and result.first_bad_line == index + 1

    @pytest.mark.parametrize("index", [0, 1, 2])
    def test_reorder_detected(self, sample: bytes, index: int) -> None:
        """Swapping two adjacent records is detected at the first of them."""
        lines = _lines(sample)
        lines[index], lines[index + 1] = lines[index + 1], lines[index]
        result = verify_bytes(b"".join(lines))
        assert result.status == 1 and result.first_bad_line == index + 1 and "seq" in result.message

    @pytest.mark.parametrize("index", [0, 1, 2, 3])
    def test_duplication_detected(self, sample: bytes, index: int) -> None:
        """A record repeated right after itself is detected at the copy."""
        lines = _lines(sample)
        lines.insert(index + 1, lines[index])
        result = verify_bytes(b"".join(lines))
        assert result.status == 1 and result.first_bad_line == index + 2

    def test_garbage_line_in_middle_is_tampering(self, sample: bytes) -> None:
        """A non-JSON line between records, named by no recovery record, is tampering (1)."""
        lines = _lines(sample)
        lines.insert(2, b"not json\n")
        result = verify_bytes(b"".join(lines))
        assert result.status == 1 and result.first_bad_line == 3 and result.excerpt == "not json"


class TestCheckpoint:
    """An HMAC'd checkpoint catches tail truncation and wholesale rewrites."""

    def test_every_truncation_detected(self, log: Path, tmp_path: Path) -> None:
        """Cutting the log at any byte before the checkpointed size is reported as truncated (2)."""
        cp = write_checkpoint(log, tmp_path / "cp.json", key=KEY)
        data = log.read_bytes()
        statuses = {verify_bytes(data[:n], cp, KEY).status for n in range(len(data))}
        assert statuses == {2}
        assert verify_log(log, cp, KEY).status == 0

    def test_whole_record_truncation_needs_checkpoint(self, log: Path, tmp_path: Path) -> None:
        """Without a checkpoint dropping the last record is invisible; with one it is status 2."""
        cp = write_checkpoint(log, tmp_path / "cp.json", key=KEY)
        cut = b"".join(_lines(log.read_bytes())[:-1])
        assert verify_bytes(cut).status == 0
        result = verify_bytes(cut, cp, KEY)
        assert result.status == 2 and "truncated" in result.message

    def test_rewritten_log_detected(self, log: Path, tmp_path: Path) -> None:
        """A log re-chained from scratch with valid hashes no longer matches the checkpoint (1)."""
        cp = write_checkpoint(log, tmp_path / "cp.json", key=KEY)
        forged = tmp_path / "forged.jsonl"
        w = AuditLog(forged, run_id="sample", clock=FixedClock(), fsync=False)
        for rec in json_lines(log):
            w.append(
                event=rec["event"],
                agent=rec["agent"],
                question_id=rec["question_id"],
                reason="rewritten",
            )
        assert verify_log(forged).status == 0
        assert verify_log(forged, cp, KEY).status == 1

    def test_log_may_grow_after_checkpoint(self, log: Path, tmp_path: Path) -> None:
        """Appends after a checkpoint keep the log valid against it."""
        cp = write_checkpoint(log, tmp_path / "cp.json", key=KEY)
        AuditLog(log, fsync=False).append(event="more", agent="orchestrator")
        assert verify_log(log, cp, KEY).status == 0

    def test_forged_checkpoint_detected(self, log: Path, tmp_path: Path) -> None:
        """Editing a checkpoint (or checking it with another key) fails its HMAC: status 1."""
        cp = write_checkpoint(log, tmp_path / "cp.json", key=KEY)
        body = json.loads(cp.read_text())
        body["lines"] -= 1
        cp.write_text(json.dumps(body))
        assert verify_log(log, cp, KEY).status == 1
        good = write_checkpoint(log, tmp_path / "cp2.json", key=KEY)
        assert verify_log(log, good, b"another key").status == 1

    def test_missing_key_is_a_clear_error(self, log: Path, monkeypatch: pytest.MonkeyPatch) -> None:
        """Without FINQA_AUDIT_HMAC_KEY a checkpoint cannot be written: one-line AuditError."""
        monkeypatch.delenv("FINQA_AUDIT_HMAC_KEY", raising=False)
        with pytest.raises(AuditError, match="FINQA_AUDIT_HMAC_KEY is not set"):
            make_checkpoint(log)

    def test_refuses_to_checkpoint_a_tampered_log(self, log: Path) -> None:
        """A log that does not verify is never signed."""
        data = bytearray(log.read_bytes())
        data[10] ^= 1
        log.write_bytes(bytes(data))
        with pytest.raises(AuditError, match="not checkpointing"):
            make_checkpoint(log, key=KEY)


def json_lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


class TestTornLine:
    """A torn last line is reported (2) and recovered by the next append without rewriting history."""

    def test_torn_reported_then_recovered(self, log: Path) -> None:
        """Half a line at the end: status 2 at that line; an append records `recovery` and chains on."""
        before = log.read_bytes()
        last = _lines(before)[-1]
        with log.open("ab") as f:
            f.write(last[:40])
        torn = verify_log(log)
        assert torn.status == 2 and torn.first_bad_line == 5 and "torn" in torn.message
        rec = AuditLog(log, fsync=False).append(event="resume", agent="orchestrator")
        after = verify_log(log)
        assert after.status == 0 and after.recovered == 1 and rec["seq"] == 6
        assert log.read_bytes().startswith(before + last[:40] + b"\n")
        events = [r["event"] for r in json_lines_skipping(log)]
        assert events[-2:] == ["recovery", "resume"]

    def test_complete_record_without_newline_is_torn(self, log: Path) -> None:
        """A last record missing only its newline was not fully written: status 2, then recovered."""
        log.write_bytes(log.read_bytes()[:-1])
        assert verify_log(log).status == 2
        AuditLog(log, fsync=False).append(event="resume", agent="orchestrator")
        assert verify_log(log).status == 0

    def test_crash_during_recovery(self, log: Path) -> None:
        """Torn bytes, then a torn recovery record: both are named by the next recovery."""
        with log.open("ab") as f:
            f.write(b'{"agent":"x","att')
        AuditLog(log, fsync=False).append(event="resume", agent="orchestrator")
        lines = _lines(log.read_bytes())
        log.write_bytes(b"".join(lines[:-2]) + lines[-2][:30])  # the recovery itself torn
        assert verify_log(log).status == 2
        AuditLog(log, fsync=False).recover()
        result = verify_log(log)
        assert result.status == 0 and result.recovered == 2

    def test_recovery_must_name_the_torn_bytes(self, log: Path) -> None:
        """Editing a recovered fragment (its hash no longer matches the recovery record) is tampering."""
        with log.open("ab") as f:
            f.write(b'{"agent":"x"')
        AuditLog(log, fsync=False).append(event="resume", agent="orchestrator")
        data = log.read_bytes().replace(b'{"agent":"x"\n', b'{"agent":"y"\n')
        assert verify_bytes(data).status == 1

    def test_torn_first_line_of_new_log(self, tmp_path: Path) -> None:
        """A log whose only content is a torn line recovers to seq 1 after the genesis hash."""
        path = tmp_path / "new.jsonl"
        path.write_bytes(b'{"agent":"orchestr')
        rec = AuditLog(path, fsync=False).recover()
        assert rec is not None and rec["seq"] == 1 and verify_log(path).status == 0
        assert AuditLog(path, fsync=False).recover() is None

    def test_missing_log_is_an_error(self, tmp_path: Path) -> None:
        """Verifying a log that does not exist raises AuditError (CLI exit 3)."""
        with pytest.raises(AuditError, match="not found"):
            verify_log(tmp_path / "nope.jsonl")


def json_lines_skipping(path: Path) -> list[dict[str, Any]]:
    from finqa.audit import load_records

    return load_records(path)


class TestRecoveryIntegrity:
    """Recovery records cannot be used to hide deletions."""

    def test_deleting_recovered_fragment_detected(self, log: Path) -> None:
        """Removing torn bytes that a recovery record names is tampering (1)."""
        with log.open("ab") as f:
            f.write(b'{"agent":"x"')
        AuditLog(log, fsync=False).append(event="resume", agent="orchestrator")
        data = log.read_bytes().replace(b'{"agent":"x"\n', b"")
        result = verify_bytes(data)
        assert result.status == 1 and "recovery" in result.message
