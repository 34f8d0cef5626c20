"""Completeness as a facet checklist: decompose the question into the parts it asks, check each.

Facets: `verdict` (a yes/no or increase/decrease question), `figure` (a number asked; one per
period when the question compares periods, one per metric when it asks for several), `choice`
(which segment / region / year ...: the answer must name one of the options the question lists,
else a thing the evidence names, or the period asked for; a figure alone does not answer it),
`explanation` (why / what drove / how), `answer` (which / who / what: some content), `entity`
(each company when several are asked), `conditional` (FinanceBench's 'if X is not a useful
metric, state that and explain why': only counted when the answer takes that branch).
Instructions ('Answer in USD millions', 'Round to two decimals', definitions) are not facets.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from finqa.agents.judge import _lex
from finqa.agents.judge.effect import check_effect
from finqa.agents.judge.text import content_tokens, is_provenance_note, without_notes
from finqa.lexicon.answer_form import (
    alternatives,
    date_asked,
    names_alternative,
    states_date,
    states_share,
)
from finqa.lexicon.asked_measure import either_or_options, unnamed_measure
from finqa.lexicon.causes import states_movement_cause
from finqa.lexicon.comparison import item_comparison, states_comparison
from finqa.lexicon.intent import (
    asks_share,
    asks_which_period,
    choice_options,
    declares_not_relevant,
    leading_yes_no,
    nil_words,
    states_cause,
    states_verdict,
)
from finqa.lexicon.metrics import find_metrics
from finqa.lexicon.movement import pattern as movement_pattern
from finqa.lexicon.movement import without_idioms
from finqa.lexicon.question_intent import read_intent
from finqa.lexicon.question_parts import QuestionPart, is_follow_up
from finqa.lexicon.refusal import declines_part
from finqa.lexicon.sides import own_words

__all__ = ["Facet", "decompose", "check_facets", "assign_claims", "completeness_score"]


@dataclass
class Facet:
    """One part of the question the answer must address."""

    id: str
    kind: str  # verdict | figure | explanation | answer | entity | conditional
    text: str
    part: int  # which sub-question it came from
    period: int | None = None
    metric: str | None = None
    topic: tuple[str, ...] = ()
    addressed: bool = False
    how: str = ""
    meta: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "kind": self.kind,
            "text": self.text,
            "period": self.period,
            "metric": self.metric,
            "addressed": self.addressed,
            "how": self.how,
            # unanswered, and the answer says so ('finqa found no stated reason for ...')
            "declared": bool(self.meta.get("declared")),
        }

    @property
    def dropped(self) -> bool:
        """Left unanswered without the answer saying so: half an answer that looks whole."""
        return not self.addressed and not self.meta.get("declared")


def decompose(question: str, analysis: Any = None) -> list[Facet]:
    """The facet checklist of a question: one facet per part the lexicon's reading of the
    question finds (`lexicon.question_intent`), checked against the answer here. (`analysis` is
    the caller's; the lexicon's reading holds its own.)"""
    intent = read_intent(question)
    parsed = intent.parts
    facets: list[Facet] = [
        Facet(f"c{n}", "conditional", sentence, part)
        for n, (sentence, part) in enumerate(parsed.conditionals)
    ]
    topics = [set(content_tokens(p.text)) for p in parsed.parts]
    for part in parsed.parts:
        i = part.index
        others = (
            set().union(*(t for j, t in enumerate(topics) if j != i)) if len(topics) > 1 else set()
        )
        facets.extend(_part_facets(part, tuple(sorted(topics[i] - others)), len(facets)))
    for f in facets:
        if f.kind == "verdict" and (alt := alternatives(parsed.parts[f.part].text)):
            # 'an expense or a benefit': which one is asked
            f.meta["alternatives"] = [sorted(group) for group in alt]
        elif f.kind == "verdict" and (pair := either_or_options(parsed.parts[f.part].text)):
            # 'help or hurt', 'raise or lower': options no opposites' line holds
            f.meta["effects"] = sorted(o.lower() for o in pair)
        elif f.kind == "verdict" and item_comparison(parsed.parts[f.part].text) is not None:
            # 'did A grow faster than B?': one item's figure or movement is no verdict on both
            f.meta["compares_items"] = True
        if f.kind == "choice":
            options = choice_options(f.text)
            heads = [t[0] for t in (content_tokens(o) for o in options) if t]
            f.meta |= {
                "options": list(options),
                "heads": heads,
                # the part's own words name no option ('segment', 'highest', 'revenue')
                "asked": sorted(set(content_tokens(parsed.parts[f.part].text)) - set(heads)),
                "period": asks_which_period(f.text),
            }
    companies = intent.companies
    if len(companies) >= 2:
        for name in companies:
            facets.append(
                Facet(f"e{len(facets)}", "entity", f"covers {name}", 0, meta={"name": name})
            )
    return facets


_PREFIX = {
    "verdict": "yes/no",
    "explanation": "explain",
    "choice": "choice",
    "figure": "figure",
    "answer": "answer",
}


def _part_facets(part: QuestionPart, topic: tuple[str, ...], offset: int) -> list[Facet]:
    out: list[Facet] = []
    n = offset

    def add(kind: str, text: str, **kw: Any) -> None:
        nonlocal n
        out.append(Facet(f"{kind[0]}{n}", kind, text, part.index, topic=topic, **kw))
        n += 1

    if part.form == "compare":
        for y in part.years:
            add("figure", f"figure for FY{y}", period=y)
            if is_follow_up(part.text):
                # 'And in 2018?': the figure of the part before for that year, wherever the
                # answer states it
                out[-1].meta["follow_up"] = True
    else:
        add(part.form, f"{_PREFIX[part.form]}: {part.text}")
    if part.explain_too:
        add("explanation", f"explain: {part.text}")
    return out


def _mentions_year(answer: str, year: int) -> bool:
    return any(y == year for y, _s, _e in _lex.year_mentions(answer))


def assign_claims(
    facets: Sequence[Facet], claims: Sequence[str], numbers: Sequence[int]
) -> list[int]:
    """The question part each claim answers: the part whose own words it shares most. A claim
    sharing none continues the previous claim's part, unless it comes after every claim that
    could be placed while later parts still have no claim: answers follow the question's order."""
    parts = sorted({f.part for f in facets if f.kind != "conditional"})
    if not parts:
        return [0] * len(claims)
    topics = {p: set().union(*(set(f.topic) for f in facets if f.part == p)) for p in parts}
    placed: list[int | None] = []
    for text in claims:
        tokens = set(content_tokens(text))
        scores = {p: len(tokens & topics[p]) for p in parts}
        best = max(parts, key=lambda p: (scores[p], -p))
        placed.append(best if scores[best] else None)
    verdict_parts = [q for q in parts if any(f.part == q and f.kind == "verdict" for f in facets)]
    for i, text in enumerate(claims):
        if leading_yes_no(text) is not None and verdict_parts:
            # 'Yes, ...' answers a yes/no part: the first one not already answered so
            taken = {placed[j] for j in range(i) if leading_yes_no(claims[j]) is not None}
            free = [q for q in verdict_parts if q not in taken]
            placed[i] = free[0] if free else placed[i]
    moving = [
        q
        for q in parts
        if any(f.part == q and f.kind == "figure" and _names_movement(f.text) for f in facets)
    ]
    if len(moving) == 1 and len(parts) > 1:
        named = {
            m.canonical
            for f in facets
            if f.part == moving[0] and f.kind == "figure"
            for m in find_metrics(f.text)
        }
        for i, text in enumerate(claims):
            if _OPENS_MOVEMENT.match(text) and (
                not named or named & {m.canonical for m in find_metrics(text)}
            ):
                # 'The growth in revenue of X was 24.2%': the figure of the one part asking a
                # movement ('how fast did its revenue grow?', 'how much did the balance
                # change?'), whatever names it shares, when it moves what that part names (not
                # 'Change in operating margin' for 'how much did its operating income fall')
                placed[i] = moving[0]
    cause_parts = [q for q in parts if any(f.part == q and f.kind == "explanation" for f in facets)]
    for i, text in enumerate(claims):
        if cause_parts and (states_movement_cause(text) or declines_part(text)):
            # a claim explaining a movement ('X decreased, primarily due to ...') or saying no
            # cause was found answers the part asking what drove it, whatever words it shares
            placed[i] = cause_parts[0]
    last_placed = max((i for i, p in enumerate(placed) if p is not None), default=-1)
    out: list[int] = []
    for i, p in enumerate(placed):
        if p is None:
            prev = out[-1] if out else parts[0]
            empty = [q for q in parts if q > prev and q not in out and q not in placed]
            p = empty[0] if i > last_placed and empty and out else prev
        out.append(p)
    return _figures_to_follow_up(facets, claims, numbers, out, verdict_parts)


