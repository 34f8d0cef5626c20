"""A basis that supports the claim: a yes/no or descriptive answer that rests on no verified
figure is accepted only when a sentence it quotes from the evidence is about the question's
subject and states it as a fact of the asked period.

* about the subject - a question asking why two lines differ that one line bridges (net income
  and income before taxes: `lexicon.causes.asked_bridge`) is about that line (income taxes):
  the sentence names it, and the line counts as one of the topic words that follow. The
  sentence shares two of the question's topic words (one where the
  topic is one word): the content words of its asked parts, not of its instructions or
  conditional clauses, less the company's name, the years and the words that frame a question
  ('report', 'business', 'increase', 'what drove': `lexicon.question_frame`); a hyphenated
  compound ('capital-intensive') is two words. A disclosure concept of the catalogue the
  question names (customer concentration) is also named by its filing language beside a word
  of its name ('One customer accounted for 16% of net revenue'). The sentence names no other
  company than the asked ones, and at least one of its shared words is not of a name the
  question uses ('Distributed Energy Solutions' shared, 'discontinued operation' not: the
  sentence is about the business, not what is asked of it). An effect question ('how did X affect Y':
  `lexicon.causes.effect_object`) is answered by a sentence naming X, not only Y;
* a fact - no modal or hedge wording ('could adversely affect', 'may', 'we expect'), no clause
  opened by a condition ('If ...'), no future ('will') unless the question asks what will be
  (lexicon data), no event it dates from after the asked period ('suspend production
  beginning in January 2020' of a 2019 question), and not from the risk factors (the section of the chunk the sentence is
  cited from, else of its page);
* of the asked period - a sentence that names years states a fact of one within a year of an
  asked one (a retailer's fiscal year is named by either calendar year it touches; a year named
  only as the comparison, '... compared to 23.9% in fiscal 2021', stands for the year after).

* a cause of what happened - a cause question's basis names the part the question names (a
  segment, a region: `lexicon.dimension_question`) before its cause marker, and states no
  possibility (`lexicon.causes.is_hypothetical`: 'margins can change as a result of ...');
* the movement asked - a cause question's basis ('What drove / why did X ...') that states X
  moving only against the movement the question words or the statement model's figures show
  ('lowered our effective tax rate' where the rate rose) explains another movement
  (`movement.py`).

The basis sentences are what the answer quotes: its citations' quotes and the sentences it puts
in quotation marks (the grounding check judges an answer that quotes nothing). Where no quoted
sentence passes, the answer is not accepted, with the reason.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

from finqa.agents.judge import _lex
from finqa.agents.judge.text import CITATION, content_tokens
from finqa.agents.types import Answer, Evidence, EvidenceItem
from finqa.lexicon.causes import (
    asked_bridge,
    asks_cause,
    effect_object,
    is_hypothetical,
    split_at_cause,
    states_movement_cause,
)
from finqa.lexicon.dimension_question import asked_dimension
from finqa.lexicon.metrics import Metric
from finqa.lexicon.prose import name_words
from finqa.lexicon.question_intent import read_intent

__all__ = ["BasisCheck", "BasisOutcome", "cause_part_answer", "check_basis", "subject_words"]

BasisOutcome = Literal[
    "supported", "not_about", "possibility", "risk_factor", "other_period", "against_movement"
]
_WORDS = re.compile(r"[A-Za-z]+")
_QUOTED = re.compile(r"[\"“]([^\"”]{30,}?)[\"”]")
_MIN_SHARED = 2  # topic words a basis sentence shares with the question (fewer: all of them)


@dataclass(frozen=True)
class _Topic:
    """What the question asks about: its topic words, the disclosure concepts it names, and
    whether it asks what will be."""

    words: frozenset[str]
    concepts: Sequence[tuple[Sequence[frozenset[str]], frozenset[str]]]
    asks_future: bool
    # the line a cause question asks about when it names two lines one bridges (income taxes
    # between income before taxes and net income); None otherwise
    bridge: Metric | None = None
    question: str = ""  # as asked: a hedge it uses itself is its subject ('subject to')
    # a cause question ('what drove ...'): its basis explains a movement that happened, of the
    # part the question names when it names one (`part`, lower case; '' for the company)
    cause: bool = False
    part: str = ""
    # an effect question ('how did X affect Y'): the topic words that are not Y's, of which the
    # sentence names one (a sentence on what moved Y, not naming X, says nothing of X's effect)
    effect: frozenset[str] = frozenset()
    # the topic words of the names the question uses ('Distributed Energy Solutions'): a
    # sentence sharing only these is about the name, not about what is asked of it
    names: frozenset[str] = frozenset()


@dataclass(frozen=True)
class BasisCheck:
    """What the judge made of the answer's basis."""

    outcome: BasisOutcome
    sentence: str = ""
    source: str | None = None
    reason: str = ""

    @property
    def ok(self) -> bool:
        return self.outcome == "supported"

    def to_dict(self) -> dict[str, Any]:
        return {
            "outcome": self.outcome,
            "sentence": self.sentence[:300],
            "source": self.source,
            "reason": self.reason,
        }


