"""The line a question names in the filing's own words, found by the judge in the evidence.

A question may name a line without quoting it and without the words the lexicon reads as a
narrowed catalogue item: 'how much revenue did Costco earn from membership fees', 'what did
PayPal record for transaction and credit losses'. The reasoner then answers the catalogue item
the question also names (total revenue) or a line near the words, and a judge that reads the
question the way the reasoner does agrees with it. The judge's own route is the evidence: a
row the cited pages print whose caption is written in the question, word for word, with a word
the question's metric, company and period do not account for ('Membership fees', 'Transaction
and credit losses') is the line asked. An answer none of whose figures (stated, or operands of
its calculations) is printed on that row answers another line, and is not accepted. A question
about a segment or a region is left to the dimension checks (its name is a column heading as
often as a row); a verdict without figures has nothing to read off a row.

A line the question leaves out ('total debt ..., leaving out redeemable preferred stock') is
found the same way, and an operand that is a printed total of that line and another printed row
('Long-term debt 6,490 / Redeemable preferred stock at redemption value 8 / Total long-term debt
6,498': 6,498 = 6,490 + 8) holds what was to be left out, whatever the total is captioned.

A line printed in parts with no total ('Dividends paid-Series A Preferred Stock (180)' /
'Dividends paid-common stock (3,584)') where the question asks the whole ('in total, counting
every class of stock'): an answer whose figure is one part's, the question naming none of that
part's own words, answers a part for the whole. So does one side of a balance the balance
sheet prints under one caption on both sides ('Deferred revenue 4,733' among the current
liabilities, 'Deferred revenue 145' among the long-term ones) where the question names the
caption and no side: the balance is the two summed, as the concept without a side is.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from finqa.agents.judge.context import Context
from finqa.agents.judge.kind import KindProblem
from finqa.agents.judge.named_line import another_line
from finqa.agents.judge.numeric import NumberCheck
from finqa.agents.types import Answer
from finqa.lexicon import find_metrics
from finqa.lexicon.answer_form import FORM_WORDS
from finqa.lexicon.components import one_side_named, side_free
from finqa.lexicon.dimension_members import kind_words
from finqa.lexicon.dimension_question import asked_dimension
from finqa.lexicon.entities import LEGAL_SUFFIXES
from finqa.lexicon.line_items import get_item
from finqa.lexicon.metrics import metric_key
from finqa.lexicon.named_line import captions
from finqa.lexicon.numbers import SCALE_WORDS, extract_quantities
from finqa.lexicon.periods import MONTH_NUMBERS
from finqa.lexicon.qualifiers import JOINING_WORDS, left_out_phrases, without_side_clauses
from finqa.lexicon.sides import effect_asked
from finqa.lexicon.statements.catalogue import same_balance
from finqa.lexicon.statements.classify import title_kind
from finqa.lexicon.stems import singular

__all__ = ["excluded_inside", "named_caption", "one_side", "split_line", "unread_caption"]

_WORD = re.compile(r"[a-z]+")
# words of a caption that name no line of their own (a total, a net figure, a joining word)
_PLAIN = JOINING_WORDS | {"total", "net", "other"}
# the question's words for a period or a year's part, never a line's name (and the months)
_PERIOD = frozenset(
    {"fiscal", "year", "years", "quarter", "quarters", "month", "months", "week", "weeks",
     "ended", "ending", "end", "first", "second", "third", "fourth", "half", "annual", "three",
     "six", "nine", "twelve", "period", "fy", "q"}
) | {m.lower() for m in MONTH_NUMBERS}  # fmt: skip
# an ask that points back at a line its premise names ('... into A and B. How did the latter
# grow?'): the premise's words name the line asked
_BACK = re.compile(r"\b(?:the\s+(?:latter|former)|th(?:at|is)\s+(?:line|item|caption))\b", re.I)
_MAX_CAPTION_WORDS = 8
_REL_TOL = 0.001
_FACTORS = (1.0, 1e-3, 1e3, 1e-6, 1e6)
_TOTAL_REACH = 4  # rows above a total its parts are printed in
_SUMMED = re.compile(r"\bplus\b|\+|\bless\b|\bminus\b|\badding\b", re.I)
# where a question spells out how its measure is computed: a parenthesis, or what follows
# 'defined as' / 'calculated as' / 'i.e.' up to the end of its sentence
_DEFINITION = re.compile(
    r"\(([^()]{8,160})\)|\b(?:defined|calculated|computed|measured)\s+as\s+([^?.;]{8,160})"
    r"|\bi\.e\.,?\s+([^?;]{8,160})",
    re.I,
)


def _words(text: str) -> list[str]:
    return [singular(w) for w in _WORD.findall(text.lower())]


def _accounted(ctx: Context, question: str) -> set[str]:
    """The question's words the lexicon reads as its metric, its companies or its period."""
    out = set(_PERIOD) | {singular(w) for w in FORM_WORDS}
    out.update(singular(w) for w in SCALE_WORDS)  # 'in USD millions' names the answer's scale
    for m in find_metrics(question):
        out.update(_words(m.matched))
    for name in ctx.intent.companies:
        out.update(_words(name))
    out.update(singular(w) for w in LEGAL_SUFFIXES)  # 'The Coca-Cola Company' names no line
    # the general words for a kind of part ('segment', 'region', 'product line') name none
    out.update(singular(w) for words in kind_words().values() for p in words for w in _words(p))
    for owner in ctx.intent.owners:
        out.update(_words(owner.written))
    return out


