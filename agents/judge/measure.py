"""The measure an answer gives against the phrase the question asks about (issue #25, 'another
metric's formula'; `lexicon.asked_measure`): the question's own words, read for the noun phrase
its ask governs, are a second reading of what is asked beside the catalogue match both agents
start from. An answer whose lead states another measure ('Total debt ...: $1,234 million' for
'gross interest expense'), or one computed as a catalogue item the phrase rules out (its nature
or its words), answers another question: its figures are not accepted, whatever their
grounding.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from finqa.agents.judge import _lex
from finqa.agents.judge.context import Context, question_parts_of
from finqa.agents.judge.kind import KindProblem
from finqa.agents.judge.numeric import NumberCheck
from finqa.agents.judge.period_type import operand_captions
from finqa.agents.judge.row_item import printed_on
from finqa.agents.judge.text import line_read, without_notes
from finqa.agents.types import Answer
from finqa.lexicon.answer_form import ask_head, flow_option
from finqa.lexicon.asked_measure import (
    answer_fit,
    asks_per_share,
    asks_ratio_form,
    effect_asked,
    either_or_options,
    measure_fit,
    quoted_misfit,
    side_words,
    unnamed_measure,
)
from finqa.lexicon.comparison import asks_gap
from finqa.lexicon.components import Enumeration, enumeration, part_key, side_classes
from finqa.lexicon.metrics import METRICS, find_metrics, metric_key
from finqa.lexicon.movement import size_of_movement, word_class
from finqa.lexicon.period_ask import asked_period_type
from finqa.lexicon.periods import find_periods
from finqa.lexicon.prose import split_sentences
from finqa.lexicon.qualifiers import row_labels
from finqa.lexicon.sides import own_words
from finqa.lexicon.statements.catalogue import without_headings

__all__ = [
    "effect_verdict",
    "either_or_verdict",
    "flow_sentence_for_balance",
    "gross_for_net",
    "level_for_gap",
    "named_operand_missing",
    "one_part_for_all_parts",
    "one_part_for_parts",
    "other_date",
    "other_measure",
]

# the units of a figure that is a ratio of two lines
_RATIO_UNITS = frozenset({"%", "times", "ratio", "x"})


def other_measure(
    ctx: Context, answer: Answer, numbers: Sequence[NumberCheck]
) -> list[KindProblem]:
    """One problem when the measure the answer states, or the one the question was read as
    asking, cannot be what the question's phrase asks; every figure of the answer becomes
    `calc_other_metric`."""
    if ctx.abstained:
        return []
    if (
        asks_ratio_form(ctx.question)
        and any(nc.ok and nc.unit == "USD" for nc in numbers)
        and not any(nc.unit in _RATIO_UNITS for nc in numbers)
    ):
        # 'as a percentage of total loans', 'in percentage terms', 'total debt (...) relative
        # to equity': an amount answers another question, whichever line it is of
        return _refused(
            numbers, "the question asks a percentage, share or ratio; the answer gives amounts"
        )
    quoted = quoted_misfit(ctx.question, ctx.text)
    if quoted and any(nc.ok for nc in numbers):
        # '$7. The filing states: "The redeemable noncontrolling interest amounted to $7 ..."'
        # for accrued interest: the sentence's figure is another line's
        return _refused(numbers, quoted)
    stated = ("states", answer_fit(ctx.question, ctx.text))
    if (
        asks_per_share(ctx.question)
        and any(nc.ok and nc.unit == "USD" for nc in numbers)
        and all(nc.unit != "USD" or _total(nc) for nc in numbers if nc.ok)
    ):
        # 'did X raise its per-share cash dividend' answered with the cash paid in millions
        return _refused(numbers, "the question asks a figure per share; the answer gives totals")
    if len(question_parts_of(ctx.checklist)) > 1:
        # the answer's lead answers the first part, whose phrase the ask reads first; the
        # parse's one item may be another part's
        checks = [stated]
    else:
        ask = ctx.intent.ask
        read = ask.recipe if ask.recipe in METRICS else ask.metric
        side = _side_part(ctx, answer, numbers, read)
        if side:
            return side
        checks = [stated, ("is read as", measure_fit(ctx.question, read))]
    for how, fit in checks:
        if fit is not None and not fit.fits:
            name = METRICS[fit.metric].name.lower()
            return _refused(numbers, f"the answer {how} {name}: {fit.reason}")
    return []


def _total(nc: NumberCheck) -> bool:
    """A figure in thousands, millions or billions: a total, never an amount per share."""
    scale = float(getattr(nc.quantity, "scale", 1.0) or 1.0)
    return scale >= 1e3 or abs(nc.value) >= 1e4


def _refused(numbers: Sequence[NumberCheck], message: str) -> list[KindProblem]:
    """Every figure the answer supports becomes another metric's, for `message`."""
    refused = [nc for nc in numbers if nc.ok]
    for nc in refused:
        nc.status, nc.detail = "calc_other_metric", message
    return [KindProblem("other_measure", message, [nc.text.strip() for nc in refused])]


