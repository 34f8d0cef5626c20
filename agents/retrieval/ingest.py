"""`ingest_paths`: files/folders -> committed documents in a ChunkIndex, resumable, idempotent.

Per document: load -> metadata -> chunk (embedder tokenizer) -> embed -> Chroma upsert ->
BM25 partition -> manifest row (commit). Unchanged documents (same content hash) are
skipped; half-written ones are cleaned and redone. Loading of the next file overlaps with
the embedding of the current one, so the forward pass dominates wall time.
"""

from __future__ import annotations

import contextlib
import functools
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from finqa.agents.config import Settings
from finqa.agents.errors import IngestError
from finqa.agents.logs import get_logger
from finqa.agents.progress import write_line
from finqa.agents.retrieval._chunk_stats import number_density, page_titles
from finqa.agents.retrieval.bm25 import BM25Partition, tokenize
from finqa.agents.retrieval.chunker import chunk_pages
from finqa.agents.retrieval.loaders import LoadedDoc, SizeLimits, Skipped, discover, load_path
from finqa.agents.retrieval.metadata import doc_metadata, load_sidecar
from finqa.agents.retrieval.store import ChunkIndex, DocRecord, indexed_text, open_index
from finqa.agents.types import Chunk, Embedder

if TYPE_CHECKING:
    from finqa.lexicon.statements import StatementRead

__all__ = ["IngestReport", "ingest_paths", "Ingestor", "chunk_header", "build_statement_model"]

_log = get_logger("finqa.ingest")


@dataclass
class IngestReport:
    """What one ingest run did; `summary()` is the final one-line summary."""

    files: int = 0
    documents: int = 0
    unchanged: int = 0
    pages: int = 0
    chunks: int = 0
    skipped: list[tuple[str, str]] = field(default_factory=list)
    warnings: list[tuple[str, str]] = field(default_factory=list)
    seconds: float = 0.0
    embed_seconds: float = 0.0
    index_path: str = ""
    statement_docs: int = 0  # documents whose statement model was (re)built

    @property
    def pages_per_second(self) -> float:
        return self.pages / self.seconds if self.seconds > 0 else 0.0

    @property
    def embed_share(self) -> float:
        return self.embed_seconds / self.seconds if self.seconds > 0 else 0.0

    def summary(self) -> str:
        skipped = "; ".join(f"{Path(s.split('#')[0]).name}: {r}" for s, r in self.skipped[:6])
        more = f" (+{len(self.skipped) - 6} more)" if len(self.skipped) > 6 else ""
        return (
            f"ingested {self.files} files: {self.documents} documents ({self.unchanged} unchanged), "
            f"{self.pages} pages, {self.chunks} chunks, {len(self.skipped)} skipped"
            + (f" [{skipped}{more}]" if self.skipped else "")
            + (f", {len(self.warnings)} damaged but repaired" if self.warnings else "")
            + f", {self.seconds:.1f} s, {self.pages_per_second:.1f} pages/s, embedder {self.embed_share:.0%} of wall time"
        )


def chunk_header(meta: dict[str, Any], section: str | None) -> str:
    bits = [
        str(meta.get("company") or ""),
        str(meta.get("doc_type") or "").upper(),
        str(meta.get("period") or meta.get("fiscal_year") or ""),
    ]
    head = " ".join(b for b in bits if b)
    return f"{head} | {section}" if section else head


