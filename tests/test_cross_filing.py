"""Questions across filings: planned into legs, each answered and judged alone, then combined."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from finqa.agents.config import Settings
from finqa.lexicon.legs import plan_legs, with_latest_years
from finqa.orchestrator.policy import UNVERIFIED_LEAD

ADOBE = """ADOBE INC.
ANNUAL REPORT ON FORM 10-K FOR THE FISCAL YEAR ENDED NOVEMBER 29, 2024

CONSOLIDATED STATEMENTS OF INCOME
(In millions)
Years ended November 29, 2024 December 1, 2023
Total revenue 21,505 19,409
Operating income 6,741 6,650
Net income 5,560 5,428
"""

NETFLIX = """NETFLIX, INC.
ANNUAL REPORT ON FORM 10-K FOR THE FISCAL YEAR ENDED DECEMBER 31, 2024

CONSOLIDATED STATEMENTS OF OPERATIONS
(In millions)
Year ended December 31, 2024 2023
Revenues 39,001 33,723
Operating income 10,418 6,954
Net income 8,712 5,408
"""


class TestPlanLegs:
    """The lexicon splits a question into one leg per company, metric and fiscal year."""

    def test_two_peers_one_year(self) -> None:
        """Two companies named: one leg each, combined by the higher."""
        plan = plan_legs("Which had the higher revenue in fiscal 2024, Adobe or Netflix?")
        assert plan is not None and (plan.kind, plan.combine) == ("peers", "higher")
        assert [(leg.company, leg.metric, leg.fiscal_year) for leg in plan.legs] == [
            ("Adobe", "revenue", 2024),
            ("Netflix", "revenue", 2024),
        ]
        assert plan.legs[0].question == "What was Adobe's revenue in FY2024?"

    def test_difference_and_lower(self) -> None:
        """'Difference between' and 'lower' name their combination."""
        diff = plan_legs(
            "What was the difference between Netflix's and Adobe's net income in FY2024?"
        )
        low = plan_legs("Which had the lower operating income in FY2024, Adobe or Netflix?")
        assert diff is not None and diff.combine == "difference"
        assert low is not None and low.combine == "lower"

    def test_one_filing_questions_are_not_split(self) -> None:
        """One company over at most two adjacent years stays a single-filing question."""
        assert plan_legs("What was Adobe's revenue in FY2024?") is None
        assert plan_legs("How did Adobe's revenue change from FY2023 to FY2024?") is None
        assert plan_legs("Which had the higher revenue, FY2023 or FY2024?") is None  # no company

    def test_trend_over_years(self) -> None:
        """One company over three fiscal years: one leg a year, a CAGR when asked."""
        plan = plan_legs("What was Adobe's revenue CAGR from FY2022 to FY2024?")
        assert plan is not None and (plan.kind, plan.combine) == ("trend", "cagr")
        assert [leg.fiscal_year for leg in plan.legs] == [2022, 2023, 2024]

    def test_last_n_years_from_the_store(self) -> None:
        """'Over the last three fiscal years' gets its years from the latest one stored."""
        plan = plan_legs("How has Adobe's operating margin moved over the last three fiscal years?")
        assert plan is not None and plan.last_n == 3 and not plan.legs
        dated = with_latest_years(plan, 2024)
        assert [leg.fiscal_year for leg in dated.legs] == [2022, 2023, 2024]

    def test_fourth_quarter_is_stitched(self) -> None:
        """A fourth quarter is the fiscal year less its first nine months; a balance is not."""
        plan = plan_legs("What was Adobe's revenue in the fourth quarter of fiscal 2024?")
        assert plan is not None and (plan.kind, plan.combine) == ("stitched", "stitch")
        assert [(leg.fiscal_year, leg.months) for leg in plan.legs] == [(2024, None), (2024, 9)]
        assert plan.legs[1].question == (
            "What was Adobe's revenue in the first nine months of FY2024?"
        )
        half = plan_legs("What was Adobe's net income in the second half of fiscal 2024?")
        assert half is not None and half.legs[1].months == 6
        assert (
            plan_legs("What were Adobe's total assets in the fourth quarter of fiscal 2024?")
            is None
        )

    def test_three_companies_two_metrics(self) -> None:
        """Three companies and two metrics: six legs, one per company and metric."""
        plan = plan_legs(
            "Compare the revenue and net income of Adobe, Netflix and Boeing in fiscal 2024."
        )
        assert plan is not None and len(plan.legs) == 6
        assert set(plan.metrics) == {"revenue", "net_income"}
        assert {leg.company for leg in plan.legs} == {"Adobe", "Netflix", "Boeing"}


@pytest.fixture
def peers(tmp_path: Path) -> Settings:
    """An index of two small 10-K texts (Adobe, Netflix), BM25 only."""
    from finqa.agents.retrieval.ingest import ingest_paths

    corpus = tmp_path / "corpus"
    corpus.mkdir()
    (corpus / "ADOBE_2024_10K.txt").write_text(ADOBE, encoding="utf-8")
    (corpus / "NETFLIX_2024_10K.txt").write_text(NETFLIX, encoding="utf-8")
    settings = Settings().with_overrides(
        {"index.path": str(tmp_path / "idx"), "index.dense": "none"}
    )
    ingest_paths([corpus], settings, progress=False)
    return settings


class TestAcrossFilings:
    """The product answers a peer question leg by leg and records each leg."""

    def test_higher_of_two_peers(self, peers: Settings) -> None:
        """Each leg is accepted from its own filing; the answer names the higher and both figures."""
        from finqa.orchestrator.api import FinQA

        with FinQA.open(config=peers) as fq:
            result = fq.ask("Which had the higher revenue in fiscal 2024, Adobe or Netflix?")
        assert result.status == "accepted"
        assert [(leg.company, leg.value, leg.status) for leg in result.legs] == [
            ("Adobe", 21_505e6, "accepted"),
            ("Netflix", 39_001e6, "accepted"),
        ]
        assert "Netflix had the higher revenue" in result.answer
        assert "Fiscal years end on different dates" in result.answer  # Nov 29 vs Dec 31
        assert {c.doc_id for c in result.legs[0].citations} == {"ADOBE_2024_10K"}
        assert {c.doc_id for c in result.legs[1].citations} == {"NETFLIX_2024_10K"}
        calc = result.calculations[0]
        assert calc.result == pytest.approx(39_001e6)
        data = result.to_json_dict()
        assert [leg["label"] for leg in data["legs"]] == [
            "Adobe revenue FY2024",
            "Netflix revenue FY2024",
        ]
        assert "legs:" in str(result)

    def test_each_leg_is_its_own_group_in_the_audit_log(self, peers: Settings) -> None:
        """The chain holds each leg's question, judge and final records, then the combination."""
        from finqa.orchestrator.api import FinQA

        with FinQA.open(config=peers) as fq:
            result = fq.ask(
                "What was the difference between Netflix's and Adobe's net income in FY2024?",
                question_id="peer-diff",
            )
            log = Path(fq.audit_path)
        records = [json.loads(line) for line in log.read_text().splitlines()]
        by_q: dict[str, set[str]] = {}
        for r in records:
            by_q.setdefault(r["question_id"], set()).add(r["event"])
        assert {"question_start", "judge", "final"} <= by_q["peer-diff/leg1"]
        assert {"question_start", "judge", "final"} <= by_q["peer-diff/leg2"]
        assert {"question_start", "decision", "final"} <= by_q["peer-diff"]
        assert result.calculations[0].result == pytest.approx(8_712e6 - 5_560e6)

    def test_a_peer_not_in_the_store(self, peers: Settings) -> None:
        """A peer with no filing: its leg abstains, the answer says which, nothing is accepted."""
        from finqa.orchestrator.api import FinQA

        with FinQA.open(config=peers) as fq:
            result = fq.ask("Which had the higher revenue in fiscal 2024, Adobe or Boeing?")
        assert result.status == "abstained" and result.answer.startswith(UNVERIFIED_LEAD)
        boeing = [leg for leg in result.legs if leg.company == "Boeing"]
        assert boeing and boeing[0].value is None and boeing[0].status == "abstained"
        assert "no figure found for Boeing revenue FY2024" in result.answer
        assert "$21,505 million" in result.answer  # the leg that was found is still shown

    def test_a_rate_moves_in_percentage_points(self, peers: Settings) -> None:
        """The difference of two margins is in percentage points, not a percent change."""
        from finqa.orchestrator.api import FinQA

        with FinQA.open(config=peers) as fq:
            result = fq.ask(
                "What was the difference between Adobe's and Netflix's operating margin in FY2024?"
            )
        margins = [leg.value for leg in result.legs]
        assert margins == pytest.approx([6741 / 21505 * 100, 10418 / 39001 * 100], rel=1e-3)
        assert result.calculations[0].result == pytest.approx(
            6741 / 21505 * 100 - 10418 / 39001 * 100, rel=1e-3
        )

    def test_a_missing_year_to_date_column(self, peers: Settings) -> None:
        """No 10-Q gives the first nine months: the fourth quarter is not derived or accepted."""
        from finqa.orchestrator.api import FinQA

        with FinQA.open(config=peers) as fq:
            result = fq.ask("What was Adobe's revenue in the fourth quarter of fiscal 2024?")
        assert result.status != "accepted" and not result.calculations
        assert [leg.value for leg in result.legs] == [21_505e6, None]
        assert "no figure found for Adobe revenue first nine months of FY2024" in result.answer

    def test_a_pinned_company_is_one_filing(self, peers: Settings) -> None:
        """A question scoped with a company is answered as one filing's question (no legs)."""
        from finqa.orchestrator.api import FinQA

        with FinQA.open(config=peers) as fq:
            result = fq.ask(
                "Which had the higher revenue in fiscal 2024, Adobe or Netflix?", company="Adobe"
            )
        assert result.legs == ()