# a claim stating a movement's figure as its subject ('The growth in revenue of X was 24.2%',
# 'Change in cash, FY2014 to FY2015: ...')
_OPENS_MOVEMENT = re.compile(
    r"^\W*(?:the\s+)?(?:year-over-year\s+)?(?:growth|change|increase|decrease|decline|rise|fall)"
    r"\s+(?:in|of)\b",
    re.I,
)


def _names_movement(part: str) -> bool:
    """A part asking a movement: 'how fast did X grow', 'by how much did X change'."""
    return bool(movement_pattern().search(without_idioms(part)))


_FOLLOW_UP_WORDS = 2  # 'how much in total', 'how large was it': no subject of its own


def _figures_to_follow_up(
    facets: Sequence[Facet],
    claims: Sequence[str],
    numbers: Sequence[int],
    owner: list[int],
    verdict_parts: Sequence[int],
) -> list[int]:
    """A figure part right after a yes/no part ('Did X pay dividends? If so, how much?') is
    answered by the figures given with the verdict: a yes/no needs no figure of its own, so
    the claims of the verdict part that state one (not its bare 'Yes.') move to the figure part
    when it has none."""
    figure_parts = {f.part for f in facets if f.kind == "figure"}
    for p in sorted(figure_parts):
        if p in owner or p - 1 not in verdict_parts or p - 1 in figure_parts:
            continue
        if any(f.part == p and (f.metric or len(f.topic) > _FOLLOW_UP_WORDS) for f in facets):
            continue  # the part names a subject of its own ('What was its interest coverage?')
        for i, o in enumerate(owner):
            if o == p - 1 and numbers[i] > 0 and leading_yes_no(claims[i]) is None:
                owner[i] = p
    return owner


