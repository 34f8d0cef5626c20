"""`finqa bench xbrl`: questions from a filing's own tags, graded by them, as filed or text-only."""

from __future__ import annotations

import json
import sys
from datetime import date
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from finqa.agents.retrieval.loaders import LoadedDoc, load_path  # noqa: E402
from finqa.benchmarks._xbrl_recovery import statement_recovery as _recovery  # noqa: E402
from finqa.benchmarks.xbrl import (  # noqa: E402
    calendar_fiscal_year,
    generate_questions,
    run,
    strip_tags,
)
from test_edgar_html import mini_ixbrl  # noqa: E402


def _facts(tmp_path: Path) -> LoadedDoc:
    path = tmp_path / "adbe.htm"
    path.write_text(mini_ixbrl(), encoding="utf-8")
    doc = next(load_path(path))
    assert isinstance(doc, LoadedDoc)
    return doc


class TestQuestions:
    """Questions are generated only from totals whose tags agree, with the tag as gold."""

    def test_item_change_and_gold_from_tags(self, tmp_path: Path) -> None:
        """Revenue FY2024 and its change from FY2023 come out with the tagged values as gold."""
        doc = _facts(tmp_path)
        qs = generate_questions("adbe.htm", "Adobe", doc.facts, 11, 2024, None, date(2024, 11, 29))
        by_id = {q.qid: q for q in qs}
        assert by_id["adbe-revenue"].answer == "21505.00"
        assert "fiscal year 2024" in by_id["adbe-revenue"].question
        assert by_id["adbe-revenue-change"].value == 2096.0
        assert by_id["adbe-eps_diluted"].answer == "12.36"

    def test_segment_fact_never_gold(self, tmp_path: Path) -> None:
        """The segment's 15,000 (a dimensioned fact) is the gold of no question."""
        doc = _facts(tmp_path)
        qs = generate_questions("adbe.htm", "Adobe", doc.facts, 11, 2024, None, date(2024, 11, 29))
        assert qs and all(q.value != 15000.0 for q in qs)


class TestFiscalYearNaming:
    """Questions name a fiscal year the filer's way (its dei focus), the gold stays the tagged year."""

    def test_52_53_week_year_keyed_by_its_end(self) -> None:
        """A retailer's year ended February 3, 2024 is keyed FY2024 (January year end)."""
        assert calendar_fiscal_year(date(2024, 2, 3), 1) == 2024
        assert calendar_fiscal_year(date(2024, 11, 29), 11) == 2024

    def test_question_says_the_filers_fiscal_year(self, tmp_path: Path) -> None:
        """A filer calling that year fiscal 2023 is asked about 'fiscal year 2023', gold unchanged."""
        doc = _facts(tmp_path)
        args = ("adbe.htm", "Adobe", doc.facts, 11, 2024, None, date(2024, 11, 29))
        own = {q.qid: q for q in generate_questions(*args, named=2023)}
        plain = {q.qid: q for q in generate_questions(*args)}
        assert "fiscal year 2023" in own["adbe-revenue"].question
        assert "fiscal year 2024" in plain["adbe-revenue"].question
        assert own["adbe-revenue"].answer == plain["adbe-revenue"].answer == "21505.00"
        assert "from fiscal year 2022 to fiscal year 2023" in own["adbe-revenue-change"].question


class TestRecoveryByFiling:
    """Recovery is reported per filing; a filing that prints no statement is not counted as read."""

    def test_per_filing_and_printed_statements(self, tmp_path: Path) -> None:
        """The mini 10-K's revenue is tagged in its income statement table: read, recovered."""
        tagged = tmp_path / "adbe-10-k-2025-01-13.htm"
        tagged.write_text(mini_ixbrl(), encoding="utf-8")
        plain = tmp_path / "plain" / tagged.name
        plain.parent.mkdir()
        plain.write_bytes(strip_tags(tagged.read_bytes()))
        rec = _recovery([plain], [tagged])
        one = rec["by_filing"][tagged.name]
        assert one["read"] and one["statements_in_document"] == ["income"]
        assert rec["tagged"] == one["tagged"] > 0 and rec["not_read"] == []
        assert one["recovered_signed"] == one["tagged"]  # 'Other expense, net (48)' is -48

    def test_filing_without_printed_statements_is_not_counted(self, tmp_path: Path) -> None:
        """Revenue tagged only inside a sentence (statements in an exhibit): not read, not counted."""
        text = mini_ixbrl()
        start, end = text.index("<table>"), text.index("</table>") + len("</table>")
        sentence = (
            'Revenue was $<ix:nonFraction name="us-gaap:Revenues" contextRef="FY24" '
            'unitRef="usd" scale="6" decimals="-6">21,505</ix:nonFraction> million.'
        )
        tagged = tmp_path / "x-10-k-2025-01-13.htm"
        tagged.write_text(text[:start] + "<p>" + sentence + "</p>" + text[end:], encoding="utf-8")
        plain = tmp_path / "plain" / tagged.name
        plain.parent.mkdir()
        plain.write_bytes(strip_tags(tagged.read_bytes()))
        rec = _recovery([plain], [tagged])
        assert rec["not_read"] == [tagged.name] and rec["tagged"] == 0
        assert not rec["by_filing"][tagged.name]["read"]


