"""Whose net income and whose equity: the company's share, or the consolidated total that
includes noncontrolling interests.

An income statement of a filer with noncontrolling interests prints three lines:

    Consolidated net income                                          10,649
    Less: Net income attributable to noncontrolling interests            18
    Net income attributable to shareowners of The Coca-Cola Company  10,631

The first is us-gaap ProfitLoss (catalogue item `net_income_consolidated`), the last is
NetIncomeLoss (`net_income`), the amount EPS, margins and returns are conventionally built
on. A caption alone cannot tell: many filers caption the first line just 'Net income'. The
layout can: the line right above a noncontrolling-interests line is the consolidated total
and the first 'attributable to' line below it is the company's share. A table without a
noncontrolling-interests line is left as read. 'Consolidated net income attributable to
Walmart' is the company's share too: 'consolidated' names the statements, the words after it
the owners.

A balance sheet does the same with equity:

    Total Walmart shareholders' equity   83,253
    Noncontrolling interest               8,638
    Total equity                         91,891

The first is us-gaap StockholdersEquity (`shareholders_equity`, the equity attributable to the
company: returns on equity, book value), the last StockholdersEquityIncludingPortion-
AttributableToNoncontrollingInterest (`total_equity`). Captions cannot tell ('Total
stockholders' equity' is the total at one filer, the parent's at another); the layout can,
with its arithmetic: the row above a noncontrolling-interests row plus that row is the row
below it, in every column. Where the row above is one of the company's components (common
stock, retained earnings, ...: no subtotal of its own is printed), the 'Total equity' row right
below the noncontrolling interests is the total including them, and the company's equity is
that total less them (catalogue `read: derive`). A balance sheet without either layout is left
as read.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from finqa.lexicon.model import StatementFact, StatementTable

__all__ = [
    "EQUITY_OWNERS",
    "attribute_equity",
    "attribute_net_income",
    "attributed",
    "is_parent_caption",
    "NCI_CAPTION",
]

# the equity items the layout tells apart (a statement reader takes the model's word for them)
EQUITY_OWNERS = frozenset({"shareholders_equity", "total_equity"})

_NET = frozenset({"net_income", "net_income_consolidated", "net_income_attributable"})
# the words of a noncontrolling (minority) interests caption: one list, read by the judge too
NCI_CAPTION = re.compile(r"non-?controlling|minority", re.I)
_NCI = NCI_CAPTION
_PARENT = re.compile(
    r"^\s*(?:consolidated\s+)?net\s+(?:income|earnings|loss)(?:\s*\((?:loss|income)\))?(?:\s*/\s*\(?loss\)?)?\s+"
    r"attributable\s+to\b",
    re.I,
)


def _is_nci(f: StatementFact) -> bool:
    return f.item == "noncontrolling_interest_income" or bool(
        _NCI.search(f.label) and re.search(r"attributable|\bless\b", f.label, re.I)
    )


_REDEEMABLE = re.compile(r"\bredeemable|temporary", re.I)  # mezzanine, outside equity
_TOTAL_EQUITY = re.compile(r"^\s*total\b[^0-9]*\b(?:equity|deficit)\b", re.I)
_NOT_EQUITY_TOTAL = re.compile(r"liabilities|attributable|per share", re.I)
_EQUITY_LINE = re.compile(r"equity|deficit|capital", re.I)


def is_parent_caption(label: str) -> bool:
    """A caption of the company's share of net income ('Net income attributable to Acme',
    'Consolidated net income attributable to Walmart'), not the noncontrolling interests'."""
    return bool(_PARENT.match(label)) and not _NCI.search(label)


def _is_nci_equity(f: StatementFact) -> bool:
    return f.item == "noncontrolling_interest" or bool(
        _NCI.search(f.label) and not _REDEEMABLE.search(f.label)
        and not re.search(r"\b(?:income|earnings|loss)\b", f.label, re.I)
    )  # fmt: skip


def attribute_equity(table: StatementTable) -> StatementTable:
    """The balance sheet with the company's equity and total equity told apart by their layout
    (parent's row, noncontrolling interests' row, total row: parent + NCI = total)."""
    if table.source == "xbrl" or table.statement != "balance":
        return table
    by_row: dict[int, dict[str, StatementFact]] = {}
    for f in table.facts:
        if f.unit == "USD" and not f.dimensions:
            by_row.setdefault(f.row, {}).setdefault(f.period.key, f)
    rows = sorted(by_row)
    relabel: dict[int, str] = {}
    for i in range(1, len(rows) - 1):
        nci = by_row[rows[i]]
        if not _is_nci_equity(next(iter(nci.values()))):
            continue
        parent, below = by_row[rows[i - 1]], by_row[rows[i + 1]]
        if not _EQUITY_LINE.search(next(iter(below.values())).label):
            continue
        split = _EQUITY_LINE.search(next(iter(parent.values())).label) is not None
        for total in (below, _glued(below)) if split else ():
            shared = set(parent) & set(nci) & set(total)
            if shared and all(_adds_up(parent[k], nci[k], total[k]) for k in shared):
                relabel[rows[i - 1]] = "shareholders_equity"
                relabel[rows[i + 1]] = "total_equity"
                if total is not below:  # its own figures were read into its caption
                    return _unglue(_relabelled(table, relabel), rows[i + 1], total)
                break
        else:
            below_label = next(iter(below.values())).label
            if _TOTAL_EQUITY.match(below_label) and not _NOT_EQUITY_TOTAL.search(below_label):
                # no subtotal of the company's own above the noncontrolling interests: the
                # total below them includes them (the company's equity is not printed)
                relabel.setdefault(rows[i + 1], "total_equity")
    return _relabelled(table, relabel)


