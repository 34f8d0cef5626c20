"""Extractive answers for descriptive and yes/no questions: the best evidence sentence(s), cited."""

from __future__ import annotations

import math
import re
from collections import Counter
from dataclasses import dataclass

from finqa.agents.types import Citation, Evidence
from finqa.lexicon.boilerplate import is_boilerplate
from finqa.lexicon.prose import split_sentences
from finqa.lexicon.stems import stem as _stem

__all__ = ["Passage", "best_passages", "content_words", "prose_sentences", "listed_after"]

_STOP = frozenset(
    [
        "a",
        "an",
        "the",
        "and",
        "or",
        "of",
        "in",
        "on",
        "for",
        "to",
        "by",
        "with",
        "its",
        "it",
        "is",
        "was",
        "were",
        "are",
        "be",
        "been",
        "as",
        "at",
        "from",
        "that",
        "this",
        "which",
        "who",
        "whom",
        "what",
        "when",
        "where",
        "why",
        "how",
        "does",
        "do",
        "did",
        "has",
        "have",
        "had",
        "can",
        "could",
        "will",
        "would",
        "should",
        "there",
        "their",
        "they",
        "them",
        "than",
        "then",
        "so",
        "if",
        "not",
        "no",
        "yes",
        "any",
        "all",
        "each",
        "per",
        "into",
        "over",
        "under",
        "about",
        "also",
        "company",
        "companys",
        "fy",
        "fiscal",
        "year",
        "years",
        "quarter",
        "based",
        "data",
        "please",
        "state",
        "explain",
        "relevant",
        "metric",
        "useful",
        "answer",
        "question",
        "using",
        "use",
        "following",
        "calculate",
        "information",
        "provided",
        "shown",
    ]
)
_WORD = re.compile(r"[a-z][a-z0-9&'-]+")


@dataclass(frozen=True)
class Passage:
    text: str
    score: float
    citation: Citation
    coverage: float = 0.0  # share of the question's idf-weighted content terms the sentence has
    # share of the question's idf-weighted terms that any evidence sentence has (what the
    # evidence can cover at all: a question's own paraphrase, 'legal battles', is in no filing)
    reach: float = 0.0


def content_words(text: str) -> list[str]:
    return [w.strip("'") for w in _WORD.findall(text.lower()) if w not in _STOP and len(w) > 2]


def _sentences(text: str) -> list[str]:
    """Prose sentences of an evidence text: no table fragments, and never a signature block,
    certification, table of contents or page header (`lexicon.boilerplate`)."""
    lines = [x.strip() for x in text.splitlines()]
    # running headers/footers ('Table of Contents', '3M Company | Form 10-K | 45') go first,
    # so they do not glue themselves to the sentence that follows
    flat = "\n".join(x for x in lines if not (len(x) <= 80 and is_boilerplate(x)))
    out: list[str] = []
    for block in split_sentences(flat):
        s = " ".join(block.split())
        if is_boilerplate(s):
            continue
        if not (40 <= len(s) <= 600) or len(re.findall(r"[A-Za-z]{3,}", s)) < 6:
            continue
        letters = sum(c.isalpha() for c in s)
        digits = sum(c.isdigit() for c in s)
        numbers = len(re.findall(r"\d[\d,.]*", s))
        if letters < 3 * digits or numbers > 6 or not re.match(r"[\"'(]?[A-Z]", s):
            continue  # a table fragment, not a sentence
        out.append(s)
    return out


def prose_sentences(text: str) -> list[str]:
    """The prose sentences of an evidence text, in order (no table fragments, no boilerplate)."""
    return _sentences(text)


_LIST_ITEMS = 8  # list lines read at most after a sentence ending in a colon
_LIST_LINE = 160  # a longer line is prose again, not a list item


def listed_after(text: str, sentence: str) -> list[str]:
    """The short lines listed right after `sentence` in `text` when it ends with a colon
    ('... driven by:' then one cause a line), up to the first prose line; empty otherwise."""
    if not sentence.rstrip().endswith(":"):
        return []
    tail = " ".join(sentence.split())[-30:]
    lines = text.splitlines()
    for i, line in enumerate(lines):
        if not " ".join(line.split()).endswith(tail):
            continue
        items: list[str] = []
        for nxt in lines[i + 1 :]:
            flat = " ".join(nxt.split())
            if not flat:
                continue
            if len(flat) > _LIST_LINE or len(items) >= _LIST_ITEMS or is_boilerplate(flat):
                break
            items.append(flat)
        return items
    return []


def best_passages(question: str, evidence: Evidence, k: int = 2) -> list[Passage]:
    """Top-k sentences by overlap with the question's content words (idf-weighted over the evidence)."""
    q_terms = {_stem(w) for w in content_words(question)}
    if not q_terms:
        return []
    cands: list[tuple[str, int]] = []
    for idx, item in enumerate(evidence.items):
        cands.extend((s, idx) for s in _sentences(item.text))
    if not cands:
        return []
    df: Counter[str] = Counter()
    bags = []
    for s, _ in cands:
        bag = {_stem(w) for w in content_words(s)}
        bags.append(bag)
        df.update(bag)
    n = len(cands)
    scored: list[tuple[float, int]] = []
    for i, ((_s, idx), bag) in enumerate(zip(cands, bags, strict=True)):
        hit = q_terms & bag
        if not hit:
            continue
        score = sum(math.log(1 + n / df[t]) for t in hit) / math.sqrt(1 + len(bag) / 25)
        score *= 1.0 / (1 + 0.05 * idx)  # retrieval rank
        scored.append((score, i))
    scored.sort(key=lambda t: (-t[0], t[1]))
    weight = {t: math.log(1 + n / max(1, df[t])) for t in q_terms}
    total = sum(weight.values()) or 1.0
    reach = round(sum(w for t, w in weight.items() if df[t]) / total, 3)
    out: list[Passage] = []
    for score, i in scored[:k]:
        s, idx = cands[i]
        item = evidence.items[idx]
        out.append(
            Passage(
                text=s,
                score=score,
                citation=Citation(
                    source_id=item.source_id,
                    doc_id=item.doc_id,
                    page=item.pages[0] if item.pages else 0,
                    chunk_id=item.chunk_ids[0] if item.chunk_ids else None,
                    quote=s[:200],
                ),
                coverage=round(sum(weight[t] for t in q_terms & bags[i]) / total, 3),
                reach=reach,
            )
        )
    return out
