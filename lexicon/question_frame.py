"""The words that frame a question rather than name its topic (data/question_frame.txt): the
verbs of asking whether a filing says something ('report', 'disclose'), the filer or the period
as a whole ('business', 'company', 'period') and the direction asked ('increase', 'drop').
What a question asks about is its other content words: a sentence sharing only frame words
with the question is not about what it asks."""

from __future__ import annotations

from finqa.lexicon._data import data_cache, read_words

__all__ = ["base_forms", "cause_frame_words", "frame_words"]


@data_cache()
def frame_words() -> frozenset[str]:
    """The question-frame words, lower case."""
    return frozenset(w.lower() for w in read_words("question_frame.txt"))


@data_cache()
def cause_frame_words() -> frozenset[str]:
    """The words of a cause question's frame around the figure asked (data/cause_frame.txt:
    'drove', 'factors', 'decline'), never the figure whose causes are searched for."""
    return frozenset(w.lower() for w in read_words("cause_frame.txt"))


@data_cache()
def base_forms() -> dict[str, str]:
    """Irregular past forms and their verbs ('paid' -> 'pay'), data/irregular_verbs.txt: a
    question asks in the base form what a filing states in the past."""
    pairs = (line.split() for line in read_words("irregular_verbs.txt"))
    return {p[0].lower(): p[1].lower() for p in pairs if len(p) == 2}
