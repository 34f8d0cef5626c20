"""Answers to 'what drove / what caused / why did X change' questions, read from the filing's own
explanation: the evidence sentence that names X and states a cause of its movement ('Gross
margin decreased primarily due to ...', 'The increase was driven by ..., partially offset by
...'), quoted with its figures and cited.

- X, the figure asked about, is read through the catalogue: the metric or line item the
  question names (`lexicon.find_metrics`) with its synonyms, its main line item and, for a
  ratio, the line items on top of it (an operating margin moves with operating income, a gross
  margin with the cost of sales). A
  question naming no catalogue figure names X by its own content words (at least half of them).
- A cause sentence holds a cause marker of `lexicon.causes` ('due to', 'driven by', 'offset
  by', ...) and states what happened (no 'may', 'could', 'we expect', 'if': risk factors and
  outlooks use the same markers). Before its marker it names X and a movement ('Gross margin
  decreased ... due to'), or it opens on the movement of X the sentence before it names ('Net
  revenue was $23.6 billion, up 44%. The increase was primarily driven by ...'): both are quoted.
- A question naming two lines one line bridges ('Why did net income exceed income before
  taxes?') asks about that line (`lexicon.causes.asked_bridge`: income taxes): X is it, and a
  sentence naming it with a cause explains the gap, with or without a movement word.
- A sentence about a part's figure ('Data Center operating income was ...') does not explain
  the company's figure: a capitalised name before X that the question does not use rules it out.
  The other way round, a question about a part (`lexicon.dimension_question.asked_dimension`:
  'the Environmental Technologies segment') is explained only by a sentence naming that part
  before its cause marker (one naming it in an offsetting clause explains the company's figure).
- The movement asked: the question's own movement word for X, not a yes/no part's ('Did X
  improve? What drove it?' asks which way it went: `lexicon.question_parts.movement_wording`)
  ('higher', 'the reduction in';
  'net loss' is the result's negative side: `lexicon.causes.stated_direction`), else the way the
  statement model's figures of X moved into the asked year. A sentence stating X moving the
  other way explains another movement ('foreign earnings lowered our effective tax rate' when
  the rate rose) and is never quoted; one stating the asked movement ranks first.
- A sentence ending '... driven by:' is followed by its list of causes, one a line, in the filing.
- Ranked by how much of the question's subject they cover, the management's discussion first
  (`lexicon.causes.is_discussion_section`), a quarter's sentence after the year's when the
  question asks no quarter, then retrieval rank. The best one leads; a second, from another
  place and about no other year, follows when it ranks close to it.
- No such sentence: the answer abstains and says what it looked for.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Any

from finqa.agents.reasoning.confidence import confidence_signals
from finqa.agents.reasoning.offline.extractive import content_words, listed_after, prose_sentences
from finqa.agents.reasoning.offline.sentences import subject_terms
from finqa.agents.reasoning.offline.verdict_kit import offline_answer
from finqa.agents.types import Answer, Citation, Evidence, EvidenceItem
from finqa.lexicon import find_companies, find_metrics, find_periods, get_metric
from finqa.lexicon.causes import (
    Direction,
    asked_bridge,
    is_discussion_section,
    is_hypothetical,
    movement_noun,
    names_movement,
    opens_on_movement,
    split_at_cause,
    stated_direction,
)
from finqa.lexicon.entities import calendar_years
from finqa.lexicon.formula import numerator_inputs
from finqa.lexicon.line_items import get_line_item, item_for_metric
from finqa.lexicon.metrics import Metric
from finqa.lexicon.movement import against_stated_change, change_percents, stated_change_percents
from finqa.lexicon.movement import observed_direction as movement_between
from finqa.lexicon.periods import other_years_stated
from finqa.lexicon.question_ask import read_ask
from finqa.lexicon.question_frame import cause_frame_words
from finqa.lexicon.question_parts import movement_wording
from finqa.lexicon.statements.store import STORE_READ_ERRORS
from finqa.lexicon.stems import stem

__all__ = ["cause_answer", "cause_subject", "cause_target", "CauseTarget", "SECOND_WITHIN"]

CANNOT = "cannot determine from the filings"
# a second cause sentence is quoted when it ranks within this share of the best (product rule:
# a close second often carries the offsetting factor; crossval's per-mode gate may withhold more)
SECOND_WITHIN = 0.75
_DISCUSSION_BONUS = (
    1.5  # the management's discussion explains results; notes and risk factors rarely
)
_OTHER_PERIOD = 0.5  # a quarter's explanation when the year's is asked
# words quoted at most: an answer, not a page (the judge takes 120 words of evidence for a copy)
_MAX_WORDS = 100
# capitalised words before a figure's name that do not make it a part's figure
_GENERIC = frozenset({"the", "total", "net", "consolidated", "our", "its", "company", "fiscal", "gaap", "reported", "as", "in", "for"})  # fmt: skip
_PUNCT = ".,;:()'\"\u2019"
# lower-case words of a line's own name the catalogue phrase leaves out ('net income')
_LINE_WORDS = frozenset({"net", "total", "consolidated"})
_SUB_ANNUAL = frozenset({"quarter", "half", "ytd"})
_AGREES = 1.25  # a sentence stating the asked movement of X ranks before one stating none


@dataclass(frozen=True)
class CauseTarget:
    """The figure X a cause question asks about: its label, the phrases that name it (each a set
    of stems) and the question's subject stems (for ranking)."""

    label: str
    phrases: tuple[frozenset[str], ...]
    subject: frozenset[str]
    quarter_asked: bool
    asked: frozenset[str] = frozenset()  # the question's own words, lower case
    # the lines the question names when X is the line bridging them (income before taxes and
    # net income, X income taxes: `lexicon.causes.asked_bridge`); () otherwise
    bridged: tuple[str, ...] = ()
    bridge: str | None = None  # the bridging line's catalogue key
    # X's own names (lower case; not the lines on top of a ratio, which may move the other
    # way), its catalogue key and the movement asked of it (+1 up, -1 down, None unknown)
    names: tuple[str, ...] = ()
    metric: str | None = None
    direction: Direction | None = None
    # the part the question names ('the Environmental Technologies segment': lower case), whose
    # figure's movement a sentence about the company's does not explain; '' for the company
    part: str = ""
    # X's percent changes into the asked year as the statement model reads them (an amount's;
    # () unread): a sentence stating another size of change explains another figure
    change: tuple[float, ...] = ()

    def qualifier(self, topic: str) -> list[str]:
        """The capitalised name right before X in `topic` that the question does not use
        ('Data Center operating income' when the company's operating income is asked): the
        sentence explains a part's figure (a segment, a product line), not the company's."""
        words = topic.split()
        stems = [_norm(stem(w.lower().strip(_PUNCT))) for w in words]
        for i in range(len(words)):
            # where a whole name of X starts ('net income'), not any one word of one ('rates'
            # of 'tax rate' in 'exchange rates')
            if not any(set(stems[i : i + len(p)]) == p for p in self.phrases if p):
                continue
            names: list[str] = []
            start = i
            while start > 0 and words[start - 1].strip(_PUNCT) in _LINE_WORDS:
                start -= 1  # 'Display Technologies net income': 'net' is of the line's name
            for prev in reversed(words[max(0, start - 3) : start]):
                bare = prev.strip(_PUNCT)
                if not bare[:1].isupper() or bare.lower() in _GENERIC:
                    break
                names.insert(0, bare)
            return [n for n in names if _possessor(n) not in self.asked]
        return []

    def named_in(self, bag: set[str]) -> bool:
        """The sentence (its stems) names X: a whole phrase of X, or at least half of the
        subject's stems when no catalogue phrase names X."""
        if self.phrases:
            return any(p <= bag for p in self.phrases)
        return bool(self.subject) and 2 * len(self.subject & bag) >= len(self.subject)


