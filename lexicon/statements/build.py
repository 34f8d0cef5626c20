"""Raw grids (label + cell texts per row, header lines) -> typed `StatementTable`s.

Shared by the PDF (`find_tables`) and the text reader. Cells are read by
`finqa.lexicon.numbers.parse_quantity`, the scale by `detect_scale`, the periods by
`header.read_header`. A row whose number of cells does not match the columns is
skipped and noted (never guessed); a table with no readable period is not typed.
"""

from __future__ import annotations

import re

from finqa.lexicon.cash_basis import paid_under
from finqa.lexicon.model import (
    StatementFact,
    StatementKind,
    StatementPeriod,
    StatementTable,
    StatementUnit,
)
from finqa.lexicon.numbers import count_scale
from finqa.lexicon.statements.balances import balance_period, balance_side
from finqa.lexicon.statements.catalogue import item_for_label
from finqa.lexicon.statements.header import read_header
from finqa.lexicon.statements.raw import (
    DASHES,
    FOOTNOTE_MARK,
    NOT_MEANINGFUL,
    BuildFailure,
    RawTable,
    read_cell,
)
from finqa.lexicon.statements.scale import header_scale
from finqa.lexicon.statements.totals import split_grand_totals

__all__ = [
    "RawTable",
    "BuildFailure",
    "build_table",
    "read_cell",
    "row_unit",
    "DASHES",
]

_PER_SHARE = re.compile(
    r"\bper\s+(?:common\s+|ordinary\s+|diluted\s+|basic\s+)?share\b|\beps\b", re.I
)
_SHARES = re.compile(r"\bshares\b|\bshare\s+count\b", re.I)
_MONEY = re.compile(r"\$|amount|value|cost|equity|capital|dividend", re.I)
# words of a caption that describe the stock, not a per-share figure: 'Common stock, $1 par
# value per share', 'Cash dividends declared ($1.96, $1.96 and $1.96 per share)'
# and the table's scale note read as a heading row ('(In millions, except per share amounts)'
# printed under the period header: it says which rows are not in millions, not that all are
# per share)
_NOT_PER_SHARE = re.compile(
    r"\b(?:par|stated)\s+value\b[^;:]{0,40}?\bper\s+share\b|\([^)]*\$\s*\d[^)]*\)|"
    r"\bexcept\s+(?:for\s+)?(?:the\s+)?per[-\s]share\b",
    re.I,
)
# statements of amounts: a balance sheet's or cash-flow statement's figures are money unless the
# row's own caption is per share; the share counts and headings there are words of a caption
# ('Common stock, $0.50 par value per share; Shares issued: 1,726 million' 863)
_AMOUNTS_ONLY = frozenset({"balance", "cashflow"})
# an earnings amount named by whom it goes to ('Earnings available to common shareholders',
# 'Net income allocated to participating securities'): under an earnings-per-share heading it is
# the numerator, an amount in the table's scale, not a per-share figure
_OWNERS_AMOUNT = re.compile(
    r"\b(?:income|earnings|loss)\b.*\b(?:available|attributable|allocated|applicable)\s+(?:to|for)\b",
    re.I,
)
_UNAUDITED = re.compile(r"\bunaudited\b", re.I)


_PERCENT_CELL = re.compile(r"^\(?-?\d[\d,]*(?:\.\d+)?\s*%\)?$")


