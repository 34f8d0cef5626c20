"""Signed sign-offs: what a review's Ed25519 signature covers, and checking every review.

A review record (agent ``reviewer``, event ``review``) carries ``params.signature`` =
``{"alg": "ed25519", "key_id": ..., "value": base64}`` over `review_body(record)`: the record's
run and question ids, the verdict, the note and every other param (reviewer, the question's
head seq and hash at review time, ``signed_at``). The hash chain proves the record was not
edited; the signature proves who wrote it — whoever can append to the log cannot sign for a
reviewer without the reviewer's private key.

`check_reviews` flags a review as not verified when it is unsigned, signed by a key the trusted
keys file does not list for that reviewer, badly signed, a copy of an earlier signed review
(replayed), or when the question head it names is not that question's record in the chain.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from finqa.agents.types import Frozen
from finqa.audit.keys import ALGORITHM, TrustedKeys, verify_signature

__all__ = [
    "REVIEW_AGENT",
    "REVIEW_EVENT",
    "ReviewCheck",
    "check_reviews",
    "is_review",
    "review_body",
]

REVIEW_EVENT = "review"
REVIEW_AGENT = "reviewer"
_FORMAT = "finqa-review/1"


class ReviewCheck(Frozen):
    """One review record and whether its sign-off verifies (and, if not, why, in one line)."""

    seq: int
    ok: bool
    problem: str | None = None
    reviewer: str | None = None
    key_id: str | None = None


def is_review(rec: Mapping[str, Any]) -> bool:
    return rec.get("event") == REVIEW_EVENT and rec.get("agent") == REVIEW_AGENT


def review_body(
    run_id: object, question_id: object, verdict: object, params: Mapping[str, Any], note: object
) -> dict[str, Any]:
    """What a reviewer signs: everything the review says, bar the signature itself."""
    return {
        "format": _FORMAT,
        "run_id": run_id,
        "question_id": question_id,
        "verdict": verdict,
        "params": {k: v for k, v in params.items() if k != "signature"},
        "note": note,
    }


def _mapping(value: object) -> Mapping[str, Any]:
    return value if isinstance(value, Mapping) else {}


def _body_of(rec: Mapping[str, Any]) -> dict[str, Any]:
    params, data = _mapping(rec.get("params")), _mapping(rec.get("data"))
    return review_body(
        rec.get("run_id"), rec.get("question_id"), rec.get("decision"), params, data.get("note")
    )


def check_reviews(
    reviews: Sequence[Mapping[str, Any]],
    heads: Mapping[int, tuple[str, object, object]],
    trusted: TrustedKeys,
) -> tuple[ReviewCheck, ...]:
    """Check each review; `heads` maps seq -> (hash, run_id, question_id) of the chain's records."""
    out: list[ReviewCheck] = []
    seen: set[str] = set()
    for rec in reviews:
        params = _mapping(rec.get("params"))
        who = params.get("reviewer")
        sig = params.get("signature") if isinstance(params.get("signature"), Mapping) else None
        kid = sig.get("key_id") if sig else None
        problem = _problem(rec, params, sig, heads, trusted, seen)
        if sig is not None and isinstance(sig.get("value"), str):
            seen.add(sig["value"])
        out.append(
            ReviewCheck(
                seq=int(rec.get("seq") or 0),
                ok=problem is None,
                problem=problem,
                reviewer=str(who) if who is not None else None,
                key_id=str(kid) if kid is not None else None,
            )
        )
    return tuple(out)


def _problem(
    rec: Mapping[str, Any],
    params: Mapping[str, Any],
    sig: Mapping[str, Any] | None,
    heads: Mapping[int, tuple[str, object, object]],
    trusted: TrustedKeys,
    seen: set[str],
) -> str | None:
    seq, who = rec.get("seq"), params.get("reviewer")
    head_seq, head_hash = params.get("question_head_seq"), params.get("question_head_hash")
    head = heads.get(head_seq) if isinstance(head_seq, int) else None
    if head is None or head[0] != head_hash:
        return f"review at seq {seq}: its question head (seq {head_seq}) is not in the chain"
    if (head[1], head[2]) != (rec.get("run_id"), rec.get("question_id")):
        return f"review at seq {seq}: its question head (seq {head_seq}) is another question's"
    if sig is None or sig.get("alg") != ALGORITHM:
        return f"review at seq {seq} by {who}: not signed (no reviewer key)"
    key = trusted.find(sig.get("key_id"), "reviewer")
    if key is None or key.holder != " ".join(str(who or "").split()):
        where = trusted.source or "no trusted keys file configured"
        return (
            f"review at seq {seq} by {who}: signed with key {sig.get('key_id')}, which the trusted "
            f"keys ({where}) do not list for that reviewer"
        )
    if not verify_signature(trusted.public_bytes(key), _body_of(rec), sig.get("value")):
        return f"review at seq {seq} by {who}: bad signature (the review was not signed as written)"
    if sig.get("value") in seen:
        return f"review at seq {seq} by {who}: a copy of an earlier signed review (replayed)"
    return None
