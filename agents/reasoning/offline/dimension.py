"""Questions about one part of the business: a segment, business unit, region or product line.

A question that names a part (read by `lexicon.dimensions` against the members of the
evidence filings' own segment, geography and product axes) is answered only from a fact of
that part: the line item's figure tagged (or printed in the segment note's table) for the
member, for the period asked, with its sign (a segment's operating loss is negative). The
consolidated figure is never the answer: without the part's fact the answer abstains and says
what was looked for. A derived metric of a part (a segment's operating margin) or its growth or
change over the year before is computed from the part's own facts only (both operands the
part's), with the calculation recorded for the judge.
"""

from __future__ import annotations

import re

from finqa.agents.reasoning.confidence import confidence_signals
from finqa.agents.reasoning.offline.verdict_kit import offline_answer
from finqa.agents.types import Answer, Calculation, Citation, Evidence, Operand, StatementStore
from finqa.lexicon import get_metric
from finqa.lexicon.answer_form import after_premise, asks_both_forms, asks_profitable
from finqa.lexicon.arith import ArithmeticError_, evaluate
from finqa.lexicon.dimension_figures import (
    PartFigures,
    part_figures,
    part_value,
    printed_caption,
)
from finqa.lexicon.dimension_question import (
    asks_part_share,
    part_is_whole,
    part_item,
    revenue_share,
    share_base,
)
from finqa.lexicon.dimensions import (
    asked_item,
    dimensional_facts,
    members_in,
    period_in,
    resolve_dimension,
)
from finqa.lexicon.display import format_amount
from finqa.lexicon.metrics import Metric, find_metrics
from finqa.lexicon.model import AskedDimension, StatementFact
from finqa.lexicon.movement import favourable_direction
from finqa.lexicon.prose import question_sentences
from finqa.lexicon.question_ask import QuestionAsk
from finqa.lexicon.question_intent import read_intent

__all__ = ["CANNOT", "abstain_part", "dimension_answer", "fact_citation"]

CANNOT = "cannot determine from the filings"
_RATIO_WORD = re.compile(r"\bmargins?\b|\bratio\b|\brate\b", re.I)


def _latest(facts: list[StatementFact]) -> list[StatementFact]:
    """Without an asked period: the facts of the latest period, the longest duration first."""
    if not facts:
        return []
    end = (
        max(f.period.end_date for f in facts if f.period.end_date)
        if any(f.period.end_date for f in facts)
        else None
    )
    last = [f for f in facts if f.period.end_date == end]
    longest = max(f.period.months or 0 for f in last)
    return [f for f in last if (f.period.months or 0) == longest]


def fact_citation(fact: StatementFact, evidence: Evidence) -> Citation:
    """The evidence item that shows the fact's page, else the statement model ('M1')."""
    item = next(
        (i for i in evidence.items if i.doc_id == fact.doc_id and fact.page in i.pages), None
    )
    quote = f"{fact.label} {fact.period.label}: {fact.raw or fact.value}"
    if item is not None:
        chunk = item.chunk_ids[0] if item.chunk_ids else None
        return Citation(
            source_id=item.source_id, doc_id=fact.doc_id, page=fact.page, chunk_id=chunk,
            quote=quote[:200],
        )  # fmt: skip
    return Citation(source_id="M1", doc_id=fact.doc_id, page=fact.page, quote=quote[:200])


def _amount_for_percent(item: str | None, percent: bool, change: str | None) -> bool:
    """The item read is an amount while the question asks a percentage that is no growth of it
    ('the margin of its hardware business as a percentage of hardware revenues'): the item is
    the percentage's base, not what is asked."""
    if item is None or not percent or change == "growth":
        return False
    metric = get_metric(item)
    return metric is not None and metric.unit == "USD"


def abstain_part(text: str, strategy: str, missing: str) -> Answer:
    """An abstention of a part's question, with what was looked for."""
    conf = confidence_signals(text, cited=False)
    conf["mode"] = "abstain"
    return offline_answer(text, strategy, conf, abstained=True, missing=[missing])


