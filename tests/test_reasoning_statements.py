"""The offline reasoner reads the filing's statement model (StatementStore) first, the evidence text second."""

from __future__ import annotations

from pathlib import Path

from _reasoning_data import BALANCE, CASH_FLOW, INCOME, evidence
from finqa.agents.config import Settings
from finqa.agents.reasoning import build_reasoner
from finqa.agents.reasoning.offline.book import Book, doc_identity
from finqa.agents.reasoning.offline.model_rows import fiscal_year_of, model_rows
from finqa.agents.types import Evidence, EvidenceItem, RetrievalPlan
from finqa.lexicon.model import StatementFact, StatementPeriod, StatementTable
from finqa.lexicon.statements import MemoryStatementStore, read_pages, write_model

DOC = "ACME_2022_10K"
PROSE = "Management's discussion. Revenue grew on higher volumes and pricing across regions."


def store_of(*pages: tuple[int, str], doc: str = DOC) -> MemoryStatementStore:
    return MemoryStatementStore(read_pages(doc, list(pages)).tables)


def fact(label: str, value: float, period: StatementPeriod, **kw: object) -> StatementFact:
    base: dict[str, object] = {
        "doc_id": DOC,
        "statement": "income",
        "table_id": "p9-t0",
        "label": label,
        "period": period,
        "value": value * 1e6,
        "scale": 1e6,
        "page": 9,
    }
    base.update(kw)
    return StatementFact(**base)  # type: ignore[arg-type]


def table_of(*facts: StatementFact, statement: str = "income", title: str = "Statements of Income") -> StatementTable:  # fmt: skip
    periods = tuple(dict.fromkeys(f.period for f in facts))
    return StatementTable(
        table_id="p9-t0", doc_id=DOC, statement=statement, title=title, pages=(9,),  # type: ignore[arg-type]
        scale=1e6, periods=periods, facts=facts,
    )  # fmt: skip


FY22 = StatementPeriod(label="2022", fiscal_year=2022, months=12)
FY21 = StatementPeriod(label="2021", fiscal_year=2021, months=12)


class TestBookReadsTheModel:
    def test_figure_from_a_page_the_evidence_lacks(self) -> None:
        """A cash-flow figure is read from the model when retrieval returned only prose, cited to the fact's doc and page."""
        store = store_of((52, CASH_FLOW))
        ans = build_reasoner(Settings(), statements=store).generate(
            "What was Acme's FY2021 capital spending?", evidence(PROSE), 1
        )
        assert not ans.abstained
        assert "4,625" in ans.text
        cite = ans.citations[0]
        assert (cite.doc_id, cite.page, cite.source_id) == (DOC, 52, "M1")

    def test_without_a_store_the_same_question_abstains(self) -> None:
        """With no statement model the reasoner reads the evidence only and says what is missing."""
        ans = build_reasoner(Settings()).generate(
            "What was Acme's FY2021 capital spending?", evidence(PROSE), 1
        )
        assert ans.abstained and "capex" in ans.text.lower()

    def test_fact_on_an_evidence_page_cites_that_source(self) -> None:
        """A model fact on a page the evidence holds is cited with the evidence's source id."""
        store = store_of((40, INCOME))  # evidence() puts its first text on page 40
        book = Book(evidence(INCOME), store)
        found = book.find("revenue", 2021)
        assert found is not None and found.row.model
        assert (found.row.source_id, found.row.page, found.value) == ("S1", 40, 79474)

    def test_only_filings_in_the_evidence_are_read(self) -> None:
        """Another filing's model is never read: its figures cannot answer this filing's question."""
        store = store_of((52, CASH_FLOW), doc="OTHER_2022_10K")
        assert model_rows(store, evidence(PROSE)) == []
        ans = build_reasoner(Settings(), statements=store).generate(
            "What was Acme's FY2021 capital spending?", evidence(PROSE), 1
        )
        assert ans.abstained

    def test_better_fitting_evidence_row_wins(self) -> None:
        """A note row in the model loses to the evidence's own income statement row for the same item."""
        note = table_of(
            fact("Net revenue", 1.0, FY22), statement="segment", title="Segment information"
        )
        book = Book(evidence(INCOME), MemoryStatementStore([note]))
        found = book.find("revenue", 2022)
        assert found is not None and not found.row.model and found.value == 86392

    def test_scale_from_the_filing_when_a_table_states_none(self) -> None:
        """A table without '(in millions)' takes the scale every other table of the filing states."""
        no_scale = CASH_FLOW.replace("(in millions)\n", "")
        store = store_of((50, INCOME), (52, no_scale))
        book = Book(evidence(PROSE), store)
        capex = book.find("capex", 2022)
        assert capex is not None and capex.row.scale == 1e6

    def test_unknown_scale_stays_unknown(self) -> None:
        """A filing whose tables state no scale at all is not guessed: the amount is withheld."""
        store = store_of((52, CASH_FLOW.replace("(in millions)\n", "")))
        found = Book(evidence(PROSE), store).find("capex", 2022)
        assert found is not None and found.row.scale is None
        ans = build_reasoner(Settings(), statements=store).generate(
            "What was Acme's FY2022 capital spending?", evidence(PROSE), 1
        )
        assert ans.abstained


