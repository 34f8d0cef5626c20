"""Loopback HTTP proxies in front of the real LLM server: one records requests, one dies mid-call."""

from __future__ import annotations

import json
import socket
import threading
import urllib.error
import urllib.request
from collections.abc import Mapping
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

__all__ = ["RecordingProxy", "DyingProxy"]


class RecordingProxy:
    """Forwards every request to `upstream` (".../v1") and keeps the JSON bodies it saw."""

    def __init__(self, upstream: str) -> None:
        self.upstream = upstream.rstrip("/")
        self.bodies: list[Mapping[str, Any]] = []
        proxy = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
                return

            def do_POST(self) -> None:  # noqa: N802
                raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                proxy.bodies.append(json.loads(raw or b"{}"))
                path = self.path[3:] if self.path.startswith("/v1") else self.path
                req = urllib.request.Request(
                    proxy.upstream + path,
                    data=raw,
                    headers={"Content-Type": "application/json"},
                    method="POST",
                )
                try:
                    with urllib.request.urlopen(req, timeout=900) as resp:  # noqa: S310 - loopback
                        status, body = resp.status, resp.read()
                except urllib.error.HTTPError as exc:
                    status, body = exc.code, exc.read()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._httpd.daemon_threads = True
        threading.Thread(target=self._httpd.serve_forever, daemon=True).start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._httpd.server_address[1]}/v1"

    def close(self) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()

    def prompts(self) -> list[str]:
        """The user message of every chat request seen."""
        return [str(b["messages"][-1]["content"]) for b in self.bodies if b.get("messages")]


class DyingProxy:
    """Accepts one call, forwards it to the real server, then dies before the reply: the
    connection is dropped mid-call and nothing listens on the port any more."""

    def __init__(self, upstream_host: str, upstream_port: int, die_after_s: float = 1.0) -> None:
        self._upstream = (upstream_host, upstream_port)
        self._die_after = die_after_s
        self._listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self._listener.bind(("127.0.0.1", 0))
        self._listener.listen(1)
        self.port = self._listener.getsockname()[1]
        self.forwarded = threading.Event()
        threading.Thread(target=self._serve_once, daemon=True).start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    def _serve_once(self) -> None:
        client, _ = self._listener.accept()
        self._listener.close()  # the 'server' is gone for any retry
        upstream = socket.create_connection(self._upstream, timeout=5)
        client.settimeout(5)
        data = b""
        while b"\r\n\r\n" not in data:
            data += client.recv(65536)
        head, _, body = data.partition(b"\r\n\r\n")
        length = 0
        for line in head.split(b"\r\n"):
            if line.lower().startswith(b"content-length:"):
                length = int(line.split(b":", 1)[1])
        while len(body) < length:
            body += client.recv(65536)
        upstream.sendall(head + b"\r\n\r\n" + body)
        self.forwarded.set()
        threading.Event().wait(self._die_after)
        client.shutdown(socket.SHUT_RDWR)  # killed mid-call: no response, connection reset
        client.close()
        upstream.close()
