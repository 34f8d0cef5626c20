"""The audit log under stress: concurrency, SIGKILL, bit flips, structural edits, torn lines.

    python -m finqa.benchmarks.audit_stress [--processes 8] [--appends 200] [--dir /work/var/audit_stress]

Prints one line per figure and exits 1 if any property fails. The worker functions are
importable (multiprocessing "spawn") and reused by tests/test_audit_writer.py and
tests/test_audit_verify.py.
"""

from __future__ import annotations

import argparse
import fcntl
import multiprocessing as mp
import os
import signal
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Sequence
from multiprocessing.synchronize import Event
from pathlib import Path
from typing import Any

from finqa.agents.clock import FixedClock
from finqa.audit import AuditLog, verify_log, write_checkpoint
from finqa.audit.canonical import canonical_bytes, record_hash
from finqa.audit.review import load_records
from finqa.audit.verify import verify_bytes
from finqa.audit.writer import format_ts

__all__ = [
    "sample_log",
    "append_worker",
    "concurrent_appends",
    "sigkill_mid_run",
    "sigkill_mid_write",
    "bit_flips",
    "structural_edits",
    "main",
]

_KEY = b"stress-test-hmac-key"
_CTX = mp.get_context("spawn")


def sample_log(path: Path, records: int = 6) -> Path:
    """A small deterministic log with realistic payloads (unicode, floats, nested lists)."""
    path.unlink(missing_ok=True)
    log = AuditLog(path, run_id="sample", clock=FixedClock(), fsync=False)
    for i in range(records):
        log.append(
            event=("retrieval", "reasoning", "judge")[i % 3],
            agent=("retrieval", "reasoning", "judge")[i % 3],
            question_id=f"q{i // 3}",
            attempt=i % 3 + 1,
            params={
                "k": 10 * (i + 1),
                "route": "hybrid+filter",
                "filters": {"company": "Société Générale"},
            },
            scores={"utility": 0.1 * i + 0.05, "threshold": 0.5, "rerank": 1e-7 * i},
            decision=("retry", "accept")[i % 2],
            reason=f"attempt {i}: Δ utility ≥ τ",
            data={
                "items": [{"source_id": "S1", "doc_id": "3M_2018_10K", "pages": [47, 48]}],
                "answer": "$1,577M",
            },
        )
    return path


# ----------------------------------------------------------------------------- processes


def append_worker(path: str, worker: int, n: int, fsync: bool, start: Event | None = None) -> None:
    """Append `n` records as writer `worker` (a separate process)."""
    log = AuditLog(path, run_id=f"worker-{worker}", fsync=fsync)
    if start is not None:
        start.wait(30)
    for i in range(n):
        log.append(
            event="stress",
            agent=f"w{worker}",
            question_id=f"w{worker}-{i}",
            attempt=1,
            data={"i": i},
        )


def concurrent_appends(
    directory: Path, processes: int = 8, per_process: int = 50, fsync: bool = True
) -> dict[str, Any]:
    """`processes` writers x `per_process` appends to one log: seqs, records, verify, rate."""
    path = directory / "concurrent.jsonl"
    path.unlink(missing_ok=True)
    start = _CTX.Event()
    procs = [
        _CTX.Process(target=append_worker, args=(str(path), w, per_process, fsync, start))
        for w in range(processes)
    ]
    for p in procs:
        p.start()
    time.sleep(0.5)  # let the interpreters come up, so the appends overlap
    t0 = time.perf_counter()
    start.set()
    for p in procs:
        p.join(300)
    elapsed = time.perf_counter() - t0
    records = load_records(path)
    seqs = [r["seq"] for r in records]
    ids = Counter(r["question_id"] for r in records)
    expected = processes * per_process
    result = verify_log(path)
    return {
        "expected": expected,
        "records": len(records),
        "lost": expected - len(set(ids)),
        "duplicated_ids": sum(c - 1 for c in ids.values() if c > 1),
        "seq_ok": seqs == list(range(1, len(seqs) + 1)),
        "duplicated_seq": len(seqs) - len(set(seqs)),
        "verify": result.status,
        "exit_codes": sorted({p.exitcode for p in procs}, key=str),
        "seconds": elapsed,
        "appends_per_s": expected / elapsed if elapsed > 0 else float("inf"),
    }


