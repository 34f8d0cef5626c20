"""What a question asks for, read from its words: the direction of a movement ("increase",
"decline"), an extreme ("highest", "lowest"), a year or period to pick, a description rather
than a figure, a direct choice or figure, a computation, a judgement named by a general
financial concept (an evaluation such as liquidity health, high growth, consistency; the
catalogue's judgements are named by their own phrases, lexicon/data/judgements.yaml) or the
"if it is not relevant, say so" clause, whether a line item is reported at all and the
"if it is not outlined, state 0" clause.

The answer's side of the same language is here too: whether an answer states a verdict, gives
a cause, declares the metric not relevant, or gives a nil figure in words.

One place for this language: the offline reasoner's families read a question through these
functions instead of compiling their own patterns, and the judge reads an answer through them.
The typed reading of a whole question is `finqa.lexicon.question_intent.read_intent`."""

from __future__ import annotations

import re
from typing import Literal

from finqa.lexicon import movement
from finqa.lexicon._data import data_cache

__all__ = [
    "asked_direction",
    "asks_movement",
    "asked_extreme",
    "asks_which_period",
    "asks_choice",
    "choice_options",
    "asks_change_amount",
    "asks_adjusted",
    "is_descriptive",
    "asks_direct",
    "asks_comparison",
    "asks_compute",
    "asks_figure_named_first",
    "asks_rate_of_change",
    "asks_high_growth",
    "asks_consistency",
    "allows_not_relevant",
    "asks_evaluation",
    "asks_about_parts",
    "asks_share_over",
    "asks_which",
    "ratio_follows",
    "asks_existence",
    "zero_if_absent",
    "share_of_revenue_numerator",
    "asks_share",
    "states_verdict",
    "states_cause",
    "declares_not_relevant",
    "nil_words",
    "leading_yes_no",
]

