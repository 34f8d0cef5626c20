"""Judgements from the catalogue (lexicon/data/judgements.yaml) applied to a filing's figures."""

from __future__ import annotations

from dataclasses import replace

from _reasoning_data import BALANCE, CASH_FLOW, INCOME, UTILITY_STATEMENTS, evidence
from finqa.agents.config import Settings
from finqa.agents.reasoning import build_reasoner
from finqa.agents.reasoning.offline.book import Book
from finqa.agents.reasoning.offline.verdicts import ratio_judgement
from finqa.lexicon.judgements import judgement
from finqa.lexicon.question_ask import read_ask

Q = "Is Acme a capital-intensive business based on FY2022 data?"


def ask(question: str, *texts: str):  # type: ignore[no-untyped-def]
    return build_reasoner(Settings()).generate(question, evidence(*texts, question=question), 1)


class TestRatioJudgement:
    def test_answer_states_the_catalogue_rule(self) -> None:
        """The verdict quotes the judgement's general definition from the catalogue."""
        a = ask(Q, UTILITY_STATEMENTS)
        assert a.text.startswith("Yes.")
        assert judgement("capital_intensive").definition in a.text

    def test_threshold_comes_from_the_catalogue(self) -> None:
        """The same figures under a stricter threshold come out the other way."""
        j = judgement("capital_intensive")
        strict = replace(j, tests=tuple(replace(t, threshold=90.0) for t in j.tests))
        book = Book(evidence(UTILITY_STATEMENTS))
        spec = read_ask(Q)
        loose = ratio_judgement(j, spec, book, "standard")
        tight = ratio_judgement(strict, spec, book, "standard")
        assert loose is not None and loose.text.startswith("Yes.")
        assert tight is not None and tight.text.startswith("No.") and "threshold 90%" in tight.text

    def test_all_rule_needs_every_ratio(self) -> None:
        """Under rule 'all' a passing ratio with the other unread gives no verdict; both read, Yes."""
        base = judgement("capital_intensive")
        low = tuple(replace(t, threshold=1.0) for t in base.tests)  # both ratios pass at 1%
        j = replace(base, rule="all", tests=low)
        book = Book(evidence(BALANCE))  # net PP&E / total assets 1.7%; capex not read
        assert ratio_judgement(j, read_ask(Q), book, "standard") is None
        full = ratio_judgement(j, read_ask(Q), Book(evidence(INCOME, CASH_FLOW, BALANCE)), "standard")  # fmt: skip
        assert full is not None and full.text.startswith("Yes.")