def _loop_worker(path: str) -> None:
    log = AuditLog(path, run_id="victim", fsync=True)
    i = 0
    while True:
        log.append(
            event="stress",
            agent="victim",
            question_id=f"v-{i}",
            attempt=1,
            data={"i": i, "pad": "x" * 200},
        )
        i += 1


def sigkill_mid_run(directory: Path, min_records: int = 30, rounds: int = 1) -> dict[str, Any]:
    """`rounds` times: SIGKILL a writer appending in a loop, verify, append from a new writer,
    verify again. The same log carries on through every crash."""
    path = directory / "sigkill_run.jsonl"
    path.unlink(missing_ok=True)
    after_kill: list[int] = []
    after_append: list[int] = []
    chained = 0
    for _ in range(rounds):
        start_lines = path.read_bytes().count(b"\n") if path.exists() else 0
        proc = _CTX.Process(target=_loop_worker, args=(str(path),))
        proc.start()
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and (
            not path.exists() or path.read_bytes().count(b"\n") < start_lines + min_records
        ):
            time.sleep(0.005)
        if proc.pid is not None:
            os.kill(proc.pid, signal.SIGKILL)
        proc.join(10)
        before = verify_log(path)
        after_kill.append(before.status)
        last = load_records(path)[-1]
        nxt = AuditLog(path, run_id="resumed").append(
            event="resume", agent="orchestrator", reason="after SIGKILL"
        )
        chained += int(nxt["seq"] == last["seq"] + 1 + (before.status == 2))
        after_append.append(verify_log(path).status)
    final = verify_log(path)
    return {
        "rounds": rounds,
        "verify_after_kill": after_kill,
        "verify_after_append": after_append,
        "chained": chained,
        "records": final.head_seq,
        "recovered": final.recovered,
        "final_status": final.status,
    }


