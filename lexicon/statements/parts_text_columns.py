"""A segment note printed as text whose columns are the parts of the business.

Extracted text keeps a parts-as-columns table's header as lines of words ('United States
Canada' / 'Other' / 'International Total'), one line per period ('2022') over rows of one
figure per part and a total ('Total revenue $ 165,294 $ 31,675 $ 29,985 $ 226,954'). Where a
column's name breaks across lines is lost; the header's words are split into names by what the
words are, never by a list of one filing's parts:

- a country's name (`data/country_codes.csv`, longest first) is one name;
- the words between two such names are one name; without a country, names that end with the
  same word ('United States Operations', 'Canadian Operations') end after each occurrence;
- the last word is the total's ('Total', 'Consolidated');
- where those give no name per figure column, the names the filing's own sentences list as
  its segments (`parts_names.listed_names`: 'Walmart U.S.', "Sam's Club") and countries are
  each one name, a name printed with a trailing comma goes on into the next ('Europe,' /
  'Middle East & Africa'), and each run of words between them is one name or one name per
  word ('Corporate Eliminations'), whichever gives one name per figure column (a header
  where both or neither do is left alone).

The split is read only when it gives one name per figure column but the last, and each row's
parts add up to its last figure; a header the words cannot split is left alone.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from finqa.lexicon.model import StatementFact, StatementTable

__all__ = ["text_column_parts", "header_names", "named_split"]

_TOTAL_WORD = re.compile(r"^(?:total|consolidated)$", re.I)
_MAX_HEADER_LINES = 12  # a header of nine columns breaks its names over ten lines
_LONGEST_NAME = 6  # words of the longest listed name matched in a header
# a sentence's end: a colon, or a full stop not of an initialism or a company's suffix
# ('Walmart U.S.', 'Acme Inc.' end column names)
_SENTENCE_END = re.compile(r":\s*$|(?<!\b[A-Z])(?<!\bInc)(?<!\bCorp)(?<!\bCo)(?<!\bLtd)\.\s*$")
_FOOTNOTE = re.compile(r"^\s*\(\d\)\s*$")
_SCALE_CAPTION = re.compile(r"\([^()]*\b(?:thousands|millions|billions)\b[^()]*\)", re.I)
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


def _key(text: str) -> str:
    """A name's letters and digits, '&' read as 'and' ('Middle East & Africa')."""
    from finqa.lexicon.dimension_members import name_key

    return name_key(text.replace("&", " and "))


def named_split(words: Sequence[str], known: Iterable[str], width: int) -> list[str] | None:
    """`width` names of a header's words (its last the total's) split by the names the
    filing lists and countries (see the module doc); None when no one split fits."""
    from finqa.lexicon.dimension_members import country_keys

    if len(words) < 3 or not _TOTAL_WORD.match(words[-1]):
        return None
    keys = {_key(n) for n in known} | set(country_keys())
    keys.discard("")
    body = list(words[:-1])
    pieces: list[tuple[bool, list[str]]] = []  # (a listed name, its words)
    i = 0
    while i < len(body):
        span = next(
            (
                n
                for n in range(min(_LONGEST_NAME, len(body) - i), 0, -1)
                if _key(" ".join(body[i : i + n])) in keys
            ),
            0,
        )
        if span:
            name = body[i : i + span]
            if pieces and pieces[-1][0] and pieces[-1][1][-1].endswith(","):
                pieces[-1][1].extend(name)  # 'Europe,' goes on: 'Europe, Middle East & Africa'
            else:
                pieces.append((True, name))
            i += span
            continue
        if pieces and not pieces[-1][0] or pieces and pieces[-1][1][-1].endswith(","):
            pieces[-1][1].append(body[i])
        else:
            pieces.append((False, [body[i]]))
        i += 1
    if not any(listed for listed, _ in pieces):
        return None
    runs = [k for k, (listed, _) in enumerate(pieces) if not listed]
    needed = width - 1 - (len(pieces) - len(runs))
    fits = []
    for per_word in _choices([len(pieces[k][1]) for k in runs]):
        count = sum(len(pieces[k][1]) if split else 1 for k, split in zip(runs, per_word, strict=True))  # fmt: skip
        if count == needed:
            fits.append(per_word)
    if len(fits) != 1:
        return None
    split_runs = dict(zip(runs, fits[0], strict=True))
    names: list[str] = []
    for k, (_, ws) in enumerate(pieces):
        names += ws if split_runs.get(k) else [" ".join(ws)]
    return [*(_spelled_out(n, known) for n in names), words[-1]]


def _spelled_out(name: str, known: Iterable[str]) -> str:
    """The listed name a column's name abbreviates ('MFC' for the listed 'Missiles and Fire
    Control'), so one part keeps one name across the filing's tables; else the name."""
    from finqa.lexicon._dimension_names import abbreviates

    if _key(name) in {_key(n) for n in known}:
        return name
    full = {n for n in known if abbreviates(name, n)}
    return full.pop() if len(full) == 1 else name


