"""The form of the answer a question asks for, read from its words: an aggregation over years
(three-year average, CAGR, change, growth, a direction), a stated year range, the rounding
('round to two decimal places'), percent units, a 'positive' test, the share-of-revenue form
('X as a % of revenue') and the question's own definition clause ('X is defined as ...').

One place for this language: the lexicon's reading of what a question asks
(`lexicon.question_ask`, held by `QuestionIntent.ask`) calls these functions; agents read that."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Literal

from finqa.lexicon import movement
from finqa.lexicon._data import data_cache, read_words, read_yaml
from finqa.lexicon.movement import MovementClass
from finqa.lexicon.periods import MONTH_NUMBERS
from finqa.lexicon.prose import question_sentences
from finqa.lexicon.stems import stem as _stem

__all__ = [
    "FORM_WORDS",
    "coverage_split",
    "Aggregate",
    "asked_aggregates",
    "year_range",
    "asked_decimals",
    "asks_percent",
    "asks_positive",
    "asks_inflow",
    "names_outflow",
    "asks_share_of_revenue",
    "share_base",
    "ask_head",
    "defines_metric",
    "is_yes_no",
    "is_yes_no_of_fact",
]

Aggregate = Literal["avg3", "cagr", "change", "growth"]

# words that say which form of a line's figure is asked (its change, growth, rate, share, a
# margin over it), never which line: a caption of these alone ('Changes', '% Change') heads a
# column of movements
FORM_WORDS = frozenset(
    {
        "change",
        "changes",
        "changed",
        "growth",
        "grow",
        "grew",
        "increase",
        "increased",
        "decrease",
        "decreased",
        "decline",
        "declined",
        "difference",
        "percent",
        "percentage",
        "rate",
        "ratio",
        "margin",
        "share",
        "amount",
        "cagr",
    }
)

_RANGE = re.compile(
    r"\bFY\s?(\d{4})\s*(?:-|–|to|through)\s*FY\s?(\d{4})\b|\bfrom\s+FY\s?(\d{4})\s+to\s+FY\s?(\d{4})\b",
    re.I,
)
_DEFINITION = re.compile(
    r"\b(?:is|are) defined as\b|\bdefined as\b|\bdefines? [\w\s&()-]{0,60} as\b|\bcalculate [\w\s&()-]{0,60} using\b",
    re.I,
)
_PCT_OF_REV = re.compile(
    r"as an? (?:%|percent(?:age)?) of (?:total |net )*(?:revenues?|sales)|\W%\s*margin\b|\bmargin\b|"
    r"(?:%|percent(?:age)?) of (?:total |net )*(?:revenues?|sales)",
    re.I,
)
_AVG3 = re.compile(r"\b(?:3|three)[- ]year average\b|\baverage .{0,60}\b(?:3|three) years?\b", re.I)
_CAGR = re.compile(r"\bcagr\b|compound annual growth", re.I)
_CHANGE = re.compile(r"\bchange in\b|\bchanged?\b|\bdifference\b", re.I)
_GROWTH = re.compile(
    r"\bgrowth\b|\bgrow\b|\b(?:%|percent(?:age)?) (?:change|increase|decrease)\b", re.I
)
_PERCENT = re.compile(r"\bpercent|\b%|as a %|in units of percents?", re.I)
# a rate of movement asked in words: 'by how many percent did X rise', 'X fell by what
# percentage', 'how much did X decline, in percent' (a percentage of a whole or percentage points
# are not a rate of growth)
_PCT_RATE = re.compile(r"%|\bpercent(?:age)?\b(?!\s+(?:of|points?)\b)|\bper cent\b", re.I)
_MOVED = re.compile(
    r"\b(?:ris(?:e|en|ing)|rose|increas\w*|grew|declin\w*|decreas\w*|f[ae]ll\w*|dropp?\w*|"
    r"shr[iu]nk\w*|climb\w*|jump\w*|expand\w*|contract\w*|chang\w*)\b",
    re.I,
)
_DECIMALS_RX = re.compile(
    r"(?:round(?:ed)?(?: your)?(?: answer)?(?: to)?(?: the nearest)?|\b(?:to|with|at)) (\w+) "
    r"decimal",
    re.I,
)
_WHOLE = re.compile(r"round(?:ed)? to (?:the )?nearest (?:whole|integer)", re.I)
_DECIMALS = {"one": 1, "two": 2, "three": 3, "zero": 0, "no": 0, "1": 1, "2": 2, "3": 3, "0": 0}
_POSITIVE = re.compile(r"\bpositive\b", re.I)
# a yes/no question may open with a clause that sets its frame ('At the end of fiscal 2019,
# were ...', 'Judging by the current ratio, did ...'): the auxiliary verb then follows the comma
# (a clause opened by a question word asks that word's question: 'In which year, ...' is no
# yes/no)
_FRAME_WH = r"\b(?:what|which|who|whom|whose|why|when|where|how)\b"
# ... or with a period phrase its auxiliary follows without a comma ('in the prior-year quarter
# ended April 30, 2022 was the tax line a provision or a benefit?'): the phrase holds no
# question word, a comma only before a date's year, and the auxiliary opens a clause on a
# subject ('was the', 'did its')
PERIOD_FRAME = (
    r"(?:as\s+of|in|for|at|during)\b(?:(?!" + _FRAME_WH + r")[^,?;]|,\s*(?:19|20)\d\d){1,80}?"
    r",?\s+(?=(?:is|are|was|were|does|do|did|has|have|had)\s+"
    r"(?:the|its|it|this|that|they|there|their|these|those)\b)"
)
_FRAME = r"(?:(?![^,?]*" + _FRAME_WH + r")[^,?]{1,80},\s*|" + PERIOD_FRAME + r")?"
_OF_FACT = re.compile(rf"\s*{_FRAME}(?:is|are|has|have|did|does|was|were)\b", re.I)
_YES_NO = re.compile(
    rf"\s*{_FRAME}(?:does|do|did|is|are|was|were|has|have|had|will|should|would|"
    r"(?:can|could)(?!\s+you\b))\b",  # 'Could you compute ...' is a request, not a yes/no
    re.I,
)


# a sentence that asks: it opens with a question word or an auxiliary
_ASKING = re.compile(
    r"^\W*(?:what|how|which|who|whom|why|when|where|is|are|was|were|does|do|did|has|have|had|"
    r"can|could|will|would|should)\b",
    re.I,
)
_PREMISE_WORDS = 4  # a premise states something: shorter pieces are split abbreviations


def after_premise(question: str) -> str:
    """The question from its first asking sentence on, when it opens with statements before it
    ('Walmart International's net sales fell in fiscal 2017. Did its segment operating income
    also fall?': what is asked is operating income; the premise's line is context); the whole
    question otherwise (one sentence, or no statement before the ask)."""
    sentences = question_sentences(question)
    first = next((i for i, s in enumerate(sentences) if s.rstrip().endswith("?")), None)
    if not first:
        return question
    before = sentences[:first]
    if any(
        not s.rstrip().endswith(".") or _ASKING.match(s) or len(s.split()) < _PREMISE_WORDS
        for s in before
    ):
        return question
    return " ".join(sentences[first:])


def ask_head(question: str) -> str:
    """The ask without a premise stated before it (`after_premise`) and without the question's
    own definition clause ('X is defined as: ...')."""
    return _DEFINITION.split(after_premise(question), maxsplit=1)[0]


def defines_metric(question: str) -> bool:
    """The question gives its own definition of what it asks ('ROA is defined as ...')."""
    return bool(_DEFINITION.search(question))


def asked_aggregates(head: str, whole: str | None = None) -> tuple[Aggregate, ...]:
    """The aggregations over years the ask names, in order of precedence: a three-year average
    (read over the whole question), a CAGR, a change, a growth; () for a single year's figure.
    The caller takes the first one the years named allow."""
    found: list[Aggregate] = []
    if _AVG3.search(whole if whole is not None else head):
        found.append("avg3")
    for form, rx in (("cagr", _CAGR), ("change", _CHANGE), ("growth", _GROWTH)):
        if rx.search(head):
            found.append(form)  # type: ignore[arg-type]
    if "growth" not in found and _PCT_RATE.search(head) and _MOVED.search(head):
        found.append("growth")
    return tuple(found)


def year_range(question: str) -> tuple[int, int] | None:
    """'FY2019 - FY2021', 'from FY2019 to FY2021' -> (2019, 2021); None without a range."""
    m = _RANGE.search(question)
    if m is None:
        return None
    years = [int(g) for g in m.groups() if g]
    return (min(years), max(years))


def asked_decimals(question: str) -> int | None:
    """The decimals the question asks to round to ('round to two decimal places' -> 2, 'the
    nearest whole number' -> 0), None when it does not say."""
    m = _DECIMALS_RX.search(question)
    if m is not None:
        found = _DECIMALS.get(m.group(1).lower())
        if found is not None:
            return found
    return 0 if _WHOLE.search(question) else None


# the form a change's ask states: a rate ('by how many percent', 'growth rate', '% change',
# 'year-over-year growth') or an amount ('by how much', 'in USD millions', 'the amount')
_RATE_FORM = re.compile(
    r"%|\bpercent(?:age)?s?\b(?!\s+points?\b)|\bper cent\b|\bgrowth\b|\brate\b|\bcagr\b",
    re.I,
)
_AMOUNT_FORM = re.compile(
    r"\$|\bdollars?\b|\busd\b|\bin (?:millions|billions|thousands)\b|\bamount\b|"
    r"\bby how much\b",
    re.I,
)
# the headline of a change whose ask states no form ('what was the year-over-year change in
# X', 'how much did X change'): the answer states both, this one first. Chosen on
# company-grouped training folds over the dev questions and sets A/B/C (`python -m
# finqa.benchmarks.change_form_fit`: the gold answers' own form)
BARE_CHANGE_HEADLINE: Literal["amount", "percent"] = "percent"


def change_form(head: str) -> Literal["amount", "percent"] | None:
    """The form a change's ask states: 'percent' (a rate, growth), 'amount' (dollars), None
    when it states neither or both (a bare 'change': the answer gives both)."""
    rate, amount = bool(_RATE_FORM.search(head)), bool(_AMOUNT_FORM.search(head))
    if rate == amount:
        return None
    return "percent" if rate else "amount"


def asks_both_forms(head: str) -> bool:
    """The ask states a change in both forms ('in dollars and in percent')."""
    return bool(_RATE_FORM.search(head)) and bool(_AMOUNT_FORM.search(head))


def asks_percent(question: str) -> bool:
    """The answer is asked in percent ('as a %', 'in units of percents', 'percentage')."""
    return bool(_PERCENT.search(question))


def asks_positive(question: str) -> bool:
    """The question tests a figure's sign ('positive working capital?'), whether a cash flow
    of the statement was an inflow ('Did X's operating activities generate cash?'), or whether
    a result was a profit ('Was the segment profitable?': `asks_profitable`)."""
    return bool(_POSITIVE.search(question)) or asks_inflow(question) or asks_profitable(question)


# 'profitable' as a state of the period, not a comparison ('more profitable than', 'the most
# profitable segment' pick or rank: no sign)
_PROFITABLE = re.compile(
    r"(?<!\bmore\s)(?<!\bless\s)(?<!\bmost\s)(?<!\bleast\s)\bprofitable\b(?!\s+than\b)", re.I
)


def asks_profitable(question: str) -> bool:
    """A yes/no question asking whether a result was a profit ('Was the International segment
    profitable in 2016?', '... profitable at the gross profit level?'): the sign of that result
    (a profit is a positive result, a loss a negative one), never a comparison ('more
    profitable than')."""
    asked = after_premise(question)
    return is_yes_no(asked) and bool(_PROFITABLE.search(asked))


def asks_inflow(question: str) -> bool:
    """The question's verb is an inflow verb of the cash-flow statement's captions with cash as
    its object ('generate cash', 'provided net cash': `data/cash_flow_verbs.yaml`) and it names
    a cash-flow item of the catalogue ('operating activities'): it asks whether that flow was an
    inflow. 'Cash generated from operations' used as the name of a figure asks no sign."""
    from finqa.lexicon.metrics import METRICS, find_metrics  # the catalogue names the flows

    if not _inflow_verb().search(question):
        return False
    return any(
        (metric := METRICS.get(m.canonical)) is not None
        and metric.statement == "cash_flow"
        and any("activities" in s for s in metric.synonyms)  # an activity's net flow
        for m in find_metrics(question)
    )


def coverage_split(question: str) -> tuple[str, str] | None:
    """(what covers, what is covered): the question's text before and after its coverage verb
    ('Did X's operating cash flow | cover | capital expenditures and dividends?',
    `data/cash_flow_verbs.yaml` cover), or None when it has none."""
    words = read_yaml("cash_flow_verbs.yaml")
    m = _any_of(tuple(words.get("cover") or ())).search(question)
    if m is None:
        return None
    return question[: m.start()], question[m.end() :]


# a yes/no asked in the imperative ('Say whether ...', 'State whether ...', 'Indicate whether')
WHETHER_REQUEST = r"(?:please\s+)?(?:say|state|indicate|tell(?:\s+us)?|specify|confirm)\s+whether"


def option_of(options: tuple[str, str], own: Iterable[str], other: Iterable[str]) -> str | None:
    """Of an either/or's two options, the one among `own` words when the other is among
    `other` ('help' of 'help or hurt' for an income line); None when they are no such pair."""
    mine, theirs = {str(w).lower() for w in own}, {str(w).lower() for w in other}
    a, b = (o.lower() for o in options)
    if a in mine and b in theirs:
        return options[0]
    if b in mine and a in theirs:
        return options[1]
    return None


def flow_option(options: tuple[str, str], inflow: bool) -> str | None:
    """Of an either/or's two options, one an inflow verb of the cash-flow captions ('generated')
    and one a verb of cash going out ('consumed': `data/cash_flow_verbs.yaml` spent), the one a
    flow of that sign has; None when the options are no such pair."""
    words = read_yaml("cash_flow_verbs.yaml")
    ins, outs = words.get("inflow") or (), words.get("spent") or ()
    return option_of(options, ins, outs) if inflow else option_of(options, outs, ins)


def names_outflow(caption: str) -> bool:
    """The text names a cash outflow by the statement's captions: an outflow verb ('Net cash
    used in investing activities') and no inflow verb ('provided by (used in)' leaves the sign
    to the printing)."""
    words = read_yaml("cash_flow_verbs.yaml")
    return _cash_used(tuple(words["outflow"])).search(caption) is not None and not (
        _any_of(tuple(words["inflow"])).search(caption)
    )


@data_cache()
def _cash_used(words: tuple[str, ...]) -> re.Pattern[str]:
    """An outflow verb in a cash caption's shape ('cash used in', 'net cash (used in)'), not
    any 'used by' of running text ('the measure used by management')."""
    alt = "|".join(
        re.escape(w).replace(r"\ ", r"\s+") for w in sorted(words, key=len, reverse=True)
    )
    return re.compile(rf"\bcash\b(?:\W+\w+){{0,2}}?\W+\(?(?:{alt})\b", re.I)


@data_cache()
def _any_of(words: tuple[str, ...]) -> re.Pattern[str]:
    alt = "|".join(
        re.escape(w).replace(r"\ ", r"\s+") for w in sorted(words, key=len, reverse=True)
    )
    return re.compile(rf"\b(?:{alt})\b", re.I)


@data_cache()
def _inflow_verb() -> re.Pattern[str]:
    words = read_yaml("cash_flow_verbs.yaml")
    alt = "|".join(re.escape(v) for v in sorted(words["inflow"], key=len, reverse=True))
    nouns = "|".join(re.escape(n) for n in words["cash_nouns"])
    # cash as the object itself, not a noun it qualifies ('provide cash dividends')
    return re.compile(
        rf"\b(?:{alt})\s+(?:any\s+|positive\s+|net\s+)?cash\b(?!\s+(?:{nouns})\w*)", re.I
    )


_OF_REVENUE = re.compile(r"(?:%|percent(?:age)?) of (?:total |net )*(?:revenues?|sales)", re.I)


# the words an answer states a share of a whole with ('34% of total operating revenues',
# 'accounted for a third', 'its share was')
_SHARE_STATED = re.compile(
    r"\b(?:share|portion|proportion|fraction)\b|(?:%|\bpercent(?:age)?)\s+of\b|"
    r"\baccount(?:s|ed|ing)?\s+for\b|\bma(?:de|kes?|king)\s+up\b|\brepresent(?:s|ed|ing)?\b",
    re.I,
)


# a part asking when something happened: 'on what date', 'what day' ask a day; 'when did',
# 'in what year' a period
_DATE_ASKED = re.compile(r"\bwhat\s+(?:date|day)\b", re.I)
_WHEN_ASKED = re.compile(
    r"^\W*(?:and\s+|if\s+so,?\s+)?when\s+(?:did|was|were|will|does|is|has|had)\b|"
    r"\b(?:in|during)\s+what\s+(?:year|quarter|month)\b",
    re.I,
)
_MONTHS = "(?:" + "|".join(sorted(MONTH_NUMBERS, key=len, reverse=True)) + r")\.?"
_DAY_STATED = re.compile(
    rf"\b{_MONTHS}\s+\d{{1,2}}(?:st|nd|rd|th)?,?\s+(?:19|20)\d{{2}}\b|"
    rf"\b\d{{1,2}}\s+{_MONTHS}\s+(?:19|20)\d{{2}}\b|\b\d{{1,2}}/\d{{1,2}}/(?:19|20)?\d{{2}}\b",
    re.I,
)
_PERIOD_STATED = re.compile(rf"\b(?:19|20)\d{{2}}\b|\b{_MONTHS}\b", re.I)


def date_asked(part: str) -> Literal["day", "period"] | None:
    """What a part asking when something happened wants: a day ('on what date?'), a period
    ('when did it emerge?', 'in what year?'); None for another part."""
    if _DATE_ASKED.search(part):
        return "day"
    if _WHEN_ASKED.search(part):
        return "period"
    return None


def states_date(text: str, asked: Literal["day", "period"]) -> bool:
    """The text states a date of the kind asked: a day with its month and year for a day, a
    year or a month for a period ('the Effective Date' names none)."""
    if _DAY_STATED.search(text):
        return True
    return asked == "period" and bool(_PERIOD_STATED.search(text))


def states_share(text: str) -> bool:
    """The text states a figure as a share of a whole: a growth or a level alone does not."""
    return bool(_SHARE_STATED.search(text))


def states_share_of_revenue(text: str) -> bool:
    """The text speaks of an amount as a share of revenue ('As a percentage of net sales, SG&A
    expenses decreased'): a movement it states is the share's, not the amount's."""
    return bool(_OF_REVENUE.search(text))


def asks_share_of_revenue(head: str) -> bool:
    """An amount is asked as a share of revenue ('D&A as a % of revenue', 'capex % margin').
    The word 'margin' inside the name of an amount ('gross margin dollars', the gross profit)
    asks no share: amounts the catalogue names are blanked out first."""
    from finqa.lexicon.metrics import METRICS, find_metrics  # the catalogue names the amounts

    plain = head
    for m in find_metrics(head):
        metric = METRICS.get(m.canonical)
        if metric is not None and metric.unit == "USD" and "margin" in m.matched.lower():
            plain = plain[: m.start] + " " * (m.end - m.start) + plain[m.end :]
    return bool(_PCT_OF_REV.search(plain))


_SHARE_BASE = re.compile(
    r"\bas an? (?:%|percent(?:age)?) of (?:total |net )*(?:revenues?|sales)\b|"
    r"\b(?:%|percent(?:age)?) of (?:total |net )*(?:revenues?|sales)\b",
    re.I,
)


def share_base(text: str) -> list[tuple[int, int]]:
    """The spans naming the whole a share is taken of ('as a percent of net sales'): what the
    question measures by, not what it asks about."""
    return [m.span() for m in _SHARE_BASE.finditer(text)]


def is_yes_no(question: str) -> bool:
    """An auxiliary verb opens the question ('Does ...', 'Is ...', 'Would you describe ...'),
    or follows the clause that opens it ('At the end of fiscal 2019, were ...')."""
    return bool(_YES_NO.match(question))


_OR = re.compile(r"\bor\b", re.I)
_WORDS = re.compile(r"[A-Za-z]+")
# '@up' / '@down' in opposites.txt: the movement words of each side (lexicon.movement)
_MOVEMENT_SIDES: dict[str, tuple[MovementClass, ...]] = {
    "@up": ("up", "favourable"),
    "@down": ("down", "unfavourable"),
}


def _group(side: str) -> frozenset[str]:
    """The stems of one side of an opposites line, '@up' / '@down' read as the movement words."""
    out: set[str] = set()
    for word in side.split():
        if word in _MOVEMENT_SIDES:
            # one-word ones: a phrase's words ('went up') are matched one by one, and 'up' /
            # 'down' stand on the line themselves
            out.update(_stem(w) for w in movement.words(_MOVEMENT_SIDES[word]) if " " not in w)
        else:
            out.add(_stem(word))
    return frozenset(out)


@data_cache()
def _opposites() -> tuple[tuple[frozenset[str], frozenset[str]], ...]:
    """The stem groups of each line of `data/opposites.txt`: (A stems, B stems)."""
    out = []
    for line in read_words("opposites.txt"):
        a, b = line.split("|")
        out.append((_group(a), _group(b)))
    return tuple(out)


def alternatives(question: str) -> tuple[frozenset[str], ...] | None:
    """The two opposite options a yes/no question offers, as the stem groups naming each ('a
    deferred tax expense or a deferred tax benefit': expense | benefit; 'add to or reduce'):
    the question asks which one, so 'Yes' or 'No' alone does not answer it. The option after
    'or' is the word in the same place of a parallel phrase ('a deferred income tax benefit',
    not its 'income'). None when the question is no yes/no question or its 'or' joins no
    opposites ('pay dividends or buy back shares' is a yes/no of either)."""
    if not is_yes_no(question):
        return None
    best: tuple[int, int, tuple[frozenset[str], ...]] | None = None
    for m in _OR.finditer(question):
        before = [w.lower() for w in _WORDS.findall(question[: m.start()])[-6:]]
        after = [w.lower() for w in _WORDS.findall(question[m.end() :])[:6]]
        for i, a in enumerate(before):
            if len(before) - i > 3:
                continue  # the first option ends within three words of 'or'
            for j, b in enumerate(after):
                for ga, gb in _opposites():
                    sa, sb = _stem(a), _stem(b)
                    if (sa in ga and sb in gb) or (sa in gb and sb in ga):
                        # parallel phrases share their modifiers ('a deferred income tax')
                        shared = len(set(before[:i]) & set(after[:j]))
                        key = (shared, -j)
                        if best is None or key > best[:2]:
                            best = (shared, -j, (ga, gb))
    return best[2] if best else None


def names_alternative(text: str, options: Iterable[Iterable[str]]) -> bool:
    """The text names one of the options by a word of its stem group ('decreased', 'fell')."""
    stems = {_stem(w) for w in _WORDS.findall(text)}
    return any(stems & set(group) for group in options)


def is_yes_no_of_fact(question: str) -> bool:
    """A yes/no question about what is or was ('Did ...', 'Has ...', 'Is ...'), not about what
    will, can or should be: figures already filed can answer it."""
    return bool(_OF_FACT.match(question))
