"""The review report in a real browser: Debian's headless Chromium driven by Playwright.

No browser is downloaded: Playwright starts `chromium_path()` (FINQA_CHROMIUM or `chromium`
on PATH). When Chromium or Playwright is missing these tests skip, except under `.ci/run`,
which installs Chromium and sets FINQA_REQUIRE_BROWSER=1 so that a missing browser fails.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from finqa.audit.report_html import CHROMIUM_ARGS, chromium_path, print_pdf, write_report
from finqa.audit.signoff import review_question
from finqa.benchmarks.report_bench import write_fake_log
from finqa.errors import AuditError


def _browser_or_skip() -> str:
    try:
        import playwright.sync_api  # noqa: F401  (third-party: the browser driver)

        exe = chromium_path()
    except (ImportError, AuditError) as exc:  # no playwright, or no Chromium found
        if os.environ.get("FINQA_REQUIRE_BROWSER") == "1":
            pytest.fail(f"browser tests need Chromium and playwright: {exc}")
        pytest.skip(f"no browser: {exc}")
    return exe


@pytest.fixture(scope="module")
def browser_context() -> Iterator[Any]:
    """A headless Chromium with a fresh profile, no network of its own, no downloads."""
    exe = _browser_or_skip()
    from playwright.sync_api import sync_playwright

    args = [a for a in CHROMIUM_ARGS if a != "--headless"]  # Playwright adds its own headless flag
    with tempfile.TemporaryDirectory() as profile, sync_playwright() as pw:
        ctx = pw.chromium.launch_persistent_context(
            profile, executable_path=exe, headless=True, args=args
        )
        ctx.route("http*://**", lambda route: route.abort())  # the page must never need the network
        try:
            yield ctx
        finally:
            ctx.close()


@pytest.fixture
def page(browser_context: Any) -> Iterator[Any]:
    """A new tab that records requests leaving file:// and any dialog opened."""
    tab = browser_context.new_page()
    tab.requests, tab.dialogs = [], []
    tab.on(
        "request",
        lambda r: tab.requests.append(r.url) if not r.url.startswith(("file:", "data:")) else None,
    )
    tab.on("dialog", lambda d: (tab.dialogs.append(d.message), d.dismiss()))
    yield tab
    tab.close()


def _open(page: Any, html: Path) -> None:
    page.goto(html.resolve().as_uri())
    page.wait_for_selector("body[data-ready='1']")


def expect(locator: Any) -> Any:
    """Playwright's auto-waiting assertions (imported late: Playwright may be absent)."""
    from playwright.sync_api import expect as _expect

    return _expect(locator)


