"""Where a sentence of filing prose ends.

A sentence ends at '.', '!' or '?' followed by a space and a capital (or an opening quote or
parenthesis), and at a blank line. A period that closes an abbreviation is not an end:

- after a title or a reference ('Mr.', 'Ms.', 'Dr.', 'No.', 'Messrs.', 'e.g.', 'vs.'), never;
- after initials ('U.S.', 'N.A.', 'Mary N. Dillon') or a legal suffix ('Inc.', 'Corp.', 'Co.', 'Ltd.'),
  only when the next word opens a sentence: 'Ulta Beauty, Inc. She previously served' ends
  there; 'U.S. Cellular Corporation' and 'Foot Locker, Inc. and its subsidiaries' do not.
"""

from __future__ import annotations

import re

__all__ = ["split_sentences", "name_words"]

_BOUNDARY = re.compile(r"(?<=[.!?])[\"”’')]?\s+(?=[A-Z(\"'“])|\n\s*\n")
_NEXT_WORD = re.compile(r"[(\"'“]*([A-Za-z]+)")
_LAST_WORD = re.compile(r"(\S+)\.[\"”’')]?$")
_INITIALS = re.compile(r"^\(?(?:[A-Za-z]\.)*[A-Za-z]$")  # 'U.S' of 'U.S.', 'N' of 'Mary N. Dillon'
# written before a name or a number, never last in a sentence
_NEVER_LAST = frozenset(
    [
        "mr",
        "mrs",
        "ms",
        "dr",
        "messrs",
        "no",
        "nos",
        "st",
        "vs",
        "e.g",
        "i.e",
        "approx",
        "fig",
        "sec",
        "art",
        "jr",
        "sr",
        "prof",
        "gen",
    ]
)
# may close a sentence or sit inside one
_MAY_BE_LAST = frozenset(["inc", "corp", "co", "ltd", "llc", "plc", "bros"])
# words that open a sentence after 'Inc.' or 'U.S.' (a name's next word is not one of these)
_OPENERS = frozenset(
    [
        "the",
        "this",
        "these",
        "those",
        "that",
        "there",
        "it",
        "its",
        "we",
        "our",
        "us",
        "they",
        "their",
        "he",
        "she",
        "his",
        "her",
        "in",
        "on",
        "at",
        "as",
        "for",
        "from",
        "by",
        "with",
        "during",
        "following",
        "after",
        "before",
        "since",
        "under",
        "while",
        "when",
        "if",
        "although",
        "however",
        "additionally",
        "also",
        "accordingly",
        "a",
        "an",
        "all",
        "each",
        "any",
        "such",
        "prior",
        "previously",
        "effective",
        "net",
        "total",
        "see",
        "refer",
    ]
)


def _continues(before: str, after: str) -> bool:
    """True when the period ending `before` closes an abbreviation inside the sentence."""
    m = _LAST_WORD.search(before)
    if m is None:
        return False
    word = m.group(1).lstrip("(\"'“").lower()
    if word in _NEVER_LAST:
        return True
    if word in _MAY_BE_LAST or _INITIALS.match(m.group(1)):
        nxt = _NEXT_WORD.match(after)
        return nxt is not None and nxt.group(1).lower() not in _OPENERS
    return False


def split_sentences(text: str) -> list[str]:
    """The sentences of `text`, in order, each as written (not re-spaced)."""
    out: list[str] = []
    start = 0
    for m in _BOUNDARY.finditer(text):
        end = m.start() + len(m.group(0).rstrip())  # the closing quote stays with its sentence
        paragraph = m.group(0).count("\n") >= 2
        if not paragraph and _continues(text[start:end], text[m.end() :]):
            continue
        out.append(text[start:end])
        start = m.end()
    out.append(text[start:])
    return [s for s in out if s.strip()]


def question_sentences(question: str) -> list[str]:
    """The sentences of a question (whitespace normalised): `split_sentences` (the period of an
    abbreviation, 'U.S. GAAP', 'Inc.', ends none), each cut again after a question mark (a
    question mark always ends an ask, whatever follows it)."""
    out: list[str] = []
    for sentence in split_sentences(" ".join(question.split())):
        out.extend(p.strip() for p in re.split(r"(?<=\?)\s+", sentence) if p.strip())
    return out


# a capitalised word: a name's ('Distributed Energy Solutions', '737 MAX'), or a sentence's first
_CAPITALISED = re.compile(r"(?<![\w'\u2019])[A-Z][A-Za-z&.\-]*")
_QUOTED_SPAN = re.compile(
    r"[\"\u201c][^\"\u201d]*[\"\u201d]|(?<!\w)['\u2018][^'\u2019]*['\u2019](?!\w)"
)


def name_words(question: str) -> list[str]:
    """The words of a question that belong to names: capitalised words that do not open a
    sentence or a quoted caption ('Did Lockheed Martin report the Distributed Energy Solutions
    business ...': Lockheed, Martin, Distributed, Energy, Solutions), lower case. What the
    question asks of those names is in its other words."""
    out: list[str] = []
    text = _QUOTED_SPAN.sub(" ", question)
    for sentence in question_sentences(text):
        for m in _CAPITALISED.finditer(sentence):
            if sentence[: m.start()].strip(" \t\"'(\u201c\u2018"):
                out.append(m.group(0).lower().strip(".-"))
    return out
