"""General question families over the statements, parameterised by the lexicon's catalogue.

Each family maps a question to a catalogue metric (`QuestionAsk.recipe`, `lexicon.question_ask`) and reads its operands from
the evidence's statement rows (`Book`); it answers with the rule and the figures, citations
and re-executable calculations, or returns None (the caller's usual path then answers or
abstains, saying what it looked for).

- applicability: "... if X is not a relevant metric, say so": X is not applicable when the
  statement that would carry its operands is in the evidence (read, with at least
  `MIN_STATEMENT_ROWS` rows) and no formula of X finds its line items there (e.g. no cost of
  sales line, so no gross margin). When X can be computed, the usual path computes it.
- period extreme: "in which year was X highest / lowest": X for every year named (or the three
  latest the statements show), the year of the extreme named, each year's figure shown.
- growth profile: "is it a high-growth company?": revenue's compound annual growth over the
  latest three years the statements show (fewer when fewer are shown) against the catalogue's
  `high_growth` judgement (lexicon/data/judgements.yaml: the OECD-Eurostat definition of a
  high-growth enterprise, annualised growth above 20% a year over three years). Yes or No.
- consistency: "is X consistent / stable / fluctuating ..." over the years the statements show
  (up to three): X per year and the largest year-over-year change; the tolerance is the one the
  question states ('more than roughly 2%'), else `STABLE_RELATIVE_CHANGE` of the level
  (a change under a tenth of the level is read as stable). Comes out Yes or No.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from finqa.agents.reasoning.confidence import confidence_signals
from finqa.agents.reasoning.offline.book import Book
from finqa.agents.reasoning.offline.solver import Solution, formula_items, solve
from finqa.agents.reasoning.offline.tables import Row
from finqa.agents.reasoning.offline.verdict_kit import (
    Reader,
    offline_answer,
    statement_rows,
    verdict,
)
from finqa.agents.types import Answer, Citation, Evidence
from finqa.lexicon import extract_quantities, intent
from finqa.lexicon.display import format_number
from finqa.lexicon.judgements import judgement
from finqa.lexicon.line_items import LineItem, label_key, line_items
from finqa.lexicon.metrics import display_value
from finqa.lexicon.question_ask import QuestionAsk
from finqa.lexicon.recipes import get_recipe

__all__ = [
    "applicability",
    "consistency",
    "period_extreme",
    "growth_profile",
    "MIN_STATEMENT_ROWS",
    "STABLE_RELATIVE_CHANGE",
]

MIN_STATEMENT_ROWS = 5  # a statement read with at least this many lines shows the lines it has
STABLE_RELATIVE_CHANGE = 0.10  # no stated tolerance: a change under 10% of the level is stable


def applicability(
    question: str, evidence: Evidence, strategy: str, book: Book | None, ask: QuestionAsk
) -> Answer | None:
    """'X is not relevant' when X's statement is read and has none of X's line items."""
    q = " ".join(question.split())
    if not intent.allows_not_relevant(q):
        return None
    spec = ask
    recipe = get_recipe(spec.recipe)
    if recipe is None or recipe.unit == "USD":
        return None  # an amount is always 'relevant'; a ratio needs its operands
    book = book if book is not None else Book(evidence)
    year = spec.target_year or _latest_year(book)
    if year is None:
        return None
    one_year = _single(spec, year)
    if solve(one_year, book) is not None:
        return None  # computable: the usual path answers with the figure
    # every formula of the metric needs a line item the filing's text never mentions
    seen = label_key(" ".join(i.text for i in evidence.items))
    blocking: list[LineItem] = []
    for formula in recipe.formulas:
        absent = [
            li
            for i in formula_items(formula)
            if (li := line_items().get(i)) is not None and not _mentions(seen, li)
        ]
        if not absent:
            return None  # its lines are there, only not read for the year asked: no verdict
        blocking.extend(li for li in absent if li not in blocking)
    stmt = blocking[0].statement
    rows = [r for r in statement_rows(book, stmt) if r.primary]
    if len(rows) < MIN_STATEMENT_ROWS:
        return None  # the statement was not read: absence proves nothing
    shown = ", ".join(dict.fromkeys(r.label.strip()[:40] for r in rows[:4]))
    first = rows[0]
    cite = Citation(
        source_id=first.source_id,
        doc_id=first.doc_id,
        page=first.page,
        chunk_id=first.chunk_id,
        quote=first.line[:200],
        xbrl_concept=first.concept,
    )
    names = " or ".join(li.name for li in blocking)
    where = {"income": "income statement", "balance": "balance sheet", "cash_flow": "cash flow statement"}  # fmt: skip
    lead = "No. " if spec.is_yes_no else ""
    text = (
        f"{lead}{recipe.name[:1].upper()}{recipe.name[1:]} is not a relevant metric for this "
        f"company. Its {where.get(stmt, stmt)} [{first.source_id}] ({len(rows)} lines read, e.g. "
        f"{shown}) has no {names} line, so there is no {recipe.name} ({recipe.formulas[0]}) in "
        "what the company reports; its performance is read from the lines it does report."
    )
    conf = confidence_signals(text, cited=True, base=0.7)
    conf["mode"] = "not_relevant"
    missing = [li.name for li in blocking]
    return offline_answer(text, strategy, conf, citations=(cite,), missing=missing)


def _mentions(key: str, li: LineItem) -> bool:
    """The letters-only text contains one of the item's captions (8+ letters, so 'sales' alone
    does not count)."""
    labels, prefixes, _ = li.keys()
    return any(x and x in key for x in (*labels, *prefixes) if len(x) >= 8)


def _stated_tolerance(question: str) -> float | None:
    """A tolerance the question states in percent or points ('more than roughly 2%'), or None."""
    for qty in extract_quantities(question):
        if qty.unit in ("%", "bps") and qty.kind != "year":
            return float(qty.value) / (100.0 if qty.unit == "bps" else 1.0)
    return None


def consistency(
    question: str, evidence: Evidence, strategy: str, book: Book | None, ask: QuestionAsk
) -> Answer | None:
    """Yes/No: is the metric consistent over the years shown, with the figures and the rule."""
    q = " ".join(question.split())
    if not intent.asks_consistency(q):
        return None
    spec = ask
    recipe = get_recipe(spec.recipe)
    if recipe is None:
        return None
    book = book if book is not None else Book(evidence)
    latest = spec.target_year or _latest_year(book)
    if latest is None:
        return None
    per_year: dict[int, float] = {}
    sols: dict[int, Solution] = {}
    for y in range(latest, latest - 3, -1):
        sol = solve(_single(spec, y), book)
        if sol is None:
            break
        per_year[y] = sol.value
        sols[y] = sol
    if len(per_year) < 2:
        return None
    ys = sorted(per_year)
    changes = [abs(per_year[b] - per_year[a]) for a, b in zip(ys, ys[1:], strict=False)]
    biggest = max(changes)
    stated = _stated_tolerance(q)
    pct = recipe.unit == "%"
    if stated is not None:
        tol = stated
        rule = f"the stated tolerance of {stated:g}{' points' if pct else '%'}"
        if not pct:  # a stated percent on an amount or ratio: relative change
            tol = stated / 100 * max(abs(per_year[y]) for y in ys)
    else:
        tol = STABLE_RELATIVE_CHANGE * max(abs(per_year[y]) for y in ys)
        rule = f"a change of less than {STABLE_RELATIVE_CHANGE:.0%} of its level"
    ok = biggest <= tol
    reader = _reader_of(sols.values())
    unit = "%" if pct else ""
    shown = ", ".join(f"FY{y}: {format_number(per_year[y])}{unit}" for y in ys)
    diff = " points" if pct else ""
    text = (
        f"{'Yes' if ok else 'No'}. {recipe.name[:1].upper()}{recipe.name[1:]} was {shown} "
        f"{reader.refs()}; the largest year-over-year change is {format_number(biggest)}{diff}, "
        f"{'within' if ok else 'more than'} {rule}."
    )
    exprs = [f"({sols[y].calculation.expression})" for y in ys]
    diffs = [f"abs({b} - {a})" for a, b in zip(exprs, exprs[1:], strict=False)]
    change = reader.calc(
        diffs[0] if len(diffs) == 1 else f"max({', '.join(diffs)})",
        recipe.unit,
        f"largest year-over-year change in {recipe.name}, FY{ys[0]}-FY{ys[-1]}",
    )
    calcs = ([change] if change is not None else []) + [sols[y].calculation for y in ys]
    return verdict(text, reader, calcs, strategy, "verdict")


def _latest_year(book: Book) -> int | None:
    """The latest fiscal year the evidence's statements show (a question naming none)."""
    return max((y for r in book.rows if r.primary for y in r.years), default=None)


