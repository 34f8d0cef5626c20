"""`finqa bench xbrl`'s recovery count: the tagged facts the statement model reads from the
tag-stripped filing, per filing (`statement_recovery`), and each filer's fiscal year end month."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import date
from pathlib import Path
from typing import Any

__all__ = ["fye_month_of", "statement_recovery"]


def fye_month_of(meta: dict[str, Any], period_end: date, quarter: int | None) -> int:
    from finqa.lexicon import lookup_company

    company = lookup_company(str(meta.get("company") or ""))
    if company is not None:
        return company.fiscal_year_end_month
    day = period_end if period_end.day > 7 else period_end.replace(day=1)
    month = day.month if period_end.day > 7 else (day.month - 2) % 12 + 1
    return month if quarter is None else (month + 3 * (4 - quarter) - 1) % 12 + 1


_KEY_ITEMS = frozenset(
    {"revenue", "net_income", "total_assets", "total_liabilities_and_equity", "cfo"}
)
_PRIMARY = frozenset({"income", "balance", "cashflow"})
_KEY_STATEMENT = {"revenue": "income", "net_income": "income", "total_assets": "balance",
                  "cfo": "cashflow"}  # fmt: skip
_COUNTS = ("tagged", "recovered", "recovered_signed", "on_statement_pages", "recovered_there",
           "recovered_there_signed", "in_tables", "recovered_in_tables", "recovered_as_item",
           "recovered_as_item_signed")  # fmt: skip


def _recover_one(
    plain: Any, tagged: Any, fye: int, read_pages: Any, withheld: frozenset[str] = frozenset()
) -> dict[str, Any]:
    """One filing's recovery counts, the tags missed (at most 12), and which primary statements
    the document prints (by its tags) and the reader typed; read with the catalogue view that
    withholds the captions `withheld` (none: the whole catalogue)."""
    from finqa.lexicon.caches import withholding
    from finqa.lexicon.xbrl import period_key

    with withholding(withheld):
        read = read_pages(plain.doc_id, plain.pages, [(t.page, t.rows) for t in plain.tables])
    have: dict[str, list[float]] = {}
    labels: dict[tuple[str, float], set[str]] = {}  # (period, |value|) -> items read there
    kinds: set[str] = set()
    seen = _Seen()
    for table in read.tables:
        for f in table.facts:
            seen.add(f.page, abs(float(f.value)))
            have.setdefault(f.period.key, []).append(float(f.value))
            labels.setdefault((f.period.key, abs(float(f.value))), set()).add(f.item or "")
            if f.item in _KEY_ITEMS and table.statement in _PRIMARY:
                kinds.add(table.statement)
    counts = dict.fromkeys(_COUNTS, 0)
    misses: list[str] = []
    unnamed: list[str] = []  # recovered by value, not as the tag's item
    why: dict[str, int] = {}  # the unrecovered (signed) by class
    why_item: dict[str, int] = {}  # the recovered not as the tag's item, by class
    # statement pages, by the tags themselves: where the key totals are tagged
    pages = {f.page for f in tagged.facts if f.item in _KEY_ITEMS and f.is_total}
    for fact in tagged.facts:
        if fact.item is None or not fact.is_total or fact.unit != "USD":
            continue
        tol = max(1.0, 0.0005 * abs(fact.value))  # the table's rounding
        key = period_key(fact, fye)
        found = have.get(key, ())
        hit = any(abs(abs(v) - abs(fact.value)) <= tol for v in found)
        signed = any(abs(v - fact.value) <= tol for v in found)
        counts["tagged"] += 1
        counts["recovered"] += hit
        counts["recovered_signed"] += signed
        if not signed:
            cls = "sign" if hit else seen.why(fact, found, tol)
            why[cls] = why.get(cls, 0) + 1
            if len(misses) < 12:
                misses.append(f"{fact.concept} {key} {fact.value:g} p.{fact.page} ({cls})")
        items = [
            (item, v)
            for v in found
            if abs(abs(v) - abs(fact.value)) <= tol
            for item in labels.get((key, abs(v)), ())
        ]
        named = [v for item, v in items if item == fact.item]
        counts["recovered_as_item"] += bool(named)
        counts["recovered_as_item_signed"] += any(abs(v - fact.value) <= tol for v in named)
        if hit and not named:
            read_as = sorted({item or "unmapped" for item, _ in items})
            cls = "caption unknown" if read_as == ["unmapped"] else "read as another item"
            why_item[cls] = why_item.get(cls, 0) + 1
        if hit and not named and len(unnamed) < 12:
            unnamed.append(
                f"{fact.concept} ({fact.item}) {key} {fact.value:g} p.{fact.page}: read as "
                f"{', '.join(read_as)}"
            )
        if fact.in_table:
            counts["in_tables"] += 1
            counts["recovered_in_tables"] += hit
        if fact.page in pages:
            counts["on_statement_pages"] += 1
            counts["recovered_there"] += hit
            counts["recovered_there_signed"] += signed
    # the primary statements the document prints, by its own tags: a key total tagged in a table
    printed = {_KEY_STATEMENT[f.item] for f in tagged.facts
               if f.item in _KEY_STATEMENT and f.is_total and f.in_table}  # fmt: skip
    return {
        **counts,
        "statements_in_document": sorted(printed),
        "statements_read": sorted(kinds),
        "statements_not_read": sorted(printed - kinds),
        "read": bool(printed),
        "misses": misses,
        "not_as_item": unnamed,
        "unrecovered_by_class": why,
        "not_as_item_by_class": why_item,
    }


class _Seen:
    """Which magnitudes the reader read on which page, to say why a tag was not recovered."""

    def __init__(self) -> None:
        self.pages: dict[int, list[float]] = {}

    def add(self, page: int, value: float) -> None:
        self.pages.setdefault(page, []).append(value)

    def why(self, fact: Any, found: Sequence[float], tol: float) -> str:
        """'scale' (the figure a thousand or a million times off under its period), 'period'
        (the figure read on its page under another period), 'table not found' (no table read
        on the tag's page: a figure in a sentence, an exhibit), else 'row not read'."""
        target = abs(fact.value)
        for v in found:
            if any(abs(abs(v) * k - target) <= tol for k in (1e3, 1e-3, 1e6, 1e-6)):
                return "scale"
        on_page = self.pages.get(fact.page)
        if not on_page:
            return "table not found"
        if any(abs(v - target) <= tol for v in on_page):
            return "period"
        return "row not read"


def _share(a: int, b: int) -> float | None:
    return round(a / b, 4) if b else None


def statement_recovery(
    files: Sequence[Path],
    tagged_from: Sequence[Path],
    withheld: Mapping[str, frozenset[str]] | None = None,
) -> dict[str, Any]:
    """Share of tagged totals the statement reader finds with the right value, period, scale.

    For every tag with no dimension, a catalogue item and unit USD, the statement model read
    from the tag-stripped document (page text and its table cells, as ingest reads it) must
    hold a fact with the same period key whose value is within the table's rounding (0.05%,
    at least $1): `recovered` compares magnitudes, `recovered_signed` also the sign, which
    follows the concept's convention (a cash-flow outflow printed '(183)' is tagged +183 for a
    PaymentsTo... concept, and the reader gives the outflow +183 from its nature).
    `recovered_as_item` (`_signed`) also asks that the fact read there be the tag's own
    catalogue item (the row's caption known to the catalogue as that item), not only a figure
    of the same value and period; `not_as_item` per filing lists up to 12 that are not.
    `unrecovered_by_class` says why each tag not recovered with its sign was missed ('sign',
    'scale', 'period', 'table not found', 'row not read': `_Seen.why`), `not_as_item_by_class`
    why one recovered by value was not read as its item ('caption unknown': the row is read
    but mapped to no item; 'read as another item').
    `on_statement_pages` counts only the tags on the pages where the key totals are tagged;
    `in_tables` only the tags shown in a table cell (a figure tagged inside a sentence, 'SBC
    expense was $22.8 billion', is not a table's to recover).

    Per filing (`by_filing`): the primary statements the document prints, by its own tags (a
    key total tagged in a table cell: revenue or net income, total assets, operating cash
    flow), those the reader typed, and those it missed. A filing that prints none of them (a
    filer whose statements are in an exhibit) has `read: false` and is left out of the
    totals (`not_read`), never counted as read.

    `withheld` (file name -> caption keys, `_xbrl_holdout.withheld_by_filing`): each filing is
    read without the captions its own company alone taught (out of fold); `withheld` per filing
    says which were left out.
    """
    import importlib

    try:  # the statement model's text reader (lexicon/statements), when installed
        read_pages = importlib.import_module("finqa.lexicon.statements").read_pages
    except (ImportError, AttributeError):
        return {"measured": False, "reason": "no statement reader installed"}
    from finqa.agents.retrieval.loaders import LoadedDoc, load_path
    from finqa.agents.retrieval.metadata import doc_metadata

    counts = dict.fromkeys(_COUNTS, 0)
    why: dict[str, int] = {}
    why_item: dict[str, int] = {}
    by_filing: dict[str, dict[str, Any]] = {}
    for text_path, tagged_path in zip(files, tagged_from, strict=True):
        tagged = next((d for d in load_path(tagged_path) if isinstance(d, LoadedDoc)), None)
        plain = next((d for d in load_path(text_path) if isinstance(d, LoadedDoc)), None)
        if tagged is None or plain is None:
            continue
        meta = doc_metadata(tagged.doc_id, dei=tagged.dei)
        end = meta.get("period_end")
        if not end:
            continue
        fp = str(meta.get("fiscal_period") or "FY")
        fye = fye_month_of(
            meta, date.fromisoformat(end), int(fp[1]) if fp.startswith("Q") else None
        )
        keys = (withheld or {}).get(tagged_path.name, frozenset())
        one = _recover_one(plain, tagged, fye, read_pages, keys)
        if withheld is not None:
            one["withheld"] = sorted(keys)
        one["share"] = _share(one["recovered"], one["tagged"])
        one["share_signed"] = _share(one["recovered_signed"], one["tagged"])
        by_filing[tagged_path.name] = one
        if one["read"]:
            for k in _COUNTS:
                counts[k] += one[k]
            for field, total in (("unrecovered_by_class", why), ("not_as_item_by_class", why_item)):
                for cls, n in one[field].items():
                    total[cls] = total.get(cls, 0) + n
    t, s = counts["tagged"], counts["on_statement_pages"]
    return {
        "measured": True,
        **counts,
        "share": _share(counts["recovered"], t),
        "share_signed": _share(counts["recovered_signed"], t),
        "share_as_item": _share(counts["recovered_as_item"], t),
        "share_as_item_signed": _share(counts["recovered_as_item_signed"], t),
        "share_in_tables": _share(counts["recovered_in_tables"], counts["in_tables"]),
        "share_on_statement_pages": _share(counts["recovered_there"], s),
        "share_on_statement_pages_signed": _share(counts["recovered_there_signed"], s),
        "unrecovered_by_class": dict(sorted(why.items())),
        "not_as_item_by_class": dict(sorted(why_item.items())),
        "not_read": sorted(name for name, one in by_filing.items() if not one["read"]),
        "by_filing": by_filing,
    }
