"""A part of the business named by the adjective of its place ('Canadian operations', 'U.S.
segment', 'European revenue'): the country or region, a dimension of the asked fact. The
adjectives are general language (`data/demonyms.csv`: adjective, the place's name, its ISO code
for a country), never a filing's; the place is then read against the filing's own members.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from finqa.lexicon._data import data_cache, read_csv

if TYPE_CHECKING:
    from finqa.lexicon.model import AskedDimension

__all__ = ["place_adjective"]

# what a place's adjective qualifies when it names a part: the part itself ('operations',
# 'segment', 'business') or a figure of it ('revenue', 'net sales': a catalogue line item)
_PART_NOUN = re.compile(
    r"^\s+(?:operations|operating\s+segments?|segments?|business(?:es)?|divisions?|units?|"
    r"markets?|subsidiaries|region|reportable\s+segments?)\b",
    re.I,
)
# the adjective used of something other than a part: a currency, a rule book, a tax
_NOT_PART = re.compile(
    r"^\W*(?:gaap|dollars?|currenc(?:y|ies)|exchange|federal|state|treasury|tax(?:es)?|government|statutory|"
    r"income\s+tax|corporate\s+tax|pension|plans?|investors?|shareholders?|stockholders?)\b",
    re.I,
)


@data_cache()
def _adjectives() -> tuple[tuple[str, str, str], ...]:
    """(adjective, place, ISO code or '') longest adjective first."""
    rows = [
        (a.strip(), r["place"].strip(), (r.get("code") or "").strip().upper())
        for r in read_csv("demonyms.csv")
        for a in r["adjective"].split("|")
    ]
    return tuple(sorted(rows, key=lambda r: len(r[0]), reverse=True))


def place_adjective(question: str) -> AskedDimension | None:
    """The country or region whose adjective qualifies a part or a figure of the question
    ('Costco's Canadian operations', 'European revenue'), capitalised as a name and not inside
    a company's name; None when the question names none."""
    from finqa.lexicon.entities import find_companies
    from finqa.lexicon.metrics import find_metrics
    from finqa.lexicon.model import AskedDimension

    companies = [(c.start, c.end) for c in find_companies(question)]
    figures = {m.start for m in find_metrics(question)}
    if not figures:
        return None  # a part with no figure asked of it ('did the European segment grow?')
    for adjective, place, _code in _adjectives():
        for m in re.finditer(rf"(?<![\w.]){re.escape(adjective)}(?![\w])", question):
            if any(a <= m.start() < b for a, b in companies):
                continue
            after = question[m.end() :]
            if _NOT_PART.match(after):
                continue
            gap = len(after) - len(after.lstrip())
            # the figure may open a word or two later ('international net revenues change')
            near = re.match(r"\s*(?:[A-Za-z-]+\s+){0,2}", after)
            reach = m.end() + (near.end() if near else gap)
            if not (_PART_NOUN.match(after) or any(m.end() + gap <= f <= reach for f in figures)):
                continue
            # the place by its name: read against the filing's own members (a country's tag,
            # a printed 'Canada' or 'Europe' row) as a part the question names
            return AskedDimension(kind="geography", phrase=place, label=place)
    return None
