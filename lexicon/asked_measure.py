"""What a question asks for, read from the noun phrase it asks about: a second reading of the
asked measure beside the catalogue match (`lexicon.metrics.find_metrics`, which finds every
item the question names, wherever it names it).

'What was the company's gross interest expense (interest on debt plus interest on capital
leases)?' names debt, but asks an expense; 'What was the net effect of the recognition
(deferral) of deferred net revenues?' names revenue, but asks the effect of a deferral. The
catalogue match alone takes the nearer item and both agents compute it. This reader takes the
phrase the ask governs ('what was X's <phrase> in FY2019', 'how much <phrase> did X ...',
'did X's <phrase> increase ...'), keeps its measure words (words of the catalogue's own
vocabulary, with names, periods and generic words out) and its head noun, and says whether a
catalogue item can be what is asked (`measure_fit`):

- its head noun's nature (`data/measure_nouns.yaml`: an expense, a revenue, an income, a
  liability, an asset, equity) must admit the item's nature (a liability never answers an
  expense), and
- every measure word must be the item's own or one of its formula's operands' ('interest' and
  'expense' are no words of total debt).

A question whose phrase cannot be read, or has no measure word, is not judged (None): the
reading only refuses an item it can show is another measure; it never picks one.

The same reading of the ask serves the judge's other checks of what is asked, each a general
definition rather than a question's wording: the item an answer's lead states
(`stated_measure`, `answer_fit`); a second part's measure (`unnamed_measure`); a phrase divided
by another line ('relative to': `ratio_asked`) and an ask that wants a percentage, share or
ratio (`asks_ratio_form`); the side of a balance a caption names ('Long-term ...':
`side_words`); the two options of an either/or question (`either_or_options`); the effect of
one line on another ('did restructuring reduce operating income': `effect_asked`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

from finqa.lexicon._data import data_cache, read_yaml
from finqa.lexicon.answer_form import WHETHER_REQUEST, ask_head
from finqa.lexicon.metrics import METRICS, metric_key
from finqa.lexicon.premise_operand import premise_operand
from finqa.lexicon.prose import question_sentences
from finqa.lexicon.qualifiers import item_words

__all__ = [
    "quote_misfit",
    "quoted_misfit",
    "AskedMeasure",
    "MeasureFit",
    "answer_fit",
    "effect_asked",
    "asks_per_share",
    "asks_ratio_form",
    "asked_measure",
    "measure_fit",
    "stated_measure",
    "stated_measures",
    "unnamed_measure",
]

# the frame of an ask, before the phrase it governs
_FRAMES = (
    # 'by how much did X's operating income increase'
    re.compile(
        r"\bby how much (?:did|does|do|has|have|had|was|were|is|are|will|would)\s+(?P<np>.+)",
        re.I,
    ),
    # 'how much revenue did X generate'
    re.compile(
        r"\bhow (?:much|many) (?:(?:fiscal\s+|FY\s*)?(?:19|20)\d\d\s+)?"  # 'how much 2016 net income'
        r"(?P<np>(?!(?:did|does|do|has|have|had|was|were|is|are|will|would|"
        r"of)\b)[A-Za-z].*?)\s+(?:did|does|do|has|have|had|was|were|is|are|will|would)\b",
        re.I,
    ),
    # 'how many dollars of the equity earnings X recognized came from Y', 'how much of its
    # revenue came from Y': the whole a part is asked of is the measure
    re.compile(r"\bhow (?:much|many)\s+(?:(?:dollars|usd)\s+)?of\s+(?P<np>[A-Za-z].+)", re.I),
    # 'what was X's gross interest expense in FY2019'
    re.compile(
        r"\bwhat(?:'s|\u2019s|\s+(?:is|was|are|were|will be|would be|has been|have been))\s+"
        r"(?P<np>.+)",
        re.I,
    ),
    # 'what operating margin did X earn', 'what current deferred revenue balance did X carry',
    # 'what debt-to-total-capital ratio did X report': the phrase between 'what' and the verb
    re.compile(
        r"\bwhat\s+(?:(?:fiscal\s+|FY\s*)?(?:19|20)\d\d\s+)?"
        r"(?P<np>(?!(?:did|does|do|has|have|had|was|were|is|are|will|would|of|if|kind|type|"
        r"percent\w*|share|portion|proportion|fraction)\b)[A-Za-z].*?)\s+"
        r"(?:did|does|do|has|have|had|will|would)\b",
        re.I,
    ),
    # 'calculate the FY2019 operating margin'
    re.compile(r"^\W*(?:calculate|compute|determine|estimate|find)\s+(?P<np>.+)", re.I),
    # 'what happened to the segment's operating margin'
    re.compile(r"\bwhat\s+happened\s+to\s+(?P<np>.+)", re.I),
    # 'how did the segment's revenue change', 'how has X's margin moved'
    re.compile(
        r"\bhow\s+(?:did|has|have|does|do)\s+(?P<np>.+?)\s+(?:chang\w*|move\w*|moved|evolv\w*|"
        r"develop\w*|compar\w*|trend\w*|perform\w*|far\w*)\b",
        re.I,
    ),
    # 'did X's operating margin improve', 'how much did X's cash from operations grow'
    re.compile(
        r"^\W*(?:(?:by\s+)?how\s+(?:much|many)(?:\s+(?:in\s+)?(?:percent(?:age)?|%|dollar)"
        r"(?:\s+(?:points?|terms))?)?\s+)?"
        r"(?:did|does|do|has|have|had|was|were|is|are)\s+"
        r"(?P<np>.+?)\s+"
        r"(?:increas\w*|decreas\w*|ris\w*|rose|f[ae]ll\w*|grow\w*|grew|declin\w*|improv\w*|"
        r"worsen\w*|chang\w*|dropp?\w*|exceed\w*|expand\w*|contract\w*|shr[iu]nk\w*)\b",
        re.I,
    ),
)
_TOKEN = re.compile(r"[A-Za-z][A-Za-z0-9&\-]*(?:['\u2019]s?)?|\d[\d,.]*%?|&|%|[^\sA-Za-z0-9]")
# words after which the phrase ends: the period, the filer, the source or a clause follow
_END_WORDS = frozenset(
    re.findall(
        r"\S+",
        """for in during at as between from over on under compared versus vs relative when that
    which who whom whose reported recorded recognized recognised shown presented disclosed if
    after before based according using excluding including with by to than did does do was
    were is are has have had will would could should can year years ended ending since per
    within across through into among while whereas because so then this these those against
    also plus minus less divided times and or but not nor drop dropped fall fell rise rose grow
    grew decline declined improve improved worsen worsened shrink shrank expand expanded""",
    )
)
_END_MARKS = frozenset(',?;:()[]"\u201c\u201d.!/')
# words that say which figure, form or period is asked, never which measure
_NOT_MEASURE = frozenset(
    re.findall(
        r"\S+",
        """a an the its their his her our your this that these those total net gross consolidated
    reported overall gaap unadjusted adjusted annual annually quarterly fiscal amount value level
    figure quantity sum balance number size dollar dollars usd million millions billion billions
    thousand thousands average approximate approximately year-end yearly full same current
    prior previous last latest respective combined aggregate whole entire company group firm
    business segment segments division divisions unit units region regions year quarter month
    months period basic diluted yoy year-over-year change growth increase decrease rate major
    key main primary significant largest smallest highest lowest other any all financial
    financials percent percentage percentages point points pct times term terms attributable""",
    )
)
_POSSESSIVE = re.compile(
    r"\w['\u2019]s$", re.I
)  # 'Apple's': whose figure ('shareholders'' is a word)
# words of an operator over a line item, read through to the item ('the growth in X')
_OPERATORS = frozenset(
    metric_key(w)
    for w in re.findall(
        r"\S+",
        """the a an year-over-year yoy annual quarterly growth change changes increase
    decrease rate percentage percent net total""",
    )
)
# a ratio of the phrase to another line, after the phrase and any parenthesis of its own
# ('wages expense as a percent of net sales', 'total debt (...) relative to total shareholders'
# equity'): the phrase is its numerator, not what is asked
_RATIO_TO = re.compile(
    r"^\s*(?:\([^()]*\)\s*)?,?\s*(?P<ratio>relative\s+to|as\s+an?\s+(?:%|percent(?:age)?|share|"
    r"proportion|fraction|ratio|multiple)\s+of|divided\s+by|in\s+relation\s+to)\b",
    re.I,
)
# 'X to Y', 'X over Y', 'X per share': a quotient whose numerator the phrase is
_PER_LINE = re.compile(r"^\s*(?:to|over|per)\b", re.I)


@dataclass(frozen=True)
class AskedMeasure:
    """The phrase a question asks about, as its own words say it."""

    phrase: str  # as written ('gross interest expense')
    words: tuple[str, ...]  # its measure words, as `metric_key` spells them ('interest', 'expense')
    noun: str | None  # its head noun ('expense'), when the noun's nature is known
    natures: frozenset[str]  # the natures an item answering it can have; empty: any


@dataclass(frozen=True)
class MeasureFit:
    """Whether a catalogue item can be the asked measure, and why not."""

    metric: str
    fits: bool
    asked: str = ""  # the asked phrase
    missing: tuple[str, ...] = ()  # measure words that are not the item's
    nature: str | None = None  # the item's nature, when the head noun rules it out
    reason: str = ""


@data_cache()
def _noun_natures() -> dict[str, frozenset[str]]:
    out: dict[str, frozenset[str]] = {}
    for spec in read_yaml("measure_nouns.yaml").values():
        natures = frozenset(str(n) for n in spec["natures"])
        for noun in spec["nouns"]:
            out[metric_key(str(noun))] = natures
    return out


@data_cache()
def _measure_vocabulary() -> frozenset[str]:
    """Every word of the catalogue's own spellings: the words that name a measure."""
    return frozenset(w for m in METRICS for w in item_words(m))


