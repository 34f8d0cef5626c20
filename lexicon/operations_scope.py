"""The scope of operations a figure covers: a filer that reports a discontinued operation
prints each affected line twice, once for continuing operations ('Net cash provided by
continuing operating activities', 'Income from continuing operations before income taxes')
and once in total ('Net cash provided by operating activities'). A question that asks the
continuing-operations figure ('free cash flow from continuing operations', 'the effective tax
rate on income from continuing operations') is answered from the continuing line wherever the
filing prints one; the total line answers another question.

One place for this reading: the words that name the scope, and which printed row is the
continuing-operations variant of a line.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

__all__ = ["asks_continuing", "continuing_variant", "names_continuing"]

_CONTINUING = re.compile(r"\bcontinuing\s+(?:operations|operating|business(?:es)?)\b", re.I)
_SCOPE_WORDS = frozenset({"continuing", "from", "operations", "operation"})
_WORD = re.compile(r"[a-z]+")


def asks_continuing(question: str) -> bool:
    """The question asks a continuing-operations figure ('from continuing operations',
    'net cash provided by continuing operating activities')."""
    return bool(_CONTINUING.search(question))


def names_continuing(caption: str) -> bool:
    """A caption of the continuing-operations line ('... from continuing operations', '...
    continuing operating activities')."""
    return bool(re.search(r"\bcontinuing\b", caption, re.I))


def _words(caption: str) -> frozenset[str]:
    return frozenset(_WORD.findall(caption.lower())) - _SCOPE_WORDS


def continuing_variant(caption: str, labels: Iterable[str]) -> str | None:
    """The printed row that is `caption`'s line for continuing operations ('Net cash provided
    by continuing operating activities' for 'Net cash provided by operating activities'): a
    row naming continuing operations whose words, the scope's set aside, are the caption's;
    None when `caption` names the scope itself or the filing prints no such row."""
    if names_continuing(caption):
        return None
    own = _words(caption)
    if not own:
        return None
    for label in labels:
        if names_continuing(label) and _words(label) == own:
            return label
    return None