def _another_figure(
    question: str,
    asked: AskedDimension,
    named: str | None,
    ask: QuestionAsk,
    share: bool,
    strategy: str,
) -> Answer | None:
    """An abstention where the part's own figure of the item would answer another question: an
    amount within the part that comes from another part, or a percentage of which the part's
    amount is one operand; None otherwise."""
    if part_is_whole(question, asked.phrase):
        # 'how much Domestic revenue came from Computing and Mobile Phones': the part read is
        # the whole the amount comes from; its own figure would answer another question
        text = (
            f"I {CANNOT}: the question asks the amount of a part within {asked.describe()} "
            f"that comes from another part; {asked.describe()}'s own figure would answer "
            "another question."
        )
        return abstain_part(text, strategy, f"the part within {asked.describe()}")
    if _amount_for_percent(named, ask.percent, ask.change_over_prior) and not share:
        # 'the margin of X as a percentage of X revenues', 'what percentage of net sales came
        # from X': a percentage, of which the part's amount is one operand, not the answer
        text = (
            f"I {CANNOT}: the question asks for a percentage involving {asked.describe()}'s "
            f"{str(named).replace('_', ' ')}, and finqa's offline reader gives a part of the "
            "business its amount only; the amount, or the consolidated figure, would answer "
            "another question."
        )
        return abstain_part(text, strategy, f"the percentage asked of {asked.describe()}")
    return None


def dimension_answer(
    question: str, evidence: Evidence, store: StatementStore | None, strategy: str
) -> Answer | None:
    """The part's figure, or an abstention saying which part's figure was looked for; None
    when the question names no part of the business."""
    docs = [i.doc_id for i in evidence.items]
    members = members_in(store, docs) if store is not None else ()
    asked = resolve_dimension(question, members)
    if asked is None:
        return None
    ask = read_intent(question).ask  # the lexicon's one reading of the question
    named = asked_item(question, asked)
    if named is None and ask.metric is None and not ask.computes:
        # 'its utility stood trial over its natural gas pipelines. What did the jury decide?':
        # a part named in a premise, no figure asked of it (never the part's revenue)
        return None
    share = store is not None and named in (None, "revenue") and asks_part_share(question)
    if share and named is None and not revenue_share(share_base(question)):
        # 'what share of all U.S. retail pharmacy prescriptions did it dispense': a share of a
        # measure the catalogue does not name, never the part's share of revenue; a sentence
        # of the filing may state it (the usual path)
        return None
    if share and asked.phrase.lower() in share_base(question).lower():
        # 'what share of X's streaming revenues came from its UCAN region': the part read is
        # the whole's own qualifier, not the part the share is asked of
        text = (
            f"I {CANNOT}: the question asks a share of a whole that names a part of the business "
            f"({asked.describe()}); only a part's share of the company's own figure is computed."
        )
        return abstain_part(text, strategy, f"the share asked of {asked.describe()}")
    refused = _another_figure(question, asked, named, ask, share, strategy)
    if refused is not None:
        return refused
    if named is None and (ask.percent or ask.operator is not None or _RATIO_WORD.search(question)):
        # a margin or a share of a measure the catalogue does not name: never the part's revenue
        text = (
            f"I {CANNOT}: the question asks for a ratio of {asked.describe()} over a measure "
            "the catalogue does not name; the part's revenue or the consolidated figure would "
            "answer another question."
        )
        return abstain_part(text, strategy, f"the measure asked of {asked.describe()}")
    item = named or "revenue"
    metric = get_metric(item)
    name = metric.name.lower() if metric is not None else item.replace("_", " ")
    what = f"{name} for {asked.describe()}"
    if asked.member is None and asked.candidates:
        names = " or ".join(repr(c) for c in asked.candidates)
        text = (
            f"I {CANNOT}: the question's {asked.phrase!r} could be any of the parts the filing "
            f"prints as {names}; its {name} is not answered for one of them by guess, and the "
            "consolidated figure is not the answer to a question about one part."
        )
        return abstain_part(text, strategy, what)
    aggregate = ask.change_over_prior
    computed = metric is not None and (metric.is_derived or aggregate is not None)
    if computed and named is not None and store is not None:  # the line item said, not assumed
        return _computed(
            item,
            aggregate,
            asked,
            period_in(question, docs),
            docs,
            store,
            evidence,
            strategy,
            ask.direction if ask.is_yes_no or all(ask.direction) else None,
            ask.decimals,
            both_forms=asks_both_forms(read_intent(question).head),
            direction_of=_verdict_item(question, asked, item),
        )
    period = period_in(question, docs)  # a stated date read by the filer's own calendar
    if named is not None and asks_profitable(question) and store is not None:
        return _profitable(question, named, name, asked, period, docs, store, evidence, strategy)
    if _not_one_figure(question):
        text = (
            f"I {CANNOT} offline: the question asks about {what} over more than one figure "
            "(a change, a comparison or a verdict); finqa's offline reader answers a part of "
            "the business with its figure for one period only, and the consolidated figures "
            "would answer another question."
        )
        return abstain_part(text, strategy, what)
    facts = dimensional_facts(store, docs, item, asked, period) if store is not None else []
    if period is None:
        facts = _latest(facts)
    if not facts:
        when = f" ({_when(period)})" if period is not None else ""
        text = (
            f"I {CANNOT}: no figure for {asked.describe()} found: looked for its {name}"
            f"{when} among the figures the filings report by segment, region and product "
            "line; the consolidated figure is not the answer to a question about one part."
        )
        return abstain_part(text, strategy, f"{name} of {asked.describe()}")
    if share and item == "revenue" and store is not None:
        other = resolve_dimension(question.replace(asked.phrase, " "), members)
        if other is not None and (other.member or other.candidates):
            text = (
                f"I {CANNOT} offline: the question asks for a share that names two parts of "
                f"the business ({asked.describe()} and {other.describe()}); only a part's share "
                "of the company's own revenue is computed."
            )
            return abstain_part(text, strategy, f"the share asked of {asked.describe()}")
        return _share(facts[0], asked, name, store, evidence, strategy)
    return _answer(facts[0], facts, asked, name, evidence, strategy)


