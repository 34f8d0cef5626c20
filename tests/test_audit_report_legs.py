"""Questions across filings in the review: each leg nested under its question, and the combination.

The log is written by the real orchestrator over three small synthetic 10-K texts (Adobe FY2023
and FY2024, Netflix FY2024): two peers (accepted), a peer not in the store (one leg abstains),
a three-year CAGR, a fourth quarter with no 10-Q (derived, not found) and a single-filing
question. The browser test drives Debian's headless Chromium through Playwright (skips without
it, fails under FINQA_REQUIRE_BROWSER=1).
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from finqa.audit.report_data import build_report_data
from finqa.errors import AuditError

HOSTILE = '<script>window.__pwned = 1</script><img src=x onerror="window.__pwned = 2">'

ADOBE_2024 = """ADOBE INC.
ANNUAL REPORT ON FORM 10-K FOR THE FISCAL YEAR ENDED NOVEMBER 29, 2024

CONSOLIDATED STATEMENTS OF INCOME
(In millions)
Years ended November 29, 2024 December 1, 2023
Total revenue 21,505 19,409
Operating income 6,741 6,650
Net income 5,560 5,428
"""

ADOBE_2023 = """ADOBE INC.
ANNUAL REPORT ON FORM 10-K FOR THE FISCAL YEAR ENDED DECEMBER 1, 2023

CONSOLIDATED STATEMENTS OF INCOME
(In millions)
Years ended December 1, 2023 December 2, 2022
Total revenue 19,409 17,606
Operating income 6,650 6,098
Net income 5,428 4,756
"""

NETFLIX_2024 = """NETFLIX, INC.
ANNUAL REPORT ON FORM 10-K FOR THE FISCAL YEAR ENDED DECEMBER 31, 2024

CONSOLIDATED STATEMENTS OF OPERATIONS
(In millions)
Year ended December 31, 2024 2023
Revenues 39,001 33,723
Operating income 10,418 6,954
Net income 8,712 5,408
"""

QUESTIONS = {
    "peers": f"Which had the higher revenue in fiscal 2024, Adobe or Netflix? {HOSTILE}",
    "missing": "Which had the higher revenue in fiscal 2024, Adobe or Boeing?",
    "cagr": "What was Adobe's revenue CAGR from FY2022 to FY2024?",
    "q4": "What was Adobe's revenue in the fourth quarter of fiscal 2024?",
    "single": "What was Adobe's revenue in FY2024?",
}


@pytest.fixture(scope="module")
def legs_log(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An audit log of five questions, four of them answered leg by leg."""
    from finqa.agents.config import Settings
    from finqa.agents.retrieval.ingest import ingest_paths
    from finqa.orchestrator.api import FinQA

    root = tmp_path_factory.mktemp("legs")
    corpus = root / "corpus"
    corpus.mkdir()
    for name, text in (
        ("ADOBE_2024_10K", ADOBE_2024),
        ("ADOBE_2023_10K", ADOBE_2023),
        ("NETFLIX_2024_10K", NETFLIX_2024),
    ):
        (corpus / f"{name}.txt").write_text(text, encoding="utf-8")
    settings = Settings().with_overrides({"index.path": str(root / "idx"), "index.dense": "none"})
    ingest_paths([corpus], settings, progress=False)
    log = root / "audit.jsonl"
    with FinQA.open(config=settings, audit_path=str(log)) as fq:
        for qid, question in QUESTIONS.items():
            fq.ask(question, question_id=qid)
    return log


def _by_id(log: Path, **kw: Any) -> dict[str, dict[str, Any]]:
    return {q["qid"]: q for q in build_report_data(log, **kw)["questions"]}


