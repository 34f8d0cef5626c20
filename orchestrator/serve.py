"""`finqa serve --index DIR [--port N]`: one long-lived process answering questions over HTTP.

A script that asks one question at a time would pay finqa's start-up (imports, the statement
store, the embedder of a dense index) per question with `finqa ask`; a served index pays it
once. The server listens on 127.0.0.1 only (the standard library's `http.server`, no framework):

    POST /ask     {"question": "...", "company": "...", "doc_id": "..." | ["..."], "question_id": "..."}
                  -> 200 and the JSON of `finqa ask --json` (status, answer, citations, ...);
                  400 {"error": "..."} for a body that is not such an object
    GET  /health  -> 200 {"status": "ok", "index": ..., "audit_log": ..., "run_id": ..., "questions": N}

Every question goes to the index's audit log under the server's one run id, as a batch does.
Questions are answered one at a time (the offline agents are CPU-bound; a second request waits).
"""

from __future__ import annotations

import argparse
import json
import sys
import threading
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import TYPE_CHECKING, Any

from finqa.agents.errors import FinqaError
from finqa.orchestrator.flags import add_llm_flags, llm_overrides

if TYPE_CHECKING:
    from finqa.orchestrator.api import FinQA

__all__ = ["register", "make_server", "QuestionServer", "parse_request"]

_MAX_BODY = 1 << 20  # 1 MiB: a question, not a corpus


def register(sub: Any) -> None:
    serve = sub.add_parser(
        "serve",
        help="answer questions over HTTP on 127.0.0.1 (POST /ask, GET /health)",
        description="Keep one index open and answer questions over HTTP on 127.0.0.1: "
        'POST /ask {"question": ..., "company": ..., "doc_id": ...} returns the JSON of '
        "`finqa ask --json`; GET /health says the server is up.",
    )
    serve.add_argument("--index", metavar="DIR", help="index directory (default: index.path)")
    serve.add_argument(
        "--port", type=int, default=8765, help="TCP port on 127.0.0.1 (default 8765; 0: any free)"
    )
    serve.add_argument(
        "--config", metavar="FILE", help="YAML config (default: configs/default.yaml)"
    )
    add_llm_flags(serve)
    serve.set_defaults(func=_serve)


def parse_request(body: bytes) -> dict[str, Any]:
    """The question of a POST /ask body, normalised; FinqaError with one line when it is not
    a JSON object with a non-empty string `question` (and string `company`, `doc_id` / `doc`)."""
    try:
        data = json.loads(body.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        raise FinqaError('the body is not JSON: send {"question": "..."}') from None
    if not isinstance(data, dict):
        raise FinqaError('the body must be a JSON object: {"question": "..."}')
    question = data.get("question")
    if not isinstance(question, str) or not question.strip():
        raise FinqaError("'question' must be a non-empty string")
    company = data.get("company")
    if company is not None and not isinstance(company, str):
        raise FinqaError("'company' must be a string")
    docs = data.get("doc_id", data.get("doc", data.get("doc_ids")))
    if isinstance(docs, str):
        docs = [docs]
    if docs is not None and not (isinstance(docs, list) and all(isinstance(d, str) for d in docs)):
        raise FinqaError("'doc_id' must be a string or a list of strings")
    qid = data.get("question_id")
    if qid is not None and not isinstance(qid, str):
        raise FinqaError("'question_id' must be a string")
    unknown = sorted(set(data) - {"question", "company", "doc_id", "doc", "doc_ids", "question_id"})
    if unknown:
        raise FinqaError(f"unknown field(s): {', '.join(unknown)}")
    return {"question": question, "company": company, "doc_ids": docs, "question_id": qid}


class QuestionServer(ThreadingHTTPServer):
    """An HTTP server on loopback holding one open `FinQA`."""

    daemon_threads = True

    def __init__(self, fq: FinQA, port: int = 0) -> None:
        self.fq = fq
        self.answered = 0
        self.ask_lock = threading.Lock()
        super().__init__(("127.0.0.1", port), _Handler)

    @property
    def port(self) -> int:
        return int(self.server_address[1])


class _Handler(BaseHTTPRequestHandler):
    server: QuestionServer
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - http.server's name
        pass  # one operational log line per question comes from the orchestrator

    def _send(self, status: HTTPStatus, payload: dict[str, Any]) -> None:
        body = json.dumps(payload, ensure_ascii=False).encode("utf-8")
        self.send_response(status)
        self.send_header("Content-Type", "application/json; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self) -> None:  # noqa: N802 - http.server's name
        if self.path.split("?")[0] != "/health":
            self._send(HTTPStatus.NOT_FOUND, {"error": "GET /health or POST /ask"})
            return
        fq = self.server.fq
        self._send(
            HTTPStatus.OK,
            {
                "status": "ok",
                "index": str(fq.settings.index.path),
                "audit_log": fq.audit_path,
                "run_id": fq.run_id,
                "questions": self.server.answered,
            },
        )

    def do_POST(self) -> None:  # noqa: N802 - http.server's name
        if self.path.split("?")[0] != "/ask":
            self._send(HTTPStatus.NOT_FOUND, {"error": "POST /ask or GET /health"})
            return
        try:
            length = int(self.headers.get("Content-Length") or 0)
        except ValueError:
            length = -1
        if length < 0 or length > _MAX_BODY:
            self._send(HTTPStatus.BAD_REQUEST, {"error": "Content-Length missing or too large"})
            return
        try:
            item = parse_request(self.rfile.read(length))
        except FinqaError as exc:
            self._send(HTTPStatus.BAD_REQUEST, {"error": str(exc)})
            return
        with self.server.ask_lock:
            try:
                result = self.server.fq.ask(
                    item["question"],
                    company=item["company"],
                    doc_ids=item["doc_ids"],
                    question_id=item["question_id"],
                )
            except FinqaError as exc:
                self._send(HTTPStatus.BAD_REQUEST, {"error": str(exc)})
                return
            self.server.answered += 1
        self._send(HTTPStatus.OK, result.to_json_dict())


def make_server(fq: FinQA, port: int = 0, *, warm: bool = True) -> QuestionServer:
    """A server for `fq` on 127.0.0.1:`port` (0: a free port), its agents built (and a dense
    index's embedder loaded) before the first request when `warm`."""
    if warm:
        orchestrator = fq.orchestrator  # agents and the audit run
        warm_up = getattr(orchestrator.retriever, "warm", None)
        if callable(warm_up):
            warm_up()
    return QuestionServer(fq, port)


def _serve(args: argparse.Namespace) -> int:
    from finqa.agents.config import load_settings
    from finqa.agents.logs import configure_logging
    from finqa.orchestrator.api import FinQA

    if not 0 <= args.port <= 65535:
        raise FinqaError("--port must be between 0 and 65535")
    settings = load_settings(
        args.config, overrides={"index.path": args.index, **llm_overrides(args)}
    )
    configure_logging(settings.log_level)
    with FinQA.open(config=settings) as fq:  # a missing index is a one-line error
        try:
            server = make_server(fq, args.port)
        except OSError as exc:
            raise FinqaError(f"cannot listen on 127.0.0.1:{args.port}: {exc.strerror}") from None
        print(
            f"finqa serve: http://127.0.0.1:{server.port} (POST /ask, GET /health); "
            f"index {settings.index.path}; audit {fq.audit_path}; Ctrl-C stops",
            file=sys.stderr,
            flush=True,
        )
        try:
            server.serve_forever()
        except KeyboardInterrupt:
            pass
        finally:
            server.server_close()
    print(f"finqa serve: stopped after {server.answered} question(s)", file=sys.stderr)
    return 0
