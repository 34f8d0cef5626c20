"""Words that narrow a named line item to a part of it: 'membership fee revenue' is one line of
revenue, 'services gross margin' one part of the gross margin, 'unearned revenue' not revenue.

`find_metrics` reads the catalogue item a question names ('revenue'); the words written just
before it that are not the item's own vocabulary may name a part of it. Whether they do is a
fact of the filing, not of the words: `named_part` keeps a qualifier only when a row of the
evidence is labelled with it ('Membership fees 4,224 3,877'). An answer that gives the whole
(total revenue's growth) where the question names such a part answers another line item.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from finqa.lexicon._data import data_cache
from finqa.lexicon.answer_form import ask_head
from finqa.lexicon.metrics import METRICS, find_metrics, metric_key

__all__ = [
    "Qualifier",
    "qualifiers",
    "named_part",
    "row_labels",
    "item_words",
    "Exclusion",
    "stated_exclusions",
    "left_out_phrases",
    "caption_keys",
    "JOINING_WORDS",
    "without_side_clauses",
]

_MAX_WORDS = 3
_WORD = re.compile(r"[A-Za-z][A-Za-z\-]*(?:['\u2019]s)?")
# words that say which figure, period or form is asked, never which part of a line item
_GENERIC = frozenset(
    re.findall(
        r"\S+",
        """a an the of for in on to by from at with and or its their his her our your what which
    how much many was is were are did does do has have had be been this that these those year
    years yoy annual annually quarterly quarter fiscal total net consolidated reported overall
    gaap growth rate change changes increase decrease percent percentage amount value level
    figure average approximate approximately per share company group firm business entire whole
    combined aggregate full same current prior previous last latest respective other any all
    if as using define defined calculate compute positive negative highest lowest largest
    smallest major key main primary such its less plus minus
    use uses used take takes taking divide divided divides dividing compare compared comparing
    calculated computed computing calculating based base sum add adding subtract subtracting
    deduct deducting include including includes exclude excluding excludes report show give
    over versus firmwide companywide beginning end ending opening closing start starting
    period""",
    )
)


@data_cache()
def _generic_keys() -> frozenset[str]:
    """The generic words as `metric_key` spells them ('plus' is 'plu'): a token's key is what
    is compared."""
    return frozenset(metric_key(w) for w in _GENERIC) | _GENERIC


@data_cache()
def _part_kind_keys() -> frozenset[str]:
    """The one-word kinds of a part of the business ('segment', 'division', 'region'), as
    `metric_key` spells them: 'division net revenue' is a part's revenue, whose part the
    dimension's own checks read, never a line of revenue named 'division' (a 'Total
    division' row is the parts' total)."""
    from finqa.lexicon.dimension_members import kind_words

    words = {w for ws in kind_words().values() for w in ws if " " not in w}
    return frozenset(metric_key(w) for w in words) | frozenset(words)


@dataclass(frozen=True)
class Qualifier:
    """The words written before a metric mention that may name a part of it."""

    metric: str  # catalogue id of the mention ('revenue')
    words: tuple[str, ...]  # the run before it, normalised ('membership', 'fee')
    mention: str  # the mention as written ('revenue')

    def suffixes(self) -> tuple[str, ...]:
        """The qualifier's candidate spellings, longest first ('membership fee', 'fee')."""
        return tuple(" ".join(self.words[i:]) for i in range(len(self.words)))


# what a measure is taken net of, or without ('net of construction payable', 'excluding fuel',
# 'less returns'): an item named after these words is left out of the asked figure, never the
# figure itself (the words between are the item's own: at most three)
_DEDUCTED = re.compile(
    r"\b(?:net\s+of|excluding|exclusive\s+of|less|other\s+than|after\s+deducting)\s+"
    r"(?:the\s+|any\s+|its\s+)?(?:[A-Za-z&-]+\s+){0,3}$",
    re.I,
)


_ABBREVIATION = re.compile(r"\s*\([^()]{1,40}\)\s*$")


