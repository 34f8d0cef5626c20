"""A text table's rows named by parts of the business: segments, regions, product lines.

A filing read as text (no tags) prints its segment note's figures in tables of two layouts,
and the part each figure belongs to is read from the layout, never from a list of names:

- part headings over line items ('Americas:' / 'Net sales' / 'Operating income', then
  'Europe:' / 'Net sales' / ...): two or more heading rows, each over rows of catalogue line
  items, the same line items under each; every figure under a heading is that part's;
- parts over a total ('iPhone', 'Mac', ..., 'Total net sales'): a run of rows no catalogue
  item names, right above a total row that one does, whose figures add up to the total in
  every period column (within half a percent): each row is that line item for the part.

`part_tables(tables)` returns, for each table with such rows, a 'segment' table of copies of
those facts with the line item and a dimension (the kind's axis, the part's name as printed),
so `lexicon.dimensions.dimensional_facts` finds them; the table read stays as it was.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence

from finqa.lexicon.model import StatementFact, StatementTable
from finqa.lexicon.statements.parts_names import HEADED

__all__ = [
    "part_tables",
    "sentence_parts",
    "PART_TOLERANCE",
    "PARTS_CONTEXT",
    "TOTAL_ROW",
    "close_enough",
    "flow_item",
    "part_name",
    "row_item",
    "names_places",
    "bare_total",
    "caption_item",
    "segments_total",
    "stated_scale",
]

PART_TOLERANCE = 0.005
_MARK = re.compile(r"\s*(?:\(\w{1,2}\)|\*+)\s*,?\s*$|(?<=[a-z])\d$")  # 'Europe (1)', 'profit1'
_PRIMARY = frozenset({"income", "balance", "cashflow", "equity"})
PARTS_CONTEXT = re.compile(
    r"\bsegments?\b|\bgeograph(?:y|ic|ical)\b|\bregions?\b|\bdisaggregat(?:ed|ion)\b", re.I
)
TOTAL_ROW = re.compile(r"^\s*(?:total|consolidated)\b", re.I)
_KIND_OF_TITLE = (
    ("geography", re.compile(r"geograph|region|countr", re.I)),
    ("product", re.compile(r"product|categor|service line|brand", re.I)),
    ("segment", re.compile(r"segment|business unit|division", re.I)),
)


def part_name(label: str) -> str:
    """A part's name as printed, without a colon, trademark signs or footnote markers; a
    subtotal's without 'Total' and its line item ('Total non-U.S. revenues' -> 'non-U.S.')."""
    text = " ".join(re.sub(r"[®™†‡]", "", label).split()).rstrip(":").strip()  # nbsp: a space
    text = _MARK.sub("", text).strip()
    if TOTAL_ROW.match(text):
        inner = re.sub(r"^\s*total\s+|\s+(?:net\s+)?(?:revenues?|sales)\s*$", "", text, flags=re.I)
        return inner.strip() or text
    return text


_LOSS = re.compile(r"\blosse?s?\b", re.I)
_CONSOLIDATED = re.compile(r"^\s*consolidated\s+(?=\w)", re.I)


def _item(label: str) -> str | None:
    """The catalogue line item a row names; a loss caption ('Loss from operations', 'Segment
    operating loss') names the income line it is the negative of (its figures carry the sign)."""
    from finqa.lexicon.statements.catalogue import item_for_label

    name = part_name(label)
    item = item_for_label(name)
    if item is None and _CONSOLIDATED.match(name):  # 'Consolidated operating income': the total
        item = item_for_label(_CONSOLIDATED.sub("", name))
    if item is None and _LOSS.search(name):
        item = item_for_label(_LOSS.sub("income", name))
    return item


def flow_item(item: str) -> str | None:
    """The line item a part's figure is read as: an amount of the income statement (a
    segment reports revenue, costs, operating income), the catalogue's revenue by geography
    as revenue; None for a balance, a share count or a per-share figure."""
    from finqa.lexicon.metrics import get_metric

    metric = get_metric(item)
    if metric is None or metric.unit != "USD":
        return None
    if metric.statement == "segment":
        if "revenue" in item:
            return "revenue"
        return "operating_income" if item == "segment_operating_income" else None
    return item if metric.statement == "income" else None


