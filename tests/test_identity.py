"""Identity of a filing read from the document: dei facts, SGML header, cover, release, name."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent / "fixtures" / "retrieval"))
from finqa.lexicon.identity import identify, normalize_form, parse_sgml_header  # noqa: E402

COVER_10K = """UNITED STATES
SECURITIES AND EXCHANGE COMMISSION
Washington, D.C. 20549
FORM 10-K
☒ ANNUAL REPORT PURSUANT TO SECTION 13 OR 15(d) OF THE SECURITIES EXCHANGE ACT OF 1934
For the fiscal year ended November 29, 2024
or
☐ TRANSITION REPORT PURSUANT TO SECTION 13 OR 15(d)
Commission File Number: 0-15175
ADOBE INC.
(Exact name of registrant as specified in its charter)
Delaware 77-0019522
"""

COVER_10Q = """UNITED STATES
SECURITIES AND EXCHANGE COMMISSION
Washington, D.C. 20549
FORM 10-Q
(Mark One)
QUARTERLY REPORT PURSUANT TO SECTION 13 OR 15(d) OF THE SECURITIES EXCHANGE ACT OF 1934
For the quarterly period ended
Commission file
July 29, 2023
number 1-9595
BEST BUY CO., INC.
(Exact name of registrant as specified in its charter)
"""

COVER_AMENDED = """UNITED STATES
SECURITIES AND EXCHANGE COMMISSION
Washington, D.C. 20549
FORM 10-K/A
(Amendment No. 1)
ANNUAL REPORT PURSUANT TO SECTION 13 OR 15(d) OF THE SECURITIES EXCHANGE ACT OF 1934
For the fiscal year ended December 31, 2022
Pfizer Inc.
(Exact name of registrant as specified in its charter)
"""

COVER_COMBINED = """UNITED STATES
SECURITIES AND EXCHANGE COMMISSION
Washington, D.C. 20549
FORM 10-K
ANNUAL REPORT PURSUANT TO SECTION 13 OR 15(d) OF THE SECURITIES EXCHANGE ACT OF 1934
For the fiscal year ended December 31, 2022
Commission File Number 001-34028
American Water Works Company, Inc.
(Exact name of registrant as specified in its charter)
Commission File Number 333-00001
Pennsylvania-American Water Company
(Exact name of registrant as specified in its charter)
"""

RELEASE = """The Coca-Cola Company Reports Second Quarter 2025 Results
ATLANTA, July 22, 2025 – The Coca-Cola Company (NYSE: KO) today reported results
for the second quarter. Net revenues grew 1%.
"""


class TestCoverPage:
    """The cover page names the registrant, the form and the period end."""

    def test_annual_report_cover(self) -> None:
        """A 10-K cover gives Adobe, 10-K, FY2024 (year ended Nov 29, 2024), each from the cover."""
        ident = identify([COVER_10K], file_name="annual-report.pdf")
        assert (ident.company, ident.ticker, ident.doc_type, ident.form) == (
            "Adobe",
            "ADBE",
            "10k",
            "10-K",
        )
        assert (ident.fiscal_year, ident.period, ident.period_end) == (2024, "FY2024", "2024-11-29")
        assert ident.sources["company"] == "cover page"
        assert ident.sources["fiscal_year"] == "cover page"

    def test_quarter_by_company_convention(self) -> None:
        """Best Buy's quarter ended July 29, 2023 is Q2 of its fiscal 2024 (year ends in January)."""
        ident = identify([COVER_10Q], file_name="document2.pdf")
        assert ident.company == "Best Buy"
        assert (ident.doc_type, ident.fiscal_year, ident.period) == ("10q", 2024, "2024Q2")

    def test_amendment(self) -> None:
        """A 10-K/A is a 10-K marked as an amendment, not another form."""
        ident = identify([COVER_AMENDED], file_name="x.pdf")
        assert (ident.form, ident.doc_type, ident.amendment) == ("10-K/A", "10k", True)
        assert ident.company == "Pfizer" and ident.fiscal_year == 2022

    def test_combined_filing_has_two_registrants(self) -> None:
        """A combined 10-K of a parent and a subsidiary lists both; the first is the company."""
        ident = identify([COVER_COMBINED], file_name="combined.pdf")
        assert ident.registrants == (
            "American Water Works Company, Inc.",
            "Pennsylvania-American Water Company",
        )
        assert ident.company == "American Water Works"


class TestRelease:
    """An earnings release names itself in its first lines."""

    def test_ticker_and_dateline(self) -> None:
        """'(NYSE: KO)' and a July 22, 2025 dateline give Coca-Cola's 2025 Q2 release."""
        ident = identify([RELEASE], file_name="q2-results.pdf")
        assert (ident.company, ident.ticker, ident.doc_type) == ("Coca-Cola", "KO", "earnings")
        assert (ident.period, ident.report_date) == ("2025Q2", "2025-07-22")
        assert ident.sources["ticker"] == "release first lines"


class TestUnknown:
    """Nothing is guessed: fields no source states stay None."""

    def test_not_a_filing(self) -> None:
        """A page that is no filing has no company, form or year, even with a year in its name."""
        ident = identify(["Our team offsite agenda.\nLunch at noon."], file_name="notes-2019.html")
        assert ident.unknown
        assert ident.fiscal_year is None and ident.period is None

    def test_image_cover_not_guessed_from_digits(self) -> None:
        """A cover without text and an accession-number file name leave every field unknown."""
        ident = identify(["", "", ""], file_name="0000796343-18-000015.pdf")
        assert (ident.company, ident.doc_type, ident.fiscal_year, ident.period) == (
            None,
            None,
            None,
            None,
        )

    def test_file_name_is_last_resort(self) -> None:
        """A FinanceBench-style name is used when the text says nothing, and says so."""
        ident = identify([""], file_name="ADOBE_2017_10K.pdf")
        assert (ident.company, ident.fiscal_year, ident.period) == ("Adobe", 2017, "FY2017")
        assert ident.sources["fiscal_year"] == "file name"


