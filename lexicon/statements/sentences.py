"""Figures a filing states in a sentence rather than a table, when the sentence pairs them with
their periods itself: 'Amortization expense was $336 million, $375 million and $405 million for
fiscal 2024, 2023 and 2022, respectively'; 'As of June 28, 2025 and September 28, 2024, ... an
aggregate carrying amount of $91.8 billion and $96.7 billion, respectively'.

A sentence is read only when it says 'respectively', lists its dollar amounts one after another
('$A, $B and $C'), each with its scale written ('million', 'billion': never guessed) or, in the
notes, under the scale the notes' head states for all of them ('(Dollars in millions, except
otherwise stated)': 'Net income tax payments/(refunds) were $187, $204 and ($1,317) in 2024,
2023 and 2022, respectively'), and names exactly as many periods as the list has amounts; the
periods are read like a table's column header (`header.read_header`, so 'as of' dates are
balances and years are fiscal years by the company's year end). In a sentence of several lists
(each as long as the first), the first list's periods are those named before it or between it
and the 'respectively' that follows it ('We made income tax payments of $3,262 million, $2,580
million and $2,403 million in 2024, 2023 and 2022, respectively, which included $964 million,
...'); a later list ('including amounts ... of $18.8 billion, ...') is not the subject's.
The line item is the sentence's subject: the words before the first list, without the period
phrase, the verb and a leading 'we made' ('We made income tax payments of $3,262 million, ...':
'Income tax payments'); a caption's own qualifier after a comma stays ('Cash paid for income
taxes, net of refunds'). A flow's figures stated 'as of' its fiscal years' ends ('Cash paid for
income taxes ... was $18.9 billion, ... as of December 31, 2022, 2023, and 2024') are those
fiscal years': a payment has no balance. Each sentence becomes a one-row 'other' table on its
page.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from finqa.lexicon.model import StatementFact, StatementPeriod, StatementTable
from finqa.lexicon.numbers import Quantity, detect_scale, extract_quantities
from finqa.lexicon.periods import PeriodMatch, find_periods
from finqa.lexicon.statements.catalogue import item_for_label
from finqa.lexicon.statements.header import read_header
from finqa.lexicon.statements.signs import item_nature

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
# the filer as the subject of a verb of doing ('We made income tax payments of'): the object
# is the line
_WE = re.compile(
    r"^(?:we|the company)\s+(?:made|paid|incurred|recorded|recognized|had)\s+(?:total\s+)?",
    re.I,
)
# a caption's own qualifier after its comma ('Cash paid for income taxes, net of refunds')
_QUALIFIER = re.compile(r",\s*(?:net\b|including\b|excluding\b)", re.I)
_MAX_LABEL = 120


def read_sentences(
    doc_id: str,
    pages: Iterable[tuple[int, str]],
    company: str | None = None,
    notes: tuple[int, str] | None = None,
) -> list[StatementTable]:
    """One-row tables of the figures stated 'respectively' in the pages' sentences; `notes` is
    (page, scale statement) of the notes' head (`reader.notes_scale`): from that page on, a
    list of dollar amounts with no scale written is in that scale."""
    out: list[StatementTable] = []
    for page, text in pages:
        if "respectively" not in text:
            continue
        inherited = detect_scale(notes[1]) if notes is not None and page >= notes[0] else None
        n = 0
        for sentence in _SPLIT.split(text):
            if not _RESPECTIVELY.search(sentence):
                continue
            table = _table(doc_id, page, n, " ".join(sentence.split()), company, inherited)
            if table is not None:
                out.append(table)
                n += 1
    return out


def _table(
    doc_id: str, page: int, n: int, sentence: str, company: str | None, inherited: float | None
) -> StatementTable | None:
    qs = extract_quantities(sentence)
    money = [q for q in qs if q.kind == "number" and q.unit == "USD"]
    lists = _lists(sentence, money)
    if not lists or len(lists[0]) < 2:
        return None
    scales = _scales(money, inherited)
    if scales is None:
        return None
    run = lists[0]
    first, last = run[0], run[-1]
    after = sentence[last.end :]
    if len(lists) > 1:  # the periods are the first list's: up to the 'respectively' after it
        said = _RESPECTIVELY.search(after)
        if said is None:
            return None
        after = after[: said.end()]
        for other in reversed(lists[1:]):  # a later list's amounts are no periods of the first
            a, b = other[0].start - last.end, other[-1].end - last.end
            if a < len(after):
                after = after[:a] + " " + after[b:]
    rest = sentence[: first.start] + " " + after
    periods_found = [p for p in find_periods(rest, company) if p.fiscal_year is not None]
    if len(periods_found) != len(run):
        return None
    header = read_header([_period_text(rest, periods_found)], "other", company)
    if header is None or len(header.periods) != len(run):
        return None
    label = _label(sentence[: first.start], periods_found)
    if not label:
        return None
    item = item_for_label(label)
    periods = _flow_periods(header.periods, item)
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
            value=q.value * scales[q.start],
            scale=scales[q.start],
            negative=q.value < 0,
            page=page,
            row=0,
            column=i,
            raw=q.text,
        )
        for i, (q, period) in enumerate(zip(run, periods, strict=True))
    )
    return StatementTable(
        table_id=table_id,
        doc_id=doc_id,
        statement="other",
        title=sentence[:150],
        pages=(page,),
        scale=scales[first.start],
        periods=periods,
        labels=(label,),
        facts=facts,
        notes=(
            "read from a sentence that pairs its amounts with its periods ('respectively')",
            *(() if first.scale_source == "explicit" else ("scale from the head of the notes",)),
        ),
    )


def _lists(sentence: str, money: list[Quantity]) -> list[list[Quantity]]:
    """The sentence's lists of amounts ('$A, $B and $C'), in order; [] unless every list has
    as many amounts as the first (one 'respectively' pairs each with the same periods)."""
    lists: list[list[Quantity]] = []
    for q in money:
        if lists and _BETWEEN.match(sentence[lists[-1][-1].end : q.start]):
            lists[-1].append(q)
        else:
            lists.append([q])
    return lists if all(len(one) == len(lists[0]) for one in lists) else []


def _scales(money: list[Quantity], inherited: float | None) -> dict[int, float] | None:
    """Each amount's scale by its start: the one written beside every amount ('$3,262
    million'), else, where none is written, the notes' (`inherited`) for dollar amounts
    ('$187'); None when neither holds (a scale is never guessed)."""
    if all(q.scale_source == "explicit" and q.scale >= 1e3 for q in money):
        return {q.start: q.scale for q in money}
    if inherited and all(
        q.scale_source == "none" and "$" in q.text and not q.decimals for q in money
    ):  # whole dollars: a price or a per-share amount ('$204.15') is in no scale
        return {q.start: inherited for q in money}
    return None


def _flow_periods(
    periods: tuple[StatementPeriod, ...], item: str | None
) -> tuple[StatementPeriod, ...]:
    """A flow's figures stated 'as of' fiscal year ends are those fiscal years' (a payment,
    an expense has no balance); any other period stays as read."""
    nature = item_nature(item)
    if nature is None or nature.period_type != "duration":
        return periods
    if not all(p.instant and p.quarter is None and p.fiscal_year for p in periods):
        return periods
    return tuple(
        StatementPeriod(label=p.label, fiscal_year=p.fiscal_year, end_date=p.end_date, months=12)
        for p in periods
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
    if "," in _QUALIFIER.sub(" ", text):  # 'As of <dates>, the Company had ...': the clause
        cut = max(
            m.start() for m in re.finditer(",", text) if not _QUALIFIER.match(text, m.start())
        )
        text = text[cut + 1 :].strip()  # after the comma, a caption's own qualifier kept
    text = _WE.sub("", _LEAD.sub("", text)).strip(" ,")
    if not re.search(r"[A-Za-z]{3}", text) or len(text) > _MAX_LABEL:
        return ""
    return text[:1].upper() + text[1:]