def subject_words(question: str) -> frozenset[str]:
    """The question's topic: the content words of its asked parts less the asked companies'
    names (as written too), the periods, the whole a share is taken of and the question's
    frame ('report', 'business', 'increase'); the parts' whole content words where the frame is
    all they hold."""
    from finqa.lexicon.answer_form import share_base
    from finqa.lexicon.periods import find_periods
    from finqa.lexicon.question_frame import frame_words

    intent = read_intent(question)  # the lexicon's one reading of the question
    asked = " ".join(p.text for p in intent.parts.parts) or intent.head
    # the periods named ('August 30, 2023') and the whole a share is taken of ('as a percent
    # of net sales') are not what is asked about
    spans = [(p.start, p.end) for p in find_periods(asked)] + share_base(asked)
    for start, end in sorted(spans, reverse=True):
        asked = asked[:start] + " " + asked[end:]
    names: set[str] = set()
    for company in [*intent.companies, *_companies(question, matched=True)]:
        names |= set(_tokens(company))
    words = [t for t in _tokens(asked) if t not in names]
    frame = {t for w in frame_words() for t in _tokens(w)}
    topic = frozenset(t for t in words if t not in frame)
    return topic or frozenset(words)


def _tokens(text: str) -> list[str]:
    """Content words, a hyphenated compound read as its words ('capital-intensive') and an
    irregular past form as its verb ('paid' as 'pay')."""
    from finqa.lexicon.question_frame import base_forms

    forms = base_forms()
    words = _WORDS.sub(lambda m: forms.get(m.group(0).lower(), m.group(0)), text)
    return content_tokens(words.replace("-", " "))


def _concepts(question: str) -> list[tuple[list[frozenset[str]], frozenset[str]]]:
    """The catalogue's disclosure concepts the question names (not statement lines): each
    concept's filing phrases and the words of its name as asked."""
    from finqa.lexicon.metrics import get_metric

    out = []
    for m in _lex.find_metrics(question):
        metric = get_metric(m.canonical)
        if metric is None or metric.statement != "other":
            continue
        phrases = [frozenset(_tokens(t)) for t in (*metric.line_items, *metric.synonyms)]
        out.append(([p for p in phrases if p], frozenset(_tokens(m.matched))))
    return out


def _names_concept(bag: set[str], phrases: Sequence[frozenset[str]], name: frozenset[str]) -> bool:
    """The sentence uses the concept's filing phrase and, beside it, a word of its name ('accounted
    for' and 'customer'): 'Concentrations of credit risk' alone is not customer concentration."""
    return any(p <= bag and (name - p) & bag for p in phrases)


