"""What the judge reads beside the lexicon's reading of the question (`lexicon.question_intent`):
the words of the asked metrics and of their operands, the metrics an answer's sentence names
(and the ratios it names), and the way a sentence says a figure moved."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from finqa.agents.judge import _lex
from finqa.agents.judge.kind import Expectation
from finqa.agents.judge.text import content_tokens

__all__ = [
    "FIGURE_KINDS",
    "line_terms",
    "metric_words",
    "prints_line",
    "metric_tokens",
    "named_metrics",
    "sentence_at",
    "stated_direction",
]


def sentence_at(text: str, pos: int) -> str:
    """The line or sentence of `text` holding offset `pos`."""
    start = max(text.rfind(". ", 0, pos), text.rfind("\n", 0, pos), -1) + 1
    ends = [i for i in (text.find(". ", pos), text.find("\n", pos)) if i >= 0]
    return text[start : min(ends) if ends else len(text)]


def stated_direction(q: Any, sentence: str, item: str | None = None) -> int:
    """The way the answer says a figure of the catalogue item `item` moved: +1 a rise, -1 a
    fall, 0 not said. The figure's own direction word ('decreased by $5 million'), its sign,
    else the movement words of its sentence through the lexicon ('a $5 million decline') when
    they point one way only ('improved' by the item's favourable direction)."""
    own = int(getattr(q, "direction", 0) or 0)
    if own:
        return own
    if float(getattr(q, "value", 0.0) or 0.0) < 0:
        return -1
    from finqa.lexicon.intent import asked_direction

    up, down = asked_direction(sentence, item)
    return 1 if up and not down else (-1 if down and not up else 0)


def named_metrics(sentence: str) -> tuple[list[str], list[tuple[str, str]]]:
    """The catalogue metrics a sentence names, and the pairs it names as a ratio ('Fixed
    assets/Total assets', 'debt to equity')."""
    try:
        found = _lex.find_metrics(sentence)
    except Exception:  # noqa: BLE001 - the names only widen what is looked up; nothing is lost
        return [], []
    ratios = [
        (a.canonical, b.canonical)
        for a, b in zip(found, found[1:], strict=False)
        if sentence[a.end : b.start].strip().lower() in _RATIO_JOINS
    ]
    return [m.canonical for m in found], ratios


_RATIO_JOINS = frozenset({"/", "to", "over", "divided by"})


def metric_tokens(analysis: Any) -> frozenset[str]:
    """Words of the line items / synonyms of the metrics the question asks about ('COGS' ->
    'cost of sales', 'cost of revenue'): evidence rows named so are on topic."""
    tokens: set[str] = set()
    for metric in getattr(analysis, "metrics", ()) or ():
        for term in _lex.metric_terms(metric):
            tokens |= set(content_tokens(term))
    return frozenset(tokens)


def line_terms(
    expect: Expectation, analysis: Any, texts: Sequence[str] = ()
) -> tuple[frozenset[str], ...]:
    """The names of the metrics the question asks about and of their operands (catalogue name,
    synonyms, line items as filed), each as the set of its words: a table figure's row label
    must contain every word of one of them. Empty (no restriction) when the question names no
    catalogue metric. A line item none of the evidence `texts` prints a line of is also named
    by the items the catalogue reads it as then (`_lex.metric_alternates`: a filer without
    noncontrolling interests prints the amount attributable to the company as 'Net income')."""
    if expect.metric is None or expect.kind not in FIGURE_KINDS:
        return ()
    asked = [expect.metric, *(getattr(analysis, "metrics", ()) or ())]
    ids = dict.fromkeys(asked)
    for mid in list(ids):  # operands of operands too ('ebitda' -> operating income, D&A)
        stack = [mid]
        while stack:
            for inp in _lex.metric_inputs(stack.pop()):
                if inp not in ids:
                    ids[inp] = None
                    stack.append(inp)
    terms: set[frozenset[str]] = set()
    for mid in ids:
        own = metric_words(mid)
        terms |= own
        alternates = _lex.metric_alternates(mid)
        if alternates and not any(prints_line(text, own) for text in texts):
            for alt in alternates:
                terms |= metric_words(alt)
    return tuple(sorted(terms, key=sorted))


def metric_words(metric_id: str) -> set[frozenset[str]]:
    """Each name of a catalogue metric as the set of its words (3 letters or more)."""
    out: set[frozenset[str]] = set()
    for term in _lex.metric_terms(metric_id):
        words = frozenset(t for t in content_tokens(term) if len(t) >= 3)
        if words:
            out.add(words)
    return out


def prints_line(text: str, terms: set[frozenset[str]]) -> bool:
    """Does a line of `text` hold every word of one of `terms` (PDF text glues words, so the
    line's letters are read run together, as a row label is)?"""
    for line in text.splitlines():
        squashed = "".join(ch for ch in line.lower() if "a" <= ch <= "z")
        if any(all(t in squashed for t in term) for term in terms):
            return True
    return False


FIGURE_KINDS = frozenset({"amount", "ratio", "percent", "days", "count", "per_share"})
