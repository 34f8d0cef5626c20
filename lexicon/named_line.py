"""The line item a question names, as a filing captions it: a quoted caption ('other (gains) and
losses') or the catalogue item's mention with the words that narrow it ('membership fee
revenue', 'content liabilities'), read once from the question (`QuestionAsk.named_line`).

A filing that prints a line under that caption answers with the line, before any catalogue
metric that covers only part of the phrase (total revenue for membership fee revenue, total
liabilities for content liabilities, net income for 'other (gains) and losses'). Whether a
caption is the named line is decided here (`caption_part`), by the caption's words: a quoted
caption is the caption written (letters only); a narrowed item's caption holds every narrowing
word and adds none but the item's own (`lexicon.qualifiers`). 'Current plus non-current' asks
for the two lines of one caption summed: the balance sheet's current and non-current lines.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from finqa.lexicon._data import data_cache
from finqa.lexicon.answer_form import ask_head
from finqa.lexicon.components import SIDES, enumeration
from finqa.lexicon.dimension_question import asked_dimension
from finqa.lexicon.intent import asks_share
from finqa.lexicon.line_items import get_item
from finqa.lexicon.metrics import find_metrics, metric_key
from finqa.lexicon.qualifiers import item_words, qualifiers

__all__ = [
    "NamedLine",
    "named_line",
    "caption_line",
    "caption_part",
    "captions",
    "CURRENT",
    "NONCURRENT",
]

CURRENT = "current"
NONCURRENT = "non-current"

# a caption quoted in the question: opened after a space, '(' or the start, closed before
# punctuation, a space or the end ("Walmart's" is no opening quote)
_QUOTED = re.compile(
    r"(?:^|(?<=[\s(]))['\u2018\"\u201c]([A-Za-z(][^'\u2019\"\u201d?]{2,80}?)['\u2019\"\u201d](?=[\s,.?;:)]|$)"
)
_MAX_QUOTED_WORDS = 8
# 'current plus non-current', 'current and noncurrent', 'non-current and current portions'
_BOTH = re.compile(
    r"\b(?:current\s*(?:\+|plus|and|&)\s*(?:non-?\s?current|long-term)"
    r"|(?:non-?\s?current|long-term)\s*(?:\+|plus|and|&)\s*current)\b",
    re.IGNORECASE,
)
# how a balance sheet marks the current and the non-current line of one caption, as keys
# (`metric_key` tokens): a leading 'Current' / 'Non-current' or a trailing ', current'
# (`lexicon.components.SIDES`, the one list of the two sides)
_PART_WORDS: dict[tuple[str, ...], str] = {
    tuple(side.split()): CURRENT if side in ("current", "short term") else NONCURRENT
    for side in SIDES
}
# a result word and what it is on or from: 'net gain or a net loss on X', 'income from X'
_RESULT_OF = re.compile(
    r"\b(?:net\s+)?(?:gains?|loss(?:es)?|income|earnings)"
    r"(?:\s+or\s+(?:an?\s+)?(?:net\s+)?(?:gains?|loss(?:es)?|income|earnings))?"
    r"\s+(?P<prep>on|from)\s+(?P<obj>[a-z][a-z\s,&-]{2,60}?)"
    r"(?=\s+(?:in|for|during|at|as|of|and\s+how|compared|versus|vs)\b|\s*[?,.;(]|$)",
    re.IGNORECASE,
)
# the words a caption of such a line may add to its object ('Gains (losses) on ..., net')
_RESULT_WORDS = "gain gains loss losses income earnings net on from and or total other"
# where a row's figures start: a dollar sign, a digit (parenthesised or not), a dash for nil;
# a parenthesis before a word is part of the caption ('Other (gains) and losses')
# a nil figure is a dash standing alone ('Goodwill impairment — 1,467,991'); a dash between
# words joins a caption ('Cost of sales\u2014intellectual property licenses')
_FIRST_FIGURE = re.compile(r"\$|\(?\s*\d|(?<!\w)\u2014(?!\w)")
# words a caption may add to a narrowed item without naming another line
_PLAIN = frozenset({"total", "net"})


@dataclass(frozen=True)
class NamedLine:
    """The line item a question names, with the words a caption of it must hold."""

    phrase: str  # as written: "other (gains) and losses", "membership fee revenue"
    words: tuple[str, ...]  # keys a caption must hold (all of a quoted caption's words)
    allowed: frozenset[str]  # keys a caption may add (the item's own words); () when quoted
    # a caption must be the phrase's words, no more (a quoted caption; the name of an item
    # the catalogue sums from several lines, 'short-term debt'), not only hold them
    quoted: bool
    metric: str | None  # the catalogue item the phrase names or narrows (None: quoted)
    both_parts: bool  # 'current plus non-current': the two lines of the caption, summed
    # a gain, loss or income named by what it is on or from ('net loss on equity investments',
    # 'income from continuing operations'): a line of its own, never the company's net result
    own: bool = False
    # not named by the question: the asked catalogue item's own line as a filing prints it
    # (its caption naming both sides, read for which side a figure is on)
    from_item: bool = False

    @property
    def printed(self) -> bool:
        """The ask's own name of an item the catalogue sums from several lines."""
        return self.quoted and self.metric is not None


