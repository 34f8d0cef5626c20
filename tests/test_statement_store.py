"""The statement model stored with the index: ingest hook, loader, `finqa statements`."""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent / "fixtures" / "retrieval"))
from finqa.agents.config import Settings  # noqa: E402
from finqa.agents.retrieval.ingest import ingest_paths  # noqa: E402
from finqa.agents.types import StatementStore  # noqa: E402
from finqa.lexicon.statements import IndexStatementStore, read_pages, read_pdf, write_model  # noqa: E402
from finqa.orchestrator.cli import main as cli_main  # noqa: E402
from finqa.orchestrator.statements import build_models  # noqa: E402
from retrieval_support import FakeEmbedder, make_acme_pdf  # noqa: E402

DOC = "ACME_2022_10K"


def _ingest(paths: list[Path], index: Path, embedder: FakeEmbedder):  # type: ignore[no-untyped-def]
    settings = Settings().with_overrides({"index.path": str(index)})
    return ingest_paths(paths, settings, embedder=embedder, progress=False)


@pytest.fixture
def indexed(tmp_path: Path) -> tuple[Path, Path]:
    """An index holding the three-page ACME PDF (a cash-flow statement on page 2)."""
    pdf = make_acme_pdf(tmp_path / f"{DOC}.pdf")
    index = tmp_path / "index"
    _ingest([pdf], index, FakeEmbedder())
    return pdf, index


class TestIngestHook:
    def test_ingest_stores_the_model_beside_the_chunks(self, indexed: tuple[Path, Path]) -> None:
        """After ingest the cash-flow figures are in <index>/statements, with page anchors."""
        _, index = indexed
        store = IndexStatementStore(index)
        assert isinstance(store, StatementStore) and store.docs() == [DOC]
        capex = store.lookup(DOC, "Purchases of property, plant and equipment", 2022)
        assert [(f.value, f.page, f.statement) for f in capex] == [(410e6, 2, "cashflow")]
        assert (index / "statements" / f"{DOC}.parquet").exists()

    def test_unchanged_reingest_builds_a_missing_model_without_embedding(
        self, indexed: tuple[Path, Path]
    ) -> None:
        """Re-ingesting unchanged files rebuilds a missing model and embeds nothing."""
        pdf, index = indexed
        shutil.rmtree(index / "statements")
        embedder = FakeEmbedder()
        report = _ingest([pdf], index, embedder)
        assert report.unchanged == 1 and embedder.calls == 0 and report.statement_docs == 1
        assert IndexStatementStore(index).lookup(DOC, "Dividends paid", "FY2021")[0].value == 110e6

    def test_build_command_on_an_existing_index(self, indexed: tuple[Path, Path]) -> None:
        """`build_models` makes the model of an index built without one, then finds it current."""
        _, index = indexed
        shutil.rmtree(index / "statements")
        first = build_models(index)
        again = build_models(index)
        assert first.built == [DOC] and again.current == [DOC] and not again.built

    def test_model_of_an_older_reader_is_rebuilt(self, indexed: tuple[Path, Path]) -> None:
        """A model stored by an older statement-model version is rebuilt without --force."""
        _, index = indexed
        manifest = index / "statements" / "manifest.json"
        data = json.loads(manifest.read_text(encoding="utf-8"))
        data["docs"][DOC]["version"] = 1
        manifest.write_text(json.dumps(data), encoding="utf-8")
        report = build_models(index)
        assert report.built == [DOC] and not report.current

    def test_changed_source_is_reported_not_parsed(self, indexed: tuple[Path, Path]) -> None:
        """A source edited since ingest is skipped with a reason (the index would disagree)."""
        pdf, index = indexed
        shutil.rmtree(index / "statements")
        make_acme_pdf(pdf, ["something else entirely"])
        report = build_models(index)
        assert report.built == [] and "re-run finqa ingest" in report.skipped[0][1]


class TestLoader:
    def test_round_trip_keeps_every_field(self, tmp_path: Path) -> None:
        """A model written to parquet reads back with the same facts, periods and tables."""
        text = "CONSOLIDATED BALANCE SHEETS\n(in millions)\nDecember 31, 2022 December 31, 2021\nTotal assets 3,000 2,800\n"
        read = read_pages(DOC, [(7, text)])
        write_model(tmp_path, read, content_hash="h")
        loaded = IndexStatementStore(tmp_path).tables(DOC)
        assert loaded == read.tables

    def test_model_refreshes_when_rewritten(self, tmp_path: Path) -> None:
        """A store that is open sees a document added after it first read the manifest."""
        store = IndexStatementStore(tmp_path)
        assert store.docs() == []
        text = "CONSOLIDATED BALANCE SHEETS\n(in millions)\n2022 2021\nGoodwill 5 4\n"
        write_model(tmp_path, read_pages(DOC, [(1, text)]), content_hash="h")
        assert store.docs() == [DOC] and store.lookup(DOC, "goodwill", 2022)[0].value == 5e6