def row_unit(
    label: str,
    heading: str,
    cell_unit: str,
    amounts_scale: float,
    kind: StatementKind | None = None,
) -> tuple[StatementUnit, float]:
    """Unit and scale of one row: per-share rows are never scaled, share counts take the scale
    their caption or heading states ('Shares used in calculation (000s)') else the table's ('in
    millions, except per share'), percent cells are percent; every row of a balance sheet or
    cash-flow statement (`kind`) is an amount."""
    if cell_unit == "%":
        return "%", 1.0
    label, heading = _NOT_PER_SHARE.sub(" ", label), _NOT_PER_SHARE.sub(" ", heading)
    if kind in _AMOUNTS_ONLY:  # only a caption that says so is per share there
        return ("USD/share", 1.0) if _PER_SHARE.search(label) else ("USD", amounts_scale)
    if _PER_SHARE.search(label) or (
        _PER_SHARE.search(heading)
        and not _SHARES.search(label)
        and not _OWNERS_AMOUNT.search(label)
    ):
        return "USD/share", 1.0
    if _SHARES.search(label) and not _MONEY.search(label):
        return "shares", count_scale(label) or amounts_scale
    if _SHARES.search(heading) and not _MONEY.search(heading) and len(label.split()) <= 3:
        # 'Basic' under 'Weighted-average shares outstanding', in the scale the heading
        # states for its counts ('Shares used in calculation (000s)') or the table's
        return "shares", count_scale(heading) or count_scale(label) or amounts_scale
    return "USD", amounts_scale


def _item(label: str, unit: StatementUnit) -> str | None:
    """Catalogue id of a row; a bare 'Basic' / 'Diluted' is read with the row's unit."""
    if unit in ("USD/share", "shares") and len(label.split()) <= 2:
        noun = "earnings per share" if unit == "USD/share" else "shares"
        return item_for_label(f"{label} {noun}")
    return item_for_label(label)


def _without_marks(cells: list[str], ncols: int) -> list[str]:
    """A row's cells without the footnote markers '(1)' printed after its label, and without
    the percent-of-sales cell a release prints after each period's amount ('Net sales
    $ 2,529,809 100.0% $ 2,297,113 100.0%' under two period columns)."""
    if len(cells) > ncols and all(FOOTNOTE_MARK.match(c) for c in cells[: len(cells) - ncols]):
        return cells[len(cells) - ncols :]
    if len(cells) == 2 * ncols and all(
        _PERCENT_CELL.match(share) and not _PERCENT_CELL.match(amount)
        for amount, share in zip(cells[::2], cells[1::2], strict=True)
    ):
        return cells[::2]
    if ncols == 2 and len(cells) in (3, 4) and _change_cells(cells):
        return cells[:2]
    return cells


def _change_cells(cells: list[str]) -> bool:
    """The cells after a current and a prior period's figures are the change between them, as
    a release prints it under 'Inc/ (Dec)' or '% Change' ('$ 2,487.0 $ 2,112.8 $ 374.2 18 %'):
    the first is the difference of the two figures (or, alone, their change in percent) to its
    printed rounding, and any second one a percent or 'n/m'. Confirmed by the arithmetic on each
    row, so a third period's column is never taken for one."""
    read = [read_cell(c) for c in cells[:3]]
    if any(r is None for r in read) or not _DIGITS.search(cells[2]):
        return False
    (now, _n, _u), (before, _b, _v), (change, _c, _w) = read  # type: ignore[misc]
    # the change's rounding and each period figure's
    tol = 0.5 * 10 ** -_decimals(cells[2]) + 10 ** -_decimals(cells[0]) + 1e-9
    if len(cells) == 4 and cells[3].lower() not in NOT_MEANINGFUL and read_cell(cells[3]) is None:
        return False
    if bool(abs(abs(change) - abs(now - before)) <= tol):
        return True
    if len(cells) == 3 and before:
        return bool(abs(abs(change) - abs(now - before) / abs(before) * 100) <= tol + 0.5)
    return False


def _decimals(cell: str) -> int:
    m = re.search(r"\.(\d+)", cell)
    return len(m.group(1)) if m else 0


_DIGITS = re.compile(r"\d")


