"""Compute a metric question from statement rows: operands, a re-executable Calculation, an answer."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from datetime import date

from finqa.agents.reasoning.offline.book import Book, Fact
from finqa.agents.reasoning.offline.tables import Row
from finqa.agents.types import Calculation, Citation, Operand
from finqa.lexicon.arith import ArithmeticError_, evaluate
from finqa.lexicon.conventions import apply_conventions
from finqa.lexicon.display import format_amount, period_phrase
from finqa.lexicon.line_items import line_items
from finqa.lexicon.metrics import display_value
from finqa.lexicon.question_ask import QuestionAsk
from finqa.lexicon.recipes import Recipe, get_recipe, variant_recipe
from finqa.lexicon.statements.signs import caption_sign

__all__ = [
    "Solution",
    "solve",
    "format_value",
    "missing_operands",
    "get_recipe",
    "fact_citations",
    "formula_items",
    "solve_with",
    "build_solution",
    "implausible",
    "signed_figure",
]

_TOKEN = re.compile(r"([a-z_]+)\[y(?:-(\d))?\]")
_ITEM = re.compile(r"[a-z_]+")  # a catalogue key in `read: derive`
_SCALE_WORD = {1e3: "thousand", 1e6: "million", 1e9: "billion"}


@dataclass
class Solution:
    recipe: Recipe
    value: float  # in `unit`; USD values in `scale` units
    unit: str
    scale: float  # of USD values (1e6: millions); 1 otherwise
    scale_known: bool
    calculation: Calculation
    facts: list[Fact] = field(default_factory=list)
    per_year: dict[int, float] = field(default_factory=dict)
    # 'defined': the catalogue's formula; 'year_end': its averages taken at the year-end balance
    # because a prior year-end balance was not in the evidence (stated, with lower confidence)
    basis: str = "defined"
    # why the figure cannot be the metric by its definition (`lexicon.plausibility`: a margin
    # outside [-100%, 100%], a negative turnover or days ratio); empty when it can
    implausible: str = ""
    # a sentence the answer adds where a second reading of the figure differs and why this one
    # answers (a balance's printed movement beside the difference of its two balances)
    beside: str = ""


def _expand(
    formula: str,
    year: int,
    book: Book,
    facts: dict[str, Fact],
    rows: dict[str, Row],
    summed: dict[str, list[str]] | None = None,
    named: tuple[str, ...] = (),
) -> str | None:
    """Formula for one year with operand names; None when an operand is missing. A summed
    line item (`LineItem.summed`) is the sum of its lines: one operand each (`summed`: the
    item's first operand name -> every operand name)."""
    missing = False
    summed = {} if summed is None else summed

    def sub(m: re.Match[str]) -> str:
        nonlocal missing
        item_id, back = m.group(1), int(m.group(2) or 0)
        y = year - back
        name = f"{item_id}_fy{y}"
        if name not in facts:
            li = line_items().get(item_id)
            if li is not None and li.summed:
                found = book.find_summed(item_id, y, named)
                if not found:
                    missing = True
                    return name
                names = [name, *(f"{item_id}_{n}_fy{y}" for n in range(2, len(found) + 1))]
                facts.update(zip(names, found, strict=True))
                summed[name] = names
            else:
                fact = book.find(item_id, y, prefer=rows.get(item_id), named=named)
                if fact is None and li is not None and li.derive:
                    # no line of it printed: the catalogue's derivation from other lines of
                    # the same date (the company's equity = total equity - NCI), shown; one
                    # level (the catalogue refuses a derivation over derived items)
                    derived = _ITEM.sub(lambda t: f"{t.group(0)}[y]", li.derive)
                    expr = _expand(derived, y, book, facts, rows, summed, named)
                    read = [
                        facts[f"{t}_fy{y}"].row
                        for t in _ITEM.findall(li.derive)
                        if expr is not None and f"{t}_fy{y}" in facts
                    ]
                    if read and (
                        len({r.doc_id for r in read}) > 1
                        or max(r.page for r in read) - min(r.page for r in read) > 1
                    ):
                        expr = None  # the lines of one statement of one filing, or nothing
                    if expr is None:
                        missing = True
                        return name
                    return f"({expr})"
                if fact is None or (fact.item.unit == "%" and not abs(fact.value) < 100):
                    missing = True  # no row; or a stated rate that is no percentage
                    return name
                twin = book.other_side(fact)
                if twin is not None:
                    # a balance printed on both sides under one caption, no side asked: both
                    names = [name, f"{item_id}_2_fy{y}"]
                    facts.update(zip(names, (replace(fact, both_sides=True), twin), strict=True))
                    summed[name] = names
                else:
                    facts[name] = fact
                rows.setdefault(item_id, fact.row)
        fact = facts[name]
        if name in summed and len(summed[name]) > 1:
            # each line as its item reads it: an expense printed in parentheses is its size
            lines = (f"abs({n})" if fact.item.magnitude else n for n in summed[name])
            return "(" + " + ".join(lines) + ")"
        if fact.item.magnitude:
            return f"abs({name})"
        if signed_figure(fact) != fact.value:
            return f"(-{name})"
        return name

    expr = _TOKEN.sub(sub, formula)
    return None if missing else expr


def signed_figure(fact: Fact) -> float:
    """The fact's figure in its item's own direction: 'Income tax (expense)/benefit' in the
    text prints the expense as the negative, so it is turned (the statement model's rows carry
    the item's own sign already: `lexicon.statements.signs`)."""
    if fact.item.signed_expense and not fact.row.model and caption_sign(fact.row.label) < 0:
        return -fact.value
    return fact.value


def formula_items(formula: str) -> tuple[str, ...]:
    """The line item ids a recipe formula reads ('gross_profit[y] / revenue[y]' -> both)."""
    return tuple(dict.fromkeys(m.group(1) for m in _TOKEN.finditer(formula)))


def missing_operands(spec: QuestionAsk, book: Book) -> list[str]:
    """'capex FY2020'-style names of the operands the first formula lacks (for the abstention)."""
    recipe = get_recipe(spec.recipe)
    if recipe is None:
        return []
    out: list[str] = []
    for y in spec.agg_years:
        for m in _TOKEN.finditer(apply_conventions(recipe.formulas[0], spec.conventions)):
            item_id, yy = m.group(1), y - int(m.group(2) or 0)
            label = f"{item_id.replace('_', ' ')} FY{yy}"
            if label not in out and book.find(item_id, yy, named=spec.statements) is None:
                out.append(label)
    return out


def solve(spec: QuestionAsk, book: Book) -> Solution | None:
    """The metric the question asks for, computed from the evidence, or None.

    A reading whose figure the metric cannot take by its definition (`Solution.implausible`)
    is returned only when no other reading is plausible: the caller abstains, saying why.
    A metric the catalogue defines on average balances whose prior year-end balance is not in
    the evidence is computed on the year-end balance instead (`Solution.basis` 'year_end'),
    unless the question states its balance basis: the answer then says so."""
    sol = _solve(spec, book)
    moved = _printed_movement(spec, book, sol)
    if moved is not None:
        return moved
    if (sol is not None and not sol.implausible) or spec.conventions.balance is not None:
        return sol
    recipe = get_recipe(spec.recipe)
    if recipe is None or not any("avg(" in f for f in recipe.formulas):
        return sol
    ending = replace(spec, conventions=replace(spec.conventions, balance="ending"))
    other = _solve(ending, book, described=False)
    if other is None or (other.implausible and sol is not None):
        return sol  # the defined reading's failure is the one to state
    other.basis = "year_end"
    return other


def _printed_movement(spec: QuestionAsk, book: Book, balances: Solution | None) -> Solution | None:
    """A balance's movement over one year read from the line its statement prints for it
    (`Metric.moved_by`: cash's net increase (decrease) on the statement of cash flows).

    Where that line and the difference of the two balances agree, the difference answers (the
    printed line confirms it: None). Where they disagree (cash held for sale, restricted cash,
    a reclassification the statement's balance holds beyond the balance sheet line), the
    printed line is the filer's own figure of the period's movement: an amount asked is that
    line, the balances' difference stated beside it; a percentage asked has no one base (the
    balance sheet's or the statement's opening balance), so the balances' reading is returned
    marked implausible and the caller abstains, saying why. With one of the two balances not
    read, an amount asked (or a bare change) is the printed line."""
    from finqa.lexicon.metrics import METRICS
    from finqa.lexicon.recipes import formula_recipe

    metric = METRICS.get(spec.recipe or "")
    years = spec.agg_years
    if metric is None or metric.moved_by is None or spec.aggregate not in ("change", "growth"):
        return None
    if len(years) != 2 or years[1] - years[0] != 1 or spec.sub_annual:
        return None
    item = metric.moved_by
    name = f"{METRICS[item].name.lower()}, as the statement of cash flows prints it"
    recipe = formula_recipe(f"{metric.id}:moved", name, item, "USD")
    one = replace(spec, aggregate="single", agg_years=(years[1],), target_year=years[1])
    printed = _solve(one, book, described=False, recipe=recipe) if recipe is not None else None
    if printed is None:
        return None
    growth = spec.aggregate == "growth"
    if balances is None:  # a bare 'how much did it change' takes the amount
        return None if growth and spec.change_form != "both" else printed
    amount = _solve(replace(spec, aggregate="change"), book) if growth else balances
    if amount is None or abs(printed.value - amount.value) <= 0.005 * max(
        abs(printed.value), abs(amount.value), 1e-9
    ):
        return None
    shown = format_value(amount, replace(spec, aggregate="change"))
    y0, y1 = years
    lines = f"{metric.name[:1].lower()}{metric.name[1:]}"
    if growth and spec.change_form != "both":
        balances.implausible = (
            f"the statement of cash flows prints the FY{y1} movement of {lines} as "
            f"{format_value(printed, one)}, the balance sheet's two balances differ by {shown}: "
            "a percentage has no one opening balance to be taken over"
        )
        return balances
    printed.beside = (
        f" The balance sheet's {lines} moved by {shown} from FY{y0} to FY{y1}; the statement "
        "of cash flows' movement answers, as it includes what the balance it reconciles holds "
        "beyond that line."
    )
    return printed


def solve_with(spec: QuestionAsk, book: Book, recipe: Recipe) -> Solution | None:
    """The question computed by `recipe` instead of the catalogue's (another recognised
    definition of the metric: `lexicon.variants`), its formulas as written."""
    return _solve(spec, book, described=False, recipe=recipe)


def _solve(
    spec: QuestionAsk, book: Book, described: bool = True, recipe: Recipe | None = None
) -> Solution | None:
    if recipe is None and spec.variant is not None and spec.variant.metric == spec.recipe:
        # the definition the question's words select (DPO over cost of sales)
        v = spec.variant
        recipe = variant_recipe(v.metric, v.formula, v.unit)
        if recipe is not None:
            recipe = replace(recipe, name=f"{recipe.name} ({v.name}, as the question names it)")
    recipe = recipe or get_recipe(spec.recipe)
    if recipe is None or not spec.agg_years:
        return None
    years = spec.agg_years
    found: list[tuple[tuple[bool, int, int, int], Solution]] = []
    for n, filed in enumerate(recipe.formulas):
        formula = apply_conventions(filed, spec.conventions)  # what the question states
        facts: dict[str, Fact] = {}
        rows: dict[str, Row] = {}
        summed: dict[str, list[str]] = {}
        parts: list[str] = []
        for y in years:
            expr = _expand(formula, y, book, facts, rows, summed, spec.statements)
            if expr is None:
                break
            parts.append(expr)
        else:
            sol = _build(spec, recipe, formula, years, parts, facts, described)
            if sol is not None:
                sol.implausible = implausible(spec, sol)
                weak = sum(1 for f in facts.values() if not f.row.primary)
                guessed = sum(1 for f in facts.values() if f.row.header_inferred)
                found.append(((bool(sol.implausible), weak, guessed, n), sol))
    # a plausible alternative first; then the one read most from the financial statements
    return min(found, key=lambda t: t[0])[1] if found else None


def implausible(spec: QuestionAsk, sol: Solution) -> str:
    """Why one year's figure of the metric breaks its definition (`lexicon.plausibility`), or a
    growth rate taken across a change of sign, else '' (a change or an average over years may
    take any sign or size)."""
    from finqa.lexicon.plausibility import out_of_bounds

    if spec.aggregate in ("growth", "cagr") and len(sol.per_year) == 2:
        before, now = sol.per_year.values()
        if before * now < 0:
            # a rate of growth over a base of the other sign (an expense become income) says
            # nothing of the movement: the two years' figures and their difference do
            return (
                f"its base year's figure and the asked year's have opposite signs ({before:,.6g} "
                f"and {now:,.6g}): a percentage change across a change of sign is no growth rate"
            )
    if spec.aggregate != "single" or len(sol.per_year) != 1 or sol.unit != sol.recipe.unit:
        return ""
    return out_of_bounds(sol.value, sol.recipe.id) or ""


def _year_phrase(year: int, facts: Iterable[Fact], fy_label: str = "end") -> str:
    """How the answer names the year of its facts ('FY2024', 'as of December 31, 2024',
    'fiscal 2024 (ended Sep 28, 2024)'): the statement model's column of every fact of that
    year, when they agree on one end date and kind; else 'FY2024'."""
    seen: set[tuple[date | None, bool]] = set()
    for fact in facts:
        if fact.year != year:
            continue
        row = fact.row
        ends = row.ends[row.years.index(year)] if year in row.years and row.ends else (None, False)
        seen.add(ends)
    if len(seen) != 1:
        return f"FY{year}"
    ((end, instant),) = seen
    return period_phrase(year, end, instant=instant, fy_label=fy_label)


def build_solution(
    spec: QuestionAsk,
    recipe: Recipe,
    formula: str,
    years: tuple[int, ...],
    parts: list[str],
    facts: dict[str, Fact],
) -> Solution | None:
    """A solution over facts already read: `parts` is each year's expression over the facts'
    names, `formula` the recipe's formula it came from (one of `recipe.formulas`)."""
    return _build(spec, recipe, formula, years, parts, facts)


def _build(
    spec: QuestionAsk,
    recipe: Recipe,
    formula: str,
    years: tuple[int, ...],
    parts: list[str],
    facts: dict[str, Fact],
    described: bool = True,
) -> Solution | None:
    if spec.aggregate == "avg3" and len(parts) == 3:
        expression = "avg(" + ", ".join(f"({p})" for p in parts) + ")"
        how = f"three-year average {recipe.name}, FY{years[0]} to FY{years[-1]}"
    elif spec.aggregate == "change" and len(parts) == 2:
        expression = f"({parts[1]}) - ({parts[0]})"
        how = f"change in {recipe.name}, FY{years[0]} to FY{years[1]}"
    elif spec.aggregate == "cagr" and len(parts) == 2 and years[1] > years[0]:
        n = years[1] - years[0]
        expression = f"(({parts[1]}) / ({parts[0]})) ** (1 / {n}) * 100 - 100"
        how = f"compound annual growth of {recipe.name}, FY{years[0]} to FY{years[1]}"
    elif spec.aggregate == "trend" and len(parts) == 2:
        expression = f"({parts[1]}) - ({parts[0]})"
        how = f"change in {recipe.name}, FY{years[0]} to FY{years[1]}"
    elif spec.aggregate == "growth" and len(parts) == 2:
        expression = f"(({parts[1]}) - ({parts[0]})) / abs({parts[0]}) * 100"
        how = f"growth in {recipe.name}, FY{years[0]} to FY{years[1]}"
    elif len(parts) == 1:
        expression = parts[0]
        when = _year_phrase(years[0], facts.values(), spec.fy_label)
        how = f"{recipe.name} {when}" if when.startswith("as of") else f"{when} {recipe.name}"
    else:
        return None
    if described and formula not in recipe.formulas:  # a stated convention changed it
        how += f" ({spec.conventions.describe()}, as the question states)"
    unit = "%" if spec.aggregate in ("growth", "cagr") else recipe.unit
    if unit == "ratio" and spec.percent:  # 'ROA (as a %)': the ratio expressed in percent
        expression, unit = f"({expression}) * 100", "%"
    # common scale: every USD operand expressed in the scale of the first one
    scales = [f.row.scale for f in facts.values() if f.row.scale and f.item.unit == "USD"]
    base = scales[0] if scales else None
    scale_known = base is not None
    if base is None:
        biggest = max((abs(f.value) for f in facts.values()), default=0.0)
        base = 1e3 if biggest >= 1e6 else 1e6
    operands: list[Operand] = []
    values: dict[str, float] = {}
    for name, fact in facts.items():
        row_scale = fact.row.scale or base
        usd = fact.item.unit == "USD"
        value = fact.value if row_scale == base or not usd else fact.value * row_scale / base
        values[name] = value
        operands.append(
            Operand(
                name=name,
                value=value,
                unit=fact.item.unit,
                scale=base if usd else 1.0,
                period=f"FY{fact.year}",
                source_id=fact.row.source_id,
                text=fact.row.line[:300],
            )
        )
    try:
        result = evaluate(expression, values)
        per_year = {y: evaluate(p, values) for y, p in zip(years, parts, strict=True)}
    except ArithmeticError_:
        return None
    calc = Calculation(
        expression=expression,
        operands=tuple(operands),
        result=result,
        unit=unit,
        description=how + (f" (USD {_SCALE_WORD.get(base, '')}s)" if unit == "USD" else ""),
    )
    return Solution(
        recipe=recipe,
        value=result,
        unit=unit,
        scale=base if unit == "USD" else 1.0,
        scale_known=scale_known,
        calculation=calc,
        facts=list(facts.values()),
        per_year=per_year,
    )


def format_value(sol: Solution, spec: QuestionAsk) -> str:
    """The result in the question's unit and rounding, as a memo prints it ('$5,818 million',
    '16.5%', '0.83', '$13.89 per diluted share'; finqa.lexicon.display)."""
    d = spec.decimals
    if sol.unit == "USD":
        target = spec.scale or (sol.scale if sol.scale >= 1e6 else 1e6)
        return format_amount(sol.value * sol.scale / target, "USD", target, d)
    shown = display_value(sol.value, sol.unit, d, metric=sol.recipe.id)
    if sol.unit == "%" and spec.aggregate in ("change", "trend") and shown.endswith("%"):
        # the difference of two percentages is in percentage points, not a percent change
        return shown[:-1] + " percentage points"
    return shown


def citations_for(sol: Solution) -> list[Citation]:
    return fact_citations(sol.facts)


def fact_citations(facts: Iterable[Fact]) -> list[Citation]:
    """One citation per statement line the facts were read from, in order (quote: the line)."""
    seen: set[tuple[str, str]] = set()
    out: list[Citation] = []
    for fact in facts:
        key = (fact.row.source_id, fact.row.line)
        if key in seen:
            continue
        seen.add(key)
        out.append(
            Citation(
                source_id=fact.row.source_id,
                doc_id=fact.row.doc_id,
                page=fact.row.page,
                chunk_id=fact.row.chunk_id,
                quote=fact.row.line[:200],
                xbrl_concept=fact.row.concept,
            )
        )
    return out
