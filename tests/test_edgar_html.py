"""EDGAR HTML as filed: pages at CSS breaks, tables as cells, inline XBRL facts with their page."""

from __future__ import annotations

from pathlib import Path

from finqa.agents.config import Settings
from finqa.agents.retrieval._html import merge_cells, parse_html
from finqa.agents.retrieval.loaders import LoadedDoc, load_path
from finqa.agents.retrieval.metadata import doc_metadata
from finqa.lexicon.xbrl import concept_item, period_key

IX = (
    'xmlns="http://www.w3.org/1999/xhtml" xmlns:ix="http://www.xbrl.org/2013/inlineXBRL" '
    'xmlns:xbrli="http://www.xbrl.org/2003/instance" xmlns:xbrldi="http://xbrl.org/2006/xbrldi" '
    'xmlns:us-gaap="http://fasb.org/us-gaap/2024" xmlns:dei="http://xbrl.sec.gov/dei/2024" '
    'xmlns:iso4217="http://www.xbrl.org/2003/iso4217" xmlns:acme="http://acme.example/2024"'
)


def _ctx(cid: str, start: str | None, end: str, dim: tuple[str, str] | None = None) -> str:
    seg = (
        f'<xbrli:segment><xbrldi:explicitMember dimension="{dim[0]}">{dim[1]}'
        "</xbrldi:explicitMember></xbrli:segment>"
        if dim
        else ""
    )
    period = (
        f"<xbrli:startDate>{start}</xbrli:startDate><xbrli:endDate>{end}</xbrli:endDate>"
        if start
        else f"<xbrli:instant>{end}</xbrli:instant>"
    )
    return (
        f'<xbrli:context id="{cid}"><xbrli:entity><xbrli:identifier scheme="http://www.sec.gov/CIK">'
        f"0000796343</xbrli:identifier>{seg}</xbrli:entity><xbrli:period>{period}</xbrli:period>"
        "</xbrli:context>"
    )


def mini_ixbrl(registrants: tuple[str, ...] = ("ADOBE INC.",), doc_type: str = "10-K") -> str:
    """A three-page inline XBRL 10-K: cover, income statement, a segment note."""
    contexts = "".join(
        [
            _ctx("FY24", "2023-12-02", "2024-11-29"),
            _ctx("FY23", "2022-12-03", "2023-12-01"),
            _ctx("I24", None, "2024-11-29"),
            _ctx(
                "FY24seg",
                "2023-12-02",
                "2024-11-29",
                ("us-gaap:StatementBusinessSegmentsAxis", "acme:MediaMember"),
            ),
            _ctx(
                "SUB", "2023-12-02", "2024-11-29", ("dei:LegalEntityAxis", "acme:SubsidiaryMember")
            ),
        ]
    )
    subs = "".join(
        f'<ix:nonNumeric name="dei:EntityRegistrantName" contextRef="SUB" id="r{i}">{n}</ix:nonNumeric>'
        for i, n in enumerate(registrants[1:])
    )
    return f"""<?xml version="1.0" encoding="utf-8"?>
<html {IX}><head><title>x</title></head><body>
<div style="display:none"><ix:header><ix:hidden>
<ix:nonNumeric name="dei:DocumentFiscalYearFocus" contextRef="FY24">2024</ix:nonNumeric>
<ix:nonNumeric name="dei:DocumentFiscalPeriodFocus" contextRef="FY24">FY</ix:nonNumeric>
<ix:nonNumeric name="dei:EntityCentralIndexKey" contextRef="FY24">0000796343</ix:nonNumeric>
<ix:nonNumeric name="dei:AmendmentFlag" contextRef="FY24">{"true" if "/A" in doc_type else "false"}</ix:nonNumeric>
</ix:hidden><ix:resources>{contexts}
<xbrli:unit id="usd"><xbrli:measure>iso4217:USD</xbrli:measure></xbrli:unit>
<xbrli:unit id="usdPerShare"><xbrli:divide><xbrli:unitNumerator><xbrli:measure>iso4217:USD</xbrli:measure></xbrli:unitNumerator><xbrli:unitDenominator><xbrli:measure>xbrli:shares</xbrli:measure></xbrli:unitDenominator></xbrli:divide></xbrli:unit>
</ix:resources></ix:header></div>
<div><p>UNITED STATES SECURITIES AND EXCHANGE COMMISSION</p>
<p>FORM <ix:nonNumeric name="dei:DocumentType" contextRef="FY24">{doc_type}</ix:nonNumeric></p>
<p>For the fiscal year ended <ix:nonNumeric name="dei:DocumentPeriodEndDate" contextRef="FY24">November 29, 2024</ix:nonNumeric></p>
<p><ix:nonNumeric name="dei:EntityRegistrantName" contextRef="FY24">{registrants[0]}</ix:nonNumeric></p>{subs}
<p>(Exact name of registrant as specified in its charter)</p>
<p>Trading symbol <ix:nonNumeric name="dei:TradingSymbol" contextRef="FY24">ADBE</ix:nonNumeric></p></div>
<hr style="page-break-after:always"/>
<div><p>CONSOLIDATED STATEMENTS OF INCOME (in millions, except per share data)</p>
<table>
<tr><td></td><td>2024</td><td></td><td>2023</td></tr>
<tr><td>Total revenue</td><td>$</td><td><ix:nonFraction name="us-gaap:Revenues" contextRef="FY24" unitRef="usd" scale="6" decimals="-6" id="rev24">21,505</ix:nonFraction></td><td></td><td>$</td><td><ix:nonFraction name="us-gaap:Revenues" contextRef="FY23" unitRef="usd" scale="6" decimals="-6" id="rev23">19,409</ix:nonFraction></td></tr>
<tr><td>Other expense, net</td><td>(<ix:nonFraction name="us-gaap:OtherNonoperatingIncomeExpense" contextRef="FY24" unitRef="usd" scale="6" decimals="-6" sign="-">48</ix:nonFraction></td><td>)</td><td></td><td><ix:nonFraction name="us-gaap:OtherNonoperatingIncomeExpense" contextRef="FY23" unitRef="usd" scale="6" decimals="-6" format="ixt:fixed-zero">—</ix:nonFraction></td></tr>
<tr><td>Diluted net income per share</td><td>$</td><td><ix:nonFraction name="us-gaap:EarningsPerShareDiluted" contextRef="FY24" unitRef="usdPerShare" decimals="2">12.36</ix:nonFraction></td></tr>
</table>
<div style="text-align:center">56</div></div>
<hr style="page-break-after:always"/>
<div><p>Segment information</p>
<p>Media revenue was $<ix:nonFraction name="us-gaap:Revenues" contextRef="FY24seg" unitRef="usd" scale="6" decimals="-6">15,000</ix:nonFraction> million and
subscription revenue $<ix:nonFraction name="acme:SubscriptionRevenue" contextRef="FY24" unitRef="usd" scale="9" decimals="-7">20.52</ix:nonFraction> billion.</p>
<div>57</div></div>
</body></html>
"""