def _profitable(
    question: str,
    item: str,
    name: str,
    asked: AskedDimension,
    period: str | int | None,
    docs: list[str],
    store: StatementStore,
    evidence: Evidence,
    strategy: str,
) -> Answer:
    """'Was the X segment profitable (at the Y level)?': Yes for a profit, No for a loss, by the
    sign of the part's own figure of the level's line (`lexicon.dimension_question.
    profit_level`), given with that figure; an abstention when the question asks more than the
    verdict (its other parts are another reader's) or the part has no such figure."""
    sentences = question_sentences(after_premise(question))
    extra = [x for x in sentences[1:] if not _asks_the_figure_only(x, item)]
    if len(read_intent(question).parts.parts) != 1 or extra:
        # 'Give its operating income and say whether it improved': more than the verdict
        text = (
            f"I {CANNOT} offline: the question asks whether {asked.describe()} was profitable "
            "and more besides; finqa's offline reader answers a part's profit verdict alone."
        )
        return abstain_part(text, strategy, f"{name} of {asked.describe()}")
    facts = dimensional_facts(store, docs, item, asked, period)
    if period is None:
        facts = _latest(facts)
    if not facts or facts[0].value == 0:
        text = (
            f"I {CANNOT}: the question asks whether {asked.describe()} was profitable, read "
            f"from its own {name}; the filings report no such figure for it (or a nil one), "
            "and the consolidated result would answer another question."
        )
        return abstain_part(text, strategy, f"{name} of {asked.describe()}")
    answer = _answer(facts[0], facts, asked, name, evidence, strategy)
    profit = facts[0].value > 0
    verdict = "Yes" if profit else "No"
    said = "a profit" if profit else "a loss"
    text = re.sub(r"Answer: .*$", f"Answer: {verdict}.", answer.text)
    text = f"{verdict}. It was {said} at that level: {text[:1].lower()}{text[1:]}"
    return answer.model_copy(update={"text": text})


