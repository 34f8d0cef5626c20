"""A country's revenue stated in prose, not in a table: 'Total U.S. revenues were $4.6 billion
and $8.9 billion, respectively, for the three and six months ended June 30, 2025, and ...';
'revenues from shipments to and from Mexico, which amounted to $3.0 billion in 2024'.

A sentence is read only when everything is said, never guessed:

- its subject is revenue of exactly one country (`data/country_codes.csv`: a region's name in
  prose may be a market, not a part the filing reports), the country named as where the
  revenue comes from ('U.S. revenues', 'revenues from ... Mexico'), and no other country in
  the sentence;
- the subject meets its amounts through a verb of level ('were', 'amounted to', 'totaled'), not
  of change ('increased by');
- each run of dollar amounts ('$A and $B') has its scale written and is followed by its
  periods, as many periods as amounts (two or more amounts only with 'respectively'); the
  periods are read like a column header (`header.read_header`), 'three and six months ended X'
  as the two periods it names.

`country_sentence_parts` returns one 'segment' table per sentence read, its facts the country's
revenue on the geographical axis (member `country:XX`), beside the tables read from the page.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from finqa.lexicon.model import StatementFact, StatementPeriod, StatementTable
from finqa.lexicon.numbers import Quantity

__all__ = ["country_sentence_parts"]

_SPLIT = re.compile(r"(?<=[.!?])\s+(?=[A-Z(])|\n")
_REVENUE = r"(?:net\s+)?(?:revenues?|sales)"
_PLACE = r"(?P<place>[A-Z][\w.]*(?:\s+[A-Z][\w.]*){0,2})"
_SUBJECT = (
    re.compile(rf"\b(?:[Tt]otal\s+)?{_PLACE}\s+{_REVENUE}\b"),  # 'Total U.S. revenues'
    re.compile(
        rf"\b{_REVENUE}\s+(?:[a-z]+\s+){{0,6}}?(?:from|in|within|attributable\s+to)"
        rf"\s+(?:the\s+)?{_PLACE}"
    ),  # 'revenues from shipments to and from Mexico'
)
_LEVEL = re.compile(
    r"^[\s,]*(?:which\s+)?(?:were|was|are|is|amounted\s+to|totaled|totalled|totaling|"
    r"totalling|of)\s+(?:approximately\s+|about\s+)?$",
    re.I,
)
_BETWEEN = re.compile(r"^\s*,?\s*(?:and\s+)?$", re.I)
_RESPECTIVELY = re.compile(r"\brespectively\b", re.I)
# where a run's own periods end: a comparison or a cause, or the next clause
_CLAUSE_END = re.compile(
    r",\s+(?:up|down|an?\s+(?:increase|decrease)|compared|driven|due|primarily|reflecting|"
    r"which|while|as)\b|%|;",
    re.I,
)
_TWO_DURATIONS = re.compile(
    r"\b(three|six|nine|twelve)\s+and\s+(three|six|nine|twelve)\s+months\s+ended\s+"
    r"([A-Z][a-z]+\.?\s+\d{1,2},?\s+\d{4})",
    re.I,
)


def _country(place: str) -> str | None:
    from finqa.lexicon.dimensions import asked_dimension

    asked = asked_dimension(f"revenue from {place}")
    member = asked.member if asked is not None else None
    return member if member and member.startswith("country:") else None


def _countries_in(sentence: str) -> set[str]:
    """Every country the sentence names as a place (the subject's, or any other)."""
    from finqa.lexicon.dimensions import asked_dimension

    found: set[str] = set()
    for m in re.finditer(r"\b(?:in|from|to|of|within|outside|and)\s+(?:the\s+)?([A-Z][\w.]*(?:\s+[A-Z][\w.]*){0,2})", sentence):  # fmt: skip
        asked = asked_dimension(f"revenue from {m.group(1)}")
        if asked is not None and (asked.member or "").startswith("country:"):
            found.add(str(asked.member))
    for m in _SUBJECT[0].finditer(sentence):
        if (code := _country(m.group("place"))) is not None:
            found.add(code)
    return found


def _subject(sentence: str, first: int) -> tuple[str, str] | None:
    """The country whose revenue the words before the first amount are, met through a verb
    of level, and those words ('Total U.S. revenues'); None when they are not one country's
    revenue."""
    before = sentence[:first]
    for rx in _SUBJECT:
        for m in rx.finditer(before):
            code = _country(m.group("place"))
            if code is not None and _LEVEL.match(before[m.end() :]):
                return code, m.group(0)
    return None


def _runs(money: Sequence[Quantity], sentence: str) -> list[list[Quantity]]:
    """The amounts in runs listed one after another ('$A and $B')."""
    runs: list[list[Quantity]] = []
    for q in money:
        if runs and _BETWEEN.match(sentence[runs[-1][-1].end : q.start]):
            runs[-1].append(q)
        else:
            runs.append([q])
    return runs


def _periods(text: str, company: str | None) -> list[StatementPeriod]:
    from finqa.lexicon.periods import find_periods
    from finqa.lexicon.statements.header import read_header

    text = _TWO_DURATIONS.sub(r"\1 months ended \3 and \2 months ended \3", text)
    found = [p for p in find_periods(text, company) if p.fiscal_year is not None]
    if not found:
        return []
    header = read_header([" ".join(text[p.start : p.end] for p in found)], "other", company)
    return list(header.periods) if header is not None else []


def _facts(
    doc_id: str, page: int, n: int, sentence: str, company: str | None
) -> list[StatementFact]:
    from finqa.lexicon.dimensions import KIND_AXES
    from finqa.lexicon.numbers import extract_quantities

    qs = extract_quantities(sentence)
    money = [q for q in qs if q.kind == "number" and q.unit == "USD"]
    if not money or any(q.scale_source != "explicit" or q.scale < 1e3 for q in money):
        return []
    subject = _subject(sentence, money[0].start)
    if subject is None or _countries_in(sentence) != {subject[0]}:
        return []
    code, label = subject
    runs = _runs(money, sentence)
    out: list[StatementFact] = []
    for k, run in enumerate(runs):
        stop = runs[k + 1][0].start if k + 1 < len(runs) else len(sentence)
        after = sentence[run[-1].end : stop]
        if len(run) > 1 and not _RESPECTIVELY.search(after):
            return []  # two amounts and no order said
        after = _RESPECTIVELY.sub(" ", after)
        cut = _CLAUSE_END.search(after)
        periods = _periods(after[: cut.start()] if cut else after, company)
        if len(periods) != len(run):
            continue  # 'for both the six months ...': not one period per amount
        for q, period in zip(run, periods, strict=True):
            out.append(
                StatementFact(
                    doc_id=doc_id, statement="segment", table_id=f"p{page}-ps{n}-parts",
                    table_title=sentence[:150], label=label,
                    item="revenue", period=period, value=q.value * q.scale, scale=q.scale,
                    negative=q.value < 0, page=page, row=0, column=len(out), raw=q.text,
                    dimensions=((KIND_AXES["geography"], code),), source="text",
                )
            )  # fmt: skip
    return out


def country_sentence_parts(
    doc_id: str, pages: Iterable[tuple[int, str]], company: str | None = None
) -> list[StatementTable]:
    """One 'segment' table per sentence stating a country's revenue (see the module doc)."""
    out: list[StatementTable] = []
    for page, text in pages:
        if "$" not in text:
            continue
        for n, raw in enumerate(_SPLIT.split(text)):
            sentence = " ".join(raw.split())
            if not re.search(_REVENUE, sentence, re.I) or len(sentence) > 600:
                continue
            facts = _facts(doc_id, page, n, sentence, company)
            if not facts:
                continue
            out.append(
                StatementTable(
                    table_id=facts[0].table_id, doc_id=doc_id, statement="segment",
                    title=sentence[:150], pages=(page,), scale=facts[0].scale,
                    periods=tuple(dict.fromkeys(f.period for f in facts)),
                    labels=(facts[0].label,), facts=tuple(facts), source="text",
                    notes=("a country's revenue stated in a sentence",),
                )
            )  # fmt: skip
    return out