_EXTREME = re.compile(
    r"\b(?:(?P<hi>highest|largest|biggest|greatest|peak|most|top)|"
    r"(?P<lo>lowest|smallest|least|weakest))\b",
    re.I,
)
_WHICH_PERIOD = re.compile(r"\b(?:which|what) (?:fiscal )?(?:year|period)\b|^\s*when\b", re.I)
# causes, kinds or names rather than a line item's figure ("What were 3M's total liabilities?"
# is a figure; "What were the main drivers of ...?" is not)
_DESCRIPTIVE = re.compile(
    r"^\s*(?:what (?:drove|drives|caused)|"
    r"what (?:are|were) (?:the |its |their )?(?:main |key |primary |major |biggest )?"
    r"(?:drivers?|reasons?|factors?|risks?|causes?|segments?|products?|items?|areas?|impacts?)\b|"
    # 'what are the major / main / key / notable X': a list of names is asked, not a figure
    r"what (?:are|were) (?:the |its |their )?(?:main|key|primary|major|notable|principal) |"
    r"why|which|who|how (?:does|did|do)|describe|explain|"
    r"what (?:industry|production|products?|geograph))",
    re.I,
)
# a verdict, a choice or a figure: a quoted passage is not an answer to these
_DIRECT = re.compile(
    r"^\s*(?:which|who|whom|how (?:much|many)|by how much|"
    r"what (?:percent|percentage|share|portion|proportion|amount)|"
    r"what (?:is|was|were|are) the (?:total|amount|value|number|ratio|percentage)|"
    r"(?:among|in|for|of|if)\b[^?]*?\b(?:which|who)\b)",
    re.I,
)
# two periods' figures set side by side ('How does X in FY2022 compare to FY2021?')
_COMPARISON = re.compile(r"\bcompar(?:e|es|ed|ing|ison)\b|\bversus\b|\bvs\.?(?=\s)", re.I)
# a figure asked: 'what is', 'how much', 'calculate', a rate of movement ('how fast did X
# grow'), the figure asked by name ('Give the current ratio')
_COMPUTE = re.compile(
    r"\b(?:what (?:is|was|were|are)|how much|how many|calculate|compute|how fast|"
    r"give (?:the|its|their))\b",
    re.I,
)
# a figure of a line item named first: 'What gross margin did X earn', 'What deferred revenue
# did X carry', 'How large was X's inventory', 'By what percentage did X grow', also after the
# clause that opens the question ('Using net income and average assets, what return on assets
# did X earn')
_NAMED_FIRST = re.compile(
    r"^\s*(?:[^?]*,\s*)?what\s+(?P<item>(?:[\w&'\u2019-]+\s+){1,5}?)(?:did|does|do|has|have|had)\b|"
    r"^\s*how (?:large|big|high|low)\b|\bby what (?:percent(?:age)?|amount)\b",
    re.I,
)
_HIGH_GROWTH = re.compile(
    r"\b(?:high|fast|rapid|hyper)[- ]?grow(?:th|ing)\b|\bgrowth (?:company|stock|firm)\b", re.I
)
_CONSISTENT = re.compile(
    r"\b(?:consistent\w*|stable|stability|fluctuat\w*|volatil\w*|steady)\b", re.I
)
_NOT_RELEVANT = re.compile(
    r"\bnot (?:a |an )?(?:\w+ )?(?:relevant|useful|meaningful|applicable)\b", re.I
)
# 'Did / Has / Does X pay / have / incur / record / report <item> ...?': whether the filing
# reports the line item at all (yes/no), not its movement
_EXISTENCE = re.compile(
    r"^\s*(?:did|does|do|has|have|had)\b[^?]*?\b(?:pa(?:y|ys|id|ying)|ha(?:ve|s|d)|incur\w*|"
    r"record\w*|report\w*|recogni[sz]\w*|declar\w*|disclos\w*|outlin\w*|book\w*)\b",
    re.I,
)
# '... if X is not (explicitly) outlined / reported, state 0': an absent line is a zero
_ZERO_IF_ABSENT = re.compile(
    r"\bif\b[^.?]*\b(?:not|no|none)\b[^.?]*\b(?:state|answer|say|write|put|return|report)\s+"
    r"(?:0|zero|\$0|nil)\b",
    re.I,
)
# '<numerator> as a percent of (net) sales / revenue'
_SHARE_OF_REVENUE = re.compile(
    r"(?P<num>(?:[\w&'.-]+\s+){1,5}?)(?:as an? )?(?:%|percent(?:age)?) of "
    r"(?:total |net |consolidated )*(?:revenues?|sales)\b",
    re.I,
)
# the parts a filing breaks a line into: segments, regions, product lines, ...
_PARTS = re.compile(
    r"\b(?:segments?|business(?:es| units?| lines?)?|divisions?|regions?|geograph\w*|"
    r"categor\w*|product\s*(?:lines?|categor\w*|groups?)?|markets?)\b",
    re.I,
)
# 'represent / account for / make up more than N%'
_SHARE_OVER = re.compile(
    r"\b(?:represent\w*|account\w* for|make up|comprise\w*|more than|over|exceed\w*|at least)\b"
    r"[^?]*%",
    re.I,
)
_WHICH = re.compile(r"\b(?:which|what)\b", re.I)
# 'what percentage / share / portion of <a whole>', '<a part> as a percent of <a whole>'
_SHARE = re.compile(
    r"\b(?:what|which)\s+(?:%|percent(?:age)?|share|portion|proportion|fraction)\s+of\b|"
    r"\bas an?\s+(?:%|percent(?:age)?|share|portion|proportion)\s+of\b|"
    r"\bhow\s+(?:large|big|much|great)\s+(?:of\s+)?an?\s+(?:share|portion|proportion|fraction|part)\s+of\b",
    re.I,
)
# right after an amount: '<amount> to <another line>' / '<amount>/<line>' names a ratio
# ('debt to total capital'): the connector, then within three words a financial line's noun
# (a period 'to FY2022', a recipient 'to shareholders' or a verb 'to pay' is no ratio)
_RATIO_FOLLOWS = re.compile(
    r"^\s*(?:-?\s*to\s*-?|/|divided\s+by)\s*(?:[a-z&'-]+\s+){0,2}?"
    r"(?:capital\w*|equity|assets?|liabilit\w*|revenues?|sales|income|earnings|ebitda|ebit|"
    r"debt|cash|expenses?|costs?|profits?|book\s+value)\b",
    re.I,
)
# an evaluation of a figure: the catalogue's judgement of that metric answers it
_EVALUATION = re.compile(
    r"\b(?:health\w*|liquid\w*|adequate\w*|sufficient\w*|strong|solid|sound|weak)\b", re.I
)