def _single(spec: QuestionAsk, year: int) -> QuestionAsk:
    return replace(spec, agg_years=(year,), aggregate="single", target_year=year)


def _reader_of(sols: Iterable[Solution]) -> Reader:
    """A Reader holding the operands and citations (each once) of figures already solved."""
    reader = Reader()
    for sol in sols:
        for op in sol.calculation.operands:
            reader.operands.append(op)
            reader.values[op.name] = op.value
        for fact in sol.facts:
            reader.cites.extend(c for c in _cites(fact.row) if c not in reader.cites)
    return reader


def _cites(r: Row) -> list[Citation]:
    return [
        Citation(
            source_id=r.source_id, doc_id=r.doc_id, page=r.page, chunk_id=r.chunk_id,
            quote=r.line[:200], xbrl_concept=r.concept,
        )
    ]  # fmt: skip


def period_extreme(
    question: str, evidence: Evidence, strategy: str, book: Book | None, ask: QuestionAsk
) -> Answer | None:
    """'In which year was X highest/lowest?': X per year, the extreme year named with the figures."""
    q = " ".join(question.split())
    extreme = intent.asked_extreme(q)
    if extreme is None or not intent.asks_which_period(q):
        return None
    spec = ask
    recipe = get_recipe(spec.recipe)
    if recipe is None:
        return None
    book = book if book is not None else Book(evidence)
    years = list(spec.years)
    if len(years) == 2:
        years = list(range(min(years), max(years) + 1))
    if len(years) < 2:
        latest = spec.target_year or _latest_year(book)
        years = [] if latest is None else [latest - 2, latest - 1, latest]
    sols: dict[int, Solution] = {}
    for y in years:
        sol = solve(_single(spec, y), book)
        if sol is not None:
            sols[y] = sol
    if len(sols) < 2 or len(sols) < len(years):
        return None  # a missing year could be the extreme: no verdict
    ys = sorted(sols)
    pick = max if extreme == "highest" else min
    best = pick(ys, key=lambda y: sols[y].value)
    reader = _reader_of(sols.values())
    word = extreme
    calc = reader.calc(
        f"{pick.__name__}({', '.join(f'({sols[y].calculation.expression})' for y in ys)})",
        recipe.unit,
        f"{word} {recipe.name}, FY{ys[0]}-FY{ys[-1]}",
    )
    if calc is None:
        return None
    shown = "; ".join(f"FY{y}: {display_value(sols[y].value, recipe.unit, metric=recipe.id) if recipe.unit != 'USD' else format_number(sols[y].value, 0)}" for y in ys)  # fmt: skip
    text = (
        f"FY{best}. {recipe.name[:1].upper()}{recipe.name[1:]} was {word} in FY{best} "
        f"({shown}) {reader.refs()}."
    )
    return verdict(text, reader, [calc, *(sols[y].calculation for y in ys)], strategy, "verdict")


