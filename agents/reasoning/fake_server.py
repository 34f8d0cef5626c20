"""FakeOpenAIServer: a real HTTP server on 127.0.0.1 speaking the chat-completions API, for tests.

    with FakeOpenAIServer(['{"answer": "..."}', FakeReply.error(429)]) as srv:
        client = OpenAIChatClient(LLMConfig(backend="openai", base_url=srv.url))

Replies are scripted: a list (consumed in order; the last one repeats) or a callable
`request_body -> reply`. A reply is a `str` (the assistant message content) or a `FakeReply`
that can inject an HTTP error status, a delay (to provoke client timeouts), a malformed HTTP
body, or non-JSON content. Every request is recorded in `.requests`.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

__all__ = ["FakeOpenAIServer", "FakeReply", "RecordedRequest"]


@dataclass(frozen=True)
class FakeReply:
    """One scripted response."""

    content: str = ""
    status: int = 200
    delay_s: float = 0.0
    raw_body: str | None = None  # sent verbatim instead of a JSON completion (malformed body)
    headers: Mapping[str, str] = field(default_factory=dict)
    prompt_tokens: int = 11
    completion_tokens: int = 7

    @classmethod
    def error(cls, status: int, message: str = "injected error", **kw: Any) -> FakeReply:
        body = json.dumps({"error": {"message": message, "type": "fake", "code": status}})
        return cls(status=status, raw_body=body, **kw)

    @classmethod
    def slow(cls, delay_s: float, content: str = "{}") -> FakeReply:
        return cls(content=content, delay_s=delay_s)

    @classmethod
    def malformed(cls) -> FakeReply:
        return cls(raw_body='{"id": "x", "choices": [ {"message": ')


@dataclass(frozen=True)
class RecordedRequest:
    path: str
    body: Mapping[str, Any]
    headers: Mapping[str, str]

    @property
    def messages(self) -> list[Mapping[str, str]]:
        return list(self.body.get("messages") or [])

    @property
    def text(self) -> str:
        """All message contents joined (for assertions on the prompt)."""
        return "\n".join(str(m.get("content", "")) for m in self.messages)


Reply = str | FakeReply
Script = Sequence[Reply] | Callable[[Mapping[str, Any]], Reply]


class FakeOpenAIServer:
    """Threaded HTTP server implementing POST /v1/chat/completions and /chat/completions."""

    def __init__(
        self,
        replies: Script = ("{}",),
        *,
        model: str = "fake-model",
        json_mode_supported: bool = True,
        formats: Sequence[str] | None = None,
    ) -> None:
        """`json_mode_supported=False` rejects any response_format; `formats` lists the accepted
        ones otherwise ("json_schema", "json_object+schema", "json_object"; None: all)."""
        self._script = replies
        self._index = 0
        self._lock = threading.Lock()
        self.model = model
        self.json_mode_supported = json_mode_supported
        self.formats = tuple(formats) if formats is not None else None
        self.requests: list[RecordedRequest] = []
        self._httpd: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    # ------------------------------------------------------------------ lifecycle
    @property
    def url(self) -> str:
        if self._httpd is None:
            raise RuntimeError("FakeOpenAIServer is not started")
        host, port = self._httpd.server_address[:2]
        return f"http://{host!s}:{port}/v1"

    def start(self) -> FakeOpenAIServer:
        handler = _make_handler(self)
        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self._httpd.daemon_threads = True
        self._thread = threading.Thread(target=self._httpd.serve_forever, daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        if self._httpd is not None:
            self._httpd.shutdown()
            self._httpd.server_close()
            self._httpd = None
        if self._thread is not None:
            self._thread.join(timeout=5)
            self._thread = None

    def __enter__(self) -> FakeOpenAIServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # ------------------------------------------------------------------ script
    def next_reply(self, body: Mapping[str, Any]) -> FakeReply:
        if callable(self._script):
            reply = self._script(body)
        else:
            with self._lock:
                if not self._script:
                    reply = "{}"
                else:
                    reply = self._script[min(self._index, len(self._script) - 1)]
                    self._index += 1
        return reply if isinstance(reply, FakeReply) else FakeReply(content=reply)


def _completion(reply: FakeReply, model: str) -> dict[str, Any]:
    return {
        "id": "chatcmpl-fake",
        "object": "chat.completion",
        "created": 0,
        "model": model,
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": reply.content},
                "finish_reason": "stop",
            }
        ],
        "usage": {
            "prompt_tokens": reply.prompt_tokens,
            "completion_tokens": reply.completion_tokens,
            "total_tokens": reply.prompt_tokens + reply.completion_tokens,
        },
    }


def _format_level(fmt: Any) -> str:
    """The structured-output level of a request's response_format (see llm.RESPONSE_FORMATS)."""
    if not isinstance(fmt, Mapping):
        return "invalid"
    kind = str(fmt.get("type"))
    return "json_object+schema" if kind == "json_object" and "schema" in fmt else kind


def _make_handler(server: FakeOpenAIServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - stdlib signature
            return  # quiet

        def _send(self, status: int, body: str, headers: Mapping[str, str] | None = None) -> None:
            data = body.encode("utf-8")
            try:
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                for key, value in (headers or {}).items():
                    self.send_header(key, value)
                self.end_headers()
                self.wfile.write(data)
            except (BrokenPipeError, ConnectionResetError):
                return  # the client gave up (timeout)

        def do_POST(self) -> None:  # noqa: N802 - stdlib name
            length = int(self.headers.get("Content-Length") or 0)
            raw = self.rfile.read(length) if length else b""
            if self.path.rstrip("/") not in ("/v1/chat/completions", "/chat/completions"):
                self._send(404, json.dumps({"error": {"message": f"no route {self.path}"}}))
                return
            try:
                body = json.loads(raw or b"{}")
            except json.JSONDecodeError:
                self._send(400, json.dumps({"error": {"message": "request body is not JSON"}}))
                return
            server.requests.append(
                RecordedRequest(self.path, body, {k.lower(): v for k, v in self.headers.items()})
            )
            fmt = body.get("response_format")
            if fmt is not None and (
                not server.json_mode_supported
                or (server.formats is not None and _format_level(fmt) not in server.formats)
            ):
                msg = f"response_format {_format_level(fmt)} is not supported by this server"
                self._send(400, json.dumps({"error": {"message": msg, "type": "invalid_request"}}))
                return
            reply = server.next_reply(body)
            if reply.delay_s > 0:
                time.sleep(reply.delay_s)
            if reply.raw_body is not None:
                self._send(reply.status, reply.raw_body, reply.headers)
                return
            self._send(reply.status, json.dumps(_completion(reply, server.model)), reply.headers)

    return Handler