def _nature(item: str | None) -> str | None:
    """The catalogue's nature of a line item (revenue, expense, asset ...), None if unknown."""
    return getattr(get_item(item), "nature", None) if item else None


def _other_nature(caption: str, asked: str | None) -> bool:
    """The caption names lines of another nature than the item asked (a revenue line named as
    what a cost is for); False where either nature is unknown."""
    natures = {_nature(m.canonical) for m in find_metrics(caption)} - {None}
    return asked is not None and bool(natures) and asked not in natures


def _contiguous(caption: Sequence[str], question: Sequence[str]) -> bool:
    """The caption's words, joining words aside, are written in the question in order and
    together (at most one joining word between two of them): 'Net income' is not named by
    'income statement', nor 'Total revenue' by 'revenue'."""
    want = [w for w in caption if w not in JOINING_WORDS]
    if not want:
        return False
    for i, w in enumerate(question):
        if w != want[0]:
            continue
        j, k = i, 0
        while k < len(want) and j < len(question):
            if question[j] == want[k]:
                k, j = k + 1, j + 1
            elif question[j] in JOINING_WORDS and k > 0:
                j += 1
            else:
                break
        if k == len(want):
            return True
    return False


Rows = dict[tuple[str, ...], tuple[str, list[float]]]


def _text_rows(texts: Iterable[str]) -> Rows:
    """Each caption the texts print a row under, with the row's figures (as printed)."""
    rows: Rows = {}
    for text in texts:
        for caption, words, figures in _row_lines(text):
            rows.setdefault(words, (caption, []))[1].extend(figures)
    return rows


def _row_lines(text: str) -> list[tuple[str, tuple[str, ...], list[float]]]:
    """The text's table rows in order: each caption, its words and the row's figures (as
    printed). Prose, a heading of years and the end of a wrapped caption are no rows."""
    out = []
    for row in text.splitlines():
        found = captions(row)
        if not found or found[0][:1].islower():
            continue  # no caption, or the end of one wrapped from the line above
        tail = row[row.find(found[0]) + len(found[0]) :]
        if _WORD.search(tail.lower()):
            continue  # prose ('During 2016, we paid ...'), not a table's row of figures
        figures = [abs(q.value) for q in extract_quantities(tail) if q.kind == "number"]
        if figures:  # a heading row of years or dates is not a line
            out.append((found[0], tuple(_words(found[0])), figures))
    return out


def _model_rows(ctx: Context) -> Rows:
    """Each caption the statement model holds for the evidence's filings, with its figures."""
    rows: Rows = {}
    store = ctx.routes.store if ctx.routes is not None else None
    if store is None:
        return rows
    for doc in dict.fromkeys(i.doc_id for i in ctx.evidence.items):
        try:
            tables = store.tables(doc)
        except Exception:  # noqa: BLE001 - a filing the store cannot read: no rows
            continue
        for table in tables:
            for f in table.facts:
                if f.label and not f.dimensions:
                    rows.setdefault(tuple(_words(f.label)), (f.label, []))[1].append(
                        abs(f.filed_value)
                    )
    return rows


def named_caption(ctx: Context, rows: Rows, within: str | None = None) -> str | None:
    """The longest caption among `rows` that the question (or its part `within`) writes out
    and that holds a word the question's metric, companies and period do not account for;
    None when none."""
    question = ctx.intent.asked_text or ctx.question
    if _BACK.search(question):
        question = ctx.question
    accounted = _accounted(ctx, question)
    asked_nature = _nature(ctx.expect.metric)
    # what the question leaves out or takes in beside the whole is not the line asked
    asked = _words(without_side_clauses(within if within is not None else question))
    best: tuple[int, str] | None = None
    for words, (caption, _) in rows.items():
        if not words or len(words) > _MAX_CAPTION_WORDS or words[-1] in _PERIOD:
            continue  # a caption ending on a period's word heads columns ('Changes fiscal')
        own = [w for w in words if w not in _PLAIN and w not in accounted]
        if not own or not _contiguous(words, asked) or title_kind(caption.title()) is not None:
            continue  # a statement's name ('balance sheet') is no line of it
        if _other_nature(caption, asked_nature):
            continue  # the revenue a cost is asked for ('the cost lines for ... revenues')
        size = len([w for w in words if w not in _PLAIN])
        if best is None or size > best[0]:
            best = (size, caption)
    return best[1] if best else None


