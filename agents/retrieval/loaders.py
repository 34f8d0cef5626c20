"""Loaders: files -> documents of 0-based pages (PDF, HTML, plain text, page JSONL[.gz]).

Every loader yields `LoadedDoc`s or `Skipped` records; a damaged file never stops a run.
PDF pages keep the file's own 0-based numbering. HTML is paged at its CSS page breaks
(EDGAR's `page-break-after` / `<hr>` separators) with the printed page numbers kept as
labels, tables as cells, and inline XBRL facts read with the page they sit on. An EDGAR
full-submission `.txt` yields its primary document and each exhibit as documents of their
own (`NAME__EX-99.1`), with the SGML header's fields. Other text is one page (page 0)
unless it contains form feeds, which split pages.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from finqa.agents.retrieval._html import HtmlTable
    from finqa.lexicon.xbrl import XbrlFact

__all__ = [
    "LoadedDoc",
    "Skipped",
    "SizeLimits",
    "SUPPORTED_SUFFIXES",
    "discover",
    "load_path",
    "normalize_text",
    "doc_id_for",
    "html_tree",
    "decode_text",
    "FALLBACK_ENCODINGS",
]

SUPPORTED_SUFFIXES = (".pdf", ".html", ".htm", ".txt", ".md", ".jsonl", ".jsonl.gz")
_WS = re.compile(r"[ \t\u00a0\u2009\u202f\r\f\v]+")


@dataclass(frozen=True)
class LoadedDoc:
    """One filing, page by page (page numbers 0-based, as in the source)."""

    doc_id: str
    source: str
    kind: str  # pdf | html | text | jsonl
    pages: tuple[tuple[int, str], ...]
    content_hash: str
    warning: str | None = None  # e.g. "damaged PDF repaired"
    extra: dict[str, str] = field(default_factory=dict)
    dei: Mapping[str, str] = field(default_factory=dict)  # inline XBRL cover facts by local name
    sgml: Mapping[str, Sequence[str]] = field(default_factory=dict)  # EDGAR header fields
    page_labels: tuple[str | None, ...] = ()  # printed page number of each page, when found
    tables: tuple[HtmlTable, ...] = ()  # HTML tables as cells, with their page
    facts: tuple[XbrlFact, ...] = ()  # inline XBRL numeric facts, with their page
    note: str | None = None  # reported at ingest, not a defect (e.g. "not UTF-8: read as cp1252")

    @property
    def n_pages(self) -> int:
        return len(self.pages)


@dataclass(frozen=True)
class Skipped:
    """A file, document or line that was not ingested, and why (one line)."""

    source: str
    reason: str


def normalize_text(text: str) -> str:
    """Strip each line, collapse runs of blanks, drop empty lines (extractor-independent text)."""
    lines = (_WS.sub(" ", line).strip() for line in text.replace("\r\n", "\n").split("\n"))
    return "\n".join(line for line in lines if line)


def doc_id_for(path: Path) -> str:
    name = path.name
    for suffix in sorted(SUPPORTED_SUFFIXES, key=len, reverse=True):
        if name.lower().endswith(suffix):
            return name[: -len(suffix)]
    return path.stem


def _suffix(path: Path) -> str | None:
    name = path.name.lower()
    return next(
        (s for s in sorted(SUPPORTED_SUFFIXES, key=len, reverse=True) if name.endswith(s)), None
    )


def _hidden(relative: Path) -> bool:
    """Inside a hidden folder or hidden itself (.git, .finqa with its index and audit log)."""
    return any(part.startswith(".") for part in relative.parts)


def _index_audit_log(path: Path) -> bool:
    """An index's own audit log (`<index>/audit.jsonl`, beside its `index.json`): not a filing."""
    return path.name == "audit.jsonl" and (path.parent / "index.json").is_file()


