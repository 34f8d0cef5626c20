"""The income statement's tax identity: pre-tax income - income tax expense (+ the lines a
layout adds after tax: equity-method income, a minority's share) = the after-tax result.

The parentheses on a tax line are layout ('Provision for income taxes (2,863)' in a statement
that prints what it deducts in parentheses; 'Income tax benefit (expense) 133' in one that prints
a benefit plain): the statement's own arithmetic says which way the line goes. Where the rows of
one table close the identity in every column, as printed,

    expense = pre-tax + sum(rows between the tax row and the after-tax row) - after-tax

(the two results as signed, a 'Loss before income taxes 40' a loss; the lines between as
printed, added the way the statement adds them), the tax line's figures are expenses where that
sum is positive and benefits where it is negative; the row convention (a printed figure is the
expense, or its reverse) is the one every column with a figure beyond rounding agrees on.

The pre-tax row is the row the identity closes from: the nearest row above the tax line that the
catalogue maps to pre-tax income, else the nearest row above it (within `_MAX_ABOVE` lines: past
the current and deferred parts of the tax) that the catalogue maps to nothing and that closes it
('Income (loss) from continuing operations before taxes and equity in earnings of affiliates'):
a row that does not close the identity is not the pre-tax income. The after-tax row
is the first row below, past at most `_MAX_BETWEEN` lines, that closes it.

The tax line and the lines between are read as printed (`StatementFact.negative`), the results as
`signs.sign_table` signs them: the statement reader signs the tax line by the identity once the
other lines are signed, and the judge derives the tax (and the effective tax rate) from the
pre-tax and after-tax rows of the stored model, never from the tax line's own sign.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from finqa.lexicon.model import StatementFact

__all__ = ["PRETAX_ITEM", "TAX_ITEM", "TaxIdentity", "printed", "tax_identities"]

TAX_ITEM = "income_tax_expense"  # catalogue ids (lexicon/data/metrics.yaml)
PRETAX_ITEM = "pretax_income"
_MAX_BETWEEN = 3  # lines between the tax row and the after-tax row (equity income, minority)
_MAX_ABOVE = 4  # lines between the pre-tax row and the tax row (current and deferred taxes)


@dataclass(frozen=True, slots=True)
class TaxIdentity:
    """One closed identity of a table: its rows and, by column, the tax expense it proves (base
    units, an expense positive, a benefit negative) and the pre-tax income."""

    pretax_row: int
    tax_row: int
    after_row: int
    between: tuple[int, ...]
    convention: int  # +1: a printed figure is the expense; -1: a printed figure is its reverse
    expense: dict[int, float]  # column -> tax expense by the identity
    pretax: dict[int, float]  # column -> pre-tax income (signed)
    named: bool  # the pre-tax row is the catalogue's pre-tax income (False: named by the identity)

    def rate(self, column: int) -> float | None:
        """The effective tax rate of `column` in percent (expense over pre-tax income)."""
        top, bottom = self.expense.get(column), self.pretax.get(column)
        return None if top is None or not bottom else top / bottom * 100.0


def printed(f: StatementFact) -> float:
    """The figure with its printed sign, in base units (a parenthesised cell negative)."""
    return -abs(f.value) if f.negative else abs(f.value)


def _cells(facts: Sequence[StatementFact]) -> dict[int, dict[int, StatementFact]]:
    cells: dict[int, dict[int, StatementFact]] = {}
    for f in facts:
        if f.unit == "USD" and f.source != "xbrl" and not f.dimensions:
            cells.setdefault(f.row, {})[f.column] = f
    return cells


def _item(row: dict[int, StatementFact]) -> str | None:
    return next(iter(row.values())).item


def _pretax_rows(rows: list[int], at: int, cells: dict[int, dict[int, StatementFact]]) -> list[int]:
    """The candidate pre-tax rows for the tax row at `rows[at]`, in the order tried: the nearest
    row above mapped to pre-tax income, else the unmapped rows above, nearest first (past the
    current and deferred parts of the tax printed before their total)."""
    above = [rows[at - back] for back in range(1, min(_MAX_ABOVE + 1, at + 1))]
    named = [r for r in above if _item(cells[r]) == PRETAX_ITEM]
    return named[:1] or [r for r in above if _item(cells[r]) is None]


def _close(
    pre: dict[int, StatementFact],
    tax: dict[int, StatementFact],
    between: list[dict[int, StatementFact]],
    after: dict[int, StatementFact],
) -> tuple[int, dict[int, float]] | None:
    """The row convention and the expense by column when these rows close the identity in every
    column the tax row prints (a column no other row prints makes no proof)."""
    expense: dict[int, float] = {}
    votes: set[int] = set()
    for col, t in tax.items():
        p, a = pre.get(col), after.get(col)
        if p is None or a is None or any(col not in b for b in between):
            return None
        scale = t.scale or 1.0
        if any((f.scale or 1.0) != scale for f in (p, a, *(b[col] for b in between))):
            return None
        value = p.value + sum(printed(b[col]) for b in between) - a.value
        tol = (1.5 + 0.5 * len(between)) * scale
        if abs(abs(value) - abs(t.value)) > tol:
            return None
        expense[col] = value
        if abs(t.value) > tol:
            votes.add(1 if (value > 0) == (printed(t) > 0) else -1)
    if len(votes) != 1:
        return None  # no column beyond rounding, or columns that disagree: no proof
    convention = votes.pop()
    return convention, {col: convention * printed(t) for col, t in tax.items()}


def tax_identities(facts: Sequence[StatementFact]) -> list[TaxIdentity]:
    """Every tax identity one table's facts close (module docstring)."""
    cells = _cells(facts)
    rows = sorted(cells)
    out: list[TaxIdentity] = []
    for at, row in enumerate(rows):
        if _item(cells[row]) != TAX_ITEM:
            continue
        found = next(
            (
                (pre_row, end, closed)
                for pre_row in _pretax_rows(rows, at, cells)
                for end, closed in _after_rows(rows, at, pre_row, cells)
            ),
            None,
        )
        if found is not None:
            pre_row, end, (convention, expense) = found
            out.append(
                TaxIdentity(
                    pretax_row=pre_row,
                    tax_row=row,
                    after_row=rows[end],
                    between=tuple(rows[at + 1 : end]),
                    convention=convention,
                    expense=expense,
                    pretax={c: f.value for c, f in cells[pre_row].items()},
                    named=_item(cells[pre_row]) == PRETAX_ITEM,
                )
            )
    return out


def _after_rows(
    rows: list[int], at: int, pre_row: int, cells: dict[int, dict[int, StatementFact]]
) -> Iterator[tuple[int, tuple[int, dict[int, float]]]]:
    """The first row below the tax row at `rows[at]` that closes the identity from `pre_row`
    (its index in `rows`, the convention and the expense by column), if any."""
    for end in range(at + 1, min(at + 2 + _MAX_BETWEEN, len(rows))):
        after = cells[rows[end]]
        if _item(after) in (TAX_ITEM, PRETAX_ITEM):
            return
        between = [cells[r] for r in rows[at + 1 : end]]
        closed = _close(cells[pre_row], cells[rows[at]], between, after)
        if closed is not None:
            yield end, closed
            return
