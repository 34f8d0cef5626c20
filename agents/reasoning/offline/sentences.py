"""Answers read from one evidence sentence, quoted and cited, for questions about what a filing
states rather than a statement line item.

- assertion (yes/no: "Is X's business subject to cyclicality?", "Did X report customer
  concentration?"): the evidence sentence that best covers the question's subject. The subject
  is the question's content words without the company, the periods and the question frame
  ("report", "any"). When the question names a disclosure concept of the catalogue
  (`lexicon` metrics outside the statements, e.g. customer concentration), the sentence must
  use the concept's filing language (one of its line-item phrases, "accounted for") with a
  word of its name. The sentence must hold at least `MIN_COVERAGE` of the rest of the subject
  (idf-weighted over the evidence sentences); its polarity (`lexicon.polarity`) gives the
  verdict: "Yes" when it states the subject, "No" when it denies it ("No customer accounted
  for ...", "... will not have a material adverse effect"). A sentence that affirms the subject
  only as a plan, a possibility or an event starting after the asked period
  (`lexicon.hedges.not_a_fact`) answers no "Yes": no answer. A question about a movement or a
  comparison of figures ("Did X's segment grow?") is not answered from wording, nor is a
  question about a sign ("positive cash flow?") from a sentence that states the figure.
- stated figure ("What is the amount of the gain ...?"): a covering sentence that states
  exactly one amount answers with it; a question asking for a total or a difference of several
  figures is not answered by one stated figure.

Questions about a catalogue metric or line item are not these families': the statements
answer them. Without a covering sentence the functions return None (the caller abstains).
"""

from __future__ import annotations

from typing import Any

from finqa.agents.reasoning.confidence import confidence_signals
from finqa.agents.reasoning.offline.extractive import Passage, best_passages, content_words
from finqa.agents.reasoning.offline.verdict_kit import offline_answer
from finqa.agents.types import Answer, Evidence
from finqa.lexicon import (
    extract_quantities,
    find_companies,
    find_metrics,
    find_periods,
    get_metric,
)
from finqa.lexicon.answer_form import alternatives
from finqa.lexicon.asked_measure import quote_misfit
from finqa.lexicon.entities import calendar_years
from finqa.lexicon.movement import size_of_movement
from finqa.lexicon.periods import other_years_stated
from finqa.lexicon.polarity import (
    YES_NO_HEAD,
    asks_direction,
    is_negated_question,
    sentence_polarity,
)
from finqa.lexicon.query import asks_total
from finqa.lexicon.question_ask import read_ask
from finqa.lexicon.question_frame import frame_words
from finqa.lexicon.question_intent import read_intent
from finqa.lexicon.stems import stem

__all__ = [
    "assertion_answer",
    "figure_answer",
    "is_yes_no_question",
    "subject_terms",
    "MIN_COVERAGE",
]

# at least half of what the question asks about must be in the sentence (product rule, not
# fitted; crossval's per-mode gate may withhold more)
MIN_COVERAGE = 0.5
_CANDIDATES = 8  # sentences read per question (best first)


def is_yes_no_question(question: str) -> bool:
    """An auxiliary verb first, or after a leading 'As of <period>,' clause."""
    return bool(YES_NO_HEAD.match(question))


def _strip(question: str, spans: list[tuple[int, int]]) -> str:
    text = question
    for a, b in sorted(spans, reverse=True):
        text = text[:a] + " " + text[b:]
    return text


def subject_terms(question: str, concept_spans: list[tuple[int, int]] | None = None) -> list[str]:
    """The question's content words without company names, periods, the question frame and
    the spans of a catalogue concept (read through the concept's own filing language)."""
    spans = [(c.start, c.end) for c in find_companies(question)]
    spans += [(p.start, p.end) for p in find_periods(question)]
    spans += concept_spans or []
    words = content_words(_strip(question, spans))
    return list(dict.fromkeys(w for w in words if not w.endswith("'s") and w not in frame_words()))


def _concept(question: str) -> tuple[list[tuple[int, int]], list[set[str]], set[str]]:
    """The catalogue disclosure concepts the question names: their spans, their filing phrases
    (each as a set of stems) and the stems of their names."""
    spans: list[tuple[int, int]] = []
    phrases: list[set[str]] = []
    names: set[str] = set()
    for m in find_metrics(question):
        metric = get_metric(m.canonical)
        if metric is None or metric.statement != "other":
            continue
        spans.append((m.start, m.end))
        for text in (*metric.line_items, *metric.synonyms):
            stems = {stem(w) for w in content_words(text)}
            if stems:
                phrases.append(stems)
        names |= {stem(w) for w in content_words(m.matched)}
    return spans, phrases, names


def _uses_concept(sentence: str, phrases: list[set[str]], names: set[str]) -> bool:
    """One of the concept's filing phrases and, beside it, a word of the concept's name
    ('Concentrations of credit risk' alone is not customer concentration)."""
    bag = {stem(w) for w in content_words(sentence)}
    return any(p <= bag and (names - p) & bag for p in phrases)


def _covering(
    question: str, evidence: Evidence, same_period: bool = False
) -> tuple[Passage, list[str], float] | None:
    """The best sentence covering the question's subject, the subject and its coverage;
    `same_period`: not a sentence stating only another span of the year than the one asked."""
    spans, phrases, names = _concept(question)
    terms = subject_terms(question, spans)
    query = " ".join([*terms, *sorted({w for p in phrases for w in p} | names)])
    if not query.strip():
        return None
    # coverage of the rest of the subject, idf-weighted over the evidence sentences
    rest = {c.text: _in_reach(c) for c in best_passages(" ".join(terms), evidence, k=10**6)}
    for p in best_passages(query, evidence, k=_CANDIDATES):
        if phrases and not _uses_concept(p.text, phrases, names):
            continue
        if same_period and _other_period(question, p):
            continue
        cov = rest.get(p.text, 0.0) if terms else 1.0
        if cov >= MIN_COVERAGE:
            return p, terms or sorted(names), cov
    return None