@data_cache()
def _joined_phrases() -> frozenset[tuple[str, str]]:
    """Word pairs an 'and' joins inside one catalogue spelling ('research and development')."""
    pairs: set[tuple[str, str]] = set()
    for m in METRICS.values():
        for s in (*m.synonyms, *m.line_items, m.name):
            toks = metric_key(s).split()
            for i in range(1, len(toks) - 1):
                if toks[i] == "and":
                    pairs.add((toks[i - 1], toks[i + 1]))
    return frozenset(pairs)


@data_cache()
def _spelled_natures() -> dict[tuple[str, ...], str]:
    """The nature of each catalogue spelling ('deferred revenue' -> liability), generic words
    out as in a phrase's measure words; a spelling two natures share is left out."""
    seen: dict[tuple[str, ...], set[str]] = {}
    for m in METRICS.values():
        if not m.nature:
            continue
        for s in (*m.synonyms, *m.line_items, m.name):
            key = tuple(w for w in metric_key(s).split() if w not in _NOT_MEASURE)
            if key:
                seen.setdefault(key, set()).add(m.nature)
    return {k: next(iter(v)) for k, v in seen.items() if len(v) == 1}


def _head_natures(first: list[str]) -> frozenset[str]:
    """The natures the head of a phrase admits: the nature of the longest catalogue spelling
    the phrase ends with ('deferred revenue' is a liability, 'interest expense' an expense),
    else its head noun's (`data/measure_nouns.yaml`)."""
    spelled = _spelled_natures()
    for i in range(len(first)):
        nature = spelled.get(tuple(first[i:]))
        if nature is not None and i < len(first) - 1:
            return frozenset({nature})
    return _noun_natures().get(first[-1], frozenset()) if first else frozenset()