class TestCrossFilingBench:
    """The cross-filing benchmark's questions come from the filings' own tags."""

    def test_questions_from_the_edgar_tags(self, edgar_dir: Path) -> None:
        """Peers share a fiscal year; golds are the tags' higher, difference, CAGR, stitched, TTM."""
        from finqa.benchmarks.xbrl import filings_in
        from finqa.benchmarks.xbrl_cross import cross_questions

        qs = {q.qid: q for q in cross_questions(filings_in(edgar_dir))}
        kinds = {q.kind for q in qs.values()}
        assert kinds == {"higher", "difference", "cagr", "stitched", "ttm"}
        assert not any("10-q" in q.filing for q in qs.values() if q.kind not in ("stitched", "ttm"))
        # AbbVie's tagged net revenues: $58,054 million (2022), $56,334 million (2024)
        abbv = qs["abbv-10-k-2025-02-14-revenue-cagr"]
        assert abbv.value == pytest.approx(((56_334 / 58_054) ** 0.5 - 1) * 100, abs=0.01)
        # Coca-Cola's second half of 2024: the 10-K's year less the 2025 10-Q's 2024 comparative
        ko = qs["ko-10-q-2025-07-24-revenue-second_half-fy2024"]
        assert ko.value == pytest.approx(47_061 - 23_663)
        # Coca-Cola's TTM to its Q2 2025 10-Q: FY2024 + first half 2025 ($23,664m) - first half
        # 2024 (the 10-Q's comparative); only companies with a 10-K and a 10-Q get one
        ttm = qs["ko-10-q-2025-07-24-revenue-ttm"]
        assert ttm.value == pytest.approx(47_061 + 23_664 - 23_663)
        assert "trailing-twelve-month revenue as of its latest 10-Q" in ttm.question
        assert {q.filing.split("+")[1][:4] for q in qs.values() if q.kind == "ttm"} == {
            "ko-1",
            "nflx",
            "unp-",
        }
        for q in qs.values():
            if q.kind == "higher":
                a, b = q.question.split(", ")[-1].rstrip("?").split(" or ")
                assert q.answer in (a, b)


