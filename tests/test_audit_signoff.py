"""Sign-off: `finqa audit review` / `review_question` / `FinQA.review` append chained review records."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from finqa.agents.clock import FixedClock
from finqa.agents.errors import AuditError
from finqa.audit import export, load_records, review_question, verify_log
from finqa.benchmarks.report_bench import write_fake_log
from finqa.orchestrator.cli import main


@pytest.fixture
def fake_log(tmp_path: Path) -> Path:
    """Five questions written by the real orchestrator and audit log."""
    return write_fake_log(tmp_path / "audit.jsonl", 5)


class TestReviewRecord:
    def test_appends_a_chained_review_record(self, fake_log: Path) -> None:
        """A review is a new record at the head of the chain, naming the reviewer, verdict and question head."""
        before = load_records(fake_log)
        rec = review_question(
            fake_log,
            "q00001",
            "approved",
            "  Ann  Lee ",
            note="figures tie out",
            clock=FixedClock(),
        )
        after = load_records(fake_log)
        assert after[:-1] == before and after[-1] == rec
        assert rec["seq"] == before[-1]["seq"] + 1 and rec["prev_hash"] == before[-1]["hash"]
        assert rec["event"] == "review" and rec["decision"] == "approved"
        assert rec["params"]["reviewer"] == "Ann Lee" and rec["data"]["note"] == "figures tie out"
        assert rec["run_id"] == "bench-run" and rec["question_id"] == "q00001"
        head = [r for r in before if r["question_id"] == "q00001"][-1]
        assert rec["params"]["question_head_hash"] == head["hash"]
        assert verify_log(fake_log).ok

    def test_later_review_keeps_earlier(self, fake_log: Path) -> None:
        """A second review is appended after the first; both stay in the log."""
        review_question(fake_log, "q00001", "flagged", "Ann")
        review_question(fake_log, "q00001", "rejected", "Bob")
        verdicts = [r["decision"] for r in load_records(fake_log, event="review")]
        assert verdicts == ["flagged", "rejected"] and verify_log(fake_log).ok

    def test_unknown_question_is_refused_and_nothing_appended(self, fake_log: Path) -> None:
        """A review of a question the log does not hold raises and leaves the file byte for byte."""
        raw = fake_log.read_bytes()
        with pytest.raises(AuditError, match="not in"):
            review_question(fake_log, "q99999", "approved", "Ann")
        assert fake_log.read_bytes() == raw

    def test_review_names_the_run_it_reviews(self, fake_log: Path) -> None:
        """With two runs holding a question, the review goes to the latest unless a run is named."""
        write_fake_log(fake_log, 2, run_id="rerun")
        assert review_question(fake_log, "q00001", "approved", "Ann")["run_id"] == "rerun"
        assert (
            review_question(fake_log, "q00001", "flagged", "Ann", run_id="bench-run")["run_id"]
            == "bench-run"
        )
        raw = fake_log.read_bytes()
        with pytest.raises(AuditError, match="in run nope"):
            review_question(fake_log, "q00001", "approved", "Ann", run_id="nope")
        assert fake_log.read_bytes() == raw

    @pytest.mark.parametrize(
        ("verdict", "reviewer", "note", "match"),
        [
            ("ok", "Ann", None, "unknown verdict"),
            ("approved", "  ", None, "reviewer"),
            ("approved", "Ann", "x" * 5000, "note"),
        ],
    )
    def test_bad_arguments_are_refused(
        self, fake_log: Path, verdict: str, reviewer: str, note: str | None, match: str
    ) -> None:
        """An unknown verdict, an empty reviewer or an overlong note is refused, nothing appended."""
        raw = fake_log.read_bytes()
        with pytest.raises(AuditError, match=match):
            review_question(fake_log, "q00001", verdict, reviewer, note=note)
        assert fake_log.read_bytes() == raw


class TestReviewCli:
    def test_review_command_then_show_and_export(
        self, fake_log: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
    ) -> None:
        """`finqa audit review` appends; `show` and `export` include the review."""
        args = [
            "audit",
            "review",
            str(fake_log),
            "--question-id",
            "q00000",
            "--verdict",
            "flagged",
            "--reviewer",
            "Ann",
            "--note",
            "check p.41",
        ]
        assert main(args) == 0
        assert "q00000 flagged by Ann" in capsys.readouterr().out
        assert main(["audit", "show", str(fake_log)]) == 0
        assert "review flagged by Ann" in capsys.readouterr().out
        assert main(["audit", "show", str(fake_log), "--question-id", "q00000"]) == 0
        assert "reviewer/review -> flagged" in capsys.readouterr().out
        out = export(fake_log, tmp_path / "x.csv")
        assert "check p.41" in out.read_text()

    def test_review_unknown_question_exits_nonzero(
        self, fake_log: Path, capsys: pytest.CaptureFixture[str]
    ) -> None:
        """An unknown question: one-line error, non-zero exit, log unchanged."""
        raw = fake_log.read_bytes()
        args = [
            "audit",
            "review",
            str(fake_log),
            "--question-id",
            "nope",
            "--verdict",
            "approved",
            "--reviewer",
            "Ann",
        ]
        assert main(args) != 0
        err = capsys.readouterr().err
        assert "nope" in err and "Traceback" not in err and fake_log.read_bytes() == raw

    def test_review_of_a_tampered_log_warns(
        self, fake_log: Path, capsys: pytest.CaptureFixture[str]
    ) -> None:
        """Reviewing a log that does not verify is recorded with its status and warned about."""
        raw = fake_log.read_bytes().replace(b'"budget":2', b'"budget":9', 1)
        fake_log.write_bytes(raw)
        args = [
            "audit",
            "review",
            str(fake_log),
            "--question-id",
            "q00000",
            "--verdict",
            "rejected",
            "--reviewer",
            "Ann",
        ]
        assert main(args) == 0
        assert "did not verify when reviewed (TAMPERED" in capsys.readouterr().err
        assert load_records(fake_log, event="review")[-1]["params"]["log_status"] == 1


class TestApiReview:
    def test_finqa_review_appends_to_its_log(self, fake_log: Path) -> None:
        """FinQA.review signs off a question of the log it writes to."""
        from finqa import FinQA
        from finqa.agents.config import Settings
        from finqa.audit import AuditLog

        qa = FinQA(Settings(), audit=AuditLog(fake_log, run_id="api", fsync=False))
        rec = qa.review("q00002", "rejected", "Cy", note="wrong year")
        assert rec["decision"] == "rejected" and load_records(fake_log)[-1]["hash"] == rec["hash"]

    def test_finqa_review_signs_with_a_key(self, fake_log: Path, reviewer_keys: Any) -> None:
        """FinQA.review(key=FILE) writes a sign-off that verifies against the trusted keys."""
        from finqa import FinQA
        from finqa.agents.config import Settings
        from finqa.audit import AuditLog

        keys, trusted = reviewer_keys
        qa = FinQA(Settings(), audit=AuditLog(fake_log, run_id="api", fsync=False))
        qa.review("q00002", "approved", "Ann", key=keys["Ann"].path)
        result = verify_log(fake_log, reviewers=trusted)
        assert result.ok and [c.reviewer for c in result.reviews] == ["Ann"]
