"""Grounding: is each content claim of the answer supported by the evidence it cites?

A claim is supported when (1) every number in it is verified (numeric module), (2) enough of its
content words occur in one cited source (uncited claims: any source), words that merely repeat
the question counting half, and (3) it names no company other than the ones asked about or
present in that source. Pure verdicts ('Yes.', 'No,') are not content claims: the facet
checklist judges them.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from finqa.agents.judge import _lex
from finqa.agents.judge.evidence import EvidenceView, SourceView
from finqa.agents.judge.numeric import NumberCheck
from finqa.agents.judge.text import Claim, content_tokens, is_provenance_note
from finqa.lexicon.question_intent import read_intent

__all__ = ["ClaimCheck", "check_claims", "grounding_score"]

_TOKEN_SUPPORT = 0.5  # share of a claim's content words found in its source
_TOKEN_SUPPORT_WITH_NUMBER = 0.34  # lower when a verified number anchors the claim
_VERDICT_ONLY = re.compile(r"^\W*(?:yes|no|true|false|correct|incorrect)\W*$", re.I)


@dataclass
class ClaimCheck:
    """The verdict on one claim."""

    index: int
    text: str
    sources: tuple[str, ...]
    content: bool = True
    supported: bool = False
    support: float = 0.0  # best token support in [0, 1]
    source: str | None = None  # the source that supports it best
    numbers: list[str] = field(default_factory=list)
    failed_numbers: list[str] = field(default_factory=list)
    reason: str = ""
    llm: str | None = None  # optional LLM entailment label

    def to_dict(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "text": self.text,
            "cites": list(self.sources),
            "content": self.content,
            "supported": self.supported,
            "support": round(self.support, 3),
            "source": self.source,
            "numbers": self.numbers,
            "failed_numbers": self.failed_numbers,
            "reason": self.reason,
            "llm": self.llm,
        }


def _foreign_company(claim: str, allowed: set[str], src: SourceView | None) -> str | None:
    try:
        found = _lex.find_companies(claim)
    except Exception:  # noqa: BLE001 - company names only refine grounding; never fail the verdict on them
        return None
    for c in found:
        name = str(c.name)
        if name in allowed:
            continue
        if src is not None and (
            name.lower().split()[0] in src.lower or str(c.matched).lower() in src.lower
        ):
            continue
        return name
    return None


def check_claims(
    claims: Sequence[Claim],
    numbers: Sequence[NumberCheck],
    view: EvidenceView,
    question: str,
    *,
    default_sources: Sequence[str] = (),
) -> list[ClaimCheck]:
    """Check every claim; `default_sources` are the answer's citations when claims carry no marker."""
    q_tokens = set(content_tokens(question))
    allowed = set(read_intent(question).companies)  # the lexicon's one reading of the question
    out: list[ClaimCheck] = []
    for claim in claims:
        check = ClaimCheck(claim.index, claim.text, claim.sources)
        mine = [n for n in numbers if n.start < claim.end and claim.start < n.end]
        check.numbers = [n.text for n in mine]
        check.failed_numbers = [n.text for n in mine if not n.ok]
        tokens = content_tokens(claim.text)
        # 'Answer: -3.70 days.': a claim whose only words are its figures' units is the figures
        words = tokens if not mine else content_tokens(_without(claim, mine))
        if _VERDICT_ONLY.match(claim.text) or (not tokens and not mine):
            check.content, check.supported, check.reason = False, True, "no content to ground"
            out.append(check)
            continue
        if not mine and is_provenance_note(claim.text):
            check.content, check.supported = False, True
            check.reason = "a note on how the answer was made, not a claim about the filing"
            out.append(check)
            continue
        unknown = [s for s in claim.sources if view.get(s) is None]
        if view and claim.sources and len(unknown) == len(claim.sources):
            check.reason = f"cites {', '.join(unknown)}, which is not in the evidence"
            out.append(check)
            continue
        cited = [s for s in claim.sources if view.get(s)] or [
            s for s in default_sources if view.get(s)
        ]
        candidates = [view.get(s) for s in cited] if cited else list(view.sources)
        best, best_src = 0.0, None
        for src in candidates:
            if src is None:
                continue
            score = _support(tokens, src.tokens, q_tokens)
            if score > best or best_src is None:
                best, best_src = score, src
        check.support = best
        check.source = best_src.source_id if best_src else None
        need = _TOKEN_SUPPORT_WITH_NUMBER if mine and not check.failed_numbers else _TOKEN_SUPPORT
        foreign = _foreign_company(claim.text, allowed, best_src)
        if not view:
            check.reason = "no evidence"
        elif check.failed_numbers:
            check.reason = "unverified number(s): " + ", ".join(check.failed_numbers)
        elif foreign:
            check.reason = f"names {foreign}, which neither the question nor the source mentions"
        elif best < need and not (mine and not words):
            check.reason = (
                f"only {best:.0%} of its words are in {'the cited' if cited else 'any'} source"
            )
        else:
            check.supported = True
            check.reason = "supported"
        out.append(check)
    return out


def _without(claim: Claim, numbers: Sequence[NumberCheck]) -> str:
    """The claim's text with its figures (and their units) blanked out."""
    text = claim.text
    for n in numbers:
        text = text.replace(n.text, " ")
    return text


def _support(tokens: Sequence[str], source: frozenset[str], question: set[str]) -> float:
    if not tokens:
        return 1.0
    score = 0.0
    for t in tokens:
        if t in source:
            score += 1.0
        elif t in question:
            score += 0.5
    return score / len(tokens)


def grounding_score(checks: Sequence[ClaimCheck], missing: int = 0) -> float | None:
    """Share of content claims supported, where each question part the answer leaves unanswered
    counts as a claim the answer should have made and did not; None when there is nothing."""
    content = [c for c in checks if c.content]
    if not content and not missing:
        return None
    return sum(c.supported for c in content) / (len(content) + missing)