_WHICH_WAY = re.compile(r"\bwhich\s+(?:direction|way)\b", re.I)


def _names_option(f: Facet, text: str, evidence_tokens: frozenset[str] | None) -> tuple[bool, str]:
    """Does `text` name what a choice facet asks to pick (an option the question lists, else a
    thing the evidence names that the question does not, or the period asked for)?"""
    if f.meta.get("period"):
        years = sorted({y for y, _s, _e in _lex.year_mentions(text)})
        if years:
            return True, f"names FY{years[0]}"
        return False, "names no period: the question asks which one"
    text = without_notes(text)
    if _WHICH_WAY.search(f.text):
        # 'in which direction?': a word of the movement's way answers it ('fell', 'rose')
        way = movement_pattern(("up", "down")).search(without_idioms(text))
        if way:
            return True, f"names {way.group(0).lower()}"
        return False, "names no direction: a figure alone does not say which way"
    plain = text
    for q in reversed(_lex.extract_quantities(text)):
        plain = plain[: q.start] + " " + plain[q.end :]  # figures (and their units) name nothing
    tokens = set(content_tokens(plain))
    heads = list(f.meta.get("heads") or ())
    if heads:
        named = [h for h in heads if h in tokens]
        if named:
            return True, f"names {named[0]}"
        listed = ", ".join(str(o) for o in f.meta.get("options") or ())
        return False, f"names none of the options the question lists ({listed})"
    new = tokens - set(f.meta.get("asked") or ())
    if evidence_tokens:
        new &= evidence_tokens
    if new:
        return True, f"names {sorted(new)[0]}"
    return False, "names none of the options: a figure alone does not say which one"


def _with_named_lead(claims: Sequence[str], owner: Sequence[int], part: int) -> list[str]:
    """The claims of `part`, and the claim just before its first one when that claim is a bare
    name with no figure ('Corporate & Investment Bank. Its net income was $3,725 million.'):
    the name heads the part's answer even when it shares no word with its question."""
    mine = [i for i, o in enumerate(owner) if o == part]
    if not mine:
        return []
    lead = mine[0] - 1
    take = lead >= 0 and not any(ch.isdigit() for ch in claims[lead])
    return [claims[i] for i in ([lead] if take else []) + mine]