class TestReportDataLegs:
    def test_legs_are_nested_not_listed(self, legs_log: Path) -> None:
        """The questions table lists each question once; its legs sit under it, each with its own life."""
        qs = _by_id(legs_log)
        assert set(qs) == set(QUESTIONS)  # no 'peers/leg1' row of its own
        peers = qs["peers"]
        assert peers["leg_count"] == 2 and peers["company"] == "Adobe, Netflix"
        assert peers["filings"] == ["ADOBE_2024_10K", "NETFLIX_2024_10K"]
        legs = peers["legs"]
        assert [g["question_id"] for g in legs] == ["peers/leg1", "peers/leg2"]
        for leg in legs:
            life = leg["entry"]["life"]
            assert life and {"retrieval", "reasoning", "judge"} <= set(life[0])
        assert peers["attempts"] == sum(g["entry"]["attempts"] for g in legs)
        assert "legs" not in qs["single"] and qs["single"]["attempts"] >= 1

    def test_combination_operands_are_the_legs_figures(self, legs_log: Path) -> None:
        """Each operand carries its leg's company, period, figure and citation; the result is re-executed."""
        combo = _by_id(legs_log)["peers"]["combination"]
        assert (combo["kind"], combo["operation"], combo["derived"]) == ("peers", "higher", False)
        calc = combo["calculations"][0]
        assert calc["reexec_ok"] and calc["reexecuted"] == pytest.approx(39_001e6)
        ops = {o["name"]: o["leg"] for o in calc["operands"]}
        assert ops["leg1"]["company"] == "Adobe" and ops["leg1"]["figure"] == "$21,505 million"
        assert ops["leg2"]["doc_id"] == "NETFLIX_2024_10K" and ops["leg2"]["period"] == "FY2024"
        assert combo["notes"] == [
            "fiscal years end on different dates "
            "(Adobe FY ending 2024-11-29, Netflix FY ending 2024-12-31)"
        ]
        assert combo["verdict"].startswith("accepted: all 2 legs")

    def test_one_leg_not_found_keeps_the_whole_unaccepted(self, legs_log: Path) -> None:
        """A peer not in the store: the whole is not accepted and the report names the leg."""
        q = _by_id(legs_log)["missing"]
        combo = q["combination"]
        assert q["status"] == "abstained" and "1 of 2 legs not accepted" in q["flags"]
        assert combo["failed"] == [
            {
                "index": 2,
                "label": "Boeing revenue FY2024",
                "status": "abstained",
                "why": "no figure found",
            }  # fmt: skip
        ]
        assert "leg 2 Boeing revenue FY2024 abstained" in combo["verdict"]
        assert combo["calculations"] == []

    def test_trend_and_stitched(self, legs_log: Path) -> None:
        """A three-year CAGR has a leg a year (each from a filing that reports it); a fourth quarter is derived."""
        qs = _by_id(legs_log)
        cagr = qs["cagr"]
        assert [g["fiscal_year"] for g in cagr["legs"]] == [2022, 2023, 2024]
        assert cagr["legs"][0]["citation"]["doc_id"] == "ADOBE_2023_10K"
        calc = cagr["combination"]["calculations"][0]
        assert calc["reexec_ok"] and calc["result"] == pytest.approx(
            ((21_505 / 17_606) ** 0.5 - 1) * 100
        )
        q4 = qs["q4"]["combination"]
        assert q4["derived"] and q4["operation"] == "stitch"
        assert [g["period"] for g in qs["q4"]["legs"]] == ["FY2024", "first 9 months of FY2024"]

    def test_question_id_filter_brings_the_legs(self, legs_log: Path) -> None:
        """Asking for a question shows its legs; asking for one leg shows that leg alone."""
        parent = _by_id(legs_log, question_id="cagr")
        assert list(parent) == ["cagr"] and len(parent["cagr"]["legs"]) == 3
        leg = _by_id(legs_log, question_id="cagr/leg2")
        assert list(leg) == ["cagr/leg2"] and "legs" not in leg["cagr/leg2"]
        with pytest.raises(AuditError):
            build_report_data(legs_log, question_id="cagr/leg9")

    def test_a_run_stopped_between_legs(self, tmp_path: Path) -> None:
        """A question whose run stopped after its first leg: that leg is shown under it, incomplete."""
        from finqa.audit import AuditLog

        log = AuditLog(tmp_path / "a.jsonl", run_id="r", fsync=False)
        log.append(event="question_start", agent="orchestrator", question_id="t", params={"legs": 2, "plan": "peers"}, data={"question": "Which is higher?", "plan": "peers (higher): A; B"})  # fmt: skip
        log.append(event="question_start", agent="orchestrator", question_id="t/leg1", data={"question": "What was A's revenue?"})  # fmt: skip
        log.append(event="final", agent="orchestrator", question_id="t/leg1", decision="accepted", data={"answer": "$5 million"})  # fmt: skip
        (q,) = build_report_data(log.path)["questions"]
        assert q["qid"] == "t" and q["status"] == "incomplete"
        assert [(g["question_id"], g["status"]) for g in q["legs"]] == [("t/leg1", "accepted")]
        assert q["combination"]["operation"] == "higher" and q["combination"]["calculations"] == []
        assert q["combination"]["verdict"].startswith("not accepted (incomplete)")


class TestShowLegs:
    def test_show_lists_a_questions_legs(self, legs_log: Path) -> None:
        """`finqa audit show --question-id` of a parent lists each leg's figure, status and citation."""
        import json

        from finqa.audit.show import render_question, render_summary

        records = [json.loads(line) for line in legs_log.read_text().splitlines()]
        text = render_question(records, "missing")
        assert "── legs (2) ──" in text
        assert "missing/leg1: Adobe revenue FY2024 = $21,505 million [accepted] · ADOBE_2024_10K p.0" in text  # fmt: skip
        assert "missing/leg2: Boeing revenue FY2024 = not found [abstained]" in text
        assert "not accepted: missing/leg2 (the whole is not accepted)" in text
        assert "── legs" not in render_question(records, "single")
        summary = render_summary(records).splitlines()
        parent = next(i for i, ln in enumerate(summary) if ln.startswith("cagr:"))
        assert ", 3 legs," in summary[parent]
        assert [ln.split(":")[0] for ln in summary[parent + 1 : parent + 4]] == [
            "    cagr/leg1",
            "    cagr/leg2",
            "    cagr/leg3",
        ]