def _kind(table: StatementTable, name: str) -> str:
    from finqa.lexicon.dimensions import asked_dimension

    if table.statement == "income":
        return "product"  # revenue split on the face of the income statement: by offering

    place = asked_dimension(f"revenue from {name}")
    if place is not None and place.member and place.member.startswith("country:"):
        return "geography"
    for kind, rx in _KIND_OF_TITLE:
        if rx.search(table.title):
            return kind
    return "segment"


def _dimensioned(
    table: StatementTable, facts: Iterable[StatementFact], item: str, name: str
) -> list[StatementFact]:
    from finqa.lexicon.dimensions import KIND_AXES

    axis = KIND_AXES[_kind(table, name)]
    return [
        f.model_copy(
            update={
                "item": item,
                "dimensions": ((axis, name),),
                "statement": "segment",
                "table_id": f"{table.table_id}-parts",
            }
        )
        for f in facts
        if not f.period.instant  # a flow's part figure covers a duration, never an instant
    ]


def _by_row(table: StatementTable) -> dict[int, list[StatementFact]]:
    rows: dict[int, list[StatementFact]] = {}
    for f in table.facts:
        rows.setdefault(f.row, []).append(f)
    return rows


def _under_headings(table: StatementTable, rows: dict[int, list[StatementFact]]) -> list[StatementFact]:  # fmt: skip
    """Part headings over line items, repeated with the same line items under each."""
    blocks: list[tuple[str, list[tuple[str, list[StatementFact]]]]] = []
    for r, label in enumerate(table.labels):
        if r not in rows:
            name = part_name(label)
            if name and row_item(label) is None and not TOTAL_ROW.match(name):
                blocks.append((name, []))
            else:
                blocks.append(("", []))
            continue
        item = _item(label)
        flow = flow_item(item) if item is not None else None
        if blocks and blocks[-1][0] and flow is not None:
            blocks[-1][1].append((flow, rows[r]))
    parts = [(name, body) for name, body in blocks if name and body]
    if len(parts) < 2:
        return []
    shapes = [tuple(i for i, _ in body) for _, body in parts]
    if len(set(shapes)) != 1 or len(set(shapes[0])) != len(shapes[0]):
        return []  # not one breakdown: different line items under each heading
    out: list[StatementFact] = []
    for name, body in parts:
        for item, facts in body:
            out += _dimensioned(table, facts, item, name)
    return out


def heading_flow(label: str) -> str | None:
    """The income-statement amount a heading row over parts names, by its whole caption
    ('Net sales', 'Operating profit'), or a derived measure the catalogue computes as one such
    amount ('Earnings before interest and taxes', 'Adjusted EBIT': operating income); None
    for another caption ('Intersegment sales', 'Sales including intersegment sales')."""
    from finqa.lexicon.metrics import METRICS, find_metrics

    item = row_item(label)  # a place ('International') heads its own rows: no line item
    if item is not None or _item(label) is not None:
        return flow_item(item) if item is not None else None
    found = [m for m in find_metrics(label) if not m.operator]
    metric = METRICS.get(found[0].canonical) if len(found) == 1 else None
    if metric is None or not metric.formula or metric.formula not in METRICS:
        return None
    return flow_item(metric.formula)


def _sign(label: str) -> float:
    """-1 for a row the catalogue names as a cost (a debit: 'Interest expense (income),
    net' between the parts' earnings and the pre-tax total), else +1."""
    from finqa.lexicon.metrics import get_metric

    item = _item(label)
    metric = get_metric(item) if item else None
    return -1.0 if metric is not None and metric.balance == "debit" else 1.0


