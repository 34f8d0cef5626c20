"""Economic signs: each fact's value in its line item's own direction, as XBRL signs the tag.

A statement prints a cost as 1,234 or as (1,234), a cash-flow outflow as (183), treasury stock
as (5,000), a tax benefit as (50) beside expenses printed plain: the parentheses are layout, and
their meaning depends on the line's nature and the statement. The sign a fact carries follows
the nature of its catalogue item, taken from the taxonomy facts of the concepts mapped to it
(the catalogue's `nature`, `period`, `balance`), as the filing would tag it:

- cash outflows and inflows (capex, dividends paid, debt repaid, proceeds) and contra balances
  (an equity item with a debit balance: treasury stock) are amounts, positive, except where the
  caption names the flow's reverse in parentheses ('Net income tax payments/(refunds)'): there
  a figure in parentheses is the reverse flow (a net refund), negative;
- expenses and losses are positive as expenses: in a table that prints its expenses in
  parentheses (most expense cells of two rows or more) the printed sign is turned; else an
  item the catalogue reads as a magnitude (`read: magnitude: true` in the catalogue: cost of sales,
  SG&A, interest expense) is its amount, and one that can turn (a tax benefit, a reversal) keeps
  the printed sign;
- a caption whose words outside parentheses name only the opposite of the item's direction
  ('Net loss', 'Loss before income taxes', 'Income tax benefit', 'Other expense, net',
  'Accumulated deficit') is that opposite: negative where the row prints every figure the same
  way ('Net loss (40) (48)' and 'Net loss 40 48' are losses), else the print turned ('Other
  expense, net 30 (5)': 5 of other income); where its parentheses
  name the item's own direction ('Other (income) expense, net', 'Income tax (expense)/benefit',
  '(Provision) benefit for income taxes') a positive figure is the opposite: the print turned;
- where the statement's own arithmetic decides (a line between a result and the next line,
  'Income before income taxes / Income taxes / Net income'), the step it makes gives the sign;
  the tax line by the income statement's tax identity (`tax_identity`: pre-tax income - tax
  + the lines a layout adds after tax = the after-tax result, 'Provision for income taxes
  (2,863)' between 24,178 and 21,331 with equity-method income of 16 is an expense of 2,863),
  which also names the row it closes from the pre-tax income where the table names none;
- a 'Less:' row of an income or cost line, or of a line the catalogue does not map, is
  otherwise the amount subtracted, positive;
- revenue and interest income are amounts (a cost-layout statement prints interest income in
  parentheses among its costs);
- net flows, results, revenue, assets, liabilities and equity keep the printed sign.

`StatementFact.negative` still says how the cell was printed; only `value` is signed here.
Inline-XBRL facts (`source="xbrl"`) carry the filing's own sign and are left as tagged.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache

from finqa.lexicon._data import data_cache
from finqa.lexicon.model import StatementFact, StatementTable
from finqa.lexicon.sides import not_a_side, side_pattern
from finqa.lexicon.statements.tax_identity import PRETAX_ITEM, TAX_ITEM, tax_identities

__all__ = [
    "Nature",
    "caption_nature",
    "caption_sign",
    "item_nature",
    "sign_table",
    "sign_tables",
]

_OUTWARD = frozenset({"inflow", "outflow"})
_COSTS = frozenset({"expense", "loss"})
_INCOMES = frozenset({"revenue", "gain"})
_LESS = re.compile(r"^\s*(?:less|deduct)\b", re.I)
# words of a caption that say which way a line goes, by the item's side (`data/sides.yaml`)
# and the phrases whose side word names no side ('income taxes', 'before income')
_EQUITY_WORDS = re.compile(
    r"\b(?:income|earnings|retained|equity|capital|stockholders|shareholders|shareowners)\b", re.I
)


@dataclass(frozen=True, slots=True)
class Nature:
    """A catalogue item's nature and period type, from its concepts' taxonomy facts."""

    item: str
    nature: str  # revenue | expense | gain | loss | asset | liability | equity | inflow | outflow
    balance: str  # debit | credit | '' (none: net flows, counts, per-share figures)
    period_type: str  # instant | duration

    @property
    def contra(self) -> bool:
        """An equity item with a debit balance (treasury stock), or an asset with a credit one:
        shown as a deduction, reported as a positive amount."""
        return (self.nature == "equity" and self.balance == "debit") or (
            self.nature == "asset" and self.balance == "credit"
        )


@cache
def _natures() -> dict[str, Nature]:
    from finqa.lexicon.xbrl import concept_infos

    found: dict[str, set[tuple[str, str, str]]] = {}
    for info in concept_infos().values():
        if info.nature:
            found.setdefault(info.item, set()).add((info.nature, info.balance, info.period_type))
    # an item whose concepts disagree (none today) has no nature: its printed sign is kept
    return {
        item: Nature(item, *next(iter(kinds))) for item, kinds in found.items() if len(kinds) == 1
    }


# a cash-flow line's verb says which way the cash went, for lines the catalogue does not map
# ('Payments for dividends and dividend equivalents', 'Purchases of stock for treasury',
# 'Additions to property, plant and equipment', 'Proceeds from sale of investments'); a caption
# naming both ways ('Proceeds from (repayments of) commercial paper, net') says neither
_OUT_VERB = re.compile(
    r"^(?:payments?|purchases?|repayments?|repurchases?|acquisitions?|additions?|"
    r"capital\s+expenditures?|(?:cash\s+)?dividends?|redemptions?|retirements?|settlements?|"
    r"(?:share|stock|common\s+stock)\s+repurchases?|business\s+(?:combinations?|acquisitions?))\b",
    re.I,
)
_IN_VERB = re.compile(
    r"^(?:proceeds|issuances?|borrowings?|sales?\s+of|maturities|collections?)\b", re.I
)
_BOTH_WAYS = re.compile(
    r"\b(?:proceeds|issuances?|borrowings?|sales?|maturities|collections?)\b.*"
    r"\b(?:payments?|purchases?|repayments?|repurchases?|acquisitions?|redemptions?)\b|"
    r"\b(?:payments?|purchases?|repayments?|repurchases?|acquisitions?|redemptions?)\b.*"
    r"\b(?:proceeds|issuances?|borrowings?|sales?|maturities|collections?)\b|\bnet\s*$",
    re.I,
)
_TREASURY = re.compile(r"^(?:less:?\s*)?(?:common\s+)?(?:stock\s+held\s+in\s+)?treasury\b", re.I)


def caption_nature(label: str, statement: str) -> Nature | None:
    """The nature a caption states for a line the catalogue does not map: a cash-flow line
    that opens with its verb (an outflow: payments, purchases, repayments, dividends; an
    inflow: proceeds, issuance, borrowings, sales of) or treasury stock on a balance sheet or
    equity statement (a contra balance); None otherwise."""
    text = label.strip()
    if statement == "cashflow" and not _BOTH_WAYS.search(text):
        if _OUT_VERB.match(text):
            return Nature("", "outflow", "credit", "duration")
        if _IN_VERB.match(text):
            return Nature("", "inflow", "debit", "duration")
    if statement in ("balance", "equity") and _TREASURY.match(text):
        return Nature("", "equity", "debit", "instant")
    return None


def item_nature(item: str | None) -> Nature | None:
    """The nature of a catalogue item (None: unmapped, per-share, a count, or concepts that
    disagree)."""
    return _natures().get(item) if item else None


@data_cache()
def _magnitude_items() -> frozenset[str]:
    from finqa.lexicon.line_items import line_items

    return frozenset(
        m for li in line_items().values() if li.magnitude for m in (li.id, *li.metrics)
    )


_PARENS = re.compile(r"/?\(([^)]*)\)")


def _caption(label: str, nature: Nature) -> str:
    """How a caption signs its line, for an item's side: 'opposite' when the words outside
    parentheses name only the opposite direction ('Net loss', 'Income tax benefit'), 'turned'
    when they do and the parentheses name the item's own ('Other (income) expense, net',
    'Income tax (expense)/benefit': a positive figure is the opposite), '' otherwise."""
    if nature.nature in _COSTS:
        own, other = side_pattern("cost"), side_pattern("benefit")
    elif nature.nature in _INCOMES:
        own, other = side_pattern("income"), side_pattern("loss")
    elif nature.nature == "equity" and nature.balance == "credit":
        own, other = _EQUITY_WORDS, side_pattern("loss")
    else:
        return ""
    text = not_a_side().sub(" ", label)
    inside = " ".join(_PARENS.findall(text))
    outside = _PARENS.sub(" ", text)
    if own.search(outside) or not other.search(outside):
        return ""
    return "turned" if own.search(inside) else "opposite"


# a flow's reverse named in parentheses beside it ('payments/(refunds)', 'proceeds/(payments)'):
# the row's parentheses print the reverse flow, its plain figures the flow itself
_REVERSE = {
    "outflow": re.compile(r"\b(?:refunds?|receipts?|proceeds|inflows?)\b", re.I),
    "inflow": re.compile(r"\b(?:payments?|repayments?|outflows?)\b", re.I),
}


def _reverse_in_parens(label: str, nature: str) -> bool:
    """The caption names the flow's reverse in its parentheses ('Net income tax
    payments/(refunds)'): there a figure in parentheses is the reverse flow, negative."""
    return any(_REVERSE[nature].search(inside) for inside in _PARENS.findall(label))