class TestModelColumns:
    def test_quarter_and_year_to_date_columns_are_not_fiscal_years(self) -> None:
        """A quarter, a nine-month and a quarter-end column never stand for a fiscal year."""
        q = StatementPeriod(fiscal_year=2023, quarter=2, months=3)
        ytd = StatementPeriod(fiscal_year=2023, months=9)
        q_end = StatementPeriod(fiscal_year=2023, quarter=2, months=0, instant=True)
        fy_end = StatementPeriod(fiscal_year=2022, months=0, instant=True)
        assert [fiscal_year_of(p) for p in (q, ytd, q_end, fy_end, FY22)] == [
            None, None, None, 2022, 2022,
        ]  # fmt: skip

    def test_restated_column_wins(self) -> None:
        """Where a table shows a year as filed and as restated, the restated figure is read."""
        restated = StatementPeriod(label="2021 As Restated", fiscal_year=2021, months=12, restated=True)  # fmt: skip
        t = table_of(
            fact("Net revenue", 110.0, FY22, column=0),
            fact("Net revenue", 100.0, FY21, column=1),
            fact("Net revenue", 95.0, restated, column=2),
        )
        rows = model_rows(MemoryStatementStore([t]), evidence(PROSE))
        assert rows[0].value_for(2021) == 95.0 and rows[0].value_for(2022) == 110.0

    def test_segment_members_are_not_totals(self) -> None:
        """An inline XBRL fact with dimensions (a segment's revenue) never becomes the line item's row."""
        seg = fact("Revenues", 5.0, FY22, source="xbrl", dimensions=(("srt:SegmentAxis", "a:East"),))  # fmt: skip
        assert model_rows(MemoryStatementStore([table_of(seg)]), evidence(PROSE)) == []

    def test_later_printing_is_not_the_main_statement(self) -> None:
        """A second balance sheet later in the filing (e.g. condensed consolidating) is read as a note."""
        store = store_of((51, BALANCE), (120, BALANCE))
        rows = model_rows(store, evidence(PROSE))
        assert {r.page for r in rows if r.primary} == {51}
        assert any(r.page == 120 and not r.primary for r in rows)

    def test_earlier_summary_is_not_the_main_statement(self) -> None:
        """A short 'Balance Sheet' summary printed before the balance sheet itself is read as a note."""
        summary = "Balance Sheet\n(in millions)\n2022 2021\nCurrent assets 5,000 4,000\nOther assets 9,000 8,000\n"
        store = store_of((40, summary), (51, BALANCE))
        rows = model_rows(store, evidence(PROSE))
        assert {r.page for r in rows if r.primary} == {51}
        assert any(r.page == 40 and not r.primary for r in rows)


class TestIdentity:
    def test_metadata_wins_over_the_name(self) -> None:
        """The index's document metadata gives the fiscal year, whatever the file is called."""
        assert doc_identity("acme-annual.pdf", {"fiscal_year": 2021, "doc_type": "10k"}) == (2021, "10k")  # fmt: skip

    def test_name_of_a_known_shape(self) -> None:
        """Without metadata a FinanceBench-style name is read by the lexicon's identity rules."""
        assert doc_identity("ACME_2022_10K") == (2022, "10k")
        assert doc_identity("quarterly-report.pdf") == (None, None)

    def test_headerless_chunk_years_from_metadata(self) -> None:
        """A statement chunk without its year header takes FY, FY-1 from the filing's metadata."""
        body = "Consolidated Statement of Cash Flows\n(in millions)\nCapital spending (5,207) (4,625)\n"
        item = EvidenceItem(
            source_id="S1", doc_id="acme.pdf", pages=(3,), chunk_ids=("c",), text=body,
            metadata={"fiscal_year": 2019, "doc_type": "10k"},
        )  # fmt: skip
        plan = RetrievalPlan(attempt=1, route="t", reason="t", k=1, candidates=1, rse=False)
        book = Book(Evidence(question="q", items=(item,), plan=plan))
        capex = book.find("capex", 2018)
        assert capex is not None and capex.value == -4625