def discover(paths: list[Path]) -> tuple[list[Path], list[Skipped]]:
    """Expand files and folders (recursively) into supported files, in sorted order."""
    files: list[Path] = []
    skipped: list[Skipped] = []
    for path in paths:
        if path.is_dir():
            found = sorted(
                p
                for p in path.rglob("*")
                if p.is_file()
                and _suffix(p)
                and not _hidden(p.relative_to(path))
                and not _index_audit_log(p)
            )
            if not found:
                skipped.append(
                    Skipped(
                        str(path),
                        f"no supported file in folder (expected {', '.join(SUPPORTED_SUFFIXES)})",
                    )
                )
            files.extend(found)
        elif path.is_file():
            if _suffix(path):
                files.append(path)
            else:
                skipped.append(
                    Skipped(str(path), f"unsupported file type {path.suffix or '(none)'!r}")
                )
        else:
            skipped.append(Skipped(str(path), "no such file or folder"))
    return files, skipped


def _hash_pages(pages: tuple[tuple[int, str], ...]) -> str:
    digest = hashlib.sha256()
    for number, text in pages:
        digest.update(f"{number}\x00{text}\x01".encode())
    return digest.hexdigest()


@dataclass(frozen=True)
class SizeLimits:
    """The largest file ingest reads, by kind (bytes); a larger one is skipped, not read."""

    pdf: int = 200 << 20
    text: int = 50 << 20  # HTML, plain text, EDGAR submissions

    @classmethod
    def of_mb(cls, pdf_mb: float, text_mb: float) -> SizeLimits:
        return cls(pdf=int(pdf_mb * (1 << 20)), text=int(text_mb * (1 << 20)))

    def over(self, suffix: str | None, size: int) -> str | None:
        """The skip reason when a file of this suffix and size is over its limit, else None."""
        if suffix == ".pdf":
            limit, kind, key = self.pdf, "PDF", "index.max_pdf_mb"
        elif suffix in (".html", ".htm", ".txt", ".md"):
            limit, kind, key = self.text, "HTML/text", "index.max_text_mb"
        else:
            return None
        if size <= limit:
            return None
        return (
            f"file too large: {size / (1 << 20):.1f} MB, over the {limit / (1 << 20):g} MB limit "
            f"for {kind} (raise {key} to ingest it)"
        )


def load_path(path: Path, limits: SizeLimits | None = None) -> Iterator[LoadedDoc | Skipped]:
    """Load one file; yields documents (JSONL may hold many) and skip records. A file over its
    size limit (default `SizeLimits()`) is skipped before it is read."""
    suffix = _suffix(path)
    try:
        size = path.stat().st_size
        if size == 0:
            yield Skipped(str(path), "empty file (0 bytes)")
            return
        too_big = (limits or SizeLimits()).over(suffix, size)
        if too_big:
            yield Skipped(str(path), too_big)
            return
        if suffix == ".pdf":
            yield _load_pdf(path)
        elif suffix in (".html", ".htm"):
            yield _load_html(path, doc_id_for(path), path.read_bytes())
        elif suffix == ".txt" and _is_full_submission(path):
            yield from _load_submission(path)
        elif suffix in (".txt", ".md"):
            text, note = decode_text(path.read_bytes())
            item = _single(path, "text", text)
            yield replace(item, note=note) if isinstance(item, LoadedDoc) and note else item
        elif suffix in (".jsonl", ".jsonl.gz"):
            yield from _load_jsonl(path)
        else:
            yield Skipped(str(path), "unsupported file type")
    except OSError as exc:
        yield Skipped(str(path), f"cannot read file: {exc.strerror or exc}")


# Tried in order after UTF-8; latin-1 decodes any byte, so the last never fails.
FALLBACK_ENCODINGS = ("cp1252", "latin-1")


def decode_text(data: bytes) -> tuple[str, str | None]:
    """A text file's content: UTF-8 (a BOM dropped), else the first fallback encoding that reads
    every byte, with a note naming it (None for UTF-8) — never silently replaced characters."""
    try:
        return data.decode("utf-8-sig"), None
    except UnicodeDecodeError as exc:
        where = exc.start
    for encoding in FALLBACK_ENCODINGS[:-1]:
        try:
            return data.decode(encoding), f"not UTF-8 (byte {where}): read as {encoding}"
        except UnicodeDecodeError:
            continue
    last = FALLBACK_ENCODINGS[-1]
    return data.decode(last), f"not UTF-8 (byte {where}): read as {last}"