def _facet_text(
    f: Facet, answer: str, claims: Sequence[str], owner: Sequence[int], mine: list[str] | None
) -> str:
    """What a facet is checked against: the whole answer, or with several parts the claims of
    its own part (a choice also the bare name heading them)."""
    if mine is None:
        return answer
    if f.kind == "verdict" and not mine:
        # 'A deferred tax benefit of $1,250 million': one claim naming the option with its
        # size, given to the follow-up figure part ('and how large was it?'), answers both
        return " ".join(c for c, o in zip(claims, owner, strict=False) if o == f.part + 1)
    if f.kind == "choice":
        return " ".join(_with_named_lead(claims, owner, f.part))
    return " ".join(mine)


def _verdict_given(f: Facet, text: str) -> tuple[bool, str]:
    """A verdict is stated; where the question offers two opposites ('an expense or a
    benefit'), naming one in the answer's own words is the verdict and a bare Yes is none (the
    words of a caption it quotes or copies, 'Other expense (income)', name neither)."""
    alt = f.meta.get("alternatives")
    if alt:
        # finqa's own note on how a figure was made names its operands ('from income tax
        # expense FY2017 = -9,956'), no side of the line
        named = names_alternative(without_notes(own_words(text)), alt)
        return named, "option named" if named else "names neither option offered"
    if f.meta.get("compares_items"):
        stated = states_comparison(text)
        return stated, "comparison stated" if stated else "no comparison of the two items stated"
    stated = states_verdict(text)
    options = f.meta.get("effects")
    if options and not stated:
        # 'did that line help or hurt pre-tax income?': naming one option is the verdict
        words = set(re.findall(r"[a-z]+", own_words(text).lower()))
        stated = bool(words & set(options))
        return stated, "option named" if stated else ""
    return stated, "verdict stated" if stated else ""


def _verdict_part(f: Facet, text: str, follow: Sequence[str]) -> tuple[bool, str]:
    """A verdict part is answered by its own claims; where it offers two options ('did X
    record net other income or net other expense ..., and how much?'), also by the claims of
    the figure part that follows: the claim giving the size names the option too ('net other
    income of $196 million')."""
    given = _verdict_given(f, text)
    if given[0] or not follow or not (f.meta.get("alternatives") or f.meta.get("effects")):
        return given
    if _verdict_given(f, " ".join(follow))[0]:
        return True, "option named with the figure that follows"
    return given


def _explained(
    f: Facet, mine: Sequence[str], text: str, multi_part: bool, lone_cause: bool = True
) -> bool:
    """An explanation part is answered. Beside another part, only a claim explaining a movement
    answers it (`lexicon.causes.states_movement_cause`): the other part's own sentences
    ('computed from ...') explain no cause; alone, a causal word or three words of content."""
    if multi_part:
        if any(states_movement_cause(c) and not declines_part(c) for c in mine):
            return True
        # a cause in words, stated without a marker ('Higher sales of server processors and
        # the inclusion of the acquired business'): a claim of its own that states no figure,
        # beside a figure or verdict part (two parts asking causes share their words)
        if not lone_cause:
            return False
        words = [c for c in mine if not _FIGURE.search(c) and not declines_part(c)]
        return any(_cause_in_words(f, c) for c in words)
    return _cause_in_words(f, text) if mine else False


# a figure a claim states: an amount, a percentage, a number with thousands separators
_FIGURE = re.compile(
    r"\$\s*\d|\d\s*%|\d(?:[\d,]*\.?\d+)?\s*(?:percent|per cent|million|billion|thousand)\b"
    r"|\b\d{1,3}(?:,\d{3})+\b",
    re.I,
)


def _cause_in_words(f: Facet, text: str) -> bool:
    """A causal word, or three words of content beyond the part's own topic."""
    tokens = set(content_tokens(text))
    return states_cause(text) or len(tokens - set(f.topic)) >= 3


_FIGURE_TOKEN = re.compile(r"\d[\d,]*(?:\.\d+)?")