def _cover(form: str, period: str, name: str) -> str:
    """An SEC cover page, then a page of prose: a filing as `lexicon.identity` reads one."""
    kind, when = ("QUARTERLY", "quarterly period") if form == "10-Q" else ("ANNUAL", "fiscal year")
    return (
        "UNITED STATES\nSECURITIES AND EXCHANGE COMMISSION\nWashington, D.C. 20549\n"
        f"FORM {form}\n{kind} REPORT PURSUANT TO SECTION 13 OR 15(d) OF THE SECURITIES "
        f"EXCHANGE ACT OF 1934\nFor the {when} ended {period}\n{name}\n"
        "(Exact name of registrant as specified in its charter)\n\f"
        "PART I. ITEM 1. BUSINESS\nThe company designs and sells products and services to "
        "customers around the world through direct and indirect channels.\n\f"
    )


def _filed(name: str) -> str:
    """The Adobe or Netflix FY2024 10-K fixture under its SEC cover."""
    if name == "ADOBE":
        return _cover("10-K", "November 29, 2024", "ADOBE INC.") + _body(ADOBE)
    return _cover("10-K", "December 31, 2024", "NETFLIX, INC.") + _body(NETFLIX)


def _operations(registrant: str, end: str, years: str, rows: str) -> str:
    """A 10-K of one statement of operations (in millions) under its SEC cover."""
    return _cover("10-K", end, registrant) + (
        f"CONSOLIDATED STATEMENTS OF OPERATIONS\n(In millions)\n{years}\n{rows}\n"
    )


def _body(text: str) -> str:
    """A 10-K fixture without its one-line title (the cover replaces it)."""
    return text.split("\n", 2)[2]


ADOBE_10Q = """CONDENSED CONSOLIDATED STATEMENTS OF INCOME
(In millions)
Three Months Ended Six Months Ended
May 30, 2025 May 31, 2024 May 30, 2025 May 31, 2024
Total revenue 5,873 5,309 11,587 10,491
Operating income 2,136 1,932 4,218 3,810
Net income 1,691 1,573 3,502 3,193

CONDENSED CONSOLIDATED BALANCE SHEETS
(In millions)
May 30, 2025 November 29, 2024
Total assets 28,754 30,230
"""

# a third-quarter 10-Q that prints its quarter only: no nine-month column
ADOBE_Q3_THREE_MONTHS_ONLY = """CONDENSED CONSOLIDATED STATEMENTS OF INCOME
(In millions)
Three Months Ended
August 30, 2024 September 1, 2023
Total revenue 5,408 4,890
Operating income 1,921 1,651
"""

ADOBE_2023 = """CONSOLIDATED STATEMENTS OF INCOME
(In millions)
Years ended December 1, 2023 December 2, 2022
Total revenue 19,409 17,606
Operating income 6,650 6,098
"""


def _index(tmp_path: Path, files: dict[str, str], sidecar: str | None = None) -> Settings:
    from finqa.agents.retrieval.ingest import ingest_paths

    corpus = tmp_path / "corpus"
    corpus.mkdir()
    for name, text in files.items():
        (corpus / name).write_text(text, encoding="utf-8")
    meta = None
    if sidecar is not None:
        meta = tmp_path / "meta.csv"
        meta.write_text(sidecar, encoding="utf-8")
    settings = Settings().with_overrides(
        {"index.path": str(tmp_path / "idx"), "index.dense": "none"}
    )
    ingest_paths([corpus], settings, metadata_file=meta, progress=False)
    return settings


@pytest.fixture
def quarters(tmp_path: Path) -> Settings:
    """Adobe's FY2024 10-K and its Q2 FY2025 10-Q (six months and their comparative)."""
    return _index(
        tmp_path,
        {
            "ADOBE_2024_10K.txt": _cover("10-K", "November 29, 2024", "ADOBE INC.") + _body(ADOBE),
            "ADOBE_2025Q2_10Q.txt": _cover("10-Q", "May 30, 2025", "ADOBE INC.") + ADOBE_10Q,
            "NETFLIX_2024_10K.txt": _cover("10-K", "December 31, 2024", "NETFLIX, INC.")
            + _body(NETFLIX),
        },
    )


def _records(path: str) -> list[dict[str, object]]:
    return [json.loads(line) for line in Path(path).read_text().splitlines()]