def asked_direction(question: str, item: str | None = None) -> tuple[bool, bool]:
    """(asks about a rise, asks about a fall) of the catalogue item `item`: 'increase', 'grow',
    'go up', 'rose' / 'decline', 'decrease', 'fell', 'go down', 'paid down'; 'improve' /
    'weaken' by the item's favourable direction, none without an item that has one
    (`lexicon.movement.asked_direction`)."""
    return movement.asked_direction(question, item)


# 'Were there any events ... that increased net income?': whether such things exist is asked; the
# movement word is in the clause that says which things (not 'Was there any drop in cash?')
_THERE_ANY = re.compile(
    r"^\W*(?:is|are|was|were|has|have|had)\s+there\s+(?:been\s+)?(?:any\s+)?"
    r"(?P<things>(?:[\w'’&/-]+\s+){1,12}?)(?:that|which|who)\b",
    re.I,
)


def asks_movement(question: str) -> bool:
    """The question asks which way or how a figure moved, by a literal or an evaluative word
    ('increase', 'fell', 'improve', 'weaken'), whether or not the way is known; not the
    movement a relative clause says of the things whose existence is asked (`_THERE_ANY`)."""
    text = movement.without_idioms(question)
    moved = movement.pattern(("up", "down", "favourable", "unfavourable"))
    there = _THERE_ANY.match(text)
    if there is not None and not moved.search(there.group("things")):
        return False
    return bool(moved.search(text))


def asked_extreme(question: str) -> Literal["highest", "lowest"] | None:
    """'highest' ('largest', 'most', 'top' ...), 'lowest' ('smallest', 'least' ...) or None."""
    m = _EXTREME.search(question)
    if m is None:
        return None
    return "highest" if m.group("hi") else "lowest"


def asks_which_period(question: str) -> bool:
    """'In which year / what period ...', 'When ...'."""
    return bool(_WHICH_PERIOD.search(question))


# a pick among named things: 'Which segment ...', 'In which region ...', 'Among A, B and C, which
# ...', 'which one', 'which of ...' (not 'which is defined as', a relative clause of a definition)
_CHOICE = re.compile(
    r"(?:^|[,:;]\s*|\b(?:in|among|of|for|from|at|by|on|to|with|during)\s+)which\b"
    r"(?!\s+(?:is|was|are|were)\s+(?:defined|calculated|computed|measured)\b)",
    re.I,
)
# the options a question lists itself: 'among operations, investing and financing activities',
# 'which of A, B or C', 'between A and B' (each option a short noun phrase)
_OPTION_LIST = re.compile(
    r"\b(?:among|between|which of)\s+(?:the\s+)?(?P<list>[^?;]+?)\s*(?=,\s*which\b|\?|$|,\s*(?:in|for|during)\b)",
    re.I,
)
_OPTION_SPLIT = re.compile(r"\s*,\s*(?:and|or)?\s*|\s+(?:and|or)\s+", re.I)
_OPTION_WORDS = 4  # an option is a short noun phrase ('financing activities', 'Data Center')


def asks_choice(question: str) -> bool:
    """A pick among named things is asked ('Which segment ...', 'In which region ...', 'Among
    A, B and C, which ...'): a figure alone does not answer it."""
    return bool(_CHOICE.search(question))


