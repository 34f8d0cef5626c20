"""Read a whole filing into the statement model, once: pages -> typed tables + a report.

`read_pages` works on page text (JSONL pages, or text a loader extracted); `read_pdf` uses
PyMuPDF's `Page.find_tables()` on the statement pages of a PDF and falls back to the text
reader for a page where no grid with periods is found. Both report which pages looked like
statements, which were typed, and why the others were not (never guessed).
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from finqa.lexicon.entities import company_for_doc
from finqa.lexicon.model import StatementKind, StatementTable
from finqa.lexicon.numbers import detect_scale
from finqa.lexicon.statements.attribution import attributed
from finqa.lexicon.statements.build import build_table
from finqa.lexicon.statements.classify import statement_of_page
from finqa.lexicon.statements.equity import continued_scale
from finqa.lexicon.statements.header import is_header_line
from finqa.lexicon.statements.nature_periods import typed_by_nature
from finqa.lexicon.statements.parts_change_columns import drop_change_columns, is_columns_line
from finqa.lexicon.statements.parts_glued import split_glued_headings
from finqa.lexicon.statements.parts_measure_columns import split_measure_groups
from finqa.lexicon.statements.positions import top_lines
from finqa.lexicon.statements.raw import BuildFailure, RawTable
from finqa.lexicon.statements.scale import header_scale
from finqa.lexicon.statements.signs import sign_tables
from finqa.lexicon.statements.text import read_text_page, split_row

__all__ = ["StatementRead", "notes_scale", "read_pages", "read_pdf", "statement_pages"]

_PROSE = 150  # a line this long is prose, not a table row


@dataclass
class StatementRead:
    """The statement model of one filing plus what the reader saw and skipped."""

    doc_id: str
    tables: list[StatementTable] = field(default_factory=list)
    failures: list[BuildFailure] = field(default_factory=list)
    statement_pages: list[int] = field(default_factory=list)  # pages that look like statements
    typed_pages: list[int] = field(default_factory=list)  # of those, pages with a typed table
    page_kinds: dict[int, str] = field(default_factory=dict)  # statement page -> its statement
    method: str = "text"
    seconds: float = 0.0

    @property
    def coverage(self) -> float:
        """Share of statement pages parsed into at least one typed table."""
        if not self.statement_pages:
            return 0.0
        return len(set(self.typed_pages) & set(self.statement_pages)) / len(self.statement_pages)


def _lines(text: str) -> list[str]:
    return [ln.strip() for ln in text.split("\n") if ln.strip()]


def _tabular(lines: list[str]) -> bool:
    """A page that holds a table of figures: a period header and several rows of numbers."""
    numeric = sum(1 for ln in lines if len(ln) < _PROSE and split_row(ln)[1])
    return numeric >= 6 and any(is_header_line(ln) for ln in lines)


def statement_pages(pages: Iterable[tuple[int, str]]) -> list[tuple[int, StatementKind, str]]:
    """(page, kind, title) of every page that holds a statement: a statement title near the
    top, or a continuation (a page right after one, opening with a period header, no prose)."""
    out: list[tuple[int, StatementKind, str]] = []
    prev: tuple[int, StatementKind, str] | None = None
    for page, text in pages:
        lines = _lines(text)
        kind, title = statement_of_page(lines)
        if kind is None and prev is not None and prev[0] == page - 1:
            top = lines[:8]
            if any(is_header_line(ln) for ln in top) and not any(len(ln) > _PROSE for ln in top):
                kind, title = prev[1], prev[2]
        if kind in ("segment", "quarterly") and not _tabular(lines):
            # a note's heading over prose: not a statement page, but its table may follow
            prev = (page, kind, title)
            continue
        if kind is not None:
            prev = (page, kind, title)
            out.append(prev)
        else:
            prev = None
    return out


def _company(doc_id: str) -> str | None:
    company = company_for_doc(doc_id)
    return company.name if company else None


def _type(
    read: StatementRead,
    raws: list[RawTable],
    doc_id: str,
    company: str | None,
    page: int,
    text: str = "",
) -> bool:
    typed = False
    for raw in raws:
        if raw.kind == "segment":
            split_glued_headings(raw)  # 'Net sales: North America Retail $ ...'
            split_measure_groups(raw, _lines(text))  # 'Net revenues' / 'Operating income' groups
        table_id = f"p{page}-t{sum(1 for t in read.tables if t.page == page)}"
        built = build_table(raw, doc_id=doc_id, table_id=table_id, company=company)
        if isinstance(built, BuildFailure):
            read.failures.append(built)
        else:
            read.tables.append(built)
            typed = True
    return typed


def read_pages(
    doc_id: str,
    pages: Iterable[tuple[int, str]],
    grids: Iterable[tuple[int, Sequence[Sequence[str]]]] = (),
) -> StatementRead:
    """The statement model of a filing from its page texts (0-based page numbers).

    `grids` are the document's own tables as cells, `(page, rows)` (EDGAR HTML `<tr>`s): on a
    statement page they are read first (`grid.raw_tables_from_grid`), and the page text only
    when none of them types. Figures a sentence pairs with its periods ('... $336 million and
    $375 million for fiscal 2024 and 2023, respectively') are read too (`sentences`).
    """
    started = time.perf_counter()
    page_list = list(pages)
    read = StatementRead(doc_id=doc_id, method="text")
    company = _company(doc_id)
    texts = dict(page_list)
    by_page: dict[int, list[Sequence[Sequence[str]]]] = {}
    for grid_page, rows in grids:
        by_page.setdefault(grid_page, []).append(rows)
    for page, kind, title in statement_pages(page_list):
        read.statement_pages.append(page)
        read.page_kinds[page] = kind
        if by_page.get(page) and _read_grids(read, by_page[page], texts[page], doc_id, company,
                                             page, kind, title):  # fmt: skip
            read.method = "text+grid"
            read.typed_pages.append(page)
            continue
        raws = read_text_page(texts[page], page, kind=kind, title=title)
        if not raws:
            read.failures.append(BuildFailure(page, kind, title, "no table rows found"))
            continue
        if _type(read, raws, doc_id, company, page, texts[page]):
            read.typed_pages.append(page)
    _read_note_grids(read, by_page, texts, company)
    from finqa.lexicon.statements.sentences import read_sentences

    read.tables.extend(read_sentences(doc_id, page_list, company, notes_scale(texts)))
    read.tables = attributed(typed_by_nature(sign_tables(top_lines(continued_scale(read.tables)))))
    from finqa.lexicon.statements.part_sentences import country_sentence_parts
    from finqa.lexicon.statements.parts import part_tables, sentence_parts
    from finqa.lexicon.statements.parts_columns import column_parts, grouped_column_parts
    from finqa.lexicon.statements.parts_grid import grid_part_tables
    from finqa.lexicon.statements.parts_groups import folded
    from finqa.lexicon.statements.parts_names import kept_headings
    from finqa.lexicon.statements.parts_text_columns import text_column_parts

    try:  # a segment note's rows, or its columns, by part; never at the cost of the rest
        parts = part_tables(read.tables, texts, folded) + sentence_parts(read.tables, texts)
        off_pages = part_tables(_part_pages(read, page_list, doc_id, company), texts, folded)
        parts += _new_parts([t for t in map(_segment_lines, off_pages) if t.facts], parts)
        notes = [(p, g) for p, gs in sorted(by_page.items()) for g in gs]
        parts += column_parts(doc_id, notes, texts, company)
        parts += grouped_column_parts(doc_id, notes, texts, company)
        parts += _new_parts(text_column_parts(doc_id, page_list, _one_scale(read.tables), company), parts)  # fmt: skip
        parts += grid_part_tables(doc_id, notes, texts, company, have=parts, typed=read.tables)
        parts += _new_parts(country_sentence_parts(doc_id, page_list, company), parts)
        read.tables.extend(kept_headings(parts, list(texts.values())))
    except Exception as exc:  # noqa: BLE001 - reported as a failure, the model is kept
        read.failures.append(BuildFailure(-1, "segment", "parts", f"{type(exc).__name__}: {exc}"))
    read.seconds = time.perf_counter() - started
    return read


def _one_scale(tables: Sequence[StatementTable]) -> float | None:
    """The scale every primary statement read from the text states, when they agree."""
    scales = {t.scale for t in tables if t.statement in ("income", "balance", "cashflow") and t.source != "xbrl"}  # fmt: skip
    return next(iter(scales)) if len(scales) == 1 else None


_SEGMENT_LINES = ("revenue", "operating_income")
_LINE_WORDS = re.compile(r"^(?:total\s+)?(?:net\s+)?(?:revenues?|sales|operating\s+income)\b", re.I)


def _segment_lines(table: StatementTable) -> StatementTable:
    """A table of parts read off the statement pages, kept to what a segment reports (revenue,
    operating income) under names that are no line item's caption ('Revenues by'): another
    breakdown on such a page (other income by kind, expenses as percentages) is no part's."""
    facts = tuple(
        f for f in table.facts
        if f.item in _SEGMENT_LINES and f.unit == "USD"
        and not any(_LINE_WORDS.match(member) for _, member in f.dimensions)
    )  # fmt: skip
    return table.model_copy(update={"facts": facts})


def _part_tabular(lines: list[str]) -> bool:
    """`_tabular`, or rows of figures under a period header glued to a column's caption
    ('2023 2022 Percent Change') or naming change columns among the years ('2020 2019 2018
    $ % $ %')."""
    from finqa.lexicon.statements.text import header_prefix

    if _tabular(lines):
        return True
    numeric = sum(1 for ln in lines if len(ln) < _PROSE and split_row(ln)[1])
    return numeric >= 4 and any(header_prefix(ln, "segment") or is_columns_line(ln) for ln in lines)


def _part_pages(
    read: StatementRead, pages: Sequence[tuple[int, str]], doc_id: str, company: str | None
) -> list[StatementTable]:
    """The tables of the pages no statement was typed from that hold a table of figures and
    speak of segments, regions or the disaggregation of revenue (a segment note read past its
    heading's page, an MD&A's results by segment), read as segment tables: only their rows
    named by parts are kept (`parts.part_tables`), never a line item of the company's own."""
    from finqa.lexicon.statements.parts import PARTS_CONTEXT

    failed = {f.page for f in read.failures if f.kind == "segment"}
    done = set(read.statement_pages) - failed  # a segment page with a table not read: again
    inherited = _statements_scale(read.tables)
    out: list[StatementTable] = []
    texts = dict(pages)
    for page, text in pages:
        about = text + texts.get(page - 1, "")  # a note's table past its heading's page
        if page in done or not PARTS_CONTEXT.search(about) or not _part_tabular(_lines(text)):
            continue
        for n, raw in enumerate(read_text_page(text, page, kind="segment", title="")):
            drop_change_columns(raw)  # '2020 2019 2018 $ % $ %': the years' columns only
            split_measure_groups(raw, _lines(text))  # 'Net Revenue Operating Profit' groups
            if not header_scale(raw.context):  # '(In Millions)' printed in the period header
                raw.context = "\n".join([raw.context, *raw.header_lines])
            if not header_scale(raw.context):
                if not inherited:
                    continue  # no scale stated, none to take: not read
                raw.context += "\n" + inherited
            _years_in_caption(raw, company)
            _without_change(raw, company)
            split_glued_headings(raw)
            built = build_table(raw, doc_id=doc_id, table_id=f"p{page}-n{n}", company=company)
            if not isinstance(built, BuildFailure):
                out.append(built)
    return out


_TRAILING_YEARS = re.compile(r"^(?P<caption>.*?\S)\s+(?P<years>(?:(?:19|20)\d{2}\s*){2,})$")


def _years_in_caption(raw: RawTable, company: str | None) -> None:
    """A header that names no periods ('Year ended December 31,') over a caption that ends in
    them ('Net Sales (Millions) 2020 2019 2018'): the years are the header's columns, as many
    as the first row of figures has cells; the caption stays a heading."""
    from finqa.lexicon.statements.header import read_header

    info = read_header(raw.header_lines, "segment", company) if raw.header_lines else None
    if info is not None and info.periods:
        return
    first = next((i for i, (_, cells) in enumerate(raw.rows) if cells), None)
    if first is None:
        return
    for i in range(first):
        label, cells = raw.rows[i]
        m = _TRAILING_YEARS.match(label)
        if m and not cells and len(m.group("years").split()) == len(raw.rows[first][1]):
            raw.header_lines.append(m.group("years").strip())
            raw.rows[i] = (m.group("caption"), [])
            return


_CHANGE = re.compile(
    r"\b(?:percent(?:age)?\s+change|change|increase\s*/?\s*\(?decrease\)?|vs\.?)\b|%\s*change", re.I
)


_CHANGE_CAPTION = re.compile(
    r"(?:percent(?:age)?\s+)?change\s+(?:19|20)\d{2}|(?:versus|vs\.?)\s+(?:19|20)\d{2}", re.I
)


def _without_change(raw: RawTable, company: str | None) -> None:
    """The change columns of a results table dropped ('2023 2022 Percent Change', 'Increase/
    (Decrease) ... 2019 vs. 2018'): where the header or a caption above the first figures
    names a change, a row of more cells than periods keeps the periods' (the first)."""
    from finqa.lexicon.statements.header import read_header

    first = next((i for i, (_, cells) in enumerate(raw.rows) if cells), len(raw.rows))
    above = [label for label, _ in raw.rows[:first]]
    if not any(_CHANGE.search(t) for t in [*raw.header_lines, *above, raw.context[-300:]]):
        return
    # 'Percentage' / 'Change 2017' / 'Versus 2016': a change column's caption broken over the
    # header's lines names a year, but no period column of its own
    kept = [h for h in raw.header_lines if not _CHANGE_CAPTION.fullmatch(h.strip())]
    if kept and len(kept) < len(raw.header_lines):
        raw.header_lines = kept
    info = read_header(raw.header_lines, "segment", company) if raw.header_lines else None
    n = len(info.periods) if info is not None else 0
    if n:
        raw.rows = [(label, cells[:n] if len(cells) > n else cells) for label, cells in raw.rows]


def _new_parts(tables: Sequence[StatementTable], have: Sequence[StatementTable]) -> list[StatementTable]:  # fmt: skip
    """The tables of parts not every figure of which a table of `have` already holds."""
    seen = {(f.dimensions, f.item, f.period.key, round(f.value)) for t in have for f in t.facts}
    return [
        t for t in tables
        if not all((f.dimensions, f.item, f.period.key, round(f.value)) in seen for f in t.facts)
    ]  # fmt: skip


def _lines_above(text: str, rows: Sequence[Sequence[str]]) -> list[str]:
    """Up to three page lines right above a grid that are not rows of figures (its caption,
    '(in millions)'), [] when the grid's first rows are not found in the page text."""
    lines = _lines(text)
    first = [" ".join(r) for r in rows[:2]]
    for i, line in enumerate(lines):
        if line == first[0] and (len(first) < 2 or lines[i + 1 : i + 2] == first[1:]):
            return [ln for ln in lines[max(0, i - 3) : i] if not split_row(ln)[1]]
    return []


_FURNITURE = re.compile(r"^(?:table of contents|index|page \d+|\d{1,3})\b", re.I)


def _is_furniture(lines: list[str]) -> bool:
    """Running heads above a table at the top of a page ('Table of Contents Alphabet Inc.')."""
    return all(_FURNITURE.match(ln) for ln in lines)


def _read_note_grids(
    read: StatementRead,
    by_page: dict[int, list[Sequence[Sequence[str]]]],
    texts: dict[int, str],
    company: str | None,
) -> None:
    """Grids off the statement pages (notes: debt, leases, stock compensation) whose columns
    are periods, typed as 'other' tables; else a roll-forward's balance rows (periods down
    the side, `rollforward.build_rollforward`); any other grid is left alone (not a failure:
    most such grids are prose layout)."""
    from finqa.lexicon.statements.grid import raw_tables_from_grid
    from finqa.lexicon.statements.rollforward import build_rollforward

    done = set(read.statement_pages)
    head = notes_scale(texts)
    agreed = _statements_scale(read.tables)
    first_statement = min(
        (p for p, k in read.page_kinds.items() if k in ("income", "balance", "cashflow")),
        default=10**9,
    )
    for page in sorted(by_page):
        if page in done:
            continue
        for rows in by_page[page]:
            above = _lines_above(texts.get(page, ""), rows)
            if not above or _is_furniture(above):  # the caption ends the page before
                above = [*_lines(texts.get(page - 1, ""))[-2:], *above]
            title = next((ln[:_PROSE] for ln in reversed(above) if not _is_furniture([ln])), "")
            context = "\n".join([*above, *_lines(texts.get(page, ""))[:12]])
            inherited = _inherits(head, page, rows, context)
            whence = f"the head of the notes (p.{head[0]})" if head is not None else ""
            if (
                not inherited
                and agreed
                and page > first_statement  # the notes, not Item 5's stock-performance table
                and _whole_dollars(rows)
                and not header_scale(context)
            ):
                inherited, whence = agreed, "the filing's primary statements, which all state it"
            if inherited:
                context += "\n" + inherited
            raws = raw_tables_from_grid(rows, page, kind="other", title=title, context=context)
            if inherited:
                for raw in raws:
                    raw.notes.append(f"scale {inherited!r} from {whence}")
            trial = StatementRead(doc_id=read.doc_id)
            trial.tables = [t for t in read.tables if t.page == page]
            before = len(trial.tables)
            if _type(trial, raws, read.doc_id, company, page):
                read.tables.extend(trial.tables[before:])
                continue
            rolled = build_rollforward(
                rows, doc_id=read.doc_id, table_id=f"p{page}-t{before}", page=page,
                title=title, context=context, company=company,
            )  # fmt: skip
            if rolled is not None:
                read.tables.append(rolled)


_WORDS = {1e3: "(in thousands)", 1e6: "(in millions)", 1e9: "(in billions)"}
_DOLLARS = re.compile(r"^\(?\$\s*\(?[\d,]+\)?$")


def _statements_scale(tables: Sequence[StatementTable]) -> str:
    """'(in millions)' when every primary statement read states that one scale, else ''."""
    scales = {t.scale for t in tables if t.statement in ("income", "balance", "cashflow")}
    return _WORDS.get(next(iter(scales)), "") if len(scales) == 1 else ""


def _whole_dollars(rows: Sequence[Sequence[str]]) -> bool:
    """A grid of dollar amounts in whole units ('$14,091'), no prices or per-share cents."""
    cells = [c.strip() for row in rows for c in row if "$" in c]
    return bool(cells) and all(_DOLLARS.match(c) for c in cells)


_NOTES_HEAD = re.compile(
    r"^notes to (?:the )?(?:condensed )?(?:consolidated )?financial statements\b", re.I
)
_PERIOD_LINE = re.compile(r"^(?:years?|fiscal years?|periods?|quarters?)\s+ended\b", re.I)


def notes_scale(texts: dict[int, str]) -> tuple[int, str] | None:
    """(page, scale statement) of the notes section's head, when it states one scale for the
    notes: 'Notes to the Consolidated Financial Statements' followed (at most a period line
    between) by '(Dollars in millions, except otherwise stated)'. Filers that print the scale
    once there leave it off the note tables that follow; None when no such head is found."""
    for page in sorted(texts):
        lines = _lines(texts[page])
        for i, line in enumerate(lines[:12]):
            if not _NOTES_HEAD.match(line):
                continue
            for nxt in lines[i + 1 : i + 3]:
                if nxt.startswith("(") and detect_scale(nxt):
                    return page, nxt
                if not _PERIOD_LINE.match(nxt):
                    break
    return None


def _inherits(
    head: tuple[int, str] | None, page: int, rows: Sequence[Sequence[str]], context: str
) -> str:
    """The notes head's scale statement for a note grid that states none of its own and shows
    dollar amounts ('$409'), '' otherwise (share counts, tables before the notes)."""
    if head is None or page < head[0] or detect_scale(context):
        return ""
    dollars = any("$" in cell for row in rows for cell in row)
    return head[1] if dollars else ""


def _read_grids(
    read: StatementRead,
    grids: list[Sequence[Sequence[str]]],
    text: str,
    doc_id: str,
    company: str | None,
    page: int,
    kind: StatementKind,
    title: str,
) -> bool:
    """Type the page's grids; True when one typed (failures kept only then: else the text
    reader takes the page and reports its own)."""
    from finqa.lexicon.statements.grid import raw_tables_from_grid

    context = "\n".join(_lines(text)[:12])
    raws = [
        raw
        for rows in grids
        for raw in raw_tables_from_grid(rows, page, kind=kind, title=title, context=context)
    ]
    if not raws:
        return False
    trial = StatementRead(doc_id=doc_id)  # the page's grids come first: no table on it yet
    if not _type(trial, raws, doc_id, company, page):
        return False
    read.tables.extend(trial.tables)
    read.failures.extend(trial.failures)
    return True


def read_pdf(doc_id: str, path: str | Path) -> StatementRead:
    """The statement model of a PDF: `find_tables()` grids on statement pages, text fallback."""
    import pymupdf as _pymupdf  # lazy: heavy
    from finqa.lexicon.statements.pdf import raw_tables_from_page

    pymupdf: Any = _pymupdf

    started = time.perf_counter()
    read = StatementRead(doc_id=doc_id, method="pdf")
    company = _company(doc_id)
    with pymupdf.open(str(path)) as doc:
        texts = [(i, doc[i].get_text()) for i in range(doc.page_count)]
        for page, kind, title in statement_pages(texts):
            read.statement_pages.append(page)
            read.page_kinds[page] = kind
            raws = raw_tables_from_page(doc[page], page, kind=kind, title=title)
            typed = bool(raws) and _type(read, raws, doc_id, company, page)
            if not typed:  # no grid with periods on this page: the text reader
                raws = read_text_page(texts[page][1], page, kind=kind, title=title)
                typed = _type(read, raws, doc_id, company, page)
            if typed:
                read.typed_pages.append(page)
    read.tables = attributed(typed_by_nature(sign_tables(top_lines(continued_scale(read.tables)))))
    read.seconds = time.perf_counter() - started
    return read
