"""Operators over named line items: a return, a share and a ratio are read over the line items
the question names, not as metrics of their own (issue #25 class 5), so the asked form of the
answer is known even when the catalogue has no metric by that wording.

  'return on (average) X'                    -> return: a year's earnings over (average) X
  'X as a percentage / share of Y'           -> share: X over the whole Y, in percent
  'what percentage / share of Y ... X'       -> share
  'how much of Y ... X ..., as a percentage' -> share
  'X to Y ratio', 'ratio of X to Y'          -> ratio

An operator asks a ratio or a percentage: the amount of one operand (total assets for a return
on total assets, revenue for R&D as a percentage of revenue) answers another question. Growth
and change, the other operators over a line item, are aggregations over years
(`lexicon.answer_form.asked_aggregates`). The catalogue metric that is the operator over the
operands (ROA for a return on total assets; 'X as a % of revenue') is found from the catalogue's
own formulas, never from a wording.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from finqa.lexicon._data import data_cache
from finqa.lexicon.metrics import METRICS, MetricMatch, find_metrics

__all__ = ["Operator", "asked_operator", "defined_quotient", "OPERATOR_FORMS"]

# the form of answer each operator asks: a ratio (or the same as a percentage), a percentage
OPERATOR_FORMS = {"return": "ratio", "share": "percent", "ratio": "ratio"}

_PCT = r"(?:%|percent(?:age)?|share|portion|proportion|fraction)"
_RETURN = re.compile(r"\breturns?\s+on\s+(?:(?:the|its|an?)\s+)?(?:average\s+|avg\.?\s+)?", re.I)
_AS_SHARE_OF = re.compile(rf"\bas\s+an?\s+{_PCT}\s+of\b", re.I)
_WHAT_SHARE_OF = re.compile(rf"\b(?:what|which)\s+{_PCT}\s+of\b", re.I)
_HOW_MUCH_OF = re.compile(r"\bhow\s+much\s+of\b", re.I)
_IN_PERCENT = re.compile(r"%|\bpercent(?:age)?s?\b", re.I)
_RATIO_OF = re.compile(r"\bratio\s+of\b", re.I)
_TO = re.compile(r"^\s*(?:-\s*)?to(?:\s*-)?\s*$", re.I)
_RATIO_AFTER = re.compile(r"^\s*(?:-\s*)?ratio\b", re.I)
# the words that may stand between an operator's words and the line item it is over
_FILLER = re.compile(
    r"^\s*(?:(?:the|its|their|an?|total|net|consolidated|company's|fiscal|fy|\d{2,4}|"
    r"common|shareholders'?|stockholders'?|reported)\b\s*)*$",
    re.I,
)


@dataclass(frozen=True)
class Operator:
    """An operator the question asks over the line items it names."""

    kind: str  # "return" | "share" | "ratio"
    part: str | None  # the catalogue item over the whole (the numerator), None when unnamed
    whole: str | None  # the item it is taken over (the denominator)
    metric: str | None  # the catalogue metric that is this operator over them, if any

    @property
    def form(self) -> str:
        """The form of answer the operator asks: 'ratio' or 'percent'."""
        return OPERATOR_FORMS[self.kind]


def asked_operator(head: str) -> Operator | None:
    """The operator the ask (`head`: the question without its definition clause) names over
    its line items, or None."""
    found = [m for m in find_metrics(head) if not m.operator]
    for read in (_return, _share, _ratio):
        op = read(head, found)
        if op is not None:
            return op
    return None


# a measure the question defines as one figure over another: 'X is defined as A divided by B',
# 'eBay defines the take rate as A divided by B', 'X (A as a percentage of B)'
_QUOTIENT = re.compile(r"\bdivided\s+by\b|\bas\s+an?\s+(?:%|percent(?:age)?)\s+of\b", re.I)


def defined_quotient(question: str) -> Operator | None:
    """The quotient the question defines its measure as (a ratio, or a share 'as a percentage
    of'), when it defines one (`answer_form.defines_metric`); None otherwise. The measure asked
    is a ratio of two figures whatever the lines are: the amount of either does not answer."""
    from finqa.lexicon.answer_form import defines_metric

    q = " ".join(question.split())
    m = _QUOTIENT.search(q)
    if m is None or not defines_metric(q):
        return None
    return Operator("ratio" if "divided" in m.group(0).lower() else "share", None, None, None)


def _right_after(text: str, at: int, found: list[MetricMatch]) -> MetricMatch | None:
    """The first mention after `at` with only articles, 'total' and the like between."""
    for m in found:
        if m.start >= at:
            return m if _FILLER.match(text[at : m.start]) else None
    return None


def _return(text: str, found: list[MetricMatch]) -> Operator | None:
    for rx in _RETURN.finditer(text):
        over = _right_after(text, rx.end(), found)
        if over is None:
            continue
        if _is_return(over.canonical):
            return None  # 'return on average equity' is the catalogue's own name of ROE
        return Operator("return", None, over.canonical, _return_metric(over.canonical))
    return None


def _share(text: str, found: list[MetricMatch]) -> Operator | None:
    m = _AS_SHARE_OF.search(text)
    if m is not None:
        before = [x for x in found if x.end <= m.start()]
        whole = _right_after(text, m.end(), found)
        if before and whole is not None:
            return _share_of(before[-1].canonical, whole.canonical)
        return None
    for rx in (_WHAT_SHARE_OF, _HOW_MUCH_OF):
        m = rx.search(text)
        if m is None or (rx is _HOW_MUCH_OF and not _IN_PERCENT.search(text[m.end() :])):
            continue
        after = [x for x in found if x.start >= m.end()]
        if len(after) >= 2 and after[0].canonical != after[1].canonical:
            return _share_of(after[1].canonical, after[0].canonical)
    return None


def _ratio(text: str, found: list[MetricMatch]) -> Operator | None:
    m = _RATIO_OF.search(text)
    if m is not None:
        after = [x for x in found if x.start >= m.end()]
        if len(after) >= 2 and _TO.match(text[after[0].end : after[1].start]):
            return Operator("ratio", after[0].canonical, after[1].canonical, None)
    for a, b in zip(found, found[1:], strict=False):
        if _TO.match(text[a.end : b.start]) and _RATIO_AFTER.match(text[b.end :]):
            return Operator("ratio", a.canonical, b.canonical, None)
    return None


def _share_of(part: str, whole: str) -> Operator:
    from finqa.lexicon.recipes import PCT_OF_REVENUE, get_recipe

    metric = None
    own = METRICS.get(part)
    if whole == "revenue" and own is not None and own.unit == "USD" and part != "revenue":
        candidate = PCT_OF_REVENUE + part
        metric = candidate if get_recipe(candidate) is not None else None
    return Operator("share", part, whole, metric)


def _is_return(metric_id: str) -> bool:
    metric = METRICS.get(metric_id)
    return metric is not None and metric.name.lower().startswith("return on")


@data_cache()
def _return_metric(item: str) -> str | None:
    """The catalogue's return on `item`: the metric named 'Return on ...' whose formula takes
    a year's earnings over `item` (its average or its balance)."""
    for mid, metric in METRICS.items():
        formula = str(metric.formula or "")
        if _is_return(mid) and re.search(rf"/\s*(?:avg\()?{re.escape(item)}\b", formula):
            return str(mid)
    return None
