"""Ingestion: loaders, chunking, metadata, idempotence, resume, bad input, CLI."""

from __future__ import annotations

import gzip
import json
import shutil
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent / "fixtures" / "retrieval"))
from finqa.agents.config import Settings  # noqa: E402
from finqa.agents.retrieval.chunker import chunk_pages, detect_heading  # noqa: E402
from finqa.agents.retrieval.ingest import ingest_paths  # noqa: E402
from finqa.agents.retrieval.loaders import LoadedDoc, Skipped, load_path  # noqa: E402
from finqa.agents.retrieval.metadata import doc_metadata, load_sidecar  # noqa: E402
from finqa.agents.retrieval.store import open_index  # noqa: E402
from retrieval_support import ACME_PAGES, HERE, FakeEmbedder, make_acme_pdf  # noqa: E402


@pytest.fixture(scope="session")
def real_embedder():  # type: ignore[no-untyped-def]
    """The packaged all-MiniLM-L6-v2, loaded once per test session."""
    from finqa.agents.retrieval.embedder import get_embedder

    return get_embedder()


def _settings(index: Path, **index_cfg: object) -> Settings:
    # the fixture pages are a few lines each: embed every page (skipping is tested on its own)
    cfg = {"embed_min_words": 0, **index_cfg}
    return Settings().with_overrides(
        {"index.path": str(index), **{f"index.{k}": v for k, v in cfg.items()}}
    )


@pytest.fixture
def corpus(tmp_path: Path) -> Path:
    folder = tmp_path / "corpus"
    shutil.copytree(HERE / "corpus", folder)
    make_acme_pdf(folder / "ACME_2022_10K.pdf")
    return folder


def _ingest(paths: list[Path], index: Path, embedder: FakeEmbedder | None = None, **kw: object):  # type: ignore[no-untyped-def]
    return ingest_paths(
        paths, _settings(index), embedder=embedder or FakeEmbedder(), progress=False, **kw
    )


class TestLoaders:
    """Each format yields pages with the source's 0-based numbering."""

    def test_pdf_pages_are_zero_based(self, tmp_path: Path) -> None:
        """A 3-page PDF loads as pages 0, 1, 2 with each page's own text."""
        doc = next(load_path(make_acme_pdf(tmp_path / "ACME_2022_10K.pdf")))
        assert isinstance(doc, LoadedDoc)
        assert [p for p, _ in doc.pages] == [0, 1, 2]
        assert "CASH FLOWS" in doc.pages[2][1] and "Item 7." in doc.pages[1][1]
        assert doc.doc_id == "ACME_2022_10K"

    def test_html_drops_scripts_and_keeps_table_rows(self) -> None:
        """HTML text keeps one table row per line (cells in order) and drops script/style content."""
        doc = next(load_path(HERE / "corpus" / "GLOBEX_2023Q2_10Q.html"))
        assert isinstance(doc, LoadedDoc)
        text = doc.pages[0][1]
        assert "Net revenue 1,250 1,157" in text
        assert "not text" not in text and "color" not in text

    def test_jsonl_gz_groups_pages_by_document(self, tmp_path: Path) -> None:
        """Gzipped page JSONL yields one document per doc_name with its pages in order."""
        path = tmp_path / "pages.jsonl.gz"
        with gzip.open(path, "wt") as fh:
            for name, page in [("A_2020_10K", 1), ("B_2021_10K", 0), ("A_2020_10K", 0)]:
                fh.write(
                    json.dumps({"doc_name": name, "page": page, "text": f"{name} page {page}"})
                    + "\n"
                )
        docs = [d for d in load_path(path) if isinstance(d, LoadedDoc)]
        assert {d.doc_id: [p for p, _ in d.pages] for d in docs} == {
            "A_2020_10K": [0, 1],
            "B_2021_10K": [0],
        }