def _names_x(target: CauseTarget, text: str, bag: set[str]) -> bool:
    """The text names X: for a bridging line, the catalogue reads that line in it ('the
    provision for income taxes', not 'income before income taxes', whose words hold it)."""
    if target.bridge is not None:
        return any(m.canonical == target.bridge for m in find_metrics(text))
    return target.named_in(bag)


def _topic_text(sentence: str) -> str:
    """What a sentence is about: its words before its cause marker, if it has one."""
    split = split_at_cause(sentence)
    return split[0] if split else sentence


def _stems(text: str) -> set[str]:
    return {_norm(stem(w)) for w in content_words(text)}


def _possessor(word: str) -> str:
    """A name's word without its possessive ('Acme's' -> 'acme'), lower case."""
    return re.sub(r"['\u2019]s$", "", word.lower())


def _norm(s: str) -> str:
    """Stems meet across the crude stemmer's gaps: 'airline'/'airlin', 'percentage' (stem
    'percentag')/'percent'."""
    if s.endswith("age") and len(s) > 7:
        return s[:-3]
    if s.endswith("ag") and len(s) > 7:
        return s[:-2]
    return s[:-1] if s.endswith("e") and len(s) > 4 else s


def cause_target(question: str) -> CauseTarget:
    """X read from the question through the catalogue (see the module docstring)."""
    bridge = asked_bridge(question)
    if bridge is not None:
        return _bridge_target(question, bridge)
    phrases: list[str] = []
    labels: list[str] = []
    spans: list[tuple[int, int]] = []
    found = find_metrics(question)
    own: tuple[str, ...] = ()
    if found:
        first = get_metric(found[0].canonical)
        own = tuple(
            dict.fromkeys(
                p.lower()
                for p in (found[0].matched, first.name, *first.synonyms, *first.line_items)
            )
        )
    for m in found:
        metric = get_metric(m.canonical)
        spans.append((m.start, m.end))
        labels.append(m.matched)
        phrases += [m.matched, metric.name, *metric.synonyms, *metric.line_items[:1]]
        items = [item_for_metric(metric.id)]
        top = numerator_inputs(metric.formula or "")
        operands = set(metric.inputs)
        if (
            top
        ):  # a ratio moves with the line items on top of it (a gross margin with cost of sales)
            items += [item_for_metric(x) for x in top]
        elif len(operands) == 1:  # a growth rate or change of one line item
            items.append(item_for_metric(operands.pop()))
        for item_id in items:
            item = get_line_item(item_id) if item_id else None
            if item is not None:
                phrases += [item.name, *item.labels]
    subject = {_norm(stem(w)) for w in subject_terms(question) if w not in cause_frame_words()}
    stemmed = {frozenset(s) for p in phrases if (s := _stems(p) - {"total", "net"})}
    quarter = any(p.kind in _SUB_ANNUAL for p in find_periods(question))
    label = ", ".join(dict.fromkeys(labels)) or " ".join(
        w for w in subject_terms(question) if w not in cause_frame_words()
    )
    asked = frozenset(w.lower().strip(_PUNCT) for w in question.replace("'s", " ").split())
    return CauseTarget(
        label or "the figure asked about",
        tuple(stemmed),
        frozenset(subject),
        quarter,
        asked,
        names=own,
        metric=found[0].canonical if found else None,
        direction=stated_direction(
            movement_wording(question), own, found[0].canonical if found else None
        ),
        part=_asked_part(question),
    )