@data_cache(512)
def _item_vocabulary(metric: str) -> frozenset[str]:
    """An item's own words and its formula's operands' words (a margin says its line items)."""
    from finqa.lexicon.formula import keys

    m = METRICS.get(metric)
    if m is None:
        return frozenset()
    words = set(item_words(metric))
    for formula in (m.formula, *m.formulas):
        if not formula:
            continue
        for key in keys(formula):
            if key in METRICS:
                words |= item_words(key)
    if m.growth_of and m.growth_of in METRICS:
        words |= item_words(m.growth_of)
    return frozenset(words)


def _ask_sentences(question: str) -> list[str]:
    """The sentences of the ask (after any premise, before the question's own definition)."""
    return question_sentences(ask_head(" ".join(question.split())))


def _asking_sentence(question: str) -> str:
    sentences = _ask_sentences(question)
    return next(
        (s for s in sentences if s.rstrip().endswith("?")), sentences[0] if sentences else ""
    )


def _frame_matches(sentence: str) -> list[re.Match[str]]:
    """Every ask frame found in the sentence, the one whose phrase starts first first (the
    first ask of a sentence asking two things)."""
    found = [m for frame in _FRAMES if (m := frame.search(sentence)) is not None]
    return sorted(found, key=lambda m: m.start("np"))