def _same(a: float, b: float) -> bool:
    """The same figure, at the row's scale or a thousand or a million times larger or smaller
    ('$2,529.81 million' for a row printed in thousands)."""
    a = abs(a)
    return any(abs(a - b * f) <= max(_REL_TOL * b * f, 0.005) for f in _FACTORS)


def _rounded(a: float, b: float) -> bool:
    """A figure with decimals that the row prints rounded to a whole number ('26.7%' on a row
    printing '27 %')."""
    a = abs(a)
    return float(b).is_integer() and not float(a).is_integer() and abs(a - b) <= 0.5


def unread_caption(
    ctx: Context, answer: Answer, numbers: Sequence[NumberCheck]
) -> list[KindProblem]:
    """A problem when the question names a row the evidence prints and none of the answer's
    figures is printed on it (module docstring); the answer's figures become unverified."""
    if ctx.abstained or not numbers or asked_dimension(ctx.question) is not None:
        return []
    if effect_asked(ctx.question) is not None:
        return []  # the total a line's effect is asked on is its object, not the line asked
    within = None
    if ctx.expect.kind not in (None, "amount"):
        # a rate or a ratio over lines the question qualifies ('effective tax rate on
        # continuing operations') names their scope; only the operands its own definition
        # spells out ('(income from continuing operations over net revenues)') are lines
        spelled = (next(g for g in m.groups() if g) for m in _DEFINITION.finditer(ctx.question))
        within = " ".join(spelled) or None
        if within is None or _SUMMED.search(within):
            # a sum of lines spelled out ('product and service costs plus severance ...') may
            # be read as the printed total that holds them: one line per operand is checked
            return []
    rows = _text_rows(src.text for src in ctx.view.sources)
    caption = named_caption(ctx, rows, within)
    if caption is None:
        # not on the pages retrieved: the filing's rows as its statement model holds them
        rows = _model_rows(ctx)
        caption = named_caption(ctx, rows, within)
    if caption is None:
        return []
    # the named caption's row, and the rows of its own lines ('Cost of revenues - subscription,
    # licensing, and other revenues' for 'subscription, licensing, and other revenues')
    key = [w for w in _words(caption) if w not in JOINING_WORDS]
    printed = [
        v
        for words, (_, values) in rows.items()
        if all(w in words for w in key)
        for v in values
        if v
    ]
    if not printed:
        return []
    figures = [nc.value for nc in numbers] + [
        op.value for calc in answer.calculations for op in calc.operands
    ]
    if any(_same(f, v) or _rounded(f, v) for f in figures for v in printed):
        return []
    message = (
        f"the question names the line {caption!r}, which the filing prints, and none of the "
        "answer's figures is read from it"
    )
    return another_line(message, numbers)


def excluded_inside(
    ctx: Context, answer: Answer, numbers: Sequence[NumberCheck]
) -> list[KindProblem]:
    """A problem when an operand of the answer's calculations is a printed total of a line the
    question leaves out and another printed row just above it (module docstring)."""
    if ctx.abstained or not numbers or not answer.calculations:
        return []
    operands = [abs(op.value) for calc in answer.calculations for op in calc.operands if op.value]
    for phrase in left_out_phrases(ctx.question):
        want = [w for w in _words(phrase) if w not in _PLAIN]
        if not want:
            continue
        for src in ctx.view.sources:
            rows = [(words, figures) for _, words, figures in _row_lines(src.text)]
            for k, (_, figures) in enumerate(rows):
                above = rows[max(0, k - _TOTAL_REACH) : k]
                left = [v for words, vs in above if all(w in words for w in want) for v in vs]
                if not left:
                    continue
                others = [v for words, vs in above if not all(w in words for w in want) for v in vs]
                for total in (v for v in operands if v in figures):
                    if any(abs(a + x - total) <= 1.0 for a in others for x in left):
                        message = (
                            f"the operand {total:,.0f} is a printed total that holds "
                            f"{phrase!r}, which the question leaves out"
                        )
                        return another_line(message, numbers)
    return []


