"""A caption's key: letters only, lower case, note references dropped (`label_key`), how the
catalogue, its caption support and every statement reader compare captions."""

from __future__ import annotations

import re

__all__ = ["label_key", "borrowed_caption"]

# a figure cell at the end of a caption: '12,662,919', '(10,202)', '$ 1,234.5'
_TRAILING_CELL = re.compile(r"\s+\(?\$?\s?(\d{1,3}(?:,\d{3})+(?:\.\d+)?)\)?\s*$")
_NOTE_REF = re.compile(r"\((?:note|notes|see)[^)]*\)|\([a-z0-9]\)", re.I)  # (Note 5), (a), (1)


def label_key(text: str) -> str:
    """Letters only, lower case, note references dropped: 'Cost of goods sold (Note 3)' and
    'Costofgoodssold' both -> 'costofgoodssold'."""
    return re.sub(r"[^a-z]", "", _NOTE_REF.sub(" ", text).lower())


def borrowed_caption(label: str, values: tuple[float, ...] = ()) -> bool:
    """The caption ends in figure cells that are not the row's own `values` (as filed): the
    caption and its figures were read as one line of text, and the figures the row holds are
    those of the next, uncaptioned row ('Total stockholders' equity 12,662,919 10,469,791'
    holding the unlabelled total of liabilities and equity). Such a row has no caption of its
    own, so no line item's identity."""
    cells: list[float] = []
    rest = label
    while (m := _TRAILING_CELL.search(rest)) is not None:
        cells.append(float(m.group(1).replace(",", "")))
        rest = rest[: m.start()]
    if not cells or not rest.strip():
        return False
    own = {round(abs(v), 2) for v in values}
    return not all(round(c, 2) in own for c in cells)
