"""The server-mode benchmark: alternating rounds, its summary, the hashing embedder, a local run."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest
from finqa.benchmarks import server_mode
from finqa.benchmarks.questions import BenchQuestion


class FakeServer:
    """Stands in for `chroma run`: records start and stop."""

    started = 0
    stopped = 0

    def __init__(self, data: Path, port: int | None = None) -> None:
        self.url = "http://127.0.0.1:1"

    def start(self) -> None:
        FakeServer.started += 1

    def stop(self) -> None:
        FakeServer.stopped += 1


@pytest.fixture
def fake_rounds(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, str]]:
    """`_measure` replaced by a recorder (store kind, index path); the server by FakeServer."""
    calls: list[tuple[str, str]] = []
    FakeServer.started = FakeServer.stopped = 0

    def measure(settings: Any, pages: Path, embedder: Any, qs: Any, repeat: int) -> dict:
        kind = "server" if settings.index.chroma_url else "local"
        calls.append((kind, settings.index.path))
        n = len(calls)
        return {
            "ingest_pages_per_s": float(n),
            "first_query_ms": 10.0 * n,
            "latencies_ms": [float(n), float(n) + 1.0],
            "per_pass": 1,
        }

    monkeypatch.setattr(server_mode, "ChromaServer", FakeServer)
    monkeypatch.setattr(server_mode, "_measure", measure)
    return calls


class TestRounds:
    """Local and server runs alternate which goes first, on new folders each round."""

    def test_order_alternates_and_folders_are_new(
        self, tmp_path: Path, fake_rounds: list[tuple[str, str]]
    ) -> None:
        """Round 0 runs local then server, round 1 server then local, each on its own folder."""
        result = server_mode.run_rounds(
            tmp_path, tmp_path / "p.jsonl", object(), "hash-384", [], rounds=3
        )
        assert result["order"] == ["local", "server", "server", "local", "local", "server"]
        assert [k for k, _ in fake_rounds] == result["order"]
        paths = [p for _, p in fake_rounds]
        assert len(set(paths)) == 6
        assert FakeServer.started == 1 and FakeServer.stopped == 1

    def test_summary_pools_latencies_and_takes_median_rate(
        self, tmp_path: Path, fake_rounds: list[tuple[str, str]]
    ) -> None:
        """Each store's summary has the median ingest rate of its rounds and pooled query times."""
        result = server_mode.run_rounds(
            tmp_path, tmp_path / "p.jsonl", object(), "hash-384", [], rounds=2
        )
        # calls: 1 local, 2 server, 3 server, 4 local
        assert result["local"]["ingest_pages_per_s_each"] == [1.0, 4.0]
        assert result["local"]["ingest_pages_per_s_median"] == 2.5
        assert result["server"]["queries"] == 4
        assert result["server"]["query_ms_p50"] == 3.0  # of 2, 3, 3, 4
        assert [r["round"] for r in result["runs"]["server"]] == [0, 1]
        assert result["server"]["first_pass_ms_p50_p95"] == pytest.approx(
            [2.5, 2.95], abs=0.051
        )  # of 2, 3
        assert result["server"]["later_passes_ms_p50_p95"] == pytest.approx(
            [3.5, 3.95], abs=0.051
        )  # of 3, 4

    def test_server_stopped_when_a_run_fails(
        self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fake_rounds: list
    ) -> None:
        """A failing measurement still stops the server and the error reaches the caller."""

        def broken(*args: Any) -> dict:
            raise RuntimeError("ingest failed")

        monkeypatch.setattr(server_mode, "_measure", broken)
        with pytest.raises(RuntimeError, match="ingest failed"):
            server_mode.run_rounds(tmp_path, tmp_path / "p.jsonl", object(), "h", [], rounds=2)
        assert FakeServer.stopped == 1

    def test_cli_writes_the_result(
        self, tmp_path: Path, fake_rounds: list, capsys: pytest.CaptureFixture[str]
    ) -> None:
        """The command writes server_mode.json with both stores and prints the summary."""
        qfile = tmp_path / "q.jsonl"
        qfile.write_text(json.dumps({"question": "q?", "answer": "a", "doc_name": "D"}) + "\n")
        code = server_mode.main(
            ["--pages", str(tmp_path / "p.jsonl"), "--out", str(tmp_path / "o")]
            + ["--questions", str(qfile), "--rounds", "2"]
        )
        saved = json.loads((tmp_path / "o" / "server_mode.json").read_text())
        assert code == 0 and saved["order"] == ["local", "server", "server", "local"]
        assert '"runs"' not in capsys.readouterr().out

    def test_rounds_must_be_positive(self, tmp_path: Path) -> None:
        """Zero rounds is refused with a usage error."""
        with pytest.raises(SystemExit):
            server_mode.main(["--pages", "p", "--out", str(tmp_path), "--rounds", "0"])


class TestHashEmbedder:
    """The storage-only embedder is deterministic and unit length."""

    def test_unit_vectors(self) -> None:
        """Equal texts embed equally, different texts differently, every vector has norm 1."""
        a, b, c = server_mode.HashEmbedder().embed(["net revenue", "net revenue", "capex 2022"])
        assert a == b and a != c and len(a) == 384
        assert math.isclose(sum(v * v for v in a), 1.0)


class TestMeasureLocal:
    """A local measurement ingests the pages and times the questions of its filings."""

    def test_local_store(self, tmp_path: Path) -> None:
        """Two filings' pages are ingested and only the question about an ingested filing is asked."""
        from finqa.agents.config import load_settings

        pages = tmp_path / "pages.jsonl"
        rows = [
            {"doc_name": "ACME_2022_10K", "page": p, "text": f"Acme revenue {p} million net sales"}
            for p in range(3)
        ] + [{"doc_name": "GLOBEX_2022_10K", "page": 0, "text": "Globex capital expenditures"}]
        pages.write_text("\n".join(json.dumps(r) for r in rows) + "\n")
        qs = [
            BenchQuestion(id="1", question="Acme revenue?", answer="x", doc_name="ACME_2022_10K"),
            BenchQuestion(id="2", question="Other?", answer="x", doc_name="NOPE_2022_10K"),
        ]
        settings = load_settings(
            overrides={"index.embedder": "hash-384", "index.path": str(tmp_path / "idx")}
        )
        got = server_mode._measure(settings, pages, server_mode.HashEmbedder(), qs, repeat=2)
        assert got["filings"] == 2 and got["pages"] == 4
        assert got["queries"] == 2 and len(got["latencies_ms"]) == 2
        assert got["query_ms_p95"] >= got["query_ms_p50"] > 0