_YEAR_MODIFIER = re.compile(r"(?:19|20)\d{2}")


def _phrase_tokens(tail: str) -> tuple[list[str], str]:
    """The tokens of the phrase at the start of `tail`, up to where a period, filer, source or
    clause begins, and the rest of `tail` after them. An operator read first ('the
    year-over-year growth in', 'the change in') is read through to its line item."""
    toks = [(m.group(), m.end()) for m in _TOKEN.finditer(tail)]
    out: list[str] = []
    end = 0
    for i, (tok, stop) in enumerate(toks):
        low = tok.lower()
        if tok[0].isdigit() and _YEAR_MODIFIER.fullmatch(tok) and i + 1 < len(toks):
            nxt = toks[i + 1][0]
            if nxt[0].isalpha() and nxt.lower() not in _END_WORDS:
                continue  # 'total 2015 operating expenses': the year names the period only
        if tok in _END_MARKS or tok[0].isdigit():
            break
        if low in ("and", "&") and out:
            nxt = toks[i + 1][0].lower() if i + 1 < len(toks) else ""
            if (metric_key(out[-1]), metric_key(nxt)) in _joined_phrases():
                out.append(tok)
                end = stop
                continue
            break
        if low == "of" and out:
            out.append(tok)
            continue
        if low in _END_WORDS and out:
            if low in ("in", "of") and all(metric_key(t) in _OPERATORS for t in out):
                out = []  # 'the growth in operating income': the line item follows
                continue
            break
        if low in _END_WORDS:
            continue  # a frame word before the phrase ('what was the ...' read 'the' on)
        out.append(tok)
        end = stop
    while out and out[-1].lower() in ("of", "and", "&"):
        out.pop()
    return out, tail[end:]


def _measure_words(tokens: Iterable[str]) -> list[str]:
    vocab = _measure_vocabulary()
    words: list[str] = []
    for tok in tokens:
        if _POSSESSIVE.search(tok):
            words = []  # whose figure ('Apple's'), never what is asked: read what follows
            continue
        if tok[0].isupper() and not (tok.isupper() and metric_key(tok) in vocab):
            continue  # a name (the filer, a segment, a region), not a measure word
        key = metric_key(tok.strip("'\u2019"))
        if key == "of" or (key and key not in _NOT_MEASURE and tok.lower() not in _NOT_MEASURE):
            words.append(key)
    return words


@data_cache(512)
def asked_measure(question: str) -> AskedMeasure | None:
    """The phrase `question` asks about, its measure words and its head noun's natures; None
    when no ask frame is found or the phrase names no measure word. An ask that only refers
    back ('What was the amount?', 'How large was it?') asks the measure its premise states
    ('X's provision for credit losses was negative in Q3 2021.')."""
    sentence = _asking_sentence(question)
    found = _read_phrases(m.group("np") for m in _frame_matches(sentence))
    if found is not None or not _REFERRING.search(sentence):
        return found if isinstance(found, AskedMeasure) else None
    stated = (m.group("np") for s in _premise_sentences(question) if (m := _SUBJECT.match(s)))
    again = _read_phrases(stated)
    return again if isinstance(again, AskedMeasure) else None