# words of a request beyond a figure: a movement, a comparison, a cause or a verdict
_MORE_ASKED = re.compile(
    r"\b(?:whether|compar\w*|chang\w*|why|reasons?|improv\w*|wors\w*|driv\w*|caus\w*|"
    r"explain\w*|versus|vs)\b",
    re.I,
)


def _asks_the_figure_only(sentence: str, item: str) -> bool:
    """A request after a profit verdict that asks only the figure the verdict reads ('Give its
    segment operating income (loss).'), no other line, movement or cause."""
    items = {part_item(get_metric(m.canonical).id) for m in find_metrics(sentence)}
    return items <= {item} and not _MORE_ASKED.search(sentence)


def _share(
    fact: StatementFact,
    asked: AskedDimension,
    name: str,
    store: StatementStore,
    evidence: Evidence,
    strategy: str,
) -> Answer:
    """A part's share of the company's figure ('what percentage of net sales came from the X
    segment'): the part's own figure over the consolidated figure of the same line item and
    period in the same filing (a statement's, never another part's); an abstention when the
    filing states no such whole or the share is not within 0-100%."""
    wholes = [
        f
        for f in store.lookup(fact.doc_id, str(fact.item), fact.period.key)
        if not f.dimensions and f.value > 0
    ]
    kind = _kind_word(asked)
    label = _part_name(asked, kind)
    whole = wholes[0] if wholes else None
    share = fact.value / whole.value * 100 if whole is not None else None
    if whole is None or share is None or not 0 < share <= 100:
        text = (
            f"I {CANNOT}: the question asks for the {label} {kind}'s share of the company's "
            f"{name} for {fact.period.key}; the part's figure is read, but no consolidated "
            f"{name} of that period it is a share of (within 0-100%) is."
        )
        return abstain_part(text, strategy, f"the consolidated {name} for {fact.period.key}")
    part_cite, whole_cite = fact_citation(fact, evidence), fact_citation(whole, evidence)
    scale = max(fact.scale or 1.0, whole.scale or 1.0)
    operands = tuple(
        Operand(
            name=n, value=f.value / scale, unit=f.unit, scale=scale, period=f.period.key,
            source_id=c.source_id, text=(f.raw or str(f.value))[:60],
        )
        for n, f, c in (("part", fact, part_cite), ("whole", whole, whole_cite))
    )  # fmt: skip
    calc = Calculation(
        expression="part / whole * 100", operands=operands, result=share, unit="%",
        description=f"share of {name} of {asked.describe()}",
    )  # fmt: skip

    def money(f: StatementFact) -> str:
        s = f.scale if f.scale > 1 else 1.0
        return format_amount(f.value / s, f.unit, s)

    text = (
        f"The {label} {kind}'s share of the company's {name} for {fact.period.key} was "
        f"{share:.1f}% [{part_cite.source_id}], computed from the {kind}'s own figure, "
        f"{money(fact)} (p.{fact.page + 1}), over the consolidated {name}, {money(whole)} "
        f"[{whole_cite.source_id}] (p.{whole.page + 1}). Answer: {share:.1f}%."
    )
    cites = tuple(dict.fromkeys((part_cite, whole_cite)))
    return _part_answer(text, asked, strategy, 0.75, cites, calc)