def _side_part(
    ctx: Context, answer: Answer, numbers: Sequence[NumberCheck], metric: str | None
) -> list[KindProblem]:
    """A balance asked in whole answered from one side of it: a figure whose recorded
    calculation reads one line, or that is printed only on rows, captioned with a side
    ('Long-term operating lease liabilities', 'Current portion of ...') that neither the
    question nor the asked item says."""
    item = METRICS.get(metric or "")
    # 'current and long-term combined': the question names the balance's two sides as its whole
    both = len(side_classes(ask_head(ctx.question))) > 1
    if not both and (item is None or item.period_type != "instant"):
        return []
    whole = item.name.lower() if item is not None else "balance"
    problems: list[KindProblem] = []
    for nc in numbers:
        if nc.status not in ("evidence", "calculation") or nc.unit != "USD" or nc.quantity is None:
            continue  # the answer's amount, not an operand it lists (bare figures)
        # the line its recorded calculation reads (a sum of both sides reads two), else every
        # printing of the figure in the evidence
        read = operand_captions(answer, nc)
        if read is not None and len(read) != 1:
            continue
        # a caption's section headings read onto its line name no side of it ('Assets
        # Current assets Cash and cash equivalents')
        labels = [
            without_headings(lab)
            for lab in (list(read) if read is not None else printed_on(ctx, nc))
        ]
        sides = [
            tuple(side_classes(lab)) if both else side_words(lab, ctx.question, metric)
            for lab in labels
        ]
        if not labels or not all(sides) or (both and any(len(x) > 1 for x in sides)):
            continue
        nc.status = "not_found"
        nc.detail = (
            f"{nc.text.strip()} is on the line {labels[0]!r}, the {sides[0][0].lower()} side of "
            f"the {whole} the question asks in whole"
        )
        problems.append(KindProblem("part_side", nc.detail, [nc.text.strip()]))
    return problems


def either_or_verdict(ctx: Context) -> list[KindProblem]:
    """An answer to an either/or question ('Did X add to or reduce Y?', 'a charge or a
    benefit?') that names neither option nor a direction (a Yes or No, or a figure alone:
    'effective tax rate 1.8%' for 'a tax benefit or a provision, and what rate?') answers
    neither."""
    if ctx.abstained:
        return []
    options = either_or_options(ctx.question)
    if options is None:
        return []
    # the answer's own words: an option quoted from the filing ('"The gains and losses on our
    # derivatives ..."') is the filing's sentence, and finqa's note on how it read the answer
    # ('which covers what the question asks about (gain, cost)') no claim, not a choice
    words = set(re.findall(r"[a-z]+", without_notes(own_words(ctx.text)).lower()))
    against = _flow_against_figure(ctx.text, options)
    if against is not None:
        return [against]
    if any(w.startswith(o[:4]) for o in options for w in words):
        return []
    if all(word_class(o) for o in options) and any(word_class(w) for w in words):
        return []  # 'improved or declined' answered by the direction stated
    return [
        KindProblem(
            "either_or",
            f"the question asks which of '{options[0]}' or '{options[1]}'; the answer names "
            "neither",
        )
    ]


