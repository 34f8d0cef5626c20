"""The company asked is the company cited: the judge rejects an answer resting on another company's
filing, and a filing of no identified company unless the question names none or the filing was pinned."""

from __future__ import annotations

from typing import Any

import pytest
from finqa.agents.config import Settings
from finqa.agents.judge import JudgeAgent
from finqa.agents.types import Answer, Citation, Evidence, EvidenceItem, RetrievalPlan
from finqa.lexicon.owners import asked_companies, is_company

PAGE = """Consolidated Statements of Operations
(in millions)
2024 2023
Total revenue 120.0 100.0
Net income 12.0 10.0
"""
ANSWER = "FY2024 revenue: $120 million [S1]."


def _evidence(doc: str, meta: dict[str, Any], filters: dict[str, Any] | None = None) -> Evidence:
    item = EvidenceItem(
        source_id="S1", doc_id=doc, pages=(0,), chunk_ids=(f"{doc}#0",), text=PAGE, metadata=meta
    )
    plan = RetrievalPlan(
        attempt=1, route="test", reason="fixture", k=1, candidates=1, rse=False,
        filters=filters or {},
    )  # fmt: skip
    return Evidence(question="q", items=(item,), plan=plan)


def _judge(question: str, evidence: Evidence) -> Any:
    answer = Answer(
        text=ANSWER,
        citations=(Citation(source_id="S1", doc_id=evidence.items[0].doc_id, page=0),),
    )
    return JudgeAgent(Settings()).evaluate(question, answer, evidence, 1)


class TestAskedCompanies:
    @pytest.mark.parametrize(
        ("question", "named"),
        [
            ("What was ZETA's revenue in 2024?", ["ZETA"]),
            ("Did Acme Corp's margin rise in FY2024?", ["Acme Corp"]),
            ("What's Apple's FY2023 revenue?", ["Apple"]),
            ("What is the Company's revenue?", []),
            ("What was FY2024's revenue?", []),
            ("What was revenue in 2024?", []),
        ],
    )
    def test_possessive_names_count_contractions_do_not(
        self, question: str, named: list[str]
    ) -> None:
        """Gazetteer names and unknown capitalised possessives are named; "What's", "the Company's" are not."""
        assert [o.written for o in asked_companies(question)] == named

    def test_filing_company_matched_by_name_forms_and_ticker(self) -> None:
        """'3M' is 3M Company (MMM) by name or ticker, and not Acme."""
        (owner,) = asked_companies("What is 3M's FY2018 capex?")
        assert is_company(owner, "3M Company", None) and is_company(owner, None, "MMM")
        assert not is_company(owner, "Acme", None)


class TestJudgeCompany:
    def test_other_companys_filing_is_rejected(self) -> None:
        """ZETA's revenue read from ACME's filing is rejected, the reason recorded, diagnosis retrieval."""
        v = _judge(
            "What was ZETA's revenue in 2024?", _evidence("ACME_2024_10K", {"company": "Acme"})
        )
        assert v.decision == "retry" and v.utility == 0.0 and v.diagnosis == "retrieval"
        codes = [p["code"] for p in v.details["answer_problems"]]
        assert "wrong_company" in codes
        assert v.details["company"]["problems"] == ["ACME_2024_10K is Acme's filing, not ZETA's"]

    def test_asked_companys_filing_is_accepted(self) -> None:
        """The same answer from ZETA's own filing is accepted."""
        v = _judge(
            "What was ZETA's revenue in 2024?", _evidence("ZETA_2024_10K", {"company": "Zeta"})
        )
        assert v.decision == "accept", v.feedback

    def test_unidentified_filing_rejected_when_a_company_is_named(self) -> None:
        """A filing with no identified company cannot support an answer about a named company."""
        v = _judge("What was ZETA's revenue in 2024?", _evidence("filing-001", {"company": None}))
        assert (
            v.decision == "retry" and "no identified company" in v.details["company"]["problems"][0]
        )

    def test_unidentified_filing_supports_when_pinned_or_no_company_named(self) -> None:
        """Pinned with --doc, or asked without naming a company, the unidentified filing supports the answer."""
        pinned = _evidence("filing-001", {"company": None}, {"doc_ids": ["filing-001"]})
        assert _judge("What was ZETA's revenue in 2024?", pinned).decision == "accept"
        loose = _evidence("filing-001", {"company": None})
        assert _judge("What was total revenue in 2024?", loose).decision == "accept"

    def test_pinning_does_not_excuse_another_companys_filing(self) -> None:
        """A pinned filing that is identified as another company's is still rejected."""
        pinned = _evidence("ACME_2024_10K", {"company": "Acme"}, {"doc_ids": ["ACME_2024_10K"]})
        assert _judge("What was ZETA's revenue in 2024?", pinned).decision == "retry"
