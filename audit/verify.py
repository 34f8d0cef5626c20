"""Verify an audit log: the hash chain, canonical form, seq order, torn lines, a checkpoint.

Exit-code semantics (``VerifyResult.status``):

* ``0`` — every line is a canonical record whose hash matches its content, ``seq`` runs
  1, 2, 3, ... and each ``prev_hash`` is the previous record's ``hash``; torn lines that a
  ``recovery`` record names exactly (offset, length, SHA-256) are allowed and counted;
  with a checkpoint, its head record sits at its line and byte offset.
* ``1`` — tampered: any edit (a byte that changes a value, or one that changes only the form,
  e.g. ``1e5`` -> ``1E5``), deletion, insertion, reordering or duplication of records, a bad
  line in the middle that no recovery record names, a forged checkpoint, or a rewritten log
  whose head no longer matches the checkpoint.
* ``2`` — truncated or torn: the log ends with a line without a newline or lines that are not
  JSON objects (a crash mid-write; the next append records a recovery), or it is shorter than
  the checkpoint (tail truncation). Without a checkpoint, removing whole records from the end
  cannot be detected — keep checkpoints apart from the log.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from finqa.agents.types import Frozen
from finqa.audit._fileio import Fragment, Source, iter_lines, parse_object, read_at, snapshot_size
from finqa.audit.canonical import (
    GENESIS_HASH,
    RECORD_FIELDS,
    canonical_bytes,
    record_hash,
    sha256_hex,
)
from finqa.audit.keys import TrustedKeys
from finqa.audit.review_check import ReviewCheck, check_reviews, is_review
from finqa.audit.signing import CheckpointKeys, read_checkpoint
from finqa.audit.writer import RECOVERY_EVENT

__all__ = [
    "VerifyResult",
    "verify_log",
    "verify_bytes",
    "verify_since",
    "LineObserver",
    "OK",
    "TAMPERED",
    "TRUNCATED",
]

OK, TAMPERED, TRUNCATED = 0, 1, 2
_EXCERPT = 240


class VerifyResult(Frozen):
    """What `verify_log` found; `status` is the CLI exit code (0 ok, 1 tampered, 2 truncated/torn)."""

    ok: bool
    status: int
    first_bad_line: int | None = None  # 1-based line number
    message: str
    records: int = 0
    lines: int = 0
    bytes: int = 0
    head_seq: int = 0
    head_hash: str = GENESIS_HASH
    recovered: int = 0  # torn lines named by recovery records
    excerpt: str = ""  # the start of the first bad line
    # lines 1..chain_lines form an intact chain the verdict vouches for (0 once a checkpoint
    # failed: a rewrite cannot be located, so nothing at or before it is vouched for)
    chain_lines: int = 0
    checkpoint_seq: int | None = None  # the checkpoint that matched
    checkpoint_lines: int = 0  # lines 1..N match that checkpoint
    checkpoint_path: str | None = None
    reviews: tuple[ReviewCheck, ...] = ()  # sign-offs checked (when trusted keys were given)


class _Bad(Exception):
    def __init__(self, status: int, line: int, message: str, excerpt: bytes = b"") -> None:
        super().__init__(message)
        self.status, self.line, self.message = status, line, message
        self.excerpt = excerpt[:_EXCERPT].decode("utf-8", "replace")


def _check_record(obj: dict[str, Any], content: bytes, lineno: int, seq: int, prev: str) -> None:
    keys = set(obj)
    if keys != set(RECORD_FIELDS):
        missing = sorted(set(RECORD_FIELDS) - keys)
        extra = sorted(keys - set(RECORD_FIELDS))
        raise _Bad(
            1,
            lineno,
            f"line {lineno}: wrong record fields (missing {missing}, unexpected {extra})",
            content,
        )
    try:
        canonical = canonical_bytes(obj)
    except (TypeError, ValueError):
        canonical = b""
    if canonical != content:
        raise _Bad(
            1, lineno, f"line {lineno}: not in canonical form (the line was edited)", content
        )
    if not isinstance(obj["hash"], str) or _body_hash(obj, content) != obj["hash"]:
        raise _Bad(
            1, lineno, f"line {lineno}: hash does not match the record's content (edited)", content
        )
    got = obj["seq"]
    if got != seq or isinstance(got, bool):
        raise _Bad(
            1,
            lineno,
            f"line {lineno}: seq {got!r} where {seq} was expected (records deleted, duplicated, "
            "inserted or reordered)",
            content,
        )
    if obj["prev_hash"] != prev:
        raise _Bad(
            1,
            lineno,
            f"line {lineno}: prev_hash is not the previous record's hash (chain broken: records "
            "deleted, inserted or reordered)",
            content,
        )


def _body_hash(obj: Mapping[str, Any], content: bytes) -> str:
    """`record_hash(obj)` from its line, already checked to be `canonical_bytes(obj)`: the
    canonical JSON without the top-level ``,"hash":"<hex>"`` entry (never the first key), cut
    out when it occurs exactly once (a JSON string cannot hold an unescaped quote); else the
    record is serialised again."""
    digest = obj["hash"]
    if digest.isascii() and digest.isalnum():
        needle = b',"hash":"' + digest.encode("ascii") + b'"'
        if content.count(needle) == 1:
            return sha256_hex(content.replace(needle, b"", 1))
    return record_hash(obj)


def _is_recovery(obj: Mapping[str, Any]) -> bool:
    return obj.get("event") == RECOVERY_EVENT and obj.get("agent") == "audit"


def _names_fragments(obj: Mapping[str, Any], pending: list[tuple[int, Fragment]]) -> bool:
    """True when `obj` is a recovery record naming exactly the pending torn lines."""
    data = obj.get("data")
    if not _is_recovery(obj) or not isinstance(data, dict):
        return False
    return bool(data.get("torn", []) == [f.as_json() for _, f in pending])


# Called with (line number, byte offset, content, has newline, parsed object or None) for every
# line before it is checked; it must not modify the object. Lets a reader verify and load the
# log in one pass (see `finqa.audit.report_data`).
LineObserver = Callable[[int, int, bytes, bool, "dict[str, Any] | None"], None]


class _Reviews:
    """The review records and question heads seen by a scan, for `check_reviews`."""

    def __init__(self) -> None:
        self.reviews: list[dict[str, Any]] = []
        self.heads: dict[int, tuple[str, object, object]] = {}

    def see(self, obj: dict[str, Any]) -> None:
        if is_review(obj):
            self.reviews.append(obj)
        elif obj.get("question_id") is not None:
            self.heads[obj["seq"]] = (obj["hash"], obj.get("run_id"), obj.get("question_id"))


def _scan(
    path: Source,
    size: int,
    checkpoint: Mapping[str, Any] | None,
    observe: LineObserver | None = None,
    reviews: _Reviews | None = None,
    start: tuple[int, int, int, str] = (0, 0, 1, GENESIS_HASH),
) -> VerifyResult:
    begin, lineno, seq, prev = start  # (byte, lines before it, next seq, previous hash)
    records, recovered, end = seq - 1, 0, begin
    cp_matched = 0
    pending: list[tuple[int, Fragment]] = []  # torn lines not yet named by a recovery record
    cp_lines = int(checkpoint["lines"]) if checkpoint else -1
    for offset, content, has_nl in iter_lines(path, size, begin):
        lineno += 1
        end = offset + len(content) + (1 if has_nl else 0)
        obj = parse_object(content) if has_nl else None
        if observe is not None:
            observe(lineno, offset, content, has_nl, obj)
        if obj is None:
            pending.append((lineno, Fragment(offset, len(content), sha256_hex(content))))
        else:
            if pending:
                first = pending[0][0]
                if not _names_fragments(obj, pending):
                    raise _Bad(
                        1,
                        first,
                        f"line {first}: not a JSON record, and no recovery record names it "
                        "(edited or inserted bytes)",
                        _line_bytes(path, pending[0][1]),
                    )
            _check_record(obj, content, lineno, seq, prev)
            if _is_recovery(obj) and not _names_fragments(obj, pending):
                raise _Bad(
                    1,
                    lineno,
                    f"line {lineno}: recovery record names torn bytes that are not there "
                    "(bytes deleted or moved)",
                    content,
                )
            recovered += len(pending)
            pending = []
            seq, prev, records = seq + 1, obj["hash"], records + 1
            if reviews is not None:
                reviews.see(obj)
        if lineno == cp_lines and has_nl and checkpoint is not None:
            same = (
                obj is not None
                and obj["seq"] == checkpoint["seq"]
                and obj["hash"] == checkpoint["hash"]
            )
            if not same or end != checkpoint["bytes"]:
                raise _Bad(
                    1,
                    lineno,
                    f"line {lineno}: does not match the checkpointed head (seq {checkpoint['seq']}, "
                    f"byte {checkpoint['bytes']}): the log was rewritten",
                    content,
                )
            cp_matched = lineno
    if pending:
        first_line, frag = pending[0]
        if checkpoint is not None and end < int(checkpoint["bytes"]):
            raise _Bad(
                2,
                first_line,
                f"line {first_line}: truncated mid-line: the log has {end} bytes, the checkpoint "
                f"{checkpoint['bytes']} bytes up to seq {checkpoint['seq']}",
                _line_bytes(path, frag),
            )
        raise _Bad(
            2,
            first_line,
            f"line {first_line}: torn last line ({sum(f.length for _, f in pending)} byte(s) from "
            f"byte {frag.offset} are not a complete record; a crash mid-write?). The next append "
            "records a recovery and continues the chain",
            _line_bytes(path, frag),
        )
    if checkpoint is not None and (lineno < cp_lines or end < int(checkpoint["bytes"])):
        raise _Bad(
            2,
            lineno + 1,
            f"truncated: the checkpoint has {cp_lines} lines / {checkpoint['bytes']} bytes up to seq "
            f"{checkpoint['seq']}, the log has {lineno} lines / {end} bytes up to seq {seq - 1}",
        )
    head = GENESIS_HASH if records == 0 else prev
    note = f", {recovered} torn line(s) recovered" if recovered else ""
    cp_note = f", checkpoint at seq {checkpoint['seq']} matches" if checkpoint else ""
    return VerifyResult(
        ok=True,
        status=OK,
        message=f"ok: {records} records, chain intact up to seq {seq - 1}{note}{cp_note}",
        records=records,
        lines=lineno,
        bytes=end,
        head_seq=seq - 1,
        head_hash=head,
        recovered=recovered,
        chain_lines=lineno,
        checkpoint_seq=int(checkpoint["seq"]) if checkpoint else None,
        checkpoint_lines=cp_matched,
    )


def verify_since(
    path: str | os.PathLike[str],
    checkpoint: str | os.PathLike[str],
    *,
    keys: CheckpointKeys | None = None,
) -> VerifyResult:
    """Verify only what follows a checkpoint: its signature, that the checkpointed line is still
    the record it names (seq, hash, content, at the same byte), then the chain from there on.
    What lies before it was verified when the checkpoint was written; `verify_log` checks all.
    Cost: the bytes appended since the checkpoint (the writer's end-of-run checkpoints)."""
    cp, forged = _load_checkpoint(checkpoint, None, keys)
    if forged is not None:
        return forged
    log = Path(path)
    size = snapshot_size(log)
    at, lines = int(cp["bytes"]), int(cp["lines"])
    where = str(checkpoint)
    if size < at:  # shorter than the checkpoint: cut or rewritten, the full pass tells which
        return _run(log, size, cp, None, None, checkpoint)
    content = _line_ending_at(log, at)
    obj = parse_object(content) if content is not None else None
    if (
        obj is None
        or obj.get("seq") != cp["seq"]
        or obj.get("hash") != cp["hash"]
        or canonical_bytes(obj) != content
        or record_hash(obj) != cp["hash"]
    ):
        return VerifyResult(
            ok=False,
            status=TAMPERED,
            first_bad_line=lines,
            message=f"line {lines}: does not match the checkpointed head (seq {cp['seq']}, "
            f"byte {at}): the log was rewritten",
            bytes=size,
            checkpoint_path=where,
        )
    try:
        found = _scan(log, size, None, start=(at, lines, int(cp["seq"]) + 1, str(cp["hash"])))
    except _Bad as bad:
        return VerifyResult(
            ok=False,
            status=bad.status,
            first_bad_line=bad.line,
            message=bad.message,
            excerpt=bad.excerpt,
            bytes=size,
            checkpoint_path=where,
        )
    return found.model_copy(
        update={
            "checkpoint_seq": int(cp["seq"]),
            "checkpoint_lines": lines,
            "checkpoint_path": where,
            "message": found.message + f", extends checkpoint at seq {cp['seq']}",
        }
    )


def _line_ending_at(path: Path, end: int) -> bytes | None:
    """The line whose newline is the byte before `end` (without it), or None."""
    if end <= 0 or read_at(path, end - 1, 1) != b"\n":
        return None
    start, step = end - 1, 64 * 1024
    while start > 0:
        lo = max(0, start - step)
        found = read_at(path, lo, start - lo).rfind(b"\n")
        if found >= 0:
            start = lo + found + 1
            break
        start = lo
    return read_at(path, start, end - 1 - start)


def _line_bytes(path: Source, frag: Fragment) -> bytes:
    return read_at(path, frag.offset, min(frag.length, _EXCERPT))


def verify_log(
    path: str | os.PathLike[str],
    checkpoint: str | os.PathLike[str] | None = None,
    key: bytes | None = None,
    *,
    observe: LineObserver | None = None,
    size: int | None = None,
    keys: CheckpointKeys | None = None,
    reviewers: TrustedKeys | None = None,
) -> VerifyResult:
    """Verify the log (and, given a checkpoint file, that nothing was cut or rewritten);
    `observe` sees each line as it is read, up to the first bad one. `size` verifies only the
    first `size` bytes (a snapshot taken earlier with `snapshot_size`); by default the log's
    size now, between whole appends. `keys` check the checkpoint's signature (`key`: the HMAC
    secret of a format-1 checkpoint). With `reviewers` (trusted keys), every review's signature
    and question head are checked too: one that does not verify makes the log TAMPERED (1)."""
    cp: dict[str, Any] | None = None
    if checkpoint is not None:
        cp, forged = _load_checkpoint(checkpoint, key, keys)
        if forged is not None:
            return forged
    log = Path(path)
    size = snapshot_size(log) if size is None else size
    return _run(log, size, cp, observe, reviewers, checkpoint)


def verify_bytes(
    data: bytes,
    checkpoint: str | os.PathLike[str] | None = None,
    key: bytes | None = None,
    *,
    keys: CheckpointKeys | None = None,
    reviewers: TrustedKeys | None = None,
) -> VerifyResult:
    """`verify_log` over log bytes in memory (same rules, same statuses)."""
    cp: dict[str, Any] | None = None
    if checkpoint is not None:
        cp, forged = _load_checkpoint(checkpoint, key, keys)
        if forged is not None:
            return forged
    return _run(data, len(data), cp, None, reviewers, checkpoint)


def _load_checkpoint(
    checkpoint: str | os.PathLike[str], key: bytes | None, keys: CheckpointKeys | None
) -> tuple[dict[str, Any], VerifyResult | None]:
    cp, signed = read_checkpoint(checkpoint, key, keys=keys)
    if signed:
        return cp, None
    return cp, VerifyResult(
        ok=False,
        status=TAMPERED,
        message=f"checkpoint {checkpoint}: its signature does not verify (forged or edited "
        "checkpoint, or signed with another key): nothing in the log is vouched for",
        checkpoint_path=str(checkpoint),
    )


def _run(
    source: Source,
    size: int,
    cp: Mapping[str, Any] | None,
    observe: LineObserver | None = None,
    reviewers: TrustedKeys | None = None,
    cp_path: str | os.PathLike[str] | None = None,
) -> VerifyResult:
    seen = _Reviews() if reviewers is not None else None
    where = str(cp_path) if cp_path is not None else None
    try:
        result = _scan(source, size, cp, observe, seen)
    except _Bad as bad:
        cp_lines = int(cp["lines"]) if cp else 0
        past_cp = cp is None or bad.line > cp_lines  # the checkpoint, if any, matched
        return VerifyResult(
            ok=False,
            status=bad.status,
            first_bad_line=bad.line,
            message=bad.message,
            excerpt=bad.excerpt,
            bytes=size,
            chain_lines=bad.line - 1 if past_cp else 0,
            checkpoint_seq=int(cp["seq"]) if cp and past_cp else None,
            checkpoint_lines=cp_lines if cp and past_cp else 0,
            checkpoint_path=where,
        )
    result = result.model_copy(update={"checkpoint_path": where})
    if seen is None or reviewers is None:
        return result
    checks = check_reviews(seen.reviews, seen.heads, reviewers)
    bad_reviews = [c for c in checks if not c.ok]
    if not bad_reviews:
        n = len(checks)
        extra = f", {n} review(s) signed by trusted keys" if n else ""
        return result.model_copy(update={"reviews": checks, "message": result.message + extra})
    more = f" (and {len(bad_reviews) - 1} more)" if len(bad_reviews) > 1 else ""
    return result.model_copy(
        update={
            "ok": False,
            "status": TAMPERED,
            "reviews": checks,
            "message": f"{bad_reviews[0].problem}{more}; chain intact up to seq {result.head_seq}",
        }
    )
