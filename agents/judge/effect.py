"""The answer to an effect part ('how did it affect total operating expenses?', 'how did it
affect pre-tax income?': `lexicon.causes.effect_object`): a sentence naming the affected figure
with the way the line moved it ('... lowered it', 'raised pre-tax income'), or a quoted cause.

The way is checked against the side the answer gives the line, by definition
(`lexicon.sides.effect_of`): income and gains raise a result and are netted against the costs
they are printed among; expenses and losses lower a result and add to a total of costs. An
answer saying a gain raised total operating expenses, or a charge raised operating income, is
not an answer to the part. Where the answer names no one side, or the figure is neither a total
of costs nor a result (`lexicon.sides.affected_kind`), the way stated stands unchecked.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from finqa.agents.judge.text import content_tokens
from finqa.lexicon.causes import effect_object
from finqa.lexicon.prose import split_sentences
from finqa.lexicon.sides import affected_kind, effect_of, own_words, stated_effect, stated_sides

__all__ = ["EffectCheck", "check_effect"]


@dataclass(frozen=True, slots=True)
class EffectCheck:
    """What the judge made of an effect part: stated (and, where checkable, the right way)."""

    addressed: bool
    how: str


def check_effect(part: str, answer: str) -> EffectCheck | None:
    """The effect part's answer in `answer` (module docstring); None where `part` asks no
    effect or the answer states none (a quoted cause may answer it: the basis check reads it)."""
    figure = effect_object(part)
    if figure is None:
        return None
    wanted = set(content_tokens(figure))
    kind = affected_kind(figure)
    # the answer's own words: a quoted filing sentence ('margins increased, helped by the
    # gain') states no effect the answer claims
    for sentence in split_sentences(own_words(answer)):
        stated = stated_effect(sentence)
        if stated is None or not wanted <= set(content_tokens(sentence)):
            continue
        at, verb = stated
        # the side the answer gives the line: said before the effect verb, else anywhere in
        # its own words, the affected figure's name (its 'income', its 'expenses') left out
        subject = sentence[:at]
        sides = stated_sides(_without(subject, figure)) or stated_sides(
            _without(own_words(answer), figure)
        )
        if kind is None or len(sides) != 1:
            return EffectCheck(True, f"effect on {figure} stated ({verb}); its way not checkable")
        expected, rule = effect_of(next(iter(sides)), kind)
        if verb != expected:
            return EffectCheck(
                False,
                f"the answer says the line {verb} {figure}, where {rule}: it {expected} it",
            )
        return EffectCheck(True, f"effect on {figure} stated ({verb}), the way its side gives")
    return None


def _without(text: str, figure: str) -> str:
    """`text` with the affected figure's name taken out ('pre-tax income' holds a side word)."""
    return re.sub(re.escape(figure), " ", text, flags=re.I)
