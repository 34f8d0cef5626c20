"""EDGAR HTML as it is: pages at CSS page breaks, tables as cells, ix:header hidden.

A page ends at `page-break-after` / `break-after: page`, before `page-break-before` /
`break-before: page`, and at `<hr>` separators when the document uses no CSS breaks.
The printed page number (the last short line: '41', 'F-7', '- 12 -', 'Page 3') is kept as
the page's label. Table rows keep their cells: EDGAR splits '$', '(1,234' and ')' / '%'
into cells of their own, which are joined back to the number they belong to. The hidden
`ix:header` (contexts, units, hidden dei facts) and `display:none` blocks are not text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

__all__ = ["HtmlTable", "HtmlPages", "parse_html", "parse_tree", "merge_cells"]

_SKIP = {"script", "style", "head", "title", "noscript", "template"}
_BLOCK = {
    "p",
    "div",
    "br",
    "tr",
    "li",
    "ul",
    "ol",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "table",
    "hr",
    "center",
    "blockquote",
    "pre",
    "section",
    "article",
    "body",
}
_LABEL = re.compile(
    r"^(?:page\s+)?[-–—]?\s*([A-Z]-?\s?\d{1,3}|\d{1,3}|[ivxlc]{1,6})\s*[-–—]?$", re.I
)
_CURRENCY = {"$", "€", "£", "¥", "US$"}
_CLOSERS = re.compile(r"^[)%]+\)?%?$|^\)%$|^%\)$")
_WS = re.compile(r"[ \t\u00a0\u2009\u202f\r\f\v]+")


@dataclass(frozen=True)
class HtmlTable:
    """One table: its page, and rows of cells (empty cells dropped, '$'/')'/'%' merged)."""

    page: int
    rows: tuple[tuple[str, ...], ...]


@dataclass(frozen=True)
class HtmlPages:
    """A parsed HTML document: page texts, printed page labels, tables, and the lxml tree."""

    pages: tuple[str, ...]
    labels: tuple[str | None, ...]
    tables: tuple[HtmlTable, ...]
    root: Any
    fact_pages: dict[Any, int]  # ix fact element -> 0-based page


def _local(tag: Any) -> str:
    if not isinstance(tag, str):
        return ""
    return tag.rsplit("}", 1)[-1].rsplit(":", 1)[-1].lower()


def _is_ix(tag: Any) -> bool:
    return isinstance(tag, str) and ("inlineXBRL" in tag or tag.lower().startswith("ix:"))


def _style(el: Any) -> str:
    return str(el.get("style") or "").lower().replace(" ", "")


def _breaks_before(style: str) -> bool:
    return "page-break-before:always" in style or "break-before:page" in style


def _breaks_after(style: str) -> bool:
    return "page-break-after:always" in style or "break-after:page" in style


def _hidden(el: Any, style: str) -> bool:
    return "display:none" in style or (_is_ix(el.tag) and _local(el.tag) == "header")


def merge_cells(cells: list[str]) -> tuple[str, ...]:
    """Drop empty cells; join '$' to the next cell and ')' / '%' to the previous one."""
    out: list[str] = []
    pending = ""
    for raw in cells:
        cell = _WS.sub(" ", raw).strip()
        if not cell:
            continue
        if cell in _CURRENCY:
            pending = cell
            continue
        if _CLOSERS.match(cell) and out:
            out[-1] += cell
            continue
        out.append(f"{pending}{cell}" if pending else cell)
        pending = ""
    return tuple(out)


def parse_tree(data: bytes, encoding: str | None = None) -> Any:
    """The lxml tree; `encoding` overrides what the document declares (None: lxml's own)."""
    from lxml import etree, html

    head = data[:2000].lstrip().lower()
    if head.startswith(b"<?xml") or b"xmlns" in data[:5000]:
        try:
            parser = etree.XMLParser(
                recover=True, huge_tree=True, resolve_entities=False, encoding=encoding
            )
            root = etree.fromstring(data, parser)
            if root is not None and len(root):
                return root
        except etree.XMLSyntaxError:
            pass
    if encoding is None:
        return html.fromstring(data)
    return html.fromstring(data, parser=html.HTMLParser(encoding=encoding))


_DECLARED = re.compile(
    rb"""<meta[^>]+charset\s*=\s*["']?\s*([A-Za-z0-9_.:\-]+)|<\?xml[^>]+encoding\s*=\s*["']([A-Za-z0-9_.:\-]+)""",
    re.I,
)


def html_encoding(data: bytes) -> tuple[str | None, str | None]:
    """(encoding to parse with, note) for an HTML document's bytes: (None, None) when they are
    UTF-8 (lxml reads them as it always has); else the charset its meta tag (or XML declaration)
    declares when that decodes every byte, then cp1252, then latin-1 — with a note naming it."""
    try:
        data.decode("utf-8")
        return None, None
    except UnicodeDecodeError as exc:
        where = exc.start
    found = _DECLARED.search(data[:8192])
    declared = (found.group(1) or found.group(2)).decode("ascii") if found else None
    tried: list[tuple[str, str]] = []
    if declared and declared.lower().replace("_", "-") not in ("utf-8", "utf8"):
        tried.append((declared, "its declared charset"))
    tried += [("cp1252", "no usable charset declared"), ("latin-1", "no usable charset declared")]
    for encoding, why in tried:
        try:
            data.decode(encoding)
        except (UnicodeDecodeError, LookupError):
            continue
        return encoding, f"not UTF-8 (byte {where}): read as {encoding} ({why})"
    return "latin-1", f"not UTF-8 (byte {where}): read as latin-1"


class _Pager:
    def __init__(self, hr_breaks: bool) -> None:
        self.hr_breaks = hr_breaks
        self.pages: list[list[str]] = [[]]
        self.line: list[str] = []
        self.tables: list[HtmlTable] = []
        self.fact_pages: dict[Any, int] = {}

    @property
    def page(self) -> int:
        return len(self.pages) - 1

    def text(self, s: str | None) -> None:
        if s:
            self.line.append(s)

    def newline(self) -> None:
        if self.line:
            text = _WS.sub(" ", "".join(self.line)).strip()
            if text:
                self.pages[-1].append(text)
            self.line = []

    def new_page(self) -> None:
        self.newline()
        if self.pages[-1]:
            self.pages.append([])

    def walk(self, el: Any) -> None:
        tag = _local(el.tag)
        style = _style(el)
        if tag in _SKIP or _hidden(el, style):
            return
        if _breaks_before(style):
            self.new_page()
        if _is_ix(el.tag) and tag in ("nonfraction", "nonnumeric"):
            self.fact_pages[el] = self.page
        if tag == "table":
            self.table(el)
        else:
            block = tag in _BLOCK
            if block:
                self.newline()
            self.text(el.text)
            for child in el:
                if isinstance(child.tag, str):
                    self.walk(child)
                self.text(child.tail)
            if block:
                self.newline()
        if _breaks_after(style) or (tag == "hr" and self.hr_breaks):
            self.new_page()

    def table(self, el: Any) -> None:
        self.newline()
        rows: list[tuple[str, ...]] = []
        for tr in el.iter():
            if _local(tr.tag) != "tr" or _hidden(tr, _style(tr)):
                continue
            cells = []
            for td in tr:
                if _local(td.tag) not in ("td", "th"):
                    continue
                for sub in td.iter():
                    if _is_ix(sub.tag) and _local(sub.tag) in ("nonfraction", "nonnumeric"):
                        self.fact_pages[sub] = self.page
                cells.append("".join(_cell_text(td)))
            row = merge_cells(cells)
            if row:
                rows.append(row)
                self.pages[-1].append(" ".join(row))  # as a PDF line reads; cells in .tables
        if rows:
            self.tables.append(HtmlTable(self.page, tuple(rows)))


def _cell_text(el: Any) -> list[str]:
    out: list[str] = []
    if _hidden(el, _style(el)):
        return out
    if el.text:
        out.append(el.text)
    for child in el:
        if isinstance(child.tag, str) and _local(child.tag) not in _SKIP:
            if _local(child.tag) in ("br", "p", "div"):
                out.append(" ")
            out.extend(_cell_text(child))
        if child.tail:
            out.append(child.tail)
    return out


def _label(lines: list[str]) -> str | None:
    for line in reversed(lines[-3:]):
        m = _LABEL.match(line.strip())
        if m:
            return m.group(1).replace(" ", "")
    return None


def parse_html(data: bytes, encoding: str | None = None) -> HtmlPages:
    """Pages, printed labels, tables and fact positions of one HTML document."""
    root = parse_tree(data, encoding)
    css_breaks = bool(
        re.search(rb"(?:page-)?break-(?:before|after)\s*:\s*(?:always|page)", data, re.I)
    )
    pager = _Pager(hr_breaks=not css_breaks)
    body = next((e for e in root.iter() if _local(e.tag) == "body"), root)
    pager.walk(body)
    pager.newline()
    pages = [p for p in pager.pages]
    if len(pages) > 1 and not pages[-1]:
        pages.pop()
    return HtmlPages(
        pages=tuple("\n".join(p) for p in pages),
        labels=tuple(_label(p) for p in pages),
        tables=tuple(pager.tables),
        root=root,
        fact_pages=pager.fact_pages,
    )
