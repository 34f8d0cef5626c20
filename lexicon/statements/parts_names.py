"""The names of a filing's parts, as the filing itself lists them, and the part headings
kept by them.

A heading over a block of line items ('Americas:' / 'Net sales' / 'Operating income') names a
part only when the filing lists that name as a part elsewhere; the same layout prints a basis
of one measure ('Including Fuel' / 'Excluding Fuel' over one segment's net sales) or a measure
of its own ('NIKE Brand wholesale equivalent revenues'), which no list of the filing's parts
holds. A name is listed, whole, by:

- a sentence that lists the segments ('We operate in four business segments: Aeronautics,
  Missiles and Fire Control (MFC), Rotary and Mission Systems (RMS) and Space.', 'our
  reportable segments are A, B and C', 'has three operating segments, A, B and C'): each
  comma- or semicolon-separated item, whole, and an item holding 'and' also as the two names
  it may join (a name may hold 'and' itself: 'Publishing and Advertising');
- a row or column a reader confirmed by arithmetic (parts that add up to their total), or
  a row of figures the name captions anywhere in the filing ('Americas $41,198 $37,678');
- a country (`data/country_codes.csv`).

`listed_names(texts)` reads the sentences; `kept_headings(parts, texts)` drops the figures of
part headings no list names.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from finqa.lexicon.model import StatementTable

__all__ = ["HEADED", "listed_names", "kept_headings"]

HEADED = "part headings over line items"

_LIST = re.compile(
    r"\b(?:reportable|operating|business|reporting)?\s*segments?\s*"
    r"(?:[:\u2014\u2013-]|\bare\b|\binclude\b|\bconsist\s+of\b|\bcomprise\b|,\s+which\s+are\b|,(?=\s+[A-Z]))"
    r"\s*(?:the\s+following\s*:?\s*)?(?P<list>(?:[^.:]|\.(?=\S)){3,400}?)\.(?:\s|$)",
    re.I,
)
_PAREN = re.compile(r"\s*\([^)]*\)")
_MAX_WORDS = 6  # a longer item is a clause, not a name


def _items(text: str) -> list[str]:
    pieces = [p.strip() for p in re.split(r";|,", text) if p.strip()]
    if len(pieces) < 2 and not re.search(r"\band\b", text):
        return []
    out: list[str] = []
    for piece in pieces:
        piece = re.sub(r"^(?:and|or)\s+", "", piece, flags=re.I)
        piece = re.sub(r"^(?:the\s+)", "", piece, flags=re.I)
        out.append(piece)
        words = piece.split()  # 'A and B' may be one name or two: both readings are listed
        for k, w in enumerate(words):
            if w.lower() == "and" and 0 < k < len(words) - 1:
                out += [" ".join(words[:k]), " ".join(words[k + 1 :])]
    names = []
    for name in out:
        name = _PAREN.sub("", name).strip(" \"'“”")
        name = re.sub(r"\s+(?:segments?|businesses)$", "", name, flags=re.I)
        if name and len(name.split()) <= _MAX_WORDS and name[:1].isupper():
            names.append(name)
    return names


def listed_names(texts: Iterable[str]) -> set[str]:
    """The part names the filing's sentences list (see the module doc), as printed."""
    out: set[str] = set()
    for text in texts:
        flat = " ".join(text.split())
        for m in _LIST.finditer(flat):
            out.update(_items(m.group("list")))
    return out


def _row_caption(name: str, texts: Sequence[str]) -> bool:
    """The name printed as the caption of a row of figures ('Americas $41,198 $37,678 9%'):
    a table of the filing lists it, outside the heading layout ('Americas:' over its lines)."""
    row = re.compile(rf"(?im)^[ \t]*{re.escape(name)}(?:[ \t]*\(\w{{1,2}}\))?[ \t]+\$?[ \t]*\(?\d")
    return any(row.search(t) for t in texts)


def kept_headings(parts: Sequence[StatementTable], texts: Sequence[str]) -> list[StatementTable]:
    """`parts` with the figures of part headings (tables noted `HEADED`) kept only for names
    the filing lists (see the module doc)."""
    from finqa.lexicon.dimension_members import name_key
    from finqa.lexicon.dimensions import asked_dimension

    if not any(HEADED in t.notes for t in parts):
        return list(parts)
    names = {name_key(m) for t in parts if HEADED not in t.notes for f in t.facts for _, m in f.dimensions}  # fmt: skip
    names |= {name_key(n) for n in listed_names(texts)}

    pages = list(texts)

    def listed(member: str) -> bool:
        if name_key(member) in names or _row_caption(member, pages):
            return True
        asked = asked_dimension(f"revenue from {member}")
        return asked is not None and str(asked.member or "").startswith("country:")

    out: list[StatementTable] = []
    for t in parts:
        if HEADED not in t.notes:
            out.append(t)
            continue
        facts = tuple(f for f in t.facts if all(listed(m) for _, m in f.dimensions))
        if facts:
            out.append(t.model_copy(update={"facts": facts}))
    return out
