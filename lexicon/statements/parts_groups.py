"""A segment table's groups of rows folded into one row per part, before its parts are read.

Extracted text prints a part that has parts of its own as a group of rows, and the group's
figure is the one the part is asked by:

- a heading without figures over the group's rows, closed by an uncaptioned subtotal equal to
  their sum in every column ('Data Center Group' / 'Platform' / 'Adjacent' / the group's
  figures on a line of their own), or by a 'Total X' row naming the heading ('Parcel
  segment:' ... 'Total Parcel segment'; nested groups fold first); a region over places that
  add up to its 'Total X' ('Americas:' / 'United States' / 'Other' / 'Total Americas') stays as
  printed: its places are the company's parts too (`parts` reads them);
- an uncaptioned subtotal line glued to the caption of the row above it by the text reader
  ('Adjacent 3,047 2,040 1,836' holding the subtotal's cells): the caption's own figures are
  the trailing numbers of the caption, one per column, and the cells are the subtotal's.

`folded(table)` returns the table with each group as one row named by its heading and holding
its total; the rows that are no group stay as they were. Nothing here names a filing's parts:
the heading, its rows and their sum (or the 'Total' of the heading's own words) are the layout.
"""

from __future__ import annotations

import re

from finqa.lexicon.model import StatementFact, StatementTable

__all__ = ["folded"]

_Row = tuple[str, tuple[StatementFact, ...]]  # caption, its figures (none for a heading)


def _unglued(table: StatementTable) -> list[_Row]:
    """The table's rows, an uncaptioned subtotal glued to the caption above split off."""
    from finqa.lexicon.statements.raw import read_cell
    from finqa.lexicon.statements.text import split_row

    by_row: dict[int, list[StatementFact]] = {}
    for f in table.facts:
        by_row.setdefault(f.row, []).append(f)
    out: list[_Row] = []
    for r, label in enumerate(table.labels):
        facts = tuple(sorted(by_row.get(r, ()), key=lambda f: f.column))
        caption, cells = split_row(label) if facts else (label, [])
        read = [read_cell(c) for c in cells]
        marker = any(re.fullmatch(r"\(?\d\)?", c.strip()) for c in cells)  # 'Europe (1)'
        if facts and caption and not marker and len(cells) == len(facts) and all(v is not None for v in read):  # fmt: skip
            own = tuple(
                f.model_copy(
                    update={"label": caption, "value": v[0] * f.scale, "negative": v[1], "raw": c}
                )
                for f, c, v in zip(facts, cells, read, strict=True)
                if v is not None
            )
            out.append((caption, own))
            out.append(("", tuple(f.model_copy(update={"label": ""}) for f in facts)))
        else:
            out.append((label, facts))
    return out


def _same_name(a: str, b: str) -> bool:
    from finqa.lexicon.statements.parts import part_name

    return bool(a) and part_name(a).lower() == part_name(b).lower()


def _sums(rows: list[_Row], total: tuple[StatementFact, ...]) -> bool:
    from finqa.lexicon.statements.parts import close_enough

    if not rows or not total or any(len(facts) != len(total) for _, facts in rows):
        return False
    return all(
        t.value != 0 and close_enough(sum(facts[c].value for _, facts in rows), t.value)
        for c, t in enumerate(total)
    )


def _heading(out: list[_Row], total_label: str) -> int | None:
    """Where the group a total row closes starts: the nearest heading (a row without figures
    that names no line item) above it, with only rows of figures between; for a 'Total X'
    row, the nearest heading named X."""
    from finqa.lexicon.statements.parts import TOTAL_ROW, caption_item, row_item

    named = bool(total_label.strip()) and bool(TOTAL_ROW.match(total_label))
    for j in range(len(out) - 1, -1, -1):
        label, facts = out[j]
        if facts:
            continue
        heading = label.strip() and row_item(label) is None and caption_item(label) is None
        if named:  # 'Revenues:' over 'Total revenues' is a line item's block, no group
            if heading and _same_name(label, total_label):
                return j
            continue
        return j if heading and j < len(out) - 1 else None
    return None


def _places(table: StatementTable, label: str) -> bool:
    from finqa.lexicon.statements.parts import groups_places, part_name

    return groups_places(table, part_name(label))


def folded(table: StatementTable) -> StatementTable:
    """The table with each group of rows under a heading as one row (see the module doc)."""
    from finqa.lexicon.statements.parts import part_name

    out: list[_Row] = []
    rows = _unglued(table)
    changed = len(rows) != len(table.labels)
    for label, facts in rows:
        j = _heading(out, label) if facts and (not label.strip() or label[:1].isalpha()) else None
        if j is not None and label.strip() and not _same_name(out[j][0], label):
            j = None
        if j is not None and label.strip() == "" and not _sums(out[j + 1 :], facts):
            j = None
        if j is not None and label.strip() and _sums(out[j + 1 :], facts) and _places(table, label):
            j = None  # 'Americas:' / rows / 'Total Americas': a region's places, read as such
        if j is not None:
            name = part_name(out[j][0])
            out[j:] = [(name, tuple(f.model_copy(update={"label": name}) for f in facts))]
            changed = True
            continue
        out.append((label, facts))
    if not changed:
        return table
    kept: list[StatementFact] = []
    for r, (_, facts) in enumerate(out):
        kept += [f.model_copy(update={"row": r}) for f in facts]
    return table.model_copy(
        update={"labels": tuple(label for label, _ in out), "facts": tuple(kept)}
    )
