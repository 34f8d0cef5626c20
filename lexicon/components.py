"""The lines a question names as the components of the figure it asks: 'total cost of revenue
(product plus service and other)', 'total cost of revenues, including both product costs and
service costs', 'total debt counting commercial paper, the current portion of long-term debt and
long-term debt', 'pre-provision profit (total net revenue minus total noninterest expense)'.

A question that spells a whole out of its parts asks for the whole: the sum (or the difference,
for a measure it defines with 'minus') of every line it names, never one of them. The names in
such a list are operands of the figure asked, not a segment, product line or region of the
business ('product' in 'cost of revenue (product plus service and other)' is a cost line).
Read once from the question's words (`enumeration`); which filing line is each part is the
reader's business (a caption holding the part's words, `part_key`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from finqa.lexicon._data import data_cache
from finqa.lexicon.metrics import metric_key

__all__ = ["Enumeration", "enumeration", "part_key", "SIDES", "side_classes", "side_free"]

# the words of a balance sheet's two sides of one caption ('current plus non-current',
# 'short-term plus long-term'): a list of these alone names the caption's two lines
SIDES = frozenset({"current", "non current", "noncurrent", "short term", "long term"})
# each side word's side: due within a year, or after it ('non current' read as one word first)
_SIDE_CLASS = {
    "current": "current",
    "short term": "current",
    "noncurrent": "noncurrent",
    "long term": "noncurrent",
}


def side_classes(text: str) -> frozenset[str]:
    """The sides of a balance the words name ('current', 'noncurrent'): 'current and long-term
    combined' names both, 'Long-term operating lease liabilities' one ('non-current' is not
    'current')."""
    keys = f" {metric_key(text)} ".replace(" non current ", " noncurrent ")
    return frozenset(cls for word, cls in _SIDE_CLASS.items() if f" {word} " in keys)


_SIDE = r"(?:current|non current|noncurrent|long term|short term)"
# a side named before a caption's words ('Current portion of', 'Long-term') or after them
# (', non-current', ', net of current portion'), in `metric_key` words
_SIDE_LEAD = re.compile(rf"^{_SIDE}\s+(?:(?:portions?|maturitie|maturity|part)\s+of\s+)?")
_SIDE_TAIL = re.compile(
    rf"\s+(?:(?:less|net of|excluding)\s+current\s+(?:portion|maturitie)|current\s+portion|{_SIDE})$"
)


def side_free(caption: str) -> str:
    """A balance caption's words without the side it names ('Current portion of operating lease
    liabilities', 'Long-term operating lease liabilities' and 'Operating lease liabilities,
    non-current' are each 'operating lease liabilitie'): the two sides' lines of one balance."""
    key = metric_key(caption)
    before = None
    while before != key:
        before = key
        key = _SIDE_TAIL.sub("", _SIDE_LEAD.sub("", key))
    return key


def one_side_named(text: str) -> bool:
    """The words name one side of a balance ('current deferred revenue'), not both ('current
    plus long-term', the whole) and not none."""
    return len(side_classes(text)) == 1


# what opens a list of the whole's components after the whole is named: 'including both',
# 'counting', 'comprising', 'defined as', 'computed as' (a list needs two or more parts)
_LEAD = re.compile(
    r"(?:,\s*)?(?:\bi\.e\.,?|\bthat\s+is,|\bnamely)\s+(?=\w)|"
    r"(?:,\s*)?\b(?:including|counting|comprising|consisting\s+of|adding(?:\s+up|\s+together)?|"
    r"summing(?:\s+up)?|combining|(?<=total\s)of|(?<=sum\s)of|"
    r"made\s+up\s+of|(?:which\s+is\s+|is\s+)?(?:defined|computed|calculated)\s+as)\s+",
    re.I,
)
# a parenthesis holding a list: '(A plus B)', '(A + B)', '(A minus B)', '(A, B and C)'
_PAREN = re.compile(r"\(([^()]{3,200})\)")
# where a list after a lead word ends: the question's end or its next clause
_LIST_END = re.compile(
    r"\?|;|\.\s|\.$|\bat\s+(?:the\s+)?(?:end|close)\b|\b(?:at|as\s+of|on)\s+(?=[A-Z][a-z]+\s+\d)"
    r"|\s(?:in|for|during)\s+(?:fiscal|FY|the\s+(?:fiscal\s+)?(?:year|quarter|six|nine|three|first|second|third|fourth))\b"
    r"|\s(?:in|for|during)\s+\d{4}\b|,\s*(?:and\s+)?(?:what|how|which|why|answer|round|express)\b",
    re.I,
)
_PLUS = re.compile(r"\s*(?:\bplus\b|\+)\s*", re.I)
_MINUS = re.compile(r"\s+(?:minus|less)\s+|\s+-\s+", re.I)
_COMMA_LIST = re.compile(r"\s*,\s*(?:and\s+)?|\s+and\s+", re.I)
_BOTH = re.compile(r"^\s*both\s+", re.I)
_BOTH_AND = re.compile(r"\s+and\s+(?=(?:the|its|their|in|within|under)\s)", re.I)
_ARTICLE = re.compile(r"^(?:the|its|their|a|an)\s+", re.I)
_DIGIT = re.compile(r"\d")
_BRACKET = re.compile(r"[()]")
# an operator right after a parenthesis: the list is one operand of a formula ('(A - B) / A')
_OPERATOR_AFTER = re.compile(r"^\s*(?:/|\*|\bx\b|\bdivided\b|\btimes\b)", re.I)
# a comma inside a caption ('long-term debt, net'): the word after it qualifies the line
_CAPTION_COMMA = re.compile(r",\s*(?=(?:net|current|non-?current|noncurrent)\b)", re.I)
_MAX_PART_WORDS = 8
# words a whole may be spelled with before its list, read as 'the total of its parts'
_WHOLE_WORDS = re.compile(r"\b(?:total|combined|aggregate|all)\b", re.I)


@dataclass(frozen=True)
class Enumeration:
    """The components a question names for the figure it asks, in the order written."""

    parts: tuple[str, ...]  # as written, without a leading article ('current portion of ...')
    signs: tuple[int, ...]  # +1 for a part added, -1 for one subtracted ('minus')
    start: int  # the list's span in the (whitespace-normalised) question
    end: int
    whole: str  # the words before the list, up to the clause's start ('total cost of revenue')
    # a bare 'A plus B' of two lines the catalogue names whole: the figure asked is their sum
    stated_sum: bool = False

    @property
    def sides(self) -> bool:
        """The parts are the two sides of one caption ('current plus non-current')."""
        return all(part_key(p) in SIDES for p in self.parts)

    @property
    def defined(self) -> bool:
        """A measure the question defines by a difference of lines ('A minus B'), or the sum
        of two catalogue lines it joins with a bare 'plus'."""
        return any(s < 0 for s in self.signs) or self.stated_sum

    def expression(self) -> str:
        """The parts as written, joined by their operators ('A - B', 'A + B + C')."""
        out = self.parts[0]
        for part, sign in zip(self.parts[1:], self.signs[1:], strict=True):
            out += f" {'-' if sign < 0 else '+'} {part}"
        return out


def enumeration(question: str) -> Enumeration | None:
    """The list of components the question names for a whole, else None (a list needs two
    parts or more; a parenthesis of dates or figures is no list)."""
    return _read(" ".join(question.split()))


def part_key(part: str) -> str:
    """A part's words as `metric_key` spells them, without a leading article."""
    return metric_key(_ARTICLE.sub("", part.strip()))


@data_cache(256)
def _read(q: str) -> Enumeration | None:
    for m in _PAREN.finditer(q):
        body = m.group(1)
        if _DIGIT.search(body):
            continue  # '(53 weeks ended January 3, 2016)', '(in millions)'
        before = q[: m.start()]
        if _OPERATOR_AFTER.match(q[m.end() :]):
            continue
        listed = _split(body, lead_list=bool(_WHOLE_WORDS.search(_clause(before))))
        if listed is not None:
            return Enumeration(*listed, m.start(1), m.end(1), _clause(before))
    for m in _LEAD.finditer(q):
        rest = q[m.end() :]
        stop = _LIST_END.search(rest)
        body = rest[: stop.start()] if stop else rest
        both = _BOTH.match(body)
        if both is not None:
            pair = body[both.end() :]
            # 'both the amount in A and B and the amount in C': the 'and' a new part's article
            # or place follows, else the first
            split = _BOTH_AND.search(pair) or re.search(r"\s+and\s+", pair)
            parts = [pair[: split.start()], pair[split.end() :]] if split else []
            if len(parts) == 2 and all(_ok(p) for p in parts):
                cleaned = tuple(_clean(p) for p in parts)
                return Enumeration(
                    cleaned, (1, 1), m.end(), m.end() + len(body), _clause(q[: m.start()])
                )
            continue
        # a remark in parentheses within a part ('interest expense (net of the portion
        # capitalized) less interest income') qualifies it: the list is read without it
        listed = _split(body, lead_list=True) or _split(_REMARK.sub("", body), lead_list=True)
        if listed is not None:
            return Enumeration(*listed, m.end(), m.end() + len(body), _clause(q[: m.start()]))
    return _stated_sum(q) or _joined_sum(q)


# a parenthesised remark of words only, no list operator inside: '(net of the portion capitalized)'
_REMARK = re.compile(r"\s*\((?![^)]*(?:\bplus\b|\bminus\b|\bless\b|\+|\d))[^()]{1,60}\)")
# a bare 'A plus B' (no parenthesis, no lead word) adds two lines the catalogue names whole:
# 'cash and cash equivalents plus marketable securities combined'
_BARE_PLUS = re.compile(r"\s+(?:plus|\+)\s+", re.I)
# the words a left part starts after: a verb, a preposition, an owner
_LEFT_STOP = frozenset(
    [
        "in",
        "of",
        "hold",
        "held",
        "holds",
        "had",
        "have",
        "has",
        "carry",
        "carried",
        "carries",
        "the",
        "its",
        "their",
        "was",
        "were",
        "is",
        "are",
        "what",
        "much",
        "many",
        "did",
        "do",
        "does",
        "use",
        "using",
        "take",
        "taking",
        "with",
        "as",
        "for",
        "at",
        "on",
    ]
)
# where a right part ends beside the list's end: 'combined', 'together', a new request
_RIGHT_END = re.compile(
    r"\s+(?:combined|together|in\s+total|altogether)\b|\s+and\s+(?=(?:give|what|how|state|"
    r"provide|explain|show|also|then)\b)",
    re.I,
)


def _stated_sum(q: str) -> Enumeration | None:
    """'How much did X hold in A plus B combined?': the two lines a bare 'plus' joins, when the
    catalogue names each whole (`stated_sum`: the figure asked is their sum)."""
    for m in _BARE_PLUS.finditer(q):
        if q[: m.start()].count("(") > q[: m.start()].count(")"):
            continue  # inside a parenthesis: read above
        left: list[str] = []
        for tok in reversed(q[: m.start()].split()):
            if tok.lower() in _LEFT_STOP or re.search(r"['\u2019]s$", tok) or len(left) >= 8:
                break
            left.insert(0, tok)
        rest = q[m.end() :]
        stop = min(
            (x.start() for x in (_LIST_END.search(rest), _RIGHT_END.search(rest)) if x),
            default=len(rest),
        )
        parts = (" ".join(left), rest[:stop])
        if _catalogue_wholes(parts) is None:
            continue
        start = m.start() - len(parts[0])
        return _sum_of(q, parts, start, m.end() + stop)
    return None


# 'A and B combined': the words that make a pair joined by 'and' one figure, their sum
_COMBINED = re.compile(r"\s+(?:combined|together|in\s+total|altogether)\b", re.I)
# the words a left part starts after besides `_LEFT_STOP`: how an amount went out or came in
_LEFT_VIA = frozenset(["through", "via", "by", "from", "to", "into"])


def _joined_sum(q: str) -> Enumeration | None:
    """'How much did X return through dividends (including dividend equivalents) and share
    repurchases combined?': two lines the catalogue names whole, joined by 'and' and made one
    figure by 'combined' / 'together' / 'in total' right after them, are summed (a parenthesis
    inside a part qualifies it)."""
    plain = _PAREN.sub(lambda m: " " * len(m.group(0)), q)  # positions kept
    for m in re.finditer(r"\s+and\s+", plain):
        rest = plain[m.end() :]
        stop = _COMBINED.search(rest)
        if stop is None or len(rest[: stop.start()].split()) > _MAX_PART_WORDS:
            continue
        right = rest[: stop.start()]
        start = m.start()
        for tok in reversed(list(re.finditer(r"\S+", plain[: m.start()]))):
            low = tok.group(0).lower()
            if low in _LEFT_STOP or low in _LEFT_VIA or re.search(r"['\u2019]s$", low):
                break
            if len(plain[tok.start() : m.start()].split()) > _MAX_PART_WORDS:
                break
            start = tok.start()
        parts = (plain[start : m.start()], right)
        items = _catalogue_wholes(parts)
        if items is None or len(set(items)) < 2:
            continue
        return _sum_of(q, parts, start, m.end() + stop.start())
    return None


def _catalogue_wholes(parts: tuple[str, str]) -> tuple[str, ...] | None:
    """The catalogue items two parts name, each part one item's whole name ('dividends',
    'share repurchases'); None when a part is no such name."""
    from finqa.lexicon.metrics import find_metrics

    if not all(_ok(p) for p in parts):
        return None
    found = [find_metrics(p) for p in parts]
    if not all(len(f) == 1 and _whole_mention(f[0].matched, p) for f, p in zip(found, parts, strict=True)):  # fmt: skip
        return None
    return tuple(str(f[0].canonical) for f in found)


def _sum_of(q: str, parts: tuple[str, str], start: int, end: int) -> Enumeration:
    """The figure asked as the sum of two catalogue lines the question joins (`stated_sum`)."""
    return Enumeration(
        tuple(_clean(p) for p in parts), (1, 1), start, end, _clause(q[:start]), stated_sum=True
    )


def _whole_mention(matched: str, part: str) -> bool:
    """The catalogue's mention is the whole part (its article aside)."""
    return part_key(matched) == part_key(part)


def _split(body: str, *, lead_list: bool) -> tuple[tuple[str, ...], tuple[int, ...]] | None:
    """The parts of a list and their signs: split on 'plus' / 'minus' where written, else (a
    list after a lead word or a 'total') on commas and the last 'and'."""
    signed: list[tuple[str, int]] = []
    if _PLUS.search(body) or _MINUS.search(body):
        sign = 1
        for chunk in re.split(
            r"(\s*(?:\bplus\b|\+)\s*|\s+(?:minus|less)\s+|\s+-\s+)", body, flags=re.I
        ):
            word = chunk.strip().lower()
            if word in ("plus", "+"):
                sign = 1
            elif word in ("minus", "less", "-"):
                sign = -1
            elif chunk.strip():
                signed.append((chunk, sign))
    elif lead_list:
        protected = _CAPTION_COMMA.sub(" \x00 ", body)
        signed = [(p.replace(" \x00 ", ", "), 1) for p in _COMMA_LIST.split(protected) if p.strip()]
    if len(signed) < 2 or not all(_ok(p) for p, _ in signed):
        return None
    return tuple(_clean(p) for p, _ in signed), tuple(s for _, s in signed)


def _ok(part: str) -> bool:
    """A part is a few words of a line's name: no figure, no clause."""
    words = part_key(part).split()
    return (
        1 <= len(words) <= _MAX_PART_WORDS and not _DIGIT.search(part) and not _BRACKET.search(part)
    )


# where a part is named by where it is recorded: 'the amount recorded in cost of sales', 'the
# amounts recognized in operating expenses', 'in operating expenses': the line is the caption
_RECORDED_IN = re.compile(
    r"^(?:(?:the|its|their)\s+)?(?:(?:amounts?|portions?|charges?|figures?)\s+)?"
    r"(?:(?:recognized|recognised|recorded|reported|included|charged|booked|shown|presented)\s+)?"
    r"(?:in|within|under)\s+",
    re.I,
)


def _clean(part: str) -> str:
    part = _ARTICLE.sub("", part.strip(" ,")).strip()
    return _ARTICLE.sub("", _RECORDED_IN.sub("", part)).strip() or part


def _clause(before: str) -> str:
    """The words just before a list, back to the clause's start: the whole they make up."""
    tail = re.split(r"[,;:?]|\b(?:what|how|which|using|was|were|is|are)\b", before, flags=re.I)[-1]
    return tail.strip()
