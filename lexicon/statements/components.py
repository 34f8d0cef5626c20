"""A line item and its printed components in one statement table: two routes to one figure.

Statements print a line's parts under a heading that names the line (a row with a caption and no
figures), and mostly a total after them:

- a heading over its parts with a total ('Current assets:' / 'Cash and cash equivalents 689' /
  ... / 'Total current assets 5,308'): the total as printed and the sum of the rows between
  the heading and the total are two routes to the same figure (`printed_whole`); they agree
  within the printed rounding (each figure rounded to the last digit it prints) or the table
  contradicts itself. A sub-heading between them ('Inventories, net' over its two lines) is
  one of the parts; a nested total closes its own rows (they are counted once, by it);
- a heading over its parts with no total ('Inventories, net' / 'Raw materials and supplies
  992' / 'Work in process and finished goods 1,221', then the statement's next line): the
  heading names a catalogue line item, the rows right under it are named by none (parts of
  it, not lines of their own), the next row is a line of its own, and the table prints no
  figure of that item: the line is the parts' sum, a figure derived from components with the
  lines used (`derived_wholes`). A run ended by a total row is a totalled heading: its total
  is printed, nothing is derived.

Pure functions over a `StatementTable`; nothing is guessed where the layout does not say it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from finqa.lexicon.model import StatementFact, StatementPeriod, StatementTable
from finqa.lexicon.statements.balances import balance_side

__all__ = ["Whole", "derived_wholes", "printed_whole", "printed_rounding", "whole_item"]

_TOTAL = re.compile(r"^\s*total", re.I)  # 'Total revenues', and PDF text's 'Totalrevenues'
_DECIMALS = re.compile(r"\.(\d+)")
# natures a flat sum does not add into a statement's totals (their printed signs vary)
_AGAINST = {"income": ("expense", "loss"), "balance": ("liability",)}
# the natures of a heading's line whose parts a table may print with no total, by statement
_WHOLES = {"balance": ("asset", "liability"), "income": ("revenue", "expense")}
_LESS = re.compile(r"^\s*less\b", re.I)


@dataclass(frozen=True)
class Whole:
    """One line item's figure for one column and the printed components it is the sum of.

    `total` is the printed total's fact (None when the figure is derived: the table prints no
    total); `parts` the component rows' facts in filed order; `value` the parts' sum (base
    units); `tolerance` the printed rounding of the parts and the total together."""

    item: str
    caption: str  # the heading's caption as filed ('Inventories, net')
    parts: tuple[StatementFact, ...]
    value: float
    tolerance: float
    total: StatementFact | None = None

    @property
    def derived(self) -> bool:
        return self.total is None

    @property
    def agrees(self) -> bool:
        """Do the printed total and the sum of its parts agree within the printed rounding?"""
        return self.total is None or abs(self.total.value - self.value) <= self.tolerance

    @property
    def period(self) -> StatementPeriod:
        return self.parts[0].period

    def lines(self) -> str:
        """'Raw materials and supplies 992 + Work in process and finished goods 1,221'."""
        return " + ".join(f"{f.label} {f.raw}" for f in self.parts)

    def fact(self) -> StatementFact:
        """The whole as one fact of the table: the printed total, else the parts' sum read at
        the heading's row, its label saying it is derived and from which lines."""
        if self.total is not None:
            return self.total
        first = self.parts[0]
        return first.model_copy(
            update={
                "label": f"{self.caption} (sum of components: {self.lines()})",
                "item": self.item,
                "value": self.value,
                "negative": self.value < 0,
                "row": first.row - 1,
                "raw": " + ".join(f.raw for f in self.parts),
                "concept": None,
            }
        )


def whole_item(caption: str) -> str | None:
    """The catalogue line item a heading's caption names ('Inventories, net:' -> inventory)."""
    from finqa.lexicon.statements.catalogue import item_for_label

    text = caption.strip().rstrip(":").strip()
    return item_for_label(text) if text else None


def printed_rounding(fact: StatementFact) -> float:
    """Half the unit of the last digit a figure prints, in base units ('1,221' in millions:
    0.5e6; '12.5' in millions: 0.05e6): the most its printed value can differ from its own."""
    match = _DECIMALS.search(fact.raw or "")
    digits = len(match.group(1)) if match else 0
    return 0.5 * float(fact.scale or 1.0) * 10.0**-digits


def _rows(table: StatementTable) -> dict[int, list[StatementFact]]:
    rows: dict[int, list[StatementFact]] = {}
    for f in table.facts:
        if not f.dimensions:
            rows.setdefault(f.row, []).append(f)
    return rows


def _skipped(table: StatementTable, label: str) -> bool:
    """A row the reader skipped (its cells did not fit the columns) is no heading."""
    mark = f"row {label[:40]!r}:"
    return any(n.startswith(mark) for n in table.notes)


def _heading(table: StatementTable, rows: dict[int, list[StatementFact]], r: int) -> bool:
    label = table.labels[r]
    return r not in rows and bool(label.strip()) and not _skipped(table, label)


def _cell(facts: Sequence[StatementFact], column: int) -> StatementFact | None:
    return next((f for f in facts if f.column == column), None)


