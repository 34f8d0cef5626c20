"""Credentials in URLs (`--base-url`, `llm.base_url`, any text) never reach a log, page, export or terminal."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path
from typing import Any

import pytest
from finqa.agents.errors import FinqaError
from finqa.agents.logs import configure_logging, get_logger
from finqa.audit import REDACTED, redact
from finqa.audit.redact import has_secret, redact_text
from finqa.orchestrator import _factory as factory
from finqa.orchestrator.cli import main as finqa_main

SECRETS = ("uSeR7", "pAsS7", "SeCrEt7")
URL = "http://uSeR7:pAsS7@llm.example/v1?api-key=SeCrEt7"


pytestmark = pytest.mark.usefixtures("reset_structlog")


@pytest.fixture
def workdir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A working directory with an (empty) index folder; the audit log goes to .finqa/."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "idx").mkdir()
    return tmp_path


def _leaks(text: str) -> list[str]:
    return [s for s in SECRETS if s in text]


class TestRedactText:
    """One redactor for URL userinfo and key-like URL parameters."""

    @pytest.mark.parametrize(
        ("text", "expected"),
        [
            ("http://user:pw@host/v1", f"http://{REDACTED}@host/v1"),
            ("https://tok@host", f"https://{REDACTED}@host"),
            ("http://u:p@ss@host:8011/v1", f"http://{REDACTED}@host:8011/v1"),
            ("http://h/v1?api-key=S1", f"http://h/v1?api-key={REDACTED}"),
            ("http://h/v1?key=S1&model=m", f"http://h/v1?key={REDACTED}&model=m"),
            ("http://h/?a=1&token=S1", f"http://h/?a=1&token={REDACTED}"),
            ("http://h/?access_token=S1#x", f"http://h/?access_token={REDACTED}#x"),
            ("http://h/b?sv=2&sig=S1", f"http://h/b?sv=2&sig={REDACTED}"),
            ("http://h/?X-Amz-Signature=S1", f"http://h/?X-Amz-Signature={REDACTED}"),
            ("http://h/?X-Amz-Credential=S1", f"http://h/?X-Amz-Credential={REDACTED}"),
            ("http://h/cb#access_token=S1", f"http://h/cb#access_token={REDACTED}"),
            ("error at 'http://u:p@h/v1' (retry)", f"error at 'http://{REDACTED}@h/v1' (retry)"),
        ],
    )
    def test_credentials_go(self, text: str, expected: str) -> None:
        """Userinfo and the values of key/token/signature parameters are replaced, the rest kept."""
        assert redact_text(text, secrets=()) == expected
        assert has_secret(text, secrets=())
        assert not has_secret(expected, secrets=())

    @pytest.mark.parametrize(
        "text",
        [
            "http://127.0.0.1:8011/v1",
            "http://h/v1?model=m&page=2&monkey=1",
            "write to ir@apple.com or see https://apple.com/ir",
            "U 0.55 < tau 0.5; prompt_tokens=12 key=value",
        ],
    )
    def test_plain_text_kept(self, text: str) -> None:
        """A URL without credentials, an e-mail address and key=value text stay as they are."""
        assert redact_text(text, secrets=()) == text
        assert not has_secret(text, secrets=())

    def test_nested_values_and_keys(self) -> None:
        """redact walks mappings and lists: a base_url value is scrubbed, its key kept."""
        out = redact({"llm": {"base_url": URL}, "urls": [URL]}, secrets=())
        assert out["llm"]["base_url"] == f"http://{REDACTED}@llm.example/v1?api-key={REDACTED}"
        assert _leaks(json.dumps(out)) == []


class TestEveryOutput:
    """`finqa ask --base-url URL-with-credentials`: the secret is in no output made of the run."""

    def test_log_report_export_show(
        self,
        workdir: Path,
        fake_factories: None,
        capsys: pytest.CaptureFixture[str],
    ) -> None:
        """The audit log, report HTML, CSV export, `audit show` and ask's output hold no credential."""
        question = "What were 3M's net sales in 2018?"
        assert finqa_main(["ask", question, "--index", "idx", "--base-url", URL]) == 0
        assert finqa_main(["ask", question, "--index", "idx", "--base-url", URL, "--json"]) == 0
        log = workdir / "idx" / "audit.jsonl"  # the audit trail lives with the index
        text = log.read_text(encoding="utf-8")
        assert "llm.example" in text  # the endpoint is recorded, its credentials are not
        assert finqa_main(["audit", "verify", str(log)]) == 0
        assert finqa_main(["audit", "report", str(log), "--out", "r.html"]) == 0
        assert finqa_main(["audit", "export", str(log), "--out", "r.csv"]) == 0
        assert finqa_main(["audit", "show", str(log)]) == 0
        qid = json.loads(text.splitlines()[1])["question_id"]
        assert finqa_main(["audit", "show", str(log), "--question-id", qid]) == 0
        assert finqa_main(["audit", "show", str(log), "--event", "run_start"]) == 0
        terminal = capsys.readouterr()
        outputs = {
            "audit log": text,
            "report": (workdir / "r.html").read_text(encoding="utf-8"),
            "csv": (workdir / "r.csv").read_text(encoding="utf-8"),
            "terminal": terminal.out + terminal.err,
        }
        assert "llm.example" in outputs["report"]  # the run settings show the endpoint
        assert {name: _leaks(out) for name, out in outputs.items()} == {n: [] for n in outputs}

    def test_old_log_shown_redacted(
        self, tmp_path: Path, capsys: pytest.CaptureFixture[str]
    ) -> None:
        """A log written before the redaction rule is still shown, exported and reported without it."""
        from finqa.agents.clock import FixedClock
        from finqa.audit import AuditLog

        log_path = tmp_path / "old.jsonl"
        log = AuditLog(log_path, run_id="run-1", clock=FixedClock(), fsync=False)
        log.append(event="question_start", agent="orchestrator", question_id="q1")
        raw = log_path.read_text(encoding="utf-8")
        old = raw.replace('"data":{}', json.dumps({"data": {"base_url": URL}})[1:-1])
        log_path.write_text(old, encoding="utf-8")  # as an older finqa would have written it
        assert "SeCrEt7" in log_path.read_text(encoding="utf-8")
        finqa_main(["audit", "show", str(log_path), "--question-id", "q1"])
        finqa_main(["audit", "verify", str(log_path)])
        finqa_main(["audit", "report", str(log_path), "--out", str(tmp_path / "r.html")])
        finqa_main(["audit", "export", str(log_path), "--out", str(tmp_path / "r.csv")])
        terminal = capsys.readouterr()
        shown = terminal.out + terminal.err
        assert "question_start" in shown
        for name in ("r.html", "r.csv"):
            shown += (tmp_path / name).read_text(encoding="utf-8")
        assert _leaks(shown) == []