def check_basis(
    question: str,
    answer: Answer,
    claims: Sequence[Any],
    evidence: Evidence,
    asked: Sequence[int],
    routes: Any = None,
) -> BasisCheck | None:
    """The first basis sentence that is about the subject and a fact of the asked period
    (`supported`), else the best failing one with its reason; None when the answer quotes
    nothing at all (a bare verdict is judged elsewhere). A cause answer whose sentences state
    the asked figure moving only against the asked movement is `against_movement` (`routes`:
    the statement model's sources, for the movement of the figures)."""
    from finqa.agents.judge.movement import against_movement, asked_movements
    from finqa.lexicon.hedges import future_in

    subject = subject_words(question)
    intent = read_intent(question)
    asked_names = {c.lower() for c in intent.companies}
    asked_part = asked_dimension(question)
    topic = _Topic(
        subject,
        _concepts(question),
        bool(future_in(intent.asked_text)),
        asked_bridge(question),
        question,
        asks_cause(question),
        " ".join(asked_part.phrase.lower().split()) if asked_part and asked_part.phrase else "",
        _effect_words(question, subject),
        subject & frozenset(_tokens(" ".join(name_words(question)))),
    )
    candidates = _basis_sentences(answer, claims, evidence)
    if not candidates:
        return None
    unmoved = _no_movement_stated(intent, answer.text, candidates)
    if unmoved is not None:
        return unmoved
    if topic.bridge is None:
        lines = asked_movements(question, routes, asked)
        against = against_movement(lines, [s for _src, s, _c in candidates]) if lines else None
        if against is not None:
            source_id, sentence, _chunk = candidates[against[0]]
            return BasisCheck("against_movement", sentence, source_id, against[1])
        unnamed = _line_unnamed(lines, candidates)
        if unnamed is not None:
            return unnamed
    # what drove a movement into the latest year asked is a fact of that year ('the change
    # from 2017' to 2018 is not explained by a sentence on 2017 against 2016)
    period = [max(asked)] if topic.cause and len(asked) > 1 else list(asked)
    failures: list[BasisCheck] = []
    for source_id, sentence, chunk_id in candidates:
        item = evidence.by_source(source_id) if source_id else _holding(evidence, sentence)
        section = _section(item, chunk_id)
        failed = _judge_sentence(sentence, source_id, item, section, topic, asked_names, period)
        if failed is None:
            return BasisCheck("supported", sentence, source_id, "about the subject, a fact")
        failures.append(failed)
    order = ("possibility", "risk_factor", "other_period", "not_about", "against_movement")
    return min(failures, key=lambda f: order.index(f.outcome))


_YES = re.compile(r"^\W*yes\b", re.I)
# a table row quoted as a sentence: a caption, then figures (they can show the movement)
_TABLE_ROW = re.compile(r"^[^\d]{2,120}?(?:\s+[-(]?\$?\s*\d[\d,.]*\)?%?){2,}\s*$")


def _no_movement_stated(
    intent: Any, text: str, candidates: Sequence[tuple[str | None, str, str | None]]
) -> BasisCheck | None:
    """A Yes to 'did X rise (raise, improve, fall ...)?' rests on a sentence stating a
    movement, or on figures a quoted table row prints side by side: a sentence stating the
    level alone ('declared dividends of $0.455 per share for each quarter of 2015, 2014 and
    2013') does not say it moved."""
    from finqa.lexicon.movement import pattern, without_idioms

    if not (intent.ask.is_yes_no and any(intent.ask.direction)) or not _YES.match(text):
        return None
    moved = pattern()
    for _src, sentence, _chunk in candidates:
        flat = " ".join(sentence.split())
        if moved.search(without_idioms(flat)) or _TABLE_ROW.match(flat):
            return None
    source_id, sentence, _chunk = candidates[0]
    return BasisCheck(
        "not_about",
        sentence,
        source_id,
        "the question asks whether it moved; no quoted sentence states a movement",
    )


def cause_part_answer(answer: Answer, claims: Sequence[str]) -> Answer | None:
    """The cause part of an answer that also answers a figure, a yes/no or a choice: its claims
    that explain a movement (`lexicon.causes.states_movement_cause`, the claims the facet
    checklist gives the cause part) and the citations quoting from them; None when it has none
    (the part is then unanswered, or stated as not found)."""
    from finqa.lexicon.causes import opens_on_movement, states_movement_cause
    from finqa.lexicon.refusal import declines_part

    mine: list[str] = []
    for i, claim in enumerate(claims):
        if not states_movement_cause(claim) or declines_part(claim):
            continue
        if i and opens_on_movement(claim.lstrip('"“ ')) and claims[i - 1] not in mine:
            mine.append(claims[i - 1])  # 'The decrease was ...': the claim before names it
        mine.append(claim)
    if not mine:
        return None
    text = " ".join(mine)
    flat = " ".join(text.split())
    cites = tuple(
        c for c in answer.citations if c.quote.strip() and " ".join(c.quote.split())[:60] in flat
    )
    return answer.model_copy(update={"text": text, "citations": cites, "calculations": ()})


