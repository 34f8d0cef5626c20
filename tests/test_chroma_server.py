"""Server mode (`index.chroma_url`): one index in a real Chroma server, shared by processes.

Starts `chroma run` (shipped with the chromadb package) on loopback for the module, ingests
the bundled samples from two processes at once into it, and answers from a third process
whose index folder is empty; then the bad inputs: a server that is not there, an index built
with another embedder, a corrupted BM25 cache partition.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent / "fixtures" / "retrieval"))

from finqa.agents.config import load_settings
from finqa.agents.errors import IndexError_
from finqa.agents.retrieval.store import open_index
from retrieval_support import FakeEmbedder  # noqa: E402

SAMPLES = Path(__file__).resolve().parents[1] / "orchestrator" / "samples" / "filings"
pytestmark = pytest.mark.integration


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _chroma_bin() -> str:
    found = Path(sys.executable).with_name("chroma")
    return str(found) if found.exists() else (shutil.which("chroma") or "chroma")


class _Server:
    def __init__(self, data: Path) -> None:
        self.data = data
        self.port = _free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        log = (self.data.parent / f"chroma-{self.port}.log").open("ab")
        self.proc = subprocess.Popen(
            [
                _chroma_bin(),
                "run",
                "--path",
                str(self.data),
                "--host",
                "127.0.0.1",
                "--port",
                str(self.port),
            ],
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=1):
                    return
            except OSError:
                if self.proc.poll() is not None:
                    raise RuntimeError(f"chroma run exited with {self.proc.returncode}") from None
                time.sleep(0.3)
        raise RuntimeError("chroma run did not start within 120 s")

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.proc = None


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[_Server]:
    srv = _Server(tmp_path_factory.mktemp("chroma") / "data")
    srv.start()
    try:
        yield srv
    finally:
        srv.stop()


def _env(url: str, collection: str) -> dict[str, str]:
    env = dict(os.environ)
    env.update(
        FINQA_INDEX__CHROMA_URL=url,
        FINQA_INDEX__COLLECTION=collection,
        HF_HUB_OFFLINE="1",
        TRANSFORMERS_OFFLINE="1",
        ANONYMIZED_TELEMETRY="False",
        FINQA_INDEX__TORCH_THREADS="1",
    )
    return env


def _finqa(*args: str) -> list[str]:
    return [sys.executable, "-m", "finqa.orchestrator.cli", *args]


def _settings(path: Path, url: str, collection: str, **extra: Any) -> Any:
    return load_settings(
        overrides={
            "index.path": str(path),
            "index.chroma_url": url,
            "index.collection": collection,
            **extra,
        }
    )


class TestSharedServerIndex:
    """Two ingesting processes and a reading one share one index through the server."""

    def test_two_ingests_then_answer_elsewhere(self, server: _Server, tmp_path: Path) -> None:
        """Concurrent ingests of the samples leave every chunk exactly once, and a process with an empty folder answers with citations."""
        env = _env(server.url, "shared_a")
        ingests = [
            subprocess.Popen(
                _finqa("ingest", str(SAMPLES), "--index", str(tmp_path / f"machine{i}")),
                env=env,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
            )
            for i in (1, 2)
        ]
        for proc in ingests:
            out, err = proc.communicate(timeout=900)
            assert proc.returncode == 0, err.decode()[-2000:]
        index = open_index(_settings(tmp_path / "reader", server.url, "shared_a"), create=False)
        catalog = index.catalog()
        assert sorted(catalog) == ["3M_2018_10K", "MICROSOFT_2023_10K", "NIKE_2023_10K"]
        assert index.collection.count() == sum(r.n_chunks for r in catalog.values())
        third = tmp_path / "machine3"
        done = subprocess.run(
            _finqa(
                "ask",
                "What were 3M's total liabilities at December 31, 2018?",
                "--index",
                str(third),
                "--json",
            ),
            env=env,
            capture_output=True,
            timeout=900,
        )
        assert done.returncode == 0, done.stderr.decode()[-2000:]
        answer = json.loads(done.stdout)
        assert answer["citations"] and answer["citations"][0]["doc_id"] == "3M_2018_10K"
        assert not (third / "chunks.sqlite").exists() and not (third / "chroma").exists()


class TestServerBadInput:
    """What goes wrong with a server is said in one line and loses nothing."""

    def test_unreachable_server(self, tmp_path: Path) -> None:
        """No server at the URL: opening the index raises IndexError_ naming the URL."""
        url = f"http://127.0.0.1:{_free_port()}"
        with pytest.raises(IndexError_, match="127.0.0.1") as err:
            open_index(_settings(tmp_path / "x", url, "nothing_here"))
        assert "\n" not in str(err.value)

    def test_other_embedder_refused(self, server: _Server, tmp_path: Path) -> None:
        """An index built with one embedder refuses a process configured with another."""
        from finqa.agents.retrieval.ingest import ingest_paths

        settings = _settings(tmp_path / "a", server.url, "mixed", **{"index.embedder": "fake-hash"})
        ingest_paths(
            [SAMPLES / "NIKE_2023_10K.jsonl"], settings, embedder=FakeEmbedder(), progress=False
        )
        other = _settings(tmp_path / "b", server.url, "mixed")
        with pytest.raises(IndexError_, match="fake-hash"):
            open_index(other)

    def test_unset_backend_takes_the_servers(self, server: _Server, tmp_path: Path) -> None:
        """A process naming no embedder backend uses the one the server's index records; naming another is refused."""
        from finqa.agents.retrieval.ingest import ingest_paths

        fake = {"index.embedder": "fake-hash"}
        built = _settings(
            tmp_path / "a", server.url, "backend", **fake, **{"index.embed_backend": "openvino"}
        )
        ingest_paths(
            [SAMPLES / "NIKE_2023_10K.jsonl"], built, embedder=FakeEmbedder(), progress=False
        )
        unset = _settings(tmp_path / "b", server.url, "backend", **fake)
        assert unset.index.embed_backend is None
        assert open_index(unset).info["embed_backend"] == "openvino"
        named = _settings(
            tmp_path / "c", server.url, "backend", **fake, **{"index.embed_backend": "torch"}
        )
        with pytest.raises(IndexError_, match="openvino") as err:
            open_index(named)
        assert "\n" not in str(err.value)

    def test_corrupt_bm25_cache_rebuilt(self, server: _Server, tmp_path: Path) -> None:
        """A damaged local BM25 partition is detected and rebuilt from the server's chunk text."""
        from finqa.agents.retrieval.bm25 import tokenize
        from finqa.agents.retrieval.ingest import ingest_paths

        settings = _settings(
            tmp_path / "c", server.url, "bm25_cache", **{"index.embedder": "fake-hash"}
        )
        ingest_paths(
            [SAMPLES / "3M_2018_10K.jsonl"], settings, embedder=FakeEmbedder(), progress=False
        )
        before = open_index(settings).bm25.search(tokenize("total liabilities"), ["3M_2018_10K"], 5)
        (tmp_path / "c" / "bm25" / "3M_2018_10K.pkl").write_bytes(b"\x80\x04garbage")
        index = open_index(settings)
        assert index.bm25.search(tokenize("total liabilities"), ["3M_2018_10K"], 5) == before
        assert index.bm25.rebuilt and "unreadable" in index.bm25.rebuilt[0][1]

    def test_server_gone_mid_ingest_resumes(self, tmp_path: Path) -> None:
        """The server stopping mid-ingest is one clear error; after a restart the same ingest completes without duplicates."""
        from finqa.agents.retrieval.ingest import ingest_paths

        srv = _Server(tmp_path / "data")
        srv.start()
        try:
            settings = _settings(
                tmp_path / "d", srv.url, "resume", **{"index.embedder": "fake-hash"}
            )
            index = open_index(settings)
            calls = {"n": 0}
            upsert = index.server.chunks.upsert  # type: ignore[union-attr]

            def dying_upsert(**kw: Any) -> Any:
                calls["n"] += 1
                if calls["n"] == 2:  # second filing: the server goes away
                    srv.stop()
                return upsert(**kw)

            index.server.chunks.upsert = dying_upsert  # type: ignore[union-attr]
            with pytest.raises(IndexError_, match="unreachable") as err:
                ingest_paths(
                    [SAMPLES], settings, index=index, embedder=FakeEmbedder(), progress=False
                )
            assert "\n" not in str(err.value)
            srv.start()
            report = ingest_paths([SAMPLES], settings, embedder=FakeEmbedder(), progress=False)
            assert report.unchanged == 1 and report.documents == 2
            index = open_index(settings)
            assert index.collection.count() == sum(r.n_chunks for r in index.catalog().values())
        finally:
            srv.stop()


