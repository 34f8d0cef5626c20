"""A measure the question defines by arithmetic over named lines ('pre-provision profit (total
net revenue minus total noninterest expense)'), as a formula over catalogue keys.

The question's definition is the measure asked: it is computed as written, from each named
line, or not at all. The catalogue metric its name resembles (net income for 'profit') is
another measure; it answers only when its own formula is over the same lines (free cash flow
defined as operating cash flow minus capital expenditures is the catalogue's free cash flow).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from finqa.lexicon._data import data_cache
from finqa.lexicon.answer_form import ask_head
from finqa.lexicon.components import enumeration, part_key
from finqa.lexicon.formula import FormulaError
from finqa.lexicon.formula import keys as formula_keys
from finqa.lexicon.metrics import METRICS, find_metrics, metric_key

__all__ = ["DefinedMeasure", "defined_measure", "same_measure"]

# the ask's own verb before the measure's name ('Give net interest (...)')
_LEAD_VERB = re.compile(
    r"^(?:give|compute|calculate|state|find|report|determine|what\s+(?:was|is))\s+", re.I
)
# words a line's name may carry that no caption needs ('total net revenue', 'reported')
_PLAIN = frozenset({"total", "reported", "the", "consolidated"})


@dataclass(frozen=True)
class DefinedMeasure:
    """A measure defined in the question as a signed sum of named lines."""

    name: str  # the words naming it, as written ('pre-provision profit')
    parts: tuple[str, ...]  # each line as written
    signs: tuple[int, ...]
    keys: tuple[str | None, ...]  # each line's catalogue key; None: the catalogue lacks it

    @property
    def formula(self) -> str | None:
        """The definition over catalogue keys ('revenue - noninterest_expense'); None when a
        named line has no catalogue key."""
        if any(k is None for k in self.keys):
            return None
        out = str(self.keys[0])
        for key, sign in zip(self.keys[1:], self.signs[1:], strict=True):
            out += f" {'-' if sign < 0 else '+'} {key}"
        return out

    @property
    def missing(self) -> tuple[str, ...]:
        """The named lines the catalogue has no item for."""
        return tuple(p for p, k in zip(self.parts, self.keys, strict=True) if k is None)

    def written(self) -> str:
        """The definition as the question wrote it ('total net revenue - total noninterest
        expense')."""
        out = self.parts[0]
        for part, sign in zip(self.parts[1:], self.signs[1:], strict=True):
            out += f" {'-' if sign < 0 else '+'} {part}"
        return out


def defined_measure(question: str) -> DefinedMeasure | None:
    """The measure the ask defines by a difference of named lines, or by two catalogue lines a
    bare 'plus' joins, else None (another sum of parts is a whole the catalogue or the named
    line reads; a definition inside an operator's
    operand, 'X divided by the average of Y (A less B)', is not the measure asked)."""
    return _read(" ".join(question.split()))


def same_measure(measure: DefinedMeasure, recipe_id: str | None) -> bool:
    """The catalogue metric's own formula is over the very lines the question defines its
    measure by (free cash flow: operating cash flow minus capital expenditures)."""
    metric = METRICS.get(recipe_id or "")
    if metric is None:
        return False
    wanted = {k for k in measure.keys if k is not None}
    if len(wanted) != len(measure.keys):
        return False
    for formula in (*metric.formulas, metric.formula):
        if not formula:
            continue
        try:
            if wanted <= set(formula_keys(str(formula))):
                return True
        except FormulaError:
            continue
    return False


@data_cache(256)
def _read(q: str) -> DefinedMeasure | None:
    listed = enumeration(q)
    if listed is None or not listed.defined:
        return None
    head = ask_head(q)
    if listed.end > len(head):
        return None  # in the question's own 'X is defined as' clause: the catalogue's reading
    if _operator_before(q[: listed.start]):
        return None
    keys = tuple(_key(p) for p in listed.parts)
    # a bare 'A plus B' names its sum by its lines ('how much did X hold in A plus B')
    name = " plus ".join(listed.parts) if listed.stated_sum else _name(listed.whole)
    return DefinedMeasure(name, listed.parts, listed.signs, keys)


_PERIOD_TAIL = re.compile(
    r"\s+(?:in|for|during|of)\s+(?:fiscal\s+(?:year\s+)?|FY\s*)?\d{4}\b.*$", re.I
)


def _name(whole: str) -> str:
    """The measure's own words: after the owner's possessive ('JPMorgan Chase's pre-provision
    profit' -> 'pre-provision profit')."""
    name = re.split(r"['\u2019]s\s+", whole)[-1].strip()
    name = _PERIOD_TAIL.sub("", name)  # 'net interest expense in 2016': the period is asked
    return _LEAD_VERB.sub("", name)


def _operator_before(before: str) -> bool:
    """An operator of a ratio stands before the list: it defines an operand, not the measure."""
    words = set(metric_key(before).split())
    return bool(words & {"divided", "ratio", "over", "average", "per", "margin", "return"})


def _key(part: str) -> str | None:
    """The catalogue item a named line is, when the item's mention is the whole of it (its
    plain words aside): 'total noninterest expense' is noninterest expense."""
    words = [w for w in part_key(part).split() if w not in _PLAIN]
    for m in find_metrics(part):
        mention = [w for w in metric_key(m.matched).split() if w not in _PLAIN]
        if mention == words:
            return m.canonical
    return None
