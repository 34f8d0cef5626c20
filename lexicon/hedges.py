"""Possibility, expectation and risk wording (data/hedges.yaml): a sentence with a modal or a
hedge ('could adversely affect', 'may', 'we expect'), a clause opened by a condition ('If we
lose a major customer, ...'), or a page of the risk factors states what might be, not a fact of
the period, so it is no basis for a yes/no or descriptive answer."""

from __future__ import annotations

import re

from finqa.lexicon._data import data_cache, read_yaml

__all__ = ["future_in", "hedge_in", "in_risk_factors"]

_MONTH_MAY = re.compile(r"may\s+\d", re.I)


@data_cache()
def _patterns() -> tuple[re.Pattern[str], tuple[str, ...], re.Pattern[str]]:
    raw = read_yaml("hedges.yaml") or {}
    phrases = sorted(
        {str(p).lower() for p in [*(raw.get("modal") or ()), *(raw.get("hedges") or ())]},
        key=len,
        reverse=True,
    )
    body = "|".join(re.escape(p).replace(r"\ ", r"\s+") for p in phrases)
    sections = tuple(str(s).lower() for s in raw.get("risk_sections") or ())
    conditions = "|".join(re.escape(str(w)) for w in raw.get("conditional") or ()) or "(?!)"
    # a condition opens the sentence or a clause (after a comma, a semicolon or a dash), not
    # 'as if' or 'determine if' inside one
    opening = re.compile(rf"(?:^|[,;:\u2014-]\s*)\W*((?:{conditions}))\b", re.I)
    return re.compile(rf"\b(?:{body})\b", re.I), sections, opening


def hedge_in(sentence: str) -> str | None:
    """The first modal or hedge phrase of `sentence` ('could', 'no assurance'), or the word
    opening a conditional clause ('if'), else None."""
    pattern, _sections, opening = _patterns()
    for m in pattern.finditer(sentence):
        if m.group(0).lower() == "may" and _MONTH_MAY.match(sentence, m.start()):
            continue  # 'May 31, 2023' is a date
        return m.group(0)
    condition = opening.search(sentence)
    return condition.group(1) if condition else None


@data_cache()
def _future() -> re.Pattern[str]:
    words = (read_yaml("hedges.yaml") or {}).get("future") or ()
    body = "|".join(re.escape(str(w)).replace(r"\ ", r"\s+") for w in words) or "(?!)"
    return re.compile(rf"\b(?:{body})\b", re.I)


def future_in(text: str) -> str | None:
    """The word that puts `text` in the future ('will', 'going to'), else None."""
    m = _future().search(text)
    return m.group(0) if m else None


def in_risk_factors(section: str | None, text: str = "") -> bool:
    """A source from the risk factors: its section heading, or its page's opening lines, say so."""
    _pattern, sections, _opening = _patterns()
    head = " ".join([(section or ""), text[:300]]).lower()
    return any(s in head for s in sections)
