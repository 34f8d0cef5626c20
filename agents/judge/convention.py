"""Convention dependence: does the answer hold under every recognised definition of its metric?

Where general practice defines a metric more than one way (`lexicon.variants`: a turnover on
average or year-end balances, the quick ratio's quick assets, capital intensity as capex or
total assets over revenue) and the question states none, the judge evaluates every variant
itself, from the statement model's sources (`Routes`, never the reasoner's reading), for what
the answer concludes:

* `figure` - the metric's figure for the asked year;
* `direction` - which way the metric moved between two years ('improved or declined');
* `judgement` - a yes/no judgement's threshold (`lexicon.judgements`) under each variant, where
  a general definition gives the variant one (else the judgement is open under it).

The outcome is `stated` (the question selects a variant or defines the metric itself),
`agree`, `convention_dependent` (the variants disagree where it matters: the answer is not
accepted, each variant's value and the reason are in the verdict's details) or `no_route`.
What "where it matters" means is the judge's `convention_policy` and `convention_tolerance`,
chosen on company-grouped training folds (`benchmarks.convention_fit`): `figure` - the variants'
figures differ by more than the tolerance; `conclusion` - a figure answer by that test, a
yes/no or direction answer only when its conclusion flips; `conclusion_open` - also when a
variant leaves the conclusion open; `record` - recorded only, never decisive.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from finqa.agents.config import ConventionPolicy
from finqa.agents.judge.kind import KindProblem
from finqa.agents.judge.numeric import NumberCheck
from finqa.agents.judge.routes import Routes, RouteValue
from finqa.agents.judge.statement_figures import match_statement_value

__all__ = [
    "ConventionCheck",
    "ConventionPolicy",
    "VariantValue",
    "check_conventions",
    "convention_dependent",
]

Form = Literal["figure", "direction", "judgement"]
Outcome = Literal["stated", "agree", "convention_dependent", "no_route"]


@dataclass(frozen=True)
class VariantValue:
    """One definition's value of the asked metric, as the judge derives it."""

    name: str
    formula: str
    standard: str
    unit: str
    value: float
    prior: float | None = None  # the earlier year's value (a direction asked)
    conclusion: str | None = None  # 'yes' / 'no', 'up' / 'down'; None: open under it
    answer: bool = False  # the answer's own figure is this variant's
    where: tuple[str, ...] = ()  # pages its readings come from
    readings: tuple[str, ...] = ()  # each line item's reading (label, year, value, page, route)
    # every line item read from a source that may contradict (a tag, the main printing of a
    # statement, a later filing): only such a value can make an answer convention-dependent
    strong: bool = True

    def shown(self) -> str:
        from finqa.lexicon.display import format_amount

        return format_amount(self.value, self.unit if self.unit != "times" else "ratio")

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "formula": self.formula,
            "standard": self.standard,
            "unit": self.unit,
            "value": self.value,
            "prior": self.prior,
            "conclusion": self.conclusion,
            "answer": self.answer,
            "pages": list(self.where),
            "readings": list(self.readings),
            "strong": self.strong,
        }


@dataclass
class ConventionCheck:
    """The variants of the asked metric, their values and what follows for the answer."""

    metric: str
    year: int
    form: Form
    outcome: Outcome
    how: str = ""  # why the question selects a variant, or leaves them open
    stated: str | None = None
    values: list[VariantValue] = field(default_factory=list)
    spread: float = 0.0  # the largest relative gap between two variants' figures
    flips: bool = False  # the variants conclude differently
    open: bool = False  # a variant leaves the conclusion open (no threshold of its own)
    reason: str = ""

    @property
    def rejects(self) -> bool:
        return self.outcome == "convention_dependent"

    def to_dict(self) -> dict[str, Any]:
        return {
            "metric": self.metric,
            "year": self.year,
            "form": self.form,
            "outcome": self.outcome,
            "how": self.how,
            "stated": self.stated,
            "spread": round(self.spread, 6),
            "flips": self.flips,
            "open": self.open,
            "reason": self.reason,
            "variants": [v.to_dict() for v in self.values],
        }


