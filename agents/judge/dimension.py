"""The judge's check of a question about one part of the business (segment, region, product).

The question is read against the members of the evidence filings' own part axes
(`lexicon.dimensions`); the answer's figures are then checked by the judge's own lookup in
the index's statement model: the part's fact for the asked line item and period, and the
consolidated figure beside it. A figure equal to the part's fact is verified (a second route:
the filing's tag or its segment table, not the reasoner's reading); an answer whose figures
equal the consolidated figure and not the part's, or that gives a figure where the statement
model holds none for the part, or a figure that is not the part's, is not accepted. Nothing
here imports the reasoner.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from finqa.agents.judge import _lex
from finqa.agents.types import Answer, Evidence
from finqa.lexicon import get_metric
from finqa.lexicon.causes import stated_direction
from finqa.lexicon.dimension_figures import part_figures, part_value
from finqa.lexicon.dimension_members import name_key
from finqa.lexicon.dimension_question import asked_dimension, part_is_whole
from finqa.lexicon.dimensions import (
    asked_item,
    dimensional_facts,
    members_in,
    period_in,
    resolve_dimension,
)
from finqa.lexicon.formula import FormulaError, evaluate_metric
from finqa.lexicon.question_intent import read_intent

__all__ = ["DimensionCheck", "check_dimension", "index_store"]

_LOSS = re.compile(r"\b(?:loss|losses|negative|deficit)\b|\(\s*\$?\d|-\s*\$?\d|−", re.I)


@dataclass
class DimensionCheck:
    """What the judge found for a question about one part of the business."""

    dimension: str  # "segment 'Greater China'"
    item: str
    part: tuple[float, ...]  # the part's figures in the statement model (base units)
    consolidated: tuple[float, ...]
    failed: bool = False
    message: str = ""
    verified: list[str] = field(default_factory=list)  # the answer's figures that are the part's

    def to_dict(self) -> dict[str, Any]:
        return {
            "dimension": self.dimension,
            "item": self.item,
            "part": list(self.part),
            "consolidated": list(self.consolidated),
            "failed": self.failed,
            "message": self.message,
            "verified": self.verified,
        }


def index_store(settings: Any) -> Any | None:
    """The index's statement model (one shared reader per index), None when it has none."""
    path = Path(str(getattr(getattr(settings, "index", None), "path", "") or ""))
    if not path or not (path / "statements" / "manifest.json").exists():
        return None
    from finqa.lexicon.statements import shared_store

    return shared_store(path)


def _amounts(nc: Any) -> list[float]:
    """The figure in base units; for a figure written without a scale, as millions and
    thousands too (the question's 'in USD millions' lets an answer leave it out)."""
    q = nc.quantity
    if q is None or q.kind != "number" or q.unit not in ("USD", "$", ""):
        return []
    if q.scale_source == "none":
        return [q.value * s for s in (1.0, 1e3, 1e6, 1e9)]
    return [q.absolute]


def _equal(a: float, b: float, rel_tol: float) -> bool:
    return abs(abs(a) - abs(b)) <= max(rel_tol * abs(b), 0.5)


