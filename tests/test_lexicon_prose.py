"""Sentence ends in filing prose: abbreviations with periods do not end a sentence."""

from __future__ import annotations

import pytest
from finqa.agents.reasoning.offline.extractive import prose_sentences
from finqa.lexicon.prose import split_sentences


class TestSplitSentences:
    @pytest.mark.parametrize(
        "text",
        [
            "She served as President of U.S. Cellular Corporation from 2010 through 2013.",
            "Mary N. Dillon, 61, has been appointed President and Chief Executive Officer.",
            "Foot Locker, Inc. and its subsidiaries operate athletic footwear stores.",
            "The matter is described in Note No. 5 to the financial statements.",
            "Mr. Johnson will step down as Chief Executive Officer on September 1.",
            "Costs rose for several reasons, e.g. Freight and labor, in the year.",
        ],
    )
    def test_abbreviation_inside_a_sentence(self, text: str) -> None:
        """A period closing an abbreviation before a name or a noun keeps the sentence whole."""
        assert split_sentences(text) == [text]

    def test_abbreviation_that_ends_a_sentence(self) -> None:
        """'Inc.' or 'U.S.' before a word that opens a sentence ends it there."""
        text = "She was Executive Chair of Ulta Beauty, Inc. She previously served as its CEO."
        assert split_sentences(text) == [
            "She was Executive Chair of Ulta Beauty, Inc.",
            "She previously served as its CEO.",
        ]
        assert split_sentences("Sales grew in the U.S. The rest fell.") == [
            "Sales grew in the U.S.",
            "The rest fell.",
        ]

    def test_ordinary_ends_quotes_and_paragraphs(self) -> None:
        """Full stops, question marks, closing quotes and blank lines end sentences."""
        text = 'Revenue rose. Did margins? "They fell." Next\n\nA new paragraph'
        assert split_sentences(text) == [
            "Revenue rose.",
            "Did margins?",
            '"They fell."',
            "Next",
            "A new paragraph",
        ]

    def test_empty_text(self) -> None:
        assert split_sentences("") == [] and split_sentences("  \n\n ") == []


class TestExtractiveSentences:
    def test_quoted_sentence_is_not_cut_at_us(self) -> None:
        """The offline reasoner quotes a whole sentence that names the U.S."""
        text = (
            "Previously, Ms. Dillon served as President and Chief Executive Officer of U.S. "
            "Cellular Corporation from 2010 through 2013 and held several other positions."
        )
        assert prose_sentences(text) == [" ".join(text.split())]