def check_conventions(
    question: str,
    metric: str | None,
    year: int | None,
    numbers: Sequence[NumberCheck],
    routes: Routes,
    rel_tol: float,
    *,
    policy: ConventionPolicy,
    tolerance: float,
) -> tuple[ConventionCheck | None, list[KindProblem]]:
    """The convention check of an answer about `metric` for `year` (None: nothing to check)."""
    from finqa.lexicon.variants import read_variants

    metric, form, test = _asked(question, metric)
    if metric is None or year is None:
        return None, []
    reading = read_variants(metric, question)
    if len(reading.variants) < 2:
        return None, []
    if not reading.ambiguous:
        stated = reading.stated.name if reading.stated else "the question's own definition"
        check = ConventionCheck(metric, year, form, "stated", reading.how, stated)
        return _named_definition(check, reading, routes, numbers, rel_tol, test)
    values = _values(reading.variants, metric, year, routes, numbers, rel_tol, form, test)
    # a variant read in part from a note or a part of the company (a parent-only balance sheet)
    # is shown, but only the filing's own statements can set two definitions against each other
    strong = [v for v in values if v.strong]
    if len(strong) < 2:
        return ConventionCheck(metric, year, form, "no_route", reading.how, values=values), []
    check = ConventionCheck(metric, year, form, "agree", reading.how, values=values)
    check.spread = _spread(strong)
    conclusions = {v.conclusion for v in strong}
    check.flips = len(conclusions - {None}) > 1
    check.open = form != "figure" and None in conclusions
    figured = _verify_other_figures(strong, numbers, rel_tol)
    if convention_dependent(check, policy, tolerance) or (
        figured and len(figured) < len(strong) and policy != "record" and check.spread > tolerance
    ):
        # a direction or a judgement may hold under every definition while the figures the
        # answer states for it are some definitions' and not the others': those figures are
        # convention-dependent
        check.outcome = "convention_dependent"
        check.reason = _reason(check)
        for nc in numbers:
            if nc.ok and _is_answer_figure(nc, values, rel_tol):
                nc.status, nc.detail = "convention_dependent", check.reason
        return check, [KindProblem("convention_dependent", check.reason)]
    return check, []


def _named_definition(
    check: ConventionCheck,
    reading: Any,
    routes: Routes,
    numbers: Sequence[NumberCheck],
    rel_tol: float,
    test: Any,
) -> tuple[ConventionCheck, list[KindProblem]]:
    """The figure checked against the definition the question's own words name (its operands,
    its balance basis), by the judge's routes: a figure that is another recognised definition's
    value (DPO over purchases where the question names cost of sales), and not the named one's,
    answers another definition and is not accepted."""
    named = reading.stated or (reading.variants[0] if reading.own_definition else None)
    if named is None or check.form != "figure":
        return check, []
    others = [v for v in (*reading.variants, *reading.ruled_out) if v != named]
    values = _values(
        [named, *others], check.metric, check.year, routes, numbers, rel_tol, "figure", test
    )
    mine = next((v for v in values if v.name == named.name), None)
    check.values = values
    if mine is None or not mine.strong or mine.answer:
        return check, []
    hit = [v for v in values if v.answer and v.name != named.name and v.strong]
    gaps = [abs(v.value - mine.value) / max(abs(v.value), abs(mine.value), 1e-12) for v in hit]
    if not hit or min(gaps) <= rel_tol:  # the named definition's figure up to rounding
        return check, []
    other = hit[0]
    check.outcome = "convention_dependent"
    check.reason = (
        f"the question names {named.name} ({reading.how}), which gives {mine.shown()}; "
        f"the answer's {other.shown()} is {other.name}"
    )
    for nc in numbers:
        if nc.ok and _is_answer_figure(nc, [other], rel_tol):
            nc.status, nc.detail = "convention_dependent", check.reason
    return check, [KindProblem("convention_dependent", check.reason)]