def _flow_against_figure(text: str, options: tuple[str, str]) -> KindProblem | None:
    """'Generated or consumed cash?': the option named against the sign of the first amount
    the answer gives (a negative flow consumed cash); None when the options are no inflow /
    outflow pair, or the option named is the one the sign has."""
    amounts = [q for q in _lex.extract_quantities(text) if q.kind == "number" and q.unit == "USD"]
    if not amounts or not amounts[0].value:
        return None
    value = float(amounts[0].value)
    has = flow_option(options, value > 0)
    if has is None:
        return None
    other = next(o for o in options if o != has)
    named = set(re.findall(r"[a-z]+", text.lower()))
    if other.lower() in named and has.lower() not in named:
        return KindProblem(
            "either_or",
            f"the answer says the flow {other} cash, but the figure it gives, "
            f"{amounts[0].text.strip()}, is {'an inflow' if value > 0 else 'an outflow'}",
        )
    return None


def effect_verdict(ctx: Context) -> list[KindProblem]:
    """'Did restructuring reduce operating income?' asks the effect of one line on another: an
    answer that names nothing the second line can be (the first line's own movement) answers
    'did restructuring decrease?', another question."""
    if ctx.abstained:
        return []
    asked = effect_asked(ctx.question)
    if asked is None:
        return []
    line, target = asked
    other = unnamed_measure(f"What was {target}?", ctx.text)
    if other is None:
        return []
    return [
        KindProblem(
            "effect_not_answered",
            f"the question asks whether {line} moved {other}; the answer says nothing of {other}",
        )
    ]


# an answer that states it read its figure off one row ('Read from the line ...', 'Read from
# the filing's figure for that segment'), and one that computed it
_ONE_ROW = re.compile(r"\bread from the (?:line|filing's figure)\b", re.I)
_COMPUTED = re.compile(r"\bcomputed by finqa\b|\bsum(?:med)? of\b", re.I)


def _one_part_read(text: str, listed: Enumeration) -> bool:
    """The line the answer read is one part of the measure the question defines: for a stated
    sum, a line whose caption does not name every part; for a difference, a line captioned as
    one of its parts ('Interest expense' for 'interest expense less interest income')."""
    caption = line_read(text)
    if caption is None:
        return listed.stated_sum
    words = set(part_key(caption).split())
    if listed.stated_sum:
        return not all(set(part_key(p).split()) - {"and"} <= words for p in listed.parts)
    return any(words - {"total"} == set(part_key(p).split()) - {"total"} for p in listed.parts)


def level_for_gap(ctx: Context) -> list[KindProblem]:
    """'X's A was higher than its B. By how much?' asks the gap between the two lines: an answer
    that reads one line's level off one row and computes nothing gives one side, not the gap."""
    if ctx.abstained or not _ONE_ROW.search(ctx.text) or _COMPUTED.search(ctx.text):
        return []
    if not asks_gap(ctx.question):
        return []
    return [
        KindProblem(
            "level_for_gap",
            "the question asks by how much one line the premise compares exceeds the other; the "
            "answer reads one line's level",
        )
    ]


# the reasoner's note that its definition's first formula lacked an operand ('no short term
# debt line was read from the evidence, so it is computed from the lines shown')
_NOT_READ = re.compile(r"\bno (?P<names>[a-z][a-z ]*?) line was read from the evidence\b", re.I)


