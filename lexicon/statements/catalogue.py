"""Line item labels as filed -> catalogue ids, through the lexicon's public metric API only.

A label maps when its whole text (footnote and note references removed) is one of a
catalogue line item's spellings or synonyms ('Total net revenues' -> 'revenue'); a label
that merely mentions a metric ('Revenue recognition adjustments') stays unmapped.
"""

from __future__ import annotations

import re

from finqa.lexicon._data import data_cache
from finqa.lexicon.metrics import METRICS, Metric, find_metrics, metric_key
from finqa.lexicon.statements.caption_words import (
    NOTE_REFERENCE,
    after_headings,
    caption_item,
    own_words,
)

__all__ = ["item_for_label", "listed_item", "same_balance", "without_headings", "worded_item"]

_PAREN = re.compile(r"\([^)]*\)")


@data_cache()
def _spellings() -> dict[str, str]:
    out: dict[str, str] = {}
    for metric in METRICS.values():
        if metric.is_derived:
            continue
        for spelling in (*metric.line_items, *metric.synonyms, metric.name):
            out.setdefault(metric_key(spelling), metric.id)
    for metric in METRICS.values():
        for label in _printed_labels(metric):
            out.setdefault(metric_key(label), metric.id)
    out.pop("", None)
    return out


def _printed_labels(metric: Metric) -> tuple[str, ...]:
    """A metric with a formula that filers also print and tag as an amount of its own (gross
    profit: revenue - cogs, printed 'Gross profit', tagged us-gaap:GrossProfit): its line's
    own captions (`read:` labels; its `line_items` name the formula's operands too)."""
    if not (metric.is_derived and metric.unit == "USD" and metric.nature and metric.concepts):
        return ()
    from finqa.lexicon.line_items import get_line_item

    item = get_line_item(metric.id)
    return item.labels if item is not None else ()


@data_cache()
def item_for_label(label: str) -> str | None:
    """The catalogue id of a line item label, or None when the catalogue has no such line: one
    of its captions, else a caption in the concept's own words (`caption_words.caption_item`)."""
    return _listed(label) or caption_item(label, _listed) or _flow_statement_balance(label)


def same_balance(a: str, b: str) -> bool:
    """Two captions of one balance's two sides of the balance sheet: the same words once the
    side each names is taken out ('Current portion of operating lease liabilities' and
    'Operating lease liabilities': `components.side_free`), and not two lines the catalogue
    tells apart ('Short-term debt' and 'Long-term debt' are two balances)."""
    from finqa.lexicon.components import side_free

    if metric_key(a) == metric_key(b):
        return True
    if side_free(a) != side_free(b):
        return False
    one, other = item_for_label(a), item_for_label(b)
    return one is None or other is None or one == other


def listed_item(label: str) -> str | None:
    """The catalogue id whose own captions or synonyms spell the label, else None (no
    reading of the caption's words: `item_for_label` adds that)."""
    return _listed(label)


def without_headings(label: str) -> str:
    """The caption after the section headings read onto its line ('Cash and cash equivalents'
    for 'Assets Current assets Cash and cash equivalents'), where what follows them is a
    caption the catalogue reads; the label as it is otherwise."""
    found = after_headings(label, _listed)
    return found[1] if found is not None else label


def _flow_statement_balance(label: str) -> str | None:
    """A balance the statement of cash flows itself reconciles, printed there as its opening or
    closing row ('Cash, cash equivalents and restricted cash, end of year'): the item whose
    home is that statement and whose period is an instant. A balance-sheet item's opening or
    closing row (cash and cash equivalents before 2018) stays unmapped: its line is read from
    the balance sheet, and a second copy would be a second operand."""
    from finqa.lexicon.statements.balances import without_balance_words

    line = without_balance_words(label)
    item = _listed(line) if line else None
    metric = METRICS.get(item) if item else None
    if metric is None or metric.statement != "cash_flow" or metric.period_type != "instant":
        return None
    return item


def worded_item(label: str) -> str | None:
    """The item a caption's own words name (`caption_words`: a cash-flow section total or a
    cash-flow line by its verb, whatever the catalogue lists; the other rewrites when none of
    the catalogue's captions is it), else None: a reader matching the catalogue's captions
    itself (the reasoner's Book) takes this as the line's item where its captions found
    nothing."""
    worded = own_words(label)
    if worded is not None:
        return worded
    return None if _listed(label) is not None else caption_item(label, _listed)


@data_cache()
def _listed(label: str) -> str | None:
    # '(Provision) benefit for income taxes (Note 6)': the note reference is no part of the line
    label = " ".join(NOTE_REFERENCE.sub(" ", label).split()) or label
    clean = _PAREN.sub(" ", label).strip(" :,.*/")  # 'payments/(refunds)': the payments
    spellings = _spellings()
    for text in (label, clean):
        key = metric_key(text)
        if key in spellings:
            return spellings[key]
    matches = find_metrics(clean)
    if len(matches) == 1:
        m = matches[0]
        rest = (clean[: m.start] + clean[m.end :]).strip(" ,:-")
        if not rest and not METRICS[m.canonical].is_derived:
            return m.canonical
    return None