def _single(path: Path, kind: str, raw: str) -> LoadedDoc | Skipped:
    parts = (
        raw.split("\f") if "\f" in raw else re.split(r"<PAGE>", raw) if "<PAGE>" in raw else [raw]
    )
    pages = tuple((i, normalize_text(t)) for i, t in enumerate(parts))
    if not any(text for _, text in pages):
        return Skipped(str(path), f"no text in {kind} file")
    return LoadedDoc(doc_id_for(path), str(path), kind, pages, _hash_pages(pages))


def _load_html(
    path: Path,
    doc_id: str,
    data: bytes,
    *,
    source: str | None = None,
    sgml: Mapping[str, Sequence[str]] | None = None,
) -> LoadedDoc | Skipped:
    from finqa.agents.retrieval._html import html_encoding, parse_html
    from finqa.lexicon.xbrl import read_facts

    where = source or str(path)
    encoding, note = html_encoding(data)
    try:
        parsed = parse_html(data, encoding)
    except Exception as exc:  # noqa: BLE001 - lxml raises ParserError / XMLSyntaxError and others on hopeless input
        return Skipped(where, f"not readable HTML ({type(exc).__name__}: {str(exc)[:120]})")
    pages = tuple((i, normalize_text(t)) for i, t in enumerate(parsed.pages))
    if not any(text for _, text in pages):
        return Skipped(where, "no text in html file")
    pages_of = parsed.fact_pages
    tagged = read_facts(parsed.root, lambda el: pages_of.get(el, 0))  # hidden facts: page 0
    return LoadedDoc(
        doc_id,
        where,
        "html",
        pages,
        _hash_pages(pages),
        dei=dict(tagged.dei),
        sgml=dict(sgml or {}),
        page_labels=parsed.labels,
        tables=parsed.tables,
        facts=tagged.facts,
        note=note,
    )


def html_tree(data: bytes) -> Any:
    """The lxml tree of an HTML / inline XBRL document (XHTML parsed as XML, else as HTML)."""
    from finqa.agents.retrieval._html import parse_tree

    return parse_tree(data)


def _is_full_submission(path: Path) -> bool:
    with path.open("rb") as fh:
        head = fh.read(4096).lstrip()
    return head.startswith((b"<SEC-DOCUMENT>", b"<SEC-HEADER>", b"<IMS-HEADER>"))


_SGML_DOC = re.compile(r"<DOCUMENT>(.*?)</DOCUMENT>", re.S | re.I)
_SGML_TAG = re.compile(r"<(TYPE|SEQUENCE|FILENAME|DESCRIPTION)>([^\n<]*)", re.I)
_BINARY_TYPES = ("GRAPHIC", "ZIP", "EXCEL", "PDF", "XML", "JSON", "EX-101")


def _load_submission(path: Path) -> Iterator[LoadedDoc | Skipped]:
    """An EDGAR full submission: the primary document and each exhibit, header fields on all."""
    from finqa.lexicon.identity import parse_sgml_header

    raw, note = decode_text(path.read_bytes())  # never silently replaced characters
    header = parse_sgml_header(raw)
    stem = doc_id_for(path)
    found = 0
    for n, block in enumerate(_SGML_DOC.finditer(raw)):
        body = block.group(1)
        tags = {k.upper(): v.strip() for k, v in _SGML_TAG.findall(body[:2000])}
        kind = tags.get("TYPE", "").upper()
        if kind.startswith(_BINARY_TYPES) or not kind:
            continue
        text = re.search(r"<TEXT>(.*?)(?:</TEXT>|\Z)", body, re.S | re.I)
        content = text.group(1) if text else body
        doc_id = stem if n == 0 else f"{stem}__{kind}"
        source = f"{path}#{kind}" if n else str(path)
        if re.search(r"<html|<body|<div|<p[ >]|<table", content[:5000], re.I):
            item = _load_html(path, doc_id, content.encode("utf-8"), source=source, sgml=header)
        else:
            item = _single(path, "text", re.sub(r"</?(?:PAGE|S|C|FN|F\d)>", "", content))
            if isinstance(item, LoadedDoc):
                item = replace(item, doc_id=doc_id, source=source, sgml=header)
        if isinstance(item, LoadedDoc):
            item = replace(item, extra={**item.extra, "sgml_type": kind, **tags})
            item = replace(item, note=note) if note and not item.note else item
            found += 1
        yield item
    if not found:
        yield Skipped(str(path), "EDGAR submission without a text document")