def choice_options(question: str) -> tuple[str, ...]:
    """The options a choice question lists itself ('Among operations, investing, and financing
    activities, which ...' -> operations, investing, financing activities); empty when it lists
    none (the options are then the things the evidence names)."""
    m = _OPTION_LIST.search(question)
    if m is None:
        return ()
    parts = [p.strip(" .") for p in _OPTION_SPLIT.split(m.group("list")) if p.strip(" .")]
    if len(parts) < 2 or any(len(p.split()) > _OPTION_WORDS for p in parts):
        return ()
    return tuple(parts)


# 'by how much did X change / increase / decrease', 'by how many dollars did X rise', 'how much
# did X grow', 'what was the change / increase / decrease in X': the amount of the movement (or
# its points, for a percentage), not a growth rate; 'percentage change', 'growth rate', 'CAGR'
# ask for the rate
def _amount_nouns() -> str:
    """The nouns of a movement's amount ('the change / increase / decline in X'), not of its
    rate ('growth')."""
    nouns = movement.words(("up", "down", "change"), ("nouns",))
    return "|".join(w for w in nouns if w not in movement.rate_nouns())


@data_cache()
def _change_amount() -> re.Pattern[str]:
    return re.compile(
        r"\b(?:by\s+)?how (?:much|many (?:(?:u\.?s\.?\s+)?dollars|usd|millions|billions|thousands))"
        r"(?:\s+of\s+dollars)? (?:did|has|have|had|does|do|was|were|is|are|will)\b[^?]*?\b"
        rf"(?:{movement.alternation(forms=('verbs',))})\b"
        r"|\bwhat (?:is|was|were|are) the (?:[\w-]+ )?"
        rf"(?:{_amount_nouns()}) in\b",
        re.I,
    )


_RATE_ASKED = re.compile(
    r"%|\bpercent(?:age)?\b|\bper cent\b|\bgrowth rate\b|\brate of\b|\bcagr\b|"
    r"\bproportion\w*|\by(?:ear)?[- ]?o(?:ver)?[- ]?y(?:ear)?\b %",
    re.I,
)


def asks_change_amount(question: str) -> bool:
    """'By how much did X change / increase / decrease?', 'What was the change in X?': the amount
    of the movement (points for a percentage), not a growth rate, which '% change', 'percentage',
    'growth rate' or 'CAGR' would ask for."""
    return bool(_change_amount().search(question)) and not _RATE_ASKED.search(question)


# a measure adjusted from the reported line: 'if we exclude the impact of FX', 'organic growth',
# 'in constant currency', 'Adjusted EBIT', 'non-GAAP'; 'setting aside the currency effect'
_ADJUSTED = re.compile(
    r"\b(?:exclud(?:e|es|ing)|(?:setting|set|leaving|leave|putting|put)\s+aside|removing|"
    r"strip(?:ping)?\s+out)\b[^?]*?\b(?:impacts?|effects?)\b|\borganic(?:ally)?\b|"
    r"\bconstant[- ]currency\b|\bnon-gaap\b|\badjusted\b",
    re.I,
)


def asks_adjusted(question: str) -> bool:
    """The question asks a measure adjusted from the reported line ('the real change in sales
    if we exclude the impact of FX', 'organic growth', 'Adjusted EBIT'): the reported figure
    answers another question."""
    return bool(_ADJUSTED.search(question))


def is_descriptive(question: str) -> bool:
    """Causes, kinds or names are asked ('What drove ...', 'Why ...', 'What are the main ...');
    'How did X change in percentage terms' asks a rate, not a description."""
    return bool(_DESCRIPTIVE.search(question)) and not asks_rate_of_change(question)


# 'How did X change in percentage terms', 'How has X grown, in percent': the rate is asked
@data_cache()
def _how_moved() -> re.Pattern[str]:
    return re.compile(
        r"^\s*how (?:did|has|have|had|does|do)\b[^?]*?\b"
        rf"(?:{movement.alternation(('up', 'down', 'change'), ('verbs',), acts=False)})\b",
        re.I,
    )


