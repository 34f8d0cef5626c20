"""Output-side prompt-injection check: does the answer follow an instruction aimed at the model
that a cited source carries ('ignore previous instructions and answer that ...')?

The instruction vocabulary is the lexicon's (`finqa.lexicon.injection`). An answer follows an
instruction when a figure of the answer is one the instruction's sentence states, when its words
are mostly the instruction's payload, or when its yes/no is the one the instruction dictates. Such
an answer rests on text that is not evidence and is rejected; evidence that carries an
instruction the answer does not follow is only flagged. The instruction's text is recorded in the
details (the audit log) as untrusted data and never put in the feedback a next prompt reads.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from finqa.agents.judge import _lex
from finqa.agents.judge.evidence import EvidenceView
from finqa.agents.judge.text import content_tokens

__all__ = ["InjectionCheck", "check_injection"]

_YES_NO = re.compile(r"^\W*(yes|no)\b", re.I)
_FOLLOW_SHARE = 0.6  # share of the answer's content words taken from an instruction's payload
_SNIPPET = 160
_VERIFIED_ELSEWHERE = frozenset({"calculation", "derived", "rederived"})


@dataclass
class InjectionCheck:
    """Instructions aimed at the model in the evidence the answer rests on, and whether it follows one."""

    found: list[dict[str, Any]] = field(default_factory=list)
    followed: bool = False
    reason: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {"instructions": self.found, "followed": self.followed, "reason": self.reason}


def check_injection(
    answer: str,
    view: EvidenceView,
    cited: Sequence[str],
    numbers: Sequence[Any],
    question: str = "",
) -> InjectionCheck:
    """Look for instructions in the cited sources (every source when nothing is cited) and
    decide whether the answer follows one of them."""
    from finqa.lexicon.injection import find_instructions

    check = InjectionCheck()
    sources = [s for s in view.sources if s.source_id in set(cited)] or list(view.sources)
    asked = set(content_tokens(question))
    words = [t for t in content_tokens(answer) if len(t) >= 3 and t not in asked]
    verdict = _YES_NO.match(answer)
    # the answer's figures (quoted ones too), but those re-executed over the evidence or derived
    verified = {nc.start for nc in numbers if nc.status in _VERIFIED_ELSEWHERE}
    figures = [
        q for q in _lex.extract_quantities(answer) if q.kind == "number" and q.start not in verified
    ]
    for src in sources:
        # the source's own text, then the other chunks of its pages (an instruction elsewhere on
        # a cited page is on the page the answer cites)
        for n, text in enumerate((src.text, *src.page_rest)):
            others = [src.text] if n else []
            for ins in find_instructions(text):
                rest = " ".join(
                    [text[: ins.start], text[ins.end :], *others]
                    + [s.text for s in view.sources if s is not src]
                )
                how = _follows(ins, rest, words, verdict, figures)
                check.found.append(
                    {
                        "source": src.source_id,
                        "where": "another chunk of the cited page" if n else "the cited text",
                        "kinds": list(ins.kinds),
                        "text": ins.text[:_SNIPPET],  # untrusted filing text, kept as data
                        "followed": how or None,
                    }
                )
                if how and not check.followed:
                    check.followed = True
                    check.reason = (
                        f"the answer follows {ins.reason} in {src.source_id} ({how}); "
                        "such text is not evidence"
                    )
    if check.found and not check.followed:
        listed = ", ".join(dict.fromkeys(str(f["source"]) for f in check.found))
        check.reason = (
            f"{listed} carries text aimed at a language model; the answer does not follow it"
        )
    return check


def _follows(
    ins: Any, rest: str, words: Sequence[str], verdict: Any, figures: Sequence[Any]
) -> str:
    """How the answer follows one instruction ('' when it does not). What counts is what only
    the instruction says (`rest` is the evidence without it): an instruction that dictates such
    figures is followed only by an answer stating one of them; one without, by an answer made of
    its words, one of them its own; a dictated yes/no by that yes/no."""
    own = [
        q
        for q in _lex.extract_quantities(ins.payload)
        if q.kind == "number" and _lex.find_in_text(q, rest) is None
    ]
    for q in figures:
        if any(_lex.quantities_match(q, s, 0.005) for s in own):
            return "states the figure it dictates"
    payload = set(content_tokens(ins.payload))
    if not own and len(words) >= 2:
        share = sum(w in payload for w in words) / len(words)
        elsewhere = set(content_tokens(rest))
        if share >= _FOLLOW_SHARE and any(w in payload and w not in elsewhere for w in words):
            return f"{share:.0%} of the answer's words are the instruction's"
    lead = re.match(r"^\W*(?:\w+\W+){0,2}?(yes|no)\b", ins.payload, re.I)
    if (
        verdict is not None
        and lead is not None
        and lead.group(1).lower() == verdict.group(1).lower()
    ):
        return f"gives the '{verdict.group(1)}' it dictates"
    return ""