def _item_blocks(table: StatementTable, rows: dict[int, list[StatementFact]]) -> list[StatementFact]:  # fmt: skip
    """Line-item headings over the same parts, block after block ('Net sales' / 'Aeronautics'
    / ... / 'Total net sales', then 'Operating profit' / 'Aeronautics' / ...; 'REVENUES',
    then 'EARNINGS BEFORE INTEREST AND TAXES' over the same regions). A block runs from its
    heading to a total row (or a row printed under the heading's own caption), and its rows
    add up to that row in every column, a cost row between them subtracted. A part is a row
    name printed in two blocks or more of the table: one printed once (a reconciling item)
    is no part. Each part's row in a block of an income-statement amount is that amount."""
    blocks: list[tuple[str | None, list[int], int | None]] = []  # flow, rows, closing row
    heading = ""
    for r, label in enumerate(table.labels):
        if r not in rows:
            if label.strip():
                heading = label
                blocks.append((heading_flow(label), [], None))
            continue
        if not blocks or blocks[-1][2] is not None:
            continue
        flow, body, _ = blocks[-1]
        closing = (
            bool(TOTAL_ROW.match(label) or _PARTS_TOTAL.match(label))
            or part_name(label).lower() == part_name(heading).lower()
        )
        if closing:
            blocks[-1] = (flow, body, r)
        else:
            body.append(r)
    names: dict[str, int] = {}
    for _, body, _ in blocks:
        for n in {part_name(table.labels[q]).lower() for q in body if row_item(table.labels[q]) is None}:  # fmt: skip
            names[n] = names.get(n, 0) + 1
    out: list[StatementFact] = []
    for flow, body, end in blocks:
        if flow is None or end is None or len(body) < 2:
            continue
        if not _adds_up_signed(table, body, rows, rows[end]):
            continue
        for q in body:
            name = part_name(table.labels[q])
            if row_item(table.labels[q]) is None and names.get(name.lower(), 0) >= 2:
                out += _dimensioned(table, rows[q], flow, name)
    return out


# the segments' total named without its line item ('Reportable segments total', 'Total
# operating segments'): it closes a block of parts as a 'Total' row does
_PARTS_TOTAL = re.compile(
    r"^\s*(?:(?:business|reportable|operating)\s+)?segments?\s+totals?\s*$"
    r"|^\s*total\s+(?:(?:business|reportable|operating)\s+)?segments\s*$",
    re.I,
)


def _adds_up_signed(table: StatementTable, run: Sequence[int], rows: dict[int, list[StatementFact]], total: Sequence[StatementFact]) -> bool:  # fmt: skip
    checked = 0
    for t in total:
        parts = [(q, f) for q in run for f in rows[q] if f.column == t.column]
        if len(parts) != len(run) or t.value == 0:
            return False
        got = sum(_sign(table.labels[q]) * f.value for q, f in parts)
        if not close_enough(got, t.value):
            return False
        checked += 1
    return checked > 0


def close_enough(a: float, b: float) -> bool:
    return abs(a - b) <= PART_TOLERANCE * max(abs(b), 1.0)


