"""One stemmer for the lexicon's word matching: a plural or a verb's -s form first ('losses' ->
'loss', 'liabilities' -> 'liability', 'benefits' -> 'benefit'), then up to two derivational or
verbal endings ('materially' -> 'material' -> 'materi', 'decreased' and 'decrease' -> 'decreas',
'cyclicality' and 'cyclical' -> 'cyclic'). Crude on purpose: two words meet when they share a
stem, and the stem itself is never shown.

Used by the opposites of `lexicon.answer_form` and the subject words of `lexicon.polarity`."""

from __future__ import annotations

__all__ = ["stem", "singular"]

_ENDINGS = ("ality", "ity", "ly", "ing", "ed", "al", "e")
_MIN_STEM = 3


def singular(word: str) -> str:
    """A plural (or a verb's -s form) read as its base ('expenses', 'losses', 'inventories',
    'benefits'); 'loss', 'status', 'basis' stay as they are."""
    w = word.lower()
    if w.endswith("ies") and len(w) > 4:
        return w[:-3] + "y"
    if w.endswith(("sses", "xes", "ches", "shes")):
        return w[:-2]
    if w.endswith("s") and not w.endswith(("ss", "us", "is")) and len(w) > 3:
        return w[:-1]
    return w


def _one_round(word: str) -> str:
    """The word's singular, then at most two endings off, a stem of at least three letters
    kept."""
    w = singular(word)
    for _ in range(2):
        for suffix in _ENDINGS:
            if w.endswith(suffix) and len(w) - len(suffix) >= _MIN_STEM:
                w = w[: -len(suffix)]
                break
        else:
            break
    return w


def stem(word: str) -> str:
    """The word's stem ('liabilities' and 'liability' -> 'liabil', 'losses' and 'loss' ->
    'loss'): rounds of `_one_round` until one changes nothing, so that a stem's stem is itself
    (readers stem a phrase's stems again: 'repurchased' -> 'repurchas' must not go on to meet
    'repurcha' apart from it). Each round only shortens the word, so the rounds end."""
    w = word.lower()
    while (nxt := _one_round(w)) != w:
        w = nxt
    return w