class TestFactoryWiring:
    def test_factory_reasoner_reads_the_index_model(self, tmp_path: Path) -> None:
        """The orchestrator's factory gives the reasoner the index's statement model."""
        from finqa.orchestrator import _factory

        write_model(tmp_path, read_pages(DOC, [(52, CASH_FLOW)]), content_hash="h")
        settings = Settings().with_overrides({"index.path": str(tmp_path)})
        reasoner = _factory.build_reasoner(settings)
        ans = reasoner.generate("What was Acme's FY2021 capital spending?", evidence(PROSE), 1)
        assert not ans.abstained and ans.citations[0].page == 52


class TestModelHelpsTheVerdicts:
    def test_text_rows_of_a_later_printing_are_notes(self) -> None:
        """A guarantor balance sheet in the evidence loses to the main one the model locates."""
        sheet = (
            "CONSOLIDATED BALANCE SHEETS\n(in millions)\nDecember 31, 2022 December 31, 2021\n"
            "Cash and cash equivalents 700 800\n{label} {a} {b}\nTotal current assets 4,000 4,100\n"
            "Total assets 9,000 9,500\nTotal current liabilities 3,000 3,200\n"
        )
        main = sheet.format(label="Trade receivables, net of allowance of $5 and $6, respectively", a="1,875", b="1,935")  # fmt: skip
        later = sheet.format(label="Receivables, net", a="342", b="662")
        ev = evidence(main, later)
        ev = Evidence(
            question="q",
            items=(ev.items[0], ev.items[1].model_copy(update={"pages": (120,)})),
            plan=ev.plan,
        )
        found = Book(ev, store_of((40, main))).find("accounts_receivable", 2022)
        assert found is not None and found.value == 1875
        assert Book(ev).find("accounts_receivable", 2022).value == 342  # type: ignore[union-attr]

    def test_restructuring_not_outlined_reads_zero(self) -> None:
        """With the whole income statement in the model and no restructuring line, the answer is 0, cited."""
        q = (
            "What is the quantity of restructuring costs directly outlined in Acme's income "
            "statements for FY2022? If restructuring costs are not explicitly outlined then state 0."
        )
        ans = build_reasoner(Settings(), statements=store_of((50, INCOME))).generate(
            q, evidence(PROSE), 1
        )
        assert ans.text.startswith("0.") and not ans.abstained
        assert ans.citations[0].page == 50

    def test_dividends_no_when_the_model_has_no_dividend_line(self) -> None:
        """The whole cash flow statement in the model and no dividend line in it: 'No.', cited."""
        text = CASH_FLOW.replace("Dividends paid (6,172) (5,815) (5,509)\n", "Repayments of debt (1,000) (900) (800)\n")  # fmt: skip
        q = "Has Acme paid dividends to common shareholders in FY2022?"
        ans = build_reasoner(Settings(), statements=store_of((52, text))).generate(
            q, evidence(PROSE), 1
        )
        assert ans.text.startswith("No.") and ans.citations[0].page == 52

    def test_dividends_yes_from_the_model(self) -> None:
        """The same question over a statement with a dividends line is 'Yes.' with the amount."""
        q = "Has Acme paid dividends to common shareholders in FY2022?"
        ans = build_reasoner(Settings(), statements=store_of((52, CASH_FLOW))).generate(
            q, evidence(PROSE), 1
        )
        assert ans.text.startswith("Yes.") and "$6,172 million" in ans.text
        assert ans.calculations[0].result == 6172

    def test_a_relation_among_lines_is_no_question_of_one_lines_presence(self) -> None:
        """'Did its operating cash flow cover capital expenditures and dividends paid?' names
        three lines: 'dividends paid' in it is no 'did it pay dividends', so no 'Yes.' with the
        dividends (or the operating cash) line alone."""
        q = "Did Acme's net cash provided by operating activities in FY2022 cover both its capital expenditures and its dividends paid?"  # fmt: skip
        ans = build_reasoner(Settings(), statements=store_of((52, CASH_FLOW))).generate(
            q, evidence(PROSE), 1
        )
        assert "statement shows" not in ans.text

    def test_operating_cash_covering_capex_and_dividends_either_way(self) -> None:
        """One flow against the sum of others: FY2022's operating cash (10,811) falls short of
        capital spending and dividends (5,207 + 6,172): 'No.', a shortfall of $568 million;
        FY2020's (10,613) covers 4,240 + 5,509: 'Yes.', a surplus of $864 million."""
        store = store_of((52, CASH_FLOW))
        q = "Did Acme's net cash provided by operating activities in FY{y} cover both its capital expenditures and its dividends paid?"  # fmt: skip
        short = build_reasoner(Settings(), statements=store).generate(
            q.format(y=2022), evidence(PROSE), 1
        )
        assert short.text.startswith("No.") and "shortfall of $568 million" in short.text
        assert short.calculations[0].result == -568
        ok = build_reasoner(Settings(), statements=store).generate(
            q.format(y=2020), evidence(PROSE), 1
        )
        assert ok.text.startswith("Yes.") and "surplus of $864 million" in ok.text
        enough = "Was Acme's 2020 operating cash flow enough to fund what it spent on dividends?"
        ans = build_reasoner(Settings(), statements=store).generate(enough, evidence(PROSE), 1)
        assert ans.text.startswith("Yes.") and "surplus of $5,104 million" in ans.text

    def test_singular_dividend_caption_is_no_proof_of_absence(self) -> None:
        """A cash flow line 'Cash dividend distributions' (no catalogue caption) blocks a 'No.'."""
        text = CASH_FLOW.replace("Dividends paid (6,172)", "Cash dividend distributions (6,172)")
        q = "Has Acme paid dividends to common shareholders in FY2022?"
        ans = build_reasoner(Settings(), statements=store_of((52, text))).generate(
            q, evidence(PROSE), 1
        )
        assert not ans.text.startswith("No.")

    def test_dividends_line_at_zero_is_no(self) -> None:
        """A dividends line printed as a dash for the year is 'No.', citing the line."""
        text = CASH_FLOW.replace("Dividends paid (6,172) (5,815) (5,509)", "Dividends paid — (5,815) (5,509)")  # fmt: skip
        q = "Has Acme paid dividends to common shareholders in FY2022?"
        ans = build_reasoner(Settings(), statements=store_of((52, text))).generate(
            q, evidence(PROSE), 1
        )
        assert ans.text.startswith("No.") and "Dividends paid" in ans.text

    def test_restructuring_without_the_statement_abstains(self) -> None:
        """Without the whole statement, absence of the line proves nothing: the reasoner abstains."""
        q = "What is the quantity of restructuring costs directly outlined in Acme's income statements for FY2022?"  # fmt: skip
        ans = build_reasoner(Settings()).generate(q, evidence(PROSE), 1)
        assert ans.abstained and "restructuring" in ans.text


