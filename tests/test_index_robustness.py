"""The local index under bad input and concurrency: damaged BM25 partitions, a mismatched
embedder backend, two ingests into one folder, a reader during an ingest, skipped empty pages."""

from __future__ import annotations

import json
import sys
import threading
import time
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent / "fixtures" / "retrieval"))

from finqa.agents.config import Settings  # noqa: E402
from finqa.agents.errors import IndexError_  # noqa: E402
from finqa.agents.retrieval.agent import RetrievalAgent  # noqa: E402
from finqa.agents.retrieval.bm25 import tokenize  # noqa: E402
from finqa.agents.retrieval.ingest import ingest_paths  # noqa: E402
from finqa.agents.retrieval.store import open_index  # noqa: E402
from retrieval_support import FakeEmbedder  # noqa: E402

SAMPLES = Path(__file__).resolve().parents[1] / "orchestrator" / "samples" / "filings"


def _settings(index: Path, **overrides: object) -> Settings:
    return Settings().with_overrides({"index.path": str(index), **overrides})


def _pages(path: Path, doc: str, texts: list[str]) -> Path:
    path.write_text(
        "".join(
            json.dumps({"doc_name": doc, "page": i, "text": t}) + "\n" for i, t in enumerate(texts)
        ),
        encoding="utf-8",
    )
    return path


class TestBM25Repair:
    """A BM25 partition that cannot be read is rebuilt from the chunk store."""

    def test_corrupted_partition_rebuilt(self, tmp_path: Path) -> None:
        """Garbage in a partition file gives the same search results, rebuilt and rewritten."""
        settings = _settings(tmp_path / "idx")
        ingest_paths(
            [SAMPLES / "NIKE_2023_10K.jsonl"], settings, embedder=FakeEmbedder(), progress=False
        )
        query = tokenize("total revenues")
        before = open_index(settings).bm25.search(query, ["NIKE_2023_10K"], 5)
        part = tmp_path / "idx" / "bm25" / "NIKE_2023_10K.pkl"
        part.write_bytes(part.read_bytes()[:40])  # truncated
        index = open_index(settings)
        assert before and index.bm25.search(query, ["NIKE_2023_10K"], 5) == before
        assert index.bm25.rebuilt[0][0] == "NIKE_2023_10K"
        assert open_index(settings).bm25._read("NIKE_2023_10K")[0] is not None  # rewritten


class TestEmbedderMismatch:
    """An index refuses a process configured with another embedder backend."""

    def test_other_backend_refused(self, tmp_path: Path) -> None:
        """Built with torch, opened with onnx-int8: a one-line IndexError_ naming both."""
        settings = _settings(tmp_path / "idx")
        ingest_paths(
            [SAMPLES / "NIKE_2023_10K.jsonl"], settings, embedder=FakeEmbedder(), progress=False
        )
        with pytest.raises(IndexError_, match="torch.*onnx-int8") as err:
            open_index(_settings(tmp_path / "idx", **{"index.embed_backend": "onnx-int8"}))
        assert "\n" not in str(err.value)

    def test_empty_index_takes_new_backend(self, tmp_path: Path) -> None:
        """An index folder without filings adopts the configured backend."""
        open_index(_settings(tmp_path / "idx"))
        index = open_index(_settings(tmp_path / "idx", **{"index.embed_backend": "onnx"}))
        assert index.info["embed_backend"] == "onnx"


class TestConcurrentIngest:
    """Two ingests into one local folder serialise; a reader keeps answering meanwhile."""

    def test_second_ingest_waits_and_loses_nothing(self, tmp_path: Path) -> None:
        """While one ingest holds the folder the other waits, then both filings are complete."""
        from filelock import FileLock

        settings = _settings(tmp_path / "idx")
        open_index(settings)
        lock = FileLock(str(tmp_path / "idx" / ".ingest.lock"))
        lock.acquire()
        done: dict[str, object] = {}

        def second() -> None:
            done["report"] = ingest_paths(
                [SAMPLES / "3M_2018_10K.jsonl"], settings, embedder=FakeEmbedder(), progress=False
            )

        worker = threading.Thread(target=second)
        worker.start()
        time.sleep(6)  # past the 5 s it tries before saying it waits
        assert worker.is_alive() and "report" not in done
        lock.release()
        worker.join(120)
        ingest_paths(
            [SAMPLES / "NIKE_2023_10K.jsonl"], settings, embedder=FakeEmbedder(), progress=False
        )
        index = open_index(settings)
        assert sorted(index.catalog()) == ["3M_2018_10K", "NIKE_2023_10K"]
        assert index.count_chunks() == sum(r.n_chunks for r in index.catalog().values())

    def test_reader_answers_during_ingest(self, tmp_path: Path) -> None:
        """A retrieval agent opened before an ingest answers from committed filings throughout it."""
        settings = _settings(tmp_path / "idx")
        ingest_paths(
            [SAMPLES / "NIKE_2023_10K.jsonl"], settings, embedder=FakeEmbedder(), progress=False
        )
        agent = RetrievalAgent(settings, embedder=FakeEmbedder())
        stop = threading.Event()
        seen: list[int] = []
        errors: list[BaseException] = []

        def ask() -> None:
            while not stop.is_set():
                try:
                    ev = agent.retrieve(
                        "What were NIKE's revenues in FY2023?", 1, doc_ids=["NIKE_2023_10K"]
                    )
                    seen.append(len(ev.items))
                except BaseException as exc:  # noqa: BLE001 - any failure fails the test
                    errors.append(exc)
                    return

        reader = threading.Thread(target=ask)
        reader.start()
        ingest_paths([SAMPLES], settings, embedder=FakeEmbedder(), progress=False)
        stop.set()
        reader.join(60)
        assert not errors and seen and all(n > 0 for n in seen)


class TestEmbedMinWords:
    """Pages with fewer words than `index.embed_min_words` stay searchable by BM25 but get no vector."""

    def test_short_page_not_embedded(self, tmp_path: Path) -> None:
        """A cover page is in BM25 and the chunk store but not among the dense vectors."""
        body = " ".join(f"revenue grew in segment {i} with margin" for i in range(20))
        src = _pages(
            tmp_path / "ACME_2022_10K.jsonl", "ACME_2022_10K", ["ACME Corp Annual Report", body]
        )
        settings = _settings(tmp_path / "idx", **{"index.embed_min_words": 20})
        ingest_paths([src], settings, embedder=FakeEmbedder(), progress=False)
        index = open_index(settings)
        ids, _ = index.vectors.get("ACME_2022_10K", lambda: index.collection) or ([], None)
        pages = {c.page for c in index.get_chunks(ids).values()}
        assert pages == {1}
        hits = index.bm25.search(tokenize("annual report"), ["ACME_2022_10K"], 3)
        assert index.get_chunks([hits[0][0]])[hits[0][0]].page == 0
