"""A table's money scale as its header states it: '(in millions)' and the like, or a header
line opening with the scale word ('Millions, Except Per Share Amounts, ...')."""

from __future__ import annotations

import re

from finqa.lexicon.numbers import detect_scale

__all__ = ["header_scale"]

# a header line that opens with the scale word, as some filers print it above the periods:
# 'Millions, Except Per Share Amounts, for the Years Ended December 31,', 'Millions 2024 2023',
# 'Millions Common Shares Treasury Stock ... Total' over an equity matrix (never 'Millions of
# barrels', a count's unit)
_OPENING_SCALE = re.compile(
    r"^[ \t]*(?P<word>thousands|millions|billions)\b(?![ \t]+of\b(?![ \t]+(?:U\.?S\.?[ \t]+)?dollars))"
    r"(?=[ \t]*(?:,|$|\(|except\b|for\b|(?:19|20)\d\d\b|(?-i:[A-Z])))",
    re.I | re.M,
)
_SCALES = {"thousands": 1e3, "millions": 1e6, "billions": 1e9}


def header_scale(context: str) -> float | None:
    """The money scale a table's header states: '(in millions)' and the like
    (`numbers.detect_scale`), else a header line opening with the scale word ('Millions,
    Except Per Share Amounts, for the Years Ended December 31,'); None when none is stated."""
    found = detect_scale(context)
    if found:
        return found
    m = _OPENING_SCALE.search(context)
    return _SCALES[m.group("word").lower()] if m else None