def _line_unnamed(
    lines: Sequence[Any], candidates: Sequence[tuple[str | None, str, str | None]]
) -> BasisCheck | None:
    """A cause answer none of whose quoted sentences names the asked line (or a line on top of
    an asked ratio) by the question's own words for it or a name of two words or more: one
    generic word ('profit' in 'favorable profit adjustments', 'earnings' in 'equity earnings')
    names no line, and a sentence about another line ('Space's operating profit increased')
    explains another movement. None when it names one, or when no line is asked."""
    from finqa.lexicon.metrics import metric_key

    if not lines:
        return None
    names = {metric_key(lines[0].names[0])} if lines[0].names else set()
    names |= {metric_key(n) for line in lines for n in line.names if len(n.split()) >= 2}
    # a growth or change of a line ('revenue change') is named by the line ('net revenue')
    for key in _lex.metric_inputs(lines[0].metric):
        own = key.replace("_", " ")
        names |= {metric_key(n) for n in _lex.metric_terms(key) if len(n.split()) >= 2 or n == own}
    names.discard("")
    if not names:
        return None
    for _src, sentence, _chunk in candidates:
        padded = f" {metric_key(sentence)} "
        if any(f" {n} " in padded for n in names):
            return None
    source_id, sentence, _chunk = candidates[0]
    label = lines[0].metric.replace("_", " ")
    return BasisCheck(
        "not_about",
        sentence,
        source_id,
        f"no quoted sentence names {label} (as the question does, or by a name of its line): "
        "it explains another line's movement",
    )


def _judge_sentence(
    sentence: str,
    source_id: str | None,
    item: Any,
    section: str | None,
    topic: _Topic,
    asked_names: set[str],
    asked: Sequence[int],
) -> BasisCheck | None:
    failed = _about(sentence, source_id, topic) or _cause_of(sentence, source_id, topic)
    if failed is not None:
        return failed
    others = [c for c in _companies(_subject_part(sentence)) if c.lower() not in asked_names]
    if others and asked_names:
        return BasisCheck(
            "not_about", sentence, source_id, f"the quoted sentence is about {others[0]}"
        )
    return _fact_of_period(sentence, source_id, item, section, topic, asked) or _figure_elsewhere(
        sentence, source_id, topic, asked
    )


# where a sentence sets one period's figure against another's
_CLAUSES = re.compile(
    r"[,;]|\bcompared\s+(?:to|with)\b|\bversus\b|\bvs\.?|\bwhile\b|\bwhereas\b|\bas\s+against\b",
    re.I,
)


def _figure_elsewhere(
    sentence: str, source_id: str | None, topic: _Topic, asked: Sequence[int]
) -> BasisCheck | None:
    """'Was fiscal 2021 a 53-week year?' quoting 'Fiscal 2021 had 52 weeks compared to 53
    weeks in fiscal 2020': the figure the question states is in a clause of another year, the
    asked year's own clause states another: the sentence is no basis for the asked period
    (`other_period`). None when the question states no figure, the sentence does not name the
    asked year, or the figure is stated for it."""
    if len(asked) != 1:
        return None
    year = asked[0]
    stated = [
        q
        for q in read_intent(topic.question).stated
        if not (q.decimals == 0 and 1900 <= abs(q.value) <= 2100 and not q.unit)
    ]
    if not stated:
        return None
    clauses = [c for c in _CLAUSES.split(sentence) if c.strip()]
    years = [{y for y, _s, _e in _lex.year_mentions(c)} for c in clauses]
    if not any(year in ys for ys in years):
        return None
    for q in stated:
        holding = [
            i
            for i, c in enumerate(clauses)
            if any(abs(x.value - q.value) < 1e-9 for x in _lex.extract_quantities(c))
        ]
        if holding and all(years[i] and year not in years[i] for i in holding):
            other = sorted(years[holding[0]])[0]
            return BasisCheck(
                "other_period",
                sentence,
                source_id,
                f"the quoted sentence gives {q.text.strip()} for FY{other}, not for the asked FY{year}",
            )
    return None