def _whole(
    item: str,
    caption: str,
    parts: Sequence[list[StatementFact]],
    column: int,
    total: StatementFact | None,
) -> Whole | None:
    cells = [_cell(p, column) for p in parts]
    if len(cells) < 2 or any(c is None or c.unit != "USD" for c in cells):
        return None
    used = tuple(c for c in cells if c is not None)
    if len({c.scale for c in used}) > 1:
        return None
    tolerance = sum(printed_rounding(c) for c in used)
    if total is not None:
        # a total and its parts are compared as printed (parentheses for minus): the sign reader
        # gives a mapped total its economic sign, its unmapped parts keep the printed one
        amounts = [_printed(c) for c in used]
        tolerance += printed_rounding(total)
        if _subtotalled(amounts, tolerance):
            return None
        flip = -1.0 if (total.value < 0) != (_printed(total) < 0) else 1.0
        return Whole(item, caption, used, flip * sum(amounts), tolerance, total)
    signed = [_counted(c, item) for c in used]
    if any(v is None for v in signed):
        return None
    amounts = [v for v in signed if v is not None]
    if _subtotalled(amounts, tolerance):
        return None  # an uncaptioned total among the rows: not a flat run of parts
    return Whole(item, caption, used, sum(amounts), tolerance)


def _printed(fact: StatementFact) -> float:
    return -abs(fact.value) if fact.negative else abs(fact.value)


def _counted(fact: StatementFact, item: str) -> float | None:
    """A part's amount as it adds to its line: a contra balance (treasury stock, reported as a
    positive amount) is deducted; a part of the opposite kind (an expense among income, a
    liability among assets) is not added by a flat sum (None: no route)."""
    from finqa.lexicon.statements.signs import caption_nature, item_nature

    nature = item_nature(fact.item) or caption_nature(fact.label, fact.statement)
    if nature is None:
        return fact.value
    if nature.contra:
        return -abs(fact.value)
    whole = item_nature(item)
    if (
        whole is not None
        and whole.nature != nature.nature
        and nature.nature in _AGAINST.get(fact.statement, ())
    ):
        return None
    return fact.value


def _subtotalled(amounts: Sequence[float], tolerance: float) -> bool:
    """Is a part the sum of the parts right above it (an uncaptioned subtotal: 'Loans' less
    the allowance, then 'Loans, net')? A flat sum would count them twice."""
    for i in range(2, len(amounts)):
        run = 0.0
        for j in range(i - 1, -1, -1):
            run += amounts[j]
            if i - j >= 2 and abs(run - amounts[i]) <= tolerance:
                return True
    return False


def derived_wholes(table: StatementTable, item: str | None = None) -> list[Whole]:
    """Every line a heading names whose parts the table prints with no total (`item`: only
    that line item's), one `Whole` per period column; none where the table prints the item."""
    if table.statement not in _WHOLES:
        return []
    rows = _rows(table)
    printed = {f.item for f in table.facts if f.item and not f.dimensions}
    out: list[Whole] = []
    for r, caption in enumerate(table.labels):
        if not _heading(table, rows, r):
            continue
        named = whole_item(caption)
        if named is None or named in printed or (item is not None and named != item):
            continue
        if not _summable(named, table.statement):
            continue
        run: list[list[StatementFact]] = []
        end = r + 1
        while end in rows and not _line_of_its_own(table.labels[end], rows[end]):
            run.append(rows[end])
            end += 1
        if any(
            _LESS.match(table.labels[i]) or balance_side(table.labels[i]) for i in range(r + 1, end)
        ):
            continue  # a deduction or an opening / closing balance: not a flat sum of parts
        if end < len(table.labels) and not (
            _heading(table, rows, end) or (end in rows and not _TOTAL.match(table.labels[end]))
        ):
            # a totalled heading (its total is printed, under a caption of its own), or a row
            # the reader skipped (it may be a part, or the total): nothing is derived
            continue
        for column in range(len(table.periods)):
            whole = _whole(named, _caption(caption), run, column, None)
            if whole is not None:
                out.append(whole)
    return out


def _summable(item: str, statement: str) -> bool:
    """A line whose parts add up flatly: an asset or liability of the balance sheet, a revenue
    or an expense of the income statement (not a net line of both signs, not equity, whose
    parts are a roll-forward)."""
    from finqa.lexicon.statements.signs import item_nature

    nature = item_nature(item)
    return nature is not None and nature.nature in _WHOLES[statement]


def _line_of_its_own(label: str, facts: Sequence[StatementFact]) -> bool:
    """A row the catalogue names, or a total: a line of the statement, not a part of one."""
    return bool(_TOTAL.match(label)) or any(f.item for f in facts)


def printed_whole(table: StatementTable, total: StatementFact) -> Whole | None:
    """The printed total `total` (a 'Total X' row of `table`) with the rows it totals: every
    row between it and the heading right above that names the same line. Only a plain layout
    is read (None otherwise): no sub-heading or nested total between them (their own rows
    are counted by their total, which a flat sum cannot tell), no row the reader skipped (a
    row with no figures that is no heading: it may be one of the parts)."""
    if total.item is None or not _TOTAL.match(total.label) or total.dimensions:
        return None
    rows = _rows(table)
    parts: list[list[StatementFact]] = []
    for r in range(total.row - 1, -1, -1):
        label = table.labels[r] if r < len(table.labels) else ""
        if r not in rows:
            if not _heading(table, rows, r) or not _names(label, total):
                return None
            parts.reverse()
            return _whole(str(total.item), _caption(label), parts, total.column, total)
        if _TOTAL.match(label) or _LESS.match(label):
            return None  # a nested total, or a 'less' line of a gross-to-net subtotal
        parts.append(rows[r])
    return None


def _caption(label: str) -> str:
    return label.strip().rstrip(":").strip()


def _names(heading: str, total: StatementFact) -> bool:
    """Does `heading` name the line `total` totals ('Current assets:' over 'Total current
    assets'; 'Inventories:' over 'Total inventories')?"""
    from finqa.lexicon.label_keys import label_key

    if total.item is not None and whole_item(heading) == total.item:
        return True
    return label_key(_caption(heading)) == label_key(_TOTAL.sub("", total.label))