class Ingestor:
    """Turns loaded documents into committed index entries."""

    def __init__(
        self, index: ChunkIndex, settings: Settings, embedder: Embedder, sidecar: dict[str, Any]
    ) -> None:
        self.index = index
        self.settings = settings
        self.embedder = embedder
        self.sidecar = sidecar
        self._header_tokens: dict[str, int] = {}

    @functools.cached_property
    def window(self) -> int:
        """Word pieces per chunk: the configured size, within the embedder's [CLS] ... [SEP]."""
        max_tokens = int(getattr(self.embedder, "max_tokens", 256))
        return min(self.settings.index.chunk_tokens, max_tokens - 2)

    def _count(self, texts: Sequence[str]) -> list[int]:
        batch = getattr(self.embedder, "count_tokens_batch", None)
        if batch is not None:
            return list(batch(texts))
        return [self.embedder.count_tokens(t) for t in texts]

    def build_chunks(self, doc: LoadedDoc, meta: dict[str, Any]) -> tuple[list[Chunk], list[str]]:
        use_header = self.settings.index.chunk_header
        reserve = 0
        if use_header:  # the filing part of the header plus room for a short section title
            reserve = (
                self._count([chunk_header(meta, None)])[0]
                + 1
                + self.settings.index.header_section_tokens
            )
        budget = max(self.window - reserve, 32)
        overlap = min(self.settings.index.chunk_overlap, budget // 2)
        drafts = chunk_pages(doc.pages, self._count, budget=budget, overlap=overlap)
        fields = {
            k: meta.get(k) for k in ("company", "ticker", "doc_type", "fiscal_year", "period")
        }
        chunks = [
            Chunk(
                chunk_id=f"{doc.doc_id}#{d.position}",
                doc_id=doc.doc_id,
                page=d.page,
                position=d.position,
                section=d.section,
                text=d.text,
                **fields,
            )
            for d in drafts
        ]
        headers = [
            self._fit_header(meta, d.section, d.tokens) if use_header else "" for d in drafts
        ]
        return chunks, headers

    def _fit_header(self, meta: dict[str, Any], section: str | None, tokens: int) -> str:
        """The chunk header, its section shortened word by word until header + text fit the window."""
        words = (section or "").split()
        while True:
            header = chunk_header(meta, " ".join(words) or None)
            size = self._header_tokens.get(header)
            if size is None:
                size = self._header_tokens[header] = self._count([header])[0]
            if tokens + size + 1 <= self.window or not words:
                return header
            words = words[:-1]

    def _embedded(self, doc: LoadedDoc, chunks: Sequence[Chunk]) -> list[int]:
        """Chunks that get a vector: all, or (`index.embed_min_words`, local index only) those
        on pages with at least that many words - covers, signature and blank pages stay in BM25
        and the chunk store but cost no forward pass."""
        least = self.settings.index.embed_min_words
        if least <= 0 or self.index.server is not None:
            return list(range(len(chunks)))
        words = {page: len(text.split()) for page, text in doc.pages}
        return [i for i, c in enumerate(chunks) if words.get(c.page, least) >= least]

    def commit(self, doc: LoadedDoc) -> int:
        """Index one document (replacing an older or half-written copy); returns its chunk count."""
        meta = doc_metadata(
            doc.doc_id,
            self.sidecar.get(doc.doc_id),
            pages=[t for _, t in doc.pages[:8]],
            dei=doc.dei or None,
            sgml=doc.sgml or None,
        )
        if any(doc.page_labels):
            meta["page_labels"] = list(doc.page_labels)
        chunks, headers = self.build_chunks(doc, meta)
        self.index.prepare_doc(doc.doc_id, doc.content_hash)
        texts = [indexed_text(h, c.text) for c, h in zip(chunks, headers, strict=True)]
        if self.index.dense and chunks:
            keep = self._embedded(doc, chunks)
            vectors = self.embedder.embed([texts[i] for i in keep])
            self.index.add_vectors([chunks[i] for i in keep], vectors, [headers[i] for i in keep])
        partition = BM25Partition(
            [c.chunk_id for c in chunks],
            [tokenize(t) for t in texts],
            density=[number_density(c.text) for c in chunks],
            titled=page_titles([(c.page, c.section, c.text) for c in chunks]),
        )
        partition.content_hash = doc.content_hash
        self.index.bm25.write(doc.doc_id, partition)
        record = DocRecord(doc.doc_id, doc.content_hash, doc.n_pages, len(chunks), meta)
        self.index.commit_doc(
            record,
            chunks,
            headers,
            source=doc.source,
            kind=doc.kind,
            warning=doc.warning,
            when=datetime.now(UTC).isoformat(timespec="seconds"),
        )
        return len(chunks)


def _load_all(path: Path, repair: bool, limits: SizeLimits) -> list[LoadedDoc | Skipped]:
    out: list[LoadedDoc | Skipped] = []
    for item in load_path(path, limits):
        if isinstance(item, LoadedDoc) and item.warning and not repair:
            out.append(
                Skipped(
                    item.source, f"{item.warning.split(';')[0]}; skipped (index.repair_pdfs is off)"
                )
            )
        else:
            out.append(item)
    return out


def _prefetch(
    files: list[Path], repair: bool, limits: SizeLimits
) -> Iterator[tuple[Path, Callable[[], list[LoadedDoc | Skipped]]]]:
    """Each file with a call that returns its loaded documents; the next file loads meanwhile
    (the caller names the file it waits for before it waits)."""
    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="finqa-load") as pool:
        pending: list[tuple[Path, Future[list[LoadedDoc | Skipped]]]] = []
        for path in files[:2]:
            pending.append((path, pool.submit(_load_all, path, repair, limits)))
        next_i = len(pending)
        while pending:
            path, future = pending.pop(0)
            if next_i < len(files):
                pending.append(
                    (files[next_i], pool.submit(_load_all, files[next_i], repair, limits))
                )
                next_i += 1
            yield path, future.result


def build_statement_model(
    index_path: str | Path, doc: LoadedDoc, *, force: bool = False
) -> StatementRead | None:
    """A document's statement model, stored beside the index: its tables read from the page
    text and, for EDGAR HTML, from its own table cells, plus its inline XBRL facts (the one
    place ingest and `finqa statements --build` make it). None when the stored one is current."""
    from finqa.lexicon.statements import ensure_model
    from finqa.lexicon.xbrl import fiscal_year_end_month, statement_tables

    tagged = statement_tables(doc.doc_id, doc.facts, fiscal_year_end_month(doc.dei))
    return ensure_model(
        index_path,
        doc.doc_id,
        doc.pages,
        content_hash=doc.content_hash,
        force=force,
        extra_tables=tagged,
        grids=[(t.page, t.rows) for t in doc.tables],
    )


