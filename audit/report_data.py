"""The data of a review report: the log verified now, its runs, its questions, reviews, leftovers.

`build_report_data(log)` reads the log once for verification (`verify_log`) and once for the
records, and returns one JSON-safe dict that `finqa.audit.report_html` embeds in the page:

* ``verify``: status (0 ok, 1 tampered, 2 truncated/torn), the message, the first bad line and
  seq, the last seq the chain vouches for, and the checkpoint's result;
* ``runs``: per run, the config hash and the settings that matter, models, prompt templates,
  code/index version, start and end;
* ``questions``: per (run, question), status, utility, attempts, company, filings, the latest
  review and the life attempt by attempt (see `finqa.audit._report_life`); a question answered
  across filings holds its legs' entries (``legs``) and their ``combination``
  (`finqa.audit._report_legs`) instead of listing each leg as a question;
* ``other`` (records outside any question, e.g. unknown kinds, recoveries) shown raw, and
  ``unparsed`` lines (torn or damaged), so nothing in the log is left out.

Records the verification does not vouch for are marked unverified: those at or after the
first bad line, and every record when a checkpoint failed (a rewrite cannot be located, so
nothing at or before it is vouched for). Records up to a matched checkpoint are marked
*checkpointed*; later ones are verified by the chain alone. A review is verified only when its
sign-off checks (`finqa.audit.review_check`) against the trusted keys.
The values of secret environment variables and URL credentials are scrubbed from everything
before it is returned.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from finqa.agents.errors import AuditError
from finqa.audit._fileio import iter_lines, parse_object, snapshot_size
from finqa.audit._report_legs import nest_legs, parent_of
from finqa.audit._report_life import build_question, raw_json
from finqa.audit.keys import TrustedKeys
from finqa.audit.redact import has_secret, redact, secret_values
from finqa.audit.signing import CheckpointKeys
from finqa.audit.verify import VerifyResult, verify_log
from finqa.audit.writer import RUN_START_EVENT, format_ts

__all__ = ["REPORT_FORMAT", "STATUS_LABELS", "build_report_data", "finqa_version"]

REPORT_FORMAT = "finqa-review-report/1"
STATUS_LABELS = {0: "VERIFIED", 1: "TAMPERED", 2: "TRUNCATED/TORN"}
_EXCERPT = 300


def finqa_version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("finqa")
    except PackageNotFoundError:
        return "unknown"


class _Reader:
    """Collects the lines `verify_log` reads, then reads on past the first bad line."""

    def __init__(self) -> None:
        self.lines: list[tuple[int, int, bytes, bool, dict[str, Any] | None]] = []
        self.end = 0  # byte offset after the last line seen

    def __call__(
        self, lineno: int, offset: int, content: bytes, has_nl: bool, obj: dict[str, Any] | None
    ) -> None:
        self.lines.append((lineno, offset, content, has_nl, obj))
        self.end = offset + len(content) + (1 if has_nl else 0)

    def rest(self, log: Path, size: int) -> None:
        lineno = self.lines[-1][0] if self.lines else 0
        for offset, content, has_nl in iter_lines(log, size, self.end):
            lineno += 1
            self(lineno, offset, content, has_nl, parse_object(content) if has_nl else None)


# Logs at least this large are verified in a second process while this one reads and builds
# the report (the two passes cost about the same; on one core they run one after the other).
PARALLEL_VERIFY_BYTES = 8 << 20


class _Keys:
    """What the report verifies with (picklable, for the verifying child process)."""

    def __init__(
        self,
        checkpoint: str | os.PathLike[str] | None,
        keys: CheckpointKeys | None,
        reviewers: TrustedKeys | None,
    ) -> None:
        self.checkpoint, self.keys = checkpoint, keys
        self.reviewers = reviewers if reviewers is not None else TrustedKeys()


def _checked(
    log: Path,
    how: _Keys,
    size: int,
    observe: _Reader | None = None,
) -> tuple[VerifyResult, dict[str, Any], _Reader | None]:
    """`verify_log` of the first `size` bytes, with the checkpoint's result for the banner (a
    checkpoint that cannot be checked, e.g. FINQA_AUDIT_HMAC_KEY unset, leaves the chain alone
    verified). Returns the observer that saw the verified pass (a fresh one after a retry)."""
    checkpoint = how.checkpoint
    cp: dict[str, Any] = {
        "given": False,
        "matches": None,
        "note": "none: records cut from the end of the log cannot be detected",
    }
    common: dict[str, Any] = {"observe": observe, "size": size, "reviewers": how.reviewers}
    if checkpoint is None:
        return verify_log(log, **common), cp, observe
    try:
        result = verify_log(log, checkpoint, keys=how.keys, **common)
    except AuditError as exc:
        note = f"{checkpoint} could not be checked: {exc}; the chain alone is verified"
        cp = {"given": True, "matches": None, "note": note}
        common["observe"] = observe = _Reader() if observe is not None else None
        return verify_log(log, **common), cp, observe
    matched = result.checkpoint_lines > 0
    cp = {
        "given": True,
        "matches": matched,
        "note": f"{checkpoint} (seq {result.checkpoint_seq}) matches"
        if matched
        else f"{checkpoint} does NOT match: nothing in the log is vouched for ({result.message})",
    }
    return result, cp, observe


def _checked_in_worker(log: Path, how: _Keys, size: int) -> tuple[VerifyResult, dict[str, Any]]:
    result, cp, _ = _checked(log, how, size)
    return result, cp


def _verify(log: Path, how: _Keys) -> tuple[VerifyResult, dict[str, Any], _Reader]:
    size = snapshot_size(log)
    if size >= PARALLEL_VERIFY_BYTES and (os.cpu_count() or 1) > 1:
        found = _verify_beside(log, how, size)
        if found is not None:
            return found
    result, cp, seen = _checked(log, how, size, _Reader())
    reader = seen if seen is not None else _Reader()
    if not result.ok:  # verification stopped at the first bad line (or never read the log)
        reader.rest(log, size)
    return result, cp, reader


def _verify_beside(
    log: Path, how: _Keys, size: int
) -> tuple[VerifyResult, dict[str, Any], _Reader] | None:
    """Verify in a child process while this one reads the same `size` bytes; None (verify here
    instead) when no child can be started or the two passes did not see the same head record."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor
    from concurrent.futures.process import BrokenProcessPool

    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if "fork" in methods else None)
    try:
        with ProcessPoolExecutor(max_workers=1, mp_context=context) as pool:
            future = pool.submit(_checked_in_worker, log, how, size)
            reader = _Reader()
            reader.rest(log, size)
            result, cp = future.result()
    except (BrokenProcessPool, OSError):
        return None
    if result.chain_lines and not _same_head(reader, result):
        return None  # the file changed under us between the passes: one pass decides
    return result, cp, reader