_SUB_ANNUAL = frozenset({"quarter", "half", "ytd"})


def _other_period(question: str, p: Passage) -> bool:
    """The sentence states a fact of another period than the one asked: another span of the
    year, or only years none of which is asked ('During 2016, ... an $88 million gain' for
    2017; a year away only where the filer's fiscal years are calendar years)."""
    if _other_span(question, p.text):
        return True
    exact = calendar_years(p.citation.doc_id)
    return bool(other_years_stated(p.text, read_intent(question).ask.years, exact=exact))


def _other_span(question: str, sentence: str) -> bool:
    """The question asks a span within a year (a quarter, six months) and the sentence names
    spans within a year, none of them the one asked ('the second quarter of fiscal 2023' for
    'the first six months of fiscal 2023'): its figure is another period's."""

    def spans(text: str) -> set[tuple[str, int | None, object]]:
        return {
            (p.kind, p.fiscal_year, getattr(p, "quarter", None))
            for p in find_periods(text)
            if p.kind in _SUB_ANNUAL
        }

    asked = spans(question)
    stated = spans(sentence)
    return bool(asked) and bool(stated) and not asked & stated


def _in_reach(p: Passage) -> float:
    """The sentence's coverage of the part of the subject the evidence holds at all (words no
    evidence sentence uses, the question's own paraphrase, do not count against it); 0 when
    the evidence holds less than `MIN_COVERAGE` of the subject (it does not cover the question)."""
    if p.reach < MIN_COVERAGE or p.reach <= 0:
        return 0.0
    return min(1.0, p.coverage / p.reach)


def _answer(text: str, p: Passage, cov: float, strategy: str, mode: str, **extra: object) -> Answer:
    conf = confidence_signals(text, cited=True, base=0.1 + 0.5 * cov)
    conf["mode"] = mode
    conf["coverage"] = round(cov, 3)
    conf.update(extra)
    return offline_answer(text, strategy, conf, citations=(p.citation,))


def assertion_answer(question: str, evidence: Evidence, strategy: str) -> Answer | None:
    """'Yes.' / 'No.' read from the best covering evidence sentence, quoted; None without one
    (or when the question asks about a movement or comparison of figures, or which of two
    opposites it offers: `lexicon.answer_form.alternatives`)."""
    if asks_direction(question) or alternatives(question) is not None:
        return None  # a movement, or which of two opposites ('a gain or a loss'): no Yes/No
    found = _covering(question, evidence, same_period=True)
    if found is None:
        return None
    p, terms, cov = found
    if read_ask(question).wants_positive and _amounts(p.text):
        # a sign asked ('positive cash flow?') of a sentence stating the figure: the figure's
        # sign decides, which the sentence's wording cannot read ('net cash used in ...')
        return None
    polarity = sentence_polarity(p.text, terms)
    if polarity == "affirms" and _not_a_fact(question, p.text):
        # a plan, a possibility or what begins after the asked period ('announced plans to
        # suspend production beginning in January 2020') states no fact of the period: no 'Yes'
        return None
    yes = (polarity == "affirms") != is_negated_question(question)
    says = "states it" if polarity == "affirms" else "denies it"
    text = (
        f'{"Yes" if yes else "No"}. The filing {says}: "{p.text}" [{p.citation.source_id}]. '
        f"Read offline from this sentence, which covers what the question asks about "
        f"({', '.join(terms[:6])}); finqa judged its wording, not figures."
    )
    # the coverage score goes to the answer's details (audit), not its text: the judge cannot
    # verify a number finqa computed about its own reading
    return _answer(text, p, cov, strategy, "assertion", polarity=polarity, subject=terms[:6])


def _not_a_fact(question: str, sentence: str) -> str | None:
    """Why an affirming sentence states no fact of the asked period (`lexicon.hedges`), or None."""
    from finqa.lexicon.hedges import future_in, not_a_fact

    intent = read_intent(question)
    asks_future = bool(future_in(intent.asked_text))
    return not_a_fact(sentence, intent.ask.years, asks_future=asks_future, asked=question)


def figure_answer(question: str, evidence: Evidence, strategy: str) -> Answer | None:
    """The one amount a covering sentence states, quoted; None when no sentence states exactly
    one amount or the question asks for a total or difference of several figures."""
    if asks_total(question) or read_intent(question).ask.choice:
        return None
    found = _covering(question, evidence, same_period=True)
    if found is None:
        return None
    p, _terms, cov = found
    amounts = _amounts(p.text)
    if len(amounts) != 1 or quote_misfit(question, p.text):
        return None  # several amounts, or a sentence on another line than the one asked
    if size_of_movement(p.text, amounts[0].start) and not read_intent(question).asks_movement:
        return None  # 'decreased by $336 million': a movement's size, not the amount asked
    amount = amounts[0].text
    text = (
        f'{amount}. The filing states: "{p.text}" [{p.citation.source_id}]. Read offline from '
        "this sentence; the figure is as stated, not computed."
    )
    return _answer(text, p, cov, strategy, "stated_figure", figure=amount)


def _amounts(text: str) -> list[Any]:
    """The amounts of money a sentence states."""
    return [q for q in extract_quantities(text) if q.kind == "number" and q.unit == "USD"]