def _about(sentence: str, source_id: str | None, topic: _Topic) -> BasisCheck | None:
    """The sentence is about the question's subject (module docstring), else why not."""
    if topic.bridge is not None:
        failed = _about_bridge(sentence, source_id, topic.bridge)
        if failed is not None:
            return failed
    subject = topic.words
    bag = set(_tokens(sentence))
    shared = subject & bag
    need = min(_MIN_SHARED, len(subject))
    if topic.bridge is not None:
        # the bridging line, named, counts as one word of the topic (as a concept does): the
        # sentence still shares another ('income tax benefit ... valuation allowance' beside
        # 'income'; a restatement that mentions the tax line among its effects does not)
        shared = frozenset({"<line>"}) | shared
        need = min(_MIN_SHARED, 1 + len(subject))
    named = [name for phrases, name in topic.concepts if _names_concept(bag, phrases, name)]
    if named:
        # the concept named in its filing language counts as one word of the topic; the
        # topic's other words still count as words
        rest = subject - frozenset().union(*named)
        shared = frozenset({"<concept>"}) | (rest & bag)
        need = min(_MIN_SHARED, 1 + len(rest))
    if topic.effect and not topic.effect & bag:
        return BasisCheck(
            "not_about",
            sentence,
            source_id,
            "the question asks the effect of "
            f"{', '.join(sorted(topic.effect)[:4])} on a figure, and the quoted sentence does "
            "not name it: it explains the figure, not that effect",
        )
    if len(shared) < need:
        return BasisCheck(
            "not_about",
            sentence,
            source_id,
            f"the quoted sentence shares {len(shared)} of the question's subject words "
            f"({', '.join(sorted(subject)[:6])}): it is not about what is asked",
        )
    asked_of = subject - topic.names
    if not named and topic.bridge is None and asked_of and not asked_of & bag:
        return BasisCheck(
            "not_about",
            sentence,
            source_id,
            "the quoted sentence shares only the names the question uses "
            f"({', '.join(sorted(subject & bag)[:4])}), none of what it asks of them "
            f"({', '.join(sorted(asked_of)[:6])})",
        )
    return None


def _effect_words(question: str, subject: frozenset[str]) -> frozenset[str]:
    """An effect question's topic words that are not of the figure it affected (`_Topic.effect`);
    empty for any other question, or where the affected figure's words are all the topic."""
    obj = effect_object(question)
    if not obj:
        return frozenset()
    return subject - frozenset(_tokens(f"{obj} affect affected impact impacted"))


def _cause_of(sentence: str, source_id: str | None, topic: _Topic) -> BasisCheck | None:
    """A cause question's basis names the part asked before its cause marker (a sentence naming
    it only in an offsetting clause explains the company's figure) and states what happened,
    not how a figure can move ('margins can change over time as a result of ...')."""
    if not topic.cause:
        return None
    split = split_at_cause(sentence)
    moved = split[0] if split else sentence
    if topic.part and topic.part not in " ".join(moved.lower().split()):
        return BasisCheck(
            "not_about",
            sentence,
            source_id,
            f"the question asks about {topic.part}, and the quoted sentence explains a movement "
            "it does not name as that part's",
        )
    if is_hypothetical(sentence):
        return BasisCheck(
            "possibility",
            sentence,
            source_id,
            "the quoted sentence states how a figure may move, not what moved it in the period",
        )
    return None


def _about_bridge(sentence: str, source_id: str | None, bridge: Metric) -> BasisCheck | None:
    """A basis for why two lines differ names the line between them ('the provision for income
    taxes ...' where net income and income before taxes are asked), else it is not about it."""
    if any(m.canonical == bridge.id for m in _lex.find_metrics(sentence)):
        return None
    return BasisCheck(
        "not_about",
        sentence,
        source_id,
        f"the question names two lines that {bridge.name.lower()} bridges, and the quoted "
        f"sentence does not name {bridge.name.lower()}: it is not about what made them differ",
    )