def _computed(
    item: str,
    aggregate: str | None,
    asked: AskedDimension,
    period: str | int | None,
    docs: list[str],
    store: StatementStore,
    evidence: Evidence,
    strategy: str,
    direction: tuple[bool, bool] | None = None,
    decimals: int | None = None,
    both_forms: bool = False,
    direction_of: str | None = None,
) -> Answer:
    """A part's derived metric (its margin) or its growth / change over the year before, from
    the part's own facts only; an abstention naming the operand the part lacks. A derived
    metric whose operands the filing also prints for the year before is stated beside its
    figure then, computed the same way; `direction` (a yes/no asking whether it went up, down)
    is answered from the two; `decimals`: the places a percentage is asked to; `both_forms`: a
    growth asked in dollars and in percent states the amount beside the rate; `direction_of`:
    the other line a yes/no part asks the way of ('and did its net sales grow or shrink?'),
    answered from that line's own two years when it is an operand, else not at all (never
    with the item's own way)."""
    metric = get_metric(item)
    if metric is None:
        return abstain_part(f"I {CANNOT}: no line item {item!r} in the catalogue.", strategy, item)
    label = metric.name.lower()
    if aggregate is not None and not metric.is_derived:
        inputs: tuple[str, ...] = (item,)
        label = f"{aggregate} in {label}"
    else:
        inputs = metric.inputs
    figures = part_figures(store, docs, inputs, asked, period)
    value = (
        part_value(figures, item, aggregate if not metric.is_derived else None) if figures else None
    )
    if figures is None or value is None:
        missing = ", ".join(i.replace("_", " ") for i in inputs)
        prior = " and the year before" if aggregate or "prev(" in (metric.formula or "") else ""
        text = (
            f"I {CANNOT}: the question asks for the {label} of {asked.describe()}, computed from "
            f"that part's own {missing} for the period{prior}; the filings report no such "
            "figure for it, and the consolidated figures would answer another question."
        )
        return abstain_part(text, strategy, f"{missing} of {asked.describe()}")
    facts = [*figures.current.values(), *figures.previous.values()]
    cites = tuple(dict.fromkeys(fact_citation(f, evidence) for f in facts))
    named = [*figures.current.items(), *((f"{k}_prior", f) for k, f in figures.previous.items())]
    scale = max((f.scale or 1.0) for _, f in named)
    operands = tuple(
        Operand(
            name=k, value=f.value / scale, unit=f.unit, scale=scale, period=f.period.key,
            source_id=fact_citation(f, evidence).source_id, text=(f.raw or str(f.value))[:60],
        )
        for k, f in named
    )  # fmt: skip
    expression = _expression(item, aggregate, metric)
    try:
        result = evaluate(expression, {o.name: o.value for o in operands})
    except ArithmeticError_:
        result = value if aggregate == "growth" or metric.unit == "%" else value / scale
    # a derived amount's figure is its level (its growth is not computed here): never a percent
    percent = metric.unit == "%" or (aggregate == "growth" and not metric.is_derived)
    places = decimals if decimals is not None and 0 <= decimals <= 4 else 1  # as asked
    shown = f"{value:.{places}f}%" if percent else format_amount(value / 1e6, "USD", 1e6)
    if aggregate == "growth" and not metric.is_derived and both_forms:
        # 'how much did X fall, in dollars and in percent': the amount beside the rate
        now = sum(f.value for f in figures.current.values())
        then = sum(f.value for f in figures.previous.values())
        shown += f" ({format_amount((now - then) / 1e6, 'USD', 1e6)})"
    parts = "; ".join(
        f"{_said(store, f)} {f.period.key} "
        f"{format_amount(f.value / (f.scale or 1.0), f.unit, f.scale or 1.0)} (p.{f.page + 1})"
        for f in facts
    )
    kind = _kind_word(asked)
    when = next(iter(figures.current.values())).period.key
    calc = Calculation(
        expression=expression, operands=operands, result=result, unit="%" if percent else "USD",
        description=f"{label} of {asked.describe()}",
    )  # fmt: skip
    before = _year_before(metric, inputs, figures, operands, percent, label, asked)
    moved, verdict, judged = "", "", ""
    if before is not None:
        earlier, earlier_calc = before  # in the operands' scale, as the calculation's result
        earlier_when = next(iter(figures.previous.values())).period.key
        earlier_shown = (
            f"{earlier:.{places}f}%"
            if percent
            else format_amount(earlier * scale / 1e6, "USD", 1e6)
        )
        way = (
            "rose"
            if result > earlier_calc.result
            else "fell"
            if result < earlier_calc.result
            else ""
        )
        moved = (
            f"; it {way} from {earlier_shown} in {earlier_when}"
            if way
            else f", as in {earlier_when}"
        )
        if direction_of is not None:
            judged, verdict = _other_line_way(direction_of, direction, figures, earlier_when)
        elif direction is not None and all(direction) and way:
            # 'did it improve or deteriorate?': the way it went, in the words of the item's
            # favourable direction (a margin that fell deteriorated)
            favourable = favourable_direction(metric.id)
            if favourable:
                better = (way == "rose") == (favourable > 0)
                judged = (
                    f" Compared with {earlier_when}, it {'improved' if better else 'deteriorated'}."
                )
        elif direction is not None and any(direction) and way:
            yes = (direction[0] and way == "rose") or (direction[1] and way == "fell")
            verdict = "Yes. " if yes else "No. "
    text = (
        f"{verdict}The {label} of the {_part_name(asked, kind)} {kind} for {when} was {shown} "
        f"[{cites[0].source_id}]{moved}, computed from the {kind}'s own figures: {parts}; not "
        f"the consolidated figures.{judged} Answer: {verdict}{shown}."
    )
    calcs = (calc,) if before is None else (calc, before[1])
    return _part_answer(text, asked, strategy, 0.75, cites, calcs)


