"""Bounded cost for any input: per-file size limits, and a chunker linear in the text whatever its lines."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent / "fixtures" / "retrieval"))
from finqa.agents.config import Settings  # noqa: E402
from finqa.agents.errors import ConfigError  # noqa: E402
from finqa.agents.retrieval import chunker  # noqa: E402
from finqa.agents.retrieval.chunker import chunk_pages  # noqa: E402
from finqa.agents.retrieval.ingest import ingest_paths  # noqa: E402
from finqa.agents.retrieval.loaders import LoadedDoc, SizeLimits, Skipped, load_path  # noqa: E402
from retrieval_support import ACME_PAGES, FakeEmbedder, make_acme_pdf  # noqa: E402


class _Counter:
    """Counts words as word pieces and remembers the largest call it was given."""

    def __init__(self) -> None:
        self.max_chars = 0
        self.max_items = 0

    def __call__(self, texts: Sequence[str]) -> list[int]:
        self.max_chars = max(self.max_chars, sum(len(t) for t in texts))
        self.max_items = max(self.max_items, len(texts))
        return [max(1, len(t.split())) for t in texts]


def _one_line(words: int) -> str:
    return " ".join(f"w{i}" for i in range(words))


class TestSizeLimits:
    def test_over_limit_file_is_skipped_with_one_line(self, tmp_path: Path) -> None:
        """A text file over its limit yields one Skipped naming the size, limit and setting."""
        big = tmp_path / "BIG_2024_10K.txt"
        big.write_text("x " * 3000)
        (item,) = list(load_path(big, SizeLimits(pdf=1 << 20, text=1000)))
        assert isinstance(item, Skipped) and "index.max_text_mb" in item.reason
        assert "\n" not in item.reason

    def test_pdf_limit_is_separate(self, tmp_path: Path) -> None:
        """A PDF is held to the PDF limit, not the text one."""
        pdf = make_acme_pdf(tmp_path / "ACME_2022_10K.pdf")
        size = pdf.stat().st_size
        assert isinstance(next(load_path(pdf, SizeLimits(pdf=size, text=10))), LoadedDoc)
        (item,) = list(load_path(pdf, SizeLimits(pdf=size - 1, text=size * 10)))
        assert isinstance(item, Skipped) and "PDF" in item.reason

    def test_ingest_skips_the_big_file_and_goes_on(self, tmp_path: Path) -> None:
        """With index.max_text_mb set low, ingest skips the large file and indexes the other."""
        big = tmp_path / "BIG_2024_10K.txt"
        big.write_text("Revenue was 5 million. " * 200)
        small = tmp_path / "SMALL_2024_10K.txt"
        small.write_text("Revenue was 5 million.")
        settings = Settings().with_overrides(
            {"index.path": str(tmp_path / "idx"), "index.max_text_mb": 0.001}
        )
        report = ingest_paths([big, small], settings, embedder=FakeEmbedder(), progress=False)
        assert report.documents == 1
        assert [Path(s).name for s, _ in report.skipped] == ["BIG_2024_10K.txt"]

    def test_limits_must_be_positive(self) -> None:
        """A zero or negative limit is a configuration error."""
        with pytest.raises(ConfigError, match="max_pdf_mb"):
            Settings().with_overrides({"index.max_pdf_mb": 0})


class TestLongLines:
    def test_one_line_text_is_cut_into_bounded_calls(self) -> None:
        """A 1.3-million-character single line reaches the counter in bounded slices, every word kept in order."""
        text = _one_line(200_000)
        count = _Counter()
        drafts = chunk_pages([(0, text)], count, budget=200, overlap=20)
        assert count.max_items <= chunker.COUNT_BATCH
        assert count.max_chars <= chunker.COUNT_BATCH * 3 * 200 < len(text) // 4
        joined = " ".join(d.text.replace("\n", " ") for d in drafts).split()
        assert [w for i, w in enumerate(joined) if i == 0 or w != joined[i - 1]][:5] == [
            "w0",
            "w1",
            "w2",
            "w3",
            "w4",
        ]
        assert set(joined) == set(text.split())
        assert all(d.tokens <= 200 for d in drafts)

    def test_ordinary_pages_chunk_as_before(self, monkeypatch: pytest.MonkeyPatch) -> None:
        """Batching the counter changes nothing for pages with ordinary lines."""
        count = _Counter()
        pages = list(enumerate(ACME_PAGES))
        before = chunk_pages(pages, count, budget=40, overlap=8)
        monkeypatch.setattr(chunker, "COUNT_BATCH", 2)
        assert chunk_pages(pages, count, budget=40, overlap=8) == before


class TestHtmlEncoding:
    BODY = "<html><head>{meta}</head><body><p>Revenue rose \u2019 to \u20ac5 million.</p></body></html>"

    def test_declared_charset_used_with_a_note(self, tmp_path: Path) -> None:
        """Invalid UTF-8 with a meta charset is read in that charset, and a note says so."""
        page = self.BODY.format(meta='<meta charset="windows-1252">')
        path = tmp_path / "X_2024_10K.html"
        path.write_bytes(page.encode("cp1252"))
        (doc,) = list(load_path(path))
        assert (
            isinstance(doc, LoadedDoc)
            and "\u2019" in doc.pages[0][1]
            and "\u20ac5" in doc.pages[0][1]
        )
        assert doc.note is not None and "windows-1252" in doc.note and "declared" in doc.note

    def test_undeclared_falls_back_to_cp1252_with_a_note(self, tmp_path: Path) -> None:
        """Invalid UTF-8 without a charset is read as cp1252, reported, never replaced silently."""
        path = tmp_path / "X_2024_10K.html"
        path.write_bytes(self.BODY.format(meta="").encode("cp1252"))
        (doc,) = list(load_path(path))
        assert (
            isinstance(doc, LoadedDoc)
            and "\u20ac5" in doc.pages[0][1]
            and "\ufffd" not in doc.pages[0][1]
        )
        assert doc.note is not None and "cp1252" in doc.note

    def test_utf8_html_has_no_note(self, tmp_path: Path) -> None:
        """A UTF-8 page is read as before, without a note."""
        path = tmp_path / "X_2024_10K.html"
        path.write_bytes(self.BODY.format(meta='<meta charset="utf-8">').encode("utf-8"))
        (doc,) = list(load_path(path))
        assert isinstance(doc, LoadedDoc) and doc.note is None and "\u20ac5" in doc.pages[0][1]
