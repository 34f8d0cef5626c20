"""Abbreviations that filings define ('Chief Executive Officer ("CEO")'), read from
data/abbreviations.csv (mined by `python -m finqa.benchmarks.abbreviation_mining --write`), and
their long forms in a question, for the search's query expansion."""

from __future__ import annotations

import re

from finqa.lexicon._data import DATA_DIR, data_cache, read_csv

__all__ = ["ABBREVIATIONS_PATH", "abbreviations", "abbreviate", "expand_abbreviations"]

ABBREVIATIONS_PATH = DATA_DIR / "abbreviations.csv"
_SPACE = re.compile(r"[^a-z0-9&]+")
_TOKEN = re.compile(r"(?<![A-Za-z&])([A-Z][A-Z&]{1,6})(?:s|'s|’s)?(?![A-Za-z&])")


@data_cache()
def abbreviations() -> dict[str, str]:
    """abbreviation (as filings write it) -> its long form, lower case."""
    return {row["abbreviation"]: row["long_form"] for row in read_csv(ABBREVIATIONS_PATH.name)}


def _used(text: str) -> list[str]:
    """The abbreviations `text` writes (upper case, not inside a longer word), in order."""
    return [m.group(1) for m in _TOKEN.finditer(text)]


def expand_abbreviations(text: str) -> tuple[tuple[str, str], ...]:
    """(abbreviation, long form) for each abbreviation of the table that `text` uses, in order."""
    table = abbreviations()
    return tuple(dict.fromkeys((a, table[a]) for a in _used(text) if a in table))


def _words(text: str) -> str:
    return " " + _SPACE.sub(" ", text.lower()).strip() + " "


@data_cache()
def _long_forms() -> tuple[tuple[str, str], ...]:
    return tuple((a, _words(long)) for a, long in abbreviations().items())


def abbreviate(text: str) -> tuple[tuple[str, str], ...]:
    """(abbreviation, long form) for each long form of the table that `text` spells out and
    whose abbreviation it does not use ('research and development' -> 'R&D')."""
    words, used, table = _words(text), set(_used(text)), abbreviations()
    return tuple((a, table[a]) for a, long in _long_forms() if long in words and a not in used)
