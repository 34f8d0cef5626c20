"""Figures a filing states in a sentence rather than a table, when the sentence pairs them with
their periods itself: 'Amortization expense was $336 million, $375 million and $405 million for
fiscal 2024, 2023 and 2022, respectively'; 'As of June 28, 2025 and September 28, 2024, ... an
aggregate carrying amount of $91.8 billion and $96.7 billion, respectively'.

A sentence is read only when it says 'respectively', lists its dollar amounts one after another
('$A, $B and $C'), each with its scale written ('million', 'billion': never guessed), and names
exactly as many periods as amounts; the periods are read like a table's column header
(`header.read_header`, so 'as of' dates are balances and years are fiscal years by the company's
year end). The line item is the sentence's subject: the words before the amounts, without the
period phrase and the verb. Each sentence becomes a one-row 'other' table on its page.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from finqa.lexicon.model import StatementFact, StatementTable
from finqa.lexicon.numbers import extract_quantities
from finqa.lexicon.periods import PeriodMatch, find_periods
from finqa.lexicon.statements.catalogue import item_for_label
from finqa.lexicon.statements.header import read_header

__all__ = ["read_sentences"]

_RESPECTIVELY = re.compile(r"\brespectively\b", re.I)
_SPLIT = re.compile(r"(?<=[.!?])\s+(?=[A-Z(])|\n")
_BETWEEN = re.compile(r"^\s*,?\s*(?:and\s+)?$", re.I)
_VERB_TAIL = re.compile(
    r"[\s,]*(?:\b(?:was|were|is|are|totaled|totalled|amounted to|of|totaling|totalling|"
    r"approximately|about|for|during|in|the|years?|fiscal|quarters?|months?|periods?|ended|"
    r"first|second|third|fourth|three|six|nine|and|respectively|as of|at)\b[\s,]*)+$",
    re.I,
)
_LEAD = re.compile(r"^(?:[\s,]*(?:as of|at|for|during|in|the|and)\b)+[\s,]*", re.I)
_MAX_LABEL = 120


def read_sentences(
    doc_id: str, pages: Iterable[tuple[int, str]], company: str | None = None
) -> list[StatementTable]:
    """One-row tables of the figures stated 'respectively' in the pages' sentences."""
    out: list[StatementTable] = []
    for page, text in pages:
        if "respectively" not in text:
            continue
        n = 0
        for sentence in _SPLIT.split(text):
            if not _RESPECTIVELY.search(sentence):
                continue
            table = _table(doc_id, page, n, " ".join(sentence.split()), company)
            if table is not None:
                out.append(table)
                n += 1
    return out


def _table(
    doc_id: str, page: int, n: int, sentence: str, company: str | None
) -> StatementTable | None:
    qs = extract_quantities(sentence)
    money = [q for q in qs if q.kind == "number" and q.unit == "USD"]
    if len(money) < 2 or any(q.scale_source != "explicit" or q.scale < 1e3 for q in money):
        return None
    for a, b in zip(money, money[1:], strict=False):
        if not _BETWEEN.match(sentence[a.end : b.start]):
            return None  # not one list of amounts
    first, last = money[0], money[-1]
    rest = sentence[: first.start] + " " + sentence[last.end :]
    periods_found = [p for p in find_periods(rest, company) if p.fiscal_year is not None]
    if len(periods_found) != len(money):
        return None
    header = read_header([_period_text(rest, periods_found)], "other", company)
    if header is None or len(header.periods) != len(money):
        return None
    label = _label(sentence[: first.start], periods_found)
    if not label:
        return None
    item = item_for_label(label)
    table_id = f"p{page}-s{n}"
    facts = tuple(
        StatementFact(
            doc_id=doc_id,
            statement="other",
            table_id=table_id,
            table_title=sentence[:150],
            label=label,
            item=item,
            period=period,
            value=q.value * q.scale,
            scale=q.scale,
            negative=q.value < 0,
            page=page,
            row=0,
            column=i,
            raw=q.text,
        )
        for i, (q, period) in enumerate(zip(money, header.periods, strict=True))
    )
    return StatementTable(
        table_id=table_id,
        doc_id=doc_id,
        statement="other",
        title=sentence[:150],
        pages=(page,),
        scale=money[0].scale,
        periods=header.periods,
        labels=(label,),
        facts=facts,
        notes=("read from a sentence that pairs its amounts with its periods ('respectively')",),
    )


def _period_text(rest: str, periods: list[PeriodMatch]) -> str:
    """The sentence's period phrases, joined, as a column header would state them ('as of'
    kept: it makes the columns balances)."""
    spans = [(p.start, p.end) for p in periods]
    text = " ".join(rest[a:b] for a, b in spans)
    if re.search(r"\b(?:as of|at)\b", rest[: spans[0][0]] if spans else "", re.I):
        text = "As of " + text
    return text


def _label(before: str, periods: list[PeriodMatch]) -> str:
    """The subject before the amounts, without its period phrase, lead-in and verb."""
    text = before
    for p in sorted(periods, key=lambda p: -p.start):
        if p.end <= len(before):
            text = text[: p.start] + " " + text[p.end :]
    text = re.sub(r"\s+,", ",", " ".join(text.split()))
    text = _LEAD.sub("", text)
    text = _VERB_TAIL.sub("", text).strip(" ,")
    if "," in text:  # 'As of <dates>, the Company had ...': the clause after the comma
        text = text.rsplit(",", 1)[-1].strip()
    text = _LEAD.sub("", text).strip(" ,")
    if not re.search(r"[A-Za-z]{3}", text) or len(text) > _MAX_LABEL:
        return ""
    return text[:1].upper() + text[1:]
