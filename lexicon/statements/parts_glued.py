"""A line item's heading printed on the line of the first part under it.

A segment note read as text can lose the line break between a heading over parts and the
first part: 'Net sales: North America Retail $ 10,115.4 ...', then 'Convenience Stores &
Foodservice 1,930.2 ...' and 'Total'. `split_glued_headings(raw)` puts the heading back on a
row of its own ('Net sales:' over 'North America Retail'), so the blocks reader
(`parts.part_tables`) sees the same parts under each line item. A row is split only where
the words before the colon are an income-statement amount's caption (`parts.heading_flow`)
and the words after it name no line item: 'Revenues: Products' stays one row when 'Products'
is not a part of a heading the table repeats (the blocks reader still asks for two blocks
whose rows add up to their totals).
"""

from __future__ import annotations

import re

from finqa.lexicon.statements.raw import RawTable, RowAt

__all__ = ["split_glued_headings"]

_GLUED = re.compile(r"^(?P<head>[A-Za-z][^:]{2,60}):\s+(?P<rest>[A-Z]\S.*)$")


def split_glued_headings(raw: RawTable) -> None:
    """Each row 'Heading: Part' with figures split in place into the heading (no figures)
    and the part's row; `headings` and `at` follow the rows."""
    from finqa.lexicon.statements.parts import heading_flow, row_item

    out_rows: list[tuple[str, list[str]]] = []
    heads: list[str] = []
    ats: list[RowAt] = []
    changed = False
    for i, (label, cells) in enumerate(raw.rows):
        m = _GLUED.match(label.strip()) if cells else None
        if (
            m is not None
            and heading_flow(m.group("head")) is not None
            and row_item(m.group("rest")) is None
            and heading_flow(m.group("rest")) is None
        ):
            changed = True
            out_rows += [(m.group("head") + ":", []), (m.group("rest"), cells)]
            if i < len(raw.headings):
                heads += [raw.headings[i], raw.headings[i]]
            if i < len(raw.at):
                ats += [RowAt(caption=None, cells=()), raw.at[i]]
            continue
        out_rows.append((label, cells))
        if i < len(raw.headings):
            heads.append(raw.headings[i])
        if i < len(raw.at):
            ats.append(raw.at[i])
    if changed:
        raw.rows = out_rows
        raw.headings = heads if raw.headings else raw.headings
        raw.at = ats if raw.at else raw.at
