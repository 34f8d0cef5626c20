"""The statement model stored beside an index's chunks, and the `StatementStore` over it.

Layout: `<index>/statements/<doc_id>.parquet` holds one row per fact (flat columns, readable
by any pandas user); `<doc_id>.json` the tables' metadata (title, pages, periods, labels in
filed order, notes) and the regions that could not be typed; `manifest.json` one record per
document: the content hash it was built from, the reader, counts and statement pages.
Loading is lazy and cached per document; the manifest is re-read when it changes on disk.
"""

from __future__ import annotations

import json
import os
import re
import tempfile
import threading
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from finqa.lexicon.model import (
    StatementFact,
    StatementKind,
    StatementPeriod,
    StatementTable,
)
from finqa.lexicon.statements.memory import MemoryStatementStore
from finqa.lexicon.statements.reader import StatementRead

__all__ = [
    "IndexStatementStore",
    "write_model",
    "ensure_model",
    "shared_store",
    "clear_shared",
    "statements_dir",
    "manifest_entry",
    "MODEL_VERSION",
    "STORE_READ_ERRORS",
]

# what reading a filing's stored statement model raises when the model cannot be read: a file
# missing or unreadable (OSError), a manifest or parquet file that does not parse (ValueError:
# json.JSONDecodeError, pyarrow's ArrowInvalid), a record without a field the reader needs or
# with one it does not know (KeyError, TypeError). A reader that can do without the filing's
# figures catches these and goes on without them.
STORE_READ_ERRORS: tuple[type[Exception], ...] = (OSError, ValueError, KeyError, TypeError)