class TestTrailingTwelveMonths:
    """TTM: the prior 10-K year + the latest 10-Q's year-to-date − its prior-year comparative."""

    def test_plan_resolved_from_the_latest_quarter(self) -> None:
        """A TTM flow is three legs once the latest 10-Q is known; a balance is one, at its date."""
        from finqa.lexicon.legs import with_latest_quarter

        plan = plan_legs("What was Adobe's trailing-twelve-month revenue as of its latest 10-Q?")
        assert plan is not None and (plan.kind, plan.combine, plan.legs) == ("ttm", "ttm", ())
        dated = with_latest_quarter(plan, 2025, 2, "2025-05-30")
        assert [(leg.fiscal_year, leg.months) for leg in dated.legs] == [
            (2024, None),
            (2025, 6),
            (2024, 6),
        ]
        assert dated.legs[2].question == "What was Adobe's revenue in the first half of FY2024?"
        ttm = plan_legs("Netflix TTM operating income")
        assert ttm is not None and ttm.combine == "ttm"
        ltm = plan_legs("What was Adobe's LTM cash from operations?")
        assert ltm is not None and ltm.metrics == ("cfo",)
        assets = plan_legs("What were Adobe's trailing twelve months total assets?")
        assert assets is not None and assets.combine == "balance"
        one = with_latest_quarter(assets, 2025, 2, "2025-05-30")
        assert [(leg.months, leg.as_of) for leg in one.legs] == [(0, "2025-05-30")]
        assert one.legs[0].question == "What was Adobe's total assets as of May 30, 2025?"
        assert plan_legs("What was the TTM revenue of Adobe and Netflix?") is None

    def test_ttm_of_a_flow(self, quarters: Settings) -> None:
        """Each leg from its own filing, the combination derived, re-checked by the judge."""
        from finqa.orchestrator.api import FinQA

        with FinQA.open(config=quarters) as fq:
            result = fq.ask(
                "What was Adobe's trailing-twelve-month revenue as of its latest 10-Q?",
                question_id="ttm",
            )
            log = fq.audit_path
        assert result.status == "accepted"
        assert [(leg.value, leg.doc_id) for leg in result.legs] == [
            (21_505e6, "ADOBE_2024_10K"),
            (11_587e6, "ADOBE_2025Q2_10Q"),
            (10_491e6, "ADOBE_2025Q2_10Q"),
        ]
        assert result.calculations[0].result == pytest.approx((21_505 + 11_587 - 10_491) * 1e6)
        assert "derived" in result.calculations[0].description
        assert "$22,601 million" in result.answer and "derived" in result.answer
        assert result.legs[2].figure_end == "2024-05-31"  # the comparative column's own end
        recs = [r for r in _records(log) if r["question_id"] == "ttm"]
        combined = next(r for r in recs if r["event"] == "decision")
        assert combined["data"]["derived"] is True
        judge = next(r for r in recs if r["event"] == "judge")
        assert judge["decision"] == "accept"
        assert judge["data"]["combination_checks"][0]["recomputed"] == pytest.approx(22_601e6)

    def test_ttm_of_a_balance_is_its_latest_figure(self, quarters: Settings) -> None:
        """A balance asked TTM is the balance at the 10-Q's date, and the answer says so."""
        from finqa.orchestrator.api import FinQA

        with FinQA.open(config=quarters) as fq:
            result = fq.ask("What were Adobe's TTM total assets?")
        assert result.status == "accepted"
        assert [leg.value for leg in result.legs] == [28_754e6]
        assert "a balance has no trailing twelve months" in result.answer
        assert "2025-05-30" in result.answer

    def test_ttm_without_a_10q(self, quarters: Settings) -> None:
        """No 10-Q of the company: nothing to end twelve months at, said so, not answered."""
        from finqa.orchestrator.api import FinQA

        with FinQA.open(config=quarters) as fq:
            result = fq.ask("What was Netflix's trailing-twelve-month revenue?")
        assert result.status == "abstained" and not result.calculations
        assert "no 10-Q of Netflix in the store" in result.answer


class TestRestatedComparative:
    """A later filing's comparative differs from the original: the latest is used, both noted."""

    def _settings(self, tmp_path: Path, restated: str) -> Settings:
        later = _body(ADOBE).replace(
            "Total revenue 21,505 19,409", f"Total revenue 21,505 {restated}"
        )
        return _index(
            tmp_path,
            {
                "ADOBE_2023_10K.txt": _cover("10-K", "December 1, 2023", "ADOBE INC.") + ADOBE_2023,
                "ADOBE_2024_10K.txt": _cover("10-K", "November 29, 2024", "ADOBE INC.") + later,
            },
        )

    def test_the_latest_figure_is_used_and_both_are_noted(self, tmp_path: Path) -> None:
        """FY2023 revenue restated in the FY2024 10-K: the leg uses it; answer and log show both."""
        from finqa.orchestrator.api import FinQA

        with FinQA.open(config=self._settings(tmp_path, "19,600")) as fq:
            result = fq.ask(
                "What was Adobe's revenue CAGR from FY2022 to FY2024?", question_id="restated"
            )
            log = fq.audit_path
        fy2023 = next(leg for leg in result.legs if leg.fiscal_year == 2023)
        assert fy2023.value == 19_600e6 and fy2023.doc_id == "ADOBE_2024_10K"
        r = fy2023.restatement
        assert r is not None
        assert (r.original_doc, r.original_value) == ("ADOBE_2023_10K", 19_409e6)
        assert (r.latest_doc, r.latest_value) == ("ADOBE_2024_10K", 19_600e6)
        assert (
            "Restated: Adobe revenue FY2023 is $19,600 million in ADOBE_2024_10K" in result.answer
        )
        assert "$19,409 million in ADOBE_2023_10K" in result.answer
        combined = next(
            rec for rec in _records(log)
            if rec["question_id"] == "restated" and rec["event"] == "decision"
        )  # fmt: skip
        legs = combined["data"]["legs"]
        noted = next(leg for leg in legs if leg["fiscal_year"] == 2023)["restatement"]
        assert noted["original_doc"] == "ADOBE_2023_10K" and noted["latest_value"] == 19_600e6
        assert result.calculations[0].result == pytest.approx(((21_505 / 17_606) ** 0.5 - 1) * 100)

    def test_the_same_figure_is_no_restatement(self, tmp_path: Path) -> None:
        """Both filings print the same figure: nothing is noted."""
        from finqa.orchestrator.api import FinQA

        with FinQA.open(config=self._settings(tmp_path, "19,409")) as fq:
            result = fq.ask("What was Adobe's revenue CAGR from FY2022 to FY2024?")
        assert all(leg.restatement is None for leg in result.legs)
        assert "Restated" not in result.answer