class TestGrowthProfile:
    def test_moderate_growth_is_not_high_growth(self) -> None:
        """Revenue growing about 11% a year is 'No' with the rate, the years and the definition."""
        q = "Are Acme's FY2022 financials that of a high growth company?"
        ans = build_reasoner(Settings()).generate(q, evidence(INCOME, question=q), 1)
        assert ans.text.startswith("No.") and "10.8% a year from FY2020 to FY2022" in ans.text
        assert abs(ans.calculations[0].result - 10.8) < 0.05

    def test_fast_growth_is_high_growth(self) -> None:
        """Revenue doubling in two years is 'Yes': the verdict comes out either way."""
        fast = INCOME.replace("79,474", "100,000").replace("70,372", "40,000")
        q = "Is Acme a high-growth company based on FY2022 data?"
        ans = build_reasoner(Settings()).generate(q, evidence(fast, question=q), 1)
        assert ans.text.startswith("Yes.") and "47.0% a year" in ans.text

    def test_top_line_caption_outside_the_catalogue(self) -> None:
        """'Sales to customers', the main income statement's top line, is read as revenue."""
        text = INCOME.replace("Net Revenue", "Sales to customers")
        found = Book(evidence(PROSE), store_of((50, text))).find("revenue", 2021)
        assert found is not None and found.value == 79474
        assert Book(evidence(PROSE), store_of((50, text))).find("cogs", 2021) is not None