# 2: values carry the economic sign (statements.signs); 3: dimensional facts keep their item,
# segment notes' parts read from text (statements.parts); 4: segment grids and columns, flowed
# statements; 5: one caption list per catalogue entry (the Book's captions map rows too);
# 6: parts named by their structure, a country's revenue in prose
# 7: a caption listing a catalogue caption's kinds but an inner one is its line (caption_words)
# 8: 'group' a segment word and a part's operating result (the parts read may change)
# 9: segment tables off the statement pages (a note read past its heading's page, MD&A results by
#    segment), groups of rows folded to their part, 'U.S. $ 9,588.4' a place and its cell
# 10: a row under a heading of cash paid ('Cash paid during the year for:') is the payment item
#     of the expense its caption names (income taxes paid, interest paid: catalogue `paid_for`)
# 11: a row under it the catalogue lacks is what was paid for it ('Interest, net of amounts
#     capitalized'); sentences with several lists, amounts in the notes' scale, a flow 'as of'
#     its years' ends, 'Net' payments and a reverse flow in parentheses ('payments/(refunds)')
#     (operand) 'X, net of amounts capitalized' is the cost X
#     equity by owners: the company's and total equity told apart by the balance sheet's layout
#     (catalogue `total_equity`), 'Consolidated net income attributable to X' read as the company's
#     segment notes: names the filing lists whole, 'Total business segment X', per-segment tables
# 12: a 'Total equity' right below noncontrolling interests, with no subtotal of the company's
#     own above them, is the total including them (lexicon.statements.attribution)
# 13: a header's days listed one per column over a line of years ('October 29, October 30,
#     January 29,' over '2022 2021 2022')
# 14: a day broken onto a line of its own after its month ('Three Months Ended April' / '30,')
#     stays in the header
# 15: spans in weeks ('13 weeks ended', 'fifty-two weeks ended') read as quarters, halves, years
# 16: (taxsign) the tax line signed by the income statement's tax identity (pre-tax - tax + the
#     lines after tax = the after-tax result), the row it closes from named pre-tax income
# 17: (segrecall) segment tables whose header names change columns beside the years ('2020 2019
#     2018 $ % $ %', '23 vs. 22'), a derived measure's or the segments' total under the parts
#     ('Adjusted EBIT', 'Net sales of reportable segments'), a heading glued to the first part
#     ('Net sales: X'), one segment's heading the nearest above a tall header, no-break spaces
# 18: (periods) spans in weeks of 12-week quarters ('12 Weeks Ended | 24 Weeks Ended'), a line of
#     days over a line of years paired by column, a release's percent-of-sales cells dropped, a
#     title ending 'and Other Information' still the statement
# 19: (wholeop) Costco's 'Merchandise costs' a caption of cost of revenue; a footnote mark
#     before a row's figures is no column
# 20: (segments) a parts-as-columns header of the names the filing lists as its segments broken
#     over lines, or printed under each period line; a footnote mark on a row of parts
# 21: (twosided) a note reference in a caption ('(Provision) benefit for income taxes (Note 6)')
#     no part of the line; a scale note read as a heading row ('(In millions, except per share
#     amounts)') makes no row per share
# 22: (lead) a share count in the scale its caption or heading states ('Shares used in
#     calculation (000s)') under a table in millions
# 23: (operands) 'Net income attributable to common shareholders' and its '(loss)' spellings
#     the catalogue's net_income_common (after preferred dividends), not the company's amount
#     (operands) under an earnings-per-share heading, an earnings amount named by whom it goes
#     to ('Earnings available to common shareholders') is an amount in the table's scale
# 24: (segread) segment tables with measures side by side over repeated years, a folio at a
#     page's foot, change captions broken over the header, 'Reportable segments total', a caption
#     left with an open parenthesis joined to the next line
# 25: (glued) a figures-only line after a row complete on its line is the uncaptioned total of
#     the run of rows it sums (never that row's figures), named by a section heading glued to
#     the run's first caption ('Revenues Casino' -> 'Casino' and 'Total revenues')
# 26: a release's change columns after a current and a prior period ('$ 2,487.0 $ 2,112.8
#     $ 374.2 18 %' under 'Quarters Ended June 30, 2023 2022 Inc/ (Dec)') dropped row by row
#     where the first is the two figures' difference (or their change in percent)
# 27: 'Long-term debt, classified as current' (PG&E's caption of the current portion) is
#     short-term debt, never long-term debt
# 28: 'Cash, cash equivalents and restricted cash' (the cash-flow statement's balance) is its
#     own item, never the balance sheet's cash and cash equivalents
# 29: the part words a segment table's and a sentence's parts are read by ('the Entertainment
#     category', 'the Data service offering', 'international revenues': lexicon.dimensions)
# 30: a statement titled a word a line under its entity's name, the name printed the same way
#     ('MGM' / 'RESORTS' / ... / 'CONSOLIDATED' / 'STATEMENTS' / 'OF' / 'CASH' / 'FLOWS'), is
#     read as its statement (it was missed, and an exhibit's statements taken as the main ones)
# 31: a caption goes on past a word it never ends on ('Net income attributable to' / 'MGM
#     Resorts International'), and through a name printed a word a line to its last word
# 32: the figures-only line after a deduction row complete on its line ('Less: Promotional
#     allowances (793,571) ...' / '9,455,123 ...') is the block's net, named by its heading
#     ('Net revenues'), never figures of the deduction's caption
# 33: the owners' shares listed under 'Net income attributable to:' ('Acme' / 'Noncontrolling
#     interests') below the total: the total is the consolidated net income, the company's
#     share net income
# 34: a page printed a word a line: its captions and their figures one a line read back into
#     rows, and a title under 'ITEM 8.' printed the same way (PG&E's statements)
# 35: a caption naming its own figures ('Accounts receivable, net of allowances of $845 and
#     $882 17,513 13,457') keeps them (the row was dropped, three cells for two columns);
#     'Deferred revenues' (Activision Blizzard, Oracle, Pfizer) is deferred revenue
# 36: the statement of cash flows' net increase (decrease) in cash (and restricted cash) is a
#     line item of its own (`cash_change`, `cash_and_restricted_cash_change`): the printed
#     movement of the balance it reconciles
# 37: a caption with the balance sheet's section headings read onto its line ('Assets Current
#     assets Cash and cash equivalents') is the caption after them; 'General and administrative
#     expense(s)' is SG&A's line; 'due within one' excluded from long-term debt
# 38: 'Provision for taxes' is the income tax line (Intel's caption: before, the cash flow
#     statement's change in income taxes payable was read for it)
MODEL_VERSION = 38
_UNSAFE = re.compile(r"[^A-Za-z0-9._-]")
_PERIOD_FIELDS = tuple(StatementPeriod.model_fields)


def statements_dir(index_dir: str | Path) -> Path:
    return Path(index_dir) / "statements"


def _file_name(doc_id: str) -> str:
    return _UNSAFE.sub("_", doc_id) + ".parquet"


