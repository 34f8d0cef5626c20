"""'Fiscal year N' read as the filer names its years: a retailer's year ended February 3, 2024
is its 'fiscal 2023' (named by the year it starts in); the filing itself says so."""

from __future__ import annotations

from pathlib import Path

import pytest
from finqa.agents.config import Settings
from finqa.lexicon.identity import identify
from finqa.lexicon.periods import find_periods, fiscal_naming
from finqa.lexicon.question_ask import read_ask

# A retailer the gazetteer does not know: only its filing tells how it names its years.
ZETA = """UNITED STATES SECURITIES AND EXCHANGE COMMISSION
Washington, D.C. 20549
FORM 10-K
ANNUAL REPORT PURSUANT TO SECTION 13 OR 15(d) OF THE SECURITIES EXCHANGE ACT OF 1934
For the fiscal year ended February 3, 2024
ZETA STORES, INC.
(Exact name of registrant as specified in its charter)
\f
Our fiscal 2023 ended February 3, 2024 and included 53 weeks; fiscal 2022 ended January 28, 2023.

CONSOLIDATED STATEMENTS OF OPERATIONS
(In millions)
Fiscal years ended February 3, 2024 January 28, 2023
Net sales 10,500 9,800
Operating income 1,050 900
Net income 800 700
"""

# A calendar-year filer: 'fiscal 2023' is the year ended December 31, 2023.
OMEGA = """UNITED STATES SECURITIES AND EXCHANGE COMMISSION
Washington, D.C. 20549
FORM 10-K
ANNUAL REPORT PURSUANT TO SECTION 13 OR 15(d) OF THE SECURITIES EXCHANGE ACT OF 1934
For the fiscal year ended December 31, 2023
OMEGA WIDGETS CORP.
(Exact name of registrant as specified in its charter)
\f
Fiscal 2023 ended December 31, 2023.

CONSOLIDATED STATEMENTS OF OPERATIONS
(In millions)
Year ended December 31, 2023 2022
Net sales 4,200 4,000
Net income 300 250
"""


# A third filing: BM25 over two documents gives a word in one of them no weight.
DELTA = """UNITED STATES SECURITIES AND EXCHANGE COMMISSION
Washington, D.C. 20549
FORM 10-K
For the fiscal year ended September 30, 2023
DELTA PUMPS CORP.
(Exact name of registrant as specified in its charter)
\f
CONSOLIDATED BALANCE SHEETS
(In millions)
September 30, 2023 2022
Total assets 7,000 6,500
"""