class TestErrorsAndLogs:
    """Error lines, --debug tracebacks and operational logs are redacted too."""

    def test_error_line_and_debug_traceback(
        self,
        workdir: Path,
        monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str],
    ) -> None:
        """An error quoting the endpoint prints it redacted, and so does its --debug traceback."""

        def unreachable(settings: Any) -> Any:
            raise FinqaError(f"cannot reach {settings.llm.base_url}")

        monkeypatch.setattr(factory, "build_retriever", unreachable)
        argv = ["ask", "Q?", "--index", "idx", "--base-url", URL]
        assert finqa_main(argv) == 2
        err = capsys.readouterr().err
        assert "cannot reach" in err and "llm.example" in err and _leaks(err) == []
        with pytest.raises(FinqaError) as caught:
            finqa_main([*argv, "--debug"])
        sys.excepthook(caught.type, caught.value, caught.tb)  # as the interpreter reports it
        err = capsys.readouterr().err
        assert "Traceback" in err and "cannot reach" in err and _leaks(err) == []

    def test_operational_log_event(self) -> None:
        """A structlog event carrying the URL is written redacted."""
        stream = io.StringIO()
        configure_logging("info", stream=stream)
        get_logger().warning("reasoning.llm_failed", error=f"connection error: {URL}")
        line = stream.getvalue()
        assert "llm_failed" in line and "llm.example" in line and _leaks(line) == []