class TestReportInBrowser:
    def test_filter_search_expand_and_screenshot(
        self, page: Any, tmp_path: Path, reviewer_keys: Any
    ) -> None:
        """A reviewer sees the green banner, filters by status and company, searches, expands a question's life."""
        keys, trusted = reviewer_keys
        log = write_fake_log(tmp_path / "a.jsonl", 60)
        review_question(log, "q00001", "flagged", "Ann", key=keys["Ann"])
        review_question(log, "q00001", "approved", "Bob", note="ties to p.42", key=keys["Bob"])
        html, _ = write_report(log, tmp_path / "review.html", reviewers=trusted)
        _open(page, html)
        assert "Chain verified: intact up to seq" in page.inner_text("#banner")
        assert page.locator("#qrows tr.q").count() == 50
        assert page.inner_text("#count") == "60 of 60 questions"
        page.select_option("#status-filter", "failed")
        assert page.inner_text("#count") == "12 of 60 questions"
        assert set(page.locator("#qrows tr.q td:nth-child(3)").all_inner_texts()) == {"failed"}
        page.select_option("#status-filter", "")
        page.select_option("#company-filter", "Nike")
        assert page.inner_text("#count") == "12 of 60 questions"
        page.select_option("#company-filter", "")
        page.fill("#search", "q00001")
        expect(page.locator("#count")).to_have_text("1 of 60 questions")
        page.click("#qrows tr.q[data-qid='q00001']")
        detail = page.inner_text("#qrows tr.detail-row")
        assert "Attempt 1" in detail and "Attempt 2" in detail
        assert "Changed since attempt 1: retrieval k: 10 → 20" in detail
        assert "re-executed now: 3.500 ✓ matches" in detail
        assert (
            "approved by Bob" in detail
            and "current" in detail
            and "flagged by Ann" in detail
            and "superseded" in detail
        )
        assert "Net sales 32,765 31,657" in page.inner_text("#qrows blockquote.quote")
        page.screenshot(path=str(tmp_path / "shot.png"), full_page=True)
        assert (tmp_path / "shot.png").stat().st_size > 5_000
        assert page.requests == [] and page.dialogs == []

    def test_sort_and_paginate(self, page: Any, tmp_path: Path) -> None:
        """Clicking a column header sorts; next/previous move between pages."""
        html, _ = write_report(write_fake_log(tmp_path / "b.jsonl", 60), tmp_path / "b.html")
        _open(page, html)
        page.click("th[data-key='qid']")
        page.click("th[data-key='qid']")
        assert page.get_attribute("#qrows tr.q >> nth=0", "data-qid") == "q00059"
        page.click("#next")
        assert page.locator("#qrows tr.q").count() == 10
        assert "page 2 of 2" in page.inner_text(".pager")

    def test_hostile_content_renders_as_text_and_runs_nothing(
        self, page: Any, tmp_path: Path
    ) -> None:
        """Script tags, an img onerror, a javascript: link and an HTML comment in filing text show as text only."""
        html, _ = write_report(
            write_fake_log(tmp_path / "h.jsonl", 5, hostile=True), tmp_path / "h.html"
        )
        _open(page, html)
        page.click("#qrows tr.q[data-qid='q00001']")
        page.wait_for_timeout(200)
        assert page.evaluate("window.__pwned === undefined")
        assert page.locator("#app img, #app a, #app iframe").count() == 0
        assert page.locator("script").count() == 3
        quote = page.inner_text("#qrows blockquote.quote")
        assert "<script>window.__pwned" in quote and "<!-- hidden comment -->" in quote
        assert "javascript:window.__pwned" in page.inner_text("#qrows tr.q[data-qid='q00001']")
        assert page.dialogs == [] and page.requests == []

    def test_tampered_log_red_banner(self, page: Any, tmp_path: Path) -> None:
        """An edited record turns the banner red, names its seq and marks its question NOT verified."""
        log = write_fake_log(tmp_path / "t.jsonl", 5)
        lines = log.read_bytes().splitlines(keepends=True)
        i = next(n for n, ln in enumerate(lines) if b'"q00002"' in ln and b'"event":"final"' in ln)
        lines[i] = lines[i].replace(b"best_effort", b"accepted")
        log.write_bytes(b"".join(lines))
        html, data = write_report(log, tmp_path / "t.html")
        _open(page, html)
        banner = page.locator("#banner")
        assert f"TAMPERED at seq {data['verify']['first_bad_seq']}" in banner.inner_text()
        assert "tampered" in (banner.get_attribute("class") or "")
        color = page.evaluate("getComputedStyle(document.getElementById('banner')).backgroundColor")
        assert color == "rgb(176, 0, 32)"
        assert "unverified" in page.inner_text("#qrows tr.q[data-qid='q00002']")
        page.click("#qrows tr.q[data-qid='q00003']")
        assert "NOT verified" in page.inner_text("#qrows tr.detail-row")

    def test_unknown_records_and_torn_line_are_shown(self, page: Any, tmp_path: Path) -> None:
        """Records of unknown kinds and a torn last line appear raw at the end of the page."""
        from finqa.audit import AuditLog

        log = write_fake_log(tmp_path / "u.jsonl", 3)
        AuditLog(log, run_id="x", fsync=False).append(
            event="index_rebuilt", agent="indexer_v9", data={"shards": 4}
        )
        with log.open("ab") as f:
            f.write(b'{"seq": 77, "ev')
        html, _ = write_report(log, tmp_path / "u.html")
        _open(page, html)
        assert "TRUNCATED/TORN" in page.inner_text("#banner")
        rest = page.inner_text("#leftovers")
        assert "index_rebuilt" in rest and '{"seq": 77, "ev' in rest and "no newline (torn)" in rest

    def test_print_mode_expands_every_question(self, page: Any, tmp_path: Path) -> None:
        """The #print view (used for the PDF) shows every question with its life, no pager."""
        html, _ = write_report(write_fake_log(tmp_path / "p.jsonl", 7), tmp_path / "p.html")
        page.goto(html.resolve().as_uri() + "#print")
        page.wait_for_selector("body[data-ready='1']")
        assert page.locator("#qrows tr.detail-row").count() == 7
        assert page.locator("#qrows .attempt").count() == 1 + 2 + 3 + 1 + 1 + 1 + 2


class TestPdf:
    def test_pdf_is_printed(self, tmp_path: Path) -> None:
        """--pdf prints a PDF of the report through headless Chromium."""
        _browser_or_skip()
        html, _ = write_report(write_fake_log(tmp_path / "p.jsonl", 3), tmp_path / "p.html")
        pdf = print_pdf(html, tmp_path / "p.pdf")
        assert pdf.read_bytes()[:5] == b"%PDF-" and pdf.stat().st_size > 10_000

    def test_cli_pdf_flag(self, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
        """`finqa audit report --pdf` writes OUT.html and OUT.pdf."""
        from finqa.orchestrator.cli import main

        _browser_or_skip()
        log = write_fake_log(tmp_path / "c.jsonl", 2)
        assert main(["audit", "report", str(log), "--out", str(tmp_path / "c.html"), "--pdf"]) == 0
        assert (tmp_path / "c.pdf").read_bytes()[:5] == b"%PDF-"
        assert "pdf " in capsys.readouterr().out