@data_cache(256)
def qualifiers(question: str) -> tuple[Qualifier, ...]:
    """Each metric mention of `question` with the plain words just before it (at most three,
    stopping at a possessive, a number, punctuation or a generic word) that are not words of
    the item's own catalogue spellings; a mention the question takes the measure net of or
    without ('net of construction payable') is none."""
    out: list[Qualifier] = []
    names = _company_spans(question)
    # not the question's own definition clause after the ask (the ask's end, as an offset in
    # the whole question: a premise before it moves it)
    asked = ask_head(question)
    at = question.find(asked)
    head = at + len(asked) if at >= 0 else len(question)
    for match in find_metrics(question):
        if match.start >= head:
            continue
        metric = METRICS.get(match.canonical)
        if metric is None:
            continue
        if _DEDUCTED.search(question[max(0, match.start - 60) : match.start]):
            continue  # 'capital expenditures (net of construction payable)': left out, not asked
        own = _own_words(match.canonical)
        # a company's name before the item is whose figure, not which part ('FedEx revenue')
        before = question[max([0, *(e for _s, e in names if e <= match.start)]) : match.start]
        # a parenthesis just before the item abbreviates the words before it ('cloud software
        # as a service (SaaS) revenues'): the words are read past it
        before = _ABBREVIATION.sub(" ", before)
        words: list[str] = []
        for tok in reversed(re.findall(r"\S+", before)[-_MAX_WORDS:]):
            word = _WORD.fullmatch(tok)
            if word is None or tok.lower().endswith(("'s", "\u2019s")):
                break
            key = metric_key(tok)
            if not key or key in _generic_keys() or key in own or key in _part_kind_keys():
                break
            if all(k in _generic_keys() for k in key.split()):
                break  # 'end-of-year' total assets: which date, not which part
            words.insert(0, key)
        if words:
            out.append(Qualifier(match.canonical, tuple(words), match.matched))
    return tuple(out)


def _company_spans(question: str) -> tuple[tuple[int, int], ...]:
    from finqa.lexicon.entities import find_companies

    try:
        return tuple((c.start, c.end) for c in find_companies(question))
    except Exception:  # noqa: BLE001 - names only bound the qualifier; never fail on them
        return ()


def item_words(metric_id: str) -> frozenset[str]:
    """The keys of a catalogue item's own spellings (synonyms, captions, name)."""
    return _own_words(metric_id)


@data_cache(512)
def _own_words(metric_id: str) -> frozenset[str]:
    m = METRICS[metric_id]
    spellings: Iterable[str] = (*m.synonyms, *m.line_items, m.name, m.id.replace("_", " "))
    # every line of the statement of cash flows is a cash flow: 'cash additions to property
    # and equipment' names no part of the additions
    basis = ("cash",) if m.statement == "cash_flow" else ()
    return frozenset((*(w for s in spellings for w in metric_key(s).split()), *basis))


_FIRST_FIGURE = re.compile(r"[\d$(\u2014]")


def row_labels(text: str) -> tuple[str, ...]:
    """The normalised labels of the text's table rows: each line's words before its first
    figure, for lines that carry one."""
    labels = []
    for line in text.splitlines():
        m = _FIRST_FIGURE.search(line)
        if m is None or m.start() == 0:
            continue
        label = metric_key(line[: m.start()])
        if label:
            labels.append(label)
    return tuple(labels)


def named_part(question: str, evidence_labels: Iterable[str]) -> tuple[Qualifier, str] | None:
    """The first qualifier of `question` that a row of the evidence is labelled with, and the
    spelling found ('membership fee' on 'membership fee'), else None."""
    padded = [f" {label} " for label in evidence_labels]
    for q in qualifiers(question):
        for spelling in q.suffixes():
            if any(f" {spelling} " in label for label in padded):
                return q, spelling
    return None


# ------------------------------------------------------------------ a component left out

