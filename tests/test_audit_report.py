"""`finqa audit report` data and page: verification banner data, questions, lives, bad input."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from finqa.agents.errors import AuditError
from finqa.audit import AuditLog, report_data
from finqa.audit.report_data import build_report_data
from finqa.audit.report_html import embed_json, render_html, write_report
from finqa.audit.signoff import review_question
from finqa.benchmarks.report_bench import HOSTILE, write_fake_log
from finqa.orchestrator.cli import main


@pytest.fixture
def fake_log(tmp_path: Path) -> Path:
    """Ten questions of every kind written by the real orchestrator and audit log."""
    return write_fake_log(tmp_path / "audit.jsonl", 10)


def _data_block(html: str) -> dict[str, object]:
    match = re.search(r'<script type="application/json" id="finqa-data">(.*?)</script>', html, re.S)
    assert match is not None
    parsed: dict[str, object] = json.loads(match.group(1))
    return parsed


class TestReportData:
    def test_questions_have_status_attempts_company_and_filings(self, fake_log: Path) -> None:
        """Each question carries its final status, utility, attempt count, company and cited filings."""
        data = build_report_data(fake_log)
        by_id = {q["qid"]: q for q in data["questions"]}
        assert len(by_id) == 10
        assert by_id["q00000"]["status"] == "accepted" and by_id["q00000"]["attempts"] == 1
        assert by_id["q00001"]["status"] == "accepted" and by_id["q00001"]["attempts"] == 2
        assert by_id["q00002"]["status"] == "best_effort" and by_id["q00002"]["attempts"] == 3
        assert (
            by_id["q00003"]["status"] == "abstained" and "out of corpus" in by_id["q00003"]["flags"]
        )
        assert by_id["q00004"]["status"] == "failed" and "failed" in by_id["q00004"]["flags"]
        assert by_id["q00001"]["company"] == "Nike"
        assert by_id["q00001"]["filings"] == ["NIKE_2023_10K"]

    def test_life_records_calculations_reexecuted_and_changes(self, fake_log: Path) -> None:
        """An attempt shows retrieval, quoted evidence, the re-executed calculation, judge scores and what changed."""
        q = next(q for q in build_report_data(fake_log)["questions"] if q["qid"] == "q00001")
        first, second = q["life"]
        assert first["retrieval"]["k"] == 10 and second["retrieval"]["k"] == 20
        calc = second["reasoning"]["calculations"][0]
        assert calc["reexec_ok"] and calc["reexecuted"] == pytest.approx(3.5001, abs=1e-3)
        assert (
            calc["operands"][0]["doc_id"] == "NIKE_2023_10K" and calc["operands"][0]["page"] == 42
        )
        assert second["reasoning"]["citations"][0]["quote"].startswith("Net sales 32,765")
        assert first["judge"]["diagnosis"] == "both" and first["decision"]["decision"] == "retry"
        assert "retrieval k: 10 → 20" in second["changes"]

    def test_a_wrong_recorded_result_does_not_match_on_reexecution(self, tmp_path: Path) -> None:
        """A calculation whose recorded result is not what its operands give is shown as not matching."""
        log = AuditLog(tmp_path / "a.jsonl", run_id="r", fsync=False)
        calc = {
            "expression": "a / b",
            "result": 9.0,
            "operands": [{"name": "a", "value": 1.0}, {"name": "b", "value": 2.0}],
        }
        log.append(
            event="question_start", agent="orchestrator", question_id="q", data={"question": "?"}
        )
        log.append(event="reasoning", agent="reasoning", question_id="q", attempt=1, data={"answer": "9", "calculations": [calc]})  # fmt: skip
        q = build_report_data(log.path)["questions"][0]
        got = q["life"][0]["reasoning"]["calculations"][0]
        assert got["reexecuted"] == 0.5 and got["reexec_ok"] is False

    def test_run_metadata(self, fake_log: Path) -> None:
        """The run shows config hash, backend, thresholds, budget and the prompt templates used."""
        run = build_report_data(fake_log)["runs"][0]
        assert run["run_id"] == "bench-run" and len(run["config_hash"]) == 64
        assert run["backend"] == "offline" and run["budget"] == 2
        assert run["thresholds"] == {"tau0": 0.5, "tau_lambda": 0.1, "tau_min": 0.3}
        assert {t["id"] for t in run["templates"]} >= {"standard.v1", "conservative.v1"}
        assert run["start"] <= run["end"]

    def test_question_filter(self, fake_log: Path) -> None:
        """--question-id keeps only that question."""
        data = build_report_data(fake_log, question_id="q00002")
        assert [q["qid"] for q in data["questions"]] == ["q00002"]

    def test_run_filter(self, fake_log: Path) -> None:
        """--run keeps only that run's questions and settings."""
        from finqa.benchmarks.report_bench import write_fake_log as more

        more(fake_log, 2, run_id="second-run")
        data = build_report_data(fake_log, run_id="second-run")
        assert [r["run_id"] for r in data["runs"]] == ["second-run"]
        assert {q["run_id"] for q in data["questions"]} == {"second-run"} and len(
            data["questions"]
        ) == 2

    def test_every_record_is_accounted_for(self, fake_log: Path) -> None:
        """Each record of the log appears in the report: in a run, a question or the leftovers."""
        log = AuditLog(fake_log, run_id="x", fsync=False)
        log.append(event="index_rebuilt", agent="indexer_v9")
        data = build_report_data(fake_log)
        seqs: set[int] = set()
        for q in data["questions"]:
            seqs.update(range(q["seqs"][0], q["seqs"][1] + 1))
        seqs.update(o["seq"] for o in data["other"])
        starts = data["log"]["records"] - len(seqs)
        assert starts == sum(r["has_run_start"] for r in data["runs"]) == 1
        assert max(seqs) == data["log"]["head_seq"]

    def test_unknown_question_id_is_an_error(self, fake_log: Path) -> None:
        """A --question-id the log does not hold is a one-line error, no report."""
        with pytest.raises(AuditError, match="not in"):
            build_report_data(fake_log, question_id="nope")

    def test_unknown_run_is_an_error(self, fake_log: Path) -> None:
        """A --run the log does not hold is a one-line error."""
        with pytest.raises(AuditError, match="run 'other'"):
            build_report_data(fake_log, run_id="other")