def _verdict_item(question: str, asked: AskedDimension, item: str) -> str | None:
    """The line a yes/no part of a question of several parts asks the way of, when it names
    one other than the item asked ('what was the segment's operating margin, and did its net
    sales grow or shrink?': revenue); None when no part does."""
    parts = read_intent(question).parts.parts  # the lexicon's one parse of the question
    if len(parts) < 2:
        return None
    for part in parts:
        if part.form == "verdict":
            own = asked_item(part.text, asked)
            if own is not None and own != item:
                return own
    return None


def _other_line_way(
    line: str,
    direction: tuple[bool, bool] | None,
    figures: PartFigures,
    earlier_when: str,
) -> tuple[str, str]:
    """The sentence (and yes/no lead) answering which way another line of the part went, from
    its own two years among the operands; nothing when they are not both read (the part is
    then left unanswered, never answered with the item's own way)."""
    now, then = figures.current.get(line), figures.previous.get(line)
    if now is None or then is None or then.value == 0 or now.value == then.value:
        return "", ""
    up = now.value > then.value
    name = line.replace("_", " ")
    scale = max(now.scale or 1.0, then.scale or 1.0)
    pct = (now.value - then.value) / abs(then.value) * 100

    def money(f: StatementFact) -> str:
        return format_amount(f.value / scale, f.unit, scale)

    sentence = (
        f" Its {name} {'increased' if up else 'decreased'} from {money(then)} in {earlier_when}"
        f" to {money(now)} ({pct:+.1f}%)."
    )
    verdict = ""
    if direction is not None and any(direction) and not all(direction):
        verdict = "Yes. " if (direction[0] and up) or (direction[1] and not up) else "No. "
    return sentence, verdict


def _year_before(
    metric: Metric,
    inputs: tuple[str, ...],
    figures: PartFigures,
    operands: tuple[Operand, ...],
    percent: bool,
    label: str,
    asked: AskedDimension,
) -> tuple[float, Calculation] | None:
    """A derived metric's figure for the year before, by its formula over the part's own
    year-before operands; None for a line item's own growth, a metric that reads an earlier
    year itself, or when the filing lacks an operand for it."""
    formula = metric.formula or ""
    # a derived metric's figure is its level whatever movement is asked: the year before's
    # level beside it states the movement
    if not metric.is_derived or "prev(" in formula or not formula:
        return None
    if not all(i in figures.previous for i in inputs):
        return None
    expression = re.sub(
        r"\b[a-z_][a-z0-9_]*\b",
        lambda m: f"{m.group(0)}_prior" if m.group(0) in inputs else m.group(0),
        formula,
    )
    try:
        value = evaluate(expression, {o.name: o.value for o in operands})
    except ArithmeticError_:
        return None
    calc = Calculation(
        expression=expression, operands=operands, result=value, unit="%" if percent else "USD",
        description=f"{label} of {asked.describe()}, the year before",
    )  # fmt: skip
    return value, calc


def _said(store: StatementStore, fact: StatementFact) -> str:
    """An operand's line item, with the caption the filing prints it under when that differs
    ("operating income (printed as 'Adjusted EBIT')"): the answer names what was read."""
    name = (fact.item or "").replace("_", " ")
    caption = printed_caption(store, fact)
    return f"{name} (printed as {caption!r})" if caption else name