def named_operand_missing(ctx: Context) -> list[KindProblem]:
    """'total debt, taking short-term borrowings plus long-term debt' answered from long-term
    debt alone, the answer saying no short-term debt line was read: an operand the question
    itself counts is missing, so the figure is not the one asked."""
    if ctx.abstained:
        return []
    m = _NOT_READ.search(ctx.text)
    if m is None:
        return []
    missing = {n.strip().replace(" ", "_") for n in m.group("names").split(" or ")}
    # the asked item's own line missing, read through its fall-back (the company's one net
    # income line for net income attributable), is no component left out
    missing -= {ctx.intent.ask.recipe, ctx.intent.ask.metric}
    named = {x.canonical for x in find_metrics(ctx.question)}
    counted = sorted(missing & named)
    if not counted:
        return []
    what = counted[0].replace("_", " ")
    return [
        KindProblem(
            "operand_missing",
            f"the question counts {what} in the figure it asks; the answer says no {what} line "
            "was read and computes without it",
        )
    ]


# 'net interest expense', 'interest expense, net': the net of a line and its opposite
_NET_ASKED = re.compile(
    r"\bnet\s+(?P<head>[a-z]+)\s+(?P<side>expenses?|income|costs?)\b"
    r"|\b(?P<head2>[a-z]+)\s+(?P<side2>expenses?|income|costs?),?\s+net\b",
    re.I,
)
_LINE_PRINTED = re.compile(r"\bread from the line ['\u2018]([^'\u2019]+)", re.I)
_OPPOSITE = {"expense": "income", "expenses": "income", "cost": "income", "costs": "income", "income": "expense"}  # fmt: skip


def gross_for_net(ctx: Context) -> list[KindProblem]:
    """'What was X's net interest expense?' answered from the line 'Interest expense' where the
    evidence also prints 'Interest income': the gross line, not the net the question asks."""
    if ctx.abstained:
        return []
    m = _NET_ASKED.search(ctx.question)
    caption = line_read(ctx.text)
    printed = _LINE_PRINTED.search(ctx.text)  # the line as quoted ('Total interest expense — net')
    if m is None or caption is None or printed is None or re.search(r"\bnet\b", printed[1], re.I):
        return []
    head = (m.group("head") or m.group("head2")).lower()
    side = (m.group("side") or m.group("side2")).lower()
    if head not in part_key(caption).split():
        return []
    opposite = f"{head} {_OPPOSITE[side]}"
    labels = [label for src in ctx.view.sources for label in row_labels(src.text)]
    if not any(label.startswith(metric_key(opposite)) for label in labels):
        return []
    return [
        KindProblem(
            "gross_for_net",
            f"the question asks the net {head} {side} ({head} {side} less {opposite}, both "
            f"printed); the answer reads the gross line '{caption}'",
        )
    ]


# a sum over several parts of the business ('the combined segment operating income of X's three
# reportable segments', 'the total revenue of its two divisions')
_OVER_PARTS = re.compile(
    r"\b(?:combined|together|in\s+total|total|sum|aggregate|all)\b[^?.;]*?\b(?:segments|divisions|"
    r"business\s+units|regions|reportable\s+segments|operating\s+segments)\b",
    re.I,
)
# an answer giving one part's figure ('The operating income of the Activision segment for FY2022
# was ...', 'Read from the filing's figure for that segment')
_ONE_PART = re.compile(
    r"\bof the [^.]{1,60}? (?:segment|division|region|business unit) for\b", re.I
)


def one_part_for_all_parts(ctx: Context) -> list[KindProblem]:
    """'What was the combined operating income of X's three reportable segments?' answered with
    one segment's figure: one part for the sum of them all."""
    if ctx.abstained or _COMPUTED.search(ctx.text):
        return []
    if not _OVER_PARTS.search(ctx.intent.asked_text) or not _ONE_PART.search(ctx.text):
        return []
    return [
        KindProblem(
            "one_part",
            "the question asks the sum over several parts of the business; the answer gives one "
            "part's figure",
        )
    ]