def _above_totals(table: StatementTable, rows: dict[int, list[StatementFact]]) -> list[StatementFact]:  # fmt: skip
    """Runs of rows no line item names, each right above a total row that adds them up. A
    'Total ...' row no line item names that adds up the run above it is a subtotal: it is
    one part of the run that goes on below it (non-U.S. revenues beside the United States);
    the parts it adds up are the company's only when it groups places (regions under
    non-U.S.), not when it is a part of another kind (product lines under one brand)."""
    out: list[StatementFact] = []
    run: list[int] = []
    nested: dict[int, list[int]] = {}  # subtotal row -> the rows it adds up
    whole: set[int] = set()  # the segments' total of a line item: read already, no part

    def close(subtotal: int) -> None:
        if subtotal not in whole:
            out.extend(_closed(table, rows, nested[subtotal], subtotal))

    for r, label in enumerate(table.labels):
        if r not in rows:
            if run and run[0] in nested and len(run) == 1:
                close(run[0])
            run = []
            continue
        if any(f.unit != "USD" for f in rows[r]):
            continue  # a 'percentage of total revenue' row between the parts: no part
        item = row_item(label) or _measure_total(table, r, run, rows)
        titled = _total_title(table, r) if bare_total(label) or _company_total(label) else None
        if titled is not None and (flow := flow_item(titled)) is not None:
            block = _block(table, rows, r)  # 'Total', or no caption: the caption's line item
            if len(block) >= 2 and _adds_up(block, rows, rows[r]):
                parts = _block_parts(table, block, flow)
                out += _group(table, rows, parts, nested, flow)
                run = []
                continue
        if item is None and not TOTAL_ROW.match(label):
            run.append(r)
            continue
        flow = flow_item(item) if item is not None else None
        if (
            item is None
            and TOTAL_ROW.match(label)
            and len(run) >= 2
            and _adds_up(run, rows, rows[r])
        ):
            if (flow := _segments_flow(label)) is not None:
                # 'Total business segment operating profit': the segments' own line item
                out += _group(table, rows, run, nested, flow)
                whole.add(r)
            nested[r] = run
            run = [r]  # the subtotal is one part of what follows
            continue
        if flow is not None and len(run) >= 2 and _adds_up(run, rows, rows[r]):
            out += _group(table, rows, sorted(set(run) - whole), nested, flow)
        elif run and run[0] in nested:
            close(run[0])
        run = []
    if run and run[0] in nested:
        close(run[0])
    return out


def _measure_total(table: StatementTable, r: int, run: Sequence[int], rows: dict[int, list[StatementFact]]) -> str | None:  # fmt: skip
    """The line item of row `r`, which no catalogue caption names, when it closes the run of
    parts above it as their total by the derived measure it names ('Adjusted EBIT' under the
    segments' rows: operating income, `heading_flow`) or as the segments' total of a line item
    ('Net sales of reportable segments'); None when the run does not add up to it, or when a
    row of the run is an amount of its own rather than a part (a reconciliation's 'Less:
    Restructuring' or 'Adjusted EBIT' rows adding up to 'EBIT')."""
    label = table.labels[r]
    if TOTAL_ROW.match(label) or len(run) < 2:
        return None
    if any(_an_amount(table.labels[q]) for q in run):
        return None
    derived = heading_flow(label) or _segments_flow(label)
    return derived if derived is not None and _adds_up(run, rows, rows[r]) else None


_ADJUSTMENT = re.compile(r"^\s*(?:less|add|plus|deduct|minus)\b", re.I)


def _an_amount(label: str) -> bool:
    """A row naming an amount of the catalogue or an adjustment ('Less: ...'), no part."""
    from finqa.lexicon.metrics import find_metrics

    return bool(_ADJUSTMENT.match(label) or find_metrics(part_name(label)))


def _closed(table: StatementTable, rows: dict[int, list[StatementFact]], run: Sequence[int], subtotal: int) -> list[StatementFact]:  # fmt: skip
    """A subtotal no total adds up further is the table's total: its own line item, when
    its words name the company's whole line or places ('Total net operating revenues',
    'Total non-U.S. revenues'), not one offering ('Total Wireless service revenue')."""
    item = row_item(table.labels[subtotal], last_words=True)
    flow = flow_item(item) if item is not None else None
    if flow is None or not _whole_or_places(table, part_name(table.labels[subtotal])):
        return []
    return [f for q in run for f in _dimensioned(table, rows[q], flow, part_name(table.labels[q]))]


def _total_title(table: StatementTable, r: int) -> str | None:
    """The line item a total row named by no line item adds up: the caption's or heading's."""
    return _title_item(table) or heading_item(table, r)


def _segments_flow(label: str) -> str | None:
    item = segments_total(label)
    return flow_item(item) if item is not None else None


def _block(table: StatementTable, rows: dict[int, list[StatementFact]], end: int) -> list[int]:
    """The rows of figures right above row `end`, up to a row without figures or a total."""
    out: list[int] = []
    for q in range(end - 1, -1, -1):
        if q not in rows or TOTAL_ROW.match(table.labels[q]) or bare_total(table.labels[q]):
            break
        out.insert(0, q)
    return out