# an ask that names no measure of its own, only the one stated before it
_REFERRING = re.compile(
    r"\b(?:what|how\s+(?:much|large|big))\s+(?:was|is|were|are)\s+(?:it|that|this|the\s+"
    r"(?:amount|figure|number|size|value|sum)|that\s+(?:amount|figure|line))\b"
    r"|\b(?:did|do|does|has|have|had)\s+(?:it|they)\b|\b(?:were|are)\s+they\b",
    re.I,
)
# the subject of a premise, before what it states of it ('X's provision for credit losses was
# negative ...', 'Net sales fell in fiscal 2017.')
_SUBJECT = re.compile(
    r"^\W*(?P<np>[A-Za-z].*?)\s+(?:was|were|is|are|has\s+been|had\s+been|rose|fell|increased|"
    r"decreased|declined|grew|dropped|turned|swung|totall?ed|amounted|came\s+in)\b",
    re.I,
)


def _premise_sentences(question: str) -> list[str]:
    """The statements a question opens with, before its first asking sentence, nearest first."""
    sentences = question_sentences(question)
    first = next((i for i, s in enumerate(sentences) if s.rstrip().endswith("?")), 0)
    return sentences[:first][::-1]


def _read_phrases(phrases: Iterable[str]) -> AskedMeasure | Literal[False] | None:
    """The first phrase read as a measure; False when a phrase is a ratio's numerator (nothing
    to judge), None when none names a measure word."""
    for np in phrases:
        tokens, rest = _phrase_tokens(np)
        # 'X to Y' is a quotient, but 'attributable to Y' names whose X it is
        owned = bool(tokens) and tokens[-1].lower() == "attributable"
        if _RATIO_TO.match(rest) or (_PER_LINE.match(rest) and not owned):
            return False
        words = _measure_words(tokens)
        vocab = _measure_vocabulary()
        # 'X of Y': the head is X's noun unless X says no measure ('the amount of inventories')
        first = words[: words.index("of")] if "of" in words else words
        if not [w for w in first if w in vocab]:
            first = [w for w in words[len(first) + 1 :] if w != "of"]
        kept = tuple(dict.fromkeys(w for w in words if w != "of" and w in vocab))
        if not kept:
            continue  # 'by how many percent did ...': another frame reads the phrase
        nouns = [w for w in first if w != "of" and w in vocab]
        noun = nouns[-1] if nouns else None
        natures = _head_natures(nouns)
        owner = max((i for i, t in enumerate(tokens) if _POSSESSIVE.search(t)), default=-1)
        phrase = " ".join(tokens[owner + 1 :])  # what is asked, not whose
        return AskedMeasure(phrase, kept, noun if natures else None, natures)
    return None


def measure_fit(question: str, metric: str | None) -> MeasureFit | None:
    """Whether the catalogue item `metric` can be what `question` asks: its nature admitted by
    the asked phrase's head noun and every measure word of the phrase its own; None when there
    is nothing to judge (no metric, an item outside the catalogue, no phrase read)."""
    if not metric or metric not in METRICS:
        return None
    asked = asked_measure(question)
    if asked is None:
        return None
    item = METRICS[metric]
    own = _item_vocabulary(metric)
    missing = tuple(w for w in asked.words if w not in own)
    nature = (
        item.nature if asked.natures and item.nature and item.nature not in asked.natures else None
    )
    if not missing and nature is None:
        return MeasureFit(metric, True, asked.phrase)
    why = []
    if nature is not None:
        why.append(
            f"'{asked.phrase}' asks {_a(asked.noun or '')}, and {item.name.lower()} is {_a(nature)}"
        )
    if missing:
        said = ", ".join(f"'{w}'" for w in missing)
        why.append(f"{item.name.lower()} says nothing of {said} in '{asked.phrase}'")
    return MeasureFit(metric, False, asked.phrase, missing, nature, "; ".join(why))


def _a(word: str) -> str:
    return ("an " if word[:1] in "aeiou" else "a ") + word


# the verdict or framing words an answer opens with, before the measure it states
_ANSWER_LEAD = re.compile(r"^\s*(?:(?:yes|no)\b[.,:;]?\s*)?", re.I)
# a figure an answer states: not a year ('FY2022', 'fiscal 2016') nor a date's day ('Jun 30,')
_FIRST_FIGURE = re.compile(
    r"(?<![\w.])(?!(?:19|20)\d\d\b)(?![0-3]?\d,\s*(?:19|20)\d\d\b)[-\u2212(]?\$?\d"
)