def _as_matrix(
    raw: RawTable, skipped: int, rows: int, doc_id: str, table_id: str, company: str | None
) -> StatementTable | None:
    """A statement of equity whose header names the span, not its columns (one 'Fiscal Second
    Quarter Ended' over a matrix of components, most rows too wide for it): read as the matrix
    it is (`equity.build_equity`); None for any other table."""
    if raw.kind != "equity" or skipped * 2 <= rows:
        return None
    from finqa.lexicon.statements.equity import build_equity

    matrix = build_equity(raw, doc_id=doc_id, table_id=table_id, company=company)
    return matrix if isinstance(matrix, StatementTable) else None


def build_table(
    raw: RawTable, *, doc_id: str, table_id: str, company: str | None = None
) -> StatementTable | BuildFailure:
    """Type one raw table: periods from the header, values in base units, catalogue ids."""
    header = read_header(raw.header_lines, raw.kind, company)
    if (header is None or not header.periods) and raw.kind == "equity":
        from finqa.lexicon.statements.equity import build_equity

        return build_equity(raw, doc_id=doc_id, table_id=table_id, company=company)
    if header is None or not header.periods:
        return BuildFailure(raw.page, raw.kind, raw.title, "no period header could be read")
    periods: tuple[StatementPeriod, ...] = header.periods
    if _UNAUDITED.search(raw.title) or _UNAUDITED.search(raw.context[:400]):
        periods = tuple(p.model_copy(update={"unaudited": True}) for p in periods)
    ncols = len(periods)
    scale = header_scale(raw.context) or 1.0
    facts: list[StatementFact] = []
    labels: list[str] = []
    notes = list(raw.notes)
    skipped = 0
    rows, headings = raw.rows, raw.headings
    if raw.kind == "balance":
        rows, headings, split = split_grand_totals(rows, headings, ncols)
        if split:
            notes.append(split)
    for r, (label, cells) in enumerate(rows):
        labels.append(label)
        if not cells:
            continue
        cells = _without_marks(cells, ncols)
        values = [read_cell(c) if c else None for c in cells]
        if len(values) != ncols or any(v is None and c for v, c in zip(values, cells, strict=True)):
            skipped += 1
            if len(notes) < 20:
                notes.append(f"row {label[:40]!r}: {len(cells)} cells for {ncols} columns, skipped")
            continue
        heading = headings[r] if r < len(headings) else ""
        row_item = _item(label, row_unit(label, heading, "", scale, raw.kind)[0])
        item = paid_under(heading, row_item, label, item_for_label)
        side = balance_side(label)  # an opening / closing balance is an instant
        row_periods = [(balance_period(p, side) if side else None) or p for p in periods]
        for c, (cell, parsed) in enumerate(zip(cells, values, strict=True)):
            if parsed is None:  # a blank grid cell: no figure for this period
                continue
            value, negative, cell_unit = parsed
            unit, row_scale = row_unit(label, heading, cell_unit, scale, raw.kind)
            facts.append(
                StatementFact(
                    doc_id=doc_id,
                    statement=raw.kind,
                    table_id=table_id,
                    table_title=raw.title,
                    label=label,
                    item=item,
                    period=row_periods[c],
                    value=value * row_scale,
                    unit=unit,
                    scale=row_scale,
                    negative=negative,
                    page=raw.page,
                    row=r,
                    column=c,
                    raw=cell.strip(),
                    source="pdf" if raw.source == "pdf" else "text",
                )
            )
    matrix = _as_matrix(raw, skipped, len(rows), doc_id, table_id, company)
    if matrix is not None:
        return matrix
    if not facts:
        return BuildFailure(
            raw.page, raw.kind, raw.title, f"no row matched the {ncols} period columns"
        )
    if skipped:
        notes.append(f"{skipped} of {len(rows)} rows skipped (cells did not match columns)")
    return StatementTable(
        table_id=table_id,
        doc_id=doc_id,
        statement=raw.kind,
        title=raw.title,
        pages=raw.pages or (raw.page,),
        unit="USD",
        scale=scale,
        periods=periods,
        labels=tuple(labels),
        facts=tuple(facts),
        source="pdf" if raw.source == "pdf" else "text",
        notes=tuple(notes),
    )