def convention_dependent(
    check: ConventionCheck, policy: ConventionPolicy, tolerance: float
) -> bool:
    """Do the variants disagree where it matters, under `policy` (the module docstring)?"""
    if policy == "record" or check.outcome in ("stated", "no_route"):
        return False
    if check.form == "figure" or policy == "figure":
        return check.spread > tolerance
    return check.flips or (policy == "conclusion_open" and check.open)


def _asked(question: str, metric: str | None) -> tuple[str | None, Form, Any]:
    """The metric whose variants matter, what the answer concludes about it, and the
    judgement's ratio test when a yes/no judgement is asked."""
    from finqa.lexicon.judgements import asked_judgements, judgements
    from finqa.lexicon.question_intent import read_intent

    read = read_intent(question)  # the lexicon's one parse: the form of answer it asks
    named = [metric] if metric else list(getattr(read.analysis, "metrics", ()) or ())
    ask = read.ask
    if not ask.is_yes_no:
        return (named[0] if named else None), "figure", None
    if any(ask.direction) or ask.open_direction or (ask.compares and len(read.years) > 1):
        return (named[0] if named else None), "direction", None
    asked = asked_judgements(question) or [
        j for j in judgements().values() if any(t.varies_as in named for t in j.tests)
    ]
    for j in asked:
        tests = [t for t in j.tests if t.varies_as]
        if len(j.tests) == 1 and tests:
            return tests[0].varies_as, "judgement", tests[0]
    return (named[0] if named else None), "figure", None


def _values(
    variants: Sequence[Any],
    metric: str,
    year: int,
    routes: Routes,
    numbers: Sequence[NumberCheck],
    rel_tol: float,
    form: Form,
    test: Any,
) -> list[VariantValue]:
    """Each variant's value by the judge's own routes (the catalogue's fallbacks for the
    metric's own formula where a line it names is not printed: the quick ratio of a filer
    without short-term investments); variants the statement model cannot feed are left out."""
    from finqa.lexicon import get_metric

    own = get_metric(metric)
    sign: str | None = None
    out: list[VariantValue] = []
    for n, variant in enumerate(variants):
        formulas = [variant.formula] + (list(own.formulas) if n == 0 else [])
        now = _first(routes, metric, year, formulas, variant.unit)
        if not now:
            continue
        hit = next((v for v in now if _matches(v, numbers, rel_tol)), None)
        if hit is not None and sign is None:
            sign = hit.variant
        chosen = hit or _pick(now, sign)
        prior = None
        if form == "direction":
            before = _first(routes, metric, year - 1, formulas, variant.unit)
            if not before:
                continue
            prior = _pick(before, chosen.variant, like=chosen).value
        out.append(
            VariantValue(
                variant.name,
                variant.formula,
                variant.standard,
                variant.unit,
                chosen.value,
                prior,
                _conclusion(form, chosen.value, prior, variant, own.unit, test),
                hit is not None,
                chosen.pages,
                tuple(r.describe() for r in chosen.readings),
                chosen.strong,
            )
        )
    return out


def _first(
    routes: Routes, metric: str, year: int, formulas: Sequence[str], unit: str
) -> list[RouteValue]:
    for formula in dict.fromkeys(formulas):
        found = routes.values(metric, year, formula=formula, unit=unit)
        if found:
            return found
    return []


def _pick(
    values: Sequence[RouteValue], sign: str | None, like: RouteValue | None = None
) -> RouteValue:
    """The value of the answer's sign reading, else the amounts' (statements print outflows in
    parentheses while the catalogue's formulas take them as amounts), a strong route first;
    an earlier year's from the tables the later year's was read from (`like`)."""
    pages = frozenset(like.pages) if like is not None else frozenset()

    def key(value: RouteValue) -> tuple[bool, int, int, float]:
        return (not value.strong, -len(pages & set(value.pages)), *_consistency(value))

    for want in (sign, "magnitude", "signed"):
        same = [v for v in values if v.variant == want]
        if same:
            return min(same, key=key)
    return min(values, key=key)


