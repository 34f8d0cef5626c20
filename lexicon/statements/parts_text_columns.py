"""A segment note printed as text whose columns are the parts of the business.

Extracted text keeps a parts-as-columns table's header as lines of words ('United States
Canada' / 'Other' / 'International Total'), one line per period ('2022') over rows of one
figure per part and a total ('Total revenue $ 165,294 $ 31,675 $ 29,985 $ 226,954'). Where a
column's name breaks across lines is lost; the header's words are split into names by what the
words are, never by a list of one filing's parts:

- a country's name (`data/country_codes.csv`, longest first) is one name;
- the words between two such names are one name; without a country, names that end with the
  same word ('United States Operations', 'Canadian Operations') end after each occurrence;
- the last word is the total's ('Total', 'Consolidated').

The split is read only when it gives one name per figure column but the last, and each row's
parts add up to its last figure; a header the words cannot split is left alone.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from finqa.lexicon.model import StatementFact, StatementTable

__all__ = ["text_column_parts", "header_names"]

_TOTAL_WORD = re.compile(r"^(?:total|consolidated)$", re.I)
_MAX_HEADER_LINES = 8
_NAME_LINE = 60  # a longer line is prose, not a column's name


def header_names(words: Sequence[str]) -> list[str] | None:
    """The part names of a header's words, its last the total's (see the module doc)."""
    from finqa.lexicon.dimension_members import country_keys, name_key

    if len(words) < 3 or not _TOTAL_WORD.match(words[-1]):
        return None
    keys = country_keys()
    names: list[str] = []
    run: list[str] = []
    i, body = 0, list(words[:-1])
    countries = 0
    while i < len(body):
        span = next(
            (
                n
                for n in range(min(4, len(body) - i), 0, -1)
                if name_key(" ".join(body[i : i + n])) in keys
            ),
            0,
        )
        if span:
            if run:
                names.append(" ".join(run))
                run = []
            names.append(" ".join(body[i : i + span]))
            countries += 1
            i += span
        else:
            run.append(body[i])
            i += 1
    if run:
        names.append(" ".join(run))
    alike = _by_last_word(body)  # names that end alike split finer than by countries alone
    if countries == 0 or len(alike) > len(names):
        names = alike
    return [*names, words[-1]] if names else None


def _by_last_word(body: Sequence[str]) -> list[str]:
    """Names that each end with the same word ('United States Operations', 'Canadian
    Operations', 'Other International Operations'): split after each of its occurrences."""
    last = body[-1] if body else ""
    if not last or sum(1 for w in body if w == last) < 2:
        return []
    names: list[str] = []
    run: list[str] = []
    for w in body:
        run.append(w)
        if w == last:
            names.append(" ".join(run))
            run = []
    return names


def _header_words(lines: Sequence[str]) -> list[str]:
    return [w for ln in lines for w in ln.split()]


def _names_above(lines: Sequence[str], r: int) -> list[str] | None:
    """The part names of the header lines right above the period line `r` (up to a sentence
    or a row of figures): the most lines whose words split into as many names as the rows
    below print figures."""
    from finqa.lexicon.statements.text import split_row

    width = next((len(c) for ln in lines[r + 1 : r + 3] if (c := split_row(ln)[1])), 0)
    above: list[str] = []
    for ln in reversed(lines[max(0, r - _MAX_HEADER_LINES) : r]):
        if split_row(ln)[1] or len(ln) > _NAME_LINE or ln.rstrip().endswith((".", ":")):
            break  # a row of figures or a sentence ends the header
        above.insert(0, ln)
    for k in range(len(above), 0, -1):  # the whole header, from the sentence above it
        got = header_names(_header_words(above[-k:]))
        if got is not None and len(got) == width:
            return got
    return None


def text_column_parts(
    doc_id: str,
    pages: Iterable[tuple[int, str]],
    scale: float | None,
    company: str | None = None,
) -> list[StatementTable]:
    """One 'segment' table per page of a note about parts printed with its parts as columns
    (see the module doc); `scale`: the filing's own when the page states none."""
    from finqa.lexicon.numbers import detect_scale
    from finqa.lexicon.statements.header import is_header_line, read_header
    from finqa.lexicon.statements.parts import PARTS_CONTEXT, close_enough, flow_item, row_item
    from finqa.lexicon.statements.parts_columns import part_axis
    from finqa.lexicon.statements.raw import read_cell
    from finqa.lexicon.statements.text import split_row

    out: list[StatementTable] = []
    for page, text in pages:
        if not PARTS_CONTEXT.search(text):
            continue
        lines = [ln.strip() for ln in text.replace("\r\n", "\n").split("\n") if ln.strip()]
        page_scale = detect_scale(text) or scale
        if page_scale is None:
            continue
        names: list[str] | None = None
        head_at = -1
        period = None
        facts: list[StatementFact] = []
        for r, line in enumerate(lines):
            label, cells = split_row(line)
            if not cells and is_header_line(line):
                info = read_header([line], "segment", company)
                if info is None or len(info.periods) != 1:
                    period = None
                    continue
                if names is None:
                    names, head_at = _names_above(lines, r), r
                period = info.periods[0] if names is not None else None
                continue
            if period is None or names is None or len(cells) != len(names):
                if cells and period is not None and names is not None and len(cells) != len(names):
                    period = None  # another table below the parts' rows
                continue
            values = [read_cell(c) for c in cells]
            item = row_item(label, last_words=True)
            flow = flow_item(item) if item is not None else None
            if flow is None or any(v is None for v in values):
                continue
            amounts = [v[0] for v in values if v is not None]
            if amounts[-1] == 0 or not close_enough(sum(amounts[:-1]), amounts[-1]):
                continue
            for c, (name, v) in enumerate(zip(names[:-1], values[:-1], strict=True)):
                if v is None:
                    continue
                facts.append(
                    StatementFact(
                        doc_id=doc_id, statement="segment", table_id=f"p{page}-c{head_at}-parts",
                        table_title="parts as columns: " + ", ".join(names), label=label,
                        item=flow, period=period, value=v[0] * page_scale, scale=page_scale,
                        negative=v[1], page=page, row=r, column=c, raw=cells[c], source="text",
                        dimensions=((part_axis(name), name),),
                    )
                )  # fmt: skip
        if facts:
            out.append(
                StatementTable(
                    table_id=f"p{page}-c{head_at}-parts", doc_id=doc_id, statement="segment",
                    title=facts[0].table_title, pages=(page,), scale=page_scale,
                    periods=tuple({f.period.key: f.period for f in facts}.values()),
                    labels=tuple(dict.fromkeys(f.label for f in facts)), facts=tuple(facts),
                    source="text", notes=("rows named by parts of the business",),
                )
            )  # fmt: skip
    return out