def _load(tmp_path: Path, name: str, text: str) -> LoadedDoc:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    doc = next(load_path(path))
    assert isinstance(doc, LoadedDoc), doc
    return doc


class TestHtmlPages:
    """Page breaks become pages with their printed numbers; tables keep their cells."""

    def test_css_page_breaks_make_pages_with_labels(self, tmp_path: Path) -> None:
        """Two page-break <hr>s give three pages; the printed numbers 56 and 57 are kept."""
        doc = _load(tmp_path, "adbe-20241129.htm", mini_ixbrl())
        assert [p for p, _ in doc.pages] == [0, 1, 2]
        assert doc.page_labels[1:] == ("56", "57")
        assert "CONSOLIDATED STATEMENTS OF INCOME" in doc.pages[1][1]

    def test_hidden_header_is_not_text(self, tmp_path: Path) -> None:
        """The hidden ix:header (contexts, units, hidden dei facts) is not in any page's text."""
        doc = _load(tmp_path, "a.htm", mini_ixbrl())
        text = "\n".join(t for _, t in doc.pages)
        assert "0000796343" not in text and "iso4217" not in text

    def test_table_cells_merge_currency_and_parentheses(self, tmp_path: Path) -> None:
        """'$' joins its number and ')' closes '(48': the row reads as cells, not fragments."""
        doc = _load(tmp_path, "a.htm", mini_ixbrl())
        table = doc.tables[0]
        assert table.page == 1
        assert ("Total revenue", "$21,505", "$19,409") in table.rows
        assert ("Other expense, net", "(48)", "—") in table.rows

    def test_merge_cells_keeps_percent_with_number(self) -> None:
        """A '%' cell belongs to the number before it."""
        assert merge_cells(["Growth", "", "12", "%", "(3", ")%"]) == ("Growth", "12%", "(3)%")

    def test_html_without_breaks_is_one_page(self) -> None:
        """An HTML page with no page breaks is one page."""
        parsed = parse_html(b"<html><body><p>Hello</p><p>World</p></body></html>")
        assert parsed.pages == ("Hello\nWorld",)