class TestWeeksYears:
    """A fiscal year of 52 or 53 weeks is noted where the filing's statement header says so."""

    def test_weeks_noted(self, tmp_path: Path) -> None:
        """Peers one of which files 53-week years: the answer says so; the other says nothing."""
        from finqa.orchestrator.api import FinQA

        weeks = _operations(
            "NIKE, INC.", "May 31, 2024",
            "53 Weeks Ended 52 Weeks Ended\nJune 1, 2024 May 27, 2023", "Revenues 51,362 51,217",
        )  # fmt: skip
        settings = _index(
            tmp_path, {"NIKE_2024_10K.txt": weeks, "ADOBE_2024_10K.txt": _filed("ADOBE")}
        )
        with FinQA.open(config=settings) as fq:
            result = fq.ask("Which had the higher revenue in fiscal 2024, Adobe or Nike?")
        nike = next(leg for leg in result.legs if leg.company == "Nike")
        assert nike.value == 51_362e6 and nike.weeks == 53
        assert "Fiscal years as filed: Nike FY2024: 53 weeks." in result.answer
        assert "Adobe FY2024" not in result.answer.split("Fiscal years as filed:")[1]


class TestBadInput:
    """Inputs across filings that must not be answered as if they were fine."""

    def test_a_ticker_of_another_registrant_in_another_year(self, tmp_path: Path) -> None:
        """Another registrant filed under Adobe's ticker in 2019: Adobe's leg never reads it."""
        from finqa.orchestrator.api import FinQA

        acme = _operations(
            "ACME HOLDINGS CORP.", "December 31, 2019", "Year ended December 31, 2019 2018",
            "Revenues 999 888",
        )  # fmt: skip
        settings = _index(
            tmp_path,
            {
                "ACME_2019_10K.txt": acme,
                "ADOBE_2024_10K.txt": _filed("ADOBE"),
                "NETFLIX_2024_10K.txt": _filed("NETFLIX"),
            },
            sidecar="doc_id,company,ticker\nACME_2019_10K,Acme Holdings Corp.,ADBE\n",
        )
        with FinQA.open(config=settings) as fq:
            meta = fq.orchestrator.retriever.index.catalog()["ACME_2019_10K"].meta
            assert meta["ticker"] == "ADBE"  # the same ticker, another registrant
            old = fq.ask("Which had the higher revenue in fiscal 2019, Adobe or Netflix?")
            new = fq.ask("Which had the higher revenue in fiscal 2024, Adobe or Netflix?")
        adobe = old.legs[0]
        assert adobe.company == "Adobe" and adobe.value is None and old.status != "accepted"
        assert "no filing of Adobe reports its period" in old.answer
        assert not any(c.doc_id == "ACME_2019_10K" for c in old.citations)
        assert new.status == "accepted" and new.legs[0].value == 21_505e6
        assert {c.doc_id for c in new.legs[0].citations} == {"ADOBE_2024_10K"}

    def test_a_10q_without_its_nine_month_column(self, tmp_path: Path) -> None:
        """A third-quarter 10-Q printing only its quarter: the stitched leg abstains, named, why."""
        from finqa.orchestrator.api import FinQA

        settings = _index(
            tmp_path,
            {
                "ADOBE_2024_10K.txt": _filed("ADOBE"),
                "ADOBE_2024Q3_10Q.txt": _cover("10-Q", "August 30, 2024", "ADOBE INC.")
                + ADOBE_Q3_THREE_MONTHS_ONLY,
            },
        )
        with FinQA.open(config=settings) as fq:
            result = fq.ask("What was Adobe's revenue in the fourth quarter of fiscal 2024?")
        assert result.status != "accepted" and not result.calculations
        full, ytd = result.legs
        assert full.value == 21_505e6 and ytd.value is None and ytd.months == 9
        assert ytd.reason  # the leg's own reason is kept
        assert "no figure found for Adobe revenue first nine months of FY2024 (" in result.answer

    def test_a_peer_whose_fiscal_year_is_not_in_the_store(self, tmp_path: Path) -> None:
        """The peer's only filing is of another year: its leg abstains saying what is held."""
        from finqa.orchestrator.api import FinQA

        boeing = _operations(
            "THE BOEING COMPANY", "December 31, 2020", "Years ended December 31, 2020 2019",
            "Total revenues 58,158 76,559",
        )  # fmt: skip
        settings = _index(
            tmp_path,
            {
                "BOEING_2020_10K.txt": boeing,
                "ADOBE_2024_10K.txt": _filed("ADOBE"),
            },
        )
        with FinQA.open(config=settings) as fq:
            result = fq.ask("Which had the higher revenue in fiscal 2024, Adobe or Boeing?")
        assert result.status == "abstained" and not result.calculations
        boeing_leg = next(leg for leg in result.legs if leg.company == "Boeing")
        assert boeing_leg.value is None and boeing_leg.status == "abstained"
        assert "no figure found for Boeing revenue FY2024" in result.answer
        assert "the store holds 10-K FY2020" in result.answer
        assert "58,158" not in result.answer  # another year's figure is never its figure

    def test_three_companies_and_two_metrics(self, tmp_path: Path) -> None:
        """Three peers, two metrics: six legs, two combinations, each checked by the judge."""
        from finqa.orchestrator.api import FinQA

        boeing = _operations(
            "THE BOEING COMPANY", "December 31, 2024", "Years ended December 31, 2024 2023",
            "Total revenues 66,517 77,794\nNet loss (11,829) (2,222)",
        )  # fmt: skip
        settings = _index(
            tmp_path,
            {
                "BOEING_2024_10K.txt": boeing,
                "ADOBE_2024_10K.txt": _filed("ADOBE"),
                "NETFLIX_2024_10K.txt": _filed("NETFLIX"),
            },
        )
        with FinQA.open(config=settings) as fq:
            result = fq.ask(
                "Compare the revenue and net income of Adobe, Netflix and Boeing in fiscal 2024."
            )
        assert len(result.legs) == 6
        revenue = {leg.company: leg.value for leg in result.legs if leg.metric == "revenue"}
        assert revenue == {"Adobe": 21_505e6, "Netflix": 39_001e6, "Boeing": 66_517e6}
        assert len(result.calculations) == 2
        assert result.calculations[0].result == pytest.approx(66_517e6)
        checks = result.extra["combination_checks"]
        assert len(checks) == 2 and all(c["ok"] for c in checks)


