"""The existence family: does the filing report a line item for a fiscal year, and how much.

"Did X pay dividends in FY2022?", "Has X recorded restructuring charges?", "What restructuring
costs are outlined in the income statement? If none are outlined, state 0": any catalogue line
item (`lexicon.line_items`) the question names, read in the statement the catalogue
files it under, for the year asked.

- A question naming more than one line item asks how they relate ('did its operating cash flow
  cover capital expenditures and dividends paid?'), not whether one is printed: no verdict here.
- The item's line is in that statement with a non-zero figure: 'Yes.' (a yes/no question) or
  the amount, with the line, its page and a re-executable Calculation.
- The line is printed with a zero (or a dash): 'No.' / '0', citing it.
- No line of the statement is the item: 'No.' / '0' only when the statement model holds that
  statement for the year (at least `MIN_STATEMENT_ROWS` lines, read from whole pages) and none of
  its lines, in any year, mentions the stem of the item's shortest caption (a dividend line captioned
  otherwise is then still no proof of absence). Otherwise no verdict (the caller's usual path
  answers or abstains, saying what it looked for).
"""

from __future__ import annotations

from finqa.agents.reasoning.offline.book import Book
from finqa.agents.reasoning.offline.families import MIN_STATEMENT_ROWS
from finqa.agents.reasoning.offline.solver import formula_items
from finqa.agents.reasoning.offline.tables import Row
from finqa.agents.reasoning.offline.verdict_kit import Reader, money, verdict
from finqa.agents.types import Answer, Citation, Evidence
from finqa.lexicon import intent
from finqa.lexicon.line_items import LineItem, get_item, label_key
from finqa.lexicon.metrics import METRICS
from finqa.lexicon.query import analyze
from finqa.lexicon.question_ask import QuestionAsk
from finqa.lexicon.question_intent import read_intent
from finqa.lexicon.recipes import get_recipe
from finqa.lexicon.sides import side_named

__all__ = ["existence"]

_WHERE = {"income": "income statement", "balance": "balance sheet", "cash_flow": "cash flow statement"}  # fmt: skip


def existence(
    question: str, evidence: Evidence, strategy: str, book: Book | None, ask: QuestionAsk
) -> Answer | None:
    """'Yes' / 'No' (or the amount / '0') for a line item the question asks about, or None."""
    q = " ".join(question.split())
    spec = ask
    moved = any(spec.direction) or spec.open_direction
    yes_no = spec.is_yes_no and intent.asks_existence(q) and not moved
    if not (yes_no or intent.zero_if_absent(q)) or spec.target_year is None:
        return None
    if spec.aggregate != "single" or spec.wants_positive or spec.asks_side:
        return None  # 'an income tax expense or a benefit?' asks which side, not whether
    if len(set(analyze(q).metrics)) > 1:
        return None  # a relation among lines ('did its operating cash cover capex and dividends')
    li = _asked_item(spec)
    if li is None:
        return None
    book = book if book is not None else Book(evidence)
    y = spec.target_year
    fact = book.find(li.id, y)
    if fact is not None and fact.row.primary and fact.row.statement == li.statement:
        # 'Did X record an income tax expense?' names one side of the line: the figure's sign
        # says whether it is on that side
        item = METRICS.get(li.id)
        side = side_named(read_intent(q).asked_text, item.nature if item else None)
        return _reported(li, fact.row, y, yes_no, strategy, side if yes_no else None)
    if fact is not None:
        return None  # read outside the statement (a note): the usual path answers with it
    return _absent(li, book, y, yes_no, strategy)


def _asked_item(spec: QuestionAsk) -> LineItem | None:
    """The one catalogue line item the question's metric is (an amount in a statement)."""
    recipe = get_recipe(spec.recipe)
    if recipe is None or recipe.unit != "USD" or len(recipe.formulas) != 1:
        return None
    items = formula_items(recipe.formulas[0])
    if len(items) != 1 or recipe.formulas[0] != f"{items[0]}[y]":
        return None
    li = get_item(items[0])
    return li if li is not None and li.statement in _WHERE else None


def _reported(
    li: LineItem, row: Row, y: int, yes_no: bool, strategy: str, side: bool | None = None
) -> Answer | None:
    """The line's figure for the year: 'Yes.' / the amount; with a side named (`side`: the
    item's own way or not), 'Yes.' only for a figure on that side."""
    reader = Reader()
    name = reader.add(f"{li.id}_fy{y}", row, y)
    expr = f"abs({name})" if li.magnitude else name
    calc = reader.calc(expr, "USD", f"FY{y} {li.name}")
    if calc is None or reader.scale_unknown:
        return None
    where = _WHERE[li.statement]
    label = row.label.strip()[:80]
    if calc.result == 0:
        lead = "No" if yes_no else "0"
        text = f"{lead}. The FY{y} {where} shows {label!r} at zero {reader.refs()}."
    else:
        amount = money(calc.result, reader.scale)
        lead = "Yes. " if yes_no else f"{amount}. "
        note = ""
        if side is not None and not li.magnitude and calc.result != 0 and (calc.result > 0) != side:
            # a benefit where an expense is asked, a loss where a gain is: the other side
            lead = "No. "
            note = ", a figure on the other side of the line than the one the question names"
        text = f"{lead}The FY{y} {where} shows {label!r} of {amount}{note} {reader.refs()}."
    return verdict(text, reader, [calc], strategy, "verdict")


def _absent(li: LineItem, book: Book, y: int, yes_no: bool, strategy: str) -> Answer | None:
    """'No' / '0' when the statement model holds the whole statement and no line is the item."""
    rows = [
        r
        for r in book.model_rows
        if r.primary and r.statement == li.statement and r.value_for(y) is not None
    ]
    if len(rows) < MIN_STATEMENT_ROWS:
        return None  # only part of the statement was read: absence proves nothing
    docs = {r.doc_id for r in rows}
    root = min((label_key(x) for x in li.labels), key=len, default="")
    root = root[:-1] if root.endswith("s") else root  # 'dividends' -> 'dividend' (a stem)
    if not root or any(
        root in r.key
        for r in book.model_rows
        if r.doc_id in docs and r.statement == li.statement and r.primary
    ):
        return None  # a line mentions the item under a caption the catalogue does not list
    first = rows[0]
    reader = Reader()
    reader.cites.append(
        Citation(
            source_id=first.source_id, doc_id=first.doc_id, page=first.page,
            chunk_id=first.chunk_id, quote=first.line[:200], xbrl_concept=first.concept,
        )
    )  # fmt: skip
    shown = ", ".join(dict.fromkeys(r.label.strip()[:40] for r in rows[:4]))
    lead = "No" if yes_no else "0"
    text = (
        f"{lead}. The FY{y} {_WHERE[li.statement]} {reader.refs()} ({len(rows)} lines read, e.g. "
        f"{shown}) has no line for {li.name}: none are reported in it."
    )
    return verdict(text, reader, [], strategy, "verdict")