def _block_parts(table: StatementTable, block: Sequence[int], flow: str) -> list[int]:
    """The rows of a block that adds up to its total that are parts: those no line item
    names, and, beside two or more of them, a row printed under the total's own line item
    ('Sales' above 'Service', 'Platform and Other', ...: its figure is one of the sum's)."""
    parts = [q for q in block if row_item(table.labels[q]) is None]
    if len(parts) < 2:
        return parts
    return [q for q in block if q in parts or _item(table.labels[q]) == flow]


def _group(
    table: StatementTable,
    rows: dict[int, list[StatementFact]],
    run: Sequence[int],
    nested: dict[int, list[int]],
    flow: str,
) -> list[StatementFact]:
    """The parts of one total; a subtotal's own parts too when it groups places."""
    out: list[StatementFact] = []
    for p in run:
        out += _dimensioned(table, rows[p], flow, part_name(table.labels[p]))
        if p in nested and groups_places(table, part_name(table.labels[p])):
            for q in nested[p]:
                out += _dimensioned(table, rows[q], flow, part_name(table.labels[q]))
    return out


_SEGMENTS_TOTAL = re.compile(
    r"^\s*total\s+(?:(?:business|reportable|operating)\s+)?segments?\s+(?P<line>\S.*)$"
    r"|^\s*(?P<line2>\S.*?)\s+of\s+(?:(?:all|our)\s+)?(?:business\s+|reportable\s+|operating\s+)?segments\s*$",
    re.I,
)


def segments_total(label: str) -> str | None:
    """The line item a row adding up the segments names ('Total business segment operating
    profit', 'Total segment revenues', 'Net sales of reportable segments'); None for another
    row. Its figure is the segments' sum, no part: the rows it adds up are the segments'."""
    m = _SEGMENTS_TOTAL.match(part_name(label) if not TOTAL_ROW.match(label) else label)
    if m is None:
        return None
    line = m.group("line") or m.group("line2") or ""
    return _item(line) or caption_item(line)


_SUBTOTAL = re.compile(r"^\s*total\s+|\s+(?:net\s+)?(?:revenues?|sales)\s*$", re.I)
_PLACES = re.compile(r"\b(?:non-?u\.?s\.?|international|foreign|outside|overseas)\b", re.I)


def row_item(label: str, last_words: bool = False) -> str | None:
    """The line item a row names, None for a part: a row the catalogue reads as revenue by
    geography ('United States') is one place's revenue, a part; with `last_words`, a 'Total X
    revenues' row no caption of the catalogue names is read by its last words ('revenues')."""
    from finqa.lexicon.metrics import get_metric

    item = _item(label)
    metric = get_metric(item) if item else None
    if metric is not None and metric.statement == "segment" and "revenue" in metric.id:
        return None
    if item is None and TOTAL_ROW.match(label) and not _SUBTOTAL.sub("", label).strip():
        return None
    if (
        last_words
        and item is None
        and re.match(r"^\s*total\b.*\b(?:revenues?|sales)\s*$", label, re.I)
    ):
        words = label.split()
        return _item(" ".join(words[-2:])) or _item(words[-1])
    return item


_WHOLE_WORDS = frozenset({"net", "operating", "consolidated", "company", "reportable", "segment", "segments", "total", "revenue", "revenues", "sales"})  # fmt: skip


def _company_total(label: str) -> bool:
    """A total row named by the whole company alone ('Total Company', 'Total consolidated'),
    no line item: what it adds up is the line item of the heading above it."""
    words = [w.lower() for w in re.findall(r"[A-Za-z.'-]+", label)]
    return (
        bool(TOTAL_ROW.match(label))
        and len(words) >= 2
        and all(w in ("total", "company", "consolidated") for w in words)
    )


