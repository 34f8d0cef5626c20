"""The side a named line's figure is on, by the filing's own print, against the side the
answer states.

A two-sided caption ('Other expense (income)', 'Other (gains) and losses', 'Benefit
(provision) for income taxes') puts one side in parentheses: a figure printed in parentheses is
on that side, an unparenthesised one on the other; a caption naming no side ('Interest and
other, net') is read by the income statement's layout (positive = income). The judge reads the
side of each year's figure from the statement model's cells of the line the question names
(how each cell is printed, `StatementFact.negative`; `lexicon.sides.line_side`), not from the
reasoner's reading, and sends back an answer whose own words put a year's figure on the other
side ('an expense of $124 million' where the line prints (124) on 'Other expense (income)').
Words quoted from the caption state no side (`lexicon.sides.own_words`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from finqa.agents.judge import _lex
from finqa.agents.judge.context import Context
from finqa.agents.judge.kind import KindProblem
from finqa.agents.judge.text import line_read
from finqa.lexicon.asked_measure import either_or_options
from finqa.lexicon.line_items import get_item
from finqa.lexicon.model import StatementFact
from finqa.lexicon.named_line import NamedLine, caption_line, caption_part
from finqa.lexicon.question_ask import read_ask
from finqa.lexicon.sides import (
    Side,
    asks_side,
    effect_option,
    has_way,
    line_side,
    nonoperating_rows,
    own_words,
    signed_side,
    stated_sides,
    two_sided,
)

__all__ = ["printed_sides", "side_against_print", "sides_by_year"]

_CLAUSE = re.compile(r"(?<=[.;])\s+")
_ANNUAL_MONTHS = (0, 12)


def printed_sides(facts: Iterable[StatementFact], line: NamedLine) -> dict[int, Side]:
    """The side of each fiscal year's figure on the named line, from the income statement's
    printed cells (a year whose cells disagree has none: two spans of one year)."""
    found: dict[int, list[Side]] = {}
    facts = list(facts)
    tables: dict[tuple[str, str], list[StatementFact]] = {}
    for f in facts:
        tables.setdefault((f.doc_id, f.table_id), []).append(f)
    between = {key: nonoperating_rows(group) for key, group in tables.items()}
    for f in facts:
        if f.source == "xbrl" or f.unit != "USD" or f.dimensions or not f.value:
            continue
        if f.statement != "income" or caption_part(line, f.label) is None:
            continue
        if f.period.months not in _ANNUAL_MONTHS and f.period.quarter is None:
            continue  # a span of its own (a successor period), not the fiscal year's figure
        printed = -abs(f.value) if f.negative else abs(f.value)
        layout = f.row in between[(f.doc_id, f.table_id)]
        side = line_side(f.label, printed, f.raw, nonoperating=layout)
        if side is not None and f.period.fiscal_year:
            found.setdefault(f.period.fiscal_year, []).append(side)
    return {year: sides[0] for year, sides in found.items() if len({s.side for s in sides}) == 1}


def sides_by_year(text: str, years: Iterable[int]) -> dict[int, set[str]]:
    """The sides the answer's own words give each asked year: a clause naming the year (or, with
    one year asked, a clause naming none) and a side word outside the caption's words."""
    asked = list(dict.fromkeys(years))
    out: dict[int, set[str]] = {}
    for clause in _CLAUSE.split(text):
        named = {y for y, _s, _e in _lex.year_mentions(clause)} & set(asked)
        if not named and len(asked) == 1 and not _lex.year_mentions(clause):
            named = set(asked)
        sides = stated_sides(clause)
        for year in named:
            out.setdefault(year, set()).update(sides)
    return out


def side_against_print(ctx: Context) -> list[KindProblem]:
    """A problem for each asked year whose side the answer states in its own words against the
    side the filing's print gives the named line's figure (module docstring); [] otherwise."""
    line = ctx.intent.ask.named_line or _line_read(ctx)
    if ctx.abstained:
        return []
    if line is None:
        return _side_against_model(ctx)
    years = ctx.intent.ask.years or ctx.asked
    facts = list(_income_facts(ctx))
    printed = printed_sides(facts, line)
    stated = sides_by_year(ctx.text, years)
    problems = []
    for year in years:
        side, said = printed.get(year), stated.get(year, set())
        if side is None or not said or side.side in said:
            continue
        message = (
            f"the answer puts FY{year}'s figure of '{line.phrase}' on the {sorted(said)[0]} side, "
            f"but the filing's line reads {side.word} ({side.how})"
        )
        problems.append(KindProblem("wrong_side", message, []))
    problems += _effect_against_print(ctx, printed, years)
    return problems


