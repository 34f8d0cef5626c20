"""Server mode of the index (`index.chroma_url`): the Chroma server is the only store of record.

Two collections on the server:
- `<collection>` - one record per chunk: id, embedding, document (chunk text) and metadata
  (doc_id, position, page, page_end, section, header, company, ticker, doc_type, fiscal_year,
  period);
- `<collection>__docs` - the manifest, one record per committed filing (content hash, pages,
  chunks, source, metadata as JSON), plus one record `__finqa_index__` saying what the index
  was built with (embedder, backend, chunk size), written with the first commit: a process
  configured otherwise is refused.
A filing is committed when its manifest record exists; it is written after all its chunks.
Readers only see chunks of committed filings (`ServerChunks.get` drops the rest), so an ingest
in progress never shows a half-written filing. Chunk ids are `doc#position` and chunk writes are
upserts, so two ingests of the same filing write the same records (no duplicates, nothing lost)
and an ingest killed mid-way resumes by writing them again.

Each process keeps whole filings it has read in an LRU (text + metadata); the local folder of
`index.path` only holds caches (BM25 partitions rebuilt from the server's chunk text).
"""

from __future__ import annotations

import json
import threading
import time
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from typing import Any

from finqa.agents.config import DEFAULT_EMBED_BACKEND
from finqa.agents.errors import IndexError_

__all__ = ["ServerChunks", "ChunkRow"]

# (chunk_id, doc_id, position, page, page_end, section, text, header)
ChunkRow = tuple[str, str, int, int, int | None, str | None, str, str]
INFO_ID = "__finqa_index__"
_PAGE = 1000  # records per request
_RETRIES = (0.5, 1.0, 2.0, 4.0)  # seconds between retries of a failed request


def _transient(exc: BaseException) -> bool:
    """Connection-level failures (server restarting, network blip), worth a retry."""
    name = type(exc).__name__.lower()
    text = str(exc).lower()
    return any(w in name for w in ("connect", "timeout", "network", "remote")) or any(
        w in text for w in ("connection", "could not connect", "timed out", "unavailable")
    )


def _retry_hint(url: str, exc: BaseException) -> IndexError_:
    first = str(exc).splitlines()[0][:160] if str(exc) else type(exc).__name__
    return IndexError_(
        f"Chroma server {url} is unreachable or failed ({first}); start it or fix "
        "index.chroma_url, then run the same command again (committed filings are kept)"
    )


