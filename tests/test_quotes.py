"""Quotes a reviewer finds with Ctrl-F: a tagged figure is quoted as its table row is printed."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest
from finqa.agents.config import Settings
from finqa.agents.reasoning.offline.model_rows import model_rows
from finqa.agents.types import Evidence, EvidenceItem, RetrievalPlan
from test_edgar_html import mini_ixbrl


@pytest.fixture(scope="module")
def mini_index(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The three-page inline XBRL 10-K of test_edgar_html, ingested BM25-only."""
    from finqa.agents.retrieval.ingest import ingest_paths

    root = tmp_path_factory.mktemp("quotes")
    (root / "corpus").mkdir()
    (root / "corpus" / "annual-report.htm").write_text(mini_ixbrl(), encoding="utf-8")
    settings = Settings().with_overrides({"index.path": str(root / "idx"), "index.dense": "none"})
    ingest_paths([root / "corpus"], settings, progress=False)
    return root / "idx"


def _page_text(index: Path, page: int) -> str:
    with sqlite3.connect(index / "chunks.sqlite") as db:
        rows = db.execute(
            "select text from chunks where doc_id = 'annual-report' and page = ?", (page,)
        ).fetchall()
    return "\n".join(r[0] for r in rows)


def _rows(index: Path) -> dict[tuple[str, int], Any]:
    """The tagged rows of the statement model, by (concept, fiscal year)."""
    from finqa.lexicon.statements import IndexStatementStore

    store = IndexStatementStore(index)
    item = EvidenceItem(
        source_id="S1", doc_id="annual-report", pages=(1,), chunk_ids=("c1",), text="x"
    )
    plan = RetrievalPlan(attempt=1, route="t", reason="t", k=1, candidates=1, rse=False)
    evidence = Evidence(question="q", items=(item,), plan=plan)
    return {(r.concept, r.years[0]): r for r in model_rows(store, evidence) if r.concept}


class TestTaggedRowQuote:
    """A row read from an inline XBRL tag is quoted as the page prints it; the tag is apart."""

    def test_sign_as_printed(self, mini_index: Path) -> None:
        """A tag with sign='-' shown as '(48)' is quoted '(48)' on its printed caption, not '48'."""
        row = _rows(mini_index)[("us-gaap:OtherNonoperatingIncomeExpense", 2024)]
        assert (row.line, row.values) == ("Other expense, net (48)", (-48,))

    def test_every_tagged_quote_is_on_its_page(self, mini_index: Path) -> None:
        """Each tagged row's quote (caption and cells, or the tag's own text) is text of its page."""
        rows = _rows(mini_index)
        assert {"us-gaap:Revenues", "us-gaap:EarningsPerShareDiluted"} <= {c for c, _ in rows}
        for (concept, _year), row in rows.items():
            assert concept not in row.line
            assert row.line in _page_text(mini_index, row.page), (concept, row.line)


class TestAnswerCitation:
    """`finqa ask --json` quotes the printed row and names the tag in `xbrl_concept`."""

    def test_revenue_citation(self, mini_index: Path, tmp_path: Path) -> None:
        """Adobe's FY2024 revenue cites 'Total revenue $21,505' on page 56, tag us-gaap:Revenues."""
        from finqa.orchestrator.api import FinQA

        settings = Settings().with_overrides(
            {"audit.path": str(tmp_path / "a.jsonl"), "audit.fsync": False}
        )
        with FinQA.open(mini_index, config=settings) as fq:
            result = fq.ask("What was Adobe's total revenue in FY2024?")
        cites = result.to_json_dict()["citations"]
        tagged = [c for c in cites if c["xbrl_concept"]]
        assert tagged, cites
        assert tagged[0]["xbrl_concept"] == "us-gaap:Revenues"
        assert tagged[0]["quote"].startswith("Total revenue $21,505")
        assert tagged[0]["quote"] in _page_text(mini_index, tagged[0]["page_index"])
        assert tagged[0]["page"] == 56
        assert "us-gaap" not in result.answer


class TestPeriodNames:
    """Answers name a balance by its date and a non-December fiscal year by its end."""

    def test_phrases(self) -> None:
        """Instant, fiscal year ending in September, December year, unknown end."""
        from datetime import date

        from finqa.lexicon.display import period_phrase

        assert period_phrase(2024, date(2024, 12, 31), instant=True) == "as of December 31, 2024"
        assert period_phrase(2024, date(2024, 9, 28)) == "fiscal 2024 (ended Sep 28, 2024)"
        assert period_phrase(2024, date(2024, 12, 31)) == "FY2024"
        assert period_phrase(2024) == "FY2024"

    def test_answer_names_fiscal_year_end(self, mini_index: Path, tmp_path: Path) -> None:
        """Adobe's FY2024 (ended Nov 29, 2024) is named so in the answer; the JSON keeps FY2024."""
        from finqa.orchestrator.api import FinQA

        settings = Settings().with_overrides(
            {"audit.path": str(tmp_path / "a.jsonl"), "audit.fsync": False}
        )
        with FinQA.open(mini_index, config=settings) as fq:
            result = fq.ask("What was Adobe's total revenue in FY2024?")
        assert result.answer.startswith("Fiscal 2024 (ended Nov 29, 2024) revenue: $21,505 million")
        operand = result.to_json_dict()["calculations"][0]["operands"][0]
        assert (operand["period"], operand["value"], operand["scale"]) == ("FY2024", 21505, 1e6)