class TestXbrlFacts:
    """Tagged facts: value after scale and sign, period, dimensions, unit, page, line item."""

    def test_revenue_fact_with_page_and_period(self, tmp_path: Path) -> None:
        """us-gaap:Revenues 21,505 at scale 6 is $21.505 billion for FY2024, on page 1."""
        doc = _load(tmp_path, "a.htm", mini_ixbrl())
        rev = [f for f in doc.facts if f.concept == "us-gaap:Revenues" and f.is_total]
        fy24 = next(f for f in rev if f.end.isoformat() == "2024-11-29")
        assert fy24.value == 21_505_000_000 and fy24.unit == "USD" and fy24.page == 1
        assert fy24.item == "revenue" and fy24.decimals == -6
        assert period_key(fy24, 11) == "FY2024"

    def test_sign_and_zero_dash(self, tmp_path: Path) -> None:
        """sign="-" makes a negative value; the fixed-zero dash is zero."""
        doc = _load(tmp_path, "a.htm", mini_ixbrl())
        other = {
            f.end.year: f for f in doc.facts if f.concept.endswith("OtherNonoperatingIncomeExpense")
        }
        assert other[2024].value == -48_000_000 and other[2024].negative
        assert other[2023].value == 0

    def test_per_share_unit(self, tmp_path: Path) -> None:
        """EPS carries the unit USD/shares and no scale."""
        doc = _load(tmp_path, "a.htm", mini_ixbrl())
        eps = next(f for f in doc.facts if f.concept == "us-gaap:EarningsPerShareDiluted")
        assert (eps.unit, eps.value, eps.item) == ("USD/shares", 12.36, "eps_diluted")

    def test_dimensioned_fact_is_not_a_total(self, tmp_path: Path) -> None:
        """A segment's revenue has its dimension and is not the company's total."""
        doc = _load(tmp_path, "a.htm", mini_ixbrl())
        seg = [f for f in doc.facts if f.concept == "us-gaap:Revenues" and f.value == 15e9]
        assert len(seg) == 1 and not seg[0].is_total and seg[0].page == 2
        assert seg[0].dimensions == (("us-gaap:StatementBusinessSegmentsAxis", "acme:MediaMember"),)
        totals = [f.value for f in doc.facts if f.item == "revenue" and f.is_total]
        assert 15e9 not in totals

    def test_extension_concept_kept_unmapped(self, tmp_path: Path) -> None:
        """A company's own concept is kept with its value but maps to no catalogue item."""
        doc = _load(tmp_path, "a.htm", mini_ixbrl())
        ext = next(f for f in doc.facts if f.concept == "acme:SubscriptionRevenue")
        assert ext.item is None and ext.value == 20.52e9
        assert concept_item("acme:SubscriptionRevenue") is None


class TestIdentityFromHtml:
    """dei: facts name the filing whatever the file is called."""

    def test_dei_identity_of_a_neutrally_named_file(self, tmp_path: Path) -> None:
        """annual-report.htm is Adobe's FY2024 10-K, CIK 796343, from its dei facts."""
        doc = _load(tmp_path, "annual-report.htm", mini_ixbrl())
        meta = doc_metadata(doc.doc_id, pages=[t for _, t in doc.pages], dei=doc.dei)
        assert (meta["company"], meta["cik"], meta["period"]) == ("Adobe", "796343", "FY2024")
        assert meta["sources"]["fiscal_year"] == "xbrl dei"

    def test_amendment_from_dei(self, tmp_path: Path) -> None:
        """A 10-K/A is an amended 10-K."""
        doc = _load(tmp_path, "a.htm", mini_ixbrl(doc_type="10-K/A"))
        meta = doc_metadata(doc.doc_id, dei=doc.dei)
        assert (meta["doc_type"], meta["amendment"], meta["form"]) == ("10k", True, "10-K/A")

    def test_combined_filing_two_registrants(self, tmp_path: Path) -> None:
        """A parent and a subsidiary tagged on one cover are both registrants; the parent first."""
        doc = _load(tmp_path, "a.htm", mini_ixbrl(("ADOBE INC.", "ADOBE SUBSIDIARY LLC")))
        meta = doc_metadata(doc.doc_id, dei=doc.dei)
        assert meta["registrants"] == ["ADOBE INC.", "ADOBE SUBSIDIARY LLC"]
        assert meta["company"] == "Adobe"