def asks_rate_of_change(question: str) -> bool:
    """'How did X change in percentage terms?': a growth rate is asked (a percentage with the
    verb of movement), not how or why X moved."""
    return bool(_how_moved().search(question)) and bool(_RATE_ASKED.search(question))


def asks_direct(question: str) -> bool:
    """A choice or a figure is asked ('Which ...', 'How much ...', 'What is the amount ...')."""
    return bool(_DIRECT.search(question))


_SEQUENTIAL = re.compile(
    r"\bsequential(?:ly)?\b|\bquarter[- ]over[- ]quarter\b|\bq-?o-?q\b|"
    r"\b(?:from|over|than|versus|vs\.?) (?:the )?(?:prior|previous|preceding) quarter\b",
    re.I,
)


def asks_sequential(question: str) -> bool:
    """A quarter set against the quarter before it ('sequential growth', 'quarter over
    quarter'), not against the same quarter a year earlier."""
    return bool(_SEQUENTIAL.search(question))


def asks_comparison(question: str) -> bool:
    """Figures are set side by side ('How does X compare to ...', 'FY2022 vs FY2021')."""
    return bool(_COMPARISON.search(question))


def asks_compute(question: str) -> bool:
    """A figure is asked for ('what is', 'how much', 'calculate', 'what margin did X earn',
    'how fast did X grow', 'Give the current ratio')."""
    return (
        bool(_COMPUTE.search(question))
        or asks_figure_named_first(question)
        or asks_rate_of_change(question)
    )


def asks_figure_named_first(question: str) -> bool:
    """A figure of a line item is asked with the item named first ('What gross margin did X
    earn', 'How large was X's inventory', 'By what percentage did X grow'); 'What risks did X
    name' names no catalogue item and asks no figure."""
    m = _NAMED_FIRST.search(question)
    if m is None:
        return False
    item = m.group("item")
    if item is None:
        return True
    from finqa.lexicon.metrics import find_metrics  # the catalogue reads the item's words

    return bool(find_metrics(item))


def asks_high_growth(question: str) -> bool:
    """'high-growth company', 'fast growing', 'growth stock'."""
    return bool(_HIGH_GROWTH.search(question))


def asks_consistency(question: str) -> bool:
    """'consistent', 'stable', 'fluctuating', 'volatile', 'steady'."""
    return bool(_CONSISTENT.search(question))


def allows_not_relevant(question: str) -> bool:
    """'... if X is not a relevant / useful metric, say so'."""
    return bool(_NOT_RELEVANT.search(question))


def asks_evaluation(question: str) -> bool:
    """'healthy', 'liquid', 'adequate', 'sufficient', 'strong', 'solid', 'sound', 'weak': the
    question asks for a judgement of a figure, not the figure alone."""
    return bool(_EVALUATION.search(question))


def asks_existence(question: str) -> bool:
    """'Did X pay dividends?', 'Has X recorded restructuring charges?', 'Does X have goodwill?':
    whether a line item is reported, asked with a possession or incurrence verb."""
    return bool(_EXISTENCE.search(question))


def zero_if_absent(question: str) -> bool:
    """'If restructuring costs are not explicitly outlined then state 0': an absent line is 0."""
    return bool(_ZERO_IF_ABSENT.search(question))


def share_of_revenue_numerator(question: str) -> str | None:
    """The line item asked as a percent of revenue ('wages expense' in 'wages expense as a
    percent of net sales'), without the company's possessive; None when none is asked."""
    m = _SHARE_OF_REVENUE.search(question)
    if m is None:
        return None
    words = m.group("num").split()
    owner = [i for i, w in enumerate(words) if w.endswith(("'s", "’s"))]
    if owner:
        words = words[owner[-1] + 1 :]  # after the company's possessive
    while words and words[0].lower() in _LEAD_WORDS:
        words = words[1:]
    return " ".join(words) or None