def _same_head(reader: _Reader, result: VerifyResult) -> bool:
    if result.head_seq == 0:
        return not any(obj is not None and "seq" in obj for *_, obj in reader.lines)
    for *_, obj in reversed(reader.lines):
        if obj is not None and obj.get("seq") == result.head_seq:
            return bool(obj.get("hash") == result.head_hash)
    return False


def _scan(
    reader: _Reader, result: VerifyResult
) -> tuple[list[dict[str, Any]], set[int], list[dict[str, Any]], int | None]:
    """Records (file order), the seqs the chain vouches for, unparsed lines, the bad line's seq."""
    records: list[dict[str, Any]] = []
    verified: set[int] = set()
    unparsed: list[dict[str, Any]] = []
    bad_seq: int | None = None
    bad = result.first_bad_line
    for lineno, offset, content, has_nl, obj in reader.lines:
        good = lineno <= result.chain_lines
        if obj is None or "seq" not in obj:
            unparsed.append(
                {
                    "line": lineno,
                    "offset": offset,
                    "bytes": len(content),
                    "excerpt": content[:_EXCERPT].decode("utf-8", "replace"),
                    "newline": has_nl,
                }
            )
            continue
        if lineno == bad and isinstance(obj.get("seq"), int):
            bad_seq = obj["seq"]
        records.append(obj)
        if good and isinstance(obj.get("seq"), int):
            verified.add(obj["seq"])
    return records, verified, unparsed, bad_seq


def _run_meta(run_id: str, recs: list[dict[str, Any]], verified: set[int]) -> dict[str, Any]:
    start = next((r for r in recs if r.get("event") == RUN_START_EVENT), None)
    p = dict(start.get("params") or {}) if start else {}
    config = (start.get("data") or {}).get("config") if start else None
    config = config if isinstance(config, Mapping) else {}
    llm, judge = config.get("llm") or {}, config.get("judge") or {}
    orch = config.get("orchestrator") or {}
    templates: dict[tuple[str, str], int] = {}
    for r in recs:
        if r.get("event") == "reasoning" and isinstance(r.get("params"), Mapping):
            key = (str(r["params"].get("template_id")), str(r["params"].get("template_hash")))
            templates[key] = templates.get(key, 0) + 1
    work = [r for r in recs if r.get("event") != "review"]
    times = [str(r.get("ts")) for r in (work or recs)]
    return {
        "run_id": run_id,
        "start": min(times) if times else None,
        "end": max(times) if times else None,
        "has_run_start": start is not None,
        "config_hash": p.get("config_hash"),
        "code_version": p.get("code_version"),
        "index_version": p.get("index_version"),
        "python": p.get("python"),
        "models": p.get("models"),
        "backend": llm.get("backend"),
        "model": llm.get("model"),
        "base_url": llm.get("base_url"),
        "thresholds": {k: judge.get(k) for k in ("tau0", "tau_lambda", "tau_min")},
        "weights": {k: judge.get(k) for k in ("w_grounding", "w_completeness", "w_numeric")},
        "budget": orch.get("budget"),
        "templates": [{"id": t, "hash": h, "uses": n} for (t, h), n in sorted(templates.items())],
        "records": len(recs),
        "verified": all(r.get("seq") in verified for r in recs),
    }