def check_dimension(
    store: Any | None,
    question: str,
    answer: Answer,
    evidence: Evidence,
    numbers: Sequence[Any],
    *,
    abstained: bool,
    rel_tol: float = 0.01,
) -> DimensionCheck | None:
    """The check of an answer to a question naming a part of the business; None when the
    question names none, the answer abstains, or no statement model covers the evidence."""
    if abstained or store is None or read_intent(question).part_choice is not None:
        return None  # a choice among a breakdown's parts is checked by `part_choice`
    docs = [d for d in dict.fromkeys(i.doc_id for i in evidence.items) if d in store.docs()]
    if not docs:
        return None
    asked = resolve_dimension(question, members_in(store, docs))
    if asked is None:
        return None
    item = asked_item(question, asked) or "revenue"
    named = _other_part_named(question, asked.phrase, answer.text)
    if named is not None:
        return DimensionCheck(asked.describe(), item, (), (), failed=True, message=named)
    if part_is_whole(question, asked.phrase):
        # 'how much Domestic revenue came from Computing and Mobile Phones': the part's own
        # figure is the whole the asked amount is a part of
        return DimensionCheck(
            asked.describe(),
            item,
            (),
            (),
            failed=True,
            message=(
                f"the question asks an amount within {asked.describe()} that comes from another "
                f"part; {asked.describe()}'s own figure is the whole, not the amount asked"
            ),
        )
    ask = read_intent(question).ask  # the lexicon's one reading of the question
    period = period_in(question, docs)  # a stated date by the filer's own calendar
    way = _other_line_way(store, docs, asked, question, item, period, answer.text)
    if way is not None:
        return DimensionCheck(asked.describe(), item, (), (), failed=True, message=way)
    metric = get_metric(item)
    change = ask.change_over_prior
    if metric is not None and (metric.is_derived or change is not None):
        return _check_computed(store, docs, asked, metric, change, period, numbers, rel_tol)
    part = dimensional_facts(store, docs, item, asked, period)
    total = [f for d in docs for f in store.lookup(d, item, period) if not f.dimensions]
    check = DimensionCheck(
        asked.describe(),
        item,
        tuple(dict.fromkeys(f.value for f in part)),
        tuple(dict.fromkeys(f.value for f in total)),
    )
    figures = [nc for nc in numbers if _amounts(nc)]
    if not figures:
        return check
    for nc in figures:
        hit = next((f for f in part for v in _amounts(nc) if _equal(v, f.value, rel_tol)), None)
        if hit is None:
            continue
        near = answer.text[max(0, nc.start - 40) : nc.end + 12]
        if hit.value < 0 and not _LOSS.search(near):
            check.failed = True
            check.message = (
                f"the {item.replace('_', ' ')} of {asked.describe()} is a loss "
                f"({hit.value:,.0f}); the answer states it as a positive figure"
            )
            return check
        nc.status = "rederived"
        nc.detail = (
            f"the statement model's figure for {asked.describe()}: {hit.concept or hit.label} "
            f"{hit.period.key} = {hit.value:,.0f} (p.{hit.page + 1})"
        )
        check.verified.append(nc.text)
    if check.verified:
        return check
    what = f"{item.replace('_', ' ')} of {asked.describe()}"
    consolidated = any(
        _equal(v, t, rel_tol) for nc in figures for v in _amounts(nc) for t in check.consolidated
    )
    if consolidated:
        check.message = f"the answer gives the consolidated figure, not the {what}"
    elif not part:
        check.message = f"the statement model holds no figure for the {what}"
    else:
        check.message = f"no figure of the answer is the {what} ({part[0].value:,.0f})"
    check.failed = True
    return check


def _other_line_way(
    store: Any,
    docs: Sequence[str],
    asked: Any,
    question: str,
    item: str,
    period: Any,
    text: str,
) -> str | None:
    """Why the answer's way for another line a yes/no part asks about is wrong ('what was the
    segment's operating margin, and did its net sales grow or shrink?'), by the part's own two
    years in the statement model: the answer states no movement of that line (the way it
    states is another figure's: 'it improved', of the margin), or the other way; None when no
    part asks another line's way, or the model lacks either year."""
    parts = read_intent(question).parts.parts
    if len(parts) < 2:
        return None
    for part in parts:
        if part.form != "verdict":
            continue
        other = asked_item(part.text, asked)
        if other is None or other == item:
            continue
        figures = part_figures(store, docs, (other,), asked, period)
        if figures is None or other not in figures.current or other not in figures.previous:
            return None
        now, then = figures.current[other].value, figures.previous[other].value
        if now == then:
            return None
        way = 1 if now > then else -1
        name = f"{other.replace('_', ' ')} of {asked.describe()}"
        stated = stated_direction(text, _lex.metric_terms(other), other)
        if stated is None:
            return (
                f"the question asks which way the {name} went; the answer states no movement "
                "of that line (a way it states is another figure's)"
            )
        if stated != way:
            return (
                f"the answer says the {name} went {'up' if stated > 0 else 'down'}; the "
                f"statement model's figures went {'up' if way > 0 else 'down'} "
                f"({then:,.0f} to {now:,.0f})"
            )
    return None