def _statement_model(index_path: Path, doc: LoadedDoc, report: IngestReport) -> None:
    """Parse the document's statements once into the model stored beside its chunks.

    Skipped when a model built from the same content exists; a failure is reported as a
    warning and never stops the ingest (the chunks are already committed).
    """
    try:
        read = build_statement_model(index_path, doc)
    except Exception as exc:  # noqa: BLE001 - a statement-reader bug must not lose the ingest; it is reported
        report.warnings.append((doc.source, f"statement model not built: {exc}"))
        _say(f"warning {Path(doc.source).name}: statement model not built: {exc}")
        return
    if read is not None:
        report.statement_docs += 1


def _bar_note(path: Path | None, report: IngestReport) -> str:
    """The bar's right side: the file being read (if any), then the pages and chunks so far."""
    done = f"{report.pages} pages, {report.chunks} chunks"
    return f"{path.name[:40]} | {done}" if path is not None else done


def _say(message: str) -> None:
    write_line(f"finqa ingest: {message}", sys.stderr)  # above the progress bar


def ingest_paths(
    paths: Sequence[str | Path],
    settings: Settings,
    *,
    metadata_file: str | Path | None = None,
    progress: bool = True,
    index: ChunkIndex | None = None,
    embedder: Embedder | None = None,
) -> IngestReport:
    """Ingest files/folders into the index of `settings.index.path` (or `index`)."""
    started = time.perf_counter()
    from filelock import FileLock, Timeout
    from tqdm import tqdm

    idx = index if index is not None else open_index(settings)
    report = IngestReport(index_path=str(idx.path))
    sidecar = load_sidecar(metadata_file) if metadata_file else {}
    files, skipped = discover([Path(p) for p in paths])
    for source, reason in ((s.source, s.reason) for s in skipped):
        report.skipped.append((source, reason))
        _say(f"skipped {source}: {reason}")
    if not files:
        report.seconds = time.perf_counter() - started
        return report
    if embedder is None:
        from finqa.agents.retrieval.embedder import LazyEmbedder, TokenCounter, index_embedder

        cfg = settings.index
        if idx.dense:  # the embedder the index records (checked against the config on open)
            embedder = LazyEmbedder(lambda: index_embedder(idx, settings))
        else:  # BM25-only index: the tokenizer sizes chunks, the model is never run
            embedder = LazyEmbedder(lambda: TokenCounter(cfg.embedder))
    forward_before = float(getattr(embedder, "forward_seconds", 0.0))
    # Local index: ingests into one folder serialise (the second waits). Server mode: they
    # merge (idempotent upserts per filing, see store.ChunkIndex.prepare_doc), no lock.
    with contextlib.ExitStack() as held:
        if idx.server is None:
            lock = FileLock(str(idx.path / ".ingest.lock"))
            try:
                lock.acquire(timeout=5)
            except Timeout:
                _say(f"another ingest is writing to {idx.path}; waiting for it to finish")
                lock.acquire()
            held.callback(lock.release)
        ingestor = Ingestor(idx, settings, embedder, sidecar)
        # One bar over the files (its total known from the start), the file being read or
        # embedded named on its right; notes and warnings are written above it.
        bar = tqdm(
            total=len(files),
            unit="file",
            file=sys.stderr,
            disable=not progress,
            dynamic_ncols=True,
            desc="ingest",
        )
        with bar:
            for path, load in _prefetch(
                files,
                settings.index.repair_pdfs,
                SizeLimits.of_mb(settings.index.max_pdf_mb, settings.index.max_text_mb),
            ):
                bar.set_postfix_str(_bar_note(path, report), refresh=True)
                items = load()
                report.files += 1
                for item in items:
                    if isinstance(item, Skipped):
                        report.skipped.append((item.source, item.reason))
                        _say(f"skipped {item.source}: {item.reason}")
                        continue
                    if item.warning:
                        report.warnings.append((item.source, item.warning))
                        _say(f"warning {Path(item.source).name}: {item.warning}")
                    if item.note:
                        _say(f"note {Path(item.source).name}: {item.note}")
                    if idx.committed_hash(item.doc_id) == item.content_hash:
                        report.unchanged += 1
                        _statement_model(idx.path, item, report)  # built once, if missing
                    else:
                        try:
                            report.chunks += ingestor.commit(item)
                        except IngestError as exc:
                            report.skipped.append((item.source, str(exc)))
                            _say(f"skipped {item.source}: {exc}")
                            continue
                        report.documents += 1
                        report.pages += item.n_pages
                        _statement_model(idx.path, item, report)
                bar.set_postfix_str(_bar_note(None, report), refresh=False)
                bar.update(1)
    report.seconds = time.perf_counter() - started
    report.embed_seconds = float(getattr(embedder, "forward_seconds", 0.0)) - forward_before
    _log.info(
        "ingest.done",
        files=report.files,
        documents=report.documents,
        pages=report.pages,
        chunks=report.chunks,
        skipped=len(report.skipped),
        seconds=round(report.seconds, 2),
    )
    return report
