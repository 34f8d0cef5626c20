"""The coverage family: did one flow cover others ('Did X's net cash provided by operating
activities cover its capital expenditures and dividends paid?', 'Was its operating cash flow
enough to fund share repurchases and dividends?').

A yes/no question with a coverage verb (`lexicon.answer_form.coverage_split`,
`data/cash_flow_verbs.yaml` cover) naming one catalogue line item before the verb (the source)
and one or more after it (the uses), all read for the asked fiscal year from the same kind of
statement: the surplus is the source less the sum of the uses' magnitudes (an outflow printed in
parentheses is an amount spent), 'Yes' when it is zero or more, 'No' (a shortfall) otherwise,
with every figure, its line and page, and a re-executable Calculation. A source printed negative
(cash used, not provided) covers nothing: the sign stays. Any line not read: no verdict.
"""

from __future__ import annotations

from finqa.agents.reasoning.offline.book import Book
from finqa.agents.reasoning.offline.verdict_kit import Reader, money, verdict
from finqa.agents.types import Answer, Evidence
from finqa.lexicon.answer_form import coverage_split
from finqa.lexicon.line_items import LineItem, get_item, item_for_metric
from finqa.lexicon.query import analyze
from finqa.lexicon.question_ask import QuestionAsk

__all__ = ["coverage"]


def coverage(
    question: str, evidence: Evidence, strategy: str, book: Book | None, ask: QuestionAsk
) -> Answer | None:
    """'Yes' / 'No' with the surplus or shortfall of one flow over the others, or None."""
    if not ask.is_yes_no or ask.target_year is None or any(ask.direction):
        return None
    split = coverage_split(question)
    if split is None:
        return None
    sources, uses = _items(split[0]), _items(split[1])
    if len(sources) != 1 or not uses or sources[0] in uses:
        return None
    statements = {li.statement for li in (*sources, *uses)}
    if len(statements) != 1:
        return None  # a flow against a balance is no coverage of one period's flows
    book = book if book is not None else Book(evidence)
    y = ask.target_year
    reader = Reader()
    names: list[tuple[LineItem, str]] = []
    for li in (*sources, *uses):
        fact = book.find(li.id, y, named=tuple(statements))
        if fact is None:
            return None
        try:
            names.append((li, reader.add(f"{li.id}_fy{y}", fact.row, y)))
        except KeyError:
            return None
    if reader.scale_unknown:
        return None
    (source, src), used = names[0], names[1:]
    spent = " + ".join(f"abs({n})" for _li, n in used)
    calc = reader.calc(f"{src} - ({spent})", "USD", f"FY{y} {source.name} less {_listed(used)}")
    if calc is None:
        return None
    total = sum(abs(reader.values[n]) for _li, n in used)
    shown = ", ".join(f"{li.name} {money(abs(reader.values[n]), reader.scale)}" for li, n in used)
    surplus = calc.result
    lead = "Yes" if surplus >= 0 else "No"
    word = "surplus" if surplus >= 0 else "shortfall"
    text = (
        f"{lead}. FY{y} {source.name} of {money(reader.values[src], reader.scale)} against "
        f"{shown} ({money(total, reader.scale)} in all): a {word} of "
        f"{money(abs(surplus), reader.scale)} {reader.refs()}. Computed by finqa as "
        f"{calc.expression}. Answer: {money(surplus, reader.scale)}."
    )
    return verdict(text, reader, [calc], strategy, "verdict")


def _items(text: str) -> list[LineItem]:
    """The catalogue line items a part of the question names, in order, each once."""
    out: list[LineItem] = []
    for metric in analyze(text).metrics:
        li = get_item(item_for_metric(metric) or metric)
        if li is not None and li not in out:
            out.append(li)
    return out


def _listed(used: list[tuple[LineItem, str]]) -> str:
    names = [li.name for li, _n in used]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