def _leg(index: int, value: float, **kw: object) -> dict[str, object]:
    base: dict[str, object] = {
        "index": index, "label": f"leg {index}", "value": value, "unit": "USD",
        "raw": value / 1e6, "scale": 1e6, "fiscal_year": 2024, "months": None,
    }  # fmt: skip
    base.update(kw)
    return base


def _calc(result: float, *legs: dict[str, object]) -> dict[str, object]:
    return {
        "result": result,
        "operands": [{"name": f"leg{leg['index']}", "value": leg["value"]} for leg in legs],
    }


class TestJudgeChecksTheCombination:
    """The judge re-executes the combination from the recorded legs and checks what it joins."""

    def test_a_right_combination_passes(self) -> None:
        """Peers in one year, one unit, the difference as recorded: accepted."""
        from finqa.agents.judge.combination import check_combination

        a, b = _leg(1, 8e9), _leg(2, 5e9)
        got = check_combination("peers", "difference", [a, b], _calc(3e9, a, b))
        assert got.ok and got.recomputed == pytest.approx(3e9)

    def test_a_wrong_result_fails(self) -> None:
        """A recorded result that is not the combination of the legs' figures is rejected."""
        from finqa.agents.judge.combination import check_combination

        a, b = _leg(1, 8e9), _leg(2, 5e9)
        got = check_combination("peers", "difference", [a, b], _calc(4e9, a, b))
        assert not got.ok and "recorded result" in got.problems[0]

    def test_units_scale_and_operands(self) -> None:
        """Mixed units, a value that is not its figure times its scale, or an operand that is not
        its leg's figure: each fails."""
        from finqa.agents.judge.combination import check_combination

        a, b = _leg(1, 8e9), _leg(2, 5e9, unit="shares")
        assert "different units" in " ".join(
            check_combination("peers", "higher", [a, b], _calc(8e9, a, b)).problems
        )
        c = _leg(2, 5e9, raw=5.0)  # 5 as filed in millions is not 5e9
        assert "times its scale" in " ".join(
            check_combination("peers", "higher", [a, c], _calc(8e9, a, c)).problems
        )
        d = _leg(2, 5e9)
        calc = _calc(8e9, a, d)
        calc["operands"][1]["value"] = 6e9  # type: ignore[index]
        assert "operand leg2" in " ".join(
            check_combination("peers", "higher", [a, d], calc).problems
        )

    def test_periods_line_up(self) -> None:
        """Peers of two years, a trend with a gap, a year-to-date outside its year: each fails."""
        from finqa.agents.judge.combination import check_combination

        a, b = _leg(1, 8e9), _leg(2, 5e9, fiscal_year=2023)
        assert not check_combination("peers", "higher", [a, b], _calc(8e9, a, b)).ok
        y1, y3 = _leg(1, 1e9, fiscal_year=2022), _leg(2, 2e9, fiscal_year=2024)
        gap = check_combination("trend", "growth", [y1, y3], _calc(100.0, y1, y3))
        assert "not consecutive" in " ".join(gap.problems)
        fy = _leg(1, 21e9, figure_end="2024-11-29")
        inside = _leg(2, 10e9, months=6, figure_end="2024-05-31")
        outside = _leg(2, 10e9, months=6, figure_end="2025-05-30")
        assert check_combination("stitched", "stitch", [fy, inside], _calc(11e9, fy, inside)).ok
        bad = check_combination("stitched", "stitch", [fy, outside], _calc(11e9, fy, outside))
        assert "does not lie inside the fiscal year" in " ".join(bad.problems)

    def test_ttm_periods(self) -> None:
        """A TTM: last year's year-to-date inside the 10-K's year, this year's a year later."""
        from finqa.agents.judge.combination import check_combination

        fy = _leg(1, 21e9, figure_end="2024-11-29")
        now = _leg(2, 11e9, months=6, fiscal_year=2025, figure_end="2025-05-30")
        before = _leg(3, 10e9, months=6, figure_end="2024-05-31")
        legs = [fy, now, before]
        assert check_combination("ttm", "ttm", legs, _calc(22e9, *legs)).ok
        stale = _leg(2, 11e9, months=6, fiscal_year=2024, figure_end="2024-05-31")
        bad = check_combination("ttm", "ttm", [fy, stale, before], _calc(22e9, fy, stale, before))
        assert "not of the year after" in " ".join(bad.problems)

    def test_a_failed_check_means_not_accepted(
        self, peers: Settings, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        """The orchestrator's arithmetic gone wrong: the judge's check fails, nothing accepted,
        the reason recorded."""
        from finqa.orchestrator import legs as legs_mod
        from finqa.orchestrator.api import FinQA

        monkeypatch.setattr(legs_mod, "evaluate", lambda expr, names: 1.0)
        with FinQA.open(config=peers) as fq:
            result = fq.ask(
                "What was the difference between Netflix's and Adobe's net income in FY2024?",
                question_id="bad-calc",
            )
            log = fq.audit_path
        assert result.status == "abstained" and result.answer.startswith(UNVERIFIED_LEAD)
        assert "the judge's check of the combination failed" in result.reason
        assert "the combination was not verified" in result.reason
        judge = next(
            r for r in _records(log) if r["question_id"] == "bad-calc" and r["event"] == "judge"
        )
        assert judge["decision"] == "reject" and "recorded result" in str(judge["reason"])


def _adobe_three_years(tmp_path: Path) -> Settings:
    """Adobe's FY2023 and FY2024 10-Ks: revenue for FY2022-FY2024 (17,606; 19,409; 21,505)."""
    return _index(
        tmp_path,
        {
            "ADOBE_2023_10K.txt": _cover("10-K", "December 1, 2023", "ADOBE INC.") + ADOBE_2023,
            "ADOBE_2024_10K.txt": _filed("ADOBE"),
        },
    )


class TestWhichYear:
    """'Which fiscal year had the highest X': the year picked from every year's leg, stated first,
    and checked by the judge."""

    def test_the_plan_picks_a_year(self) -> None:
        """Highest and lowest over a span are their own combination; a growth is not one."""
        high = plan_legs(
            "Which fiscal year had the highest revenue at Adobe from FY2022 to FY2024?"
        )
        low = plan_legs("In which fiscal year from 2022 to 2024 was Adobe's net income the lowest?")
        grew = plan_legs("What was Adobe's revenue growth from FY2022 to FY2024?")
        assert high is not None and (high.kind, high.combine) == ("trend", "highest_year")
        assert low is not None and low.combine == "lowest_year"
        assert grew is not None and grew.combine == "growth"
        assert [leg.fiscal_year for leg in high.legs] == [2022, 2023, 2024]

    def test_the_highest_year_first_with_every_figure(self, tmp_path: Path) -> None:
        """FY2024 is stated first (its sentence names no other year), then each year's figure;
        the judge's pick agrees, so the whole is accepted."""
        from finqa.orchestrator.api import FinQA

        settings = _adobe_three_years(tmp_path)
        with FinQA.open(config=settings) as fq:
            result = fq.ask(
                "In which fiscal year from FY2022 to FY2024 was Adobe's revenue the highest?"
            )
        assert result.status == "accepted", result.reason
        first = result.answer.split(". ")[0]
        assert first.startswith("FY2024 had Adobe's highest revenue")
        assert "2022" not in first and "2023" not in first
        for shown in ("$17,606 million", "$19,409 million", "$21,505 million"):
            assert shown in result.answer
        check = result.extra["combination_checks"][0]
        assert check["ok"] and "pick" in check["checks"]
        with FinQA.open(config=settings) as fq:
            lowest = fq.ask("Which fiscal year had the lowest revenue at Adobe, FY2022 to FY2024?")
        assert lowest.answer.startswith("FY2022 had Adobe's lowest revenue")

    def test_a_missing_year_is_not_accepted(self, tmp_path: Path) -> None:
        """FY2021 is in no filing: no year is picked and nothing is accepted."""
        from finqa.orchestrator.api import FinQA

        with FinQA.open(config=_adobe_three_years(tmp_path)) as fq:
            result = fq.ask(
                "In which fiscal year from FY2021 to FY2024 was Adobe's revenue the highest?"
            )
        assert result.status != "accepted" and not result.calculations
        assert "no figure found for Adobe revenue FY2021" in result.answer
        assert not result.answer.startswith("FY2024 had")

    def test_the_judge_checks_the_pick(self) -> None:
        """A stated year that is not the highest, a tie, or a year of the span with no leg:
        each fails the judge's check."""
        from finqa.agents.judge.combination import check_combination

        legs = [_leg(i + 1, v, fiscal_year=2022 + i) for i, v in enumerate((3e9, 5e9, 4e9))]
        calc = _calc(5e9, *legs)
        span = [2022, 2023, 2024]
        ok = check_combination("trend", "highest_year", legs, calc, pick=2023, span=span)
        assert ok.ok, ok.problems
        wrong = check_combination("trend", "highest_year", legs, calc, pick=2024, span=span)
        assert "not the highest figure's (FY2023)" in " ".join(wrong.problems)
        low = check_combination("trend", "lowest_year", legs, _calc(3e9, *legs), pick=2022)
        assert low.ok
        tie = [_leg(1, 5e9, fiscal_year=2022), _leg(2, 5e9, fiscal_year=2023)]
        tied = check_combination("trend", "highest_year", tie, _calc(5e9, *tie), pick=2022)
        assert "tie" in " ".join(tied.problems)
        short = check_combination(
            "trend", "highest_year", legs, calc, pick=2023, span=[2021, *span]
        )
        assert "no figure for FY2021" in " ".join(short.problems)


class TestGrowthIsAnOperator:
    """In a trend, growth / change / CAGR operate over the line item: each leg asks the level."""

    def test_legs_ask_the_level(self) -> None:
        """'revenue change', 'revenue growth', 'EPS growth' (a formula over prev()): the legs ask
        revenue (EPS) of each year and the combination is the growth (or CAGR)."""
        from finqa.lexicon.legs import level_of

        assert level_of("revenue_growth") == "revenue"
        assert level_of("eps_growth") == "eps_diluted"
        assert level_of("revenue") is None and level_of("operating_margin") is None
        for q in (
            "By what percentage did Adobe's revenue change from FY2022 to FY2024?",
            "What was Adobe's revenue growth from FY2022 to FY2024?",
        ):
            plan = plan_legs(q)
            assert plan is not None and plan.metrics == ("revenue",), q
            assert plan.combine == "growth", q
            assert [leg.question for leg in plan.legs][0] == "What was Adobe's revenue in FY2022?"
        cagr = plan_legs("What was Adobe's revenue growth CAGR from FY2021 to FY2024?")
        assert cagr is not None and (cagr.metrics, cagr.combine) == (("revenue",), "cagr")
        eps = plan_legs("How did Adobe's EPS growth go from FY2021 to FY2024?")
        assert eps is not None and eps.metrics == ("eps_diluted",) and eps.combine == "growth"
        # one company, one year: not a trend, the single-filing path answers its growth
        assert plan_legs("What was Adobe's revenue growth in FY2024?") is None

    def test_the_growth_is_the_combination_of_levels(self, tmp_path: Path) -> None:
        """End to end: the legs read each year's revenue; the change is first to last year."""
        from finqa.orchestrator.api import FinQA

        with FinQA.open(config=_adobe_three_years(tmp_path)) as fq:
            result = fq.ask("By what percentage did Adobe's revenue change from FY2022 to FY2024?")
        assert [leg.value for leg in result.legs] == [17_606e6, 19_409e6, 21_505e6]
        assert result.calculations[0].result == pytest.approx((21_505 / 17_606 - 1) * 100)
        assert result.status == "accepted", result.reason


TARGET = """CONSOLIDATED STATEMENTS OF OPERATIONS
(millions)
Fiscal years ended February 3, 2024 January 28, 2023 January 29, 2022
Net sales 107,412 109,120 106,005
Operating income 5,707 3,848 8,946
"""


class TestFilersOwnFiscalNaming:
    """'fiscal 2023' is the filer's own naming (Target's fiscal 2023 ended Feb 3, 2024: FY2024);
    'FY2023' is always the year ending in 2023; leg questions say 'FY{year}'."""

    def test_plan_reads_fiscal_n_per_company(self) -> None:
        """A start-naming company's 'fiscal 2021 to fiscal 2023' is FY2022-FY2024; 'FY' is not
        shifted; peers are each read in their own naming."""
        own = plan_legs("How did Target's operating income change from fiscal 2021 to fiscal 2023?")
        assert own is not None and [leg.fiscal_year for leg in own.legs] == [2022, 2023, 2024]
        assert own.legs[0].question == "What was Target's operating income in FY2022?"
        fy = plan_legs("How did Target's operating income change from FY2021 to FY2023?")
        assert fy is not None and [leg.fiscal_year for leg in fy.legs] == [2021, 2022, 2023]
        peers = plan_legs("Which had the higher revenue in fiscal 2023, Target or Adobe?")
        assert peers is not None
        assert [(leg.company, leg.fiscal_year) for leg in peers.legs] == [
            ("Target", 2024),
            ("Adobe", 2023),
        ]

    def test_a_start_naming_filer_end_to_end(self, tmp_path: Path) -> None:
        """Target's 'fiscal 2021 to fiscal 2023': its columns ended Jan 29, 2022 .. Feb 3, 2024."""
        from finqa.orchestrator.api import FinQA

        settings = _index(
            tmp_path,
            {
                "TARGET_2023_10K.txt": _cover("10-K", "February 3, 2024", "TARGET CORPORATION")
                + TARGET
            },
        )
        with FinQA.open(config=settings) as fq:
            result = fq.ask(
                "By what percentage did Target's operating income change from fiscal 2021 to "
                "fiscal 2023?"
            )
        assert [leg.fiscal_year for leg in result.legs] == [2022, 2023, 2024]
        assert [leg.value for leg in result.legs] == [8_946e6, 3_848e6, 5_707e6]
        assert result.calculations[0].result == pytest.approx((5_707 / 8_946 - 1) * 100)


def test_a_quoted_line_or_a_side_asked_is_no_trend_across_filings() -> None:
    """'The line 'Interest and other expense (income), net' ... was it a net expense or net
    income in 2021, and what about in 2019?' asks the filing's line year by year, not a
    catalogue metric's legs over 2019-2021."""
    from finqa.lexicon.legs import plan_legs

    q = "The line 'Interest and other expense (income), net' appears on Activision Blizzard's income statement. Was it a net expense or net income in 2021, and what about in 2019?"  # fmt: skip
    assert plan_legs(q) is None
