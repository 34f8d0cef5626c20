"""Keyed sign-offs: reviews signed with the reviewer's Ed25519 key, checked by verify and the report."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from finqa.agents.errors import AuditError
from finqa.audit import load_records, review_question, verify_log
from finqa.audit.canonical import GENESIS_HASH
from finqa.audit.keys import SigningKey, generate_key, load_signing_key, load_trusted_keys
from finqa.audit.report_data import build_report_data
from finqa.audit.writer import AuditLog
from finqa.benchmarks.report_bench import write_fake_log
from finqa.orchestrator.cli import main


@pytest.fixture
def fake_log(tmp_path: Path) -> Path:
    """Three questions written by the real orchestrator and audit log."""
    return write_fake_log(tmp_path / "logs" / "audit.jsonl", 3)


@pytest.fixture
def ann(tmp_path: Path) -> SigningKey:
    """Ann Lee's reviewer key."""
    return generate_key(tmp_path / "keys" / "ann.key")


def _trust(path: Path, *entries: tuple[str, str, SigningKey]) -> Path:
    keys = [{"holder": h, "role": r, "public_key": k.public_b64} for h, r, k in entries]
    path.write_text(json.dumps({"keys": keys}), encoding="utf-8")
    return path


@pytest.fixture
def trusted(tmp_path: Path, ann: SigningKey) -> Path:
    """A trusted keys file listing Ann Lee's key as a reviewer's."""
    return _trust(tmp_path / "trusted.json", ("Ann Lee", "reviewer", ann))


def _forge_review(log: Path, params: dict[str, object], verdict: str = "approved") -> None:
    """Append a correctly chained review record by hand, as an attacker with file access can."""
    sink = AuditLog(log, run_id="bench-run")
    sink.append(
        event="review",
        agent="reviewer",
        question_id="q00001",
        params=params,
        decision=verdict,
        reason=f"{verdict} by {params.get('reviewer')}",
        data={"note": "", "log_verification": "ok"},
    )


class TestKeys:
    def test_generated_key_is_private_and_reloads_with_same_id(self, tmp_path: Path) -> None:
        """keygen writes a 0600 PEM file that loads back to the same key id, and never overwrites one."""
        key = generate_key(tmp_path / "k.key")
        assert (tmp_path / "k.key").stat().st_mode & 0o777 == 0o600
        assert load_signing_key(tmp_path / "k.key").key_id == key.key_id
        assert "PRIVATE" not in repr(key)
        with pytest.raises(AuditError, match="not overwriting"):
            generate_key(tmp_path / "k.key")

    def test_bad_trusted_keys_file_is_one_line_error(self, tmp_path: Path) -> None:
        """A trusted keys entry without a 32-byte public key is refused with the entry number."""
        bad = tmp_path / "t.json"
        bad.write_text('{"keys": [{"holder": "A", "role": "reviewer", "public_key": "eA=="}]}')
        with pytest.raises(AuditError, match="entry 1"):
            load_trusted_keys(bad)

    def test_missing_key_file_says_how_to_make_one(self, tmp_path: Path) -> None:
        """Loading a key file that does not exist names `finqa audit keygen`."""
        with pytest.raises(AuditError, match="keygen"):
            load_signing_key(tmp_path / "none.key")