def named_line(question: str) -> NamedLine | None:
    """The line item the question's ask names by a quoted caption, else by a catalogue item
    with narrowing words before it; None when it names neither."""
    return _named(" ".join(question.split()))


@data_cache(256)
def _named(q: str) -> NamedLine | None:
    head = ask_head(q)
    listed = enumeration(q)
    both = _BOTH.search(q) is not None or (listed is not None and listed.sides)
    if asks_share(q):
        return None  # a share of a whole names its lines as operands, not as the figure asked
    if asked_dimension(q) is not None:
        return None  # a segment's or a region's figure: its words name a part, not a line
    quoted = _quoted(head)
    if quoted is None and head != q and _REFERS.search(head):
        # 'X's income statement has a line called 'Other (income)/deductions--net'. Did this
        # line represent net income or a net deduction?': the ask's line is the premise's
        quoted = _quoted(q[: len(q) - len(head)])
    if quoted is not None:
        return caption_line(quoted, both_parts=both)
    result = _result_of(head)
    if result is not None:
        return result
    found = qualifiers(q)
    if not found and head != q and _REFERS.search(head):
        # 'X's cloud SaaS and PaaS revenues grew in 2015. By how much did they increase?': the
        # ask's line is the premise's
        found = qualifiers(q[: len(q) - len(head)])
    if found:
        first = found[0]
        phrase = f"{' '.join(first.words)} {first.mention}"
        return NamedLine(phrase, first.words, item_words(first.metric), False, first.metric, both)
    printed = _printed(head, both)
    if printed is None and both:
        return _both_sides(head)
    return printed or _cost_named(head)


# what names the cause an amount is for ('the revenue reduction recorded for concessions related
# to the 737 MAX grounding', 'the provisional tax expense as a result of the TCJ Act')
_FOR_CAUSE = re.compile(
    r"\b(?:related\s+to|relating\s+to|associated\s+with|as\s+a\s+result\s+of|resulting\s+from|"
    r"arising\s+from|in\s+connection\s+with|attributed\s+to)\s+(?P<cause>[^?;]{3,160})",
    re.I,
)


def part_for_cause(question: str) -> str | None:
    """The cause the ask names its amount by, after the catalogue line it is part of ('How much
    revenue reduction did X record for concessions related to the 737 MAX grounding?', 'What
    was its provisional tax expense as a result of the TCJ Act?'): the amount is that part of
    the line, and the line's total answers another question. None when the ask names no line,
    or no cause after it, or only a period, a company or whose figure it is."""
    from finqa.lexicon.entities import find_companies
    from finqa.lexicon.periods import find_periods

    head = ask_head(" ".join(question.split()))
    found = find_metrics(head)
    if not found:
        return None
    m = _FOR_CAUSE.search(head, found[0].end)
    if m is None:
        return None
    cause = m.group("cause").strip()
    rest = cause
    spans = [(p.start, p.end) for p in find_periods(cause)]
    spans += [(c.start, c.end) for c in find_companies(cause)]
    for start, end in spans:
        rest = rest.replace(cause[start:end], " ")
    words = [w for w in re.findall(r"[A-Za-z]{3,}", rest) if w.lower() not in _NOT_A_CAUSE]
    return cause if words else None


# words around a period or a company that name no cause ('the fiscal year', 'the company')
_NOT_A_CAUSE = frozenset(
    [
        "the",
        "its",
        "their",
        "this",
        "that",
        "year",
        "years",
        "fiscal",
        "quarter",
        "quarters",
        "period",
        "company",
        "and",
        "ended",
        "ending",
        "end",
    ]
)


