"""The movement of a figure: the words that say which way it moved (data/movements.yaml, the
one list), the way a question asks it to have moved, and the way its figures did move.

* Literal words ('increased', 'fell', 'higher') keep their way. Evaluative words ('improved',
  'weakened', 'better') mean the way that is good or bad for the company, which is a property
  of the item (the catalogue's `favourable`, else its nature: a net loss, an expense, days
  sales outstanding improve when they fall; revenue, a margin, the current ratio when they
  rise): over an item with none, or no item, they ask no direction.
* A literal movement of a loss named on a signed result line ('the net loss increased', read
  on net income) is the result moving the other way; an evaluative one is not turned (a net
  loss that improved is net income going up).
* The way figures moved: every figure of the later period against every figure of the earlier
  one, all one way beyond a small tolerance (`observed_direction`); by how much, in percent
  (`change_percents`), against the percent a sentence states beside its movement word ('Operating
  profit decreased 11%': `stated_change_percents`, `against_stated_change`): a sentence stating
  another size of change explains another figure's movement (a division's, not the company's).

One place for this language: `lexicon.intent`, `lexicon.causes`, `lexicon.polarity`,
`lexicon.query` and the opposites of `lexicon.answer_form` build their patterns from these
words; the reasoner and the judge read the asked and the observed movement here."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Literal

from finqa.lexicon._data import data_cache, read_yaml

__all__ = [
    "Direction",
    "MovementClass",
    "Form",
    "CLASSES",
    "FORMS",
    "words",
    "alternation",
    "pattern",
    "without_idioms",
    "rate_nouns",
    "loss_words",
    "gain_words",
    "names_loss_side",
    "word_class",
    "favourable_direction",
    "asked_direction",
    "open_evaluation",
    "observed_direction",
    "change_percents",
    "stated_change_percents",
    "size_of_movement",
    "against_stated_change",
    "FLAT",
    "STATED_CHANGE_TOLERANCE",
]

Direction = Literal[1, -1]
MovementClass = Literal["up", "down", "favourable", "unfavourable", "change"]
Form = Literal["verbs", "nouns", "comparatives"]
CLASSES: tuple[MovementClass, ...] = ("up", "down", "favourable", "unfavourable", "change")
FORMS: tuple[Form, ...] = ("verbs", "nouns", "comparatives")
FLAT = 0.005  # a change within this share of the earlier figure states no movement
# a stated percent change agrees with the figures' within a point, or 5% of it, whichever is more
# (filings print whole or one-decimal percents: 'decreased 2%' for -2.05%)
STATED_CHANGE_TOLERANCE = (1.0, 0.05)
_FILE = "movements.yaml"


@data_cache()
def _table() -> dict[str, object]:
    return dict(read_yaml(_FILE) or {})


def _list(key: str) -> tuple[str, ...]:
    value = _table().get(key) or ()
    return tuple(str(w).lower() for w in value)  # type: ignore[attr-defined]


@data_cache()
def words(
    classes: Iterable[MovementClass] = CLASSES,
    forms: Iterable[Form] = FORMS,
    acts: bool = True,
) -> tuple[str, ...]:
    """The words of the given classes and forms, longest first (without the verbs of what a
    company does to a figure, 'raised', 'reduced', when `acts` is False)."""
    skip = frozenset(_list("acts")) if not acts else frozenset()
    out: dict[str, None] = {}
    for cls in classes:
        group = _table().get(cls) or {}
        for form in forms:
            for w in group.get(form) or ():  # type: ignore[attr-defined]
                word = str(w).lower()
                if word not in skip:
                    out[word] = None
    return tuple(sorted(out, key=lambda w: (-len(w), w)))


def alternation(
    classes: Iterable[MovementClass] = CLASSES,
    forms: Iterable[Form] = FORMS,
    acts: bool = True,
) -> str:
    """The words as a regex alternation (no group, no word boundaries), for patterns that
    embed movement words in a phrase of their own ('by how much did X <word>')."""
    return "|".join(
        re.escape(w).replace(r"\ ", r"\s+") for w in words(tuple(classes), tuple(forms), acts)
    )


@data_cache()
def pattern(
    classes: Iterable[MovementClass] = CLASSES,
    forms: Iterable[Form] = FORMS,
    acts: bool = True,
) -> re.Pattern[str]:
    """A whole-word pattern of the words (search it in `without_idioms(text)`)."""
    return re.compile(rf"\b(?:{alternation(tuple(classes), tuple(forms), acts)})\b", re.I)


@data_cache()
def _idioms() -> re.Pattern[str]:
    alt = "|".join(
        re.escape(w).replace(r"\ ", r"\s+") for w in sorted(_list("idioms"), key=len, reverse=True)
    )
    return re.compile(rf"\b(?:{alt})\b", re.I)


def without_idioms(text: str) -> str:
    """`text` with each idiom that holds a movement word but names no movement ('give rise to',
    'fall within') blanked, offsets kept."""
    return _idioms().sub(lambda m: " " * len(m.group(0)), text)


def rate_nouns() -> frozenset[str]:
    """Movement nouns that name a rate as often as an amount ('growth', 'expansion')."""
    return frozenset(_list("rates"))


def loss_words() -> frozenset[str]:
    """Words naming a result line by its negative side ('loss', 'losses', 'deficit')."""
    return frozenset(_list("losses"))


def gain_words() -> frozenset[str]:
    """Words naming a result line by its positive side ('income', 'earnings', 'profit')."""
    return frozenset(_list("gains"))


def names_loss_side(name: str) -> bool:
    """The name holds a loss word and no gain word ('net loss', 'operating losses'; not 'net
    income (loss)', the signed line itself)."""
    toks = set(re.findall(r"[a-z]+", name.lower()))
    return bool(toks & loss_words()) and not toks & gain_words()


@data_cache(1024)
def word_class(word: str) -> MovementClass | None:
    """The class of a movement word ('improved': favourable, 'fell': down), or None."""
    w = " ".join(word.lower().split())
    for cls in CLASSES:
        if w in words((cls,)):
            return cls
    return None


_NATURE_WAY: dict[str, Direction] = {"revenue": 1, "gain": 1, "expense": -1, "loss": -1}
_STATED_WAY: dict[str, Direction | None] = {"higher": 1, "lower": -1, "none": None}


@data_cache(512)
def favourable_direction(item: str | None) -> Direction | None:
    """+1 when it is good for the company that the catalogue item rises (revenue, a margin, a
    return, the current ratio), -1 when it is good that it falls (an expense, a net loss line,
    days sales outstanding, debt-to-equity), None where its definition does not fix it or the
    item is not in the catalogue: its `favourable`, else its nature."""
    from finqa.lexicon.catalogue import entries

    spec = entries().get(item or "")
    if spec is None:
        return None
    stated = spec.get("favourable")
    if stated is not None:
        return _STATED_WAY[str(stated)]
    return _NATURE_WAY.get(str(spec.get("nature") or ""))


def _loss_named(question: str, item: str) -> bool:
    """The question names `item` by its negative side ('net loss' for net income)."""
    from finqa.lexicon.catalogue import entries
    from finqa.lexicon.metrics import find_metrics

    nature = str((entries().get(item) or {}).get("nature") or "")
    if nature in ("loss", "expense"):
        return False  # the line is the loss itself: it moves as named
    return any(m.canonical == item and names_loss_side(m.matched) for m in find_metrics(question))


def asked_direction(question: str, item: str | None = None) -> tuple[bool, bool]:
    """(asks about a rise, asks about a fall) of `item` (a catalogue key; None: the question's
    item is not known). Literal words keep their way ('increase', 'went up' / 'decline',
    'paid down'), turned over for a loss named on a signed result line ('did the net loss
    increase': net income fell); evaluative words ('improve' / 'weaken') take the item's
    favourable direction and ask none over an item without one."""
    text = without_idioms(question)
    up = bool(pattern(("up",)).search(text))
    down = bool(pattern(("down",)).search(text))
    if item is not None and (up or down) and _loss_named(question, item):
        up, down = down, up
    good = bool(pattern(("favourable",)).search(text))
    bad = bool(pattern(("unfavourable",)).search(text))
    if good or bad:
        way = favourable_direction(item)
        if way is not None:
            up = up or (good and way > 0) or (bad and way < 0)
            down = down or (good and way < 0) or (bad and way > 0)
    return up, down


def open_evaluation(question: str, item: str | None) -> bool:
    """The question asks whether `item` improved or weakened (an evaluative word, no literal
    one) and the item's definition fixes no favourable direction (days payable outstanding,
    the effective tax rate, an item outside the catalogue): neither way answers 'Yes', so the
    answer states the movement and no Yes/No of its own."""
    text = without_idioms(question)
    if pattern(("up", "down")).search(text):
        return False
    evaluative = pattern(("favourable", "unfavourable")).search(text)
    return bool(evaluative) and favourable_direction(item) is None


def observed_direction(
    now: Sequence[float], before: Sequence[float], flat: float = FLAT
) -> Direction | None:
    """The way figures moved from `before` to `now`: +1 / -1 when every figure of `now` against
    every figure of `before` moved that way by more than `flat` of the earlier figure; None
    when either side is empty or they do not all tell one way (a flat pair, pairs that
    disagree)."""
    if not now or not before:
        return None
    diffs = [n - b for n in now for b in before if abs(n - b) > flat * max(abs(b), 1e-9)]
    if len(diffs) != len(now) * len(before):
        return None
    if all(d > 0 for d in diffs):
        return 1
    return -1 if all(d < 0 for d in diffs) else None


def change_percents(now: Sequence[float], before: Sequence[float]) -> tuple[float, ...]:
    """The percent change of every figure of `now` against every non-zero figure of `before`."""
    return tuple(100.0 * (n - b) / abs(b) for n in now for b in before if b)


_NUMBER = r"(\d{1,3}(?:\.\d+)?)\s*(?:%|percent\b)(?!\s*-?\s*points?\b)"
_HEDGE = r"(?:(?:approximately|about|nearly|almost|over|roughly|more\s+than|less\s+than)\s+)?"


@data_cache()
def _stated_change() -> re.Pattern[str]:
    words = alternation(CLASSES, FORMS, True)
    return re.compile(
        rf"\b(?:{words})\b\s+(?:by\s+|of\s+)?{_HEDGE}{_NUMBER}"  # 'decreased 11%', 'a rise of 4%'
        rf"|(?<![\d.]){_NUMBER}\s+(?:{words})\b",  # 'an 11% decrease'
        re.I,
    )


def stated_change_percents(text: str) -> tuple[float, ...]:
    """The sizes of change a text states beside a movement word, in percent ('decreased 11%',
    'an increase of 4.8 percent', 'a 2% decline'); percentage points ('a 14-percentage-point
    impact') are a ratio's change, not counted."""
    out: list[float] = []
    for m in _stated_change().finditer(without_idioms(text)):
        value = m.group(1) or m.group(2)
        out.append(float(value))
    return tuple(out)


def against_stated_change(stated: Sequence[float], observed: Sequence[float]) -> bool:
    """Every percent change the text states differs from every observed one beyond rounding
    (`STATED_CHANGE_TOLERANCE`, by size: the direction is read apart); False when either is
    empty (nothing to hold against)."""
    if not stated or not observed:
        return False
    points, share = STATED_CHANGE_TOLERANCE
    return not any(abs(s - abs(o)) <= max(points, share * abs(o)) for s in stated for o in observed)


@data_cache()
def _moved_by() -> re.Pattern[str]:
    verbs = alternation(("up", "down", "favourable", "unfavourable", "change"), ("verbs",))
    return re.compile(
        rf"\b(?:{verbs})\s+(?:by\s+)?(?:approximately\s+|about\s+|roughly\s+|nearly\s+)?\$?\s*$",
        re.I,
    )


def size_of_movement(text: str, start: int) -> bool:
    """The figure at `start` in `text` is the size of a movement its sentence states: a
    movement verb right before it ('decreased by $336 million', 'rose $12 million'), not a
    level named by a gain or loss ('a gain of $20 billion')."""
    return bool(_moved_by().search(text[max(0, start - 40) : start]))