def _asked_part(question: str) -> str:
    """The segment, region or product line the question names (`lexicon.dimension_question`),
    lower case; '' when it names none."""
    from finqa.lexicon.dimension_question import asked_dimension

    asked = asked_dimension(question)
    return " ".join(asked.phrase.lower().split()) if asked is not None and asked.phrase else ""


def _bridge_target(question: str, bridge: Metric) -> CauseTarget:
    """X when the question names two lines one line bridges: that line (income taxes between
    income before taxes and net income), named by its catalogue phrases; what moved either of
    the two lines does not explain why they differ."""
    item = get_line_item(item_for_metric(bridge.id) or "")
    phrases = [bridge.name, *bridge.synonyms, *bridge.line_items, *(item.labels if item else ())]
    stemmed = {frozenset(s) for p in phrases if (s := _stems(p) - {"total", "net"})}
    quarter = any(p.kind in _SUB_ANNUAL for p in find_periods(question))
    asked = frozenset(w.lower().strip(_PUNCT) for w in question.replace("'s", " ").split())
    named = tuple(dict.fromkeys(m.matched for m in find_metrics(question)))
    subject = frozenset(_stems(bridge.name) - {"total", "net"})
    return CauseTarget(
        bridge.name.lower(), tuple(stemmed), subject, quarter, asked, named, bridge.id
    )


