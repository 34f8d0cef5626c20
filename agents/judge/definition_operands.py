"""Which catalogue metric a recorded calculation's operand is: the statement row it was read
from ('Net cash provided by operating activities 3,676.2' -> cfo), else its own name, and the
period of each operand relative to the latest (`definition`)."""

from __future__ import annotations

import re
from typing import Any

from finqa.agents.judge import _lex
from finqa.agents.judge.definition_dimension import COUNTED_UNITS, PERCENT_AFTER, UNIT_DIM
from finqa.agents.types import Calculation, Operand
from finqa.lexicon.caches import data_cache

_YEAR = re.compile(r"(?:19|20)\d{2}")
_FIRST_FIGURE = re.compile(r"[\s$(]*[-\u2212]?\(?\$?\d")


def operand_metric(op: Operand) -> str | None:
    """The catalogue metric an operand is: the row it was read from ('Net cash provided by
    operating activities 3,676.2' -> cfo), else its own name ('capex_fy2020' -> capex)."""
    label = operand_label(op.text)
    amount = op.unit in COUNTED_UNITS and not PERCENT_AFTER.search(op.text or "")
    for text in (label, _YEAR.sub(" ", op.name.replace("_", " "))):
        for found in (_longest(text), _captioned(text)):
            if found and not (amount and _is_ratio(found)):
                return same_fact(found)
    return None


def _is_ratio(mid: str) -> bool:
    """A metric that is a ratio, percentage or number of days: an amount's row cannot be it
    (Apple prints its gross profit as 'Gross margin 170,782')."""
    m = catalogue_metric(mid)
    return m is not None and UNIT_DIM.get(m.unit) == (0, 0)


def same_fact(mid: str) -> str:
    """The line item a catalogue line is read as: one the catalogue reads as its own line, else
    the one other line item the catalogue reads it as where the filer prints no line of it
    (`_lex.metric_alternates`: the attributable net income, else net income), the other's
    convention being the same amount."""
    alternates = _lex.metric_alternates(mid)
    if len(alternates) != 1 or catalogue_metric(alternates[0]) is None:
        return mid
    return alternates[0]


def _captioned(label: str) -> str | None:
    """The metric of a statement caption as filed, compared letters only (PDF text glues words:
    'Totalrevenues', 'Operatingincome'), through the lexicon's line-item catalogue."""
    from finqa.lexicon.line_items import label_key

    item = _captions().get(label_key(label))
    return item.metrics[0] if item is not None and item.metrics else None


@data_cache()
def _captions() -> dict[str, Any]:
    from finqa.lexicon.line_items import line_items

    out: dict[str, Any] = {}
    for item in line_items().values():
        for key in item.keys()[0]:
            out.setdefault(key, item)
    return out


def operand_label(text: str) -> str:
    m = _FIRST_FIGURE.search(text or "")
    return (text[: m.start()] if m else text or "").strip()


def _longest(text: str) -> str | None:
    from finqa.lexicon import find_metrics

    if not text.strip():
        return None
    try:
        found = find_metrics(text)
    except Exception:  # noqa: BLE001 - an unreadable name only leaves the operand unnamed
        return None
    if not found:
        return None
    return max(found, key=lambda m: m.end - m.start).canonical


def catalogue_metric(mid: str) -> Any | None:
    from finqa.lexicon import METRICS

    return METRICS.get(mid)


def period_offsets(calc: Calculation) -> list[int]:
    """Each operand's period relative to the latest one (0 = latest, -1 = the year before)."""
    years = [_year(op.period) for op in calc.operands]
    known = [y for y in years if y is not None]
    top = max(known) if known else 0
    return [(y - top) if y is not None else 0 for y in years]


def _year(period: str | None) -> int | None:
    m = _YEAR.search(period or "")
    return int(m.group(0)) if m else None
