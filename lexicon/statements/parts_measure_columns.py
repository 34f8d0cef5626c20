"""A segment table printing one column group per measure, restacked as one block per measure.

A segment note often prints each part's measures side by side: a caption line naming the
measures ('Net Revenue Operating Profit') over one period line repeating the years for each
('2020 2019 2018 2020 2019 2018'), then one row per part with every group's figures
('Alpha $ 18,189 $ 17,078 $ 16,346 $ 5,340 $ 5,258 $ 5,008'). Read as printed, the years
repeat and no measure is named, so the table holds no part's figure.

`split_measure_groups(raw, lines)` reads such a table as the layout of line-item headings over
the same parts (`parts._item_blocks`): a heading row per measure, then each row with that
group's cells, and the header's years once. It applies only when the layout says so, never by
a filing's names:

- the header's last line is of years only, `k` equal groups of the same years (`k >= 2`);
- the line right above it, or else the caption rows between it and the first row of figures
  ('Net revenues' / 'Operating income and income before income tax expense'), split in order
  into `k` captions each naming an income-statement amount by its whole caption
  (`parts.heading_flow`: 'Net Revenue', 'Operating Profit', 'Adjusted EBIT'), or by its
  first of two amounts joined by 'and' (a column that is the segments' operating income and
  the company's pre-tax income on the reconciling rows): words of the catalogue, not of one
  filing;
- a row keeps its figures only when it prints a cell for every column; a row of another count
  (a footnote, a caption) is kept without figures.

Anything else leaves the table as it was.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from finqa.lexicon.statements.raw import RawTable

__all__ = ["split_measure_groups", "measure_captions"]

_YEAR = re.compile(r"(?:19|20)\d{2}")
_MAX_WORDS = 12  # a caption line longer than this is prose, not the measures' captions


def _year_groups(line: str) -> tuple[list[str], int] | None:
    """(the years of one group, the number of groups) of a header line of years only that
    repeats the same years group after group; None for any other line."""
    tokens = line.split()
    if len(tokens) < 4 or not all(_YEAR.fullmatch(t) for t in tokens):
        return None
    for size in range(2, len(tokens) // 2 + 1):
        if len(tokens) % size:
            continue
        first = tokens[:size]
        if len(set(first)) != size:
            continue
        groups = [tokens[i : i + size] for i in range(0, len(tokens), size)]
        if all(g == first for g in groups):
            return first, len(groups)
    return None


def measure_captions(line: str, k: int) -> list[str] | None:
    """The `k` measure captions a caption line names in order ('Net Revenue Operating Profit'
    -> ['Net Revenue', 'Operating Profit']), each an income-statement amount by its whole
    caption; None when no one split of the words gives `k` such captions."""
    from finqa.lexicon.statements.parts import heading_flow

    words = line.split()
    if k < 2 or len(words) < k or len(words) > _MAX_WORDS:
        return None
    found: list[list[str]] = []

    def named(piece: str) -> bool:
        if heading_flow(piece) is not None:
            return True
        first, joined, _rest = piece.partition(" and ")
        return bool(joined) and heading_flow(first) is not None

    def split(start: int, left: int, acc: list[str]) -> None:
        if left == 1:
            piece = " ".join(words[start:])
            if named(piece):
                found.append([*acc, piece])
            return
        for end in range(start + 1, len(words) - left + 2):
            piece = " ".join(words[start:end])
            if heading_flow(piece) is not None:
                split(end, left - 1, [*acc, piece])

    split(0, k, [])
    if len(found) != 1:
        return None
    # each caption as the amount it names: the first of two joined by 'and'
    return [p if heading_flow(p) is not None else p.partition(" and ")[0] for p in found[0]]


def split_measure_groups(raw: RawTable, lines: Sequence[str]) -> bool:
    """Restack `raw` (in place) as one heading block per measure when its header repeats the
    same years once per measure the line above names (see the module); True when it did."""
    if not raw.header_lines:
        return False
    head = raw.header_lines[-1]  # the years' line, under a 'Years Ended December 31,'
    groups = _year_groups(head)
    if groups is None:
        return False
    years, k = groups
    above = next((lines[i - 1] for i, ln in enumerate(lines) if ln == head and i), None)
    captions = measure_captions(above, k) if above else None
    lead = 0  # caption rows under the header, before the first row of figures
    if captions is None:
        lead = next((i for i, (_, cells) in enumerate(raw.rows) if cells), 0)
        below = " ".join(label for label, _ in raw.rows[:lead])
        captions = measure_captions(below, k) if lead else None
    if captions is None:
        return False
    n = len(years)
    rows: list[tuple[str, list[str]]] = []
    for g, caption in enumerate(captions):
        rows.append((caption, []))
        for label, cells in raw.rows[lead:]:
            if len(cells) == n * k:
                rows.append((label, cells[g * n : (g + 1) * n]))
            elif g == 0:
                rows.append((label, []))
    raw.rows = rows
    raw.header_lines = [*raw.header_lines[:-1], " ".join(years)]
    raw.headings = [""] * len(rows)
    raw.at = []
    raw.notes.append(f"{k} measures' column groups ({', '.join(captions)}) read as blocks")
    return True
