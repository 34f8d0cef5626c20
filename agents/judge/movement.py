"""The movement a cause answer's basis states, against the movement asked: 'What drove / why did
X ...' is answered by a sentence explaining X's movement, and a true sentence about X that
explains a movement the other way ('foreign earnings lowered our effective tax rate' where the
rate rose; 'the decrease in net loss' where the result fell from a profit to a loss) is no basis.

* X's lines - the catalogue metric the question names, with the lines on top of a ratio
  (`lexicon.formula.numerator_inputs`: an operating margin with operating income), each named
  by its catalogue phrases;
* the movement asked - for the metric the question names, the question's own movement word
  (not a yes/no part's: 'Did X improve? What drove it?' asks which way it went:
  `lexicon.question_parts.movement_wording`)
  ('higher', 'the reduction in', a fall of 'net loss' read as the result going up:
  `lexicon.causes.stated_direction`); else, and for every line on top of a ratio, the way the
  statement model's figures moved from the year before the asked one (the judge's routes, its
  own reading of the filing: every value of the two years must move the same way);
* the movement stated - the same lexicon reading of each quoted sentence, before its cause
  marker (an offsetting clause after 'partially offset by' does not count); with the size it
  states ('Operating profit decreased 11%'), held against the size the figures moved by
  (`lexicon.movement.against_stated_change`, an amount's percent change read by the routes):
  a sentence stating X moving the asked way by another size explains another figure (a
  division's, a quarter's).

A basis whose sentences state X moving only against the asked movement is not accepted; one
that states no movement of X, or one sentence that agrees, is judged as before.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from finqa.agents.judge import _lex
from finqa.lexicon.answer_form import states_share_of_revenue
from finqa.lexicon.causes import asks_cause, split_at_cause, stated_direction
from finqa.lexicon.movement import (
    Direction,
    against_stated_change,
    change_percents,
    observed_direction,
    stated_change_percents,
)
from finqa.lexicon.question_parts import movement_wording
from finqa.lexicon.statements.store import STORE_READ_ERRORS

__all__ = ["LineMovement", "asked_movements", "against_movement"]

_SUB_ANNUAL = frozenset({"quarter", "half", "ytd"})


@dataclass(frozen=True)
class LineMovement:
    """One of X's lines: its names, and the movement asked of it with how it was read."""

    metric: str
    names: tuple[str, ...]
    direction: Direction | None
    how: str  # "the question's words" or the figures used
    in_ratio: bool = False  # a line on top of the asked ratio, not the ratio itself
    change: tuple[float, ...] = ()  # an amount's percent changes the routes read (() unread)

    def shown(self, way: int) -> str:
        return "up" if way > 0 else "down"


def asked_movements(question: str, routes: Any, asked: Sequence[int]) -> list[LineMovement]:
    """X's lines with the movement asked of each (module docstring); [] for a question that
    asks no cause or names no catalogue metric."""
    if not asks_cause(question):
        return []
    found = _lex.find_metrics(question)
    if not found:
        return []
    from finqa.lexicon.formula import numerator_inputs
    from finqa.lexicon.periods import find_periods

    annual = not any(p.kind in _SUB_ANNUAL for p in find_periods(question))
    metric = str(found[0].canonical)
    own = (found[0].matched.lower(), *_lex.metric_terms(metric))
    out: list[LineMovement] = []
    worded = stated_direction(movement_wording(question), own, metric)
    seen = _observed(metric, own, routes, asked, annual)
    if worded is not None:
        out.append(LineMovement(metric, own, worded, "the question's words", change=seen.change))
    else:
        out.append(seen)
    for item in numerator_inputs(_lex.metric_formula(metric) or ""):
        if item != metric:
            line = _observed(item, _lex.metric_terms(item), routes, asked, annual)
            out.append(replace(line, in_ratio=True))
    return out


def _observed(
    metric: str, names: tuple[str, ...], routes: Any, asked: Sequence[int], annual: bool
) -> LineMovement:
    """The way the statement model's figures of `metric` moved into the latest asked year."""
    if routes is None or not asked or not annual:
        return LineMovement(metric, names, None, "")
    year = max(asked)
    try:
        # the figures as signed ('magnitude' reads a loss printed in parentheses as an amount)
        now = [v for v in routes.values(metric, year) if v.variant == "signed"]
        before = [v for v in routes.values(metric, year - 1) if v.variant == "signed"]
    except STORE_READ_ERRORS:  # a filing the routes cannot read: no movement read
        return LineMovement(metric, names, None, "")
    figures = ([v.value for v in now], [v.value for v in before])
    change = change_percents(*figures) if _lex.metric_unit(metric) == "USD" else ()
    way = observed_direction(*figures)
    if way is None:
        return LineMovement(metric, names, None, "", change=change)
    name = metric.replace("_", " ")
    how = f"{name} FY{year - 1} {before[0].value:,.4g} to FY{year} {now[0].value:,.4g}"
    return LineMovement(metric, names, way, how, change=change)


def against_movement(
    lines: Sequence[LineMovement], sentences: Sequence[str]
) -> tuple[int, str] | None:
    """(index, reason) of a quoted sentence stating X moving against the asked movement, when no
    quoted sentence states it moving the asked way; None otherwise."""
    against: tuple[int, str] | None = None
    for i, sentence in enumerate(sentences):
        split = split_at_cause(sentence)
        topic = split[0] if split else sentence
        share = states_share_of_revenue(topic)
        for line in lines:
            if line.in_ratio and share:
                continue  # 'As a percentage of net sales, SG&A decreased': the ratio moved
            stated = stated_direction(topic, line.names, line.metric)
            if stated is None:
                continue
            if line.direction is None:
                break
            sized = against_stated_change(stated_change_percents(topic), line.change)
            if stated == line.direction and not sized:
                return None
            if stated == line.direction:
                if against is None:
                    shown = ", ".join(f"{c:+.1f}%" for c in line.change[:2])
                    against = (
                        i,
                        f"the quoted sentence states {line.metric.replace('_', ' ')} moving by "
                        f"another size than its figures ({shown}): it explains another figure",
                    )
                break
            if against is None:
                against = (
                    i,
                    f"the quoted sentence states {line.metric.replace('_', ' ')} going "
                    f"{line.shown(stated)}, and it went {line.shown(line.direction)} "
                    f"({line.how}): it explains another movement",
                )
            break
    return against