def _first_sentence(answer: str) -> str:
    """An answer's first sentence, without the Yes / No it may open with."""
    text = _ANSWER_LEAD.sub("", " ".join(answer.split()), count=1)
    return re.split(r"(?<=[.!?])\s+(?=[A-Z])", text, maxsplit=1)[0]


def stated_measures(answer: str) -> tuple[str, ...]:
    """The catalogue items an answer's first sentence names, in order: what it says its figure
    is comes first ('Total debt as of December 31, 2017: $1,234 million' -> total debt), the
    operands it names beside it after."""
    from finqa.lexicon.metrics import find_metrics

    found = sorted(find_metrics(_first_sentence(answer)), key=lambda m: m.start)
    return tuple(dict.fromkeys(m.canonical for m in found))


def stated_measure(answer: str) -> str | None:
    """The catalogue item an answer says its figure is: the first item named in its lead,
    before its first figure ('Total debt as of December 31, 2017: $1,234 million' -> total
    debt); None when the lead names none."""
    from finqa.lexicon.metrics import find_metrics

    sentence = _first_sentence(answer)
    figure = _FIRST_FIGURE.search(sentence)
    lead = sentence[: figure.start()] if figure is not None else ""
    if ":" in lead:
        lead = lead[: lead.index(":")]  # '<period> <measure>: <figure>'
    found = sorted(find_metrics(lead), key=lambda m: m.start) if lead else []
    return found[0].canonical if found else None


# the sentence a stated figure is quoted from ('$7. The filing states: "..." [S1]')
_STATED_FROM = re.compile(r'\bThe filing states:?\s*"(?P<quote>[^"]+)"')


def quote_misfit(question: str, sentence: str) -> str:
    """Why a sentence whose one figure is quoted as the answer does not state what the
    question's phrase asks: a measure word of the phrase it never uses ('accrued' of 'accrued
    interest' in a sentence on the redeemable noncontrolling interest); '' when it uses each
    (or the phrase has fewer than two: a lone word is no line's name)."""
    from finqa.lexicon.stems import stem

    asked = asked_measure(question)
    if asked is None or len(asked.words) < 2:
        return ""  # one word ('cash' of 'how much cash did X spend') says too little to judge
    said = {stem(w) for w in metric_key(sentence).split()}
    missing = [w for w in asked.words if stem(w) not in said]
    if not missing:
        return ""
    shown = ", ".join(f"'{w}'" for w in missing)
    return f"the sentence quoted says nothing of {shown} in '{asked.phrase}'"


def quoted_misfit(question: str, answer: str) -> str:
    """`quote_misfit` of the sentence an answer quotes its stated figure from ('' when the
    answer quotes none)."""
    m = _STATED_FROM.search(answer)
    return quote_misfit(question, m.group("quote")) if m is not None else ""


def answer_fit(question: str, answer: str) -> MeasureFit | None:
    """Whether an answer gives the measure `question`'s phrase asks: the misfit of the measure
    its lead states when no item its first sentence names fits the phrase (an answer naming
    an operand before the asked ratio still gives the ratio); None when it may."""
    stated = stated_measure(answer)
    operand = premise_operand(question)
    if operand is not None and stated is not None and stated != operand:
        # 'X's operating income rose. What was its growth rate?': the movement of the
        # premise's line, not another line's
        name, asked = METRICS[stated].name.lower(), METRICS[operand].name.lower()
        return MeasureFit(
            stated,
            False,
            asked,
            reason=f"the question asks the movement of {asked}, the line its premise names; "
            f"{name} is another line",
        )
    onto = _contribution_target(question)
    if onto is not None and stated is not None:
        noun, part, target = onto
        to = measure_fit(f"What was {target}?", stated)
        of = measure_fit(f"What was {part}?", stated)
        if to is not None and to.fits and (of is None or not of.fits):
            name = METRICS[stated].name.lower()
            return MeasureFit(
                stated,
                False,
                f"{noun} of {part}",
                reason=f"the question asks the {noun} of {part} to {target}; {name} is the "
                f"line it acts on",
            )
    fit = measure_fit(question, stated)
    if fit is None or fit.fits:
        return None
    named = stated_measures(answer)
    if any((f := measure_fit(question, m)) is not None and f.fits for m in named):
        return None
    # a balance's movement asked, answered by the line its statement prints for that movement
    # (cash's net increase (decrease) on the statement of cash flows: `Metric.moved_by`)
    moved = [m.id for m in METRICS.values() if m.moved_by is not None and m.moved_by == stated]
    if any((f := measure_fit(question, m)) is not None and f.fits for m in moved):
        return None
    # the lead names the asked phrase's own measure words ('FY2022 accrued income taxes:
    # $414 million', a line the catalogue reads as a broader item): it gives what is asked
    lead = set(metric_key(_first_sentence(answer)).split())
    if fit.missing and all(w in lead for w in fit.missing):
        return None
    return fit


