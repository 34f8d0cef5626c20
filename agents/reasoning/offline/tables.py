"""Read financial statement tables out of PDF-extracted evidence text.

A statement page extracted from a PDF is a label line followed by one number per year column
(`Net Revenue` / `$` / `86,392 $` / `79,474 $` / `70,372`), or, in plain text, a label and its
numbers on one line. The column order comes from the header years (`2022 2021 2020`,
`December 31, 2019 December 31, 2018`, `2015 2016 2017` ascending at some filers), the scale
from the `(in millions ...)` note, the statement from the title or the chunk's section. Rows
whose number of values does not match the columns are skipped (never guessed).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace

from finqa.lexicon.line_items import label_key
from finqa.lexicon.numbers import detect_scale, parse_cell

__all__ = [
    "Row",
    "Table",
    "parse_tables",
    "classify_statement",
    "detect_scale_text",
    "parse_cell",
]

_NUM = re.compile(
    r"(?<![\w.])\(\s*\$?\s*\d[\d,]*(?:\.\d+)?\s*\)%?|(?<![\w.(])-?\$?\s*\d[\d,]*(?:\.\d+)?%?(?![\w)])"
)
_YEAR = re.compile(r"\b(19[5-9]\d|20[0-4]\d)\b")
_MONTHS = (
    "january|february|march|april|may|june|july|august|september|october|november|december|"
    "jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec"
)
_HEADER_WORDS = re.compile(
    rf"\b(?:{_MONTHS}|fiscal|years?|ended|ending|as|of|at|for|the|and|three|six|nine|twelve|"
    r"months|weeks|period|periods|quarter|twelve|52|53|to|from|restated|in|millions|thousands|"
    r"yearended|fiscalyear|yearsended|fiscalyearsended)\b\.?",
    re.IGNORECASE,
)
_STATEMENTS = (
    ("cash_flow", re.compile(r"statements?\s*of\s*(?:consolidated\s*)?cash\s*flows?", re.I)),
    (
        "balance",
        re.compile(
            r"balance\s*sheets?|statements?\s*of\s*(?:consolidated\s*)?financial\s*(?:position|condition)",
            re.I,
        ),
    ),
    (
        "equity",
        re.compile(
            r"statements?\s*of\s*(?:changes\s*in\s*)?(?:stock|share)(?:holders|owners)['\u2019]?\s*equity",
            re.I,
        ),
    ),
    (
        "comprehensive",
        re.compile(
            r"statements?\s*of\s*(?:consolidated\s*)?comprehensive\s*(?:income|loss|earnings)", re.I
        ),
    ),
    (
        "income",
        re.compile(
            r"statements?\s*of\s*(?:consolidated\s*)?(?:income|operations|earnings)|income\s*statements?",
            re.I,
        ),
    ),
)


@dataclass(frozen=True)
class Row:
    """One statement line item with a value per year column."""

    label: str
    key: str  # normalised label (letters only) for matching
    values: tuple[float | None, ...]
    years: tuple[int, ...]
    scale: float | None
    statement: str | None
    source_id: str
    doc_id: str
    page: int
    chunk_id: str | None
    line: str  # the row as text, for citations
    order: int  # position in the evidence (rank-major), for tie-breaks
    header_inferred: bool = False
    primary: bool = False  # under a financial statement title (not MD&A / notes tables)
    exhibit: bool = False  # from an exhibit (another entity's statements, e.g. Exhibit 99.3)
    per_share: bool = False  # under a 'per share' heading (EPS-like values, not amounts)

    def value_for(self, year: int) -> float | None:
        if year in self.years:
            return self.values[self.years.index(year)]
        return None


@dataclass
class Table:
    """Rows read from one evidence text, with the header context found in it."""

    rows: list[Row] = field(default_factory=list)
    years: tuple[int, ...] = ()
    scale: float | None = None
    statement: str | None = None
    value_counts: dict[int, int] = field(default_factory=dict)  # values per row -> rows
    keys: list[str] = field(default_factory=list)  # normalised labels of every row seen


def detect_scale_text(text: str) -> float | None:
    """The money scale a table header declares ('(in millions, except per share)'), read by the
    lexicon (`lexicon.numbers.detect_scale`: one rule for the whole product)."""
    return detect_scale(text)


def classify_statement(text: str) -> str | None:
    for name, pattern in _STATEMENTS:
        if pattern.search(text):
            return name
    return None


_TITLE = re.compile(
    r"^(?:the)?(?:condensed)?(?:consolidated)?(?:andcombined)?(?:condensed)?"
    r"(?:statements?of(?:consolidated)?(?:cashflows?|operations|income|earnings|comprehensive(?:income|loss|earnings)"
    r"|financialposition|financialcondition|(?:changesin)?(?:share|stock)(?:holders|owners)s?equity)"
    r"(?:andcomprehensive(?:income|loss))?|balancesheets?|incomestatements?)"
    r"(?:continued|unaudited|inmillions|inthousands)*"
)
_TITLE_REST = re.compile(
    r"^$|subsidiar|incorporated|inc$|corporation|compan|plc$|llc$|ltd$|continued|unaudited"
)


def _is_per_share_heading(heading: str) -> bool:
    """'Per share data:', 'Earnings per common share' — not '(in millions, except per share amounts)'."""
    h = heading.strip()
    if not h or h.startswith("(") or re.search(r"except", h, re.I):
        return False
    return bool(re.search(r"per\s*(?:common\s*)?share", h, re.I))


_COMPANY_END = re.compile(
    r"(?:inc|incorporated|corporation|corp|company|companies|co|plc|ltd|llc|subsidiaries)$"
)


def title_statement(line: str) -> str | None:
    """The statement a title line names ('CONSOLIDATED BALANCE SHEETS' -> 'balance'), else None."""
    if len(line) > 120 or line.rstrip().endswith(".") or not line.lstrip()[:1].isupper():
        return None
    key = re.sub(r"\(.*?\)", "", line.lower())
    key = re.sub(r"[^a-z]", "", key)
    m = _TITLE.match(key) if key else None
    if m is None:  # 'NIKE, Inc. Consolidated Statements of Income'
        at = min(
            (
                i
                for i in (key.find("consolidated"), key.find("statement"), key.find("balancesheet"))
                if i > 0
            ),
            default=-1,
        )
        if at > 0 and _COMPANY_END.search(key[:at]):
            key = key[at:]
            m = _TITLE.match(key)
    if m is None or not _TITLE_REST.search(key[m.end() :]):
        return None
    return classify_statement(re.sub(r"([a-z])([A-Z])", r"\1 \2", line)) or classify_statement(
        " ".join(
            re.findall(
                r"statements?|of|cash|flows?|operations|income|earnings|comprehensive|balance|sheets?|"
                r"financial|position|condition|changes|in|stock|share|holders|owners|equity",
                key,
            )
        )
    )


_RUN_THEN_LABEL = re.compile(
    r"((?:\s+\$?\s*(?:\(\s*\d[\d,]*(?:\.\d+)?\s*\)|-?\d[\d,]*(?:\.\d+)?|[\u2014\u2013])%?){2,})\s+(?=[A-Z][A-Za-z])"
)


def _explode(lines: list[str]) -> list[str]:
    """Split lines that hold several rows ('... (3.4) Dividends paid (1,244.5) ...') into one row each."""
    out: list[str] = []
    for line in lines:
        if len(line) > 60 and _RUN_THEN_LABEL.search(line):
            out.extend(_RUN_THEN_LABEL.sub(lambda m: m.group(1) + "\n", line).split("\n"))
        else:
            out.append(line)
    return out


def _split_line(line: str) -> tuple[str, list[float]]:
    """(label text, trailing numbers) of one line; numbers inside the label stay label."""
    s = line.strip()
    values: list[float] = []
    while s:
        s = s.rstrip(" $\u00a0")
        m = None
        for cand in _NUM.finditer(s):
            m = cand
        if m is None or s[m.end() :].strip(" $%\u00a0"):
            dash = re.search(r"(?:^|\s)([\u2014\u2013\-]{1,2})$", s)
            if dash and (len(s) <= 2 or values or re.search(r"\d", s)):
                values.append(0.0)
                s = s[: dash.start(1)]
                continue
            break
        value = parse_cell(m.group(0))
        if value is None:
            break
        values.append(value)
        s = s[: m.start()]
    values.reverse()
    return s.strip(" $:\u00a0"), values


def _header_years(line: str) -> list[int] | None:
    """Years of a column-header line ('2022 2021 2020', 'December 31, 2019'), else None."""
    if len(line) > 160:
        return None
    line = re.sub(
        r"\((?:[^()]*\b(?:in|amounts)\b[^()]*)\)", " ", line, flags=re.I
    )  # '(in millions...)'
    years = [int(y) for y in _YEAR.findall(line)]
    rest = _YEAR.sub(" ", line)
    rest = _HEADER_WORDS.sub(" ", rest)
    rest = re.sub(r"\b(?:[1-9]|[12]\d|3[01])\b", " ", rest)  # day numbers
    rest = re.sub(r"[\s,.$()\-:/\u2013\u2014]", "", rest)
    if rest:
        return None
    return years


def parse_tables(
    text: str,
    *,
    source_id: str,
    doc_id: str,
    page: int,
    chunk_id: str | None = None,
    section: str | None = None,
    order: int = 0,
    default_years: tuple[int, ...] = (),
    default_scale: float | None = None,
    default_statement: str | None = None,
) -> Table:
    """All rows with values found in `text`. Missing header context falls back to the defaults."""
    table = Table()
    section_title = title_statement(section or "") if section else None
    statement = section_title or default_statement
    head_lines = [ln.strip() for ln in text.split("\n")[:6] if ln.strip()][:3]
    exhibit = any(re.match(r"exhibit\b", ln, re.I) for ln in head_lines)
    item8 = bool(section and re.search(r"\bitem\s*8\b", section, re.I))
    primary = (
        section_title is not None or (item8 and default_statement is not None)
    ) and not exhibit
    recent: list[str] = []
    table.statement = statement
    scale = detect_scale_text(text) or default_scale
    table.scale = scale
    years: tuple[int, ...] = ()
    block: list[int] = []
    in_block = False
    label_parts: list[str] = []
    values: list[float] = []
    pending: list[
        tuple[str, list[float], tuple[int, ...], str | None, float | None, str, bool, int]
    ] = []
    inline = 0  # values on the label's own line
    per_share_flags: list[bool] = []
    heading = ""

    def flush() -> None:
        nonlocal label_parts, values, inline
        if label_parts and values:
            pending.append(
                (" ".join(label_parts), values, years, statement, scale, heading, primary, inline)
            )
            per_share_flags.append(_is_per_share_heading(heading))
        label_parts, values, inline = [], [], 0

    for raw in _explode(text.split("\n")):
        line = raw.strip()
        if not line or line == "$":
            continue
        hdr = _header_years(line)
        if hdr is not None and not (values and not hdr) and (hdr or in_block):
            if not in_block:
                block = []
            block.extend(y for y in hdr if y not in block)
            in_block = True
            if len(block) >= 1:
                years = tuple(block)
            continue
        in_block = False
        title = title_statement(line)
        if title is None and len(line) <= 40 and not re.search(r"\d", line):
            recent.append(line)
            for k in range(2, min(6, len(recent)) + 1):
                title = title_statement(" ".join(recent[-k:]))
                if title:
                    break
        elif len(line) > 40 or re.search(r"\d", line):
            recent.clear()
        if title:
            flush()
            statement, primary = title, not exhibit
            table.statement = table.statement or title
            recent.clear()
            continue
        line_scale = detect_scale_text(line)
        if line_scale:
            scale = line_scale
        label, nums = _split_line(line)
        if label and re.search(r"[A-Za-z]", label):
            if values:
                flush()
                label_parts = [label]
            elif label_parts and label[:1].islower():
                label_parts.append(label)  # wrapped label continues
            else:
                if label_parts:
                    heading = " ".join(label_parts)
                label_parts = [label]
            values = list(nums)
            inline = len(nums)
        elif nums and label_parts:
            values.extend(nums)
        elif nums and not label_parts and heading and pending:
            label_parts, values = [f"total {heading}"], list(nums)
    flush()
    for i, (label, vals, yrs, stmt, sc, head, prim, inl) in enumerate(pending):
        table.value_counts[len(vals)] = table.value_counts.get(len(vals), 0) + 1
        table.keys.append(label_key(label))
        use_years = yrs or default_years
        inferred = not yrs
        if not use_years:
            continue
        cols = len(use_years)
        row_vals: list[float] = vals
        extra: list[float] = []
        if len(vals) == 2 * cols and cols > 1 and inl in (0, cols) and head:
            row_vals, extra = vals[:cols], vals[cols:]
        if len(row_vals) != cols:
            continue
        row = Row(
            label=label,
            key=label_key(label),
            values=tuple(row_vals),
            years=use_years,
            scale=sc or default_scale,
            statement=stmt,
            source_id=source_id,
            doc_id=doc_id,
            page=page,
            chunk_id=chunk_id,
            line=_row_line(label, row_vals),
            order=order * 10000 + i,
            header_inferred=inferred,
            primary=prim,
            exhibit=exhibit,
            per_share=per_share_flags[i],
        )
        table.rows.append(row)
        if extra:
            total = f"total {head}"
            table.rows.append(
                replace(
                    row,
                    label=total,
                    key=label_key(total),
                    values=tuple(extra),
                    line=_row_line(total, extra),
                    per_share=False,
                )
            )
    table.years = years
    table.scale = scale
    return table


def _fmt(v: float) -> str:
    text = f"{abs(v):,.2f}".rstrip("0").rstrip(".")
    return f"({text})" if v < 0 else text


def _row_line(label: str, values: list[float]) -> str:
    return f"{label} " + " ".join(_fmt(v) for v in values)
