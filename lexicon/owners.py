"""The companies a question names, known to the gazetteer or not, and whether a filing is theirs.

    asked_companies("What was ZETA's revenue in 2024?")   # -> (Owner('ZETA', ...),)

A named company is a gazetteer match (`finqa.lexicon.entities.find_companies`: names, aliases,
former names, brands, tickers) or, for a company the gazetteer does not know, a capitalised name
in the possessive ("ZETA's", "Acme Corp's", "Zeta Stores'"), less English contractions ("What's") and generic
nouns ("Company's") (data/possessive_non_names.txt) and periods ("FY2024's"). `is_company(owner, name, ticker)` says whether a
filing's company (its metadata's name and ticker) is that owner: the same name key (case,
punctuation and legal suffixes aside, `name_forms`), the same ticker, or the same gazetteer
company.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from finqa.lexicon._data import read_words
from finqa.lexicon.entities import find_companies, lookup_company, name_forms, normalize_name

__all__ = ["Owner", "asked_companies", "is_company"]

# "ZETA's", and the plural possessive of a name ending in s ("Zeta Stores'")
_POSSESSIVE = re.compile(
    r"((?:[A-Z0-9][\w&.\-]*\s+){0,3}[A-Z0-9][\w&.\-]*)(?:['\u2019]s\b|(?<=s)['\u2019](?!\w))"
)
_PERIOD = re.compile(r"^(?:FY|Q[1-4]|H[12])?\d{2,4}(?:Q[1-4])?$", re.I)


@dataclass(frozen=True)
class Owner:
    """One company a question names: as written, its name keys and tickers."""

    written: str
    keys: frozenset[str]
    tickers: frozenset[str]


def _owner(written: str, name: str | None = None) -> Owner:
    company = lookup_company(name or written)
    keys = set(name_forms(written)) | {normalize_name(written)}
    tickers = {written.upper()} if written.isupper() and len(written) <= 6 else set()
    if company is not None:
        for alias in (company.name, company.legal_name, *company.aliases, *company.former_names):
            keys.update(name_forms(alias) if alias else ())
        tickers.update(t for t in (company.ticker, *company.other_tickers) if t)
    return Owner(written, frozenset(k for k in keys if k), frozenset(tickers))


def asked_companies(question: str) -> tuple[Owner, ...]:
    """Every company the question names, in order (gazetteer matches, then unknown possessives)."""
    found = find_companies(question)
    owners = [_owner(m.matched, m.name) for m in found]
    taken = [(m.start, m.end) for m in found]
    not_names = read_words("possessive_non_names.txt")
    leading = read_words("question_lead_words.txt")
    for m in _POSSESSIVE.finditer(question):
        words = m.group(1).split()
        while words and words[0].lower() in leading:
            words = words[1:]
        if not words or words[-1].lower() in not_names or _PERIOD.match(words[-1]):
            continue
        start = m.start(1) + m.group(1).find(words[0])
        if any(s < m.end(1) and start < e for s, e in taken):
            continue
        owners.append(_owner(" ".join(words)))
    seen: set[frozenset[str]] = set()
    unique = []
    for o in owners:
        if o.keys not in seen:
            seen.add(o.keys)
            unique.append(o)
    return tuple(unique)


def is_company(owner: Owner, name: str | None, ticker: str | None) -> bool:
    """Whether a filing whose company is `name` (ticker `ticker`) belongs to `owner`."""
    if ticker and ticker.upper() in owner.tickers:
        return True
    if not name:
        return False
    theirs = _owner(name)
    return bool(owner.keys & theirs.keys) or bool(owner.tickers & theirs.tickers)
