"""ChunkIndex: chunk records (SQLite), dense vectors (ChromaDB) and BM25 partitions, one folder.

Layout of an index folder: `chunks.sqlite` (documents manifest + chunk text/metadata),
`chroma/` (persistent Chroma), `bm25/` (one pickled partition per filing), `vectors/` (per-
filing copies of the vectors for exact filtered search), `index.json` (embedder and chunking
the index was built with). A document is *committed* when its manifest row exists: it is
written last, in one transaction, after its vectors and BM25 partition. Anything of an
uncommitted document is removed before it is ingested again, so a killed run resumes without
duplicates or holes.

Server mode (`index.chroma_url`): vectors, chunk text, metadata and the manifest live only in
the Chroma server (see `_server_store`); the local folder holds caches only - BM25 partitions,
rebuilt from the server's chunk text on first use (checked against the filing's content hash),
so a second machine with the same URL and an empty folder answers the same questions.
A BM25 partition that cannot be read is rebuilt from the chunk store, in both modes.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from finqa.agents.config import Settings
from finqa.agents.errors import IndexError_
from finqa.agents.retrieval._chroma import (
    INDEX_VERSION,
    check_info,
    chroma_client,
    chroma_meta,
    describe_identity,
    hnsw_search,
    identity_clash,
    open_collection,
    wanted_info,
)
from finqa.agents.retrieval._chunk_stats import number_density, page_titles
from finqa.agents.retrieval._server_store import ChunkRow, ServerChunks
from finqa.agents.retrieval._vectors import DocVectors
from finqa.agents.retrieval.bm25 import BM25Partition, BM25Store, tokenize
from finqa.agents.types import Chunk

__all__ = ["ChunkIndex", "DocRecord", "open_index", "indexed_text", "INDEX_VERSION"]

_SCHEMA = """
CREATE TABLE IF NOT EXISTS docs (
  doc_id TEXT PRIMARY KEY, content_hash TEXT NOT NULL, source TEXT, kind TEXT,
  n_pages INTEGER, n_chunks INTEGER, meta TEXT, warning TEXT, ingested_at TEXT);
CREATE TABLE IF NOT EXISTS chunks (
  chunk_id TEXT PRIMARY KEY, doc_id TEXT NOT NULL, position INTEGER NOT NULL, page INTEGER NOT NULL,
  page_end INTEGER, section TEXT, text TEXT NOT NULL, header TEXT);
