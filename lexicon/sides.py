"""The side of a two-sided line: which way a figure printed on it goes, in words.

A caption may name both sides of a line, one in parentheses: 'Other expense (income), net',
'Other (income) expense, net', 'Other expense/(income), net', 'Other (gains) and losses',
'Benefit (provision) for income taxes'. By the printing convention a figure printed in
parentheses is on the side the caption puts in parentheses (an 'Other expense (income)' line
printing (124) is net other income of 124) and an unparenthesised figure on the other side. A
caption that names no side ('Interest and other, net') is read by the income statement's
layout: a line added to operating income toward pre-tax income, positive = income.

The side words are `data/sides.yaml`'s (the same words the statement reader signs lines by,
`lexicon.statements.signs`). One place for this reading: the reasoner states a named line's
side in words, and the judge reads the side a line's figure is on from the filing's own print.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

from finqa.lexicon._data import data_cache, read_yaml
from finqa.lexicon.model import StatementFact

__all__ = [
    "Side",
    "TwoSided",
    "asks_side",
    "effect_asked",
    "effect_option",
    "affected_kind",
    "effect_of",
    "stated_effect",
    "AffectedKind",
    "EffectVerb",
    "line_side",
    "nonoperating_rows",
    "not_a_side",
    "own_words",
    "side_pattern",
    "stated_sides",
    "side_named",
    "side_words",
    "two_sided",
]

SideName = Literal["income", "expense"]
AffectedKind = Literal["cost", "result"]
EffectVerb = Literal["raised", "lowered"]


@data_cache()
def _data() -> dict[str, list[str]]:
    data: dict[str, list[str]] = read_yaml("sides.yaml")
    return data


def side_pattern(role: str) -> re.Pattern[str]:
    """The words of one role of `data/sides.yaml` ('cost', 'benefit', 'income', 'loss') as a
    whole-word pattern."""
    return _pattern(role)


@data_cache()
def _pattern(role: str) -> re.Pattern[str]:
    words = sorted(_data()[role], key=len, reverse=True)
    return re.compile(r"\b(?:" + "|".join(map(re.escape, words)) + r")\b", re.I)


@data_cache()
def side_words() -> dict[SideName, frozenset[str]]:
    """The words of each side: income (income, gains, benefit, credit) and expense (expense,
    losses, provision, charge, cost, deductions)."""
    d = _data()
    income = {*d["income"], *d["benefit"], *d["income_side_extra"]}
    expense = {*d["cost"], *d["loss"], *d["expense_side_extra"]}
    return {"income": frozenset(income - expense), "expense": frozenset(expense)}


def effect_option(options: tuple[str, str], side: SideName) -> str | None:
    """Of the two options a question offers for a line's effect on a result ('help' / 'hurt',
    'raise' / 'lower'), the one a figure on `side` has (income helps, expense hurts); None when
    the options are no such pair."""
    from finqa.lexicon.answer_form import option_of

    effects: dict[str, list[str]] = dict(read_yaml("sides.yaml").get("effects") or {})
    other = "expense" if side == "income" else "income"
    return option_of(options, effects.get(side) or (), effects.get(other) or ())


def effect_asked(question: str) -> tuple[tuple[str, str], str] | None:
    """The two effects an either/or question offers and the words after them ('did the line add
    to or reduce its income before income taxes?': ('add', 'reduce') and 'its income before
    income taxes'; '' where none follow); None when it offers no pair of effects."""
    from finqa.lexicon.asked_measure import either_or_options

    options = either_or_options(question)
    if options is None or effect_option(options, "income") is None:
        return None
    m = re.search(rf"\b{re.escape(options[1])}\w*\s+(?P<obj>[^?,;]+)", question, re.I)
    return options, (m.group("obj").strip() if m else "")


@data_cache()
def _word_patterns(key: str) -> dict[str, re.Pattern[str]]:
    """sides.yaml's `key` groups ('effects': income / expense; 'affected': cost / result), each
    as one whole-word pattern."""
    groups: dict[str, list[str]] = dict(read_yaml("sides.yaml").get(key) or {})
    return {
        name: re.compile(
            r"\b(?:" + "|".join(map(re.escape, sorted(words, key=len, reverse=True))) + r")\b",
            re.I,
        )
        for name, words in groups.items()
        if words
    }


def stated_effect(text: str) -> tuple[int, EffectVerb] | None:
    """Where a text says a line moved a figure and which way, by its first effect verb
    (sides.yaml `effects`: 'raised', 'added', 'boosted' -> raised; 'lowered', 'reduced',
    'hurt' -> lowered); None for none."""
    found: list[tuple[int, EffectVerb]] = []
    for side, verb in (("income", "raised"), ("expense", "lowered")):
        rx = _word_patterns("effects").get(side)
        m = rx.search(text) if rx is not None else None
        if m:
            found.append((m.start(), verb))  # type: ignore[arg-type]
    return min(found) if found else None


# the head of a figure's name: what comes before the words that qualify it
_HEAD_END = re.compile(r"\b(?:before|after|of|from|attributable|excluding)\b", re.I)
# why a side moves a figure of a kind that way (the definition the answer states)
_EFFECT_RULES: dict[tuple[SideName, AffectedKind], str] = {
    ("income", "result"): "income and gains add to a result",
    ("expense", "result"): "expenses and losses are subtracted from a result",
    ("income", "cost"): "a gain or credit is netted against the costs it is printed among",
    ("expense", "cost"): "a cost or loss adds to the costs it is printed among",
}


def affected_kind(figure: str) -> AffectedKind | None:
    """Whether a figure a line affects ('total operating expenses', 'pre-tax income', 'the
    bottom line', 'income before income taxes') is a total of costs or a result, read from its
    head (sides.yaml `affected`); None when it names neither or both."""
    head = _HEAD_END.split(figure, maxsplit=1)[0]
    patterns = _word_patterns("affected")
    kinds: list[AffectedKind] = [
        kind for kind in ("cost", "result") if kind in patterns and patterns[kind].search(head)
    ]
    return kinds[0] if len(kinds) == 1 else None


def effect_of(side: SideName, kind: AffectedKind) -> tuple[EffectVerb, str]:
    """The way a line on `side` moved a figure of `kind`, and the definition that says so: income
    raises a result and lowers the costs it is netted in; an expense lowers a result and raises
    a total of costs."""
    verb: EffectVerb = "raised" if (side == "income") == (kind == "result") else "lowered"
    return verb, _EFFECT_RULES[(side, kind)]


@data_cache()
def not_a_side() -> re.Pattern[str]:
    """Phrases whose side word names no side of the line ('income taxes', 'before income')."""
    return re.compile("|".join(f"(?:{p})" for p in _data()["not_a_side"]), re.I)


_WORD = re.compile(r"[A-Za-z]+")
_PARENS = re.compile(r"\(([^)]*)\)")
# a two-sided group as printed: 'expense (income)', '(income) expense', 'expense/(income)',
# '(gains) and losses', 'provision for/(benefit from)'
_JOINER = r"(?:\s*/\s*|\s+(?:and|or)\s+|\s*)"


@dataclass(frozen=True, slots=True)
class TwoSided:
    """A caption naming both sides of its line, one in parentheses."""

    caption: str
    plain: str  # the side word printed outside parentheses ('expense')
    bracketed: str  # the side word printed in parentheses ('income')
    plain_side: SideName
    start: int  # the span of the two side words in the caption (for its wording)
    end: int

    def side(self, printed_negative: bool) -> tuple[str, SideName]:
        """The word and side of a figure: parenthesised, the bracketed side; else the plain."""
        if printed_negative:
            other: SideName = "expense" if self.plain_side == "income" else "income"
            return self.bracketed, other
        return self.plain, self.plain_side


def _side_of(word: str) -> SideName | None:
    w = word.lower()
    sides = side_words()
    if w in sides["income"]:
        return "income"
    if w in sides["expense"]:
        return "expense"
    return None


def _masked(caption: str) -> str:
    """The caption with the phrases that name no side ('income taxes') blanked, same length."""
    return not_a_side().sub(lambda m: " " * len(m.group(0)), caption)


def two_sided(caption: str) -> TwoSided | None:
    """The caption's two sides when it names a word of each, one in parentheses and one not
    ('Other expense (income), net', 'Benefit (provision) for income taxes'); None otherwise
    ('Other expense, net', 'Interest and other, net')."""
    text = _masked(caption)
    inside: list[tuple[str, int, int]] = []
    for m in _PARENS.finditer(text):
        for w in _WORD.finditer(m.group(1)):
            if _side_of(w.group(0)) is not None:
                inside.append((w.group(0), m.start(), m.end()))
    if not inside:
        return None
    outside = [
        (w.group(0), w.start(), w.end())
        for w in _WORD.finditer(_PARENS.sub(lambda m: " " * len(m.group(0)), text))
        if _side_of(w.group(0)) is not None
    ]
    for word_in, s_in, e_in in inside:
        side_in = _side_of(word_in)
        for word_out, s_out, e_out in outside:
            side_out = _side_of(word_out)
            if side_out is None or side_out == side_in:
                continue
            gap = text[min(e_in, e_out) : max(s_in, s_out)]
            if not re.fullmatch(_JOINER + r"(?:\w+\s*)?" + _JOINER, gap):
                continue  # 'Net income (loss) attributable to ...' keeps its pair adjacent
            return TwoSided(
                caption=caption,
                plain=word_out.lower(),
                bracketed=word_in.lower(),
                plain_side=side_out,
                start=min(s_in, s_out),
                end=max(e_in, e_out),
            )
    return None


@dataclass(frozen=True, slots=True)
class Side:
    """The side a figure on a line is on, with the words that say it."""

    side: SideName
    word: str  # as the caption names it ('income', 'gains', 'benefit'), or the layout's
    phrase: str  # the line named by that side: 'net other income', 'other losses'
    how: str  # why: 'printed (124) on the line ...: parentheses mark income'


def line_side(
    caption: str, printed: float, shown: str = "", *, nonoperating: bool = False
) -> Side | None:
    """The side of a figure (`printed`: as the filing prints it, parenthesised negative) on
    the line `caption` of an income statement: by the caption's parenthesised side (module
    docstring) for a two-sided caption; by the layout for a caption naming no side that the
    statement prints between operating income and pre-tax income (`nonoperating`, see
    `nonoperating_rows`: positive = income, added toward pre-tax income); None for a zero, a
    one-sided caption (its sign is the statement reader's: `lexicon.statements.signs`) or a
    line elsewhere that names no side ('Membership fees' is revenue, not a side)."""
    if not printed:
        return None
    shown = shown or (f"({abs(printed):,.0f})" if printed < 0 else f"{printed:,.0f}")
    pair = two_sided(caption)
    if pair is not None:
        word, side = pair.side(printed < 0)
        phrase = _phrase(caption, pair.start, pair.end, _segment(caption, pair, printed < 0))
        mark = "a figure in parentheses" if printed < 0 else "an unparenthesised figure"
        named = pair.bracketed if printed < 0 else pair.plain
        how = f"printed {shown} on the line '{caption}', where {mark} is {named}"
        return Side(side, word, phrase, how)
    masked = _masked(caption)
    if not nonoperating or any(_side_of(w) for w in _WORD.findall(masked)):
        return None
    layout: SideName = "income" if printed > 0 else "expense"
    bare = _NET.sub(" ", caption).rstrip(" ,")
    phrase = _phrase(f"{bare}, net" if _NET.search(caption) else bare, len(bare), len(bare), layout)
    how = (
        f"printed {shown} on the line '{caption}', which names no side: added toward pre-tax "
        f"income, a {'positive' if printed > 0 else 'negative'} figure is {layout}"
    )
    return Side(layout, layout, phrase, how)


_EDGE_JOINER = re.compile(r"^\s*(?:/|and\b|or\b)\s*|\s*(?:/|\band|\bor)\s*$", re.I)


def _segment(caption: str, pair: TwoSided, bracketed: bool) -> str:
    """The words of the side a figure is on, as the caption prints them: the parentheses'
    content ('benefit from'), or the span outside them ('Provision for', 'losses')."""
    span = caption[pair.start : pair.end]
    inside = _PARENS.search(span)
    if inside is None:
        return pair.bracketed if bracketed else pair.plain
    if bracketed:
        return inside.group(1).strip()
    rest = (span[: inside.start()] + " " + span[inside.end() :]).strip()
    return _EDGE_JOINER.sub("", rest).strip() or pair.plain


OPERATING_ITEM = "operating_income"  # catalogue ids (lexicon/data/metrics.yaml)
PRETAX_ITEM = "pretax_income"


def nonoperating_rows(facts: Iterable[StatementFact]) -> frozenset[int]:
    """The rows of one income-statement table printed between its operating income and its
    pre-tax income: the lines the layout adds to operating income toward pre-tax income."""
    rows: dict[int, str | None] = {}
    for f in facts:
        rows.setdefault(f.row, f.item)
    ordered = sorted(rows)
    top = next((r for r in ordered if rows[r] == OPERATING_ITEM), None)
    if top is None:
        return frozenset()
    bottom = next((r for r in ordered if r > top and rows[r] == PRETAX_ITEM), None)
    if bottom is None:
        return frozenset()
    return frozenset(r for r in ordered if top < r < bottom)


_NET = re.compile(r"(?:,?\s*[-\u2013\u2014]*\s*\bnet\b\s*$)|(?:^\s*net\s+)", re.I)


def _phrase(caption: str, start: int, end: int, word: str) -> str:
    """The caption with its two sides replaced by the one the figure is on, 'net' in front:
    'Other expense (income), net' -> 'net other income'."""
    text = caption[:start] + " " + word + " " + caption[end:]
    net = bool(_NET.search(text))
    text = _NET.sub(" ", text)
    text = re.sub(r"\s+", " ", text.replace(" ,", ",")).strip(" ,-")
    text = text[:1].lower() + text[1:] if not text[:2].isupper() else text
    return f"net {text}" if net else text


# the side of a line an item's nature puts its own figures on
_OWN_WAY: dict[str, SideName] = {
    "expense": "expense",
    "loss": "expense",
    "revenue": "income",
    "gain": "income",
}


def signed_side(nature: str | None, value: float) -> tuple[SideName, str] | None:
    """The side of a catalogue item's signed figure (as the statement reader signs it: an
    expense item positive for an expense, negative for a benefit) and its words: an expense
    item's 'an expense' or 'a benefit', a revenue or gain item's 'income' or 'a loss'; None
    for a zero or an item whose nature has no way (an asset, a subtotal)."""
    way = _OWN_WAY.get(nature or "")
    if way is None or not value:
        return None
    if way == "expense":
        return ("expense", "an expense") if value > 0 else ("income", "a benefit")
    return ("income", "income") if value > 0 else ("expense", "a loss")


def has_way(nature: str | None) -> bool:
    """Does an item of this nature have an own way (an expense, a revenue, a gain, a loss)?"""
    return (nature or "") in _OWN_WAY


# the other way of a result or a revenue: a loss, never an expense ('net income or a net
# expense' are the sides of a line that adds to or takes from a result, not of the result)
_LOSS_WORDS = frozenset({"loss", "losses", "deficit", "deficits"})


def offers_item_sides(question: str, nature: str | None) -> bool:
    """Do the two sides a question offers (`asks_side`) fit an item of this nature: an
    expense's (an expense or a provision against a benefit or income), or a result's or a
    revenue's (income, a gain or a profit against a loss)? 'Was X a net income or a net
    expense?' offers no result's sides: X is a line of its own, not net income."""
    from finqa.lexicon.answer_form import ask_head

    way = _OWN_WAY.get(nature or "")
    # the ask's own sentence first: a premise before it offers no sides
    found = next((f for t in (ask_head(question), question) if (f := _offered(t))), None)
    if found is None or way is None:
        return False
    income, expense, losses = _side_stems()
    return _pair(found, income, expense if way == "expense" else losses)


def side_named(asked: str, nature: str | None) -> bool | None:
    """Whether the one side of a line a yes/no ask names ('Did X record an income tax
    expense?', 'Did X report a gain on ...?') is the item's own way (an expense of an expense
    item, income of an income item: True) or the other (a benefit of an expense item: False);
    None when the ask names none or both, offers both ('an expense or a benefit?': `asks_side`),
    or the item's nature has no way."""
    way = _OWN_WAY.get(nature or "")
    if way is None or asks_side(asked):
        return None
    named = stated_sides(asked)
    if len(named) != 1:
        return None
    return next(iter(named)) == way


def asks_side(question: str) -> bool:
    """A yes/no question offering the two sides of a line ('an expense or income?', 'a net
    gain or a net loss?', 'a benefit or a provision?'): it asks which side each period's figure
    is on (`answer_form.alternatives` whose two groups are words of either side)."""
    return _offered(question) is not None


def _offered(question: str) -> tuple[frozenset[str], frozenset[str]] | None:
    """The two groups of stems a question offers as the sides of a line, else None."""
    from finqa.lexicon.answer_form import alternatives

    found = alternatives(question)
    if not found or len(found) != 2:
        return None
    income, expense, _losses = _side_stems()
    return found if _pair(found, income, expense) else None


def _pair(found: tuple[frozenset[str], frozenset[str]], one: set[str], other: set[str]) -> bool:
    """One group holds a word of `one` and the other a word of `other`, either way round."""
    a, b = found
    return bool((a & one and b & other) or (a & other and b & one))


@data_cache()
def _side_stems() -> tuple[set[str], set[str], set[str]]:
    """The stems of the income side's words, the expense side's and the loss words."""
    from finqa.lexicon.stems import stem

    sides = side_words()
    return (
        {stem(w) for w in sides["income"]},
        {stem(w) for w in sides["expense"]},
        {stem(w) for w in _LOSS_WORDS},
    )


# a span the answer quotes ('Other expense (income)', "Interest and other, net", a filing's
# whole sentence in double quotes, apostrophes and all: "... Verizon's ... benefit ..."): opened
# after a space, '(' or the start, closed before punctuation, a space, a citation or the end
# ("CVS's" opens none)
_QUOTE = re.compile(
    r"(?:^|(?<=[\s(]))(?:\"[^\"]{1,3000}?\"|\u201c[^\u201d]{1,3000}?\u201d"
    r"|['\u2018][^'\u2019\"\u201d]{1,200}?['\u2019])(?=[\s,.?;:)\[]|$)"
)


_CLOSED_QUOTE = re.compile(r"^[^\"\u201c\u201d]*[\"\u201d](?=[\s,.?;:)\[]|$)")
_OPEN_QUOTE = re.compile(r"(?:^|(?<=[\s(]))[\"\u201c][^\"\u201c\u201d]*$")


def _side_alternation() -> str:
    words = sorted({*side_words()["income"], *side_words()["expense"]}, key=len, reverse=True)
    return "|".join(map(re.escape, words))


@data_cache()
def _group() -> re.Pattern[str]:
    """A two-sided group as a caption prints it: a side word beside the other in parentheses
    ('expense (income)', '(income) expense', 'expense/(income)', '(gains) and losses')."""
    w = _side_alternation()
    return re.compile(
        rf"\b(?:{w})\b{_JOINER}\(\s*(?:{w})\b[^)]*\)|\(\s*(?:{w})\b[^)]*\){_JOINER}(?:{w})\b",
        re.I,
    )


def own_words(text: str) -> str:
    """An answer's text without the words it quotes or copies from a two-sided caption (quoted
    spans; 'Other expense (income)' printed bare): what is left states a side in its own words
    ('net other income of $124 million'), or states none."""
    text = _QUOTE.sub(" ", text)
    # a claim cut from inside a quotation: the words before a lone closing quote, or after a
    # lone opening one, are the filing's
    text = _OPEN_QUOTE.sub(" ", _CLOSED_QUOTE.sub(" ", text))
    return _group().sub(" ", text)


def stated_sides(text: str) -> set[SideName]:
    """The sides a text names in its own words (`own_words`): {'income'} for 'net other income
    of $124 million', both for 'an expense, not income', none for a bare figure."""
    found: set[SideName] = set()
    for w in _WORD.findall(_masked(own_words(text))):
        side = _side_of(w)
        if side is not None:
            found.add(side)
    return found