def _choices(lengths: Sequence[int]) -> list[tuple[bool, ...]]:
    """Each way of reading runs of words of these lengths: one name, or one name per word
    (the same for a run of one word)."""
    out: list[tuple[bool, ...]] = [()]
    for n in lengths:
        out = [(*c, split) for c in out for split in ((False, True) if n > 1 else (False,))]
    return out


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


def _names_above(lines: Sequence[str], r: int, known: Iterable[str] = ()) -> list[str] | None:
    """The part names of the header lines right above the period line `r` (up to a sentence
    or a row of figures): the most lines whose words split into as many names as the rows
    below print figures."""
    from finqa.lexicon.statements.text import split_row

    width = next((len(c) for ln in lines[r + 1 : r + 3] if (c := split_row(ln)[1])), 0)
    above: list[str] = []
    for ln in reversed(lines[max(0, r - _MAX_HEADER_LINES) : r]):
        if split_row(ln)[1] or len(ln) > _NAME_LINE or _SENTENCE_END.search(ln):
            break  # a row of figures or a sentence ends the header
        above.insert(0, _SCALE_CAPTION.sub(" ", ln))
    listed = tuple(known)
    for k in range(len(above), 0, -1):  # the whole header, from the sentence above it
        words = _header_words(above[-k:])
        got = header_names(words)
        if got is not None and len(got) == width:
            return got
        got = named_split(words, listed, width) if listed and width else None
        if got is not None:
            return got
    return _names_below(lines, r, listed)


def _names_below(lines: Sequence[str], r: int, known: Sequence[str]) -> list[str] | None:
    """The part names printed right below the period line `r`, above its rows ('Year Ended
    December 31, 2020' / 'Activision Blizzard King Total' / 'Segment Revenues' / rows): the
    fewest lines whose words split into a name per figure column."""
    from finqa.lexicon.statements.text import split_row

    window = lines[r + 1 : r + 1 + _MAX_HEADER_LINES]
    width = next((len(c) for ln in window if (c := split_row(ln)[1])), 0)
    below: list[str] = []
    for ln in window:
        if split_row(ln)[1] or len(ln) > _NAME_LINE or _SENTENCE_END.search(ln):
            break
        below.append(ln)
        words = _header_words(below)
        got = header_names(words)
        if got is None or len(got) != width:
            got = named_split(words, known, width) if known and width else None
        if got is not None:
            return got
    return None


def _unmarked(label: str, cells: list[str], width: int) -> tuple[str, list[str]]:
    """A row's caption and cells, a footnote's mark read as a first cell ('Intersegment net
    revenues (1) — 94 — 94') put back on the caption when the row has one cell too many."""
    if len(cells) == width + 1 and _FOOTNOTE.match(cells[0]):
        return f"{label} {cells[0]}", cells[1:]
    return label, cells


def _parts_row(
    label: str, cells: Sequence[str]
) -> tuple[str, list[tuple[float, bool, str]]] | None:
    """The income-statement amount a row of parts' figures is, and its cells read, when every
    cell reads and the parts add up to the last (the total); else None."""
    from finqa.lexicon.statements.parts import close_enough, flow_item, row_item
    from finqa.lexicon.statements.raw import read_cell

    item = row_item(label, last_words=True) or _segment_revenue(label)
    flow = flow_item(item) if item is not None else None
    read = [read_cell(c) for c in cells]
    values = [v for v in read if v is not None]
    if flow is None or len(values) != len(read):
        return None
    amounts = [v[0] for v in values]
    if amounts[-1] == 0 or not close_enough(sum(amounts[:-1]), amounts[-1]):
        return None
    return flow, values


def _segment_revenue(label: str) -> str | None:
    """'Segment net revenues' over columns that are the parts: each part's revenue (a row the
    catalogue names as revenue by segment; `parts.row_item` keeps such a caption for a part's
    own row, where the parts are rows)."""
    from finqa.lexicon.statements.catalogue import item_for_label

    return "segment_revenue" if item_for_label(label) == "segment_revenue" else None


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
    from finqa.lexicon.statements.parts import PARTS_CONTEXT
    from finqa.lexicon.statements.parts_columns import part_axis
    from finqa.lexicon.statements.parts_names import listed_names
    from finqa.lexicon.statements.text import split_row

    pages = list(pages)
    known = listed_names(text for _, text in pages)
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
                    names, head_at = _names_above(lines, r, known), r
                period = info.periods[0] if names is not None else None
                continue
            if names is not None:
                label, cells = _unmarked(label, cells, len(names))
            if period is None or names is None or len(cells) != len(names):
                if cells and period is not None and names is not None and len(cells) != len(names):
                    period = None  # another table below the parts' rows
                continue
            read = _parts_row(label, cells)
            if read is None:
                continue
            flow, values = read
            for c, (name, v) in enumerate(zip(names[:-1], values[:-1], strict=True)):
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