def build_report_data(
    log: str | os.PathLike[str],
    *,
    run_id: str | None = None,
    question_id: str | None = None,
    checkpoint: str | os.PathLike[str] | None = None,
    keys: CheckpointKeys | None = None,
    reviewers: TrustedKeys | None = None,
    now: datetime | None = None,
) -> dict[str, Any]:
    """Everything the report shows, JSON-safe, with secret values scrubbed. `checkpoint` and
    `keys` as for `verify_log`; `reviewers`: the trusted keys sign-offs are checked against
    (none: no review is shown as verified).

    Raises `AuditError` when the log is missing or when `run_id`/`question_id` match nothing."""
    path = Path(log)
    result, cp, reader = _verify(path, _Keys(checkpoint, keys, reviewers))
    size = reader.end
    records, verified, unparsed, bad_seq = _scan(reader, result)
    last_good = max(verified) if verified else 0
    runs_all = sorted({str(r.get("run_id")) for r in records})
    if run_id is not None and run_id not in runs_all:
        raise AuditError(f"run {run_id!r} is not in {path}: see `finqa audit show {path}`")
    chosen = [r for r in records if run_id is None or r.get("run_id") == run_id]
    groups: dict[tuple[str, str], list[dict[str, Any]]] = {}
    other: list[dict[str, Any]] = []
    by_run: dict[str, list[dict[str, Any]]] = {}
    for rec in chosen:
        by_run.setdefault(str(rec.get("run_id")), []).append(rec)
        if rec.get("question_id") is not None:
            groups.setdefault((str(rec.get("run_id")), str(rec["question_id"])), []).append(rec)
        elif rec.get("event") != RUN_START_EVENT:  # recoveries, record kinds unknown here
            seq = rec.get("seq")
            other.append({"seq": seq, "verified": seq in verified, "raw": raw_json(rec)})
    if question_id is not None:  # a question across filings comes with its legs
        groups = {k: v for k, v in groups.items() if question_id in (k[1], parent_of(k[1]))}
        if not groups:
            raise AuditError(
                f"question {question_id!r} is not in {path}"
                + (f" (run {run_id})" if run_id else "")
                + f": see `finqa audit show {path}` for the questions it holds"
            )
        keep = {k[0] for k in groups}
        by_run = {k: v for k, v in by_run.items() if k in keep}
        other = []
    checks = {c.seq: c for c in result.reviews}
    cp_seq = result.checkpoint_seq if result.checkpoint_lines else 0
    questions = nest_legs(
        [build_question(recs, verified, checks, cp_seq or 0) for recs in groups.values()]
    )
    status = result.status
    data: dict[str, Any] = {
        "format": REPORT_FORMAT,
        "generated": format_ts(now or datetime.now(UTC)),
        "finqa_version": finqa_version(),
        "log": {
            "path": str(path),
            "bytes": size,
            "records": len(records),
            "lines": len(records) + len(unparsed),
            "head_seq": result.head_seq if result.ok else last_good,
            "head_hash": result.head_hash if result.ok else _hash_of(records, last_good),
        },
        "verify": {
            "status": status,
            "label": STATUS_LABELS.get(status, str(status)),
            "ok": result.ok,
            "message": result.message,
            "first_bad_line": result.first_bad_line,
            "first_bad_seq": bad_seq
            if bad_seq is not None
            else (last_good + 1 if result.first_bad_line is not None else None),
            "verified_through_seq": last_good,
            "checkpointed_through_seq": cp_seq or 0,
            "review_problems": [c.problem for c in result.reviews if not c.ok],
            "recovered": result.recovered,
            "checkpoint": cp,
        },
        "filters": {"run_id": run_id, "question_id": question_id},
        "runs": [_run_meta(k, v, verified) for k, v in by_run.items()],
        "questions": questions,
        "other": other,
        "unparsed": unparsed if question_id is None else [],
    }
    return _scrubbed(data)


def _scrubbed(data: dict[str, Any]) -> dict[str, Any]:
    """`data` with secret env values and URL credentials redacted (walked only when its JSON
    holds one: a log written before a redaction rule existed still shows none)."""
    import json

    secrets = secret_values()
    text = json.dumps(data, ensure_ascii=False)
    escaped = [json.dumps(s, ensure_ascii=False)[1:-1] for s in secrets]
    if not has_secret(text, secrets) and not any(e in text for e in escaped):
        return data
    scrubbed: dict[str, Any] = redact(data, secrets)
    return scrubbed


def _hash_of(records: list[dict[str, Any]], seq: int) -> str | None:
    for rec in records:
        if rec.get("seq") == seq:
            return str(rec.get("hash"))
    return None
