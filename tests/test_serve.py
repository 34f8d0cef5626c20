"""`finqa serve`: questions over HTTP on 127.0.0.1, answered as `finqa ask --json` answers them."""

from __future__ import annotations

import json
import threading
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from finqa.agents.config import Settings
from finqa.agents.errors import FinqaError
from finqa.orchestrator.serve import QuestionServer, make_server, parse_request


@pytest.fixture
def server(sample_index: Path, tmp_path: Path) -> Iterator[QuestionServer]:
    """A real server on an ephemeral loopback port over the BM25-only sample index."""
    import structlog
    from finqa.orchestrator.api import FinQA

    settings = Settings().with_overrides(
        {"audit.path": str(tmp_path / "audit.jsonl"), "audit.fsync": False}
    )
    fq = FinQA.open(sample_index, config=settings)
    srv = make_server(fq, 0)
    thread = threading.Thread(target=srv.serve_forever, daemon=True)
    thread.start()
    yield srv
    srv.shutdown()
    srv.server_close()
    fq.close()
    structlog.reset_defaults()


def _call(srv: QuestionServer, path: str, body: Any = None) -> tuple[int, dict[str, Any]]:
    data = (
        None if body is None else (body if isinstance(body, bytes) else json.dumps(body).encode())
    )
    req = urllib.request.Request(f"http://127.0.0.1:{srv.port}{path}", data=data)
    try:
        with urllib.request.urlopen(req, timeout=120) as resp:
            return resp.status, json.loads(resp.read())
    except urllib.error.HTTPError as err:
        return err.code, json.loads(err.read())


class TestServe:
    """A served index answers over a real socket."""

    def test_loopback_only(self, server: QuestionServer) -> None:
        """The server is bound to 127.0.0.1 on the ephemeral port it reports."""
        assert server.server_address[0] == "127.0.0.1" and server.port > 0

    def test_health(self, server: QuestionServer) -> None:
        """GET /health says ok, names the index and the audit log, and counts no question yet."""
        status, body = _call(server, "/health")
        assert status == 200 and body["status"] == "ok" and body["questions"] == 0
        assert body["audit_log"].endswith("audit.jsonl")

    def test_ask_returns_ask_json(self, server: QuestionServer, tmp_path: Path) -> None:
        """POST /ask answers with the `ask --json` object, written to the audit log."""
        status, body = _call(
            server,
            "/ask",
            {"question": "What was Nike's total revenue for FY2023?", "company": "Nike"},
        )
        assert status == 200
        assert {
            "question",
            "answer",
            "status",
            "utility",
            "attempts",
            "citations",
            "run_id",
            "audit_log",
        } <= set(body)
        assert body["status"] in ("accepted", "best_effort", "abstained")
        assert body["citations"] and body["citations"][0]["doc_id"] == "NIKE_2023_10K"
        log = (tmp_path / "audit.jsonl").read_text()
        assert body["question_id"] in log
        assert _call(server, "/health")[1]["questions"] == 1

    def test_bad_body_is_one_line_400(self, server: QuestionServer) -> None:
        """A body that is not JSON, or lacks a question, is a 400 with a one-line error."""
        for body in (b"{not json", {"company": "Nike"}, {"question": "x", "extra": 1}):
            status, answer = _call(server, "/ask", body)
            assert status == 400 and "\n" not in answer["error"] and answer["error"]
        assert _call(server, "/nope")[0] == 404


class TestParseRequest:
    """The POST /ask body is read strictly."""

    def test_doc_id_string_or_list(self) -> None:
        """`doc_id` may be one id or a list; `doc` is accepted as its alias."""
        assert parse_request(b'{"question": "q", "doc_id": "A"}')["doc_ids"] == ["A"]
        assert parse_request(b'{"question": "q", "doc": ["A", "B"]}')["doc_ids"] == ["A", "B"]

    def test_wrong_types_refused(self) -> None:
        """A number for the question or the company is refused with what to send."""
        with pytest.raises(FinqaError, match="question"):
            parse_request(b'{"question": 3}')
        with pytest.raises(FinqaError, match="company"):
            parse_request(b'{"question": "q", "company": 3}')