class TestStripTags:
    """Text-only mode removes the tags and the hidden header, and keeps the text."""

    def test_stripped_document_has_text_but_no_facts(self, tmp_path: Path) -> None:
        """After stripping, the figures are still on the page but no fact or dei is tagged."""
        path = tmp_path / "plain.htm"
        path.write_bytes(strip_tags(mini_ixbrl().encode()))
        doc = next(load_path(path))
        assert isinstance(doc, LoadedDoc)
        assert not doc.facts and not doc.dei
        assert "21,505" in doc.pages[1][1] and "iso4217" not in "".join(t for _, t in doc.pages)


class TestRun:
    """A small end-to-end run writes graded results and a summary."""

    def test_text_only_run(self, tmp_path: Path) -> None:
        """Every generated question gets one graded row; the counts add up."""
        filings = tmp_path / "filings"
        filings.mkdir()
        (filings / "adbe-10-k-2025-01-13.htm").write_text(mini_ixbrl(), encoding="utf-8")
        summary = run(filings, "text-only", tmp_path / "out", limit=3)
        rows = [
            json.loads(x) for x in (tmp_path / "out" / "results.jsonl").read_text().splitlines()
        ]
        assert len(rows) == summary["questions"] == 3
        assert sum(summary["counts"].values()) == 3
        assert {r["label"] for r in rows} <= {"correct", "wrong", "abstained", "ungraded"}
        rec = summary["statement_recovery"]
        assert rec["measured"] and rec["tagged"] >= rec["recovered"] >= 0
        assert rec["on_statement_pages"] <= rec["tagged"]


class TestFilersNamingFromTheFiling:
    """The bench reads the filer's naming from its own dei facts: a year ended February 3, 2024
    that the filer calls fiscal 2023 is asked as 'fiscal year 2023', its gold the tagged year."""

    def test_start_naming_filer(self, tmp_path: Path) -> None:
        from finqa.benchmarks.xbrl import _questions

        html = (
            mini_ixbrl()
            .replace("2024-11-29", "2024-02-03")
            .replace("2023-12-02", "2023-01-29")
            .replace("2023-12-01", "2023-01-28")
            .replace("2022-12-03", "2022-01-30")
            .replace("November 29, 2024", "February 3, 2024")
            .replace(
                'contextRef="FY24">2024</ix:nonNumeric>', 'contextRef="FY24">2023</ix:nonNumeric>'
            )
        )
        path = tmp_path / "zeta-10k.htm"
        path.write_text(html, encoding="utf-8")
        by_id = {q.qid: q for q in _questions([path])}
        revenue = next(q for qid, q in by_id.items() if qid.endswith("-revenue"))
        assert "fiscal year 2023" in revenue.question, revenue.question
        assert revenue.answer == "21505.00"


class TestCrossFilingNaming:
    """Cross-filing questions: peers are asked 'FY<N>' (one reading whatever each names its years);
    a single company's year is named as the filer names it (a year ended February 3, 2024 that
    its dei focus calls 2023 is its 'fiscal 2023')."""

    def _start_naming(self) -> str:
        return (
            mini_ixbrl()
            .replace("2024-11-29", "2024-02-03")
            .replace("2023-12-02", "2023-01-29")
            .replace("2023-12-01", "2023-01-28")
            .replace("2022-12-03", "2022-01-30")
            .replace("November 29, 2024", "February 3, 2024")
            .replace(
                'contextRef="FY24">2024</ix:nonNumeric>', 'contextRef="FY24">2023</ix:nonNumeric>'
            )
            .replace('id="rev24">21,505', 'id="rev24">22,000')
        )

    def test_peers_are_asked_in_end_year_terms(self, tmp_path: Path) -> None:
        from finqa.benchmarks.xbrl_cross import cross_questions

        (tmp_path / "adbe-10k.htm").write_text(mini_ixbrl(), encoding="utf-8")
        (tmp_path / "zeta-10k.htm").write_text(self._start_naming(), encoding="utf-8")
        qs = cross_questions(sorted(tmp_path.glob("*.htm")))
        peers = [q for q in qs if q.kind in ("higher", "difference")]
        assert peers and all("FY2024" in q.question for q in peers), [q.question for q in qs]
        assert not any("fiscal 2024" in q.question for q in peers)

    def test_one_company_year_in_its_own_naming(self, tmp_path: Path) -> None:
        from finqa.benchmarks.xbrl_cross import _annual_facts, _own

        start, plain = tmp_path / "zeta-10k.htm", tmp_path / "adbe-10k.htm"
        start.write_text(self._start_naming(), encoding="utf-8")
        plain.write_text(mini_ixbrl(), encoding="utf-8")
        got_start, got_plain = _annual_facts(start), _annual_facts(plain)
        assert got_start is not None and got_plain is not None
        assert got_start[1] == 2024 and _own(got_start[1], got_start[2]) == 2023
        assert got_plain[1] == 2024 and _own(got_plain[1], got_plain[2]) == 2024
