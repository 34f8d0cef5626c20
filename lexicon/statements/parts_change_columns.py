"""Change columns between a results table's period columns, dropped before it is typed.

An MD&A's table of a segment's results prints, beside each period's figures, the change
over the period before, in dollars and in percent, and says so in its header: '2020 2019
2018 $ % $ %' under 'Year Ended December 31, 2020 vs. 2019 2019 vs. 2018', or, column group
by column group, '2023 2022 23 vs. 22 23 vs. 22 2023 2022 23 vs. 22 23 vs. 22' under 'Three
months ended $ % Six months ended $ %'. No period can be read from such a header, so the
table was not read. `drop_change_columns(raw)` reads the line that names every column (years
and changes, nothing else after its caption), keeps on each row of exactly that many cells
the cells under the years, in their places, and leaves the header the periods' words only
('Three months ended Six months ended' / 'June 30, June 30,' / '2023 2022 2023 2022'). A row
of another count of cells is left as it was (the typing reads it by its own count, or not).

Such a table is an MD&A's analysis, often of one segment whose heading does not say
'segment' ('Consumer Group' over its revenue by service, equipment and other): it is noted
(`CHANGE_NOTE`), and `parts.part_tables` reads it by one segment's heading, or as parts only
under the segments' own total ('Net sales of reportable segments'), never under a bare
'Total revenues' that may be one segment's.
"""

from __future__ import annotations

import re

from finqa.lexicon.statements.raw import RawTable

__all__ = ["CHANGE_NOTE", "drop_change_columns", "is_columns_line"]

CHANGE_NOTE = "change columns dropped from the header"

_VS = r"(?:19|20)?\d{2}\s*vs\.?\s*(?:19|20)?\d{2}"
_YEAR = r"(?:19|20)\d{2}"
_TOKEN = rf"(?:{_VS}|{_YEAR}|\$|%)"
_TAIL = re.compile(rf"(?:^|\s)(?P<tail>{_TOKEN}(?:\s+{_TOKEN})+)\s*$")
_TOKENS = re.compile(_TOKEN)
# a change column's caption among a header's period words
_CHANGE_WORDS = re.compile(rf"{_VS}|(?<!\w)[$%](?!\w)|\bchanges?\b|\bvariance\b", re.I)
_ABOVE = 3  # header lines read above the columns' line
_SHORT = 80  # a longer line above is prose, not the header


def _columns(line: str) -> tuple[str, list[str]] | None:
    """(caption, column tokens) of a line naming every column by a year or a change, with two
    years or more and a change; None for any other line."""
    m = _TAIL.search(line)
    if m is None:
        return None
    tokens = _TOKENS.findall(m.group("tail"))
    years = [t for t in tokens if re.fullmatch(_YEAR, t)]
    if len(years) < 2 or len(years) == len(tokens):
        return None
    return line[: m.start("tail")].strip(), tokens


def is_columns_line(line: str) -> bool:
    """A line naming a table's columns by years and changes ('2020 2019 2018 $ % $ %')."""
    return _columns(line) is not None


def _clean(line: str) -> str:
    return " ".join(_CHANGE_WORDS.sub(" ", line).split())


def drop_change_columns(raw: RawTable) -> bool:
    """Read the change columns off `raw` in place (see the module doc); True when it did."""
    first = next((i for i, (_, cells) in enumerate(raw.rows) if len(cells) >= 2), None)
    if first is None:
        return False
    found = None
    for i in range(first + 1):  # the columns' line: a row above the figures, or its first
        label, cells = raw.rows[i]
        read = _columns(" ".join([label, *cells]))
        if read is not None and (i < first or not cells or len(cells) <= 1):
            found = (i, *read)
            break
    if found is None:
        return False
    at, caption, tokens = found
    keep = [k for k, t in enumerate(tokens) if re.fullmatch(_YEAR, t)]
    if not any(len(cells) == len(tokens) for _, cells in raw.rows[at + 1 :]):
        return False
    above: list[str] = []
    for label, cells in reversed(raw.rows[max(0, at - _ABOVE) : at]):
        if cells or len(label) > _SHORT:
            break
        above.insert(0, label)
    header = [_clean(h) for h in [*raw.header_lines, *above]]
    years = " ".join(tokens[k] for k in keep)
    raw.header_lines = [h for h in header if h] + [f"{caption} {years}".strip()]
    raw.rows = [
        (label, [cells[k] for k in keep] if len(cells) == len(tokens) else cells)
        for label, cells in raw.rows[at + 1 :]
    ]
    raw.headings = raw.headings[at + 1 :]
    raw.at = raw.at[at + 1 :]
    raw.notes.append(CHANGE_NOTE)
    return True