class TestBadInput:
    """Bad input gives one clear line and never stops the run."""

    def test_empty_file_is_skipped(self, tmp_path: Path) -> None:
        """A 0-byte file is reported as empty."""
        (tmp_path / "X_2020_10K.pdf").write_bytes(b"")
        items = list(load_path(tmp_path / "X_2020_10K.pdf"))
        assert isinstance(items[0], Skipped) and "empty file" in items[0].reason

    def test_text_file_named_pdf_is_skipped(self, tmp_path: Path) -> None:
        """A text file with a .pdf name is reported as not a readable PDF."""
        (tmp_path / "FAKE_2020_10K.pdf").write_text("this is plain text, not a PDF")
        items = list(load_path(tmp_path / "FAKE_2020_10K.pdf"))
        assert isinstance(items[0], Skipped) and "not a readable PDF" in items[0].reason
        assert "\n" not in items[0].reason

    def test_broken_jsonl_line_is_skipped_rest_ingested(self, tmp_path: Path) -> None:
        """A page JSONL with a broken line ingests the good lines and reports the bad line number."""
        report = _ingest([HERE / "pages_with_broken_line.jsonl"], tmp_path / "idx")
        assert report.documents == 1 and report.pages == 3
        assert any("broken line" in r and "line 3" in r for _, r in report.skipped)

    def test_hidden_folders_are_not_ingested(self, tmp_path: Path) -> None:
        """A folder's hidden subfolders (.finqa audit log, .git) are not taken for filings."""
        from finqa.agents.retrieval.loaders import discover

        (tmp_path / "ACME_2022_10K.txt").write_text("Net sales were $5 million.")
        (tmp_path / ".finqa").mkdir()
        (tmp_path / ".finqa" / "audit.jsonl").write_text('{"seq": 1}\n')
        files, skipped = discover([tmp_path])
        assert [f.name for f in files] == ["ACME_2022_10K.txt"] and not skipped

    def test_folder_without_supported_files(self, tmp_path: Path) -> None:
        """A folder holding no supported file is reported and the other paths still ingest."""
        report = _ingest(
            [HERE / "empty_folder", HERE / "corpus" / "INITECH_2022_10K.txt"], tmp_path / "idx"
        )
        assert report.documents == 1
        assert any("no supported file" in r for _, r in report.skipped)

    def test_damaged_pdfs_are_reported_and_run_goes_on(
        self, financebench_dir: Path, tmp_path: Path
    ) -> None:
        """Both truncated FinanceBench PDFs are reported as damaged; the good file still ingests."""
        folder = tmp_path / "mixed"
        folder.mkdir()
        for pdf in sorted((financebench_dir / "malformed").glob("*.pdf")):
            shutil.copy(pdf, folder / pdf.name)
        (folder / "EMPTY_2020_10K.pdf").write_bytes(b"")
        shutil.copy(HERE / "corpus" / "INITECH_2022_10K.txt", folder)
        report = ingest_paths(
            [folder],
            _settings(tmp_path / "idx", repair_pdfs=False),
            embedder=FakeEmbedder(),
            progress=False,
        )
        reasons = [r for _, r in report.skipped]
        assert sum("damaged PDF" in r for r in reasons) == 2 and any(
            "empty file" in r for r in reasons
        )
        assert report.documents == 1 and "3 skipped" in report.summary()

    def test_damaged_pdf_repaired_with_warning(self, financebench_dir: Path) -> None:
        """By default pymupdf's repair is used and the damage is reported as a warning."""
        doc = next(load_path(financebench_dir / "malformed" / "INTEL_2023_8K_dated-2023-08-16.pdf"))
        assert isinstance(doc, LoadedDoc) and doc.warning and "damaged PDF" in doc.warning
        assert doc.n_pages == 5


