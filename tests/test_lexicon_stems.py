"""The lexicon's one stemmer (lexicon.stems): a stem's stem is itself, so a phrase stemmed twice
(a catalogue phrase's stems joined into a query that is stemmed again) still meets the sentence
words stemmed once."""

from __future__ import annotations

import pytest
from _reasoning_data import evidence
from finqa.agents.reasoning.offline.extractive import best_passages
from finqa.lexicon.stems import stem


@pytest.mark.parametrize(
    "word",
    ["repurchased", "repurchase", "repurchasing", "expenses", "liabilities", "losses",
     "materially", "cyclicality", "percentage", "decreases", "shares", "status", "basis"],
)  # fmt: skip
def test_a_stem_is_its_own_stem(word: str) -> None:
    assert stem(stem(word)) == stem(word)


def test_forms_meet_after_stemming_twice() -> None:
    """'repurchased' stemmed twice meets 'repurchase' and 'repurchasing' stemmed once."""
    twice = stem(stem("repurchased"))
    assert twice == stem("repurchase") == stem("repurchasing") == stem("repurchases")


def test_a_query_of_stems_meets_the_sentence() -> None:
    """A query made of stems (as `offline.sentences` joins a catalogue phrase's stems) is
    stemmed again by `best_passages`: 'repurchased' -> 'repurchas' still meets the sentence's
    'repurchased', and 'expenses' -> 'expens' its 'expenses'."""
    text = (
        "During the first six months of fiscal 2023, the Company repurchased 1.2 million shares "
        "of its common stock at a cost of $410.0 million. Selling, general and administrative "
        "expenses were $812.0 million."
    )
    for word, opens in (("repurchased", "During"), ("expenses", "Selling")):
        query = stem(word)
        best = best_passages(query, evidence(text, doc="ACME_2023Q2_10Q", question=query), k=1)
        assert best and best[0].text.startswith(opens), word
