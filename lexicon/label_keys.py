"""A caption's key: letters only, lower case, note references dropped (`label_key`), how the
catalogue, its caption support and every statement reader compare captions."""

from __future__ import annotations

import re

__all__ = ["label_key"]

_NOTE_REF = re.compile(r"\((?:note|notes|see)[^)]*\)|\([a-z0-9]\)", re.I)  # (Note 5), (a), (1)


def label_key(text: str) -> str:
    """Letters only, lower case, note references dropped: 'Cost of goods sold (Note 3)' and
    'Costofgoodssold' both -> 'costofgoodssold'."""
    return re.sub(r"[^a-z]", "", _NOTE_REF.sub(" ", text).lower())