def torn_writer(path: str, ready: Event) -> None:
    """Take the lock, write half a record, fsync, then hang until killed (a crash mid-write)."""
    with AuditLog(path).locked_head() as (fd, seq, head):
        record: dict[str, Any] = {
            "seq": seq + 1, "ts": format_ts(FixedClock().now()), "run_id": "torn", "question_id": "t",
            "attempt": 1, "agent": "reasoning", "event": "reasoning", "params": {}, "scores": {},
            "decision": "answer", "reason": None, "data": {"answer": "x" * 300}, "prev_hash": head,
        }  # fmt: skip
        record["hash"] = record_hash(record)
        line = canonical_bytes(record) + b"\n"
        os.write(fd, line[: len(line) // 2])
        os.fsync(fd)
        ready.set()
        time.sleep(120)


def _lock_free(path: Path) -> bool:
    fd = os.open(path, os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        return True
    except BlockingIOError:
        return False
    finally:
        os.close(fd)


def sigkill_mid_write(directory: Path) -> dict[str, Any]:
    """SIGKILL a writer holding the lock after half a line: the lock is freed, verify says torn,
    the next writer (another process) records a recovery and continues the chain."""
    path = directory / "sigkill_write.jsonl"
    path.unlink(missing_ok=True)
    sample_log(path, 3)
    ready = _CTX.Event()
    victim = _CTX.Process(target=torn_writer, args=(str(path), ready))
    victim.start()
    ready.wait(60)
    held = not _lock_free(path)
    if victim.pid is not None:
        os.kill(victim.pid, signal.SIGKILL)
    victim.join(10)
    freed = _lock_free(path)
    torn = verify_log(path)
    nxt = _CTX.Process(target=append_worker, args=(str(path), 99, 2, True, None))
    nxt.start()
    nxt.join(60)
    after = verify_log(path)
    recs = load_records(path)
    return {
        "lock_held_then_freed": held and freed,
        "verify_torn": torn.status,
        "torn_line": torn.first_bad_line,
        "verify_after": after.status,
        "recovered": after.recovered,
        "events_after": [r["event"] for r in recs[3:]],
    }


# ----------------------------------------------------------------------------- tampering


def _status(data: bytes, checkpoint: Path | None = None) -> int:
    return verify_bytes(data, checkpoint, _KEY).status


def bit_flips(path: Path, positions: Sequence[int] | None = None) -> dict[str, Any]:
    """Flip every bit (or the bits of `positions`) of the log, one at a time; count detections."""
    original = path.read_bytes()
    statuses: Counter[int] = Counter()
    missed: list[tuple[int, int]] = []
    for pos in positions if positions is not None else range(len(original)):
        for bit in range(8):
            flipped = bytearray(original)
            flipped[pos] ^= 1 << bit
            st = _status(bytes(flipped))
            statuses[st] += 1
            if st == 0:
                missed.append((pos, bit))
    total = sum(statuses.values())
    return {
        "detected": total - statuses[0],
        "total": total,
        "by_status": dict(statuses),
        "missed": missed[:10],
    }


def structural_edits(path: Path, work: Path) -> dict[str, dict[str, Any]]:
    """Delete / swap / duplicate each line, and truncate at every byte (with a checkpoint)."""
    original = path.read_bytes()
    lines = original.splitlines(keepends=True)
    cp = write_checkpoint(path, work.with_suffix(".checkpoint.json"), key=_KEY)

    def tally(variants: list[bytes], checkpoint: Path | None = None) -> dict[str, Any]:
        st = Counter(_status(v, checkpoint) for v in variants)
        return {"detected": len(variants) - st[0], "total": len(variants), "by_status": dict(st)}

    deletions = [b"".join(lines[:i] + lines[i + 1 :]) for i in range(len(lines))]
    swaps = [
        b"".join(lines[:i] + [lines[i + 1], lines[i]] + lines[i + 2 :])
        for i in range(len(lines) - 1)
    ]
    dups = [b"".join(lines[: i + 1] + [lines[i]] + lines[i + 1 :]) for i in range(len(lines))]
    cuts = [original[:n] for n in range(len(original))]
    whole = [b"".join(lines[:i]) for i in range(len(lines))]
    return {
        "deletion_of_inner_record": tally(deletions[:-1]),
        "deletion_of_last_record_vs_checkpoint": tally(deletions[-1:], cp),
        "reorder_adjacent_swap": tally(swaps),
        "duplication": tally(dups),
        "truncation_every_byte_vs_checkpoint": tally(cuts, cp),
        "rewritten_log_vs_checkpoint": tally([_rewritten(path, work)], cp),
        "truncation_whole_records_no_checkpoint": tally(whole),
    }


def _rewritten(path: Path, work: Path) -> bytes:
    """The same log re-chained from scratch with one value changed (valid chain, new hashes)."""
    work.unlink(missing_ok=True)
    log = AuditLog(work, run_id="sample", clock=FixedClock(), fsync=False)
    for rec in load_records(path):
        scores = dict(rec["scores"], utility=0.99) if rec["seq"] == 1 else rec["scores"]
        log.append(event=rec["event"], agent=rec["agent"], question_id=rec["question_id"], attempt=rec["attempt"],
                   params=rec["params"], scores=scores, decision=rec["decision"], reason=rec["reason"], data=rec["data"])  # fmt: skip
    return work.read_bytes()


def torn_recovery(directory: Path) -> dict[str, Any]:
    """A half-written last line: verify says 2; an append records a recovery; verify says 0."""
    path = directory / "torn.jsonl"
    path.unlink(missing_ok=True)
    sample_log(path, 4)
    size = path.stat().st_size
    line = path.read_bytes().splitlines(keepends=True)[-1]
    with path.open("ab") as f:
        f.write(line[: len(line) // 3])
    torn = verify_log(path)
    nxt = AuditLog(path, run_id="after").append(event="resume", agent="orchestrator")
    after = verify_log(path)
    history_kept = path.read_bytes()[:size] == sample_log(directory / "ref.jsonl", 4).read_bytes()
    (directory / "ref.jsonl").unlink()
    return {
        "verify_torn": torn.status,
        "first_bad_line": torn.first_bad_line,
        "verify_after": after.status,
        "recovered": after.recovered,
        "next_seq": nxt["seq"],
        "history_unchanged": history_kept,
    }


# ----------------------------------------------------------------------------- report


def _line(name: str, ok: bool, text: str) -> str:
    return f"{'PASS' if ok else 'FAIL'}  {name:<40} {text}"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m finqa.benchmarks.audit_stress", description=__doc__
    )
    parser.add_argument("--processes", type=int, default=8)
    parser.add_argument("--appends", type=int, default=200, help="appends per process")
    parser.add_argument("--records", type=int, default=6, help="records in the bit-flip sample log")
    parser.add_argument("--kills", type=int, default=10, help="SIGKILL rounds on one log")
    parser.add_argument("--dir", default=None, help="work directory (default: a temp dir)")
    parser.add_argument("--no-fsync", action="store_true")
    args = parser.parse_args(argv)
    base = Path(args.dir) if args.dir else Path(tempfile.mkdtemp(prefix="finqa-audit-stress-"))
    base.mkdir(parents=True, exist_ok=True)
    out: list[str] = []
    ok_all = True

    def report(name: str, ok: bool, text: str) -> None:
        nonlocal ok_all
        ok_all = ok_all and ok
        out.append(_line(name, ok, text))
        print(out[-1], flush=True)

    c = concurrent_appends(base, args.processes, args.appends, fsync=not args.no_fsync)
    report(
        f"{args.processes} processes x {args.appends} appends",
        c["records"] == c["expected"]
        and c["lost"] == 0
        and c["duplicated_seq"] == 0
        and c["seq_ok"]
        and c["verify"] == 0,
        f"{c['records']}/{c['expected']} records, lost {c['lost']}, duplicated seq {c['duplicated_seq']}, "
        f"seq 1..N contiguous {c['seq_ok']}, verify exit {c['verify']}, "
        f"{c['appends_per_s']:.0f} appends/s ({'no ' if args.no_fsync else ''}fsync, {c['seconds']:.2f} s)",
    )
    k = sigkill_mid_run(base, rounds=args.kills)
    report(
        f"SIGKILL mid-run x {args.kills}",
        all(v in (0, 2) for v in k["verify_after_kill"])
        and k["final_status"] == 0
        and k["chained"] == k["rounds"],
        f"verify exit after each kill {dict(Counter(k['verify_after_kill']))}; next append continued the chain "
        f"{k['chained']}/{k['rounds']}; final log {k['records']} records, verify exit {k['final_status']}, "
        f"{k['recovered']} torn line(s) recovered",
    )
    w = sigkill_mid_write(base)
    report(
        "SIGKILL mid-write (holding lock)",
        w["lock_held_then_freed"]
        and w["verify_torn"] == 2
        and w["verify_after"] == 0
        and w["recovered"] == 1,
        f"lock held, freed by the kill {w['lock_held_then_freed']}; verify exit {w['verify_torn']} at line "
        f"{w['torn_line']}; the next writer process appended {w['events_after']}, verify exit "
        f"{w['verify_after']}",
    )
    sample = sample_log(base / "sample.jsonl", args.records)
    t0 = time.perf_counter()
    f = bit_flips(sample)
    report(
        "single-bit flips detected",
        f["detected"] == f["total"],
        f"{f['detected']}/{f['total']} (exit codes {f['by_status']}; {sample.stat().st_size} bytes, "
        f"{args.records} records, {time.perf_counter() - t0:.1f} s)",
    )
    s = structural_edits(sample, base / "edited.jsonl")
    for name, r in s.items():
        expect_all = name != "truncation_whole_records_no_checkpoint"  # undetectable by design
        ok = (r["detected"] == r["total"]) if expect_all else r["detected"] == 0
        report(
            name.replace("_", " "),
            ok,
            f"{r['detected']}/{r['total']} detected (exit codes {r['by_status']})",
        )
    t = torn_recovery(base)
    report(
        "torn last line recovery",
        t["verify_torn"] == 2
        and t["verify_after"] == 0
        and t["history_unchanged"]
        and t["recovered"] == 1,
        f"verify exit {t['verify_torn']} at line {t['first_bad_line']}; after next append (seq {t['next_seq']}) "
        f"verify exit {t['verify_after']}, {t['recovered']} torn line recovered, earlier bytes unchanged "
        f"{t['history_unchanged']}",
    )
    print(f"work dir: {base}")
    return 0 if ok_all else 1


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