def _atomic_write(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _read_manifest(root: Path) -> dict[str, Any]:
    path = root / "manifest.json"
    if not path.exists():
        return {"version": MODEL_VERSION, "docs": {}}
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    data.setdefault("docs", {})
    return data


def manifest_entry(index_dir: str | Path, doc_id: str) -> Mapping[str, Any] | None:
    """The manifest record of one document, or None when its model was never built."""
    entry = _read_manifest(statements_dir(index_dir))["docs"].get(doc_id)
    return entry if isinstance(entry, dict) else None


def _period_json(p: StatementPeriod) -> dict[str, Any]:
    return p.model_dump(mode="json")


def write_model(index_dir: str | Path, read: StatementRead, *, content_hash: str) -> Path:
    """Store one document's model (parquet of facts + manifest record); returns the parquet path."""
    import pandas as pd

    root = statements_dir(index_dir)
    rows: list[dict[str, Any]] = []
    for table in read.tables:
        for f in table.facts:
            row = f.model_dump(mode="json", exclude={"period"})
            for k, v in _period_json(f.period).items():
                row[f"period_{k}"] = v
            row["period_key"] = f.period.key
            rows.append(row)
    frame = pd.DataFrame(rows)
    target = root / _file_name(read.doc_id)
    root.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=root, prefix=f".{target.name}.", suffix=".tmp")
    os.close(fd)
    try:
        frame.to_parquet(tmp, index=False)
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    detail = {
        "doc_id": read.doc_id,
        "tables": [
            {
                "table_id": t.table_id,
                "statement": t.statement,
                "title": t.title,
                "pages": list(t.pages),
                "unit": t.unit,
                "scale": t.scale,
                "source": t.source,
                "periods": [_period_json(p) for p in t.periods],
                "labels": list(t.labels),
                "notes": list(t.notes),
            }
            for t in read.tables
        ],
        "failures": [
            {"page": f.page, "statement": f.kind, "title": f.title, "reason": f.reason}
            for f in read.failures
        ],
    }
    meta_name = target.name.removesuffix(".parquet") + ".json"
    _atomic_write(root / meta_name, json.dumps(detail, ensure_ascii=False).encode())
    entry = {
        "version": MODEL_VERSION,
        "content_hash": content_hash,
        "file": target.name,
        "meta": meta_name,
        "method": read.method,
        "seconds": round(read.seconds, 3),
        "statement_pages": read.statement_pages,
        "typed_pages": read.typed_pages,
        "tables": len(read.tables),
        "facts": len(rows),
        "failures": len(read.failures),
    }
    with _LOCK:
        manifest = _read_manifest(root)
        manifest["version"] = MODEL_VERSION
        manifest["docs"][read.doc_id] = entry
        _atomic_write(
            root / "manifest.json", json.dumps(manifest, indent=1, sort_keys=True).encode()
        )
    return target


_LOCK = threading.Lock()


def _nan_to_none(value: Any) -> Any:
    return None if isinstance(value, float) and value != value else value


def _read_rows(path: Path) -> list[dict[str, Any]]:
    """The fact rows of one `<doc>.parquet`, read with pyarrow alone (pandas is not imported
    on the query path, and `read_table` would import it through pyarrow.dataset)."""
    if not path.exists():
        return []
    import pyarrow.parquet as pq

    rows: list[dict[str, Any]] = pq.ParquetFile(path).read().to_pylist()  # no pyarrow.dataset
    return rows


def _tables_from(
    doc_id: str, entry: Mapping[str, Any], rows: Iterable[dict[str, Any]]
) -> list[StatementTable]:
    by_table: dict[str, list[StatementFact]] = {}
    for rec in rows:
        period = StatementPeriod(
            **{k: _nan_to_none(rec.pop(f"period_{k}")) for k in _PERIOD_FIELDS}
        )
        rec.pop("period_key", None)
        dims = rec.pop("dimensions", None)  # parquet gives nested arrays back
        rec["dimensions"] = (
            tuple(tuple(str(x) for x in d) for d in dims) if dims is not None else ()
        )
        fact = StatementFact(period=period, **{k: _nan_to_none(v) for k, v in rec.items()})
        by_table.setdefault(fact.table_id, []).append(fact)
    out: list[StatementTable] = []
    for meta in entry.get("tables", []):
        out.append(
            StatementTable(
                table_id=meta["table_id"],
                doc_id=doc_id,
                statement=meta["statement"],
                title=meta.get("title", ""),
                pages=tuple(meta.get("pages", ())),
                unit=meta.get("unit", "USD"),
                scale=meta.get("scale", 1.0),
                periods=tuple(StatementPeriod(**p) for p in meta.get("periods", ())),
                labels=tuple(meta.get("labels", ())),
                facts=tuple(by_table.get(meta["table_id"], ())),
                source=meta.get("source", "text"),
                notes=tuple(meta.get("notes", ())),
            )
        )
    return out