@dataclass(frozen=True)
class _Unit:
    cause: str  # the sentence with the cause marker
    context: str  # the sentence before it naming the figure ('' when the cause names it)
    marker: str
    score: float
    coverage: float
    item: EvidenceItem

    @property
    def text(self) -> str:
        return f"{self.context} {self.cause}" if self.context else self.cause

    def fitted(self, words: int) -> str:
        """The unit, or its cause sentence alone when the unit is longer than `words`."""
        return self.text if _words(self.text) <= words or not self.context else self.cause


def _units(target: CauseTarget, evidence: Evidence) -> list[_Unit]:
    out: list[_Unit] = []
    for idx, item in enumerate(evidence.items):
        sents = prose_sentences(item.text)
        bags = [_stems(s) for s in sents]
        # what each sentence is about: the part before its cause marker, if it has one
        topics = [
            _stems(sp[0]) if (sp := split_at_cause(s)) else b
            for s, b in zip(sents, bags, strict=True)
        ]
        for j, s in enumerate(sents):
            split = split_at_cause(s)
            if split is None or is_hypothetical(s):
                continue
            moved, marker, _cause = split
            own = _stems(moved)
            if (
                j > 0
                and opens_on_movement(s)
                and _names_x(target, _topic_text(sents[j - 1]), topics[j - 1])
                and (_names_x(target, moved, own) or not find_metrics(moved))
            ):
                # 'The increase was ...': the movement of the figure the sentence before names
                # (not 'The decrease in gross margin ...', which names its own figure)
                if is_hypothetical(sents[j - 1]):
                    continue
                context, bag = sents[j - 1], bags[j - 1] | bags[j]
                topic = (split_at_cause(context) or (context, "", ""))[0]
            elif (names_movement(moved) or target.bridged) and _names_x(target, moved, own):
                # 'X decreased ... due to ...': X and its movement come before the cause (a
                # bridging line's amount is the gap asked about: 'The income tax benefit was
                # primarily due to ...' explains it without a movement word)
                context, bag, topic = "", bags[j], moved
            else:
                continue
            if target.qualifier(topic):
                continue  # a segment's or product line's figure, not the one asked about
            if target.part and target.part not in " ".join(f"{context} {moved}".lower().split()):
                continue  # the company's (or another part's) movement, not the part's asked
            way = stated_direction(f"{_topic_text(context)} {moved}", target.names, target.metric)
            if target.direction is not None and way == -target.direction:
                continue  # X moving the other way: it explains another movement
            if against_stated_change(
                stated_change_percents(f"{_topic_text(context)} {moved}"), target.change
            ):
                continue  # 'decreased 11%' where X fell 2%: a division's or another line's
            cov = len(target.subject & bag) / len(target.subject) if target.subject else 1.0
            score = (1.0 + cov) / (1 + 0.05 * idx)
            if target.direction is not None and way == target.direction:
                score *= _AGREES
            if is_discussion_section(item.section):
                score *= _DISCUSSION_BONUS
            text = f"{context} {s}" if context else s
            if not target.quarter_asked and any(p.kind in _SUB_ANNUAL for p in find_periods(text)):
                score *= _OTHER_PERIOD
            listed = listed_after(item.text, s) if not _cause.strip(" :") else []
            if not _cause.strip(" :") and not listed:
                continue  # '... driven by:' with nothing after it names no cause
            cause = f"{s} {'; '.join(listed)}" if listed else s
            out.append(_Unit(cause, context, marker, score, round(cov, 3), item))
    out.sort(key=lambda u: -u.score)
    return out