def _other_part_named(question: str, resolved: str, answer: str) -> str | None:
    """Why the answer is not the part the question's own words name, when they name another
    part than the member the filing's vocabulary resolved ('the Entertainment category in the
    Domestic segment': the category, within the segment) and the answer never names it; None
    otherwise (a place the filing spells otherwise, 'U.S.' for 'United States', is left to the
    members' reading)."""
    spoken = asked_dimension(question)
    if spoken is None or spoken.kind == "geography" or not spoken.phrase:
        return None
    said, read = name_key(spoken.phrase), name_key(resolved)
    if said in read or read in said:
        return None  # one name within the other ("General Mills' Pet" and 'Pet')
    if name_key(spoken.phrase) in name_key(answer):
        return None
    return (
        f"the question asks the {spoken.kind} {spoken.phrase!r}; the answer gives "
        f"{resolved!r}'s figure and never names {spoken.phrase!r}"
    )


def _check_computed(
    store: Any,
    docs: Sequence[str],
    asked: Any,
    metric: Any,
    change: str | None,
    period: Any,
    numbers: Sequence[Any],
    rel_tol: float,
) -> DimensionCheck:
    """A part's derived metric or its growth / change: recomputed by the judge from the part's
    own facts in the statement model (and, beside it, from the consolidated facts); an answer
    figure equal to the part's value is verified, the consolidated value or none fails."""
    inputs = metric.inputs if metric.is_derived else (metric.id,)
    how = None if metric.is_derived else change
    figures = part_figures(store, docs, inputs, asked, period)
    expected = part_value(figures, metric.id, how) if figures is not None else None
    whole = _consolidated(store, docs, metric, inputs, how, period)
    label = metric.name.lower() if how is None else f"{how} in {metric.name.lower()}"
    check = DimensionCheck(
        asked.describe(), metric.id, () if expected is None else (expected,),
        () if whole is None else (whole,),
    )  # fmt: skip
    percent = metric.unit == "%" or how == "growth"
    figures_said = [v for nc in numbers for v in _values(nc, percent)]
    if not figures_said:
        return check
    close = (lambda a, b: abs(a - b) <= 0.15) if percent else (lambda a, b: _equal(a, b, rel_tol))
    hits = [nc for nc in numbers if expected is not None and any(close(v, expected) for v in _values(nc, percent))]  # fmt: skip
    for nc in hits:
        nc.status = "rederived"
        moved = "" if how is None else f" ({label}, a change from the period before)"
        nc.detail = (
            f"recomputed from the statement model's figures for {asked.describe()}{moved}: "
            f"{expected:,.2f}"
        )
        check.verified.append(nc.text)
    if check.verified:
        return check
    what = f"{label} of {asked.describe()}"
    if whole is not None and any(close(v, whole) for v in figures_said):
        check.message = f"the answer gives the consolidated {label}, not the {what}"
    elif expected is None:
        check.message = f"the statement model holds no figures to compute the {what}"
    else:
        check.message = f"no figure of the answer is the {what} ({expected:,.2f})"
    check.failed = True
    return check


def _values(nc: Any, percent: bool) -> list[float]:
    q = nc.quantity
    if q is None or q.kind != "number":
        return []
    if percent:
        return [q.value] if q.unit == "%" else []
    return _amounts(nc)


def _consolidated(
    store: Any,
    docs: Sequence[str],
    metric: Any,
    inputs: Sequence[str],
    how: str | None,
    period: Any,
) -> float | None:
    """The same computation over the company's own (undimensioned) facts, where it has them."""
    cur: dict[str, float] = {}
    for item in inputs:
        facts = [f for d in docs for f in store.lookup(d, item, period) if not f.dimensions]
        if not facts:
            return None
        cur[item] = facts[0].value
    if how is not None:
        return None  # the year before of the company's figure is not needed to tell the part's
    try:
        return evaluate_metric(metric.id, cur, None)
    except (FormulaError, ZeroDivisionError):
        return None