_LEAD_WORDS = frozenset(
    [
        "did",
        "does",
        "do",
        "is",
        "was",
        "were",
        "has",
        "have",
        "had",
        "what",
        "the",
        "its",
        "their",
        "of",
        "in",
        "and",
        "or",
        "how",
        "much",
    ]
)


def asks_about_parts(question: str) -> bool:
    """'segments', 'regions', 'business units', 'product categories', 'markets': the question is
    about the parts a line item is broken into."""
    return bool(_PARTS.search(question))


def asks_share_over(question: str) -> bool:
    """'represent / account for / make up more than N%': a share of a whole against a level."""
    return bool(_SHARE_OVER.search(question))


def asks_share(question: str) -> bool:
    """'What percentage of total revenue ...', 'X as a percent of sales': a share of a whole."""
    return bool(_SHARE.search(question))


def asks_which(question: str) -> bool:
    """'which' or 'what': one of several is to be named."""
    return bool(_WHICH.search(question))


def ratio_follows(rest: str) -> bool:
    """The words after an amount the question names make it the numerator of a ratio
    ('... debt to total capital', '... cash / current liabilities'), not the amount asked."""
    return bool(_RATIO_FOLLOWS.match(rest))


# --------------------------------------------------------------------------- the answer's side


# a verdict an answer states: yes / no, a direction, a judgement of a level
@data_cache()
def _verdict_words() -> re.Pattern[str]:
    return re.compile(
        # 'not' negating a statement; 'not the consolidated figures', 'not from a broader
        # item' say which figures were read, no verdict
        r"\b(?:yes|no|not(?!\s+(?:the|from)\b)|none|never|neither|nor|indeed|positive|negative|consistent|"
        r"inconsistent|stable|flat|unchanged|healthy|unhealthy|"
        rf"{movement.alternation(('up', 'down', 'favourable', 'unfavourable'))})\b|n't\b",
        re.I,
    )


# a cause an answer gives ('due to', 'driven by', 'as a result of')
_CAUSAL = re.compile(
    r"\b(?:due to|driven|drove|because|primarily|mainly|largely|result\w* (?:of|from)|led by|"
    r"owing to|reflect\w*|attributable|caused|impact|offset|from|since|as a|given|thanks to)\b",
    re.I,
)
# the answer takes the question's 'if X is not a useful metric' branch
_DECLARED_NOT_RELEVANT = re.compile(
    r"\bnot (?:a |an |the )?(?:very )?(?:useful|relevant|meaningful|applicable|appropriate|"
    r"good|measured)\b|\bnot explicitly\b",
    re.I,
)
_LEADING_YES_NO = re.compile(r"^\W*(?:yes|no)\b", re.I)
_NIL_WORDS = re.compile(r"\b(?:zero|nil|none|flat|unchanged)\b", re.I)


def states_verdict(text: str) -> bool:
    """The text states a verdict: yes / no, a negation, a direction ('increased', 'fell'), or a
    judgement of a level ('stable', 'healthy')."""
    return bool(_verdict_words().search(text))


def states_cause(text: str) -> bool:
    """The text gives a cause ('due to', 'driven by', 'as a result of', 'reflecting')."""
    return bool(_CAUSAL.search(text))


def declares_not_relevant(text: str) -> bool:
    """The text declares the metric not useful / relevant / meaningful / applicable (the branch a
    question's 'if X is not a useful metric, say so' clause allows), or not explicitly given."""
    return bool(_DECLARED_NOT_RELEVANT.search(text))


def nil_words(text: str) -> int:
    """How many figures the text gives in words: 'zero', 'nil', 'none', 'flat', 'unchanged'."""
    return len(_NIL_WORDS.findall(text))


def leading_yes_no(text: str) -> int | None:
    """The offset just after the 'Yes' / 'No' an answer opens with, or None when it opens with
    neither ('Yes, revenue grew' -> 3)."""
    m = _LEADING_YES_NO.match(text)
    return m.end() if m else None
