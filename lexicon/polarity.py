"""Whether a filing sentence affirms or denies what it says about a subject: denial cues
("not", "no", "none", "never", "neither ... nor", "did not", "will not have a material ...")
near the subject's words, with the hedges of filing prose that deny nothing ("there can be no
assurance", "including but not limited to", "may not be able to", "whether or not").

One place for this language: the offline reasoner's yes/no answers read a sentence's polarity
here, so an answer read from a filing can come out "Yes" or "No"."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Literal

from finqa.lexicon import movement
from finqa.lexicon._data import data_cache
from finqa.lexicon.stems import stem

__all__ = [
    "Polarity",
    "sentence_polarity",
    "is_negated_question",
    "asks_direction",
    "YES_NO_HEAD",
]

Polarity = Literal["affirms", "denies"]

# a yes/no question: an auxiliary verb first, or after a leading 'As of <period>,' clause
YES_NO_HEAD = re.compile(
    r"^\s*(?:(?:as of|in|for|during|at)\b[^,?]{1,40},\s*)?"
    r"(?:does|do|did|is|are|was|were|has|have|had|can|will|should)\b",
    re.IGNORECASE,
)


# a question about a movement or a comparison of figures ('Did X's segment grow?'): figures
# answer it, a sentence's wording does not. The movement words (lexicon.movement), without the
# verbs of what a company does ('raise prices', 'reduce its workforce': a sentence may say so)
# and the evaluative comparatives ('better positioned'), and the words of a comparison
@data_cache()
def _direction() -> re.Pattern[str]:
    return re.compile(
        rf"\b(?:{movement.alternation(forms=('verbs', 'nouns'), acts=False)}|"
        rf"{movement.alternation(('up', 'down'), ('comparatives',))}|"
        r"more|less|exceed\w*|above|below)\b|%",
        re.IGNORECASE,
    )


_DENIAL = re.compile(
    r"\b(?:not|no|none|never|neither|nor|cannot|without)\b|n['’]t\b",
    re.IGNORECASE,
)
# phrases with a denial word that deny nothing about the subject (filing hedges)
_HEDGE = re.compile(
    r"\b(?:(?:can|could) be )?no assurances?\b|\bnot limited to\b|\bnot only\b|\bwhether or not\b|"
    r"\bif not\b|\bnot (?:necessarily|always)\b|\bcannot (?:be )?(?:predict|assur|guarant|estimat)\w*|"
    r"\b(?:may|might|could|would) not\b|\bno later than\b|\bnot yet\b|\bno longer than\b",
    re.IGNORECASE,
)
_WORD = re.compile(r"[a-z][a-z0-9&'-]+")
_WINDOW = 6  # a denial governs the next few words ('will not have a material adverse effect')


def sentence_polarity(sentence: str, subject_terms: Iterable[str]) -> Polarity:
    """'denies' when a denial cue (not a hedge) stands within a few words before one of the
    subject's words in the sentence, or the sentence opens with one; 'affirms' otherwise."""
    flat = _HEDGE.sub(" ", " ".join(sentence.split()))
    words = [m.group(0) for m in _WORD.finditer(flat.lower().replace("n't", " not"))]
    subject = {stem(t.lower()) for t in subject_terms}
    denials = [i for i, w in enumerate(words) if _DENIAL.fullmatch(w)]
    if not denials:
        return "affirms"
    if denials[0] <= 1:
        return "denies"  # 'No customer accounted for ...', 'None of ...'
    hits = [i for i, w in enumerate(words) if stem(w) in subject]
    return "denies" if any(0 < h - d <= _WINDOW for d in denials for h in hits) else "affirms"


def is_negated_question(question: str) -> bool:
    """True when the question itself asks about a denial ('Is X not ...?', 'Has X never ...?')."""
    flat = _HEDGE.sub(" ", question)
    return bool(re.search(r"^\s*\w+(?:\s+\w+){0,4}?\s+(?:not|never)\b|n['’]t\b", flat, re.I))


def asks_direction(question: str) -> bool:
    """True when the question asks about a movement or a comparison of figures (grow, decline,
    higher, more than, a percent): a sentence's wording is no answer to it."""
    return bool(_direction().search(movement.without_idioms(question)))