# the words of a question asking a line's whole, every part of it
_WHOLE_ASKED = re.compile(
    r"\bin\s+total\b|\btotal\b|\ball\b|\bevery\b|\bcombined\b|\baltogether\b", re.I
)
# a caption naming a part of a line: the line's words, a dash (or a comma, 'on', 'to') and the
# part's ('Dividends paid-common stock', 'Dividends paid on preferred stock')
_PART_CAPTION = re.compile(
    r"^(?P<head>[A-Za-z][\w ]*?[a-z])\s*(?:[-\u2013\u2014]|,\s|\s(?:on|to|for)\s)\s*(?P<part>[A-Za-z].*)$"
)
_SIBLING_REACH = 3  # the parts of a line are printed within a few rows of each other


def _split_caption(caption: str) -> tuple[tuple[str, ...], tuple[str, ...]] | None:
    """A caption's line words and part words ('Dividends paid-common stock' -> dividends,
    paid / common, stock), or None for a caption naming no part."""
    m = _PART_CAPTION.match(caption.strip())
    if m is None:
        return None
    head = tuple(w for w in _words(m.group("head")) if w not in _PLAIN)
    part = tuple(w for w in _words(m.group("part")) if w not in _PLAIN)
    if len(head) < 2 or not part:
        return None  # 'Long-term debt': a compound word, not a line and its part
    return head, part


def split_line(ctx: Context, answer: Answer, numbers: Sequence[NumberCheck]) -> list[KindProblem]:
    """A problem when the answer's figure is one part of a line printed in parts with no total
    and the question asks the whole, naming none of that part's words (module docstring)."""
    if ctx.abstained or not numbers or not _WHOLE_ASKED.search(ctx.question):
        return []
    asked = {singular(w) for w in _words(ctx.question)}
    figures = [abs(nc.value) for nc in numbers if nc.value]
    for src in ctx.view.sources:
        rows = _row_lines(src.text)
        for k, (caption, _, values) in enumerate(rows):
            split = _split_caption(caption)
            if split is None or not values or not any(_same(f, values[0]) for f in figures):
                continue
            head, part = split
            near = rows[max(0, k - _SIBLING_REACH) : k + _SIBLING_REACH + 1]
            for other, _, other_values in near:
                theirs = _split_caption(other) if other != caption else None
                if theirs is None or theirs[0] != head or theirs[1] == part or not other_values:
                    continue
                if any(singular(w) in asked for w in set(part) - set(theirs[1])):
                    continue  # the question names this part ('dividends on common stock')
                if any(_same(f, other_values[0] + values[0]) for f in figures):
                    continue  # the parts' sum is given: the whole
                message = (
                    f"the answer's figure is the line {caption!r}, one part of a line the filing "
                    f"also prints as {other!r}; the question asks the whole"
                )
                return another_line(message, numbers)
    return []


# the row that closes a balance sheet's current side
_CURRENT_TOTAL = re.compile(r"^total\s+current\s+(?:liabilities|assets)\b", re.I)
_SIDE_REACH = 16  # rows of one side of a balance sheet


def one_side(ctx: Context, answer: Answer, numbers: Sequence[NumberCheck]) -> list[KindProblem]:
    """A problem when the answer's figure is one side of a balance printed under the caption the
    question names on both sides of the balance sheet, the question naming no side (module
    docstring)."""
    if ctx.abstained or not numbers or one_side_named(ctx.question):
        return []
    asked = {singular(w) for w in _words(ctx.question)}
    figures = [abs(nc.value) for nc in numbers if nc.value]
    for src in ctx.view.sources:
        rows = _row_lines(src.text)
        for k, (caption, _, _) in enumerate(rows):
            if not _CURRENT_TOTAL.match(caption):
                continue
            current = rows[max(0, k - _SIDE_REACH) : k]
            later = rows[k + 1 : k + 1 + _SIDE_REACH]
            for first, words, values in current:
                # the caption without the side it names ('Current portion of operating lease
                # liabilities' beside 'Operating lease liabilities': `side_free`)
                free = side_free(first)
                kept = set(free.split())
                own = [w for w in words if w not in _PLAIN and metric_key(w) in kept]
                if not own or not all(singular(w) in asked for w in own):
                    continue
                for other, other_words, other_values in later:
                    if not values or not other_values:
                        continue
                    if other_words != words and not same_balance(other, first):
                        continue
                    whole = values[0] + other_values[0]
                    if any(_same(f, whole) for f in figures):
                        continue  # the two sides summed
                    if any(_same(f, v) for f in figures for v in (values[0], other_values[0])):
                        message = (
                            f"the filing prints {first!r} among both its current and its "
                            "non-current lines and the question names no side; the answer "
                            "gives one side, not the balance"
                        )
                        return another_line(message, numbers)
    return []