@pytest.fixture(scope="module")
def page(legs_log: Path) -> Iterator[Any]:
    """A headless Chromium tab (no network) that records requests, dialogs and script errors."""
    try:
        from finqa.audit.report_html import CHROMIUM_ARGS, chromium_path
        from playwright.sync_api import sync_playwright

        exe = chromium_path()
    except (ImportError, AuditError) as exc:
        if os.environ.get("FINQA_REQUIRE_BROWSER") == "1":
            pytest.fail(f"browser tests need Chromium and playwright: {exc}")
        pytest.skip(f"no browser: {exc}")
    args = [a for a in CHROMIUM_ARGS if a != "--headless"]
    with tempfile.TemporaryDirectory() as profile, sync_playwright() as pw:
        ctx = pw.chromium.launch_persistent_context(
            profile, executable_path=exe, headless=True, args=args
        )
        ctx.route("http*://**", lambda route: route.abort())
        tab = ctx.new_page()
        tab.requests, tab.dialogs, tab.errors = [], [], []
        tab.on("request", lambda r: None if r.url.startswith(("file:", "data:")) else tab.requests.append(r.url))  # fmt: skip
        tab.on("dialog", lambda d: (tab.dialogs.append(d.message), d.dismiss()))
        tab.on("pageerror", lambda e: tab.errors.append(str(e)))
        try:
            yield tab
        finally:
            ctx.close()


class TestLegsInBrowser:
    def test_legs_nested_in_the_dom(self, page: Any, legs_log: Path, tmp_path: Path) -> None:
        """Opening a cross-filing question shows the whole's status, the combination and each leg's attempts inside it."""
        from finqa.audit.report_html import write_report

        html, _ = write_report(legs_log, tmp_path / "legs.html")
        page.goto(html.resolve().as_uri())
        page.wait_for_selector("body[data-ready='1']")
        rows = page.locator("#qrows tr.q")
        assert sorted(rows.evaluate_all("rs => rs.map(r => r.dataset.qid)")) == sorted(QUESTIONS)
        assert "(2 legs)" in page.inner_text("#qrows tr.q[data-qid='missing']")
        page.click("#qrows tr.q[data-qid='missing']")
        detail = page.locator("#qrows tr.detail-row[data-qid='missing']")
        whole = detail.locator(".combination .whole").inner_text()
        assert "not accepted (abstained)" in whole and "leg 2 Boeing revenue FY2024" in whole
        legs = detail.locator(".legs > .leg")
        assert legs.evaluate_all("ls => ls.map(l => l.dataset.qid)") == ["missing/leg1", "missing/leg2"]  # fmt: skip
        first = detail.locator(".leg[data-qid='missing/leg1']")
        assert first.locator(".attempt").count() >= 1
        attempt = first.locator(".attempt").first.inner_text()
        assert "Retrieval:" in attempt and "Judge:" in attempt and "Answer" in attempt
        assert "Total revenue 21,505 19,409" in first.locator("blockquote.quote").first.inner_text()
        second = detail.locator(".leg[data-qid='missing/leg2']").inner_text()
        assert "Figure: not found" in second and "abstained" in second
        page.click("#qrows tr.q[data-qid='peers']")
        peers = page.locator("#qrows tr.detail-row[data-qid='peers']")
        ops = peers.locator(".combination table.operands tr").all_inner_texts()
        assert any(
            "Adobe" in r and "$21,505 million" in r and "ADOBE_2024_10K p.0" in r for r in ops
        )
        assert any("Netflix" in r and "ending 2024-12-31" in r for r in ops)
        assert "✓ matches" in peers.locator(".combination").inner_text()
        assert "fiscal years end on different dates" in peers.locator(".combination .note").inner_text()  # fmt: skip
        assert peers.locator(".leg .attempt").count() >= 2  # each leg's attempts, in the question
        assert "<script>window.__pwned" in peers.inner_text()  # the question's text shown as text
        page.click("#qrows tr.q[data-qid='q4']")
        q4 = page.locator("#qrows tr.detail-row[data-qid='q4'] .combination")
        assert q4.locator(".pill.s-derived").inner_text() == "derived"
        assert page.evaluate("window.__pwned === undefined")
        assert page.locator("#app img, #app script").count() == 0
        assert page.errors == [] and page.requests == [] and page.dialogs == []