def other_date(ctx: Context) -> list[KindProblem]:
    """'What was X's total debt at December 31, 2022?' answered 'as of June 30, 2022': the
    answer's lead dates its figure at another day than every one the ask states (the lexicon's
    written dates, `find_periods`)."""
    if ctx.abstained:
        return []
    asked = _dates(ctx.intent.asked_text)
    if not asked:
        return []
    lead = next(iter(split_sentences(ctx.text)), "")
    stated = _dates(lead)
    if not stated or stated.keys() & asked.keys():
        return []
    return [
        KindProblem(
            "other_date",
            f"the question asks the figure at {asked[min(asked)]}; the answer gives it as of "
            f"{stated[min(stated)]}",
        )
    ]


def _dates(text: str) -> dict[str, str]:
    """The written dates of `text` ('December 31, 2022'): ISO day -> as written."""
    return {p.end_date: p.text for p in find_periods(text) if p.kind == "date" and p.end_date}


# the sentence a figure is read from, as finqa quotes it ('The filing states: "..."')
_STATED_SENTENCE = re.compile(r"\bthe filing states:\s*[\"\u201c](.+?)[\"\u201d]\s*\[", re.I | re.S)


def flow_sentence_for_balance(ctx: Context) -> list[KindProblem]:
    """'How much of X's lease obligations were current at October 29, 2022?' answered with the
    figure of a sentence that states a flow ('we paid $5 million of principal on our finance
    lease obligations'): a flow's figure for a balance asked."""
    if ctx.abstained or ctx.intent.ask.period_type != "instant":
        return []
    m = _STATED_SENTENCE.search(ctx.text)
    if m is None or asked_period_type(m.group(1)) != "duration":
        return []
    return [
        KindProblem(
            "period_type",
            "the question asks a balance at a date; the sentence the answer quotes states a flow "
            "over a period",
        )
    ]


def one_part_for_parts(ctx: Context) -> list[KindProblem]:
    """A whole the question spells out of its parts ('counting both A and B', 'the combined
    revenue of A and its B businesses (X and Y)') answered with a figure read off one row: one
    part for the whole."""
    if ctx.abstained or not _ONE_ROW.search(ctx.text) or _COMPUTED.search(ctx.text):
        return []
    listed = enumeration(ctx.question)
    if listed is None or len(listed.parts) < 2 or listed.sides:
        return []
    if listed.defined and not _one_part_read(ctx.text, listed):
        # a difference the question defines may be printed as a line of its own ('Interest
        # expense, net'), not as one of its parts; a sum of two lines only on a line whose
        # caption names both ('Cash, cash equivalents and marketable securities')
        return []
    parts = " and ".join(repr(p) for p in listed.parts)
    return [
        KindProblem(
            "one_part",
            f"the question counts {parts} in the figure it asks; the answer reads one row",
        )
    ]


_QUOTE = re.compile(r"\"([^\"]{10,})\"")


def movement_for_level(ctx: Context) -> list[KindProblem]:
    """'What amount did X record for Y in 2019?' answered with a figure its quoted sentence
    gives as the size of a movement ('Costs ... decreased by $336 million in 2019 compared to
    2018'): the change answers another question than the level asked."""
    if ctx.abstained or ctx.intent.asks_movement:
        return []
    quotes = _QUOTE.findall(ctx.text)
    first = ctx.text.find('"')
    lead = [
        q
        for q in _lex.extract_quantities(ctx.text[: first if first >= 0 else len(ctx.text)])
        if q.kind == "number" and q.unit == "USD"
    ]
    if not quotes or not lead:
        return []
    for quote in quotes:
        for q in _lex.extract_quantities(quote):
            if (
                q.kind == "number"
                and abs(q.value) == abs(lead[0].value)
                and size_of_movement(quote, q.start)
            ):
                return [
                    KindProblem(
                        "movement_for_level",
                        f"the answer gives {lead[0].text.strip()}, which its quoted sentence "
                        "states as the size of a movement, not the amount asked",
                        [lead[0].text.strip()],
                    )
                ]
    return []