class TestChunker:
    """Chunks fit the embedder window, keep table rows and record headings."""

    def test_chunks_fit_real_tokenizer_budget(self, real_embedder) -> None:  # type: ignore[no-untyped-def]
        """Every chunk of a long page counts at most the budget in the embedder's own word pieces."""
        page = "\n".join(
            f"Revenue from the Americas segment grew {i}% on strong demand for widgets."
            for i in range(200)
        )
        drafts = chunk_pages([(0, page)], real_embedder.count_tokens_batch, budget=200, overlap=30)
        assert len(drafts) > 5
        assert all(real_embedder.count_tokens(d.text) <= 200 for d in drafts)

    def test_embedded_text_with_header_fits_window(self, real_embedder, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
        """Header + chunk text of every chunk stays within MiniLM's 256 word pieces, long headings included."""
        from finqa.agents.retrieval.ingest import Ingestor

        heading = "Item 7. Management's Discussion and Analysis of Financial Condition and Results of Operations"
        body = "\n".join(
            f"Segment {i} operating income rose on pricing and volume." for i in range(120)
        )
        doc = next(
            load_path(make_acme_pdf(tmp_path / "ACME_2022_10K.pdf", [heading + "\n" + body[:3000]]))
        )
        assert isinstance(doc, LoadedDoc)
        ing = Ingestor(
            open_index(_settings(tmp_path / "i")), _settings(tmp_path / "i"), real_embedder, {}
        )
        chunks, headers = ing.build_chunks(doc, doc_metadata(doc.doc_id))
        sizes = [
            real_embedder.count_tokens(f"{h}\n{c.text}") + 2
            for c, h in zip(chunks, headers, strict=True)
        ]
        assert len(chunks) >= 2 and max(sizes) <= real_embedder.max_tokens
        assert all(h.startswith("Acme 10K FY2022") for h in headers)

    def test_statement_of(self) -> None:
        """Statement titles map to statements; MD&A sub-headings and notes do not."""
        from finqa.agents.retrieval.chunker import statement_of

        assert statement_of("CONSOLIDATED STATEMENTS OF CASH FLOWS") == "cash_flow"
        assert statement_of("Consolidated Balance Shee t") == "balance"
        assert (
            statement_of("Condensed Consolidated Statements of Operations (Unaudited)") == "income"
        )
        assert statement_of("Balance Sheet:") is None
        assert statement_of("Notes to Consolidated Financial Statements") is None

    def test_table_row_stays_together(self) -> None:
        """A label line and its numeric cells land in the same chunk."""
        text = ACME_PAGES[2]
        drafts = chunk_pages(
            [(2, text)], lambda ts: [len(t.split()) for t in ts], budget=12, overlap=0
        )
        assert any("Dividends paid\n(120)\n(110)" in d.text for d in drafts)
        assert all(d.page == 2 for d in drafts)

    def test_headings_recorded(self) -> None:
        """Item headings and statement titles (even with broken words) become the chunk's section."""
        pages = [
            (0, "Item 8. Financial Statements and Supplementary Data\nSome text"),
            (1, "Table of Contents\nConsolidated Balance Shee t\nTotal assets\n100"),
        ]
        drafts = chunk_pages(pages, lambda ts: [len(t.split()) for t in ts], budget=50, overlap=0)
        assert drafts[0].section and drafts[0].section.startswith("Item 8.")
        assert drafts[-1].section == "Consolidated Balance Shee t"
        assert detect_heading("Net sales increased 5%") is None


class TestMetadata:
    """Company, doc type and period come from the name, sidecar and text."""

    def test_from_financebench_name(self) -> None:
        """'AMCOR_2022_8K_dated-2022-07-01' gives an 8-K of fiscal 2022 with its date."""
        info = doc_metadata("AMCOR_2022_8K_dated-2022-07-01")
        assert (
            info["doc_type"] == "8k"
            and info["fiscal_year"] == 2022
            and info["date"] == "2022-07-01"
        )
        assert doc_metadata("Pfizer_2023Q2_10Q")["period"] == "2023Q2"

    def test_sidecar_csv_overrides_name(self) -> None:
        """A CSV sidecar's company and ticker are used."""
        rows = load_sidecar(HERE / "documents.csv")
        info = doc_metadata("GLOBEX_2023Q2_10Q", rows["GLOBEX_2023Q2_10Q"])
        assert info["ticker"] == "GBX" and info["doc_type"] == "10q"

    def test_fiscal_year_from_text(self) -> None:
        """A file name without a year takes the fiscal year from the cover page."""
        assert (
            doc_metadata("initech-annual", None, "For the fiscal year ended December 31, 2022")[
                "fiscal_year"
            ]
            == 2022
        )


class TestIndexing:
    """Re-ingest is a no-op, and an interrupted ingest resumes without duplicates or holes."""

    def test_reingest_unchanged_is_noop(self, corpus: Path, tmp_path: Path) -> None:
        """The second run of the same folder commits nothing and embeds nothing."""
        index = tmp_path / "idx"
        first = _ingest([corpus], index, metadata_file=HERE / "documents.csv")
        emb = FakeEmbedder()
        second = _ingest([corpus], index, emb)
        assert first.documents == 3 and first.chunks > 0
        assert second.documents == 0 and second.unchanged == 3 and emb.calls == 0
        idx = open_index(_settings(index))
        assert idx.count_chunks() == first.chunks == idx.collection.count()
        chunk = idx.get_chunks(["ACME_2022_10K#0"])["ACME_2022_10K#0"]
        assert chunk.company == "Acme Corp" and chunk.ticker == "ACME" and chunk.page == 0

    def test_resume_after_kill(self, corpus: Path, tmp_path: Path) -> None:
        """A run killed mid-way, then resumed, gives exactly the chunks of a clean run."""
        clean = _ingest([corpus], tmp_path / "clean")
        emb = FakeEmbedder()
        emb.fail_after = 1  # dies while embedding the second document
        with pytest.raises(KeyboardInterrupt):
            _ingest([corpus], tmp_path / "resumed", emb)
        resumed = _ingest([corpus], tmp_path / "resumed")
        assert resumed.unchanged == 1 and resumed.documents == 2
        a, b = (
            open_index(_settings(tmp_path / "clean")),
            open_index(_settings(tmp_path / "resumed")),
        )
        ids_a = sorted(a.collection.get(include=[])["ids"])
        assert ids_a == sorted(b.collection.get(include=[])["ids"]) and len(ids_a) == clean.chunks
        assert b.count_chunks() == clean.chunks

    def test_changed_file_replaces_its_chunks(self, corpus: Path, tmp_path: Path) -> None:
        """Editing a file re-ingests it and leaves none of its old chunks."""
        index = tmp_path / "idx"
        _ingest([corpus], index)
        (corpus / "INITECH_2022_10K.txt").write_text(
            "Item 1. Business\nInitech now sells staplers."
        )
        report = _ingest([corpus], index)
        assert report.documents == 1
        idx = open_index(_settings(index))
        texts = [c.text for c in idx.neighbours("INITECH_2022_10K", 0, 100)]
        assert texts and all("enterprise software" not in t for t in texts)

    def test_summary_line(self, corpus: Path, tmp_path: Path) -> None:
        """The summary names files, pages, chunks, skipped, seconds and pages/s."""
        line = _ingest([corpus], tmp_path / "idx").summary()
        for part in ("3 files", "pages", "chunks", "0 skipped", "pages/s"):
            assert part in line


class TestLazyEmbedder:
    """The model is loaded only when something needs embedding or token counts."""

    def test_loads_on_first_use_only(self) -> None:
        """A re-ingest of unchanged files never pays for loading the model."""
        from finqa.agents.retrieval.embedder import LazyEmbedder

        made: list[FakeEmbedder] = []
        lazy = LazyEmbedder(lambda: made.append(FakeEmbedder()) or made[-1])
        assert not lazy.loaded and lazy.forward_seconds == 0.0 and made == []
        assert len(lazy.embed(["net sales"])) == 1 and lazy.max_tokens == 64
        assert lazy.loaded and len(made) == 1


class TestCli:
    """`finqa ingest` prints the summary and exits 0."""

    def test_cli_ingest(self, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
        """The CLI ingests a text file and prints the one-line summary (dense none: no model needed)."""
        from finqa.orchestrator.cli import main

        code = main(
            [
                "ingest",
                str(HERE / "corpus" / "INITECH_2022_10K.txt"),
                "--index",
                str(tmp_path / "i"),
                "--dense",
                "none",
                "--no-progress",
            ]
        )
        out = capsys.readouterr().out
        assert code == 0 and "1 documents" in out


class TestTextEncoding:
    """A text file that is not UTF-8 is decoded with a reported fallback, never silently replaced."""

    def test_cp1252_text_is_read_and_noted(self, tmp_path: Path) -> None:
        """Windows-1252 bytes (curly quotes, euro sign) come back as those characters, with a note."""
        path = tmp_path / "acme_2023_10k.txt"
        path.write_bytes("Revenue was \u20ac5 million \u2014 \u201cup\u201d 3%.".encode("cp1252"))
        (doc,) = list(load_path(path))
        assert isinstance(doc, LoadedDoc)
        assert (
            "\u20ac5 million \u2014 \u201cup\u201d" in doc.pages[0][1]
            and "\ufffd" not in doc.pages[0][1]
        )
        assert doc.note == "not UTF-8 (byte 12): read as cp1252" and doc.warning is None

    def test_utf8_text_has_no_note(self, tmp_path: Path) -> None:
        """A UTF-8 file (with or without a BOM) is read as is, with no note."""
        path = tmp_path / "acme.txt"
        path.write_bytes("\ufeffRevenue was \u20ac5 million.".encode())
        (doc,) = list(load_path(path))
        assert isinstance(doc, LoadedDoc) and doc.note is None
        assert doc.pages[0][1].startswith("Revenue was \u20ac5")

    def test_ingest_reports_the_encoding(
        self, tmp_path: Path, capsys: pytest.CaptureFixture[str]
    ) -> None:
        """`ingest` prints one line naming the file and the encoding used, and indexes the text."""
        path = tmp_path / "acme.txt"
        path.write_bytes("Net sales were \u20ac5 million in fiscal 2023.".encode("cp1252"))
        settings = Settings().with_overrides(
            {"index.path": str(tmp_path / "idx"), "index.dense": "none"}
        )
        report = ingest_paths([path], settings, progress=False)
        err = capsys.readouterr().err
        assert report.documents == 1
        notes = [line for line in err.splitlines() if "read as" in line]
        assert notes == ["finqa ingest: note acme.txt: not UTF-8 (byte 15): read as cp1252"]


class TestPdfPageLabels:
    def test_pdf_page_labels_are_kept(self, tmp_path: Path) -> None:
        """A PDF's own page labels ('F-1', 'F-2') are read as the pages' printed numbers."""
        import pymupdf
        from finqa.agents.retrieval.loaders import LoadedDoc, load_path

        path = tmp_path / "labelled.pdf"
        pdf = pymupdf.open()
        for n in range(2):
            pdf.new_page().insert_text((72, 72), f"Consolidated balance sheet page {n}")
        pdf.set_page_labels([{"startpage": 0, "prefix": "F-", "style": "D", "firstpagenum": 1}])
        pdf.save(path)
        doc = next(load_path(path))
        assert isinstance(doc, LoadedDoc) and doc.page_labels == ("F-1", "F-2")

    def test_pdf_without_labels_has_none(self, tmp_path: Path) -> None:
        """A PDF with no page labels records none (answers then cite the page's position)."""
        import pymupdf
        from finqa.agents.retrieval.loaders import LoadedDoc, load_path

        path = tmp_path / "plain.pdf"
        pdf = pymupdf.open()
        pdf.new_page().insert_text((72, 72), "Consolidated balance sheet")
        pdf.save(path)
        doc = next(load_path(path))
        assert isinstance(doc, LoadedDoc) and doc.page_labels == ()


class TestIndexAuditLogIsNotAFiling:
    def test_audit_log_beside_an_index_is_skipped(self, tmp_path: Path) -> None:
        """Ingesting a folder that holds an index skips the index's audit.jsonl, not other JSONL."""
        from finqa.agents.retrieval.loaders import discover

        (tmp_path / "idx").mkdir()
        (tmp_path / "idx" / "index.json").write_text("{}")
        (tmp_path / "idx" / "audit.jsonl").write_text('{"seq": 1}\n')
        (tmp_path / "audit.jsonl").write_text('{"doc_id": "A", "page": 0, "text": "x"}\n')
        files, _ = discover([tmp_path])
        assert files == [tmp_path / "audit.jsonl"]