def _years(text: str) -> set[int]:
    """The fiscal years a text names (a second explanation must be about the same ones)."""
    return {p.fiscal_year for p in find_periods(text) if p.fiscal_year is not None}


def _words(text: str) -> int:
    return len(text.split())


def _same(a: set[str], b: set[str]) -> bool:
    """Mostly the same words: the same sentence from another chunk, or one quoting the other."""
    return len(a & b) >= 0.8 * min(len(a), len(b))


def _citation(u: _Unit) -> Citation:
    return Citation(
        source_id=u.item.source_id,
        doc_id=u.item.doc_id,
        page=u.item.pages[0] if u.item.pages else 0,
        chunk_id=u.item.chunk_ids[0] if u.item.chunk_ids else None,
        quote=u.text[:200],
    )


def observed_direction(
    target: CauseTarget, question: str, evidence: Evidence, statements: Any
) -> Direction | None:
    """The way the statement model's figures of X moved into the latest year the question names,
    in the evidence's filings (a ratio from its operands: `_figures`): every figure of that year
    against every figure of the year before, all one way; None when they do not tell (no line,
    no year, a quarter asked, figures that disagree)."""
    return movement_between(*_year_figures(target, question, evidence, statements))


def _observed_change(
    target: CauseTarget, figures: tuple[list[float], list[float]]
) -> tuple[float, ...]:
    """X's percent changes between the two years' `figures`, for an amount (a ratio's change is
    stated in points, not held against a sentence's percent); () when they are not read."""
    if target.metric is None or get_metric(target.metric).unit != "USD":
        return ()
    return change_percents(*figures)


def _year_figures(
    target: CauseTarget, question: str, evidence: Evidence, statements: Any
) -> tuple[list[float], list[float]]:
    """X's figures of the latest year the question names and of the year before ([] each when
    not read: no line, no year, a quarter asked)."""
    years = [p.fiscal_year for p in find_periods(question) if p.fiscal_year is not None]
    if statements is None or target.metric is None or not years or target.quarter_asked:
        return [], []
    year = max(years)
    docs = list(dict.fromkeys(i.doc_id for i in evidence.items))
    try:
        now = _figures(statements, docs, target.metric, year)
        before = _figures(statements, docs, target.metric, year - 1)
    except STORE_READ_ERRORS:  # a filing the store cannot read: no movement read
        return [], []
    return now, before


def _figures(statements: Any, docs: list[str], metric: str, year: int) -> list[float]:
    """X's figures for `year`: the line's own facts, else the catalogue formula over its lines'
    facts (an effective tax rate from the tax and pre-tax income lines), each choice of them;
    [] when a line is missing or the formula needs another year (an average)."""
    from itertools import islice, product

    from finqa.lexicon.formula import FormulaError, evaluate_metric

    definition = get_metric(metric)
    # a ratio's own facts are ratios: a line captioned with its name is another figure (Apple's
    # 'Gross margin' line is gross profit in dollars, while gross margin is a percentage)
    own = [
        f.value
        for d in docs
        for f in statements.lookup(d, metric, year)
        if (f.unit == "USD") == (definition.unit == "USD")
    ]
    formula = definition.formula or ""
    if own or not formula or "avg(" in formula or not definition.inputs:
        return own
    inputs = list(definition.inputs)
    facts = [[f.value for d in docs for f in statements.lookup(d, i, year)] for i in inputs]
    out: list[float] = []
    for choice in islice(product(*facts), 27):
        try:
            out.append(evaluate_metric(metric, dict(zip(inputs, choice, strict=True))))
        except (FormulaError, ZeroDivisionError):  # figures the formula cannot take
            continue
    return out