SUBMISSION = """<SEC-DOCUMENT>0000796343-18-000015.txt : 20180122
<SEC-HEADER>0000796343-18-000015.hdr.sgml : 20180122
CONFORMED SUBMISSION TYPE:\t10-K
CONFORMED PERIOD OF REPORT:\t20171201
FILED AS OF DATE:\t\t20180122
FILER:
\tCOMPANY DATA:
\t\tCOMPANY CONFORMED NAME:\t\t\tADOBE SYSTEMS INC
\t\tCENTRAL INDEX KEY:\t\t\t0000796343
\t\tFISCAL YEAR END:\t\t\t1201
</SEC-HEADER>
<DOCUMENT>
<TYPE>10-K
<SEQUENCE>1
<FILENAME>adbe10kfy17.htm
<TEXT>
<html><body><p>Annual report body. Revenue was $7,302 million.</p></body></html>
</TEXT>
</DOCUMENT>
<DOCUMENT>
<TYPE>EX-21
<SEQUENCE>2
<FILENAME>ex21.txt
<TEXT>
Subsidiaries of the registrant: Adobe Systems Software Ireland Limited
</TEXT>
</DOCUMENT>
<DOCUMENT>
<TYPE>GRAPHIC
<SEQUENCE>3
<TEXT>
begin 644 logo.jpg
</TEXT>
</DOCUMENT>
</SEC-DOCUMENT>
"""


class TestFullSubmission:
    """An EDGAR full-submission .txt gives its documents separately, with the header's identity."""

    def test_primary_and_exhibit_documents(self, tmp_path: Path) -> None:
        """The 10-K and its EX-21 are two documents; the graphic is not text."""
        path = tmp_path / "0000796343-18-000015.txt"
        path.write_text(SUBMISSION, encoding="utf-8")
        docs = [d for d in load_path(path) if isinstance(d, LoadedDoc)]
        assert [d.doc_id for d in docs] == [
            "0000796343-18-000015",
            "0000796343-18-000015__EX-21",
        ]
        assert docs[1].extra["sgml_type"] == "EX-21" and "Ireland" in docs[1].pages[0][1]
        meta = doc_metadata(docs[0].doc_id, pages=[t for _, t in docs[0].pages], sgml=docs[0].sgml)
        assert (meta["company"], meta["fiscal_year"], meta["filing_date"]) == (
            "Adobe",
            2017,
            "2018-01-22",
        )
        assert meta["sources"]["company"] == "sgml header"


class TestConceptMap:
    """The catalogue maps us-gaap concepts only to its own line items, each concept once."""

    def test_every_mapped_item_is_in_the_catalogue(self) -> None:
        """Each concept's item is a key of the catalogue, with the item's period type."""
        from finqa.lexicon import METRICS
        from finqa.lexicon.catalogue import concept_rows

        rows = concept_rows()
        assert rows and all(r.item in METRICS for r in rows)
        assert all(r.concept.startswith("us-gaap:") for r in rows)
        assert len({r.concept for r in rows}) == len(rows)
        assert all(r.period_type == METRICS[r.item].period_type for r in rows)


class TestStatementModel:
    """Tagged facts go into the statement model with their tag, page and period."""

    def test_lookup_returns_the_total_not_the_segment(self, tmp_path: Path) -> None:
        """lookup(revenue, FY2024) gives the tagged total 21,505 with its page; the segment's
        revenue keeps its item and dimension, apart in the 'segment' table."""
        from finqa.lexicon.statements import MemoryStatementStore
        from finqa.lexicon.xbrl import statement_tables

        doc = _load(tmp_path, "a.htm", mini_ixbrl())
        store = MemoryStatementStore(statement_tables("a", doc.facts, 11))
        found = store.lookup("a", "revenue", "FY2024")
        assert [(f.value, f.page, f.source, f.concept) for f in found] == [
            (21_505_000_000, 1, "xbrl", "us-gaap:Revenues")
        ]
        assert found[0].scale == 1e6 and found[0].decimals == -6
        seg = store.tables("a", "segment")[0].facts
        assert seg[0].item == "revenue" and seg[0].dimensions and seg[0].value == 15e9

    def test_extension_and_instant_periods(self, tmp_path: Path) -> None:
        """A company concept lands in 'other' unmapped; FY2023 revenue keys as FY2023."""
        from finqa.lexicon.statements import MemoryStatementStore
        from finqa.lexicon.xbrl import statement_tables

        doc = _load(tmp_path, "a.htm", mini_ixbrl())
        store = MemoryStatementStore(statement_tables("a", doc.facts, 11))
        other = store.tables("a", "other")[0].facts
        assert any(f.concept == "acme:SubscriptionRevenue" and f.item is None for f in other)
        assert store.lookup("a", "revenue", "FY2023")[0].value == 19_409_000_000


