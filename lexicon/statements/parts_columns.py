"""A segment note's grids whose columns are the parts of the business.

- `column_parts`: one header row of part names ('Europe, Middle East & Africa', 'Latin America',
  ..., 'Consolidated') under a period line; a brand's 'Total X' column adds up the columns
  before it; product lines down the side are read from the total column;
- `grouped_column_parts`: periods over parts in a two-row header ('June 29, 2025 | June 30,
  2024' over 'Innovative Medicine | MedTech | Total' twice); a row that leaves the total
  columns blank gives its figures to the other columns.

The parts' figures must add up to the total column in some row, else the grid is no breakdown.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence

from finqa.lexicon.model import StatementFact, StatementTable
from finqa.lexicon.statements.parts import (
    PARTS_CONTEXT,
    TOTAL_ROW,
    bare_total,
    caption_item,
    close_enough,
    flow_item,
    names_places,
    part_name,
    row_item,
)
from finqa.lexicon.statements.parts_grid import caption_above

__all__ = ["column_parts", "grouped_column_parts"]


def _is_name(cell: str) -> bool:
    from finqa.lexicon.statements.header import is_header_line
    from finqa.lexicon.statements.raw import read_cell

    text = cell.strip()
    return (
        bool(re.search(r"[A-Za-z]", text)) and read_cell(text) is None and not is_header_line(text)
    )


def column_parts(
    doc_id: str,
    grids: Iterable[tuple[int, Sequence[Sequence[str]]]],
    texts: Mapping[int, str],
    company: str | None = None,
) -> list[StatementTable]:
    """Grids of a segment note whose columns are the parts ('Europe, Middle East & Africa',
    'Latin America', ..., 'Consolidated'), a period line over each block of line items ('Year
    Ended December 31, 2024'): one 'segment' table of the parts' figures per grid. The parts'
    figures of a line item must add up to the last (total) column in some row, else the grid
    is no breakdown and is left alone."""
    from finqa.lexicon.numbers import detect_scale
    from finqa.lexicon.statements.header import read_header
    from finqa.lexicon.statements.raw import read_cell

    out: list[StatementTable] = []
    for n, (page, rows) in enumerate(grids):
        if not PARTS_CONTEXT.search(texts.get(page, "") + texts.get(page - 1, "")):
            continue
        cells = [[c.strip() for c in r if c and c.strip()] for r in rows]
        head = next((h for r in cells[:3] if len(h := _names(r)) >= 3), None)
        if head is None or not TOTAL_ROW.match(head[-1]):
            continue
        top, inner = _column_groups(head)  # a brand's subtotal column over its regions
        scale = detect_scale(texts.get(page, "")) or 1.0
        titled = caption_item(caption_above(texts.get(page, ""), " ".join(cells[0])))
        period = None
        facts: list[StatementFact] = []
        lines: list[tuple[int, list[str], list[tuple[float, bool, str] | None]]] = []
        checked = False
        for r, row in enumerate(cells):
            if len(row) == 1 and period is None or (len(row) == 1 and _is_period(row[0])):
                info = read_header([row[0]], "segment", company)
                if info is not None and len(info.periods) == 1:
                    period = info.periods[0]
                    lines = []
                continue
            if period is None or len(row) != len(head) + 1:
                continue
            item = _row_line(row[0], titled)
            flow = flow_item(item) if item is not None else None
            values = [read_cell(c) for c in row[1:]]
            if any(v is None for v in values):
                continue
            if flow is None:
                if item is None and not TOTAL_ROW.match(row[0]):
                    lines.append((r, row, values))  # a part of another kind down the side
                continue
            amounts = [v[0] * scale for v in values if v is not None]
            ok = amounts[-1] != 0 and close_enough(sum(amounts[c] for c in top), amounts[-1])
            checked = checked or ok
            if ok and flow == "revenue" and len(lines) >= 2:
                facts += _row_parts(doc_id, page, n, head, lines, amounts[-1], period, scale)
            lines = []
            for c, (name, v) in enumerate(zip(head[:-1], values[:-1], strict=True)):
                if v is None or (c not in top and c not in inner):
                    continue
                facts.append(
                    StatementFact(
                        doc_id=doc_id, statement="segment", table_id=f"p{page}-g{n}-parts",
                        table_title=head[-1], label=row[0], item=flow, period=period,
                        value=v[0] * scale, scale=scale, negative=v[1], page=page, row=r,
                        column=c, raw=row[c + 1], source="text",
                        dimensions=((part_axis(part_name(name)), part_name(name)),),
                    )
                )  # fmt: skip
        if not (facts and checked):
            continue
        periods = tuple({f.period.key: f.period for f in facts}.values())
        out.append(
            StatementTable(
                table_id=f"p{page}-g{n}-parts", doc_id=doc_id, statement="segment",
                title="parts as columns: " + ", ".join(head), pages=(page,), scale=scale,
                periods=periods, labels=tuple(dict.fromkeys(f.label for f in facts)),
                facts=tuple(facts), source="text", notes=("rows named by parts of the business",),
            )
        )  # fmt: skip
    return out


def _row_line(label: str, titled: str | None) -> str | None:
    """The line item a row of the grid names ('Total net operating revenues'); 'Total' alone
    is the line item the grid's caption names."""
    item = row_item(label, last_words=True)
    return titled if item is None and bare_total(label) else item


def _names(row: Sequence[str]) -> list[str]:
    """A header row's part names, a leading scale caption ('(Dollars in millions)') left out;
    [] when a cell is not a name."""
    from finqa.lexicon.numbers import detect_scale

    cells = list(row[1:]) if row and detect_scale(row[0]) else list(row)
    ok = all(
        _is_name(part_name(c)) or (TOTAL_ROW.match(c) and not re.search(r"\d", c)) for c in cells
    )
    return cells if cells and ok else []


def _column_groups(head: Sequence[str]) -> tuple[set[int], set[int]]:
    """(the columns the last one adds up, the columns inside a subtotal that are the company's
    parts too): a 'Total X' column before the last adds up the columns since the previous
    one; its columns are the company's only when it groups places (`parts.groups_places`)."""
    top: set[int] = set()
    inner: set[int] = set()
    start = 0
    for c, name in enumerate(head[:-1]):
        if TOTAL_ROW.match(name):
            if names_places(part_name(name)):
                inner.update(range(start, c))
            top.add(c)
            start = c + 1
    top.update(range(start, len(head) - 1))
    return top, inner


def _row_parts(
    doc_id: str, page: int, n: int, head: Sequence[str],
    lines: Sequence[tuple[int, list[str], list[tuple[float, bool, str] | None]]],
    total: float, period: object, scale: float,
) -> list[StatementFact]:  # fmt: skip
    """Rows down the side of a parts-as-columns grid ('Footwear', 'Apparel', ... over 'Total
    revenues') whose figures in the total column add up to its total: each row's figure there
    is the company's revenue of that product line."""
    from finqa.lexicon.dimensions import KIND_AXES, is_residual

    last = [v[-1] for _, _, v in lines]
    if any(v is None for v in last) or not close_enough(
        sum(v[0] * scale for v in last if v), total
    ):
        return []
    if sum(1 for v in last if v and v[0]) < 2:
        return []  # one row holds the whole total ('Third party' over a nil 'Intersegment')
    out = []
    for r, row, values in lines:
        v = values[-1]
        if v is None or is_residual(part_name(row[0])):
            continue
        out.append(
            StatementFact(
                doc_id=doc_id, statement="segment", table_id=f"p{page}-g{n}-parts",
                table_title=head[-1], label=row[0], item="revenue", period=period,  # type: ignore[arg-type]
                value=v[0] * scale, scale=scale, negative=v[1], page=page, row=r,
                column=len(head) - 1, raw=row[-1], source="text",
                dimensions=((KIND_AXES["product"], part_name(row[0])),),
            )
        )  # fmt: skip
    return out


def _is_period(cell: str) -> bool:
    from finqa.lexicon.statements.header import is_header_line

    return is_header_line(cell)


def part_axis(name: str) -> str:
    from finqa.lexicon.dimensions import KIND_AXES, asked_dimension

    place = asked_dimension(f"revenue from {name}")
    country = place is not None and bool(place.member) and str(place.member).startswith("country:")
    return KIND_AXES["geography" if country else "segment"]


# --------------------------------------------------------------------------- periods over parts


def _groups(head: Sequence[str], k: int) -> int:
    """The parts per period when a header row repeats one group of names k times, each group
    ending with a total ('Innovative Medicine | MedTech | Total' twice); 0 when it does not."""
    if k < 2 or len(head) % k or len(head) // k < 3:
        return 0
    g = len(head) // k
    groups = [tuple(part_name(c).lower() for c in head[i * g : (i + 1) * g]) for i in range(k)]
    return g if len(set(groups)) == 1 and TOTAL_ROW.match(head[g - 1]) else 0


def grouped_column_parts(
    doc_id: str,
    grids: Iterable[tuple[int, Sequence[Sequence[str]]]],
    texts: Mapping[int, str],
    company: str | None = None,
) -> list[StatementTable]:
    """Grids of a segment note with periods over parts (see the module doc): one 'segment'
    table of the parts' figures of the income statement's amounts per grid. A later line
    naming another span ('Fiscal Six Months Ended') re-reads the periods with the same dates."""
    from finqa.lexicon.numbers import detect_scale
    from finqa.lexicon.statements.header import is_header_line, read_header
    from finqa.lexicon.statements.raw import read_cell

    out: list[StatementTable] = []
    for n, (page, rows) in enumerate(grids):
        if not PARTS_CONTEXT.search(texts.get(page, "") + texts.get(page - 1, "")):
            continue
        cells = [[c.strip() for c in r if c and c.strip()] for r in rows]
        cells = [r for r in cells if r]
        h = next((i for i, r in enumerate(cells[:4]) if len(_names(r)) >= 6), None)
        if h is None or h == 0:
            continue
        head = _names(cells[h])
        lines = [" ".join(r) for r in cells[:h]]
        info = read_header(lines, "segment", company)
        if info is None or not (g := _groups(head, len(info.periods))):
            continue
        k = len(info.periods)
        periods = list(info.periods)
        scale = detect_scale(" ".join(lines)) or detect_scale(texts.get(page, "")) or 1.0
        facts: list[StatementFact] = []
        checked = False
        for r, row in enumerate(cells[h + 1 :], start=h + 1):
            if len(row) == 1 and is_header_line(row[0]):
                again = read_header([row[0], *lines[1:]], "segment", company)
                periods = list(again.periods) if again and len(again.periods) == k else []
                continue
            values = [read_cell(c) for c in row[1:]]
            if not periods or any(v is None for v in values):
                continue
            if len(values) == k * g:
                amounts = [v[0] for v in values if v is not None]
                checked = checked or all(
                    amounts[i * g + g - 1] != 0
                    and close_enough(sum(amounts[i * g : i * g + g - 1]), amounts[i * g + g - 1])
                    for i in range(k)
                )
                cols = [c for c in range(k * g) if (c + 1) % g]
                values = [values[c] for c in cols]
            elif len(values) != k * (g - 1):
                continue  # not one figure per part and period
            item = row_item(row[0], last_words=True)
            flow = flow_item(item) if item is not None else None
            if flow is None:
                continue
            for c, v in enumerate(values):
                if v is None:
                    continue
                name = part_name(head[c % (g - 1)])
                facts.append(
                    StatementFact(
                        doc_id=doc_id, statement="segment", table_id=f"p{page}-g{n}-grouped",
                        table_title=" ".join(lines)[:150], label=row[0], item=flow,
                        period=periods[c // (g - 1)], value=v[0] * scale, scale=scale,
                        negative=v[1], page=page, row=r, column=c, raw=row[c + 1], source="text",
                        dimensions=((part_axis(name), name),),
                    )
                )  # fmt: skip
        if not (facts and checked):
            continue
        out.append(
            StatementTable(
                table_id=f"p{page}-g{n}-grouped", doc_id=doc_id, statement="segment",
                title="periods over parts: " + ", ".join(head[: g]), pages=(page,), scale=scale,
                periods=tuple({f.period.key: f.period for f in facts}.values()),
                labels=tuple(dict.fromkeys(f.label for f in facts)), facts=tuple(facts),
                source="text", notes=("rows named by parts of the business",),
            )
        )  # fmt: skip
    return out