def cause_answer(
    question: str, evidence: Evidence, strategy: str, statements: Any = None
) -> Answer:
    """The filing's explanation of the movement of the figure asked about, quoted and cited; an
    abstention saying what was looked for when no evidence sentence gives one. `statements`: the
    index's statement model, for X's movement where the question words none."""
    target = cause_target(question)
    if target.bridge is None:
        # X's figures as the statement model reads them, once: the way it moved where the
        # question words none, and by how much
        figures = _year_figures(target, question, evidence, statements)
        seen_way = target.direction or movement_between(*figures)
        target = replace(target, direction=seen_way, change=_observed_change(target, figures))
    units = _units(target, evidence)
    asked_years = read_ask(question).years
    if asked_years:
        # what drove a movement into the latest year asked is said of that year, not of the
        # year before ('the change ... during 2017, compared to 2016' for 2018's change)
        latest = [max(asked_years)]
        units = [
            u
            for u in units
            if not other_years_stated(u.text, latest, exact=calendar_years(u.item.doc_id))
        ]
    if not units:
        text = (
            f"I {CANNOT}: no evidence sentence explains what moved {target.label}. Looked for "
            f"a sentence naming {target.label} with a cause ('due to', 'driven by', "
            "'as a result of', 'offset by')."
        )
        conf = confidence_signals(text, cited=False)
        conf["mode"] = "abstain"
        missing = [f"the cause of the change in {target.label}"]
        return offline_answer(text, strategy, conf, abstained=True, missing=missing)
    best = units[0]
    quotes = [(best.fitted(_MAX_WORDS), best)]
    seen = _stems(best.text)
    years = _years(best.text)
    second = next(
        (u for u in units[1:] if not _same(_stems(u.text), seen) and _years(u.text) <= years),
        None,
    )
    if second is not None and second.score >= SECOND_WITHIN * best.score:
        room = _MAX_WORDS - _words(quotes[0][0])
        if _words(second.fitted(room)) <= room:
            quotes.append((second.fitted(room), second))
    text = f"What drove {_subject(question, target)}, in the filing's words: " + " ".join(
        f'"{q}" [{u.item.source_id}]' for q, u in quotes
    )
    conf = confidence_signals(text, cited=True, base=0.1 + 0.5 * best.coverage)
    conf.update(
        mode="cause",
        coverage=best.coverage,
        marker=best.marker,
        discussion=is_discussion_section(best.item.section),
    )
    return offline_answer(text, strategy, conf, citations=tuple(_citation(u) for _q, u in quotes))


def cause_subject(question: str) -> str:
    """What a cause answer to `question` explains, as its lead names it ('the change in AMD's
    operating margin')."""
    return _subject(question, cause_target(question))


def _subject(question: str, target: CauseTarget) -> str:
    """'AMD's operating margin change': the company the question names, the figure and its
    movement, as the question puts them (the answer's lead restates what it explains)."""
    names = [c.matched for c in find_companies(question)]
    owner = f"{names[0]}'s " if names else ""
    if target.bridged:  # why two lines differ: the line between them
        return f"the gap between {owner}{' and '.join(target.bridged)}, its {target.label}"
    if names_movement(target.label):  # 'revenue change'
        return f"{owner or 'the '}{target.label}"
    noun = movement_noun(movement_wording(question)) or "change"
    return f"the {noun} in {owner}{target.label}"