# the share one line has in another: 'the net contribution of unallocated items to operating
# profit', 'the effect of currency on revenue', 'the impact of restructuring on operating income'
_CONTRIBUTION = re.compile(
    r"\b(?P<noun>contribution|effect|impact)\s+of\s+(?P<part>[^?,;]+?)\s+(?:to|on)\s+"
    r"(?P<target>[^?,;]+)",
    re.I,
)


def _contribution_target(question: str) -> tuple[str, str, str] | None:
    """The noun, the line whose contribution is asked and the line it acts on, when the ask is
    the contribution (effect, impact) of one line to another; None otherwise."""
    m = _CONTRIBUTION.search(_asking_sentence(question))
    if m is None:
        return None
    # the line it acts on, without the period it is named for ("X's 2017 operating profit")
    target = re.sub(r"\b(?:fiscal\s+(?:year\s+)?|FY\s*)?(?:19|20)\d\d\b\s*", "", m.group("target"))
    return m.group("noun").lower(), m.group("part").strip(), " ".join(target.split())


# an either/or yes-no question ('Did X add to or reduce Y', 'a charge or a benefit', 'help or
# hurt'): the two options around its 'or'
_EITHER_OR = re.compile(
    # after a leading period or condition ('For fiscal 2019, did ...')
    rf"^\W*(?:(?:for|in|during|at|as\s+of)\b[^,?]{{0,40}},\s*)?"
    rf"(?:did|does|do|was|is|were|are|has|have|had|{WHETHER_REQUEST})\b"
    r"(?P<before>[^?]*?)\s+or\s+"
    r"(?P<after>[^?,;]*)",
    re.I,
)
_NOT_OPTIONS = frozenset({"and", "the", "a", "an", "its", "their", "not", "more", "less"})


def ratio_asked(question: str) -> str | None:
    """The words that make the asked phrase a ratio's numerator ('relative to'), when the ask
    reads the phrase and then divides it by another line; None otherwise."""
    sentence = _asking_sentence(question)
    for m in _frame_matches(sentence):
        tokens, rest = _phrase_tokens(m.group("np"))
        if not tokens:
            continue
        found = _RATIO_TO.match(rest)
        return found.group("ratio") if found else None
    return None


def side_words(caption: str, question: str, metric: str | None = None) -> tuple[str, ...]:
    """The side words of a caption ('long term', 'current': `lexicon.components.SIDES`, the one
    list of a balance sheet's two sides) that neither the question nor the asked item's own
    spellings say: the caption is then one side of the balance asked."""
    from finqa.lexicon.components import SIDES

    item = METRICS.get(metric or "")
    spellings = (item.name, *item.synonyms) if item is not None else ()
    own = {w for sp in spellings for w in metric_key(sp).split()}
    asked = f" {metric_key(question)} "
    keys = metric_key(caption).split()
    out: list[str] = []
    i = 0
    while i < len(keys):
        two = " ".join(keys[i : i + 2])
        side = two if two in SIDES else keys[i] if keys[i] in SIDES else None
        i += len(side.split()) if side else 1
        if side is None or f" {side} " in asked or set(side.split()) <= own:
            continue
        out.append(side)
    return tuple(out)


