"""A caption the catalogue does not list, read by the words of the concept it prints.

Filers word the same line many ways; the catalogue lists the captions filings were seen to
use (`label_support.json`). A caption none of them spells is still read when its words are
the concept's own, by general financial language rather than any one filer's wording:

- a cash-flow statement's section total: cash, a flow or net word ('net', 'flows', 'provided',
  'used', 'generated', 'by', 'from', 'in') and one activity ('operating activities',
  'operations', 'investing activities', 'financing activities'), nothing else: 'Cash generated
  by operating activities', 'Net cash flows from operating activities', 'Cash flow from
  operations', 'Net cash (used)/provided by investing activities' (us-gaap
  NetCashProvidedByUsedIn...Activities);
- 'earnings' is the word many filers use for income ('Operating earnings', 'Earnings from
  operations', 'Net earnings'), and 'taxes on income' for income taxes ('Earnings before
  provision for taxes on income'): read as the income caption the catalogue lists;
- 'Total X' is X's line, and 'Net X' is X's where X is revenue (revenue is net of returns and
  allowances by definition: 'Net operating revenues') or a payment (a payment is net of its
  refunds: 'Net income tax payments/(refunds)'); 'X, net of Y' is X stated net of Y
  ('Interest expense, net of portion capitalized'), and 'X, net of amounts capitalized' is the
  cost X ('Interest, net of capitalized amount': interest expense, only a cost being
  capitalized; its payment under a heading of cash paid);
- a result named by its loss ('Loss from operations', 'Operating loss') is the income line of
  the same words (the sign reader gives it its direction);
- a caption that lists a catalogue caption's coordinated words but an inner one ('Selling and
  administrative expense' beside 'Selling, general and administrative expenses', 'Property and
  equipment, net' beside 'Property, plant and equipment, net') is that caption's line: a filer
  names the line by the kinds it has, the list's ends kept; a list that loses an end ('Land and
  buildings' of 'Land, buildings and equipment') or one word alone ('Selling expense') is one
  kind within the line, never the line;
- a cash-flow line named by its verb and object: paying for property, plant and equipment
  ('Payments for acquisition of ...', 'Additions to ...', 'Acquisitions of property and
  equipment': capital expenditures), paying dividends ('Payments of dividends', 'Payments for
  dividends and dividend equivalents'), buying back stock ('Purchases of stock for treasury',
  'Repurchases of stock').

`caption_item(label, known)` is tried by the statement reader (`catalogue.item_for_label`)
only after the catalogue's own captions found nothing; `known` is that lookup.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from finqa.lexicon._data import data_cache

__all__ = ["NOTE_REFERENCE", "after_headings", "caption_item", "cash_flow_section", "own_words"]

_ACTIVITY = (
    (re.compile(r"\boperating activities\b|\boperations\b|\boperating\b"), "cfo"),
    (re.compile(r"\binvesting activities\b|\binvesting\b"), "cfi"),
    (re.compile(r"\bfinancing activities\b|\bfinancing\b"), "cff"),
)
_FLOW_WORDS = frozenset(
    {"net", "cash", "flow", "flows", "provided", "used", "generated", "by", "from", "in", "for"}
)
_EARNINGS = re.compile(r"\bearnings\b", re.I)
_TAXES_ON_INCOME = re.compile(r"\btaxes on income\b", re.I)
_TOTAL = re.compile(r"^\s*total\s+", re.I)
_NET_OF = re.compile(r",?\s+net\s+of\b.*$", re.I)
# only a cost is capitalized (interest on borrowings during construction, ASC 835-20): 'X, net
# of amounts capitalized' names the cost X, whose caption the catalogue lists as 'X expense';
# under a heading of cash paid ('Cash paid during the year for:') it is the cost's payment
# (`lexicon.cash_basis.paid_under`)
_CAPITALIZED = re.compile(r",?\s+net\s+of\b[^,]*\bcapitali[sz]", re.I)
_TAX_EXPENSE = re.compile(r"\bbefore (?:provision for )?income tax expense\b", re.I)
_LOSS = re.compile(r"\bloss\b", re.I)
_RESULTS = frozenset({"gain"})
_VERBS = (
    (
        re.compile(
            r"^(?:payments?\s+(?:to\s+acquire|for\s+(?:the\s+)?(?:acquisitions?|purchases?)\s+of)|"
            r"purchases?\s+of|additions?\s+to|acquisitions?\s+of|expenditures?\s+for)\s+"
            r"(?:property,?\s+(?:plant,?\s+)?(?:and\s+)?equipment|premises\s+and\s+equipment|"
            r"fixed\s+assets)$",
            re.I,
        ),
        "capex",
    ),
    (
        re.compile(
            r"^(?:payments?\s+(?:of|for)\s+(?:cash\s+)?dividends|dividends\s+paid)"
            r"(?:\s+and\s+dividend\s+equivalents)?(?:\s+to\s+(?:share|stock)holders)?$",
            re.I,
        ),
        "dividends_paid",
    ),
    (
        re.compile(
            r"^(?:purchases?|repurchases?)\s+of\s+(?:common\s+|treasury\s+|company\s+)?"
            r"(?:stock|shares)(?:\s+for\s+(?:the\s+)?treasury)?$",
            re.I,
        ),
        "share_repurchases",
    ),
)
_NET = re.compile(r"^\s*net\s+", re.I)
_WORD = re.compile(r"[a-z]+")
# a note reference or footnote mark printed in a caption ('(Note 6)', '(see Note 4)', '(a)')
NOTE_REFERENCE = re.compile(r"\((?:note|notes|see)[^)]*\)|\([a-z0-9]\)|\[[a-z0-9]\]", re.I)
_NOTE = NOTE_REFERENCE


def cash_flow_section(label: str) -> str | None:
    """'cfo' / 'cfi' / 'cff' for a caption made only of cash-flow words and one activity
    (module docstring), else None."""
    text = label.lower()
    if "cash" not in _WORD.findall(text):
        return None
    found = [(m, item) for rx, item in _ACTIVITY if (m := rx.search(text))]
    if len(found) != 1:
        return None
    m, item = found[0]
    rest = _WORD.findall(text[: m.start()] + " " + text[m.end() :])
    return item if all(w in _FLOW_WORDS for w in rest) else None


def own_words(label: str) -> str | None:
    """The item a caption's words alone name, with no catalogue caption: a cash-flow section
    total (`cash_flow_section`) or a cash-flow line by its verb and object; else None."""
    section = cash_flow_section(label)
    if section is not None:
        return section
    plain = " ".join(_NOTE.sub(" ", label).split()).strip(" :,.*")
    for verb, verb_item in _VERBS:
        if verb.match(plain):
            return verb_item
    return None


def caption_item(label: str, known: Callable[[str], str | None]) -> str | None:
    """The catalogue item a caption's own words name (module docstring), through `known`
    (the catalogue's caption lookup); None when they name none."""
    worded = own_words(label)
    if worded is not None:
        return worded
    said = _TAXES_ON_INCOME.sub("income taxes", _EARNINGS.sub("income", label))
    said = _TAX_EXPENSE.sub("before income taxes", said)
    if said != label and (item := known(said)) is not None:
        return item
    if _NET_OF.search(said) and (item := known(_NET_OF.sub("", said))) is not None:
        return item
    if _CAPITALIZED.search(said) and (item := known(_NET_OF.sub("", said) + " expense")):
        return item  # 'Interest, net of amounts capitalized': the interest cost's line
    if _LOSS.search(said):
        result = known(_LOSS.sub("income", said))
        if result is not None and _nature(result) in _RESULTS:
            return result
    if _TOTAL.match(said) and (item := known(_TOTAL.sub("", said))) is not None:
        return item
    for text in dict.fromkeys((said, _TOTAL.sub("", said))):
        if (item := _fuller_list(text, known)) is not None:
            return item
    if _NET.match(said):
        item = known(_NET.sub("", said))
        if item is not None and (_is_revenue(item) or _is_payment(item)):
            return item
    return _under_headings(said, known)


def _under_headings(label: str, known: Callable[[str], str | None]) -> str | None:
    found = after_headings(label, known)
    return found[0] if found is not None else None


def after_headings(label: str, known: Callable[[str], str | None]) -> tuple[str, str] | None:
    """A caption whose section headings were read onto its line ('Assets Current assets Cash
    and cash equivalents', 'Cash flows from investing activities Capital expenditures': a PDF
    page's text on one line): the caption after them. A heading is what a balance sheet
    section's total line names without its 'Total' ('Total current assets'), by the
    catalogue's captions, or a statement of cash flows' section heading; at most three are
    read off, and only a caption left that the catalogue lists counts."""
    words = label.split()
    heads = _section_headings()
    cuts = 0
    while cuts < 3:
        lower = [w.lower() for w in words]
        cut = next(
            (n for n in range(min(len(words) - 1, 6), 0, -1) if " ".join(lower[:n]) in heads), 0
        )
        section = _CASH_FLOW_HEADING.match(" ".join(lower))
        if not cut and section is not None:
            cut = len(section.group(0).split())
        if not cut or cut >= len(words):
            break
        words, cuts = words[cut:], cuts + 1
        item = known(" ".join(words))
        if item is not None:
            return item, " ".join(words)
    if not cuts:
        return None
    rest = " ".join(words)
    # the caption after the last heading, in the concept's own words ('Capital expenditures,
    # net of construction payable')
    item = caption_item(rest, known)
    return (item, rest) if item is not None else None


# the heading of a statement of cash flows' section ('Cash flows from investing activities')
_CASH_FLOW_HEADING = re.compile(
    r"^(?:net\s+)?cash\s+flows?\s+(?:(?:from|provided\s+by|used\s+in|\(used\s+in\)|"
    r"\(used\s+for\)|for)\s+)+(?:operating|investing|financing)\s+activities:?(?=\s)"
)


@data_cache()
def _section_headings() -> frozenset[str]:
    """The headings of balance sheet sections: the catalogue's 'Total X' captions' X of its
    balance sheet items, lower case ('current assets', 'liabilities and equity')."""
    from finqa.lexicon.metrics import METRICS

    out: set[str] = set()
    for metric in METRICS.values():
        if metric.statement != "balance":
            continue
        for caption in (*metric.line_items, *metric.synonyms, metric.name):
            m = _TOTAL.match(caption)
            if m is not None:
                head = " ".join(caption[m.end() :].lower().replace(",", " ").split())
                if head:
                    out.add(head)
    return frozenset(out)


def _is_payment(item: str) -> bool:
    """A payment item of the catalogue (`paid_for`: income taxes paid), stated net of its
    refunds by definition (us-gaap IncomeTaxesPaidNet): 'Net income tax payments' is its line."""
    from finqa.lexicon.metrics import METRICS

    metric = METRICS.get(item)
    return metric is not None and bool(metric.paid_for)


# a coordination of single words: 'selling, general and administrative', 'property and equipment'
_LIST = re.compile(r"\b([a-z]+(?:,\s+[a-z]+)*,?\s+(?:and|&)\s+[a-z]+)\b", re.I)
_LIST_SPLIT = re.compile(r",?\s+(?:and|&)\s+|,\s+", re.I)


def _members(text: str) -> tuple[str, str, tuple[str, ...]] | None:
    """(the words before, the words after, the coordinated words) of a caption's one
    coordination of single words; None without exactly one."""
    found = list(_LIST.finditer(text))
    if len(found) != 1:
        return None
    m = found[0]
    words = tuple(w.lower() for w in _LIST_SPLIT.split(m.group(1)) if w)
    return text[: m.start()], text[m.end() :], words


@data_cache()
def _catalogue_lists() -> tuple[tuple[str, ...], ...]:
    """The coordinations of three or more words among the catalogue's captions of line items."""
    from finqa.lexicon.metrics import METRICS

    out: dict[tuple[str, ...], None] = {}
    for metric in METRICS.values():
        if metric.is_derived:
            continue
        for caption in (*metric.line_items, *metric.synonyms, metric.name):
            found = _members(caption)
            if found is not None and len(found[2]) >= 3:
                out.setdefault(found[2], None)
    return tuple(out)


def _fuller_list(label: str, known: Callable[[str], str | None]) -> str | None:
    """The item of the catalogue caption whose coordination is the label's with one more word
    (module docstring), the label's other words kept; None when there is none."""
    found = _members(label)
    if found is None or len(found[2]) < 2:
        return None
    before, after, words = found
    items: set[str] = set()
    for full in _catalogue_lists():
        if len(full) != len(words) + 1 or full[0] != words[0] or full[-1] != words[-1]:
            continue  # an inner word left out: the list keeps its ends ('land and buildings' of
            # 'land, buildings and equipment' is one kind of asset, not the line)
        listed = ", ".join(full[:-1]) + " and " + full[-1]
        item = known(f"{before}{listed}{after}")
        if item is not None:
            items.add(item)
    return items.pop() if len(items) == 1 else None


def _is_revenue(item: str) -> bool:
    return _nature(item) == "revenue"


def _nature(item: str | None) -> str | None:
    from finqa.lexicon.metrics import METRICS

    metric = METRICS.get(item) if item else None
    return metric.nature if metric is not None else None