def growth_profile(
    question: str, evidence: Evidence, strategy: str, book: Book | None, ask: QuestionAsk
) -> Answer | None:
    """Yes/No: does revenue grow like a high-growth company's (CAGR over the latest three years)?"""
    q = " ".join(question.split())
    if not intent.asks_high_growth(q):
        return None
    book = book if book is not None else Book(evidence)
    spec = replace(ask, recipe="revenue", percent=False)
    latest = spec.target_year or _latest_year(book)
    if latest is None:
        return None
    sols: dict[int, Solution] = {}
    for y in range(latest, latest - 4, -1):
        sol = solve(_single(spec, y), book)
        if sol is None:
            break
        sols[y] = sol
    if len(sols) < 2:
        return None
    first, last = min(sols), max(sols)
    v0, v1 = sols[first].value, sols[last].value
    if v0 <= 0 or v1 <= 0:
        return None  # growth of a non-positive revenue is not a rate
    reader = _reader_of((sols[first], sols[last]))
    n = last - first
    e0, e1 = sols[first].calculation.expression, sols[last].calculation.expression
    calc = reader.calc(
        f"(({e1}) / ({e0})) ** (1 / {n}) * 100 - 100",
        "%",
        f"compound annual revenue growth, FY{first} to FY{last}",
    )
    if calc is None:
        return None
    rate = calc.result
    test = judgement("high_growth").tests[0]
    high = test.passes(rate)
    per_year = ", ".join(f"FY{y}: {sols[y].value:,.0f}" for y in sorted(sols))
    text = (
        f"{'Yes' if high else 'No'}. Revenue grew {rate:.1f}% a year from FY{first} to FY{last} "
        f"({per_year}) {reader.refs()}; {'above' if high else 'not above'} the "
        f"{test.threshold:g}% a year that marks a high-growth company (annualised revenue "
        f"growth over three years, the OECD-Eurostat definition)."
    )
    return verdict(text, reader, [calc], strategy, "verdict")