# an expense shown in parentheses beside its benefit ('Income tax (expense)/benefit',
# '(Provision) benefit for income taxes'): the figures as filed are benefits, expenses negative
_EXPENSE_IN_PARENS = re.compile(r"\((?:expenses?|provisions?(?: for)?|charges?)\)", re.I)


def caption_sign(caption: str) -> int:
    """The sign of a cost line's figures as filed, by its caption (for a reader of the text, not
    of the statement model, whose facts carry the economic sign already): -1 when its figures
    are benefits, the expense negative: it shows the expense in parentheses beside its benefit
    ('Income tax (expense)/benefit', '(Provision) benefit for income taxes'), or names only the
    benefit ('Income tax benefit', 'Benefit from income taxes': the rule `sign_table` follows).
    +1 otherwise ('Provision for (benefit from) income taxes', 'Income tax expense (benefit)',
    'Provision for income taxes')."""
    turned = _caption(caption, Nature("", "expense", "debit", "duration"))
    return -1 if _EXPENSE_IN_PARENS.search(caption) or turned else 1


def _costs_printed_negative(facts: Sequence[StatementFact]) -> bool:
    """The table prints its expenses in parentheses: of the cells of expense rows (two rows
    at least), most are negative."""
    rows: set[int] = set()
    negative = total = 0
    for f in facts:
        n = item_nature(f.item)
        if f.source == "xbrl" or n is None or n.nature not in _COSTS or f.unit != "USD":
            continue
        if _caption(f.label, n) or _LESS.match(f.label):
            continue
        rows.add(f.row)
        total += 1
        negative += f.value < 0
    return len(rows) >= 2 and negative * 2 > total