def _load_pdf(path: Path) -> LoadedDoc | Skipped:
    import pymupdf as _pymupdf

    pymupdf: Any = _pymupdf
    pymupdf.TOOLS.mupdf_display_errors(False)
    pymupdf.TOOLS.reset_mupdf_warnings()
    try:
        doc = pymupdf.open(path, filetype="pdf")
    except Exception as exc:  # noqa: BLE001 - pymupdf raises FileDataError/EmptyFileError/RuntimeError
        return Skipped(
            str(path),
            f"not a readable PDF ({type(exc).__name__}: {str(exc).splitlines()[0][:120]})",
        )
    warning = None
    with doc:
        repaired = bool(getattr(doc, "is_repaired", False))
        pages: list[tuple[int, str]] = []
        labels: list[str | None] = []  # the PDF's own page labels (/PageLabels), by page index
        failed = 0
        for number in range(doc.page_count):
            try:
                pages.append((number, normalize_text(doc[number].get_text())))
            except Exception:  # noqa: BLE001 - a damaged page is counted and skipped; the rest is read
                failed += 1
            try:
                labels.append(str(doc[number].get_label() or "").strip() or None)
            except Exception:  # noqa: BLE001 - a label that cannot be read is not known
                labels.append(None)
        notes = pymupdf.TOOLS.mupdf_warnings().splitlines()
    if repaired or failed:
        first = notes[0] if notes else "broken structure"
        warning = f"damaged PDF ({first}); repaired, {len(pages)} pages recovered" + (
            f", {failed} unreadable pages skipped" if failed else ""
        )
    if not any(text for _, text in pages):
        return Skipped(
            str(path),
            "PDF has no extractable text (scanned or empty)" + (f"; {warning}" if warning else ""),
        )
    frozen = tuple(pages)
    return LoadedDoc(
        doc_id_for(path),
        str(path),
        "pdf",
        frozen,
        _hash_pages(frozen),
        warning,
        page_labels=tuple(labels) if any(labels) else (),
    )


def _load_jsonl(path: Path) -> Iterator[LoadedDoc | Skipped]:
    opener = gzip.open if path.name.lower().endswith(".gz") else open
    docs: dict[str, dict[int, str]] = {}
    bad: list[int] = []
    try:
        with opener(path, "rt", encoding="utf-8") as fh:
            for lineno, line in enumerate(fh, 1):
                if not line.strip():
                    continue
                try:
                    record = json.loads(line)
                    name = record.get("doc_id") or record["doc_name"]
                    page, text = int(record["page"]), record["text"]
                    if not isinstance(name, str) or not isinstance(text, str) or page < 0:
                        raise ValueError
                except (ValueError, KeyError, TypeError):
                    bad.append(lineno)
                    continue
                docs.setdefault(name, {})[page] = normalize_text(text)
    except (OSError, EOFError, UnicodeDecodeError) as exc:
        yield Skipped(str(path), f"cannot read page JSONL past line {len(bad)}: {exc}")
    if bad:
        shown = ", ".join(map(str, bad[:5])) + (" ..." if len(bad) > 5 else "")
        yield Skipped(
            str(path),
            f"{len(bad)} broken line(s) skipped (line {shown}); expected {{doc_id, page, text}}",
        )
    if not docs and not bad:
        yield Skipped(str(path), "page JSONL has no records")
    for name, pages in docs.items():
        ordered = tuple(sorted(pages.items()))
        yield LoadedDoc(name, f"{path}#{name}", "jsonl", ordered, _hash_pages(ordered))