def _whole_or_places(table: StatementTable, inner: str) -> bool:
    """A subtotal's words left after 'Total' and its line item name the whole line or places."""
    words = [w.lower() for w in re.findall(r"[A-Za-z.'-]+", inner)]
    if TOTAL_ROW.match(inner) or all(w in _WHOLE_WORDS for w in words):
        return True
    return groups_places(table, inner)


def names_places(name: str) -> bool:
    return bool(_PLACES.search(name))


def groups_places(table: StatementTable, name: str) -> bool:
    """A subtotal whose parts are places of the company: one named as the rest of the world
    ('non-U.S.', 'international'), or a region of a table by geography ('Total Americas'
    over the United States and the rest of the Americas). A brand's subtotal ('Total NIKE
    Brand' over footwear and apparel) groups parts of another kind: its parts are the
    brand's, not the company's."""
    return names_places(name) or _kind(table, name) == "geography"


def bare_total(label: str) -> bool:
    """A total row that names no line item: no caption at all, or 'Total' alone."""
    return not label.strip() or bool(
        re.fullmatch(r"\s*(?:total|consolidated)\s*:?\s*", label, re.I)
    )


def _title_item(table: StatementTable) -> str | None:
    """The amount line item the table's caption names (`caption_item`)."""
    return caption_item(table.title)


def caption_item(caption: str) -> str | None:
    """The amount line item a table's caption names ('Revenues by geographical region
    consisted of the following'): what a total row printed without its own caption adds up;
    None when the caption names no amount of the income statement. The words nearest the
    table (the caption's last) win over a sentence of prose above it."""
    from finqa.lexicon.metrics import find_metrics

    for m in reversed(find_metrics(caption)):
        if not m.operator and flow_item(m.canonical) is not None:
            return m.canonical
    return None


def _adds_up(run: Sequence[int], rows: dict[int, list[StatementFact]], total: Sequence[StatementFact]) -> bool:  # fmt: skip
    checked = 0
    for t in total:
        parts = [f for r in run for f in rows[r] if f.column == t.column]
        if len(parts) != len(run) or t.value == 0:
            return False
        if not close_enough(sum(f.value for f in parts), t.value):
            return False
        checked += 1
    return checked > 0


def _in_context(table: StatementTable, texts: Mapping[int, str]) -> bool:
    pages = {p for page in table.pages for p in (page, page - 1)}
    return any(PARTS_CONTEXT.search(texts.get(p, "")) for p in pages)


def part_tables(
    tables: Iterable[StatementTable],
    texts: Mapping[int, str],
    fold: Callable[[StatementTable], StatementTable] | None = None,
) -> list[StatementTable]:
    """One 'segment' table per text table with rows named by parts (see the module doc),
    among the tables of a note about parts: its page (or the one before) speaks of segments,
    geographic areas, regions or the disaggregation of revenue (`texts`: page -> text). Of
    the primary statements only the income statement's revenue lines are read ('Products',
    'Services' over 'Total net sales': the offerings Regulation S-X has a filer print apart);
    its other unnamed lines above a total are expenses, not parts. `fold`: what a note's table
    is read as first (`parts_groups.folded`: groups of rows as one row per part)."""
    out: list[StatementTable] = []
    for table in tables:
        if table.source == "xbrl" or table.statement in _PRIMARY - {"income"}:
            continue
        if len({p.key for p in table.periods}) < len(table.periods):
            continue  # a period over several columns: groups of another kind (assets, capex)
        table = stated_scale(table, texts)
        rows = _by_row(table)
        headed: list[StatementFact] = []
        blocks: list[StatementFact] = []
        printed = table
        if table.statement == "income":
            facts = [f for f in _above_totals(table, rows) if f.item == "revenue"]
        elif _in_context(table, texts) and (one := one_part_caption(table, texts)):
            headed, facts = _one_part_lines(table, rows, part_name(one)), []
        elif _in_context(table, texts) and not _one_segments_analysis(table):
            blocks = _item_blocks(table, rows)  # as printed: a block's rows are its parts
            table = fold(table) if fold is not None else table  # `parts_groups.folded`
            rows = _by_row(table)
            headed = _under_headings(table, rows)
            facts = [] if headed else _above_totals(table, rows)
            have = {(f.dimensions, f.item, f.period.key) for f in [*headed, *facts]}
            blocks = [f for f in blocks if (f.dimensions, f.item, f.period.key) not in have]
        else:
            continue
        for base, suffix, got, notes in (
            (table, "parts", facts, ()), (table, "heads", headed, (HEADED,)),
            (printed, "blocks", blocks, ()),
        ):  # fmt: skip
            if got:
                tid = f"{base.table_id}-{suffix}"
                out.append(
                    base.model_copy(
                        update={
                            "table_id": tid,
                            "statement": "segment",
                            "facts": tuple(f.model_copy(update={"table_id": tid}) for f in got),
                            "notes": (*base.notes, "rows named by parts of the business", *notes),
                        }
                    )
                )
    return out