def _side_against_model(ctx: Context) -> list[KindProblem]:
    """For a question asking which side a catalogue item's figure is on, read from a caption
    naming one side ('Provision for income taxes'): the side of the item's figure in the
    judge's own statement model of the evidence (signed by the item's nature and the
    statement's layout and arithmetic, `lexicon.statements.signs`; `lexicon.sides.signed_side`)
    against the side the answer states, each asked year."""
    metric = ctx.expect.metric or ctx.intent.ask.recipe
    years = ctx.intent.ask.years or ctx.asked
    if not ctx.intent.ask.asks_side:
        # a part of the question asking a line's side ('..., and was its income tax line an
        # expense or a benefit?'): that part's item, for the years the part names ('and in the
        # prior year 2021 was ...'), else the question's
        part = next((read_ask(p.text) for p in ctx.intent.parts.parts if asks_side(p.text)), None)
        metric = part.recipe if part is not None else None
        years = (part.years if part is not None else None) or years
    if metric is None:
        return []
    item = get_item(metric)
    if item is None or not has_way(item.nature):
        return []
    # the item's own name states no side ('income tax expense: a benefit of $50 million')
    text = re.sub(r"\b\w+_\w+\b", " ", ctx.text)  # nor a calculation's operand names
    for term in _lex.metric_terms(metric):
        text = re.sub(rf"\b{re.escape(term)}\b", " ", text, flags=re.I)
    stated = sides_by_year(text, years)
    problems = []
    for year in dict.fromkeys(years):
        said = stated.get(year, set())
        found = ctx.figures.value(metric, year) if said else None
        side = signed_side(item.nature, found.value) if found is not None else None
        if side is None or side[0] in said:
            continue
        message = (
            f"the answer puts FY{year}'s {item.name.lower()} on the {sorted(said)[0]} side, but "
            f"the statements give {side[1]}: {found.describe() if found else ''}"
        )
        problems.append(KindProblem("wrong_side", message, []))
    return problems


def _line_read(ctx: Context) -> NamedLine | None:
    """For a question asking which side an item's figure is on and naming no line ('an income
    tax expense or a benefit?'): the line the answer says it read, by its caption (a locator
    only: the side is then read from the filing's own print of that caption), when the caption
    names both sides; None otherwise."""
    caption = line_read(ctx.text) if ctx.intent.ask.asks_side else None
    if caption is None or two_sided(caption) is None:
        return None
    return caption_line(caption)


def _effect_against_print(
    ctx: Context, printed: dict[int, Side], years: Iterable[int]
) -> list[KindProblem]:
    """'Did that line help or hurt pre-tax income?': the option the answer names in its own
    words against the one the printed side has (income helps, expense hurts:
    `lexicon.sides.effect_option`), for a question asking one year."""
    options = either_or_options(ctx.question)
    asked = list(dict.fromkeys(years))
    if options is None or len(asked) != 1 or asked[0] not in printed:
        return []
    side = printed[asked[0]]
    has = effect_option(options, side.side)
    if has is None:
        return []
    other = next(o for o in options if o != has)
    named = set(re.findall(r"[a-z]+", own_words(ctx.text).lower()))
    if other.lower() not in named or has.lower() in named:
        return []
    message = (
        f"the answer says the line's FY{asked[0]} figure did '{other}', but the filing's line "
        f"reads {side.word} ({side.how}), which does '{has}'"
    )
    return [KindProblem("wrong_side", message, [])]


def _income_facts(ctx: Context) -> Iterable[StatementFact]:
    """The income-statement facts of the evidence filings, from the index's statement model
    and the judge's own reading of the evidence pages."""
    docs = list(dict.fromkeys(i.doc_id for i in ctx.evidence.items))
    pages = ctx.routes.pages
    own = pages.model() if pages is not None and hasattr(pages, "model") else pages
    for store in (ctx.routes.store, own):
        if store is None:
            continue
        for doc in docs:
            try:
                tables = store.tables(doc, "income")
            except (KeyError, OSError, ValueError):
                continue  # a filing the store does not hold
            for table in tables:
                yield from table.facts