class TestStructuredSources:
    """dei: facts and the SGML header outrank the cover; a sidecar overrides everything."""

    DEI = {
        "EntityRegistrantName": "ADOBE INC.",
        "EntityCentralIndexKey": "0000796343",
        "DocumentType": "10-K",
        "AmendmentFlag": "false",
        "DocumentFiscalYearFocus": "2024",
        "DocumentFiscalPeriodFocus": "FY",
        "DocumentPeriodEndDate": "November 29, 2024",
        "TradingSymbol": "ADBE",
    }

    def test_dei_facts(self) -> None:
        """dei facts give CIK, form, fiscal year and period end, recorded as 'xbrl dei'."""
        ident = identify([COVER_10K], dei=self.DEI, file_name="adbe-10-k-2025-01-13")
        assert (ident.cik, ident.fiscal_year, ident.period) == ("796343", 2024, "FY2024")
        assert ident.filing_date == "2025-01-13" and ident.sources["filing_date"] == "file name"
        assert ident.sources["fiscal_year"] == "xbrl dei"

    def test_registrants_from_one_source(self) -> None:
        """dei's 'ADOBE INC.' and the cover's spelling of it are one registrant, not two."""
        cover = COVER_10K.replace("ADOBE INC.", "Adobe Inc.")
        ident = identify([cover], dei=self.DEI, file_name="a.htm")
        assert ident.registrants == ("ADOBE INC.",)

    def test_sidecar_overrides(self) -> None:
        """A sidecar row's fiscal year wins over the document's own."""
        ident = identify([COVER_10K], dei=self.DEI, sidecar={"doc_period": 2023})
        assert ident.fiscal_year == 2023 and ident.sources["fiscal_year"] == "sidecar"

    def test_sgml_header(self) -> None:
        """A full-submission header gives name, CIK, form, period and filing date."""
        header = parse_sgml_header(
            "<SEC-HEADER>\nCONFORMED SUBMISSION TYPE:\t10-K\nCONFORMED PERIOD OF REPORT:\t20171201\n"
            "FILED AS OF DATE:\t\t20180122\nCOMPANY CONFORMED NAME:\t\t\tADOBE SYSTEMS INC\n"
            "CENTRAL INDEX KEY:\t\t\t0000796343\nFISCAL YEAR END:\t\t\t1201\n</SEC-HEADER>"
        )
        ident = identify([], sgml=header, file_name="0000796343-18-000015.txt")
        assert (ident.company, ident.cik, ident.fiscal_year) == ("Adobe", "796343", 2017)
        assert (ident.period_end, ident.filing_date) == ("2017-12-01", "2018-01-22")

    def test_normalize_form(self) -> None:
        """Form names normalise to doc types with an amendment flag."""
        assert normalize_form("10-Q/A") == ("10q", True)
        assert normalize_form("8-K") == ("8k", False)
        assert normalize_form("S-1") == ("other", False)


class TestDocsCommand:
    """`finqa docs` lists indexed filings with their identity and its sources."""

    def test_docs_json_lists_identity_and_sources(  # and a non-filing HTML page
        self, tmp_path: Path, capsys: pytest.CaptureFixture[str]
    ) -> None:
        """A cover saved as annual-report.txt is listed as Adobe's FY2024 10-K, from the cover."""
        from finqa.agents.config import Settings
        from finqa.agents.retrieval.ingest import ingest_paths
        from finqa.orchestrator.cli import main
        from retrieval_support import FakeEmbedder  # type: ignore[import-not-found]

        corpus = tmp_path / "corpus"
        corpus.mkdir()
        (corpus / "annual-report.txt").write_text(COVER_10K + "\nRevenue grew.", encoding="utf-8")
        (corpus / "notes-2019.html").write_text(
            "<html><body><p>Team offsite agenda.</p><p>Lunch at noon.</p></body></html>",
            encoding="utf-8",
        )
        index = tmp_path / "idx"
        settings = Settings().with_overrides({"index.path": str(index)})
        ingest_paths([corpus], settings, embedder=FakeEmbedder(), progress=False)
        capsys.readouterr()  # the ingest's own log line
        assert main(["docs", "--index", str(index), "--json"]) == 0
        rows = {r["doc_id"]: r for r in map(json.loads, capsys.readouterr().out.splitlines())}
        adobe = rows["annual-report"]
        assert (adobe["company"], adobe["form"], adobe["period"]) == ("Adobe", "10-K", "FY2024")
        assert adobe["sources"]["company"] == "cover page"
        assert rows["notes-2019"]["identified"] is False
        assert rows["notes-2019"]["fiscal_year"] is None
        from finqa.agents.retrieval.store import open_index

        chunks = open_index(settings, create=False).page_chunks("notes-2019", 0)
        assert any("offsite agenda" in c.text for c in chunks)  # unknown, still indexed
        assert main(["docs", "--index", str(index)]) == 0
        text = capsys.readouterr().out
        assert "identity unknown" in text and "Adobe (ADBE)  10-K  FY2024" in text
