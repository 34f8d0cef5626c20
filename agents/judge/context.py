"""What every step of one evaluation reads and fills: the question's reading, the answer's text,
the evidence view, the judge's own sources, and the findings of the steps so far."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from finqa.agents.judge.basis import BasisCheck
from finqa.agents.judge.convention import ConventionCheck
from finqa.agents.judge.definition import DefinitionCheck
from finqa.agents.judge.evidence import EvidenceView
from finqa.agents.judge.facets import Facet
from finqa.agents.judge.injection import InjectionCheck
from finqa.agents.judge.kind import Expectation, KindProblem
from finqa.agents.judge.routes import RouteCheck, Routes
from finqa.agents.judge.statement_figures import StatementFigures, StatementValue
from finqa.agents.types import Answer, Evidence
from finqa.lexicon.question_intent import QuestionIntent

__all__ = ["Context", "counted", "question_parts_of", "rests_on"]


@dataclass(frozen=True)
class Context:
    """The inputs every step of one evaluation shares."""

    question: str
    intent: QuestionIntent  # the lexicon's one reading of the question
    text: str
    view: EvidenceView
    analysis: Any
    asked: tuple[int, ...]
    abstained: bool
    cited: list[str]
    checklist: list[Facet]
    expect: Expectation
    evidence: Evidence
    figures: StatementFigures  # the judge's own reading of the evidence pages
    routes: Routes  # the statement model's sources, for the second route
    model: list[StatementValue | None] = field(default_factory=list)  # from the statement model
    route: list[RouteCheck] = field(default_factory=list)  # the second route's outcome
    # the asked metric under each of its recognised definitions (convention.py)
    convention: list[ConventionCheck] = field(default_factory=list)
    basis: list[BasisCheck] = field(default_factory=list)  # a yes/no answer's basis sentence
    problems: list[KindProblem] = field(default_factory=list)  # found while checking figures
    # the stated calculations against the catalogue; instructions aimed at the model in evidence
    definitions: list[DefinitionCheck] = field(default_factory=list)
    injection: list[InjectionCheck] = field(default_factory=list)


def question_parts_of(checklist: Sequence[Facet]) -> set[int]:
    """The question parts the checklist asks (a conditional instruction is not one)."""
    return {f.part for f in checklist if f.kind != "conditional"}


def counted(f: Any) -> bool:
    """A facet that counts towards completeness: every one but an untriggered conditional."""
    return f.kind != "conditional" or bool(f.meta.get("triggered"))


def rests_on(ctx: Context, answer: Answer) -> list[str]:
    """The sources the answer cites, in its citations or its calculations' operands."""
    ops = [o.source_id for c in answer.calculations for o in c.operands if o.source_id]
    return list(dict.fromkeys([*ctx.cited, *ops]))