class IndexStatementStore:
    """`StatementStore` over `<index>/statements/`: lazy, cached per document, thread-safe."""

    def __init__(self, index_dir: str | Path) -> None:
        self.root = statements_dir(index_dir)
        self._lock = threading.Lock()
        self._stamp: float | None = None
        self._manifest: dict[str, Any] = {"docs": {}}
        self._memory: dict[str, MemoryStatementStore] = {}

    def _entries(self) -> dict[str, Any]:
        path = self.root / "manifest.json"
        stamp = path.stat().st_mtime if path.exists() else None
        with self._lock:
            if stamp != self._stamp:
                self._manifest = _read_manifest(self.root) if stamp is not None else {"docs": {}}
                self._stamp = stamp
                self._memory.clear()
            docs: dict[str, Any] = self._manifest["docs"]
            return docs

    def _doc(self, doc_id: str) -> MemoryStatementStore:
        entries = self._entries()
        with self._lock:
            cached = self._memory.get(doc_id)
            if cached is not None:
                return cached
        entry = entries.get(doc_id)
        store = MemoryStatementStore()
        if entry is not None:
            rows = _read_rows(self.root / entry["file"])
            for table in _tables_from(doc_id, self._detail(entry), rows):
                store.add(table)
        with self._lock:
            self._memory[doc_id] = store
        return store

    def docs(self) -> list[str]:
        return sorted(self._entries())

    def tables(self, doc_id: str, statement: StatementKind | None = None) -> list[StatementTable]:
        return self._doc(doc_id).tables(doc_id, statement)

    def lookup(
        self, doc_id: str, item: str, period: str | int | StatementPeriod | None = None
    ) -> list[StatementFact]:
        return self._doc(doc_id).lookup(doc_id, item, period)

    def _detail(self, entry: Mapping[str, Any]) -> dict[str, Any]:
        path = self.root / str(entry.get("meta", ""))
        if not entry.get("meta") or not path.exists():
            return {"tables": [], "failures": []}
        detail: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
        return detail

    def report(self, doc_id: str) -> Mapping[str, Any] | None:
        """What the reader saw for one document: pages, counts, method, seconds, and the
        statement regions it could not type (`failures`: page, statement, title, reason)."""
        entry = self._entries().get(doc_id)
        if not isinstance(entry, dict):
            return None
        return {**entry, "failures": self._detail(entry).get("failures", [])}

    def preload(self, doc_ids: Iterable[str] | None = None) -> int:
        """Load documents now (e.g. before a batch); returns how many."""
        ids = list(doc_ids) if doc_ids is not None else self.docs()
        for doc_id in ids:
            self._doc(doc_id)
        return len(ids)


def ensure_model(
    index_dir: str | Path,
    doc_id: str,
    pages: Iterable[tuple[int, str]],
    *,
    content_hash: str,
    force: bool = False,
    extra_tables: Iterable[StatementTable] = (),
    grids: Iterable[tuple[int, Sequence[Sequence[str]]]] = (),
) -> StatementRead | None:
    """Build and store a document's model unless one built from the same content exists.

    `extra_tables` (a filing's inline XBRL facts, `finqa.lexicon.xbrl.statement_tables`) are
    stored after the tables read from the text; `grids` are the document's tables as cells
    (`(page, rows)`, EDGAR HTML), read before the page text. Returns the read when it built one, None when
    the stored model was already current.
    """
    from finqa.lexicon.statements.reader import read_pages

    entry = manifest_entry(index_dir, doc_id)
    if (
        not force
        and entry is not None
        and entry.get("content_hash") == content_hash
        and entry.get("version") == MODEL_VERSION
        and (statements_dir(index_dir) / str(entry.get("file", ""))).exists()
    ):
        return None
    read = read_pages(doc_id, pages, grids)
    read.tables.extend(extra_tables)
    write_model(index_dir, read, content_hash=content_hash)
    return read


_SHARED: dict[str, IndexStatementStore] = {}
_SHARED_LOCK = threading.Lock()


def shared_store(index_dir: str | Path) -> IndexStatementStore:
    """The one `IndexStatementStore` of an index folder in this process (reasoner, judge and
    LLM prompt builder share its cache); `clear_shared()` resets it (tests)."""
    key = str(Path(index_dir).expanduser().resolve())
    with _SHARED_LOCK:
        store = _SHARED.get(key)
        if store is None:
            store = _SHARED[key] = IndexStatementStore(key)
        return store


def clear_shared() -> None:
    with _SHARED_LOCK:
        _SHARED.clear()