def _one_segments_analysis(table: StatementTable) -> bool:
    """An MD&A analysis table (its change columns dropped, `parts_change_columns`) with no
    row of the segments' own total: its rows may be one segment's lines, not the company's
    parts ('Service' / 'Wireless equipment' / 'Other' over 'Total Operating Revenues')."""
    from finqa.lexicon.statements.parts_change_columns import CHANGE_NOTE

    return CHANGE_NOTE in table.notes and not any(segments_total(label) for label in table.labels)


_ONE_PART = re.compile(
    r"^(?P<name>[A-Z0-9][\w/&'’.,-]*(?:\s+(?:[A-Z0-9&][\w/&'’.,-]*|and|of))*)\s+Segment:?$"
)
_GENERIC = frozenset({"business", "operating", "reportable", "reporting", "segment", "total"})
_FIGURE = re.compile(r"\d{1,3},\d{3}")


def one_part_caption(table: StatementTable, texts: Mapping[int, str], above: int = 12) -> str | None:  # fmt: skip
    """The table sits under a heading naming one segment ('Retail/LTC Segment', "Sam's Club
    Segment"): its rows ('Products', 'Services') are that segment's lines, no part of the
    company. A heading of words only ('Selected Financial Data by Business Segment') or of
    generic words ('Business Segment') names no one segment. The nearest heading above the
    first figures counts, up to a row of figures of another table above it (a figure printed
    with a thousands separator). The segment's name, or None."""
    if not table.facts:
        return None
    first = min(table.facts, key=lambda f: f.row)
    text = texts.get(first.page, "")
    line = re.search(r"(?m)^[ \t]*" + re.escape(first.label), text) if first.label else None
    if line is None:
        return None
    lines = [ln.strip() for ln in text[: line.start()].splitlines() if ln.strip()][-above:]
    for ln in reversed(lines):
        if _FIGURE.search(ln):
            return None  # another table's rows: its heading is not this table's
        m = _ONE_PART.match(ln)
        if m and not {w.lower() for w in m.group("name").split()} <= _GENERIC:
            return m.group("name")
    return None


def _one_part_lines(table: StatementTable, rows: dict[int, list[StatementFact]], name: str) -> list[StatementFact]:  # fmt: skip
    """A segment's own table (under its heading, `one_part_caption`): each amount of the
    income statement printed on one row only ('Total revenues', 'Operating income') is the
    segment's; one printed twice (net sales including and excluding fuel) is left alone."""
    found: dict[str, list[int]] = {}
    for r, label in enumerate(table.labels):
        item = row_item(label) if r in rows else None
        flow = flow_item(item) if item is not None else None
        marker = any(re.fullmatch(r"\(\w\)", f.raw.strip()) for f in rows.get(r, ()))
        if flow is not None and not marker and all(f.unit == "USD" for f in rows[r]):
            found.setdefault(flow, []).append(r)  # '(1)': a footnote's marker, no amount
    out: list[StatementFact] = []
    for flow, at in found.items():
        if len(at) == 1:
            out += _dimensioned(table, rows[at[0]], flow, name)
    return out