def _measure_text(own: str, answer: str, n_claims: int) -> str:
    """The words a figure part's measure is read from: the claims it owns; the whole answer
    when it is one claim, or when the part's claims only restate figures the rest of the
    answer states ('Answer: 8.4%' after 'The growth in revenue ... was 8.4%')."""
    if n_claims <= 1:
        return answer
    figures = set(_FIGURE_TOKEN.findall(own))
    rest = answer.replace(own, " ") if own and own in answer else answer
    if figures and figures <= set(_FIGURE_TOKEN.findall(rest)):
        return answer
    return own


_HOW_MUCH = re.compile(
    r"\bhow\s+(?:much|many|large|big|fast|quickly|rapidly)\b|\bwhat\s+(?:was|is)\s+the\b", re.I
)


# a percentage, or a rate written as a fraction ('0.0062'), not a page reference ('p.36')
_PERCENT = re.compile(
    r"\d\s*%|\bper\s*cent\b|\bpercent\b|(?<![\w.$])(?<!p\.)-?\d*\.\d+\b(?!\s*(?:million|billion|"
    r"thousand))",
    re.I,
)


def _percent_of(text: str, year: int) -> bool:
    """A clause of the answer that names the year states a percentage or a rate ('for FY2016
    was 12.1%', '0.0062 in FY2022'); operands listed for the year ('revenue FY2016 $9,409
    million') are not one."""
    return any(_mentions_year(c, year) and _PERCENT.search(c) for c in _clauses(text))


def _clauses(text: str) -> list[str]:
    """The answer's clauses: its sentences, cut again at semicolons."""
    return re.split(r";\s*|(?<=[.!?])\s+(?=[A-Z(])", text)


def _asks_movement(part: str) -> bool:
    """A figure part asking the size of a movement ('how much did that balance increase',
    'what was the change in ...')."""
    text = without_idioms(part)
    return bool(_HOW_MUCH.search(text) and movement_pattern().search(text))


# an open question about a movement: 'what happened to X between 2015 and 2016', 'how did X
# change', 'how has X trended'
_HOW_MOVED = re.compile(
    r"\bwhat\s+happened\s+to\b|\bhow\s+(?:did|has|have|does)\b[^?]*?\b(?:chang|mov|evolv|trend)\w*",
    re.I,
)


def _years_with_figures(text: str, percent: bool) -> set[int]:
    """The years the answer states a figure of the asked kind for ('FY2021: 36.0%, FY2022:
    31.8%' states two): two years' figures show the movement between them."""
    years = {y for y, _s, _e in _lex.year_mentions(text)}
    if percent:
        return {y for y in years if _percent_of(text, y)}
    clauses = _clauses(text)
    return {y for y in years if any(_mentions_year(c, y) and _FIGURE.search(c) for c in clauses)}


def _asks_how_moved(part: str) -> bool:
    return bool(_HOW_MOVED.search(part))


def _states_movement(text: str) -> bool:
    """Claims stating a movement: a movement word ('increased', 'Change in ...', 'growth'), or
    a bare figure that says nothing else ('0.2%.'): only a figure stated as something else (a
    level: 'Cash ... as of May 31, 2015: $3,852 million') is no movement."""
    if len(re.findall(r"[A-Za-z]{2,}", text)) < 2:
        return True
    return bool(movement_pattern().search(without_idioms(text)))


def _figure_part(
    f: Facet, facets: Sequence[Facet], text: str, numbers: int, seen: int, not_relevant: bool
) -> None:
    """A figure facet is addressed by a figure of its period (one for each period its part
    asks), or by the answer's `seen`-th figure; a metric declared not relevant waives it."""
    periods = [g.period for g in facets if g.part == f.part and g.kind == "figure" and g.period]
    if f.period is not None and _mentions_year(text, f.period) and numbers:
        f.addressed, f.how = True, f"FY{f.period} mentioned with a figure"
    elif f.period is not None:
        others = any(_mentions_year(text, p) for p in periods if p != f.period)
        if numbers >= len(periods) and not others:
            f.addressed, f.how = True, "a figure for each period"
    elif numbers >= seen:
        f.addressed, f.how = True, f"figure #{seen} given"
    elif not_relevant:
        f.addressed, f.how = True, "metric declared not relevant"


