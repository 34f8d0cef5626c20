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


class TestIndexedTexts:
    """`ChunkIndex.indexed_texts` gives back what ingest embedded and BM25-indexed."""

    def test_header_then_text(self, tmp_path: Path) -> None:
        """A committed chunk's indexed text is its header line then its text; unknown ids are left out."""
        settings = _settings(tmp_path / "idx")
        ingest_paths(
            [SAMPLES / "NIKE_2023_10K.jsonl"], settings, embedder=FakeEmbedder(), progress=False
        )
        index = open_index(settings)
        chunk = index.neighbours("NIKE_2023_10K", 3, 3)[0]
        got = index.indexed_texts([chunk.chunk_id, "NOPE#1"])
        assert list(got) == [chunk.chunk_id]
        header, text = got[chunk.chunk_id].split("\n", 1)
        assert "NIKE" in header.upper() and text == chunk.text


class TestEmbedderMismatch:
    """An index keeps the embedder backend it records; a config naming another is refused."""

    def test_other_backend_refused(self, tmp_path: Path) -> None:
        """Built with torch, opened with onnx-int8 named in the config: a one-line IndexError_ naming both."""
        settings = _settings(tmp_path / "idx", **{"index.embed_backend": "torch"})
        ingest_paths(
            [SAMPLES / "NIKE_2023_10K.jsonl"], settings, embedder=FakeEmbedder(), progress=False
        )
        with pytest.raises(IndexError_, match="torch.*onnx-int8") as err:
            open_index(_settings(tmp_path / "idx", **{"index.embed_backend": "onnx-int8"}))
        assert "\n" not in str(err.value)

    def test_unset_backend_opens_with_recorded_one(
        self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        """An index built with a non-default backend opens, answers and takes new filings with that backend when the config names none."""
        from finqa.agents.config import DEFAULT_EMBED_BACKEND
        from finqa.agents.retrieval import embedder as embedder_module

        other = "onnx" if DEFAULT_EMBED_BACKEND != "onnx" else "torch"
        ingest_paths(
            [SAMPLES / "NIKE_2023_10K.jsonl"],
            _settings(tmp_path / "idx", **{"index.embed_backend": other}),
            embedder=FakeEmbedder(),
            progress=False,
        )
        asked: list[str] = []

        def fake_get_embedder(name: str = "", **kw: object) -> FakeEmbedder:
            asked.append(str(kw["backend"]))
            return FakeEmbedder()

        monkeypatch.setattr(embedder_module, "get_embedder", fake_get_embedder)
        unset = _settings(tmp_path / "idx")
        assert unset.index.embed_backend is None
        agent = RetrievalAgent(unset)
        assert agent.index.info["embed_backend"] == other
        assert agent.retrieve("NIKE revenues FY2023", 1, doc_ids=["NIKE_2023_10K"]).items
        ingest_paths([SAMPLES / "3M_2018_10K.jsonl"], unset, progress=False)
        assert asked == [other, other]
        info = json.loads((tmp_path / "idx" / "index.json").read_text(encoding="utf-8"))
        assert info["embed_backend"] == other

    def test_new_index_takes_default_backend(self, tmp_path: Path) -> None:
        """A new index with no backend in the config records the default backend."""
        from finqa.agents.config import DEFAULT_EMBED_BACKEND

        assert (
            open_index(_settings(tmp_path / "idx")).info["embed_backend"] == DEFAULT_EMBED_BACKEND
        )

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

    def test_reader_never_sees_half_written_filing(self, tmp_path: Path) -> None:
        """Every filing a reader sees listed during an ingest already has all its chunks, vectors and BM25 partition."""
        settings = _settings(tmp_path / "idx")
        open_index(settings)
        stop = threading.Event()
        checks: list[int] = []
        errors: list[str] = []

        def watch() -> None:
            index = open_index(settings)
            while not stop.is_set():
                for doc, rec in index.catalog(refresh=True).items():
                    chunks = index.neighbours(doc, 0, 10**9)
                    ids, _ = index.vectors.get(doc, lambda: index.collection) or ([], None)
                    words = tokenize(chunks[-1].text)[:8] if chunks else []
                    found = index.bm25.search(words, [doc], 1000)
                    if not (len(chunks) == len(ids) == rec.n_chunks > 0 and found):
                        errors.append(f"{doc}: {len(chunks)} chunks, {len(ids)} vectors")
                    checks.append(len(chunks))

        reader = threading.Thread(target=watch)
        reader.start()
        ingest_paths([SAMPLES], settings, embedder=FakeEmbedder(), progress=False)
        time.sleep(0.5)
        stop.set()
        reader.join(60)
        assert not errors and len(checks) >= 3


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
