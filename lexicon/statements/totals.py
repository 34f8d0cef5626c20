"""A balance sheet's uncaptioned grand totals, named by the balance sheet identity.

Some filers print total assets and total liabilities and equity as bare figures under the last
subtotal of each side ('Total other assets 32,313,586 20,047,441' then '$ 45,692,206
$ 40,899,116'; MGM Resorts). The text reader then sees a 'Total ...' row with twice the
columns. When exactly two such rows exist and their second halves are equal (assets equal
liabilities plus equity, by definition) and exceed their first halves (a grand total is larger
than the subtotal above it), the second halves are the two grand totals; otherwise nothing is
split and the rows stay skipped (never guessed).
"""

from __future__ import annotations

from finqa.lexicon.line_items import label_key
from finqa.lexicon.statements.raw import read_cell

__all__ = ["cell_values", "split_grand_totals", "TOTAL_ASSETS", "TOTAL_LIABILITIES_AND_EQUITY"]

TOTAL_ASSETS = "Total assets"
TOTAL_LIABILITIES_AND_EQUITY = "Total liabilities and equity"

Rows = list[tuple[str, list[str]]]


def cell_values(cells: list[str]) -> list[float] | None:
    """Each cell's signed figure; None when one is no figure."""
    read = [read_cell(c) for c in cells]
    return None if any(r is None for r in read) else [r[0] for r in read if r is not None]


def split_grand_totals(
    rows: Rows, headings: list[str], ncols: int
) -> tuple[Rows, list[str], str | None]:
    """(rows, headings, note): the balance sheet's rows with its two uncaptioned grand totals
    split out of the subtotal rows they were read into, each right after its subtotal; the rows
    unchanged and no note when the identity does not hold."""
    keys = {label_key(label) for label, _ in rows}
    if ncols < 1 or "totalassets" in keys:
        return rows, headings, None
    at = [
        i
        for i, (label, cells) in enumerate(rows)
        if len(cells) == 2 * ncols and label_key(label).startswith("total")
    ]
    if len(at) != 2:
        return rows, headings, None
    halves = [(cell_values(rows[i][1][:ncols]), cell_values(rows[i][1][ncols:])) for i in at]
    firsts, totals = [h[0] for h in halves], [h[1] for h in halves]
    if any(v is None for v in (*firsts, *totals)) or totals[0] != totals[1]:
        return rows, headings, None
    if not all(
        abs(t) > abs(s)
        for first, total in halves
        for s, t in zip(first or (), total or (), strict=True)
    ):
        return rows, headings, None
    out: Rows = []
    heads: list[str] = []
    names = iter((TOTAL_ASSETS, TOTAL_LIABILITIES_AND_EQUITY))
    for i, (label, cells) in enumerate(rows):
        heading = headings[i] if i < len(headings) else ""
        if i in at:
            out.extend([(label, cells[:ncols]), (next(names), cells[ncols:])])
            heads.extend([heading, ""])
        else:
            out.append((label, cells))
            heads.append(heading)
    note = (
        f"uncaptioned totals after {rows[at[0]][0][:40]!r} and {rows[at[1]][0][:40]!r} read as "
        f"{TOTAL_ASSETS!r} and {TOTAL_LIABILITIES_AND_EQUITY!r} (equal, as assets equal "
        "liabilities plus equity)"
    )
    return out, heads, note