class TestSignedReview:
    def test_signed_review_verifies_against_trusted_keys(
        self, fake_log: Path, ann: SigningKey, trusted: Path
    ) -> None:
        """A review signed with the reviewer's listed key verifies (exit 0 semantics)."""
        rec = review_question(fake_log, "q00001", "approved", "Ann Lee", note="ok", key=ann)
        assert rec["params"]["signature"]["key_id"] == ann.key_id
        result = verify_log(fake_log, reviewers=load_trusted_keys(trusted))
        assert result.ok and [c.ok for c in result.reviews] == [True]

    def test_forged_unsigned_review_is_flagged(self, fake_log: Path, trusted: Path) -> None:
        """A hand-written, correctly chained review with no signature makes verify report TAMPERED."""
        head = [r for r in load_records(fake_log) if r["question_id"] == "q00001"][-1]
        _forge_review(
            fake_log,
            {
                "reviewer": "Chief Compliance Officer",
                "verdict": "approved",
                "question_head_seq": head["seq"],
                "question_head_hash": head["hash"],
            },
        )
        assert verify_log(fake_log).ok  # the chain alone cannot tell
        result = verify_log(fake_log, reviewers=load_trusted_keys(trusted))
        assert result.status == 1 and "not signed" in result.message

    def test_review_signed_by_untrusted_key_is_flagged(
        self, fake_log: Path, tmp_path: Path, trusted: Path
    ) -> None:
        """A review signed with a key the trusted keys do not list for that name does not verify."""
        mallory = generate_key(tmp_path / "mallory.key")
        review_question(fake_log, "q00001", "approved", "Ann Lee", key=mallory)
        result = verify_log(fake_log, reviewers=load_trusted_keys(trusted))
        assert result.status == 1 and "do not list" in result.message

    def test_key_listed_for_another_reviewer_does_not_sign_for_ann(
        self, fake_log: Path, tmp_path: Path, ann: SigningKey
    ) -> None:
        """Bob's trusted key cannot sign a review in Ann's name."""
        bob = generate_key(tmp_path / "bob.key")
        trust = _trust(tmp_path / "t.json", ("Ann Lee", "reviewer", ann), ("Bob", "reviewer", bob))
        review_question(fake_log, "q00001", "approved", "Ann Lee", key=bob)
        assert verify_log(fake_log, reviewers=load_trusted_keys(trust)).status == 1

    def test_edited_signed_content_breaks_signature(
        self, fake_log: Path, ann: SigningKey, trusted: Path
    ) -> None:
        """A signed review copied with another verdict and re-chained fails its signature."""
        rec = review_question(fake_log, "q00001", "rejected", "Ann Lee", key=ann)
        _forge_review(fake_log, dict(rec["params"]), verdict="approved")
        result = verify_log(fake_log, reviewers=load_trusted_keys(trusted))
        assert result.status == 1 and "bad signature" in result.message

    def test_replayed_review_is_flagged(
        self, fake_log: Path, ann: SigningKey, trusted: Path
    ) -> None:
        """An earlier signed review appended again verbatim (to supersede a later one) is flagged."""
        first = review_question(fake_log, "q00001", "approved", "Ann Lee", key=ann)
        review_question(fake_log, "q00001", "rejected", "Ann Lee", key=ann)
        _forge_review(fake_log, dict(first["params"]), verdict="approved")
        assert load_records(fake_log)[-1]["params"]["signature"] == first["params"]["signature"]
        result = verify_log(fake_log, reviewers=load_trusted_keys(trusted))
        assert result.status == 1 and "replayed" in result.message

    def test_review_of_head_not_in_chain_is_flagged(
        self, fake_log: Path, ann: SigningKey, trusted: Path
    ) -> None:
        """A review naming a question head seq/hash that is not in the chain does not verify."""
        _forge_review(
            fake_log,
            {
                "reviewer": "Ann Lee",
                "verdict": "approved",
                "question_head_seq": 99999,
                "question_head_hash": GENESIS_HASH,
            },
        )
        result = verify_log(fake_log, reviewers=load_trusted_keys(trusted))
        assert result.status == 1 and "not in the chain" in result.message


class TestSignedReviewCli:
    def test_review_key_verify_and_report(
        self,
        fake_log: Path,
        ann: SigningKey,
        trusted: Path,
        tmp_path: Path,
        capsys: pytest.CaptureFixture[str],
    ) -> None:
        """`audit review --key` signs; verify with the trusted keys exits 0; the report shows it verified."""
        base = [str(fake_log), "--question-id", "q00001", "--verdict", "approved"]
        assert (
            main(["audit", "review", *base, "--reviewer", "Ann Lee", "--key", str(ann.path)]) == 0
        )
        assert main(["audit", "verify", str(fake_log), "--trusted-keys", str(trusted)]) == 0
        out = tmp_path / "r.html"
        code = main(
            ["audit", "report", str(fake_log), "--out", str(out), "--trusted-keys", str(trusted)]
        )
        assert code == 0
        data = build_report_data(fake_log, reviewers=load_trusted_keys(trusted))
        q = next(q for q in data["questions"] if q["qid"] == "q00001")
        assert q["review"]["verdict"] == "approved" and q["review"]["verified"]

    def test_unsigned_review_exits_1_and_report_shows_unverified(
        self, fake_log: Path, trusted: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
    ) -> None:
        """An unsigned review: verify exits 1 naming it, report exits 1 and its state is unverified."""
        base = [str(fake_log), "--question-id", "q00001", "--verdict", "approved"]
        assert main(["audit", "review", *base, "--reviewer", "Ann Lee"]) == 0
        assert "unsigned review" in capsys.readouterr().err
        assert main(["audit", "verify", str(fake_log), "--trusted-keys", str(trusted)]) == 1
        assert "not signed" in capsys.readouterr().out
        out = tmp_path / "r.html"
        code = main(
            ["audit", "report", str(fake_log), "--out", str(out), "--trusted-keys", str(trusted)]
        )
        assert code == 1 and out.is_file()
        data = build_report_data(fake_log, reviewers=load_trusted_keys(trusted))
        q = next(q for q in data["questions"] if q["qid"] == "q00001")
        assert q["review"]["verdict"] == "unverified"

    def test_keygen_prints_trusted_entry(
        self, tmp_path: Path, capsys: pytest.CaptureFixture[str]
    ) -> None:
        """`audit keygen` writes the key and prints the JSON entry for the trusted keys file."""
        key = tmp_path / "cco.key"
        assert main(["audit", "keygen", "--out", str(key), "--holder", "C. Officer"]) == 0
        entry = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
        assert entry["holder"] == "C. Officer" and entry["role"] == "reviewer"
        assert load_signing_key(key).public_b64 == entry["public_key"]