class TestPdfReader:
    def test_pdf_reader_reads_the_statement(self, tmp_path: Path) -> None:
        """The PDF reader finds the statement page and its figures (grid or text fallback)."""
        read = read_pdf(DOC, make_acme_pdf(tmp_path / f"{DOC}.pdf"))
        values = {(f.label, f.period.key): f.value for t in read.tables for f in t.facts}
        assert read.statement_pages == [2] and read.typed_pages == [2]
        assert values[("Net cash provided by operating activities", "FY2022")] == 1577e6


class TestStatementsCommand:
    def test_text_output_has_page_anchors(
        self, indexed: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
    ) -> None:
        """`finqa statements DOC` prints each line item with its values and page."""
        _, index = indexed
        assert cli_main(["statements", DOC, "--index", str(index)]) == 0
        out = capsys.readouterr().out
        assert "CONSOLIDATED STATEMENTS OF CASH FLOWS" in out and "[cashflow]" in out
        assert "410,000,000" in out and "-410,000,000" not in out and "p.2" in out

    def test_json_and_csv(
        self, indexed: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
    ) -> None:
        """--json gives tables with facts; --csv one row per fact."""
        _, index = indexed
        cli_main(["statements", DOC, "--index", str(index), "--json", "--statement", "cashflow"])
        payload = json.loads(capsys.readouterr().out)
        assert payload["tables"][0]["facts"][0]["page"] == 2
        cli_main(["statements", DOC, "--index", str(index), "--csv"])
        lines = capsys.readouterr().out.strip().splitlines()
        assert lines[0].startswith("doc_id,statement") and len(lines) == 1 + 6

    def test_unknown_document_is_a_clear_error(
        self, indexed: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
    ) -> None:
        """An unknown document id exits 1 with a one-line error naming it."""
        _, index = indexed
        assert cli_main(["statements", "NOPE_2022_10K", "--index", str(index)]) == 1
        assert "NOPE_2022_10K" in capsys.readouterr().err


class TestSharedStore:
    def test_one_reader_per_index(self, indexed: tuple[Path, Path]) -> None:
        """FinQA, the factory and the lexicon hand out the same store for one index folder."""
        from finqa import FinQA
        from finqa.lexicon.statements import clear_shared, shared_store

        _, index = indexed
        clear_shared()
        fq = FinQA.open(index=str(index))
        assert fq.statements is shared_store(index)
        assert fq.statements.lookup(DOC, "Dividends paid", 2022)[0].value == 120e6


class TestGoldFigures:
    def test_named_line_items_and_year_ranges(self) -> None:
        """The coverage benchmark expands 'FY2015 - FY2017' and reads each named line item."""
        from finqa.benchmarks.statement_coverage import gold_figures

        q = {
            "financebench_id": "q1",
            "doc_name": "ACME_2017_10K",
            "question_type": "metrics-generated",
            "question": "What is the FY2015 - FY2017 average margin?",
            "justification": "Metric 1: This metric was located in the 10K as a single line item named: Revenue.\n\n"
            "Metric 2: This metric was located in the 10K as a single line item named: Net income.",
            "evidence": [{"evidence_page_num": 55}],
        }
        figs = gold_figures([q, {**q, "question_type": "domain-relevant"}])
        assert {(f.label, f.year) for f in figs} == {
            (name, y) for name in ("Revenue", "Net income") for y in (2015, 2016, 2017)
        }


class TestPrimaryStatements:
    def test_report_without_a_balance_sheet_is_named(self) -> None:
        """The coverage benchmark names a 10-K whose balance sheet was never typed; 8-Ks are not counted."""
        from finqa.benchmarks.statement_coverage import primary_statements

        full = {"doc_id": "ACME_2022_10K", "typed_pages": [60, 61, 62], "pages": 120,
                "page_kinds": {"60": "income", "61": "balance", "62": "cashflow"}}  # fmt: skip
        partial = {"doc_id": "ACME_2021_10K", "typed_pages": [58, 60], "pages": 118,
                   "page_kinds": {"58": "income", "59": "balance", "60": "cashflow"}}  # fmt: skip
        release = {"doc_id": "ACME_2022_8K", "typed_pages": [], "page_kinds": {}}
        got = primary_statements([full, partial, release])
        assert got["reports"] == 2 and got["with_all_three"] == 1
        assert got["by_statement"]["balance"] == "1/2"
        assert got["missing"] == {"ACME_2021_10K": {"statements": ["balance"], "pages": 118}}


class TestIngestNeverLosesData:
    def test_reader_failure_is_a_warning(
        self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        """A statement reader that raises leaves the chunks committed and reports a warning."""
        import finqa.lexicon.statements as statements

        def broken(*args: object, **kwargs: object) -> None:
            raise ValueError("reader exploded")

        monkeypatch.setattr(statements, "ensure_model", broken)
        pdf = make_acme_pdf(tmp_path / f"{DOC}.pdf")
        report = _ingest([pdf], tmp_path / "index", FakeEmbedder())
        assert report.documents == 1 and report.chunks > 0
        assert any("statement model not built: reader exploded" in w for _, w in report.warnings)