def check_facets(
    facets: Sequence[Facet],
    answer: str,
    n_numbers: int,
    claims: Sequence[str],
    claim_numbers: Sequence[int] | None = None,
    evidence_tokens: frozenset[str] | None = None,
    percent: bool = False,
) -> list[Facet]:
    """Mark each facet addressed or not; conditional facets only count when triggered.

    With several question parts, each part is checked against the claims assigned to it;
    `evidence_tokens` (the content words of the evidence) are what a choice can name;
    `percent`: the asked figure is a percentage, so each period's figure is one (a margin's
    operands for a year are not its margin)."""
    not_relevant = declares_not_relevant(answer)
    multi_part = len({f.part for f in facets if f.kind != "conditional"}) > 1
    # the one part asking a cause beside parts asking figures or verdicts
    lone_cause = sum(f.kind == "explanation" for f in facets) == 1
    per_claim = list(claim_numbers) if claim_numbers is not None else [0] * len(claims)
    owner = assign_claims(facets, claims, per_claim) if multi_part else [0] * len(claims)
    waived = {f.part for f in facets if f.kind == "conditional"} if not_relevant else set()
    figures_seen: dict[int, int] = {}
    for f in facets:
        if f.part in waived and f.kind in ("figure", "explanation", "verdict"):
            f.addressed, f.how = True, "waived: the answer declares the metric not relevant"
            continue
        mine, text, numbers = _facet_inputs(f, answer, claims, owner, per_claim, n_numbers, multi_part)  # fmt: skip
        tokens = set(content_tokens(text))
        if f.kind == "conditional":
            f.meta["triggered"] = not_relevant
            f.addressed = not not_relevant or states_cause(answer) or len(tokens) >= 6
            f.how = (
                "explained"
                if not_relevant and f.addressed
                else ("not triggered" if not not_relevant else "")
            )
        elif f.kind == "verdict":
            follow = [c for c, o in zip(claims, owner, strict=False) if o == f.part + 1]
            f.addressed, f.how = _verdict_part(f, text, follow if multi_part else [])
        elif f.kind == "figure":
            seen = figures_seen[f.part] = figures_seen.get(f.part, 0) + 1
            _figure_part(f, facets, text, numbers, seen, not_relevant)
            if (
                f.addressed
                and percent
                and not multi_part
                and f.period is not None
                and not _percent_of(text, f.period)
            ):
                f.addressed, f.how = False, f"no percentage given for FY{f.period}"
            if f.addressed and multi_part and not not_relevant:
                _own_measure(f, text, _measure_text(text, answer, len(claims)), answer)
        elif f.kind == "explanation":
            effect = check_effect(f.text, answer)
            if effect is not None:
                # 'how did it affect Y?': the way the line moved Y, checked against its side
                f.addressed, f.how = effect.addressed, effect.how
                continue
            f.addressed = _explained(f, mine, text, multi_part, lone_cause)
            f.how = "explanation given" if f.addressed else ""
        elif f.kind == "choice":
            f.addressed, f.how = _names_option(f, text, evidence_tokens)
        elif f.kind == "entity":
            name = str(f.meta.get("name", ""))
            f.addressed = name.lower().split()[0] in answer.lower() if name else True
            f.how = "entity named" if f.addressed else ""
        else:
            # claims saying the part was not found ('finqa found no answer to ...') name it
            # unanswered (`_declared`), they do not answer it
            f.addressed = (bool(tokens) or bool(numbers)) and not declines_part(text)
            f.how = "answered" if f.addressed else ""
            if f.addressed:
                _answer_part(f, text, percent)
    if multi_part and not not_relevant:
        _same_figure_parts(facets, claims)
    _declared(facets, claims, owner)
    return list(facets)


