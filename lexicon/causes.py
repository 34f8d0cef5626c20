"""The language of causes, from data/causes.yaml: whether a question asks what caused a movement
('What drove ...', 'Why did ...') and the line it asks about when it names two lines one bridges,
the cause marker a filing sentence holds ('due to', 'driven
by', 'offset by'), whether a sentence opens on a movement it goes on to explain ('The increase
was primarily due to ...'), and whether a section heading is the management's discussion. One
place for this language: the offline reasoner's cause answers read filings through it."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from finqa.lexicon._data import data_cache, read_yaml

if TYPE_CHECKING:
    from finqa.lexicon.metrics import Metric

__all__ = [
    "asks_cause",
    "asked_bridge",
    "cause_marker",
    "split_at_cause",
    "opens_on_movement",
    "names_movement",
    "movement_noun",
    "is_hypothetical",
    "is_discussion_section",
]


def _alt(words: list[str]) -> str:
    return "|".join(
        re.escape(w).replace(r"\ ", r"\s+") for w in sorted(words, key=len, reverse=True)
    )


@data_cache()
def _patterns() -> dict[str, re.Pattern[str]]:
    v = read_yaml("causes.yaml") or {}
    return {
        "marker": re.compile(rf"\b(?:{_alt(v['markers'])})\b", re.I),
        "question": re.compile(rf"\b(?:{_alt(v['questions'])})\b", re.I),
        # 'The increase ...', 'This decline ...', 'The $104.2 million increase was ...'
        "opens": re.compile(
            rf"^\W*(?:the|this|these|that|such)\s+(?:\S+\s+){{0,3}}?(?:{_alt(v['openers'])})\b",
            re.I,
        ),
        "section": re.compile(rf"{_alt(v['sections'])}", re.I),
        "opener_word": re.compile(rf"\b(?:{_alt(v['openers'])})\b", re.I),
        "movement": re.compile(rf"\b(?:{_alt(v['movements'])})\b", re.I),
        "hypothetical": re.compile(rf"\b(?:{_alt(v['hypothetical'])})\b", re.I),
    }


def asks_cause(question: str) -> bool:
    """The question asks what caused a movement ('What drove ...', 'Why did ...', 'reasons for')."""
    return bool(_patterns()["question"].search(question))


def asked_bridge(question: str) -> Metric | None:
    """The line a cause question asks about when it names two statement lines one line bridges
    ('Why did net income exceed income before taxes?': income taxes, the catalogue's `bridges`):
    what made the two differ is that line, not what moved either of them; None otherwise. Two
    lines named as a list ('What drove revenue and gross profit?') ask what moved each."""
    from finqa.lexicon.metrics import bridging_item, find_metrics

    if not asks_cause(question):
        return None
    found = find_metrics(question)
    bridge = bridging_item(m.canonical for m in found)
    if bridge is None:
        return None
    ends = [m for m in found if m.canonical != bridge.id]
    for a, b in zip(ends, ends[1:], strict=False):
        if _LISTED.fullmatch(question[a.end : b.start]):
            return None  # listed side by side: each line's own movement is asked
    return bridge


# what stands between two line names listed side by side ('revenue and gross profit', 'net
# income, and its income before taxes')
_LISTED = re.compile(r"\W*(?:,\s*)?(?:and|&|as well as|or)?\s*(?:its|their|the|in)?\s*", re.I)


def cause_marker(sentence: str) -> str | None:
    """The first cause marker the sentence holds ('due to', 'driven by', 'offset by'), or None."""
    m = _patterns()["marker"].search(sentence)
    return " ".join(m.group(0).lower().split()) if m else None


def split_at_cause(sentence: str) -> tuple[str, str, str] | None:
    """(what moved, the marker, the cause): the sentence split at its first cause marker, or
    None without one ('Gross margin decreased' | 'due to' | 'higher costs.')."""
    m = _patterns()["marker"].search(sentence)
    if m is None:
        return None
    marker = " ".join(m.group(0).lower().split())
    return sentence[: m.start()], marker, sentence[m.end() :]


def names_movement(text: str) -> bool:
    """The text names a movement of a figure ('increased', 'decline', 'higher', 'grew')."""
    return bool(_patterns()["movement"].search(text))


def movement_noun(text: str) -> str | None:
    """The first noun of a movement the text uses ('increase', 'reduction', 'change'), or None."""
    m = _patterns()["opener_word"].search(text)
    return m.group(0).lower() if m else None


def is_hypothetical(text: str) -> bool:
    """A possibility, expectation or condition ('may', 'could', 'we expect', 'if'), not what
    happened."""
    return bool(_patterns()["hypothetical"].search(text))


def opens_on_movement(sentence: str) -> bool:
    """The sentence opens on a movement named before it ('The increase was ...', 'This decline')."""
    return bool(_patterns()["opens"].match(sentence))


def is_discussion_section(section: str | None) -> bool:
    """The heading is the management's discussion of results (MD&A, 'Results of Operations')."""
    return bool(section) and bool(_patterns()["section"].search(section or ""))
