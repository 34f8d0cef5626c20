"""A yes/no question setting one line item's figure against another's: 'Did A grow faster than
B?' (their movements), 'Was A higher than B in 2018?', 'Did A exceed B?' (their levels).

The words are `data/comparatives.yaml`'s. The question names a catalogue item on each side of
its comparative; a comparison against a figure ('more than 10%') or a period ('lower than a
year earlier') sets no item against another and is none here. Such a question is answered by
both figures and the side the first is on: one item's figure, or a movement word of one item,
does not answer it (`states_comparison`: the judge's check of the verdict)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from finqa.lexicon import movement
from finqa.lexicon._data import data_cache, read_yaml
from finqa.lexicon.metrics import find_metrics

__all__ = ["Comparison", "item_comparison", "states_comparison", "premise_comparison", "asks_gap"]


@dataclass(frozen=True, slots=True)
class Comparison:
    """The two sides of a comparison between line items, as the question words them."""

    left: str  # the words naming the figure compared ('cost of products sold grow')
    right: str  # the words naming the figure it is set against ('its sales to customers')
    greater: bool  # asks whether the first is the greater ('faster', 'exceeded')
    movement: bool  # compares the items' movements ('grow faster'), not their levels


def _table() -> dict[str, Any]:
    data: dict[str, Any] = read_yaml("comparatives.yaml")
    return data


def _alt(words: list[str]) -> str:
    return "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))


@data_cache()
def _asked() -> re.Pattern[str]:
    t = _table()
    groups = []
    for side in ("greater", "lesser"):
        g = t[side]
        groups.append(
            rf"(?P<{side}>\b(?:{_alt(g['comparatives'])})\s+than\b|\b(?:{_alt(g['verbs'])})\b)"
        )
    return re.compile("|".join(groups), re.I)


@data_cache()
def _stated() -> re.Pattern[str]:
    t = _table()
    words: list[str] = list(t["stated"])
    for side in ("greater", "lesser"):
        g = t[side]
        words += list(g["comparatives"]) + list(g["verbs"])
    words = [w.replace(" ", r"\s+") for w in words]
    alt = "|".join(sorted(words, key=len, reverse=True))
    return re.compile(rf"\b(?:yes|no|not|neither|nor|{alt})\b|n't\b", re.I)


# the first words of a right side that is a figure or a period, not a line item
_NOT_AN_ITEM = re.compile(
    r"^\s*(?:(?:roughly|about|approximately|around|nearly|almost)\s+)?(?:[$\d(]|"
    r"(?:one|two|three|four|five|six|seven|eight|nine|ten|twice|half)\b|"
    r"(?:in|during|at)\s+(?:fiscal\s+|FY\s*)?\d{4}\b|"
    r"(?:a|the|one)\s+(?:year|quarter|period)\b|(?:the\s+)?(?:prior|previous|preceding|last)\b)",
    re.I,
)
_SENTENCE = re.compile(r"(?<=[?.!])\s+")


def item_comparison(question: str) -> Comparison | None:
    """The comparison between two line items a sentence of the question asks (module
    docstring; a sentence stating one is a premise), or None."""
    for sentence in _SENTENCE.split(" ".join(question.split())):
        m = _asked().search(sentence)
        if m is None or not sentence.endswith("?"):  # a premise states, it does not ask
            continue
        left, right = sentence[: m.start()], re.split(r"[?;]", sentence[m.end() :])[0]
        if _NOT_AN_ITEM.match(right) or not find_metrics(left) or not find_metrics(right):
            continue
        moved = movement.pattern(("up", "down", "change"), ("verbs", "nouns")).search(
            movement.without_idioms(left)
        )
        word = m.group(0).lower()
        return Comparison(
            left=left.strip(),
            right=right.strip(),
            greater=m.group("greater") is not None,
            movement=bool(moved) or word.startswith(("faster", "slower", "quicker", "out")),
        )
    return None


# a premise stating a comparison ('X's A was higher than its B.'), put as the question it
# answers ('Was X's A higher than its B?') to be read as one
_STATES = re.compile(
    r"^(?P<x>.+?)\s+(?P<verb>was|were|is|are)\s+(?P<rest>\w+\s+than\b.+?)\.?$", re.I
)
# an ask of the size of a gap a premise states: 'By how much?', 'by how much, and why?', 'how much
# higher was it?'
_GAP = re.compile(
    r"^\W*by\s+how\s+much\s*(?:[?,]|and\b|$)|^\W*how\s+much\s+(?:higher|lower|more|less|greater|"
    r"larger|smaller|bigger)\b",
    re.I,
)


def premise_comparison(question: str) -> Comparison | None:
    """The comparison between two line items a premise of the question states ('CVS Health's
    net income attributable to CVS Health was higher than its consolidated net income.'), or
    None."""
    for sentence in _SENTENCE.split(" ".join(question.split())):
        if sentence.endswith("?"):
            continue
        m = _STATES.match(sentence.strip())
        if m is None:
            continue
        found = item_comparison(f"{m.group('verb').capitalize()} {m.group('x')} {m.group('rest')}?")
        if found is not None and not found.movement:
            return found
    return None


def asks_gap(question: str) -> bool:
    """An asking sentence asks the size of the gap between the two items a premise compares
    ('... was higher than its consolidated net income. By how much, and why?')."""
    if premise_comparison(question) is None:
        return False
    return any(
        _GAP.search(s) for s in _SENTENCE.split(" ".join(question.split())) if s.endswith("?")
    )


def states_comparison(text: str) -> bool:
    """The text states how two figures compare: a yes / no, a negation, or a comparative
    ('slower than', 'exceeded', 'in line with'); a movement word of one figure does not."""
    return bool(_stated().search(text))