def _fact_of_period(
    sentence: str,
    source_id: str | None,
    item: Any,
    section: str | None,
    topic: _Topic,
    asked: Sequence[int],
) -> BasisCheck | None:
    """A sentence about the subject states a fact of the asked period: no possibility, no
    future, no event starting later, no sentence about the year before, no risk factor, no other
    year; None when it does."""
    from finqa.lexicon.entities import calendar_years
    from finqa.lexicon.hedges import in_risk_factors, period_fault
    from finqa.lexicon.periods import other_years_stated

    fault = period_fault(sentence, asked, asks_future=topic.asks_future, asked=topic.question)
    if fault is not None:
        kind, what = fault
        return BasisCheck(
            kind,
            sentence,
            source_id,
            f"the quoted sentence states {what}, not a fact of the period",
        )
    if item is not None and in_risk_factors(section, item.text):
        return BasisCheck(
            "risk_factor",
            sentence,
            source_id,
            "the quoted sentence is a risk factor: a possibility, not a fact of the period",
        )
    # a year away: a 52/53-week fiscal year is named by either calendar year it touches, but a
    # filer whose fiscal years are calendar years names the year it means
    exact = item is not None and calendar_years(item.doc_id)
    years = other_years_stated(sentence, asked, exact=exact)
    if years:
        shown = ", ".join(f"FY{y}" for y in years)
        return BasisCheck(
            "other_period",
            sentence,
            source_id,
            f"the quoted sentence is about {shown}, not the asked period",
        )
    return None


def _holding(evidence: Evidence, sentence: str) -> EvidenceItem | None:
    """The evidence item whose text holds a sentence quoted without its source (its first
    words, spacing aside); None when none does."""
    head = " ".join(sentence.split())[:80]
    if not head:
        return None
    return next((i for i in evidence.items if head in " ".join(i.text.split())), None)


def _basis_sentences(
    answer: Answer, claims: Sequence[Any], evidence: Evidence
) -> list[tuple[str | None, str, str | None]]:
    """(source, sentence, chunk): what the answer quotes as its basis - its citations' quotes
    (with the chunk each is cited from) and the sentences it puts in quotation marks, each with
    the source it cites (an answer that quotes nothing is judged by its grounding alone)."""
    out: list[tuple[str | None, str, str | None]] = [
        (c.source_id, c.quote.strip(), c.chunk_id) for c in answer.citations if c.quote.strip()
    ]
    quoted = {quote: chunk for _s, quote, chunk in out}
    for m in _QUOTED.finditer(answer.text):
        cited = CITATION.search(answer.text, m.end(), m.end() + 40)
        source = "S" + cited.group(1).split(",")[0].strip().lstrip("Ss") if cited else None
        sentence = m.group(1).strip()
        chunk = next((c for q, c in quoted.items() if q and q[:60] in sentence), None)
        out.append((source, sentence, chunk))
    return list(dict.fromkeys(out))


def _section(item: EvidenceItem | None, chunk_id: str | None) -> str | None:
    """The part of the filing a basis sentence is from: the section of the chunk it is cited
    from; else, on a page that holds chunks of several parts, the risk factors' heading if any
    chunk is from them (finqa cannot tell which part holds the sentence, and a possibility is
    no basis); else the page's section."""
    if item is None:
        return None
    from finqa.lexicon.hedges import in_risk_factors

    sections = [str(s) if s else None for s in item.metadata.get("sections") or ()]
    by_chunk = dict(zip(item.chunk_ids, sections, strict=False))
    if chunk_id is not None and chunk_id in by_chunk:
        return by_chunk[chunk_id]
    risky = [s for s in sections if s and in_risk_factors(s)]
    return risky[0] if risky else item.section


def _subject_part(sentence: str) -> str:
    """The words of a sentence that say what it is about: a cause sentence's movement before its
    marker ('Net interest income increased' | driven by | '... the impact from the X acquisition'):
    a company named among the causes (an acquisition, a customer) is a cause of the asked line's
    movement, not another company's figure."""
    split = split_at_cause(sentence)
    if split is None or not states_movement_cause(sentence):
        return sentence
    return split[0]


def _companies(text: str, *, matched: bool = False) -> list[str]:
    """The companies a text names (`matched`: as written, 'JnJ')."""
    try:
        found = _lex.find_companies(text)
        return list(dict.fromkeys(str(c.matched if matched else c.name) for c in found))
    except Exception:  # noqa: BLE001 - company names only refine the check
        return []