# a measure asked without one of its components ('excluding fuel', 'excluding the impact of
# currency', 'exclusive of special items', 'ex-fuel'): what follows, up to a word that ends
# the noun phrase
_EXCLUSION = re.compile(
    r"\b(?:excluding|exclusive\s+of|ex-)\s*(?:the\s+)?(?:(?:impacts?|effects?)\s+of\s+)?"
    r"(?:the\s+)?(?P<y>[A-Za-z][\w&'\u2019-]*(?:\s+[A-Za-z][\w&'\u2019-]*){0,4})",
    re.I,
)
# words that end the left-out noun phrase ('excluding fuel, what ...', 'excluding fuel in 2022')
_PHRASE_END = frozenset(
    [
        "what",
        "which",
        "how",
        "who",
        "whom",
        "whose",
        "when",
        "where",
        "why",
        "was",
        "were",
        "is",
        "are",
        "did",
        "does",
        "do",
        "has",
        "have",
        "had",
        "in",
        "for",
        "from",
        "during",
        "over",
        "at",
        "on",
        "by",
        "to",
        "of",
        "as",
        "and",
        "or",
        "than",
        "that",
        "this",
        "the",
        "its",
        "their",
        "with",
        "per",
        "each",
        "fiscal",
        "year",
        "years",
        "quarter",
    ]
)
# what the catalogue's owners conventions read ('excluding noncontrolling interests'), not a
# component of the measure
_OWNERS = frozenset({"noncontrolling", "non-controlling", "minority", "redeemable"})


@dataclass(frozen=True)
class Exclusion:
    """A component the question leaves out of the measure it asks ('excluding fuel')."""

    phrase: str  # as written: 'fuel', 'special items'
    keys: tuple[str, ...]  # its words as `metric_key` spells them
    metric: str | None  # the catalogue measure it qualifies: the nearest one named before it


@data_cache(256)
def stated_exclusions(question: str) -> tuple[Exclusion, ...]:
    """The components a question asks a flow measure without ('Excluding fuel, what operating
    income did ...'): an adjusted measure, not the line as printed. A capitalised name left out
    is a part of the business ('excluding Embedded', 'excluding the U.S.': the dimension's
    reading), the noncontrolling interests are the owners' convention, and a balance's scope
    ('total debt excluding operating lease liabilities') is its catalogue definition: none of
    these is returned."""
    out: list[Exclusion] = []
    mentions = find_metrics(question)
    for m in _EXCLUSION.finditer(question):
        words = _phrase_words(m.group("y"))
        if not words or (words[0][:1].isupper() and not _sentence_start(question, m.start())):
            continue
        # 'excluding the share of redeemable and noncontrolling interests': the owners'
        clause = re.split(r"[,;:?)]", question[m.start("y") :])[0]
        if any(w.lower().strip("'\u2019s") in _OWNERS for w in clause.split()):
            continue
        keys = tuple(k for k in (metric_key(w) for w in words) if k)
        if not keys:
            continue
        metric = _measure_for(question, mentions, m.start(), m.end())
        item = METRICS.get(metric) if metric else None
        if item is not None and (item.period_type == "instant" or item.statement == "balance"):
            continue
        out.append(Exclusion(" ".join(words), keys, metric))
    return tuple(out)


def _phrase_words(text: str) -> list[str]:
    """The words of a left-out noun phrase, up to a word that ends it ('fuel, what ...')."""
    words: list[str] = []
    for tok in text.split():
        if tok.lower() in _PHRASE_END:
            break
        words.append(tok)
    return words