class TestServerReads:
    """A process that holds a filing reads its chunks without asking the server again."""

    def test_held_filing_served_locally(self, server: _Server, tmp_path: Path) -> None:
        """After a filing was read whole, its chunks come from memory: no per-query row request, same chunks."""
        from finqa.agents.retrieval.ingest import ingest_paths

        settings = _settings(
            tmp_path / "w", server.url, "held_reads", **{"index.embedder": "fake-hash"}
        )
        ingest_paths(
            [SAMPLES / "3M_2018_10K.jsonl"], settings, embedder=FakeEmbedder(), progress=False
        )
        reader = _settings(
            tmp_path / "r", server.url, "held_reads", **{"index.embedder": "fake-hash"}
        )
        index = open_index(reader, create=False)
        ids = ["3M_2018_10K#0", "3M_2018_10K#3", "OTHER_2020_10K#1"]
        first = index.get_chunks(ids)  # nothing held yet: asked of the server
        assert index.server is not None
        index.neighbours("3M_2018_10K", 0, 1)  # reads the filing whole (RSE, BM25 rebuild)
        asked: list[list[str]] = []
        real_rows = index.server.rows
        index.server.rows = lambda chunk_ids: asked.append(list(chunk_ids)) or real_rows(chunk_ids)  # type: ignore[method-assign]
        again = index.get_chunks(ids)
        assert asked == [["OTHER_2020_10K#1"]]
        assert sorted(again) == sorted(first) == ["3M_2018_10K#0", "3M_2018_10K#3"]
        assert again["3M_2018_10K#3"] == first["3M_2018_10K#3"]