def _glued(row: dict[str, StatementFact]) -> dict[str, StatementFact]:
    """A row whose caption holds its own figures ('Total stockholders' equity 12,662,919
    10,469,791', then the uncaptioned grand total the reader gave it): the facts its caption's
    figures are, by column; {} when the caption holds no such run of figures."""
    from finqa.lexicon.statements.raw import read_cell
    from finqa.lexicon.statements.text import split_row

    facts = sorted(row.values(), key=lambda f: f.column)
    caption, cells = split_row(facts[0].label)
    read = [read_cell(c) for c in cells]
    if not caption or len(cells) != len(facts) or any(r is None for r in read):
        return {}
    return {
        f.period.key: f.model_copy(
            update={"label": caption, "value": r[0] * f.scale, "negative": r[1], "raw": c}
        )
        for f, c, r in zip(facts, cells, read, strict=True)
        if r is not None
    }


def _unglue(table: StatementTable, at: int, own: dict[str, StatementFact]) -> StatementTable:
    """The table with row `at` split in two: its caption with its own figures (`own`), then
    the figures the reader had given it as an uncaptioned row (no item: never guessed)."""
    facts: list[StatementFact] = []
    for f in table.facts:
        if f.row > at:
            facts.append(f.model_copy(update={"row": f.row + 1}))
        elif f.row == at and f.period.key in own and f.unit == "USD" and not f.dimensions:
            facts.append(own[f.period.key].model_copy(update={"item": f.item}))
            facts.append(f.model_copy(update={"row": at + 1, "label": "", "item": None}))
        else:
            facts.append(f)
    labels = list(table.labels)
    if at < len(labels):
        labels[at : at + 1] = [next(iter(own.values())).label, ""]
    return table.model_copy(update={"facts": tuple(facts), "labels": tuple(labels)})


def _adds_up(parent: StatementFact, nci: StatementFact, total: StatementFact) -> bool:
    tol = max(2.0 * (total.scale or 1.0), 0.0005 * abs(total.value))  # the table's rounding
    return abs(parent.value + nci.value - total.value) <= tol and parent.value != total.value


def _relabelled(table: StatementTable, relabel: dict[int, str]) -> StatementTable:
    if not relabel:
        return table
    facts = tuple(
        f.model_copy(update={"item": relabel[f.row]})
        if f.row in relabel and f.unit == "USD" and not f.dimensions
        else f
        for f in table.facts
    )
    return table.model_copy(update={"facts": facts})


def attribute_net_income(table: StatementTable) -> StatementTable:
    """The table with its consolidated and attributable net income lines told apart."""
    if table.source == "xbrl" or table.statement not in ("income", "quarterly", "other"):
        return table
    first: dict[int, StatementFact] = {}
    for f in table.facts:
        if f.unit == "USD":
            first.setdefault(f.row, f)
    rows = sorted(first)
    relabel: dict[int, str] = {}
    for i, r in enumerate(rows):
        if i >= 2 and _listed_share(first[r], first[rows[i - 1]], first[rows[i - 2]]):
            # 'Net income' / 'Net income attributable to: Acme' / 'Noncontrolling interests':
            # the total first, then the owners' shares listed under it
            relabel[rows[i - 2]] = "net_income_consolidated"
            relabel[rows[i - 1]] = "net_income"
            relabel[r] = "noncontrolling_interest_income"
            continue
        if not _is_nci(first[r]) or i == 0:
            continue
        above = first[rows[i - 1]]
        below = next(
            (first[x] for x in rows[i + 1 :] if is_parent_caption(first[x].label)),
            None,
        )
        if above.item not in _NET or below is None:
            continue
        relabel[above.row] = "net_income_consolidated"
        relabel[below.row] = "net_income"
    return _relabelled(table, relabel)


def _listed_share(nci: StatementFact, parent: StatementFact, total: StatementFact) -> bool:
    """The noncontrolling interests' share listed right below the company's ('Net income
    attributable to: Acme / Noncontrolling interests'), the total net income right above both,
    and the two shares adding up to it in the first column."""
    if not _NCI.search(nci.label) or _NCI.search(parent.label):
        return False
    if not is_parent_caption(parent.label) or total.item not in _NET:
        return False
    tol = max(2.0 * (total.scale or 1.0), 0.0005 * abs(total.value))
    return abs(abs(parent.value) + nci.value - abs(total.value)) <= tol


def attributed(tables: Iterable[StatementTable]) -> list[StatementTable]:
    """`attribute_net_income` and `attribute_equity` over a filing's tables."""
    return [attribute_equity(attribute_net_income(t)) for t in tables]
