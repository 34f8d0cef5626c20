"""The line the question names, read from the filing's line under that caption.

A question that names a line by a quoted caption ('other (gains) and losses') or by a catalogue
item with narrowing words ('membership fee revenue', 'content liabilities (current plus
non-current)') is answered from the row whose caption is that line (`lexicon.named_line`),
before the catalogue item the phrase only partly names: total revenue is not membership fee
revenue. 'Current plus non-current' sums the current and the non-current line of the caption,
read from one statement of one filing. No such row: None, and the catalogue's reading follows.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from finqa.agents.reasoning.offline.book import Book, Fact
from finqa.agents.reasoning.offline.solver import (
    Solution,
    build_solution,
    implausible,
    signed_figure,
)
from finqa.agents.reasoning.offline.tables import Row
from finqa.lexicon.causes import effect_object
from finqa.lexicon.display import format_amount
from finqa.lexicon.line_items import LineItem, get_item
from finqa.lexicon.metrics import metric_key
from finqa.lexicon.named_line import CURRENT, NONCURRENT, NamedLine, caption_line, caption_part
from finqa.lexicon.question_ask import QuestionAsk
from finqa.lexicon.recipes import Recipe, get_recipe
from finqa.lexicon.sides import (
    EffectVerb,
    Side,
    affected_kind,
    effect_asked,
    effect_of,
    effect_option,
    has_way,
    line_side,
    offers_item_sides,
    signed_side,
    two_sided,
)

__all__ = [
    "effect_sentence",
    "named_solution",
    "named_clause",
    "side_clause",
    "item_side_known",
    "sided_item_line",
    "sided_value",
    "line_effect",
    "NAMED_LINE",
]

NAMED_LINE = "named_line"  # the recipe id of a figure read from the line the question names
_AGGREGATES = ("single", "growth", "change")


def named_solution(spec: QuestionAsk, book: Book) -> Solution | None:
    """The named line's figure (or its growth or change over the years asked) from the rows
    whose caption is the line, or None when the question names no line or no row is it."""
    line = spec.named_line
    if line is None or spec.operator is not None:
        return None
    if spec.asks_side and spec.aggregate == "trend" and spec.target_year is not None:
        # 'an expense or income in 2021, and what about in 2019?': each year's figure with its
        # side (`sided_clause` states every year named), the latest as the lead
        spec = replace(spec, aggregate="single", agg_years=(spec.target_year,))
    if spec.aggregate not in _AGGREGATES and not (line.own and spec.aggregate == "trend"):
        return None  # a line of its own compared over two years: its two figures
    if (spec.is_yes_no and not spec.computes and not spec.asks_side) or not spec.agg_years:
        return None  # a yes/no alone; 'did X ..., and how much was it?' asks the figure too
    if spec.descriptive and not spec.asks_side:
        return None
    if (line.metric is not None and spec.metric is not None and spec.recipe is None) or (
        spec.percent and spec.aggregate == "single"
    ):
        # a ratio or a percent over the line ('X divided by net sales': a catalogue metric
        # named that no recipe computes as asked): not X itself
        return None
    base = get_recipe(line.metric) if line.metric is not None else None
    if line.metric is not None and (base is None or base.unit != "USD"):
        return None  # a narrowed ratio or margin ('services gross margin') is not one line
    if line.printed and (
        spec.recipe != line.metric
        or len(book.find_summed(line.metric or "", spec.agg_years[-1], spec.statements)) < 2
    ):
        # the item's own name: read apart from the catalogue's sum only where the sum would
        # add other lines to the one printed under that name
        return None
    parts = (CURRENT, NONCURRENT) if line.both_parts else ("",)
    rows = _rows(line, book, parts, spec.agg_years[-1], spec.recipe if line.quoted else None)
    if rows is None:
        return None
    item = _item(line, rows[0])
    facts: dict[str, Fact] = {}
    expressions: list[str] = []
    for year in spec.agg_years:
        names = []
        for n, row in enumerate(rows):
            value = row.value_for(year)
            if value is None:
                return None
            name = f"{_slug(line)}{'_' + str(n + 1) if n else ''}_fy{year}"
            facts[name] = Fact(item, year, row, float(value))
            names.append(name)
        expressions.append(" + ".join(names) if len(names) > 1 else names[0])
    recipe = Recipe(NAMED_LINE, line.phrase, (NAMED_LINE,), "USD")
    sol = build_solution(spec, recipe, NAMED_LINE, spec.agg_years, expressions, facts)
    if sol is not None:
        sol.implausible = implausible(spec, sol)
        if sol.implausible and spec.asks_side and spec.target_year is not None:
            # 'an income or an expense in 2018, ... the change from 2017?': the side it is on
            # answers (each year's side stated), not a rate across the change of sign
            return named_solution(
                replace(spec, aggregate="single", agg_years=(spec.target_year,)), book
            )
    return sol


def _rows(
    line: NamedLine, book: Book, parts: Sequence[str], year: int, block: str | None = None
) -> tuple[Row, ...] | None:
    """One row per part asked, each captioned as the named line and holding the year, all of
    one filing and statement; the financial statements' own rows first. A caption printed in
    two blocks ('Service and other' under revenue and again under cost of revenue) is the
    block's the question names beside it (`block`: "'service and other' cost of revenue"), by
    the item the layout gives its rows (`lexicon.statements.cost_lines`)."""
    found: dict[str, list[Row]] = {p: [] for p in (*parts, "")}
    for row in book.rows:
        if row.exhibit or row.per_share or row.value_for(year) is None:
            continue
        part = caption_part(line, row.label)
        if part in found:
            found[part].append(row)
    if block is not None:
        for part, rows in found.items():
            own = [r for r in rows if r.item == block]
            # the block named, else not another block's line
            found[part] = own or [r for r in rows if r.item is None or r.item == block] or rows
    unmarked = found.pop("")
    if len(parts) == 1:
        found[""] = unmarked
    else:
        # a balance sheet marks one side and prints the other under the bare caption
        # ('Deferred revenue' and 'Deferred revenue, non-current'): the bare line is the side
        # left unmarked; a 'Total ...' line is both sides, never one of them
        missing = [p for p in parts if not found[p]]
        if len(missing) == 1:
            found[missing[0]] = [r for r in unmarked if not r.key.startswith("total")]
    if not all(found.values()):
        return None
    first = min(found[parts[0]], key=_rank)
    chosen = [first]
    for part in parts[1:]:
        same = [
            r
            for r in found[part]
            if r.doc_id == first.doc_id
            and r.statement == first.statement
            and r.model == first.model
        ]
        if not same:
            return None
        chosen.append(min(same, key=_rank))
    return tuple(chosen)


def _rank(row: Row) -> tuple[bool, bool, int, int]:
    """Primary statements first, the statement model's reading before the text's, by page."""
    return (not row.primary, not row.model, row.page, row.order)


def _item(line: NamedLine, row: Row) -> LineItem:
    """The line item the facts stand for: the named line under the row's own caption and
    statement (not the broader item's nature: 'Accrued income taxes' is no tax expense)."""
    base = get_item(line.metric) if line.metric is not None else None
    statement = row.statement or (base.statement if base is not None else "income")
    return LineItem(id=_slug(line), name=line.phrase, statement=statement, labels=(row.label,))


def _slug(line: NamedLine) -> str:
    return "_".join(metric_key(line.phrase).split())[:40] or NAMED_LINE


def named_clause(sol: Solution, spec: QuestionAsk | None = None) -> str:
    """What a named line's answer read: the caption(s) of the filing's line(s), summed where
    two, and the side each year's figure is on (`side_clause`); '' for any other solution."""
    if sol.recipe.id != NAMED_LINE:
        return ""
    labels = list(dict.fromkeys(f.row.label for f in sol.facts))
    lines = " + ".join(f"'{label}'" for label in labels)
    if spec is not None and spec.named_line is not None and spec.named_line.from_item:
        # the catalogue item's own line, read as printed to say which side it is on
        said = (
            f" The {str(spec.recipe).replace('_', ' ')} line as the filing prints it, {lines}, "
            "read for which side each year's figure is on."
        )
    else:
        said = (
            f" The question names the line '{sol.recipe.name}': read from the filing's "
            f"{'lines' if len(labels) > 1 else 'line'} {lines}, not from a broader catalogue "
            "item."
        )
    return said + side_clause(sol, spec)


def side_clause(sol: Solution, spec: QuestionAsk | None = None) -> str:
    """The side each year's figure of a one-row named line is on, in words (`lexicon.sides`:
    'FY2019: other income of $124 million (printed (124) on the line 'Other expense (income)',
    where a figure in parentheses is income)'), for the years the answer gives and, where the
    question asks which side, every year it names; '' where the line is not an income
    statement's or its print is unknown (a tagged fact)."""
    rows = {f.row.label: f.row for f in sol.facts}
    if len(rows) != 1:
        return ""
    (row,) = rows.values()
    if not _sided_row(row):
        return ""
    years = [f.year for f in sol.facts]
    if spec is not None and spec.asks_side:
        years = sorted({*years, *spec.years}, reverse=True)
    said = []
    for year in dict.fromkeys(years):
        printed, side = row.printed_for(year), _printed_side(row, year)
        if printed is None or side is None:
            continue
        label = spec.period_label(year) if spec is not None else f"FY{year}"
        amount = format_amount(abs(printed), "USD", row.scale or 1.0)
        said.append(f"{label}: {side.phrase} of {amount} ({side.how})")
    return (" " + "; ".join(said) + ".") if said else ""


def item_side_known(recipe_id: str | None, question: str) -> bool:
    """Is the recipe a catalogue line item whose signed figure says its side (an expense, a
    revenue, a gain or a loss: `lexicon.sides.signed_side`), and are the sides the question
    offers that item's (`lexicon.sides.offers_item_sides`)?"""
    item = get_item(recipe_id or "")
    return item is not None and has_way(item.nature) and offers_item_sides(question, item.nature)


def sided_value(sol: Solution, value: str, spec: QuestionAsk | None = None) -> str:
    """A one-year named line's figure with its side in words ('other income of $124 million'
    for the line 'Other expense (income)' printing (124)): a bare or signed amount on a
    two-sided line does not say which side it is on. Where the question asks which side
    (`spec.asks_side`) of a catalogue item read from a caption naming one side ('Provision
    for income taxes'), the side of its signed figure ('an expense of $100 million'). `value`
    as formatted otherwise."""
    if spec is not None and spec.asks_side and len(sol.facts) == 1 and sol.unit == "USD":
        item = get_item(sol.recipe.id)
        fact = sol.facts[0]
        signed = signed_side(item.nature, signed_figure(fact)) if item is not None else None
        if signed is not None and two_sided(fact.row.label) is None:
            return f"{signed[1]} of {value.lstrip('-')}"
    if sol.recipe.id != NAMED_LINE or len(sol.facts) != 1 or sol.unit != "USD":
        return value
    fact = sol.facts[0]
    side = _printed_side(fact.row, fact.year) if _sided_row(fact.row) else None
    if side is None:
        return value
    return f"{side.phrase} of {value.lstrip('-')}"


def line_effect(sol: Solution, question: str) -> str:
    """'It did hurt pre-tax income: ': for a one-year named line whose side is read from the print,
    the option of an either/or question on the line's effect on a result ('did that line help
    or hurt pre-tax income?') that its side has (`lexicon.sides.effect_option`); '' otherwise."""
    asked = effect_asked(question)
    if asked is None or sol.recipe.id != NAMED_LINE or len(sol.facts) != 1:
        return ""
    options, obj = asked
    fact = sol.facts[0]
    side = _printed_side(fact.row, fact.year) if _sided_row(fact.row) else None
    word = effect_option(options, side.side) if side is not None else None
    if word is None:
        return ""
    obj = re.split(r"\s+(?:in|for|during)\s+(?:fiscal\s+|FY\s*)?\d{4}\b", obj)[0]
    # the option as the question words it ('add to', 'help')
    said = re.search(rf"\b{re.escape(word)}(?:\s+(?:to|from))?\b", question, re.I)
    word = said.group(0) if said else word
    return f"It did {word} {obj}: " if obj else f"It did {word}: "


def effect_sentence(sol: Solution, question: str) -> tuple[str, EffectVerb | None]:
    """' Its effect on total operating expenses: the gain on ... lowered them, as a gain or
    credit is netted against the costs it is printed among.' for an effect question ('how did
    it affect Y?': `lexicon.causes.effect_object`) about a one-year named line whose side is
    read from its print, where Y is a total of costs or a result (`lexicon.sides.affected_kind`);
    ('', None) otherwise. The way follows from the side and Y's kind, not from a sentence."""
    obj = effect_object(question)
    if obj is None or sol.recipe.id != NAMED_LINE or len(sol.facts) != 1:
        return "", None
    kind = affected_kind(obj)
    fact = sol.facts[0]
    side = _printed_side(fact.row, fact.year) if _sided_row(fact.row) else None
    if kind is None or side is None:
        return "", None
    verb, rule = effect_of(side.side, kind)
    return f" Its effect on {obj}: the {side.phrase} {verb} it, as {rule}.", verb


def sided_item_line(spec: QuestionAsk, book: Book) -> NamedLine | None:
    """For a question asking which side a catalogue item's figure is on ('an income tax expense
    or an income tax benefit?') and naming no line of its own: the item's row for the asked
    year as a named line, where its caption names both sides ('Benefit (provision) for income
    taxes'); None otherwise (a one-sided caption's sign is the statement reader's)."""
    if not spec.asks_side or spec.named_line is not None or spec.recipe is None:
        return None
    if spec.target_year is None or get_item(spec.recipe) is None:
        return None
    fact = book.find(spec.recipe, spec.target_year)
    if fact is None or two_sided(fact.row.label) is None:
        return None
    return caption_line(fact.row.label, from_item=True)


def _printed_side(row: Row, year: int) -> Side | None:
    """The side the row's figure for the year is on, by how the filing prints it
    (`lexicon.sides.line_side`); None for no figure, a zero, or a caption naming no side."""
    printed = row.printed_for(year)
    if not printed:
        return None
    return line_side(row.label, printed, _shown(printed), nonoperating=row.nonoperating)


def _sided_row(row: Row) -> bool:
    """A row whose figure's side can be read: an income statement's (by its caption or the
    layout), or any table's under a caption naming both sides ('Interest and other expense
    (income), net' in a segment reconciliation prints its sides as the statement does)."""
    return row.statement in ("income", None) or two_sided(row.label) is not None


def _shown(printed: float) -> str:
    """A figure as the filing prints it: '(124)', '208'."""
    text = f"{abs(printed):,.2f}".rstrip("0").rstrip(".")
    return f"({text})" if printed < 0 else text