# a cost named by its own caption's words and a cost noun ("Amazon's fulfillment expense",
# "its transaction expense"): a line the catalogue has no item for
_COST_NAMED = re.compile(
    r"(?:\b(?:its|their|the)\s+|['\u2019]s\s+)(?P<words>(?:[A-Za-z&-]+\s+){1,3}?)"
    r"(?P<noun>expenses?|costs?|charges?)\b",
    re.IGNORECASE,
)
_COST_NOUNS = "expense expenses cost costs charge charges"
# words before a cost noun that say which figure, not which line
_NOT_CAPTION = frozenset({"total", "annual", "quarterly", "reported", "gaap", "full", "year"})


def _cost_named(head: str) -> NamedLine | None:
    """A cost the ask names by its caption's words and a cost noun ('fulfillment expense'),
    where the catalogue names no item in the ask: a caption of it holds those words and adds
    only cost nouns ('Fulfillment', 'Transaction expense')."""
    if find_metrics(head):
        return None
    m = _COST_NAMED.search(head)
    if m is None:
        return None
    words = tuple(w for w in metric_key(m.group("words")).split() if w not in _NOT_CAPTION)
    if not words:
        return None
    phrase = f"{m.group('words').strip()} {m.group('noun')}"
    allowed = frozenset(metric_key(_COST_NOUNS).split())
    return NamedLine(phrase, words, allowed, False, None, False)


# an ask naming its line only by referring back to the premise: 'this line', 'the 2017
# amount', 'was it'
_REFERS = re.compile(
    r"\b(?:this|that|the)\s+(?:(?:fiscal\s+)?\d{4}\s+)?(?:line|item|caption|amount|figure)\b"
    r"|\b(?:was|is|did|has)\s+it\b|\b(?:were|are|did|do|have)\s+they\b",
    re.IGNORECASE,
)


def _quoted(text: str) -> str | None:
    """The first caption quoted in the text, or given as a line's name ('a line called Other
    operating (income) expense, net.')."""
    for m in _QUOTED.finditer(text):
        phrase = m.group(1).strip()
        if 1 <= len(metric_key(phrase).split()) <= _MAX_QUOTED_WORDS:
            return phrase
    called = _CALLED.search(text)
    if called is not None:
        phrase = called.group("caption").strip().rstrip(".").strip()
        if 1 <= len(metric_key(phrase).split()) <= _MAX_QUOTED_WORDS:
            return phrase
    return None


# a line given its caption in words ('reports a line called Other operating (income) expense,
# net. Was it ...'): the caption runs to its sentence's end
_CALLED = re.compile(
    r"\b(?:line|caption|line item|item)\s+(?:called|named|labell?ed|titled|captioned)\s+"
    r"(?P<caption>[A-Z(][^?\n]{2,100}?)(?=\.\s+[A-Z]|\.?$|\?)"
)
# a line the question names by its words before 'line' ("McDonald's nonoperating line", 'its
# other (income) expense line'): those words, after a possessive or an article
_WORDS_LINE = re.compile(
    r"(?:['\u2019]s|\bits|\bthe|\btheir)\s+(?P<words>(?:(?!\(?(?:by|using|of|in|to|for|with|from|"
    r"on|at|and|or|as|best|top|bottom|the|a|an|its|was|is|are|were|did|does|has|had)\b)"
    r"[A-Za-z()/&-]+\s+){1,5}?)line\b(?!\s+(?:items?|of)\b)",
    re.I,
)


def line_caption(question: str) -> str | None:
    """The caption of a line the question names as a line ('a line called Other operating
    (income) expense, net', "McDonald's nonoperating line", a quoted caption); None when it
    names none, or names a catalogue item by its own name ('the top line')."""
    q = " ".join(question.split())
    caption = _quoted(q)
    if caption is None:
        m = _WORDS_LINE.search(q)
        caption = m.group("words") if m is not None else None
    if caption is None:
        return None
    named = f"{caption.strip()} line"
    if any(m.start == 0 and m.end == len(named) for m in find_metrics(named)):
        return None  # 'the top line', 'the bottom line': a catalogue item's own name
    return caption.strip()


def line_words(question: str) -> tuple[str, ...]:
    """The words of the line the question names as a line (`line_caption`), as `metric_key`
    words of three letters or more; () when it names none. An answer about that line names
    them: a figure of another line answers another question."""
    caption = line_caption(question)
    if caption is None:
        return ()
    return tuple(w for w in metric_key(caption).split() if len(w) > 2 and w not in _NOT_A_LINE_WORD)


