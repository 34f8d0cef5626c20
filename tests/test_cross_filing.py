"""Questions across filings: planned into legs, each answered and judged alone, then combined."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from finqa.agents.config import Settings
from finqa.lexicon.legs import plan_legs, with_latest_years

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
        assert plan.legs[0].question == "What was Adobe's revenue in fiscal year 2024?"

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
            "What was Adobe's revenue in the first nine months of fiscal 2024?"
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
        assert result.status == "best_effort"
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
        """Peers share a fiscal year; golds are the tags' higher, difference and CAGR."""
        from finqa.benchmarks.xbrl import _filings
        from finqa.benchmarks.xbrl_cross import cross_questions

        qs = {q.qid: q for q in cross_questions(_filings(edgar_dir))}
        kinds = {q.kind for q in qs.values()}
        assert kinds == {"higher", "difference", "cagr", "stitched"}
        assert not any("10-q" in q.filing for q in qs.values() if q.kind != "stitched")
        # AbbVie's tagged net revenues: $58,054 million (2022), $56,334 million (2024)
        abbv = qs["abbv-10-k-2025-02-14-revenue-cagr"]
        assert abbv.value == pytest.approx(((56_334 / 58_054) ** 0.5 - 1) * 100, abs=0.01)
        # Coca-Cola's second half of 2024: the 10-K's year less the 2025 10-Q's 2024 comparative
        ko = qs["ko-10-q-2025-07-24-revenue-second_half-fy2024"]
        assert ko.value == pytest.approx(47_061 - 23_663)
        for q in qs.values():
            if q.kind == "higher":
                a, b = q.question.split(", ")[-1].rstrip("?").split(" or ")
                assert q.answer in (a, b)