def stated_scale(table: StatementTable, texts: Mapping[int, str]) -> StatementTable:
    """A table read without a scale (its header and the lines next to it state none: the
    caption '... as follows (in millions):' sits below a page of prose) with the scale its
    page states last above its first row of figures; as read when the page states none
    there."""
    from finqa.lexicon.numbers import scale_regions

    if table.scale != 1.0 or not table.facts:
        return table
    first = min(table.facts, key=lambda f: f.row)
    text = texts.get(first.page, "")
    line = re.search(r"(?m)^[ \t]*" + re.escape(first.label), text) if first.label else None
    at = line.start() if line else -1
    before = [s for pos, s in scale_regions(text) if 0 <= pos < at]
    if at < 0 or not before or before[-1] == 1.0:
        return table
    scale = before[-1]
    facts = tuple(
        f.model_copy(update={"value": f.value * scale, "scale": scale})
        if f.unit == "USD" and f.scale == 1.0 else f
        for f in table.facts
    )  # fmt: skip
    return table.model_copy(update={"scale": scale, "facts": facts})


def heading_item(table: StatementTable, row: int) -> str | None:
    """The amount line item the nearest row without figures above `row` names ('Revenue:',
    'REVENUE BY SERVICE TYPE'), past the headings of parts over their own rows: what a total
    row printed without a caption adds up; None when that row names another line item
    ('Noncurrent assets')."""
    with_figures = {f.row for f in table.facts}
    for r in range(row - 1, -1, -1):
        label = table.labels[r]
        if r in with_figures or not label.strip():
            continue
        item = caption_item(label)
        if item is not None or row_item(label) is not None:
            # the line item heads the caption ('REVENUE BY SERVICE TYPE'), not the object of
            # another word ('Items affecting Operating Income')
            return item if caption_item(" ".join(label.split()[:3])) == item else None
        # a part's heading ('Parcel segment:') over its own rows: the block goes on above it
    return None


# --------------------------------------------------------------------------- a country's revenue in a sentence

_COUNTRY_REVENUE = re.compile(
    r"^\s*(?:total\s+)?(?:revenues?|net\s+sales|sales)\s+(?:(?:derived|generated|earned)\s+)?"
    r"(?:from|in)\s+(?:the\s+)?(?P<a>.+?)\s*$"
    r"|^\s*(?:total\s+)?(?P<b>.+?)\s+(?:net\s+)?(?:revenues?|sales)\s*$",
    re.I,
)


def sentence_parts(tables: Iterable[StatementTable], texts: Mapping[int, str]) -> list[StatementTable]:  # fmt: skip
    """A note about parts that states a country's revenue in a sentence ('Total U.S. revenues
    were $16.1 billion, $13.8 billion and $13.0 billion for the years ended ...', read by
    `sentences.read_sentences`): that country's revenue, on the geographical axis with the
    country's member. Only a country (`data/country_codes.csv`) is read from a sentence: a
    region's name in prose may be a market, not a part the filing reports."""
    from finqa.lexicon.dimensions import KIND_AXES, asked_dimension

    out: list[StatementTable] = []
    for table in tables:
        if "-s" not in table.table_id or table.source == "xbrl" or not _in_context(table, texts):
            continue
        labels = {f.label for f in table.facts}
        if len(labels) != 1:
            continue
        m = _COUNTRY_REVENUE.match(next(iter(labels)))
        place = (m.group("a") or m.group("b")) if m else None
        asked = asked_dimension(f"revenue from {place}") if place else None
        if asked is None or not (asked.member or "").startswith("country:"):
            continue
        dims = ((KIND_AXES["geography"], str(asked.member)),)
        facts = tuple(
            f.model_copy(update={"item": "revenue", "dimensions": dims, "statement": "segment",
                                 "table_id": f"{table.table_id}-parts"})
            for f in table.facts
        )  # fmt: skip
        out.append(
            table.model_copy(
                update={"table_id": f"{table.table_id}-parts", "statement": "segment",
                        "facts": facts, "notes": (*table.notes, "a country's revenue stated in a sentence")}
            )
        )  # fmt: skip
    return out