def _same_figure_parts(facets: Sequence[Facet], claims: Sequence[str]) -> None:
    """Parts asking figures are answered by as many distinct figures: an answer stating one
    figure, however often ('total net sales, and how much dual-credit sales were eliminated?'
    answered with net sales, repeated), leaves the last figure part unanswered, whatever words
    the repeated figure's sentences share with it. Figures the answer quotes (a line as
    printed) or notes of finqa's own are not stated figures."""
    figure_parts = [f for f in facets if f.kind == "figure" and not f.meta.get("follow_up")]
    parts = list(dict.fromkeys(f.part for f in figure_parts))
    if len(parts) < 2:
        return
    stated = {
        round(float(q.value) * float(q.scale or 1.0), 6)
        for c in claims
        if not is_provenance_note(c)
        for q in _lex.extract_quantities(own_words(c))
        if not _lex.year_mentions(q.text)
    }
    if len(stated) >= len(parts):
        return
    for f in figure_parts:
        if f.part == parts[-1] and f.addressed:
            f.addressed, f.how = (
                False,
                f"{len(stated)} distinct figure(s) for {len(parts)} figure parts",
            )


def _own_measure(f: Facet, text: str, measure_text: str, answer: str) -> None:
    """A figure part beside others is answered by a figure of its own measure, not by any
    figure of its year: unaddressed otherwise, with the reason."""
    other = unnamed_measure(f.text, measure_text)
    if other is not None:
        f.addressed, f.how = False, f"no figure of '{other}' given"
    elif _asks_movement(f.text) and not _states_movement(text):
        # 'and how much did that balance increase?': a level is no movement
        f.addressed, f.how = False, "no movement given for the movement asked"
    elif (
        asks_share(f.text)
        and not states_share(answer)
        and (not _PERCENT.search(text) or movement_pattern().search(without_idioms(text)))
    ):
        # 'how large a share of revenue came from gas, and how fast did it grow?': an answer
        # stating no share anywhere, its part's figure an amount or a growth, gives none (a
        # bare percentage may be the share)
        f.addressed, f.how = False, "no share of the whole given for the share asked"


def _answer_part(f: Facet, text: str, percent: bool) -> None:
    """A part of no set form is answered by what it asks: a date for a date, a movement for
    a movement; unaddressed otherwise, with the reason."""
    when = date_asked(f.text)
    if when is not None and not states_date(text, when):
        # 'If so, on what date?': 'On the Effective Date, ...' names no date
        f.addressed, f.how = False, f"no {'date' if when == 'day' else 'period'} given"
    elif (
        _asks_how_moved(f.text)
        and not _states_movement(text)
        and len(_years_with_figures(text, percent)) < 2
    ):
        # 'what happened to X between 2015 and 2016?': one year's level says not
        f.addressed, f.how = False, "no movement given for the movement asked"


def _facet_inputs(
    f: Facet,
    answer: str,
    claims: Sequence[str],
    owner: Sequence[int],
    per_claim: Sequence[int],
    n_numbers: int,
    multi_part: bool,
) -> tuple[list[str], str, int]:
    """A facet's own claims, the text it is checked against and the figures that text gives:
    its part's claims (the whole answer for a question of one part, or for a follow-up asking
    the part before again for another year, 'And in 2018?')."""
    mine = [c for c, o in zip(claims, owner, strict=False) if o == f.part or not multi_part]
    text = _facet_text(f, answer, claims, owner, mine if multi_part else None)
    if f.meta.get("follow_up"):
        text, mine = answer, list(claims)
    if multi_part and not f.meta.get("follow_up"):
        numbers = sum(n for n, o in zip(per_claim, owner, strict=False) if o == f.part)
    else:
        numbers = n_numbers
    return mine, text, numbers + nil_words(text)


def _declared(facets: Sequence[Facet], claims: Sequence[str], owner: Sequence[int]) -> None:
    """Mark each unanswered part whose claims say nothing was found for it ('finqa found no
    stated reason for ... in the retrieved pages'): unanswered, but named, not dropped. Only
    beside another part: an answer to a question of one part that finds nothing abstains."""
    if len({f.part for f in facets if f.kind != "conditional"}) < 2:
        return
    for f in facets:
        if f.addressed or f.kind == "conditional":
            continue
        text = " ".join(c for c, o in zip(claims, owner, strict=False) if o == f.part)
        if declines_part(text):
            f.meta["declared"] = True
            f.how = "stated as not found by the answer"


def completeness_score(facets: Sequence[Facet]) -> float:
    counted = [f for f in facets if f.kind != "conditional" or f.meta.get("triggered")]
    if not counted:
        return 1.0
    return sum(f.addressed for f in counted) / len(counted)