class ServerChunks:
    """Chunk text, metadata and the filing manifest in a Chroma server."""

    def __init__(self, client: Any, name: str, info: Mapping[str, Any], url: str) -> None:
        self.url = url
        self.info = dict(info)
        self._backend_unset = False
        self.name = name
        try:
            self.docs = client.get_or_create_collection(
                name=f"{name}__docs", metadata={"hnsw:space": "l2"}, embedding_function=None
            )
        except Exception as exc:  # noqa: BLE001 - chromadb raises many types for an unreachable or refusing server; all get the retry hint
            raise _retry_hint(url, exc) from None
        self._info_written = False
        self.check_info()
        self._lock = threading.Lock()
        self._files: OrderedDict[tuple[str, str], list[ChunkRow]] = OrderedDict()
        self._file_cache = 64
        self.chunks: Any = None  # the chunk collection, set by the index once opened

    def check_info(self) -> None:
        """Refuse an index built with another embedder/backend/chunking than configured; an
        unset (None) embedder backend takes the index's own, or the default for a new index."""
        got = self.call(self.docs.get, ids=[INFO_ID], include=["metadatas"])
        if not got["ids"]:
            if self.info.get("embed_backend") is None:
                self.info["embed_backend"] = DEFAULT_EMBED_BACKEND
            return
        built = got["metadatas"][0] or {}
        self._info_written = True
        if self._backend_unset or self.info.get("embed_backend") is None:
            self._backend_unset = True
            self.info["embed_backend"] = built.get("embed_backend", "torch")
        clash = {
            k: (str(built[k]), str(v))
            for k, v in self.info.items()
            if k in built and str(built[k]) != str(v) and k != "version"
        }
        if clash:
            what = ", ".join(f"{k} {a!r} (config: {b!r})" for k, (a, b) in sorted(clash.items()))
            raise IndexError_(
                f"the index {self.name!r} on {self.url} was built with {what}; use the same "
                "settings or another index.collection - vectors of different embedders never mix"
            )

    def built_info(self) -> dict[str, Any]:
        """The build record on the server ({} before the first filing is committed)."""
        got = self.call(self.docs.get, ids=[INFO_ID], include=["metadatas"])
        return dict(got["metadatas"][0] or {}) if got["ids"] else {}

    def record_info(self, values: Mapping[str, Any]) -> None:
        """Add to the build record (the embedder's identity); written with the first commit,
        or now when the record is already on the server."""
        self.info.update({k: v for k, v in values.items() if v is not None})
        if self._info_written:
            info = {k: str(v) for k, v in {**self.built_info(), **self.info}.items()}
            self.call(self.docs.upsert, ids=[INFO_ID], embeddings=[[0.0]], metadatas=[info])

    # ------------------------------------------------------------------ manifest
    def call(self, fn: Any, *args: Any, **kwargs: Any) -> Any:
        """One server request; connection failures are retried briefly, then a one-line error."""
        for wait in (*_RETRIES, None):
            try:
                return fn(*args, **kwargs)
            except IndexError_:
                raise
            except Exception as exc:  # noqa: BLE001 - transient network errors of any type are retried; the rest get the retry hint
                if wait is None or not _transient(exc):
                    raise _retry_hint(self.url, exc) from None
                time.sleep(wait)
        raise AssertionError("unreachable")  # pragma: no cover

    def manifest(self) -> list[tuple[str, str, int, int, dict[str, Any]]]:
        """(doc_id, content_hash, n_pages, n_chunks, meta) of every committed filing."""
        out = []
        offset = 0
        while True:
            got = self.call(self.docs.get, include=["metadatas"], limit=_PAGE, offset=offset)
            for doc_id, m in zip(got["ids"], got["metadatas"], strict=True):
                if doc_id == INFO_ID:
                    continue
                out.append(
                    (
                        doc_id,
                        str(m["content_hash"]),
                        int(m.get("n_pages", 0)),
                        int(m.get("n_chunks", 0)),
                        json.loads(str(m.get("meta") or "{}")),
                    )
                )
            if len(got["ids"]) < _PAGE:
                return out
            offset += _PAGE

    def committed_hash(self, doc_id: str) -> str | None:
        got = self.call(self.docs.get, ids=[doc_id], include=["metadatas"])
        return str(got["metadatas"][0]["content_hash"]) if got["ids"] else None

    def uncommit(self, doc_id: str) -> None:
        self.call(self.docs.delete, ids=[doc_id])
        self._forget(doc_id)

    def delete(self, doc_id: str) -> None:
        """Every trace of a filing: manifest first (readers stop seeing it), then its chunks."""
        self.uncommit(doc_id)
        self.call(self.chunks.delete, where={"doc_id": doc_id})

    def commit(self, doc_id: str, n_chunks: int, manifest: Mapping[str, Any]) -> None:
        """Drop chunks beyond the new count (an older, longer version), then the manifest record."""
        self.call(
            self.chunks.delete,
            where={"$and": [{"doc_id": doc_id}, {"position": {"$gte": n_chunks}}]},
        )
        meta = {k: v for k, v in manifest.items() if v is not None}
        if not self._info_written:
            self.check_info()  # another process may have started the index meanwhile
            info = {k: str(v) for k, v in self.info.items()}
            self.call(self.docs.upsert, ids=[INFO_ID], embeddings=[[0.0]], metadatas=[info])
            self._info_written = True
        self.call(self.docs.upsert, ids=[doc_id], embeddings=[[0.0]], metadatas=[meta])
        self._forget(doc_id)

    # ------------------------------------------------------------------ chunks
    def upsert(
        self,
        ids: Sequence[str],
        embeddings: Sequence[Sequence[float]],
        documents: Sequence[str],
        metadatas: Sequence[Mapping[str, Any]],
    ) -> None:
        for start in range(0, len(ids), _PAGE):
            end = start + _PAGE
            self.call(
                self.chunks.upsert,
                ids=list(ids[start:end]),
                embeddings=[list(v) for v in embeddings[start:end]],
                documents=list(documents[start:end]),
                metadatas=[dict(m) for m in metadatas[start:end]],
            )

    def rows(self, chunk_ids: Sequence[str]) -> list[ChunkRow]:
        out: list[ChunkRow] = []
        for start in range(0, len(chunk_ids), _PAGE):
            got = self.call(
                self.chunks.get,
                ids=list(chunk_ids[start : start + _PAGE]),
                include=["documents", "metadatas"],
            )
            out.extend(
                _row(i, d, m)
                for i, d, m in zip(got["ids"], got["documents"], got["metadatas"], strict=True)
            )
        return out

    def cached_filing(self, doc_id: str, content_hash: str) -> list[ChunkRow] | None:
        """The filing's rows if this process already holds that version (no request)."""
        with self._lock:
            return self._files.get((doc_id, content_hash))

    def filing(self, doc_id: str, content_hash: str) -> list[ChunkRow]:
        """Every chunk of one committed filing, in order (cached per process by content hash)."""
        key = (doc_id, content_hash)
        with self._lock:
            hit = self._files.get(key)
            if hit is not None:
                self._files.move_to_end(key)
                return hit
        rows: list[ChunkRow] = []
        offset = 0
        while True:
            got = self.call(
                self.chunks.get,
                where={"doc_id": doc_id},
                include=["documents", "metadatas"],
                limit=_PAGE,
                offset=offset,
            )
            rows.extend(
                _row(i, d, m)
                for i, d, m in zip(got["ids"], got["documents"], got["metadatas"], strict=True)
            )
            if len(got["ids"]) < _PAGE:
                break
            offset += _PAGE
        rows.sort(key=lambda r: r[2])
        with self._lock:
            self._files[key] = rows
            while len(self._files) > self._file_cache:
                self._files.popitem(last=False)
        return rows

    def _forget(self, doc_id: str) -> None:
        with self._lock:
            for key in [k for k in self._files if k[0] == doc_id]:
                del self._files[key]


def _row(chunk_id: str, text: str | None, m: Mapping[str, Any]) -> ChunkRow:
    end = m.get("page_end")
    return (
        chunk_id,
        str(m["doc_id"]),
        int(m["position"]),
        int(m["page"]),
        int(end) if end is not None else None,
        str(m["section"]) if m.get("section") is not None else None,
        text or "",
        str(m.get("header") or ""),
    )
