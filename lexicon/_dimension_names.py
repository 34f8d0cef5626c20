"""How a question's name of a part meets the filing's printed name: abbreviations (acronyms,
initials), linking words and plurals, and a name that says more than the member it contains."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from finqa.lexicon.model import AskedDimension

__all__ = ["abbreviates", "loose", "narrower"]


def _key(text: str) -> str:
    return re.sub(r"[^a-z0-9]", "", text.lower())


def loose(text: str) -> str:
    """A name's key without its linking words, each word singular: 'Services and other' and
    the tag's 'Service Other' both read 'serviceother'."""
    words = [w.lower() for w in re.findall(r"[A-Za-z0-9]+", text)]
    words = [w for w in words if w not in ("and", "of", "the")]
    return "".join(
        w[:-1] if len(w) > 3 and w.endswith("s") and not w.endswith("ss") else w for w in words
    )


_LINKS = frozenset({"and", "&", "of", "the"})


def _words(text: str) -> list[str]:
    return [w for w in re.findall(r"[A-Za-z]+", text) if w.lower() not in _LINKS]


def abbreviates(text: str, name: str) -> bool:
    """One spelling abbreviates the other, as filings shorten a part's name: an acronym of
    the words' leading letters ('APAC' for Asia Pacific, 'EMEA' for Europe, Middle East and
    Africa: each word gives the acronym its first letter or more, in order), or initials for
    some of the words ('A. Pacific' for Asia Pacific: a capital alone for a word, the other
    words spelled out). The question's words must read as a name: each capitalised and none
    of them the catalogue's ('total assets change' is no spelling of a printed 'TAC')."""
    words, other = _words(text), _words(name)
    if not all(w[:1].isupper() for w in words) or _key(_unsaid(text)) != _key(text):
        return False
    if len(words) >= 2 and len(other) == 1 and other[0].isupper() and len(other[0]) >= 3:
        return _acronym(words, other[0].lower())
    if len(other) >= 2 and len(words) == 1 and words[0].isupper() and len(words[0]) >= 3:
        return _acronym(other, words[0].lower())
    if len(words) != len(other) or len(words) < 2:
        return False
    initials = 0
    for w, o in zip(words, other, strict=True):
        if w.lower() == o.lower():
            continue
        if len(w) == 1 and w.isupper() and o[:1].upper() == w:
            initials += 1
            continue
        return False
    return 0 < initials < len(words)


def _acronym(words: Sequence[str], acronym: str) -> bool:
    def spells(i: int, at: int) -> bool:
        if i == len(words):
            return at == len(acronym)
        word = words[i].lower()
        return any(
            acronym[at : at + k] == word[:k] and spells(i + 1, at + k)
            for k in range(1, min(len(word), len(acronym) - at) + 1)
        )

    return spells(0, 0)


def narrower(text: str, spoken: AskedDimension | None) -> bool:
    """The member matched names only some of the part the question's own words name ('United
    States' inside 'Americas Excluding United States', 'Sales' inside 'Sales Cloud'): that
    member is another part, not the one asked."""
    if spoken is None or not spoken.phrase:
        return False
    said, got = _key(spoken.phrase), _key(text)
    if got == said or got not in said or said.startswith(got + "s"):
        return False
    return bool(_key(_unsaid(spoken.phrase.replace(text, " "))))


def _unsaid(text: str) -> str:
    """What is left of a phrase once the company's name and the catalogue's words are taken
    out ('Boeing' of 'Boeing Defense, Space & Security', 'Revenue' of 'Subscription Revenue')."""
    from finqa.lexicon.entities import find_companies
    from finqa.lexicon.metrics import find_metrics

    spans = [(c.start, c.end) for c in find_companies(text)]
    spans += [(m.start, m.end) for m in find_metrics(text)]
    for a, b in sorted(spans, reverse=True):
        text = text[:a] + " " + text[b:]
    return text
