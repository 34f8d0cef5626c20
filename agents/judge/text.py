"""Words and sentences: content tokens (light stemming), claim splitting, citation markers."""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = [
    "Claim",
    "content_tokens",
    "split_claims",
    "is_provenance_note",
    "line_read",
    "without_notes",
    "CITATION",
    "STOPWORDS",
]

CITATION = re.compile(r"\[\s*(S\d+(?:\s*[,;]\s*S?\d+)*)\s*\]")
_WORD = re.compile(r"[A-Za-z][A-Za-z&'\-]*[A-Za-z]|[A-Za-z]")
STOPWORDS = frozenset(
    """a an the and or but if then than that this these those there their its it is are was were be
    been being has have had do does did of in on at to for from by with as into over under about
    after before between during per via vs versus which who whom whose what when where why how
    not no yes so such also all any each both either neither more most less least very much many
    can could would should will shall may might must our we us they them he she his her i you your
    other another same own only just up down out off again further once here s t don approximately
    roughly around nearly almost about total company company's fy fiscal year years quarter q
    answer here assumes while although though one two three amount""".split()  # noqa: SIM905
)


# finqa's own notes on how an answer was made ('Computed by finqa as ...', 'Read offline from this
# sentence ...; finqa judged its wording, not figures', 'the figure is as stated, not computed',
# '(the catalogue's definition; ...)', a part's answer saying which figures it read: 'not the
# consolidated figures', 'this is the segment's figure, not the consolidated one'):
# they say nothing about the filing, so there is nothing in them to ground (figures in them are
# still checked as figures)
_PROVENANCE = re.compile(
    r"\bfinqa\b|^\W*read offline\b|^\W*the figure is as stated\b|\bthe catalogue'?s definition\b"
    r"|^\W*(?:this is the [\w ]{1,30}'s (?:own )?figures?,\s*)?not the consolidated (?:figures?|ones?)"
    r"\W*$",
    re.I,
)


# the line an answer says it read its figure from ('Read from the line 'Net sales 1,000 900'')
_LINE_READ = re.compile(r"\bread from the line ['\u2018]([^'\u2019]+)", re.I)


def line_read(text: str) -> str | None:
    """The caption of the line an answer says it read (the words before the figures it quotes),
    None when it names none: a locator only, what the line prints is read from the filing."""
    from finqa.lexicon.named_line import captions

    m = _LINE_READ.search(text)
    if m is None:
        return None
    return (captions(m.group(1)) or (m.group(1).strip(),))[0]


def is_provenance_note(text: str) -> bool:
    """A note of finqa's own on how the answer was made, not a claim about the filing."""
    return bool(_PROVENANCE.search(text))


_AMOUNTS_IN = re.compile(r"\((?:amounts|figures)\s+in\s+[^)]*\)", re.I)
# an operand as finqa lists it ('pretax income FY2017 = 9,602'), a claim of its own once split
_OPERAND = re.compile(
    r"[A-Za-z][\w ,'&-]{0,80}?\s(?:(?:Q[1-4]\s+)?FY\d{4}|[A-Z][a-z]+\s+\d{1,2},\s+\d{4})"
    r"\s*=\s*[-\u2212]?[\d,.]+"
)


def without_notes(text: str) -> str:
    """The text without finqa's own notes on how it made a figure ('Computed by finqa as ...',
    '(amounts in USD millions)', an operand as it lists them, 'consolidated net income only
    when asked (the catalogue's definition)'): they name no option and no side."""
    text = " ".join(c for c in re.split(r"(?<=\.)\s+", text) if not is_provenance_note(c))
    return _OPERAND.sub(" ", _AMOUNTS_IN.sub(" ", text))


@dataclass(frozen=True)
class Claim:
    """One sentence/clause of the answer with the sources it cites (markers stripped from text)."""

    index: int
    text: str
    start: int
    end: int
    sources: tuple[str, ...] = ()


def _stem(word: str) -> str:
    w = word.lower().strip("'-")
    if w.endswith("'s"):
        w = w[:-2]
    for suffix in ("ies", "es", "s", "ing", "ed", "ly"):
        if len(w) > len(suffix) + 3 and w.endswith(suffix):
            w = w[: -len(suffix)] + ("y" if suffix == "ies" else "")
            break
    return w[:6]


def content_tokens(text: str) -> list[str]:
    """Lower-case stems of the non-stopword words of text (numbers are handled elsewhere)."""
    out = []
    for m in _WORD.finditer(CITATION.sub(" ", text)):
        word = m.group(0).lower()
        if word in STOPWORDS or len(word) < 2:
            continue
        out.append(_stem(word))
    return out


# Sentence ends: '.', '!', '?', ';' or a newline / bullet, but not inside '2.8' or 'Inc.' / 'U.S.'.
_BOUNDARY = re.compile(r"(?<=[.!?;])\s+(?=[\[(\"'A-Za-z0-9$\-•*])|\n+\s*(?:[-•*]\s*)?|(?<=:)\s*\n")
_ABBREV = re.compile(
    r"(?:\b(?:Inc|Corp|Co|Ltd|No|vs|approx|U\.S|e\.g|i\.e|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec|St|Mr|Ms|Dr)\.|\b[A-Z]\.)$"
)


def split_claims(text: str) -> list[Claim]:
    """Split an answer into sentence-level claims, keeping the citation markers of each."""
    pieces: list[tuple[int, int]] = []
    start = 0
    for m in _BOUNDARY.finditer(text):
        head = text[start : m.start()]
        if _ABBREV.search(head.rstrip()):
            continue
        if m.group(0).strip() == "" and head.count("(") > head.count(")") and head.endswith(";"):
            continue  # '(the catalogue's definition; a year-end basis ...)': one aside
        pieces.append((start, m.start()))
        start = m.end()
    pieces.append((start, len(text)))
    claims: list[Claim] = []
    for s, e in pieces:
        raw = text[s:e]
        if not raw.strip():
            continue
        sources = tuple(
            dict.fromkeys(
                ("S" + p.strip().lstrip("Ss"))
                for m in CITATION.finditer(raw)
                for p in re.split(r"[,;]", m.group(1))
            )
        )
        clean = re.sub(r"\s+([.,;:])", r"\1", CITATION.sub("", raw)).strip().lstrip("-•* ").strip()
        if not clean.strip(" .;,-"):
            # a bare citation after a sentence belongs to the sentence before it
            if claims and sources:
                prev = claims[-1]
                claims[-1] = Claim(prev.index, prev.text, prev.start, e, prev.sources + sources)
            continue
        claims.append(Claim(len(claims), clean, s, e, sources))
    return claims
