"""Per-chunk statistics the finance reranker reads, computed once at ingest.

A candidate's number density (a table reads as numbers) and whether its page prints its section
title depend only on the filing, not on the question, so they are computed when a filing's BM25
partition is built (ingest, or a rebuild from the chunk store) and stored in the partition beside
its postings; at query time the reranker reads arrays instead of re-reading every candidate. An
index built before this (partitions without them) falls back to computing them per candidate.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import numpy as np

__all__ = ["number_density", "page_titles", "letters"]

_NUMBER = re.compile(r"\(?-?\$?\d[\d,]*(?:\.\d+)?\)?%?")
_DROP_ASCII = {c: None for c in range(128) if not 97 <= c <= 122}  # all but a-z


def number_density(text: str) -> float:
    """Share of numbers among the words (x 2.5, capped at 1): ~1 for a table, ~0 for prose."""
    words = len(text.split()) or 1
    return min(len(_NUMBER.findall(text)) / words * 2.5, 1.0)


def letters(text: str) -> str:
    """The text's letters only, lower-cased ('Balance Shee t' -> 'balancesheet')."""
    low = text.lower()
    if low.isascii():  # the usual case (ASCII letters are exactly a-z once lowered)
        return low.translate(_DROP_ASCII)
    return "".join(ch for ch in low if ch.isalpha())


def page_titles(rows: Sequence[tuple[int, str | None, str]]) -> np.ndarray:
    """For (page, section, text) of a filing's chunks in order: whether the chunk's page shows
    its section title (headings are carried across pages at ingest; a statement title only
    describes the page that prints it, read from the page's first chunk)."""
    first: dict[int, str] = {}
    for page, _, text in rows:
        if page not in first:
            first[page] = letters(text)
    out = np.zeros(len(rows), dtype=bool)
    for i, (page, section, _) in enumerate(rows):
        if section:
            out[i] = letters(section) in first[page]
    return out
