"""AuditLog: records, chaining, clock, run start, threads, several processes, SIGKILL."""

from __future__ import annotations

import threading
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest
from finqa.agents.clock import FixedClock
from finqa.agents.config import Settings, config_hash
from finqa.agents.types import AuditSink, Verdict
from finqa.audit import GENESIS_HASH, RECORD_FIELDS, AuditLog, load_records, record_hash, verify_log
from finqa.audit.writer import detect_code_version, format_ts
from finqa.benchmarks.audit_stress import concurrent_appends, sigkill_mid_run, sigkill_mid_write
from finqa.testing import assert_implements


class TestAppend:
    """Each append writes one canonical, chained record and returns it."""

    def test_satisfies_audit_sink(self, tmp_path: Path) -> None:
        """AuditLog is an agents.types.AuditSink without inheriting from it."""
        assert_implements(AuditLog(tmp_path / "a.jsonl"), AuditSink)

    def test_records_chain_and_count(self, tmp_path: Path) -> None:
        """seq runs from 1, prev_hash links to the previous hash, the first links to genesis."""
        log = AuditLog(tmp_path / "a.jsonl", run_id="r1", clock=FixedClock(), fsync=False)
        first = log.append(event="question_start", agent="orchestrator", question_id="q1")
        second = log.append(
            event="retrieval", agent="retrieval", question_id="q1", attempt=1, params={"k": 10}
        )
        assert list(first) == list(RECORD_FIELDS)
        assert (first["seq"], second["seq"]) == (1, 2)
        assert first["prev_hash"] == GENESIS_HASH and second["prev_hash"] == first["hash"]
        assert second["hash"] == record_hash(second) and second["run_id"] == "r1"
        assert load_records(tmp_path / "a.jsonl") == [first, second]

    def test_timestamps_are_utc_iso(self, tmp_path: Path) -> None:
        """Timestamps come from the injected clock, in UTC ISO-8601 with a Z."""
        plus2 = timezone(timedelta(hours=2))
        clock = FixedClock(start=datetime(2026, 3, 1, 12, 0, tzinfo=plus2))
        rec = AuditLog(tmp_path / "a.jsonl", clock=clock, fsync=False).append(event="e", agent="a")
        assert rec["ts"] == "2026-03-01T10:00:00.000000Z"
        assert format_ts(datetime(2026, 1, 2, 3, 4, 5)) == "2026-01-02T03:04:05.000000Z"

    def test_seam_models_are_serialised(self, tmp_path: Path) -> None:
        """A Verdict, tuples and paths passed as data are written as plain JSON."""
        verdict = Verdict(
            grounding=1, completeness=1, numeric=0.5, utility=0.75, threshold=0.5, decision="accept"
        )
        rec = AuditLog(tmp_path / "a.jsonl", fsync=False).append(
            event="judge",
            agent="judge",
            data={"verdict": verdict, "pages": (1, 2), "index": tmp_path},
        )
        assert rec["data"]["verdict"]["utility"] == 0.75 and rec["data"]["pages"] == [1, 2]
        assert rec["data"]["index"] == str(tmp_path)
        assert verify_log(tmp_path / "a.jsonl").ok

    def test_start_run_records_versions(self, tmp_path: Path) -> None:
        """The run-start record carries config hash, index version, model ids and code version."""
        settings = Settings()
        log = AuditLog(tmp_path / "a.jsonl", fsync=False)
        rec = log.start_run(
            settings, index_version="idx-42", models={"embedder": "all-MiniLM-L6-v2"}
        )
        p = rec["params"]
        assert rec["event"] == "run_start" and rec["run_id"] == log.run_id
        assert p["config_hash"] == config_hash(settings) and p["index_version"] == "idx-42"
        assert (
            p["models"] == {"embedder": "all-MiniLM-L6-v2"}
            and p["code_version"] == detect_code_version()
        )
        assert rec["data"]["config"]["judge"]["tau0"] == settings.judge.tau0
        given = log.start_run(settings, index_version="i", models={}, code_version="v9")
        assert given["params"]["code_version"] == "v9"

    def test_two_writers_one_file_interleave(self, tmp_path: Path) -> None:
        """Two AuditLog objects on one file continue one chain (the tail is re-read per append)."""
        a = AuditLog(tmp_path / "a.jsonl", run_id="a", fsync=False)
        b = AuditLog(tmp_path / "a.jsonl", run_id="b", fsync=False)
        for i in range(3):
            a.append(event="e", agent="x", data={"i": i})
            b.append(event="e", agent="y", data={"i": i})
        result = verify_log(tmp_path / "a.jsonl")
        assert result.ok and result.records == 6

    def test_threads_share_one_log(self, tmp_path: Path) -> None:
        """Eight threads appending through one AuditLog lose and duplicate nothing."""
        log = AuditLog(tmp_path / "a.jsonl", fsync=False)

        def work(t: int) -> None:
            for i in range(25):
                log.append(event="e", agent=f"t{t}", question_id=f"{t}-{i}")

        threads = [threading.Thread(target=work, args=(t,)) for t in range(8)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        recs = load_records(tmp_path / "a.jsonl")
        assert [r["seq"] for r in recs] == list(range(1, 201))
        assert len({r["question_id"] for r in recs}) == 200 and verify_log(tmp_path / "a.jsonl").ok

    def test_damaged_last_record_stops_writes(self, tmp_path: Path) -> None:
        """A last line that is a JSON object without seq/hash is refused with a clear AuditError."""
        from finqa.agents.errors import AuditError

        path = tmp_path / "a.jsonl"
        path.write_text('{"hello": 1}\n')
        with pytest.raises(AuditError, match="damaged"):
            AuditLog(path, fsync=False).append(event="e", agent="a")


class TestProcesses:
    """Several processes and crashes (spawned interpreters; small counts)."""

    def test_eight_processes_no_lost_or_duplicated_seq(self, tmp_path: Path) -> None:
        """8 processes x 15 fsynced appends: 120 records, seq 1..120, each append once, verifies."""
        r = concurrent_appends(tmp_path, processes=8, per_process=15, fsync=True)
        assert r["exit_codes"] == [0]
        assert r["records"] == r["expected"] == 120 and r["lost"] == 0 and r["duplicated_ids"] == 0
        assert r["seq_ok"] and r["duplicated_seq"] == 0 and r["verify"] == 0

    def test_sigkill_mid_run_then_chain_continues(self, tmp_path: Path) -> None:
        """A writer SIGKILLed in a loop (twice) leaves a log that verifies or is torn; the next append chains on."""
        r = sigkill_mid_run(tmp_path, min_records=10, rounds=2)
        assert all(status in (0, 2) for status in r["verify_after_kill"])
        assert r["verify_after_append"] == [0, 0] and r["chained"] == 2
        assert r["final_status"] == 0 and r["records"] >= 22

    def test_sigkill_holding_lock_mid_write(self, tmp_path: Path) -> None:
        """Killed after half a line while holding the lock: lock freed, verify says torn, next writer recovers."""
        r = sigkill_mid_write(tmp_path)
        assert r["lock_held_then_freed"]
        assert r["verify_torn"] == 2 and r["torn_line"] == 4
        assert r["verify_after"] == 0 and r["recovered"] == 1
        assert r["events_after"] == ["recovery", "stress", "stress"]