class TestNaming:
    """The filing's own year name against the calendar year its period ends in."""

    def test_dei_focus_one_year_before_the_end_names_by_start(self) -> None:
        """dei says fiscal 2023 for a year ended February 3, 2024: named by its start; the
        identity's fiscal_year stays the end-year FY2024."""
        ident = identify(
            ["ZETA STORES, INC. FORM 10-K"],
            dei={
                "DocumentType": "10-K",
                "DocumentFiscalYearFocus": "2023",
                "DocumentPeriodEndDate": "2024-02-03",
                "EntityRegistrantName": "ZETA STORES, INC.",
            },
        )
        assert (ident.fiscal_year, ident.fy_label) == (2024, "start")
        assert "fiscal 2023" in ident.sources["fy_label"]

    def test_dei_focus_of_the_end_year_names_by_end(self) -> None:
        """A December filer whose dei focus is the year it ends in: named by its end."""
        ident = identify(
            ["OMEGA WIDGETS CORP. FORM 10-K"],
            dei={
                "DocumentType": "10-K",
                "DocumentFiscalYearFocus": "2023",
                "DocumentPeriodEndDate": "2023-12-31",
            },
        )
        assert (ident.fiscal_year, ident.fy_label) == (2023, "end")

    def test_text_names_the_year(self) -> None:
        """No dei: the first pages' 'fiscal 2023 ended February 3, 2024' says the same."""
        assert identify([ZETA]).fy_label == "start"
        assert identify([OMEGA]).fy_label == "end"

    def test_a_start_name_needs_a_year_mostly_in_its_start_year(self) -> None:
        """'Fiscal 2022 ... ended June 30, 2023' is not a start-year name (most of that year
        lies in 2023): nothing is concluded from it."""
        text = ["ACME CORP. ANNUAL REPORT ON FORM 10-K", "Fiscal 2022 ended June 30, 2023."]
        assert identify(text).fy_label is None

    def test_question_reading_follows_the_naming(self) -> None:
        """'fiscal year 2023' of a start-naming filer is FY2024 (the year ending in 2024);
        'FY2023' keeps the end-year reading; the filings' label wins, and filings that
        disagree give no single reading."""
        q = "What were Zeta Stores' net sales in fiscal year 2023?"
        assert [p.fiscal_year for p in find_periods(q, fy_label="start")] == [2024]
        assert [p.fiscal_year for p in find_periods("net sales in FY2023", fy_label="start")] == [
            2023
        ]
        assert fiscal_naming(q, ["start", None]) == "start"
        assert fiscal_naming(q, ["start", "end"]) is None
        spec = read_ask(q, "start")
        assert spec.years == (2024,) and spec.renamed == (("fiscal year 2023", 2024),)
        assert read_ask(q).years == (2023,)  # nothing says how Zeta names its years

    def test_a_quarter_in_the_filer_s_words_follows_the_naming(self) -> None:
        """'the third quarter of 2022' of a start-naming filer ended in October 2022, within its
        fiscal 2022 (FY2023, ending January 2023); 'Q3 FY2022' keeps the end-year reading; an
        end-naming filer's quarter is read as written."""
        q = "How much inventory did Zeta Stores hold at the end of its third quarter of 2022?"
        (p,) = find_periods(q, fy_label="start")
        assert (p.fiscal_year, p.quarter) == (2023, 3)
        assert [x.fiscal_year for x in find_periods(q, fy_label="end")] == [2022]
        assert [x.fiscal_year for x in find_periods("in Q3 FY2022", fy_label="start")] == [2022]
        assert read_ask(q, "start").renamed == (("third quarter of 2022", 2023),)

    def test_gazetteer_naming_reaches_the_reasoner(self) -> None:
        """A company the gazetteer knows to name years by their start (Ulta) is read so by the
        reasoner as by retrieval, without a filing in scope."""
        spec = read_ask("What were Ulta Beauty's net sales in fiscal 2022?")
        assert spec.years == (2023,) and spec.fy_label == "start"


@pytest.fixture
def stores(tmp_path: Path) -> Settings:
    from finqa.agents.retrieval.ingest import ingest_paths

    corpus = tmp_path / "corpus"
    corpus.mkdir()
    (corpus / "zeta-10k.txt").write_text(ZETA, encoding="utf-8")
    (corpus / "omega-10k.txt").write_text(OMEGA, encoding="utf-8")
    (corpus / "delta-10k.txt").write_text(DELTA, encoding="utf-8")
    settings = Settings().with_overrides(
        {"index.path": str(tmp_path / "idx"), "index.dense": "none"}
    )
    ingest_paths([corpus], settings, progress=False)
    return settings


class TestAnswers:
    """The product answers the filer's 'fiscal 2023' from the column of the year it names."""

    def test_start_naming_filer(self, stores: Settings) -> None:
        from finqa.orchestrator.api import FinQA

        with FinQA.open(config=stores) as fq:
            result = fq.ask("What were Zeta Stores' net sales in fiscal year 2023?")
        assert result.status == "accepted", result.answer
        assert "$10,500 million" in result.answer and "$9,800" not in result.answer
        # the filer's own name of the year and its end, and how the question was read
        assert "fiscal 2023 (ended feb 3, 2024)" in result.answer.lower()
        assert "as the filer names its years" in result.answer and "FY2024" in result.answer

    def test_end_naming_filer(self, stores: Settings) -> None:
        from finqa.orchestrator.api import FinQA

        with FinQA.open(config=stores) as fq:
            result = fq.ask("What were Omega Widgets' net sales in fiscal year 2023?")
        assert result.status == "accepted", result.answer
        assert "$4,200 million" in result.answer and "as the filer names" not in result.answer

    def test_end_year_spelling_keeps_its_reading(self, stores: Settings) -> None:
        """'FY2023' is the year ending in 2023 whoever files: Zeta's year ended January 28,
        2023, named in the answer as Zeta names it (its fiscal 2022)."""
        from finqa.orchestrator.api import FinQA

        with FinQA.open(config=stores) as fq:
            result = fq.ask("What were Zeta Stores' net sales in FY2023?")
        assert "$9,800 million" in result.answer, result.answer
        assert "fiscal 2022 (ended jan 28, 2023)" in result.answer.lower()
