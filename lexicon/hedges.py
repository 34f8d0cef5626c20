"""Possibility, expectation and risk wording (data/hedges.yaml): a sentence with a modal or a
hedge ('could adversely affect', 'may', 'we expect'), a clause opened by a condition ('If we
lose a major customer, ...'), or a page of the risk factors states what might be, not a fact of
the period, so it is no basis for a yes/no or descriptive answer; nor is an event the sentence
dates from a period after the asked one ('... beginning in January 2020' of a 2019 question)."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Literal

from finqa.lexicon._data import data_cache, read_yaml

__all__ = [
    "future_in",
    "hedge_in",
    "in_risk_factors",
    "not_a_fact",
    "period_fault",
    "prior_period_in",
    "pro_forma_in",
    "starts_after",
]

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


def hedge_in(sentence: str, asked: str = "") -> str | None:
    """The first modal or hedge phrase of `sentence` ('could', 'no assurance'), or the word
    opening a conditional clause ('if'), else None. A phrase the question (`asked`) uses itself
    is what it asks about, not a hedge ('Is X subject to cyclicality?')."""
    pattern, _sections, opening = _patterns()
    own = {" ".join(m.group(0).lower().split()) for m in pattern.finditer(asked)}
    for m in pattern.finditer(sentence):
        if m.group(0).lower() == "may" and _MONTH_MAY.match(sentence, m.start()):
            continue  # 'May 31, 2023' is a date
        if " ".join(m.group(0).lower().split()) in own:
            continue
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


_START_REACH = 30  # characters between a start word and the period it dates the event from


@data_cache()
def _starts() -> re.Pattern[str]:
    words = sorted((read_yaml("hedges.yaml") or {}).get("starts") or (), key=len, reverse=True)
    body = "|".join(re.escape(str(w)).replace(r"\ ", r"\s+") for w in words) or "(?!)"
    return re.compile(rf"\b(?:{body})\b", re.I)


def starts_after(sentence: str, years: Iterable[int]) -> str | None:
    """The period an event of `sentence` starts in ('beginning in January 2020') when it lies
    after every asked fiscal year (its calendar year is later), else None. A fiscal year ending
    early in the next calendar year is not passed over: only a later calendar year counts."""
    from finqa.lexicon.periods import find_periods

    last = max(years, default=None)
    if last is None:
        return None
    for m in _starts().finditer(sentence):
        for p in find_periods(sentence[m.end() : m.end() + _START_REACH + 40]):
            if p.start > _START_REACH:
                break
            if p.kind in ("year", "fy"):
                continue  # a dated start ('in January 2020'), not a year named ('of 2020')
            year = int(p.end_date[:4]) if p.end_date else p.fiscal_year
            if year is not None and year > last:
                return p.text
    return None


@data_cache()
def _prior() -> tuple[re.Pattern[str], re.Pattern[str]]:
    """(a sentence opening on the year before, the same words anywhere in a question)."""
    words = sorted(
        (read_yaml("hedges.yaml") or {}).get("prior_period") or (), key=len, reverse=True
    )
    body = "|".join(re.escape(str(w)).replace(r"\ ", r"\s+") for w in words) or "(?!)"
    opening = re.compile(rf"^\W*(?:(?:in|during|for)\s+)?(?:(?:the|a)\s+)?({body})(?!\w)", re.I)
    return opening, re.compile(rf"\b(?:{body})(?!\w)", re.I)


def prior_period_in(sentence: str, asked: str = "") -> str | None:
    """The phrase a sentence opens on that puts it in the year before the reported period
    ('Last year's third quarter ...', 'In the prior year, ...'), else None; None as well when the
    question (`asked`) names the prior period itself (it then asks about that year)."""
    opening, anywhere = _prior()
    m = opening.match(sentence.strip())
    if m is None or anywhere.search(asked):
        return None
    return m.group(1)


# why a sentence is no fact of the asked period: it states what might be ('possibility') or a
# fact of another period ('other_period'), with what it states in a few words
PeriodFault = tuple[Literal["possibility", "other_period"], str]


def period_fault(
    sentence: str, years: Iterable[int], *, asks_future: bool = False, asked: str = ""
) -> PeriodFault | None:
    """Why `sentence` states no fact of the asked period, else None: a modal or hedge the
    question (`asked`) does not use itself ('a possibility ('plans to')'), the future unless the
    question asks what will be ('what will be ('will')'), an event starting later ('what begins
    in January 2020, after the asked period'), a sentence opening on the year before. The one
    rule the reasoner (`not_a_fact`) and the judge's basis check both apply."""
    hedge = hedge_in(sentence, asked)
    if hedge is not None:
        return "possibility", f"a possibility ('{hedge}')"
    future = None if asks_future else future_in(sentence)
    if future is not None:
        return "possibility", f"what will be ('{future}')"
    later = None if asks_future else starts_after(sentence, years)
    if later is not None:
        return "other_period", f"what begins in {later}, after the asked period"
    prior = prior_period_in(sentence, asked)
    if prior is not None:
        return "other_period", f"what was so in the year before ('{prior}')"
    earlier = earlier_comparison(sentence, years)
    if earlier is not None:
        return "other_period", f"a change of an earlier year ('{earlier}')"
    return None


# a comparison of two years a sentence states: 'in 2016 compared to 2015', '2016 versus 2015',
# 'from 2015 to 2016'
_COMPARED = re.compile(
    r"\b((?:19|20)\d\d)\b[^.;]{0,60}?\b(?:compared\s+(?:to|with)|versus|vs\.?|relative\s+to)\s+"
    r"(?:(?:fiscal|the\s+fiscal\s+year|FY)\s*)?((?:19|20)\d\d)\b",
    re.I,
)
_FROM_TO = re.compile(
    r"\bfrom\s+(?:fiscal\s+|FY\s*)?((?:19|20)\d\d)\s+to\s+(?:fiscal\s+|FY\s*)?((?:19|20)\d\d)\b",
    re.I,
)


def earlier_comparison(sentence: str, years: Iterable[int]) -> str | None:
    """The comparison of two years a sentence states when its later year is before the latest
    year asked ('Gross margin percentage decreased in 2016 compared to 2015', read for fiscal
    2017: a change of the year before), or the one year a movement is said of before its cause
    ('The increase in the gross margin percentage in 2014 was driven by', read for 2015), else
    None. A sentence comparing the asked year, or a
    question naming no year, is not ruled out."""
    latest = max(years, default=None)
    if latest is None:
        return None
    for rx in (_COMPARED, _FROM_TO):
        for m in rx.finditer(sentence):
            pair = (int(m.group(1)), int(m.group(2)))
            if max(pair) < latest:
                return m.group(0)
    for m in _moved_in().finditer(sentence):
        # every year the movement is said of is earlier ('to 45% in 2022 from 48% in 2021'
        # is a movement of 2022)
        said = [int(y) for y in re.findall(r"\b(?:19|20)\d\d\b", m.group(0))]
        if said and max(said) < latest:
            return m.group(0)
    return None


@data_cache()
def _moved_in() -> re.Pattern[str]:
    """A movement said of one year, before the cause it is given ('The year-over-year increase
    in the gross margin percentage in 2014 was driven by ...'): the year is the movement's."""
    from finqa.lexicon.movement import alternation

    return re.compile(
        rf"\b(?:{alternation()})\b[^.;]{{0,80}}?\b(?:in|during|for)\s+(?:fiscal\s+(?:year\s+)?|"
        r"FY\s*)?((?:19|20)\d\d)\b(?![^.;]{0,3}\s+(?:compared|versus|vs))[\s,]*(?:was|were)?\s*"
        r"(?:driven|due|caused|attributable|primarily|mainly|largely|principally|resulted)\b",
        re.I,
    )


def not_a_fact(
    sentence: str, years: Iterable[int], *, asks_future: bool = False, asked: str = ""
) -> str | None:
    """Why `sentence` states no fact of the asked period, in a few words (`period_fault`'s
    words), else None."""
    fault = period_fault(sentence, years, asks_future=asks_future, asked=asked)
    return None if fault is None else fault[1]


@data_cache()
def _pro_forma() -> tuple[re.Pattern[str], re.Pattern[str]]:
    raw = (read_yaml("hedges.yaml") or {}).get("pro_forma") or {}
    name = "|".join(raw.get("name") or ()) or "(?!)"
    hypothetical = "|".join(raw.get("hypothetical") or ()) or "(?!)"
    return re.compile(rf"\b(?:{name})\b", re.I), re.compile(rf"\b(?:{hypothetical})\b", re.I)


def pro_forma_in(text: str) -> bool:
    """The text introduces pro forma figures: it names them ('pro forma') and says they are
    hypothetical ('as if the acquisition had occurred', 'unaudited'); such a table's figures
    are not the company's reported ones."""
    name, hypothetical = _pro_forma()
    return bool(name.search(text) and hypothetical.search(text))