CREATE INDEX IF NOT EXISTS chunks_doc ON chunks (doc_id, position);
"""
_META_KEYS = ("company", "ticker", "doc_type", "fiscal_year", "period", "fy_label")


@dataclass(frozen=True)
class DocRecord:
    doc_id: str
    content_hash: str
    n_pages: int
    n_chunks: int
    meta: Mapping[str, Any]


class ChunkIndex:
    """The persisted index; safe for one writer (ingest holds a file lock) and many readers."""

    def __init__(self, path: Path, settings: Settings) -> None:
        self.path = path
        self.settings = settings
        path.mkdir(parents=True, exist_ok=True)
        self._local = threading.local()
        self._collection: Any = None
        self._client_obj: Any = None  # the Chroma client (server mode: opened at start)
        self._collection_lock = threading.Lock()  # concurrent first opens of Chroma race
        self._catalog: dict[str, DocRecord] | None = None
        self._sections: dict[str, list[tuple[str, str]]] = {}  # doc_id -> (chunk_id, section)
        self.server: ServerChunks | None = None
        if settings.index.chroma_url:
            if settings.index.dense != "all":
                raise IndexError_(
                    "index.chroma_url needs index.dense: all (the server stores chunks with their vectors)"
                )
            self.info = wanted_info(settings)
            self._client_obj = chroma_client(settings, path)
            self.server = ServerChunks(
                self._client_obj,
                self.info["collection"],
                {k: v for k, v in self.info.items() if k != "collection"},
                str(settings.index.chroma_url),
            )
            self.info["embed_backend"] = self.server.info["embed_backend"]
            self.server.chunks = self.collection
        else:
            with self._db() as db:
                db.executescript(_SCHEMA)
            self.info = check_info(path, settings, self.count_docs)
        self.dense = self.info["dense"] == "all"
        self.bm25 = BM25Store(
            path / "bm25",
            cache_size=settings.index.bm25_cache_docs,
            rebuild=self._bm25_partition,
            current=self.committed_hash_cached,
        )
        cache = settings.index.bm25_cache_docs
        self.vectors = DocVectors(None if self.server else path / "vectors", cache_size=cache)

    def embed_record(self) -> dict[str, Any]:
        """How the index's vectors were made, as recorded (server mode: on the server)."""
        if self.server is not None:
            return {**self.info, **self.server.built_info()}
        return dict(self.info)

    def bind_embedder(self, identity: Mapping[str, Any], why: str | None = None) -> None:
        """Record the embedder that makes (or queries) this index's vectors, or refuse one
        whose vectors would not share their space: an index holding filings embedded by
        another backend, file or int8 config gets a one-line IndexError_ (an empty one adopts
        the new embedder). `why`: the embedder's fallback note, named in the error."""
        if not self.dense or not identity:
            return
        recorded = self.embed_record()
        clash = identity_clash(recorded, identity)
        if clash and self.count_docs():
            because = f" ({why})" if why else ""
            raise IndexError_(
                f"index {self.path} was embedded with {describe_identity(recorded)}; this "
                f"process embeds with {describe_identity(identity)}{because}. Vectors of two "
                "embedders never mix: set index.embed_backend to the index's, or ingest into "
                "a new --index folder"
            )
        if not clash and all(k in recorded for k in identity):
            return
        self.info.update({k: v for k, v in identity.items()})
        if self.server is not None:
            self.server.record_info(identity)
        else:
            (self.path / "index.json").write_text(json.dumps(self.info, indent=1), encoding="utf-8")

    # ------------------------------------------------------------------ plumbing
    def _db(self) -> sqlite3.Connection:
        conn = getattr(self._local, "conn", None)
        if conn is None:
            conn = sqlite3.connect(self.path / "chunks.sqlite", timeout=60)
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA synchronous=NORMAL")
            self._local.conn = conn
        return conn

    @property
    def collection(self) -> Any:
        if self._collection is None:
            with self._collection_lock:
                if self._collection is None:
                    where = self.settings.index.chroma_url or str(self.path / "chroma")
                    self._collection = open_collection(
                        lambda: self._client_obj or chroma_client(self.settings, self.path),
                        self.info.get("collection", self.settings.index.collection),
                        where,
                    )
        return self._collection

    # ------------------------------------------------------------------ catalog
    def count_docs(self) -> int:
        if self.server is not None:
            return len(self.catalog(refresh=True))
        return int(self._db().execute("SELECT COUNT(*) FROM docs").fetchone()[0])

    def count_chunks(self) -> int:
        if self.server is not None:
            return sum(r.n_chunks for r in self.catalog(refresh=True).values())
        return int(self._db().execute("SELECT COUNT(*) FROM chunks").fetchone()[0])

    def catalog(self, *, refresh: bool = False) -> dict[str, DocRecord]:
        """Committed filings; read once per process (`refresh=True` re-reads it)."""
        if self._catalog is None or refresh:
            if self.server is not None:
                rows: list[Any] = self.server.manifest()
            else:
                rows = [
                    (r[0], r[1], r[2], r[3], json.loads(r[4] or "{}"))
                    for r in self._db()
                    .execute("SELECT doc_id, content_hash, n_pages, n_chunks, meta FROM docs")
                    .fetchall()
                ]
            self._catalog = {r[0]: DocRecord(*r) for r in rows}
        return self._catalog

    def committed_hash(self, doc_id: str) -> str | None:
        if self.server is not None:
            return self.server.committed_hash(doc_id)
        row = (
            self._db().execute("SELECT content_hash FROM docs WHERE doc_id=?", (doc_id,)).fetchone()
        )
        return None if row is None else str(row[0])

    def committed_hash_cached(self, doc_id: str) -> str | None:
        rec = self.catalog().get(doc_id)
        return rec.content_hash if rec else None

    # ------------------------------------------------------------------ writing
    def prepare_doc(self, doc_id: str, content_hash: str) -> None:
        """Before (re)writing a filing. Local: remove every trace of it. Server: chunk writes are
        idempotent upserts (ids `doc#position`), so only a committed *different* version is
        withdrawn first (readers then see old or new content, never a mix); another process
        writing the same version concurrently loses nothing."""
        if self.server is None:
            self.remove_doc(doc_id)
            return
        old = self.server.committed_hash(doc_id)
        if old is not None and old != content_hash:
            self.server.uncommit(doc_id)
        self.vectors.delete(doc_id)
        self._catalog = None

    def remove_doc(self, doc_id: str) -> None:
        """Delete every trace of a document (committed or half-written)."""
        self.vectors.delete(doc_id)
        if self.server is not None:
            self.server.delete(doc_id)
            self.bm25.delete(doc_id)
            self._catalog = None
            return
        if self.dense:
            self.collection.delete(where={"doc_id": doc_id})
        self.bm25.delete(doc_id)
        with self._db() as db:
            db.execute("DELETE FROM chunks WHERE doc_id=?", (doc_id,))
            db.execute("DELETE FROM docs WHERE doc_id=?", (doc_id,))
        self._catalog = None

    def add_vectors(
        self,
        chunks: Sequence[Chunk],
        vectors: Sequence[Sequence[float]],
        headers: Sequence[str] | None = None,
    ) -> None:
        """Upsert the chunks' vectors (server mode: with their text, header and metadata)."""
        if self.server is not None:
            heads = list(headers) if headers is not None else [""] * len(chunks)
            self.server.upsert(
                [c.chunk_id for c in chunks],
                vectors,
                [c.text for c in chunks],
                [chroma_meta(c, h) for c, h in zip(chunks, heads, strict=True)],
            )
            return
        if chunks:
            self._save_vectors(chunks[0].doc_id, [c.chunk_id for c in chunks], vectors)
        for start in range(0, len(chunks), 1000):
            part = chunks[start : start + 1000]
            metas = [chroma_meta(c) for c in part]
            self.collection.upsert(
                ids=[c.chunk_id for c in part],
                embeddings=[list(v) for v in vectors[start : start + 1000]],
                metadatas=metas,
            )

    def commit_doc(
        self,
        record: DocRecord,
        chunks: Sequence[Chunk],
        headers: Sequence[str],
        *,
        source: str,
        kind: str,
        warning: str | None,
        when: str,
    ) -> None:
        if self.server is not None:
            self.server.commit(
                record.doc_id,
                len(chunks),
                {
                    "content_hash": record.content_hash,
                    "source": source,
                    "kind": kind,
                    "n_pages": record.n_pages,
                    "n_chunks": record.n_chunks,
                    "meta": json.dumps(dict(record.meta)),
                    "warning": warning,
                    "ingested_at": when,
                },
            )
            self._catalog = None
            return
        with self._db() as db:
            db.executemany(
                "INSERT OR REPLACE INTO chunks VALUES (?,?,?,?,?,?,?,?)",
                [
                    (c.chunk_id, c.doc_id, c.position, c.page, c.page_end, c.section, c.text, h)
                    for c, h in zip(chunks, headers, strict=True)
                ],
            )
            db.execute(
                "INSERT OR REPLACE INTO docs VALUES (?,?,?,?,?,?,?,?,?)",
                (
                    record.doc_id,
                    record.content_hash,
                    source,
                    kind,
                    record.n_pages,
                    record.n_chunks,
                    json.dumps(dict(record.meta)),
                    warning,
                    when,
                ),
            )
        self._catalog = None

    def rebuild_bm25(self, doc_ids: Iterable[str] | None = None) -> int:
        """Rebuild BM25 partitions from the stored chunk text (after a tokenizer/format change)."""
        count = 0
        for doc_id in list(doc_ids) if doc_ids is not None else list(self.catalog()):
            partition = self._bm25_partition(doc_id)
            if partition is not None:
                self.bm25.write(doc_id, partition)
                count += 1
        return count

    def _bm25_partition(self, doc_id: str) -> BM25Partition | None:
        """A filing's BM25 partition built from the chunk store (header + text, as at ingest)."""
        rows = self._filing_rows(doc_id)
        if rows is None:
            return None
        texts = [indexed_text(r[7], r[6]) for r in rows]
        partition = BM25Partition(
            [r[0] for r in rows],
            [tokenize(t) for t in texts],
            density=[number_density(r[6]) for r in rows],
            titled=page_titles([(r[3], r[5], r[6]) for r in rows]),
        )
        partition.content_hash = self.committed_hash_cached(doc_id)
        return partition

    def _filing_rows(self, doc_id: str) -> list[ChunkRow] | None:
        """All chunk rows of a committed filing in order (None when it is not committed)."""
        if self.server is not None:
            rec = self.catalog().get(doc_id)
            return None if rec is None else self.server.filing(doc_id, rec.content_hash)
        rows = (
            self._db()
            .execute(
                "SELECT chunk_id, doc_id, position, page, page_end, section, text, header "
                "FROM chunks WHERE doc_id=? ORDER BY position",
                (doc_id,),
            )
            .fetchall()
        )
        return [(r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7] or "") for r in rows] or None

    # ------------------------------------------------------------------ reading
    def get_chunks(self, chunk_ids: Iterable[str]) -> dict[str, Chunk]:
        ids = list(dict.fromkeys(chunk_ids))
        out: dict[str, Chunk] = {}
        if self.server is not None:  # only committed filings are visible
            catalog = self.catalog()
            rest: list[str] = []
            by_doc: dict[str, set[str]] = {}
            for cid in ids:
                by_doc.setdefault(cid.rsplit("#", 1)[0], set()).add(cid)
            for doc_id, members in by_doc.items():  # filings this process holds: no request
                rec = catalog.get(doc_id)
                held = self.server.cached_filing(doc_id, rec.content_hash) if rec else None
                if held is None:
                    rest.extend(members)
                    continue
                out.update((r[0], self._chunk(r)) for r in held if r[0] in members)
            if rest:
                rows = self.server.rows(rest)
                out.update((r[0], self._chunk(r)) for r in rows if r[1] in catalog)
            return out
        for start in range(0, len(ids), 500):
            part = ids[start : start + 500]
            marks = ",".join("?" * len(part))
            rows = (
                self._db()
                .execute(
                    f"SELECT chunk_id, doc_id, position, page, page_end, section, text FROM chunks WHERE chunk_id IN ({marks})",
                    part,
                )
                .fetchall()
            )
            out.update((r[0], self._chunk(r)) for r in rows)
        return out

    def indexed_texts(self, chunk_ids: Iterable[str]) -> dict[str, str]:
        """The text each committed chunk was embedded and BM25-indexed with (header + text)."""
        ids = list(dict.fromkeys(chunk_ids))
        if self.server is not None:
            catalog = self.catalog()
            return {
                r[0]: indexed_text(r[7], r[6]) for r in self.server.rows(ids) if r[1] in catalog
            }
        out: dict[str, str] = {}
        for start in range(0, len(ids), 500):
            part = ids[start : start + 500]
            marks = ",".join("?" * len(part))
            sql = f"SELECT chunk_id, header, text FROM chunks WHERE chunk_id IN ({marks})"
            out.update((r[0], indexed_text(r[1], r[2])) for r in self._db().execute(sql, part))
        return out

    def neighbours(self, doc_id: str, first: int, last: int) -> list[Chunk]:
        if self.server is not None:
            found = self._filing_rows(doc_id) or []
            return [self._chunk(r) for r in found if first <= r[2] <= last]
        rows = (
            self._db()
            .execute(
                "SELECT chunk_id, doc_id, position, page, page_end, section, text FROM chunks "
                "WHERE doc_id=? AND position BETWEEN ? AND ? ORDER BY position",
                (doc_id, first, last),
            )
            .fetchall()
        )
        return [self._chunk(r) for r in rows]

    def page_chunks(self, doc_id: str, page: int) -> list[Chunk]:
        """Every chunk of one page of a filing, in order."""
        if self.server is not None:
            return [self._chunk(r) for r in self._filing_rows(doc_id) or [] if r[3] == page]
        rows = (
            self._db()
            .execute(
                "SELECT chunk_id, doc_id, position, page, page_end, section, text FROM chunks "
                "WHERE doc_id=? AND page=? ORDER BY position",
                (doc_id, page),
            )
            .fetchall()
        )
        return [self._chunk(r) for r in rows]

    def first_text(self, doc_id: str, page: int) -> str | None:
        """The text of a page's first chunk (None when the page has none)."""
        if self.server is not None:
            found = [r[6] for r in self._filing_rows(doc_id) or [] if r[3] == page]
            return found[0] if found else None
        row = (
            self._db()
            .execute(
                "SELECT text FROM chunks WHERE doc_id=? AND page=? ORDER BY position LIMIT 1",
                (doc_id, page),
            )
            .fetchone()
        )
        return None if row is None else str(row[0])

    def sections(self, doc_id: str) -> list[tuple[str, str]]:
        """(chunk_id, section) of a filing's chunks that have a section heading, in order."""
        cache = self._sections
        if doc_id not in cache and self.server is not None:
            found = self._filing_rows(doc_id) or []
            cache[doc_id] = [(r[0], str(r[5])) for r in found if r[5] is not None]
        if doc_id not in cache:
            rows = (
                self._db()
                .execute(
                    "SELECT chunk_id, section FROM chunks WHERE doc_id=? AND section IS NOT NULL ORDER BY position",
                    (doc_id,),
                )
                .fetchall()
            )
            cache[doc_id] = [(str(r[0]), str(r[1])) for r in rows]
        return cache[doc_id]

    def _chunk(self, row: Sequence[Any]) -> Chunk:
        meta = self.catalog().get(row[1])
        extra = {k: meta.meta.get(k) for k in _META_KEYS} if meta else {}
        return Chunk(
            chunk_id=row[0],
            doc_id=row[1],
            position=row[2],
            page=row[3],
            page_end=row[4],
            section=row[5],
            text=row[6],
            **extra,
        )

    # ------------------------------------------------------------------ dense, filter first
    def _save_vectors(self, doc_id: str, ids: Sequence[str], vectors: Any) -> None:
        self.vectors.save(doc_id, ids, vectors)

    def _doc_vectors(self, doc_id: str) -> tuple[list[str], Any] | None:
        return self.vectors.get(doc_id, lambda: self.collection)

    def dense_search(
        self, vector: Sequence[float], n: int, doc_ids: Sequence[str] | None
    ) -> list[tuple[str, float]]:
        """Top-n (chunk_id, cosine): exact over a few filtered filings, Chroma HNSW otherwise."""
        if not self.dense or n <= 0:
            return []
        if doc_ids is not None and 0 < len(doc_ids) <= self.settings.index.dense_filter_docs:
            return self.vectors.search(vector, n, doc_ids, lambda: self.collection)
        return hnsw_search(self.collection, vector, n, doc_ids)


def indexed_text(header: str | None, text: str) -> str:
    """What ingest embeds and BM25-indexes for a chunk: its header line, then its text."""
    return f"{header}\n{text}" if header else text


def open_index(
    settings: Settings, path: str | Path | None = None, *, create: bool = True
) -> ChunkIndex:
    """Open the index at `path` or `settings.index.path`; create it unless `create=False`."""
    where = Path(path or settings.index.path).expanduser()
    if not create and not settings.index.chroma_url and not (where / "chunks.sqlite").exists():
        raise IndexError_(
            f"no finqa index at {where}; build one with: finqa ingest PATH... --index {where}"
        )
    return ChunkIndex(where, settings)