def _expression(item: str, aggregate: str | None, metric: Metric) -> str:
    """The calculation over the operands' names (a year-before operand is '<item>_prior')."""
    if metric.is_derived:
        return re.sub(r"prev\((\w+)\)", r"\1_prior", metric.formula or item)
    if aggregate == "change":
        return f"{item} - {item}_prior"
    return f"({item} - {item}_prior) / {item}_prior * 100"


def _not_one_figure(question: str) -> bool:
    """A change, a comparison, an extreme or a yes/no verdict: more than one part's figure."""
    from finqa.agents.reasoning.offline.sentences import is_yes_no_question
    from finqa.lexicon import intent

    read = read_intent(question)  # the lexicon's one reading of the question
    return bool(
        read.change_amount
        or read.ask.compares
        or intent.asked_extreme(question)
        or is_yes_no_question(question)
    )


def _when(period: str | int) -> str:
    return f"FY{period}" if isinstance(period, int) else str(period).replace("@end", " end")


# how an answer names a part's kind ('the Europe region' for a geography member)
_KIND_WORDS = {"geography": "region", "product": "product line"}


def _kind_word(asked: AskedDimension) -> str:
    return _KIND_WORDS.get(asked.kind, asked.kind)


def _part_answer(
    text: str,
    asked: AskedDimension,
    strategy: str,
    base: float,
    citations: tuple[Citation, ...],
    calc: Calculation | tuple[Calculation, ...] | None = None,
) -> Answer:
    """A part's figure as an answer: its text, citations and calculations, marked as the
    dimension answer of `asked` (the judge reads the part it was given for)."""
    conf = confidence_signals(text, cited=True, base=base)
    conf["mode"] = "dimension"
    conf["dimension"] = asked.model_dump()
    calcs = calc if isinstance(calc, tuple) else (calc,) if calc is not None else ()
    return offline_answer(text, strategy, conf, citations=citations, calculations=calcs)


def _part_name(asked: AskedDimension, kind: str) -> str:
    """The part as the answer names it before its kind word: 'the FedEx Ground segment' said
    in the question is shown 'FedEx Ground' (no doubled article or kind)."""
    said = asked.phrase or asked.label
    name = re.sub(r"^(?:(?:of|the|in|from|for|at|by)\s+)+", "", said, flags=re.I).strip()
    trimmed = re.sub(rf"\s+{re.escape(kind)}s?$", "", name, flags=re.I).strip()
    return trimmed or name


def _answer(
    fact: StatementFact,
    facts: list[StatementFact],
    asked: AskedDimension,
    name: str,
    evidence: Evidence,
    strategy: str,
) -> Answer:
    scale = fact.scale if fact.unit in ("USD", "shares") and fact.scale > 1 else 1.0
    amount = format_amount(fact.value / scale, fact.unit, scale)
    cite = fact_citation(fact, evidence)
    kind = _kind_word(asked)
    label = _part_name(asked, kind)
    how = (
        f"tagged as {fact.concept} for {asked.member}, period {fact.period.label!r}"
        if fact.source == "xbrl"
        else f"printed in the row {fact.label!r} of the segment table, column {fact.period.label!r}"
    )
    loss = " (a loss)" if fact.value < 0 and "income" in name else ""
    others = {round(f.value, 2) for f in facts if f.period.key == fact.period.key}
    note = (
        " Other figures the filing reports for this part and period differ (a different "
        "measure of it); the tag of the part as a whole is used."
        if len(others) > 1
        else ""
    )
    text = (
        f"The {name} of the {label} {kind} for {fact.period.key.removesuffix('@end')} was "
        f"{amount}{loss} [{cite.source_id}]. Read from the filing's figure for that {kind}, "
        f"{how}, p.{fact.page + 1}; this is the {kind}'s figure, not the consolidated one."
        f"{note} Answer: {amount}."
    )
    return _part_answer(text, asked, strategy, 0.8, (cite,))
