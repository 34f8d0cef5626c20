"""Page-aware chunking that fits the embedder's window and keeps table rows together.

A page is split into lines; a *unit* is a label line plus the numeric lines that follow it
(one table row as extracted from a PDF), or one prose line. Units are packed greedily up to
the token budget (counted with the embedder's own tokenizer), with an overlap of trailing
units. Chunks never cross a page. Headings (10-K items, statement titles) are tracked across
pages and recorded on each chunk.

Time and memory are linear in the text whatever its line lengths: a line longer than
`LONG_LINE_CHARS` (a one-line text file, a minified page) is first cut at spaces into pieces of
about three characters per budget token (a piece usually fits one chunk), and word pieces are counted in batches of at most
`COUNT_BATCH` strings, so no call tokenises more than a bounded slice at once.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

__all__ = ["ChunkDraft", "chunk_pages", "detect_heading", "is_numeric_line", "statement_of"]

_ITEM = re.compile(r"^item\s+(\d{1,2}[a-c]?)\s*[.:\-\u2013\u2014]?\s*(.{0,110})$", re.I)
_ITEM_ONLY = re.compile(r"^item\s+\d{1,2}[a-c]?\.?$", re.I)
# matched against the line with everything but letters removed ("Balance Shee t" -> "balancesheet")
_STATEMENT = re.compile(
    r"^(?:condensed)?(?:consolidated)?(?:andcombined|combined)?(?:statements?of(?:consolidated)?"
    r"(?:cashflows?|operations|income|earnings|comprehensive(?:income|loss|earnings)|"
    r"(?:changesin)?(?:shareholders|shareowners|stockholders)(?:equity|investment)|financialposition)"
    r"|balancesheets?)(?:unaudited)?(?:continued)?$"
)
_NOTES = re.compile(r"^notes?to(?:the)?(?:condensed)?consolidatedfinancialstatements")
_NUMERIC = re.compile(r"^[\s$\u20ac\u00a3(),.\-\u2013\u2014%*\u2020\d]+$")
_HAS_DIGIT = re.compile(r"\d")

LONG_LINE_CHARS = 20_000  # lines up to this length are chunked exactly as they always were
COUNT_BATCH = 512  # strings per call of the word-piece counter


@dataclass(frozen=True)
class ChunkDraft:
    page: int
    position: int
    section: str | None
    text: str
    tokens: int


def is_numeric_line(line: str) -> bool:
    return (
        bool(_NUMERIC.match(line))
        and bool(_HAS_DIGIT.search(line))
        or line in {"$", "\u2014", "-", "%"}
    )


def detect_heading(line: str) -> tuple[str, str] | None:
    """('item', text) for a 10-K item heading, ('statement', text) for a statement title."""
    if len(line) > 130:
        return None
    if _ITEM.match(line) and not line.rstrip().endswith(","):
        return ("item", line)
    key = re.sub(r"[^a-z]", "", line.lower())
    if len(line) <= 100 and (_STATEMENT.match(key) or _NOTES.match(key)):
        return ("statement", line)
    return None


@functools.lru_cache(maxsize=65536)
def statement_of(section: str | None) -> str | None:
    """The financial statement a section heading titles ('income', 'balance', 'cash_flow', 'equity',
    'comprehensive'), or None; MD&A sub-headings like 'Balance Sheet:' and notes do not count."""
    if not section:
        return None
    key = re.sub(r"[^a-z]", "", section.lower())
    if not (key.startswith(("consolidated", "condensed", "combined")) or section.isupper()):
        return None
    if not (_STATEMENT.match(key) or key.endswith(("unaudited", "continued"))):
        return None
    if "cashflow" in key:
        return "cash_flow"
    if "balancesheet" in key or "financialposition" in key:
        return "balance"
    if "comprehensive" in key:
        return "comprehensive"
    if "equity" in key or "investment" in key:
        return "equity"
    if re.search(r"operations|income|earnings", key):
        return "income"
    return None


def _cut_long(line: str, size: int) -> list[str]:
    """A line over LONG_LINE_CHARS cut into pieces of about `size` characters, at the last
    space before each cut when there is one in the piece's second half (else mid-word)."""
    if len(line) <= LONG_LINE_CHARS:
        return [line]
    pieces: list[str] = []
    start = 0
    while len(line) - start > size:
        end = start + size
        space = line.rfind(" ", start + size // 2, end)
        cut = space if space > start else end
        pieces.append(line[start:cut])
        start = cut + 1 if space > start else cut
    if start < len(line):
        pieces.append(line[start:])
    return [p for p in pieces if p]


def _counted(count: Callable[[Sequence[str]], list[int]], texts: Sequence[str]) -> list[int]:
    """`count` over `texts` in slices of COUNT_BATCH (bounded tokenizer memory)."""
    out: list[int] = []
    for i in range(0, len(texts), COUNT_BATCH):
        out.extend(count(texts[i : i + COUNT_BATCH]))
    return out


def _units(lines: list[str]) -> list[str]:
    units: list[str] = []
    for line in lines:
        if units and is_numeric_line(line) and len(units[-1]) < 600:
            units[-1] = f"{units[-1]}\n{line}"
        else:
            units.append(line)
    return units


def _split_long(unit: str, budget: int, count: Callable[[Sequence[str]], list[int]]) -> list[str]:
    words = unit.split(" ")
    sizes = _counted(count, words)
    parts: list[str] = []
    current: list[str] = []
    used = 0
    for word, size in zip(words, sizes, strict=True):
        if current and used + size > budget:
            parts.append(" ".join(current))
            current, used = [], 0
        current.append(word)
        used += size
    if current:
        parts.append(" ".join(current))
    return parts


def chunk_pages(
    pages: Sequence[tuple[int, str]],
    count: Callable[[Sequence[str]], list[int]],
    *,
    budget: int,
    overlap: int,
) -> list[ChunkDraft]:
    """Chunk a document's pages; `count` returns word-piece counts for a batch of strings."""
    drafts: list[ChunkDraft] = []
    item: str | None = None
    title: str | None = None
    pending_item = False
    for page, text in pages:
        lines = text.split("\n") if text else []
        if any(len(line) > LONG_LINE_CHARS for line in lines):
            lines = [piece for line in lines for piece in _cut_long(line, 3 * budget)]
        heads: dict[int, str | None] = {}
        for i, line in enumerate(lines):
            if pending_item:
                item, title, pending_item = f"{item} {line}"[:140], None, False
            found = detect_heading(line)
            if found and found[0] == "item":
                item, title = line, None
                pending_item = bool(_ITEM_ONLY.match(line))
            elif found:
                title = line
            heads[i] = title or item
        units = _units(lines)
        if not units:
            continue
        # section in force at each unit start (map unit -> first line index)
        unit_section: list[str | None] = []
        line_index = 0
        for unit in units:
            unit_section.append(heads.get(min(line_index + unit.count("\n"), len(lines) - 1)))
            line_index += unit.count("\n") + 1
        sizes = _counted(count, units)
        expanded: list[tuple[str, int, str | None]] = []
        for unit, size, section in zip(units, sizes, unit_section, strict=True):
            if size > budget:
                pieces = _split_long(unit, budget, count)
                sized = zip(pieces, _counted(count, pieces), strict=True)
                expanded.extend((p, s, section) for p, s in sized)
            else:
                expanded.append((unit, size, section))
        start = 0
        while start < len(expanded):
            end, used = start, 0
            while end < len(expanded) and (end == start or used + expanded[end][1] <= budget):
                used += expanded[end][1]
                end += 1
            window = expanded[start:end]
            section = window[min(5, len(window) - 1)][2] or window[0][2]
            drafts.append(
                ChunkDraft(page, len(drafts), section, "\n".join(u for u, _, _ in window), used)
            )
            if end >= len(expanded):
                break
            back, carried = end, 0
            while back - 1 > start and carried + expanded[back - 1][1] <= overlap:
                back -= 1
                carried += expanded[back][1]
            start = back
    return drafts