def _by_arithmetic(facts: Sequence[StatementFact]) -> dict[tuple[int, int], float]:
    """Values the statement's own arithmetic proves, by (row, column): a cost or income line
    right below a result line (pre-tax income, consolidated net income) whose printed figure is
    the step from that result to the next line ('Income before income taxes 8,794 / Income
    taxes (2,047) / Net income 6,747': taxes of +2,047; 'Consolidated net income 10,649 / Less:
    Net income attributable to noncontrolling interests 18 / ... 10,631': +18, and '(7)' where
    the step is +7: a loss of 7). The step's direction and the line's nature give the sign:
    a cost, or a 'Less:' line, is what the step takes away."""
    cells: dict[int, dict[int, StatementFact]] = {}
    for f in facts:
        if f.unit == "USD" and f.source != "xbrl":
            cells.setdefault(f.row, {})[f.column] = f
    rows = sorted(cells)
    out: dict[tuple[int, int], float] = {}
    for i in range(1, len(rows) - 1):
        above, line, below = (cells[rows[i + d]] for d in (-1, 0, 1))
        n, top = item_nature(next(iter(line.values())).item), next(iter(above.values())).item
        result = item_nature(top)
        if n is None or n.nature not in _COSTS | _INCOMES or result is None:
            continue
        if result.nature != "gain":
            continue
        taken = n.nature in _COSTS or bool(_LESS.match(next(iter(line.values())).label))
        found: dict[int, float] = {}
        for col, f in line.items():
            a, b = above.get(col), below.get(col)
            if a is None or b is None or not f.value:
                continue
            step = b.value - a.value
            tol = 1.5 * (f.scale or 1.0)
            if abs(abs(step) - abs(f.value)) > tol or not step:
                found = {}
                break
            found[col] = abs(f.value) * (1 if step > 0 else -1) * (-1 if taken else 1)
        for col, value in found.items():
            out[(rows[i], col)] = value
    return out