class TestBadLogs:
    @pytest.fixture(params=["verified here", "verified beside"], autouse=True)
    def verify_mode(self, request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
        """Every bad log is reported the same whether the chain is verified in this process or beside it."""
        if request.param == "verified beside":
            monkeypatch.setattr(report_data, "PARALLEL_VERIFY_BYTES", 0)
            monkeypatch.setattr(report_data.os, "cpu_count", lambda: 2)

    def test_tampered_log_names_first_bad_seq_and_unverifies_the_rest(self, fake_log: Path) -> None:
        """An edited record makes the report say tampered at its seq; it and later records are unverified."""
        lines = fake_log.read_bytes().splitlines(keepends=True)
        target = next(
            i
            for i, ln in enumerate(lines)
            if b'"question_id":"q00002"' in ln and b'"event":"judge"' in ln
        )
        lines[target] = lines[target].replace(b'"utility":0.1', b'"utility":0.9')
        fake_log.write_bytes(b"".join(lines))
        seq = json.loads(lines[target])["seq"]
        data = build_report_data(fake_log)
        v = data["verify"]
        assert v["status"] == 1 and v["label"] == "TAMPERED"
        assert v["first_bad_seq"] == seq and v["verified_through_seq"] == seq - 1
        q2 = next(q for q in data["questions"] if q["qid"] == "q00002")
        q0 = next(q for q in data["questions"] if q["qid"] == "q00000")
        assert q2["verified"] is False and "unverified" in q2["flags"]
        assert q0["verified"] is True
        assert all(not q["verified"] for q in data["questions"] if q["qid"] > "q00002")

    def test_torn_last_line(self, fake_log: Path) -> None:
        """A torn last line is reported as truncated/torn and shown among the lines that are not records."""
        with fake_log.open("ab") as f:
            f.write(b'{"seq": 999, "event": "jud')
        data = build_report_data(fake_log)
        assert data["verify"]["status"] == 2 and data["verify"]["label"] == "TRUNCATED/TORN"
        assert data["unparsed"][-1]["newline"] is False
        assert all(q["verified"] for q in data["questions"])

    def test_empty_log(self, tmp_path: Path) -> None:
        """An empty log gives a verified report with no questions."""
        empty = tmp_path / "empty.jsonl"
        empty.write_bytes(b"")
        out = tmp_path / "r.html"
        _, data = write_report(empty, out)
        assert data["questions"] == [] and data["verify"]["status"] == 0
        assert _data_block(out.read_text())["questions"] == []

    def test_unknown_record_kinds_are_shown_raw(self, fake_log: Path) -> None:
        """Records of kinds this finqa does not know are kept raw, in their question or at the end."""
        log = AuditLog(fake_log, run_id="bench-run", fsync=False)
        log.append(
            event="citation_audit",
            agent="verifier_v9",
            question_id="q00000",
            attempt=1,
            data={"x": 1},
        )
        log.append(event="index_rebuilt", agent="indexer_v9", data={"shards": 4})
        data = build_report_data(fake_log)
        q0 = next(q for q in data["questions"] if q["qid"] == "q00000")
        assert "citation_audit" in q0["life"][0]["other"][0]["raw"]
        assert "unknown records" in q0["flags"]
        assert any("index_rebuilt" in o["raw"] for o in data["other"])
        assert data["verify"]["status"] == 0

    def test_missing_log(self, tmp_path: Path) -> None:
        """A missing log is a one-line error."""
        with pytest.raises(AuditError, match="not found"):
            build_report_data(tmp_path / "none.jsonl")

    def test_checkpoint_without_key_is_noted_not_fatal(
        self, fake_log: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        """A checkpoint that cannot be checked (no key) is noted; the chain is still verified."""
        from finqa.audit import write_checkpoint

        cp = write_checkpoint(fake_log, tmp_path / "cp.json", key=b"k" * 16)
        monkeypatch.delenv("FINQA_AUDIT_HMAC_KEY", raising=False)
        v = build_report_data(fake_log, checkpoint=cp)["verify"]
        assert v["status"] == 0 and v["checkpoint"]["matches"] is None
        assert "could not be checked" in v["checkpoint"]["note"]

    def test_checkpoint_matches(
        self, fake_log: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        """A checkpoint of this log, with its key, is reported as matching."""
        from finqa.audit import write_checkpoint

        monkeypatch.setenv("FINQA_AUDIT_HMAC_KEY", "a-test-key-123")
        cp = write_checkpoint(fake_log, tmp_path / "cp.json")
        assert build_report_data(fake_log, checkpoint=cp)["verify"]["checkpoint"]["matches"] is True

    def test_forged_checkpoint_leaves_nothing_verified(
        self, fake_log: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        """A checkpoint whose HMAC does not match turns the report tampered with no record verified."""
        from finqa.audit import write_checkpoint

        cp = write_checkpoint(fake_log, tmp_path / "cp.json", key=b"another-key-0001")
        monkeypatch.setenv("FINQA_AUDIT_HMAC_KEY", "the-real-key-0002")
        data = build_report_data(fake_log, checkpoint=cp)
        assert data["verify"]["status"] == 1 and data["verify"]["checkpoint"]["matches"] is False
        assert data["questions"] and not any(q["verified"] for q in data["questions"])

    def test_edit_after_bad_line_still_loads_later_records(self, fake_log: Path) -> None:
        """Records after a tampered line are still shown (as unverified), none dropped."""
        before = len(build_report_data(fake_log)["questions"])
        raw = fake_log.read_bytes().split(b"\n")
        raw[3] = raw[3].replace(b'"attempt":1', b'"attempt":2', 1)
        fake_log.write_bytes(b"\n".join(raw))
        data = build_report_data(fake_log)
        assert len(data["questions"]) == before and data["verify"]["first_bad_line"] == 4


class TestParallelVerify:
    def test_same_report_when_verified_in_a_second_process(
        self, fake_log: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        """A large log is verified in a child process and the report is identical to a one-process build."""
        from datetime import UTC, datetime

        now = datetime(2026, 1, 2, tzinfo=UTC)
        alone = build_report_data(fake_log, now=now)
        calls: list[object] = []
        beside = report_data._verify_beside

        def spy(*args: object) -> object:
            got = beside(*args)  # type: ignore[arg-type]
            calls.append(got)
            return got

        monkeypatch.setattr(report_data, "PARALLEL_VERIFY_BYTES", 0)
        monkeypatch.setattr(report_data.os, "cpu_count", lambda: 2)
        monkeypatch.setattr(report_data, "_verify_beside", spy)
        assert build_report_data(fake_log, now=now) == alone
        assert len(calls) == 1 and calls[0] is not None

    def test_a_log_changed_between_the_passes_is_verified_in_one_pass(self, fake_log: Path) -> None:
        """When the reader's head record is not the one the verifier vouched for, the parallel result is dropped."""
        from finqa.audit._fileio import snapshot_size
        from finqa.audit.verify import verify_log

        result = verify_log(fake_log)
        reader = report_data._Reader()
        reader.rest(fake_log, snapshot_size(fake_log))
        assert report_data._same_head(reader, result)
        lineno, offset, content, has_nl, obj = reader.lines[-1]
        assert obj is not None
        reader.lines[-1] = (lineno, offset, content, has_nl, {**obj, "hash": "0" * 64})
        assert not report_data._same_head(reader, result)


class TestPageSafety:
    def test_embedded_json_cannot_close_the_script(self) -> None:
        """'</script>' and '<!--' in data are escaped in the JSON block and round-trip unchanged."""
        text = embed_json({"q": HOSTILE})
        assert "<" not in text and ">" not in text
        assert json.loads(text) == {"q": HOSTILE}

    def test_hostile_text_only_inside_the_data_block(self, tmp_path: Path) -> None:
        """Hostile filing text reaches the page only escaped inside the JSON block."""
        log = write_fake_log(tmp_path / "h.jsonl", 3, hostile=True)
        html = write_report(log, tmp_path / "h.html")[0].read_text()
        blocks = re.findall(
            r'<script type="application/json" id="finqa-\w+">(.*?)</script>', html, re.S
        )
        outside = re.sub(r'<script type="application/json".*?</script>', "", html, flags=re.S)
        assert "<img" not in html and "<!-- hidden" not in html
        assert "javascript:" not in outside and "__pwned" not in outside
        assert html.count("<script") == 3 and all("window.__pwned" in b for b in blocks)
        assert _data_block(html)["questions"]

    def test_no_request_to_any_host(self, fake_log: Path, tmp_path: Path) -> None:
        """The page references no external resource (no src=, href= or url( to anywhere)."""
        html = write_report(fake_log, tmp_path / "r.html")[0].read_text()
        outside = re.sub(r'<script type="application/json".*?</script>', "", html, flags=re.S)
        assert not re.search(r"(src|href)\s*=|url\(|https?://", outside)

    def test_secrets_from_the_environment_never_appear(
        self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        """Values of OPENAI_API_KEY, FINQA_API_KEY and FINQA_AUDIT_HMAC_KEY are not in the report."""
        secrets = {
            "OPENAI_API_KEY": "sk-open-123456",
            "FINQA_API_KEY": "fq-key-987654",
            "FINQA_AUDIT_HMAC_KEY": "hmac-secret-55",
        }
        log = tmp_path / "s.jsonl"
        raw = AuditLog(log, run_id="r", fsync=False)
        raw.append(event="question_start", agent="orchestrator", question_id="q", data={"question": "key sk-open-123456 fq-key-987654 hmac-secret-55"})  # fmt: skip
        for name, value in secrets.items():
            monkeypatch.setenv(name, value)
        html = write_report(log, tmp_path / "s.html")[0].read_text()
        assert all(v not in html for v in secrets.values())


class TestCli:
    def test_report_command(
        self, fake_log: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
    ) -> None:
        """`finqa audit report` writes the page and prints the verification result."""
        out = tmp_path / "review.html"
        assert main(["audit", "report", str(fake_log), "--out", str(out)]) == 0
        assert "VERIFIED" in capsys.readouterr().out
        assert _data_block(out.read_text())["verify"]["status"] == 0  # type: ignore[index]

    def test_report_unknown_question_exits_nonzero(
        self, fake_log: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
    ) -> None:
        """A --question-id not in the log: one-line error, non-zero exit, no file."""
        out = tmp_path / "review.html"
        assert (
            main(["audit", "report", str(fake_log), "--question-id", "zzz", "--out", str(out)]) != 0
        )
        err = capsys.readouterr().err
        assert "zzz" in err and "Traceback" not in err and not out.exists()

    def test_report_shows_reviews(self, fake_log: Path, reviewer_keys: Any) -> None:
        """The latest signed review of a question is its review state; earlier ones stay listed."""
        keys, trusted = reviewer_keys
        review_question(fake_log, "q00001", "flagged", "Ann", key=keys["Ann"])
        review_question(fake_log, "q00001", "approved", "Bob", note="checked", key=keys["Bob"])
        data = build_report_data(fake_log, reviewers=trusted)
        q = next(q for q in data["questions"] if q["qid"] == "q00001")
        assert q["review"]["verdict"] == "approved" and q["review"]["reviewer"] == "Bob"
        assert [r["verdict"] for r in q["reviews"]] == ["flagged", "approved"]
        assert q["status"] == "accepted"

    def test_render_html_title_carries_status(self, fake_log: Path) -> None:
        """The page title states the verification result."""
        assert "<title>finqa audit review — VERIFIED</title>" in render_html(
            build_report_data(fake_log)
        )


class TestReportStatus:
    """`finqa audit report` exits as `audit verify` does and counts only reviews whose hash verifies."""

    @pytest.mark.parametrize(("damage", "code"), [("tamper", 1), ("tear", 2), ("truncate", 2)])
    def test_bad_log_exits_nonzero_and_writes_the_page(
        self,
        fake_log: Path,
        tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str],
        damage: str,
        code: int,
    ) -> None:
        """A tampered log exits 1, a torn or truncated one 2 (verify's codes); the page is written."""
        from finqa.audit.checkpoint import write_checkpoint

        monkeypatch.setenv("FINQA_AUDIT_HMAC_KEY", "report-exit-key")
        checkpoint = ["--checkpoint", str(write_checkpoint(fake_log, tmp_path / "cp.json"))]
        lines = fake_log.read_bytes().splitlines(keepends=True)
        if damage == "tamper":
            lines[3] = lines[3].replace(b'"attempt":1', b'"attempt":7')
        elif damage == "tear":
            lines.append(b'{"seq": 999, "event": "jud')
        else:
            lines = lines[:-2]  # whole records cut off: only the checkpoint can tell
        fake_log.write_bytes(b"".join(lines))
        out = tmp_path / "review.html"
        assert main(["audit", "report", str(fake_log), "--out", str(out), *checkpoint]) == code
        assert main(["audit", "verify", str(fake_log), *checkpoint]) == code
        assert _data_block(out.read_text())["verify"]["status"] == code  # type: ignore[index]
        assert "review.html" in capsys.readouterr().out

    def test_edited_review_is_not_the_review_state(self, fake_log: Path, tmp_path: Path) -> None:
        """A review whose verdict was edited shows "unverified" in the Review column, not its
        verdict nor the earlier review's, and is still listed."""
        review_question(fake_log, "q00001", "approved", "Ann")
        review_question(fake_log, "q00001", "rejected", "Bob", note="wrong figure")
        lines = fake_log.read_bytes().splitlines(keepends=True)
        assert b'"decision":"rejected"' in lines[-1]
        lines[-1] = lines[-1].replace(b'"decision":"rejected"', b'"decision":"approved"')
        fake_log.write_bytes(b"".join(lines))
        out = tmp_path / "review.html"
        assert main(["audit", "report", str(fake_log), "--out", str(out)]) == 1
        summary = _data_block(out.read_text())
        q = next(q for q in summary["questions"] if q["qid"] == "q00001")  # type: ignore[union-attr]
        assert q["review"]["verdict"] == "unverified" and q["review"]["reviewer"] is None
        data = build_report_data(fake_log)
        full = next(q for q in data["questions"] if q["qid"] == "q00001")
        assert [(r["verdict"], r["hash_ok"]) for r in full["reviews"]] == [
            ("approved", True),
            ("approved", False),
        ]

    def test_intact_review_is_the_review_state(self, fake_log: Path, reviewer_keys: Any) -> None:
        """An untouched, signed latest review is the question's review state, its hash verified."""
        keys, trusted = reviewer_keys
        review_question(fake_log, "q00001", "rejected", "Bob", key=keys["Bob"])
        data = build_report_data(fake_log, reviewers=trusted)
        q = next(q for q in data["questions"] if q["qid"] == "q00001")
        assert (q["review"]["verdict"], q["review"]["hash_ok"]) == ("rejected", True)