# words of a caption that name nothing of the line
_NOT_A_LINE_WORD = _NOT_A_CAUSE | {"for", "from", "with", "per"}


def caption_line(caption: str, *, both_parts: bool = False, from_item: bool = False) -> NamedLine:
    """The line printed under `caption`, as a quoted caption names it: a caption of it is the
    caption's words, no more (`caption_part`)."""
    words = tuple(metric_key(caption).split())
    return NamedLine(caption, words, frozenset(), True, None, both_parts, from_item=from_item)


def _result_of(head: str) -> NamedLine | None:
    """'A net gain or a net loss on equity investments', 'income from continuing operations':
    a result word with what it is on or from names that line, unless the catalogue names the
    whole phrase ('income from operations' is operating income). A caption of it holds the
    object's words and adds only result words ('Gains (losses) on equity investments, net')."""
    m = _RESULT_OF.search(head)
    if m is None:
        return None
    start, end = m.start(), m.start("obj") + len(m.group("obj"))
    for mention in find_metrics(head):
        if mention.start <= m.start("obj") < mention.end or (
            start <= mention.start and mention.end > m.start("prep")
        ):
            return None  # the catalogue's own name of the phrase
        if mention.start < start < mention.end:
            return None  # the result word ends a longer item ('provision for credit losses')
    obj = m.group("obj").strip()
    words = tuple(metric_key(obj).split())
    if not words:
        return None
    allowed = frozenset(metric_key(_RESULT_WORDS).split())
    return NamedLine(head[start:end], words, allowed, False, None, False, own=True)


def _both_sides(head: str) -> NamedLine | None:
    """'Total deferred revenue (current plus non-current)': the catalogue item the ask names,
    as the two lines a balance sheet prints for it, one on each side (current, non-current),
    summed; the catalogue's one line would be half of it."""
    mention = next((m for m in find_metrics(head)), None)
    if mention is None:
        return None
    item = get_item(mention.canonical)
    if item is None or item.statement != "balance":
        return None
    words = tuple(metric_key(mention.matched).split())
    return NamedLine(mention.matched, words, item_words(mention.canonical), False, item.id, True)


def _printed(head: str, both: bool) -> NamedLine | None:
    """The ask's name of an item the catalogue sums from several lines (short-term debt:
    short-term borrowings and the current portion of long-term debt), as written: a filing
    printing a line under that very caption has stated the item itself."""
    mention = next((m for m in find_metrics(head)), None)
    if mention is None:
        return None
    item = get_item(mention.canonical)
    if item is None or not item.summed:
        return None
    words = tuple(metric_key(mention.matched).split())
    return NamedLine(mention.matched, words, frozenset(), True, item.id, both)


def caption_part(line: NamedLine, caption: str) -> str | None:
    """Whether a filing's caption is the named line: '' for the line itself, CURRENT or
    NONCURRENT for one of its two parts when the question asks both, None when it is another
    line (a broader one, or one the narrowing words do not name)."""
    keys = metric_key(caption).split()
    part = ""
    if line.both_parts:
        keys, part = _split_part(keys)
    if not keys:
        return None
    if line.quoted:
        plain = [k for k in keys if k not in _PLAIN or k in line.words]
        return part if tuple(plain) == line.words else None
    held = set(keys)
    if not set(line.words) <= held:
        return None
    extra = held - set(line.words)
    return part if extra <= (line.allowed | _PLAIN) else None


def _split_part(keys: list[str]) -> tuple[list[str], str]:
    """The caption's keys without a leading or trailing current / non-current marker, and the
    part it marks ('' when none)."""
    for words, part in sorted(_PART_WORDS.items(), key=lambda kv: -len(kv[0])):
        n = len(words)
        if tuple(keys[:n]) == words:
            return keys[n:], part
        if len(keys) > n and tuple(keys[-n:]) == words:
            return keys[:-n], part
    return keys, ""


def captions(text: str) -> tuple[str, ...]:
    """The caption of each of the text's rows that print a figure: its words before the first
    figure, as printed."""
    out = []
    for row in text.splitlines():
        m = _FIRST_FIGURE.search(row)
        if m is None or m.start() == 0:
            continue
        caption = row[: m.start()].strip(" .:\u2014")
        if any(c.isalpha() for c in caption):
            out.append(caption)
    return tuple(out)
