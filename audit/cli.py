"""`finqa audit verify|checkpoint|show|export|recover|report|review`.

verify exits 0 (ok), 1 (tampered, or a review that does not verify), 2 (truncated or torn), or
3 when it could not check at all (log or checkpoint missing, no key to check a checkpoint with).
By default it checks the log against the latest automatic checkpoint (`<log>.checkpoints/`, or
`audit.checkpoint_dir`) and every review against the trusted keys (`audit.trusted_keys`).
report writes its page whatever the log's state and exits with verify's status (0, 1 or 2).
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from finqa.agents.errors import AuditError
from finqa.agents.terminal import printable
from finqa.audit.redact import redact, redact_text

__all__ = ["register"]

_LABELS = {0: "OK", 1: "TAMPERED", 2: "TRUNCATED/TORN"}
CANNOT_VERIFY = 3


def register(sub: Any) -> None:
    audit = sub.add_parser("audit", help="verify, checkpoint, review and export the audit log")
    asub = audit.add_subparsers(dest="audit_command", metavar="ACTION")
    audit.set_defaults(func=lambda args: (audit.print_help(), 2)[1])

    p = asub.add_parser(
        "verify",
        help="check the hash chain (exit 0 ok, 1 tampered, 2 truncated/torn, 3 cannot check)",
    )
    p.add_argument("log")
    _add_key_flags(p)
    p.set_defaults(func=_verify)

    p = asub.add_parser(
        "keygen", help="create an Ed25519 key (a reviewer's, or the machine's checkpoint key)"
    )
    p.add_argument("--out", required=True, help="the private key file to create (mode 0600)")
    p.add_argument("--holder", required=True, help="who holds it: the reviewer's name as signed")
    p.add_argument("--role", choices=["reviewer", "checkpoint"], default="reviewer")
    p.set_defaults(func=_keygen)

    p = asub.add_parser("checkpoint", help="write an HMAC'd head (key: $FINQA_AUDIT_HMAC_KEY)")
    p.add_argument("log")
    p.add_argument("--out", help="checkpoint file (default LOG.checkpoint.json; keep it apart)")
    p.set_defaults(func=_checkpoint)

    p = asub.add_parser("show", help="the life of a question, or a summary of runs and questions")
    p.add_argument("log")
    p.add_argument("--question-id", help="show every record of this question, by attempt")
    p.add_argument("--run-id", help="only records of this run")
    p.add_argument("--agent", help="only records of this agent")
    p.add_argument("--event", help="only records of this event")
    _add_key_flags(p)
    p.set_defaults(func=_show)

    p = asub.add_parser("export", help="export records to CSV or Parquet")
    p.add_argument("log")
    p.add_argument("--out", required=True, help="FILE.csv or FILE.parquet")
    p.add_argument("--question-id")
    p.add_argument("--run-id")
    p.set_defaults(func=_export)

    p = asub.add_parser(
        "report",
        help="a self-contained HTML review page, verified now (exit 0 ok, 1 tampered, 2 truncated/torn)",
    )
    p.add_argument("log")
    p.add_argument("--out", required=True, help="the HTML file to write (e.g. review.html)")
    p.add_argument("--run", dest="run_id", help="only this run")
    p.add_argument("--question-id", help="only this question")
    _add_key_flags(p)
    p.add_argument("--pdf", action="store_true", help="also print OUT.pdf with headless Chromium")
    p.set_defaults(func=_report)

    p = asub.add_parser("review", help="sign off a question: append a hash-chained review record")
    p.add_argument("log")
    p.add_argument("--question-id", required=True)
    p.add_argument("--verdict", required=True, choices=["approved", "flagged", "rejected"])
    p.add_argument("--reviewer", required=True, help="who signs off")
    p.add_argument("--note", help="why (kept in the log)")
    p.add_argument("--run", dest="run_id", help="the run of the question (default: its latest)")
    p.add_argument(
        "--key",
        metavar="FILE",
        help="the reviewer's Ed25519 private key (default: $FINQA_AUDIT_REVIEW_KEY); "
        "without one the review is unsigned and verify flags it",
    )
    p.set_defaults(func=_review)

    p = asub.add_parser("recover", help="record a torn last line now (the next append would)")
    p.add_argument("log")
    p.set_defaults(func=_recover)


def _add_key_flags(p: Any) -> None:
    p.add_argument(
        "--checkpoint",
        help="check against this checkpoint (default: the latest in the log's checkpoint folder)",
    )
    p.add_argument(
        "--no-checkpoint", action="store_true", help="check the chain alone (no checkpoint)"
    )
    p.add_argument("--trusted-keys", metavar="FILE", help="default: audit.trusted_keys")
    p.add_argument("--config", metavar="FILE", help="YAML config (audit.* keys)")


def _verify_args(args: argparse.Namespace) -> dict[str, Any]:
    """checkpoint, keys and reviewers for `verify_log`, from the flags and the config."""
    from finqa.agents.config import load_settings
    from finqa.agents.secrets import audit_hmac_key
    from finqa.audit.checkpoints import latest_checkpoint, verify_keys
    from finqa.audit.keys import load_trusted_keys

    audit = load_settings(args.config).audit
    trusted = args.trusted_keys or audit.trusted_keys
    checkpoint = args.checkpoint
    if checkpoint is None and not args.no_checkpoint:
        checkpoint = latest_checkpoint(args.log, audit.checkpoint_dir)
    return {
        "checkpoint": checkpoint,
        "keys": verify_keys(trusted, audit.checkpoint_key, audit_hmac_key()),
        "reviewers": load_trusted_keys(trusted),
    }


def _say(text: str, *, file: Any = None) -> None:
    """Print one or more lines for a terminal: secrets redacted, control characters escaped."""
    print(printable(redact_text(text)), file=file)


def _verify(args: argparse.Namespace) -> int:
    from finqa.audit.verify import verify_log

    try:
        result = verify_log(args.log, **_verify_args(args))
    except AuditError as exc:
        _say(f"finqa: error: {exc}", file=sys.stderr)
        return CANNOT_VERIFY
    label = _LABELS.get(result.status, str(result.status))
    _say(f"{label}: {args.log}: {result.message}")
    if result.excerpt:
        _say(f"  first bad line {result.first_bad_line}: {result.excerpt}")
    for check in result.reviews:
        if not check.ok:
            _say(f"  {check.problem}")
    if result.checkpoint_path is None and not args.no_checkpoint:
        _say("  no checkpoint: records cut from the end of the log cannot be detected")
    return result.status


def _keygen(args: argparse.Namespace) -> int:
    import json

    from finqa.audit.keys import generate_key

    key = generate_key(args.out)
    holder = " ".join(args.holder.split())
    _say(f"private key {key.path} (mode 0600; keep it to yourself), key id {key.key_id}")
    _say("add this entry to the verifier's trusted keys file:")
    entry = {"holder": holder, "role": args.role, "public_key": key.public_b64}
    print(json.dumps(entry, ensure_ascii=False))
    return 0


def _checkpoint(args: argparse.Namespace) -> int:
    from finqa.audit.checkpoint import read_checkpoint, write_checkpoint

    target = write_checkpoint(args.log, args.out)
    cp, _ = read_checkpoint(target)
    _say(
        f"checkpoint {target}: seq {cp['seq']}, {cp['lines']} lines, {cp['bytes']} bytes, hash {cp['hash'][:16]}…"
    )
    return 0


def _show(args: argparse.Namespace) -> int:
    from finqa.audit.review import load_records
    from finqa.audit.show import render_question, render_record, render_summary
    from finqa.audit.verify import verify_log

    try:  # as `audit verify` would: the latest checkpoint and the trusted keys of the config
        result = verify_log(args.log, **_verify_args(args))
    except AuditError as exc:
        result = verify_log(args.log)
        _say(f"finqa: warning: checked the chain alone: {exc}", file=sys.stderr)
    label = "" if result.ok else f"{_LABELS.get(result.status, '?')} — "
    _say(f"{args.log}: {label}{result.message}")
    found = load_records(args.log, run_id=args.run_id, agent=args.agent, event=args.event)
    records = [redact(rec) for rec in found]  # the log may predate a redaction rule
    if args.question_id:
        _say(render_question(records, args.question_id))
    elif args.agent or args.event:
        for rec in records:
            _say("\n".join(render_record(rec)))
    else:
        _say(render_summary(records))
    return 0


def _export(args: argparse.Namespace) -> int:
    from finqa.audit.review import export

    target = export(args.log, args.out, question_id=args.question_id, run_id=args.run_id)
    _say(f"exported {args.log} to {target}")
    return 0


def _recover(args: argparse.Namespace) -> int:
    from finqa.audit.writer import AuditLog

    record = AuditLog(args.log, run_id="recover").recover()
    if record is None:
        _say(f"{args.log}: no torn tail, nothing to recover")
    else:
        _say(f"{args.log}: seq {record['seq']}: {record['reason']}")
    return 0


def _report(args: argparse.Namespace) -> int:
    from finqa.audit.report_html import write_report

    target, data = write_report(
        args.log,
        args.out,
        run_id=args.run_id,
        question_id=args.question_id,
        pdf=args.pdf,
        **_verify_args(args),
    )
    v = data["verify"]
    _say(f"{v['label']}: {args.log}: {v['message']}")
    _say(f"report {target}: {len(data['questions'])} question(s), {target.stat().st_size} bytes")
    if args.pdf:
        _say(f"pdf {target.with_suffix('.pdf')}")
    return int(v["status"])  # as `audit verify`: 1 tampered, 2 truncated/torn (page written)


def _review(args: argparse.Namespace) -> int:
    import os

    from finqa.audit.signoff import review_question

    key = args.key or os.environ.get("FINQA_AUDIT_REVIEW_KEY") or None
    rec = review_question(
        args.log,
        args.question_id,
        args.verdict,
        args.reviewer,
        note=args.note,
        run_id=args.run_id,
        key=key,
    )
    _say(
        f"{args.log}: seq {rec['seq']}: question {args.question_id} {args.verdict} by "
        f"{rec['params']['reviewer']} (run {rec['run_id']})"
    )
    if key is None:
        _say(
            "finqa: warning: unsigned review (no --key): `finqa audit verify` flags it as not "
            "verified",
            file=sys.stderr,
        )
    if rec["params"]["log_status"] != 0:
        label = _LABELS.get(rec["params"]["log_status"], "?")
        _say(
            f"finqa: warning: the log did not verify when reviewed ({label}: "
            f"{rec['data']['log_verification']}); the review records that",
            file=sys.stderr,
        )
    return 0