# the words that leave a line out of a measure, a balance's too ('leaving out redeemable
# preferred stock'), and those that take one in beside the whole ('including corporate')
_LEAVING_OUT = r"excluding|exclusive\s+of|leaving\s+out|not\s+counting|without\s+counting"
_LEFT_OUT = re.compile(
    rf"\b(?:{_LEAVING_OUT})\s+(?:the\s+)?"
    r"(?P<y>[A-Za-z][\w&'\u2019-]*(?:\s+[A-Za-z][\w&'\u2019-]*){0,5})",
    re.I,
)
# a clause that names what a measure leaves out or takes in beside it ('excluding noncontrolling
# interests and redeemable stock of subsidiaries', 'including corporate'), up to its end
_SIDE_CLAUSE = re.compile(rf"\b(?:{_LEAVING_OUT}|including|inclusive\s+of)\b[^,;:?)]*", re.I)


@data_cache(256)
def left_out_phrases(question: str) -> tuple[str, ...]:
    """Every line the question says to leave out of what it asks, as written ('redeemable
    preferred stock', 'fuel'), whatever the measure: a flow's component or a balance's."""
    found = (_phrase_words(m.group("y")) for m in _LEFT_OUT.finditer(" ".join(question.split())))
    return tuple(" ".join(words) for words in found if words)


_TAKING_IN = re.compile(
    r"\b(?:including|inclusive\s+of|together\s+with)\s+(?:the\s+|its\s+|both\s+|any\s+)?"
    r"(?P<y>[A-Za-z][\w&'\u2019-]*(?:\s+[A-Za-z][\w&'\u2019-]*){0,9})",
    re.I,
)


@data_cache(256)
def included_phrases(question: str) -> tuple[str, ...]:
    """Every line the question says to take into what it asks beside the whole's usual lines,
    as written ('capital lease obligations' in 'total debt, including capital lease
    obligations'; 'short-term borrowings' and 'long-term debt classified as current' in
    'including short-term borrowings and long-term debt classified as current')."""
    out: list[str] = []
    for m in _TAKING_IN.finditer(" ".join(question.split())):
        words = _phrase_words(m.group("y"))
        for part in re.split(r"\s+(?:and|plus)\s+", " ".join(words)):
            if part.strip():
                out.append(part.strip())
    return tuple(out)


# words that join a caption's words ('Transaction and credit losses', 'Income from continuing
# operations', 'As a percentage of revenues'), never a line's own name
JOINING_WORDS = frozenset(
    {"and", "of", "the", "for", "from", "to", "in", "on", "or", "a", "an", "by", "with", "its",
     "their", "as"}
)  # fmt: skip


def caption_keys(phrase: str) -> tuple[str, ...]:
    """The keys a printed caption holds when it names the phrase's line: each word's letters,
    singular, joining words left out ('redeemable preferred stock' -> 'redeemable',
    'preferred', 'stock', all within 'Redeemable preferred stock at redemption value')."""
    words = (metric_key(w) for w in phrase.split())
    keys = ("".join(ch for ch in w if ch.isalpha()) for w in words if w not in JOINING_WORDS)
    return tuple(k for k in keys if len(k) > 2)


def without_side_clauses(question: str) -> str:
    """The question without the clauses that name a part a measure leaves out or includes
    beside the whole it asks: what remains names the line asked ('total capital spending in
    2018, including corporate' names capital spending, not the 'Corporate' row)."""
    return _SIDE_CLAUSE.sub(" ", question)


def _sentence_start(question: str, at: int) -> bool:
    """'Excluding Fuel, what ...': the capital is the sentence's, not a name's."""
    before = question[:at].rstrip()
    return not before or before[-1] in ".?!:;"


def _measure_for(question: str, mentions: list[Any], at: int, end: int) -> str | None:
    """The measure an exclusion qualifies: the metric named just before it in its sentence
    ('i.e.' ends none), else the first named after what it leaves out ('Excluding fuel, what
    operating income ...'); an item inside the left-out words ('excluding goodwill
    impairment losses') is what is left out, not the measure."""
    before = [x for x in mentions if x.end <= at]
    if before and not re.search(r"[?;]|\.\s+[A-Z]", question[before[-1].end : at]):
        return str(before[-1].canonical)
    after = [x for x in mentions if x.start >= end]
    return str(after[0].canonical) if after else None