def _consistency(value: RouteValue) -> tuple[int, float]:
    """One table's lines before lines gathered from several (a note's or a subsidiary's
    'Inventories' beside the balance sheet's other lines); between two tables, the larger (a
    parent company's or a guarantor's schedule is a part of the whole)."""
    largest = max((abs(r.value) for r in value.readings), default=0.0)
    return (len(value.pages), -largest)


def _matches(value: RouteValue, numbers: Sequence[NumberCheck], rel_tol: float) -> bool:
    """Does a verified figure of the answer state this value (a threshold quoted beside it,
    '1.0', is no figure of the metric)?"""
    return any(
        nc.ok
        and nc.quantity is not None
        and match_statement_value(nc.quantity, value.as_statement_value(), rel_tol)
        for nc in numbers
    )


def _conclusion(
    form: Form, value: float, prior: float | None, variant: Any, own_unit: str, test: Any
) -> str | None:
    if form == "direction" and prior is not None:
        return "up" if value > prior else "down" if value < prior else "flat"
    if form == "judgement" and test is not None:
        shown = value * 100.0 if test.percent and variant.unit in ("ratio", "times") else value
        passed = test.passes_as(variant.name, variant.unit, own_unit, shown)
        return None if passed is None else ("yes" if passed else "no")
    return None


def _spread(values: Sequence[VariantValue]) -> float:
    """The largest relative gap between two variants' figures in one unit (both years for a
    direction); variants in different units are different measures: the largest gap, 2 (as
    between two figures of opposite signs)."""
    gap = 0.0
    for a in values:
        for b in values:
            if a is b:
                continue
            if a.unit != b.unit:
                return 2.0
            for x, y in ((a.value, b.value), (a.prior, b.prior)):
                if x is None or y is None:
                    continue
                scale = max(abs(x), abs(y))
                gap = max(gap, abs(x - y) / scale if scale else 0.0)
    return gap


def _verify_other_figures(
    values: Sequence[VariantValue], numbers: Sequence[NumberCheck], rel_tol: float
) -> set[str]:
    """A figure the answer gives for another variant ('9.54 on year-end inventory') is the
    judge's own derivation of that variant: verified. Returns the variants whose figure the
    answer states (its value for a year)."""
    from finqa.agents.judge.statement_figures import StatementValue

    stated = {v.name for v in values if v.answer}
    for nc in numbers:
        if nc.ok or nc.quantity is None:
            continue
        for v in values:
            found = StatementValue(v.name, v.value, v.unit, 0, v.where)
            if match_statement_value(nc.quantity, found, rel_tol):
                nc.status = "rederived"
                nc.detail = f"statement model, the {v.name} definition: {v.shown()}"
                stated.add(v.name)
                break
    return stated


def _is_answer_figure(nc: NumberCheck, values: Sequence[VariantValue], rel_tol: float) -> bool:
    from finqa.agents.judge.statement_figures import StatementValue

    mine = [v for v in values if v.answer] or values[:1]
    return nc.quantity is not None and any(
        match_statement_value(nc.quantity, StatementValue(v.name, v.value, v.unit, 0, ()), rel_tol)
        for v in mine
    )


def _reason(check: ConventionCheck) -> str:
    """'convention-dependent: 12.14 on average inventory, 9.54 on year-end inventory'."""
    parts = []
    for v in check.values:
        said = f"{v.shown()} on {v.name}"
        if v.conclusion and check.form != "figure":
            said += f" ({v.conclusion})"
        elif check.form != "figure":
            said += " (no general threshold)"
        parts.append(said)
    return "convention-dependent: " + ", ".join(parts) + " (the question states no convention)"