def either_or_options(question: str) -> tuple[str, str] | None:
    """The two options of an either/or yes-no question ('add to' / 'reduce'), by their first
    words; None when the asking sentence offers no such pair."""
    for sentence in _ask_sentences(question):
        m = _EITHER_OR.search(sentence)
        if m is None:
            continue
        before = [w.lower() for w in re.findall(r"[A-Za-z]+", m.group("before"))]
        left = [w for w in before if w not in ("to", "from", "in", "on")]
        if not left:
            continue
        a = left[-1]
        # 'an income tax benefit or an income tax provision': the words both options share
        # are skipped
        shared = set(before[-4:]) | {"a", "an", "the"}
        after = [w.lower() for w in re.findall(r"[A-Za-z]+", m.group("after"))]
        b = next((w for w in after if w not in shared), "")
        if not b or a in _NOT_OPTIONS or b in _NOT_OPTIONS or a == b:
            continue
        return a, b
    return None


def unnamed_measure(part: str, answer: str) -> str | None:
    """The phrase a question part asks about when the answer names catalogue items and none of
    them can be it ('that segment's operating margin' beside an answer giving only revenue
    growth); None when one can, when the answer names none (a bare figure), or when the part's
    phrase cannot be read."""
    from finqa.lexicon.metrics import find_metrics

    asked = asked_measure(part)
    if asked is None:
        return None
    named = dict.fromkeys(m.canonical for m in find_metrics(" ".join(answer.split())))
    if not named:
        return None  # a bare figure names no measure: nothing to tell it by
    for metric in named:
        fit = measure_fit(part, metric)
        if fit is None or fit.fits:
            return None
    return asked.phrase


# the ask wants a ratio, share or percentage, whatever line it names ('as a percentage of total
# loans', 'in percentage terms', 'how big relative to the whole company', 'express the total
# as a share of')
_RATIO_FORM = re.compile(
    r"\b(?:as|in)\s+(?:an?\s+)?(?:percent(?:age)?|%|share|proportion|fraction|multiple)\b|"
    r"\bpercentage\s+(?:terms|points?)\b|\bin\s+percent\b|\brelative\s+to\b|"
    r"\bwhat\s+(?:(?:approximate|approx\.?|rough|estimated)\s+)?(?:percent(?:age)?|share|proportion|fraction|portion)\b|"
    r"\bby\s+what\s+percent(?:age)?\b|\bhow\s+many\s+(?:percent|percentage\s+points|times)\b",
    re.I,
)


def asks_ratio_form(question: str) -> bool:
    """The ask wants a percentage, share or ratio (its words, after any premise, before its own
    definition clause): an amount alone does not answer it."""
    return bool(_RATIO_FORM.search(ask_head(" ".join(question.split())))) or (
        ratio_asked(question) is not None
    )


_PER_SHARE = re.compile(r"\bper[\s-]+(?:common\s+)?share\b", re.I)


def asks_per_share(question: str) -> bool:
    """The ask wants a figure per share ('its per-share cash dividend', 'dividends declared
    per common share'): a total amount in millions does not answer it."""
    return bool(_PER_SHARE.search(ask_head(" ".join(question.split()))))


# 'Did restructuring reduce operating income', 'Did other, net help or hurt operating profit':
# the effect of one line on another, not the first line's own movement
_EFFECT = re.compile(
    r"^\W*(?:[^,?]{1,80},\s*)?(?:did|does|do|has|have|had|was|were|is|are)\s+(?P<x>[^?]+?)\s+"
    r"(?:(?:help|hurt)\s+or\s+(?:help|hurt)|reduce|lower|decrease|increase|raise|boost|lift|"
    r"hurt|help|weigh\s+on|add\s+to|drag(?:\s+down)?|depress|dampen|offset|eat\s+into)\s+"
    r"(?P<y>[^?,]+)",
    re.I,
)


def effect_asked(question: str) -> tuple[str, str] | None:
    """The line whose effect is asked and the line it acts on ('restructuring', 'operating
    income'), when a yes/no asks whether one catalogue line moved another; None otherwise."""
    from finqa.lexicon.metrics import find_metrics

    for sentence in _ask_sentences(question):
        m = _EFFECT.search(sentence)
        if m is None:
            continue
        x, y = m.group("x"), m.group("y")
        if find_metrics(y) and find_metrics(x) and not find_metrics(m.group(0)[: m.start("x")]):
            return x.strip(), y.strip()
    return None