def _signed(f: StatementFact, costs_negative: bool, statement: str, row_negative: bool) -> float:
    n = item_nature(f.item) if f.item else caption_nature(f.label, statement)
    if f.source == "xbrl" or f.unit != "USD" or not f.value:
        return f.value
    if n is None:  # 'Less: Current portion (1,000)', 'Less: imputed interest (2,460)': deducted
        return abs(f.value) if _LESS.match(f.label) and not f.item else f.value
    amount = abs(f.value)
    if n.nature in _OUTWARD and _reverse_in_parens(f.label, n.nature):
        return f.value  # 'Net income tax payments/(refunds) 187 (1,317)': a refund of 1,317
    if (n.nature in _OUTWARD and n.balance) or n.contra or n.nature == "revenue":
        return amount  # an amount paid or received, a deduction, sales or interest earned
    caption = _caption(f.label, n)
    if caption == "opposite":  # 'Net loss (40) (48)' or 'Net loss 40 48': a loss either way;
        return -amount if row_negative else -f.value  # 'Other expense, net 30 (5)': +5 income
    if caption == "turned":
        return -f.value
    if _LESS.match(f.label) and (n.nature in _INCOMES or n.nature in _COSTS):
        return amount
    if n.nature in _COSTS:
        if statement != "cashflow" and costs_negative:
            return -f.value
        return amount if f.item in _magnitude_items() else f.value
    return f.value


def sign_table(table: StatementTable) -> StatementTable:
    """The table with every fact's value in its item's own direction (module docstring)."""
    if table.source == "xbrl":
        return table
    costs_negative = _costs_printed_negative(table.facts)
    signs: dict[int, set[bool]] = {}
    for f in table.facts:
        if f.value:  # a dash (zero) says nothing of how the row prints its figures
            signs.setdefault(f.row, set()).add(f.value < 0)
    proved = _by_arithmetic(table.facts)
    facts = []
    changed = False
    for f in table.facts:
        value = proved.get((f.row, f.column))
        if value is None:
            value = _signed(f, costs_negative, table.statement, signs.get(f.row) == {True})
        if value != f.value:
            changed = True
            f = f.model_copy(update={"value": value})
        facts.append(f)
    by_identity = _by_tax_identity(facts)
    if by_identity != facts:
        changed, facts = True, by_identity
    return table.model_copy(update={"facts": tuple(facts)}) if changed else table


def _by_tax_identity(facts: list[StatementFact]) -> list[StatementFact]:
    """The facts with the tax line signed by the income statement's tax identity, and the row it
    closes from named the pre-tax income where the table names none (`tax_identity`)."""
    found = tax_identities(facts)
    if not found:
        return facts
    has_pretax = any(f.item == PRETAX_ITEM for f in facts)
    values = {(t.tax_row, col): v for t in found for col, v in t.expense.items()}
    named = set() if has_pretax else {t.pretax_row for t in found if not t.named}
    out = []
    for f in facts:
        update: dict[str, object] = {}
        value = values.get((f.row, f.column)) if f.item == TAX_ITEM else None
        if value is not None and value != f.value:
            update["value"] = value
        if f.row in named and f.unit == "USD":
            update["item"] = PRETAX_ITEM
        out.append(f.model_copy(update=update) if update else f)
    return out


def sign_tables(tables: Iterable[StatementTable]) -> list[StatementTable]:
    """`sign_table` over a filing's tables."""
    return [sign_table(t) for t in tables]