def _ingest_mini(tmp_path: Path) -> Settings:
    """Ingest `mini_ixbrl()` as annual-report.htm into tmp_path/idx (fake embedder); its settings."""
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parent / "fixtures" / "retrieval"))
    from finqa.agents.retrieval.ingest import ingest_paths
    from retrieval_support import FakeEmbedder  # type: ignore[import-not-found]

    corpus = tmp_path / "corpus"
    corpus.mkdir()
    (corpus / "annual-report.htm").write_text(mini_ixbrl(), encoding="utf-8")
    settings = Settings().with_overrides({"index.path": str(tmp_path / "idx")})
    ingest_paths([corpus], settings, embedder=FakeEmbedder(), progress=False)
    return settings


class TestStoredWithIndex:
    """Ingest stores the tagged facts in the index's statement model."""

    def test_ingest_stores_xbrl_facts(self, tmp_path: Path) -> None:
        """After ingest, the index's store answers revenue FY2024 from the tag, with its page."""
        from finqa.lexicon.statements import IndexStatementStore

        _ingest_mini(tmp_path)
        store = IndexStatementStore(tmp_path / "idx")
        tagged = [
            f for f in store.lookup("annual-report", "revenue", "FY2024") if f.source == "xbrl"
        ]
        assert [(f.value, f.page, f.concept) for f in tagged] == [
            (21_505_000_000, 1, "us-gaap:Revenues")
        ]
        seg = [f for t in store.tables("annual-report", "segment") for f in t.facts]
        # the segment's tagged revenue is stored as revenue with its dimension (not a total)
        assert seg and all(f.dimensions for f in seg)
        assert {f.item for f in seg if f.concept == "us-gaap:Revenues"} == {"revenue"}


class TestPrintedPageLabels:
    """The printed page numbers read at ingest are what answers cite."""

    def test_retriever_knows_the_printed_page(self, tmp_path: Path) -> None:
        """After ingest, the retriever maps a 0-based page to its printed number (56), else None."""
        from finqa.agents.retrieval import RetrievalAgent
        from retrieval_support import FakeEmbedder  # type: ignore[import-not-found]

        settings = _ingest_mini(tmp_path)
        agent = RetrievalAgent(settings, embedder=FakeEmbedder())
        assert agent.page_label("annual-report", 1) == "56"
        assert agent.page_label("annual-report", 0) is None
        assert agent.page_label("no-such-filing", 1) is None


class TestRebuildKeepsTags:
    """`finqa statements --build` rebuilds a filing's model with its tags and its table cells."""

    def test_forced_rebuild_keeps_xbrl_facts(self, tmp_path: Path) -> None:
        """After a forced rebuild the index's store still answers revenue FY2024 from the tag."""
        import sys

        sys.path.insert(0, str(Path(__file__).resolve().parent / "fixtures" / "retrieval"))
        from finqa.agents.config import Settings
        from finqa.agents.retrieval.ingest import ingest_paths
        from finqa.lexicon.statements import IndexStatementStore
        from finqa.orchestrator.statements import build_models
        from retrieval_support import FakeEmbedder  # type: ignore[import-not-found]

        corpus = tmp_path / "corpus"
        corpus.mkdir()
        (corpus / "annual-report.htm").write_text(mini_ixbrl(), encoding="utf-8")
        settings = Settings().with_overrides({"index.path": str(tmp_path / "idx")})
        ingest_paths([corpus], settings, embedder=FakeEmbedder(), progress=False)
        report = build_models(tmp_path / "idx", ["annual-report"], force=True)
        assert report.built == ["annual-report"]
        found = IndexStatementStore(tmp_path / "idx").lookup("annual-report", "revenue", "FY2024")
        assert found and found[0].source == "xbrl" and found[0].value == 21_505_000_000


class TestSharedEdgarFiling:
    """A real EDGAR inline-XBRL filing from ../shared/edgar loads with its tags and pages."""

    def test_coca_cola_10q_tags(self, edgar_dir: Path) -> None:
        """Coca-Cola's 10-Q: printed page labels, dei cover facts and hundreds of numeric facts."""
        doc = next(load_path(edgar_dir / "ko-10-q-2025-07-24.html"))
        assert isinstance(doc, LoadedDoc), doc
        assert doc.dei.get("DocumentType") == "10-Q"
        assert "coca" in doc.dei.get("EntityRegistrantName", "").lower()
        assert len(doc.facts) > 300 and len(doc.pages) > 20
        revenue = [f for f in doc.facts if f.concept.endswith("Revenues") and not f.dimensions]
        assert revenue and all(f.value > 0 for f in revenue)
