"""Inline XBRL facts: the figures a filing tags, with concept, period, dimensions, unit, scale.

Parsed directly from the `ix:` elements of an EDGAR HTML document (lxml tree), not with an
XBRL library: py-xbrl, ixbrlparse and arelle either fetch taxonomies over the network
(impossible here) or do not tell where a fact sits, and a fact's page is what makes it
citable. Reading `ix:nonFraction` / `ix:nonNumeric`, their `xbrli:context` (period,
dimensions) and `xbrli:unit` needs no taxonomy.

Values follow the Inline XBRL 1.1 rules: the displayed number, transformed by `format`
(zero dash, comma decimals), times 10**scale, negated when `sign="-"`. A fact with
dimensions (a segment, a product line) is never a total: `is_total` is False; it keeps its
line item beside its dimensions, so a segment's revenue can be looked up as such. Concepts map
to the catalogue's line items through each entry's `concepts` (`lexicon.catalogue`); a
company's own concepts (`adbe:...`) and unmapped us-gaap ones are kept with `item=None`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from datetime import date, timedelta
from functools import cache
from typing import Any

from finqa.lexicon.catalogue import concept_rows

__all__ = [
    "ConceptInfo",
    "XbrlFact",
    "XbrlFacts",
    "concept_infos",
    "read_facts",
    "concept_item",
    "period_key",
    "is_fact_element",
    "statement_tables",
    "fiscal_year_end_month",
]


@dataclass(frozen=True, slots=True)
class XbrlFact:
    """One tagged number of a filing, in base units (dollars, shares) after scale and sign."""

    concept: str  # 'us-gaap:Revenues', 'adbe:SubscriptionRevenue'
    value: float
    unit: str | None  # 'USD', 'shares', 'USD/shares', 'pure'
    scale: int  # as tagged: 6 = shown in millions
    decimals: int | None  # None for INF
    negative: bool  # sign="-"
    start: date | None  # None for an instant
    end: date  # the instant, or the last day of the duration
    dimensions: tuple[tuple[str, str], ...]  # (axis, member), sorted
    context_id: str
    page: int  # 0-based page of the document the fact is shown on
    raw: str  # the displayed text, e.g. '21,505'
    fact_id: str = ""
    item: str | None = None  # catalogue line item, None when the concept is not mapped
    in_table: bool = False  # shown in a table cell (not in a sentence or hidden)

    @property
    def is_total(self) -> bool:
        """A fact with no dimension: the entity as a whole, not a segment or member."""
        return not self.dimensions

    @property
    def instant(self) -> bool:
        return self.start is None

    @property
    def months(self) -> int:
        """Duration in whole months (0 for an instant): 3, 6, 9, 12."""
        if self.start is None:
            return 0
        return round(((self.end - self.start).days + 1) / 30.44)

    @property
    def shown(self) -> float:
        """The value as displayed in the document (before scale), signed."""
        return float(self.value / (10**self.scale))


@dataclass(frozen=True)
class XbrlFacts:
    """Everything tagged in one document: numeric facts, dei: cover facts, and skip notes."""

    facts: tuple[XbrlFact, ...]
    dei: Mapping[str, str]  # local name -> value ('\n'-joined when repeated)
    notes: tuple[str, ...] = ()

    def by_concept(self, concept: str) -> list[XbrlFact]:
        return [f for f in self.facts if f.concept == concept]


# --------------------------------------------------------------------------- names


def _local(tag: Any) -> str:
    """'{ns}nonFraction' / 'ix:nonfraction' -> 'nonfraction'."""
    if not isinstance(tag, str):
        return ""
    return tag.rsplit("}", 1)[-1].rsplit(":", 1)[-1].lower()


def _prefix(tag: Any) -> str:
    if not isinstance(tag, str):
        return ""
    if tag.startswith("{"):
        ns = tag[1:].split("}", 1)[0]
        return "ix" if "inlineXBRL" in ns else ("xbrli" if ns.endswith("/instance") else ns)
    return tag.split(":", 1)[0].lower() if ":" in tag else ""


def is_fact_element(el: Any) -> bool:
    """An `ix:nonFraction` or `ix:nonNumeric` element."""
    return _prefix(el.tag) == "ix" and _local(el.tag) in ("nonfraction", "nonnumeric")


def _text(el: Any) -> str:
    return re.sub(r"\s+", " ", "".join(el.itertext())).strip()


def _attr(el: Any, name: str) -> str | None:
    value = el.get(name)
    if value is None:
        value = el.get(name.lower())
    return None if value is None else str(value)


# --------------------------------------------------------------------------- contexts, units


@dataclass(frozen=True, slots=True)
class _Context:
    start: date | None
    end: date
    dimensions: tuple[tuple[str, str], ...]


def _iso(text: str) -> date | None:
    try:
        return date.fromisoformat(text.strip()[:10])
    except ValueError:
        return None


def _contexts(root: Any) -> dict[str, _Context]:
    out: dict[str, _Context] = {}
    for el in root.iter():
        if _local(el.tag) != "context":
            continue
        cid = el.get("id")
        start = end = instant = None
        dims: list[tuple[str, str]] = []
        for sub in el.iter():
            name = _local(sub.tag)
            if name == "startdate":
                start = _iso(_text(sub))
            elif name == "enddate":
                end = _iso(_text(sub))
            elif name == "instant":
                instant = _iso(_text(sub))
            elif name in ("explicitmember", "typedmember"):
                dims.append((str(_attr(sub, "dimension") or ""), _text(sub)))
        if cid is None:
            continue
        if instant is not None:
            out[cid] = _Context(None, instant, tuple(sorted(dims)))
        elif end is not None:
            out[cid] = _Context(start, end, tuple(sorted(dims)))
    return out


def _units(root: Any) -> dict[str, str]:
    out: dict[str, str] = {}
    for el in root.iter():
        if _local(el.tag) != "unit" or el.get("id") is None:
            continue
        measures = [
            (_local(p.tag), _text(m).split(":")[-1])
            for p in el.iter()
            for m in p
            if _local(m.tag) == "measure"
        ]
        num = [m for parent, m in measures if parent in ("unitnumerator", "unit")]
        den = [m for parent, m in measures if parent == "unitdenominator"]
        out[el.get("id")] = "*".join(num) + ("/" + "*".join(den) if den else "")
    return out


# --------------------------------------------------------------------------- values

_ZERO_FORMATS = ("zerodash", "fixed-zero", "fixedzero")


def _number(text: str, fmt: str | None) -> float | None:
    """The displayed number under its ixt format; None when it is not a number."""
    f = (fmt or "").lower().split(":")[-1]
    if any(z in f for z in _ZERO_FORMATS):
        return 0.0
    s = text.strip()
    if f in ("num-comma-decimal", "numcommadecimal", "numdotcomma", "num-dot-comma"):
        s = s.replace(".", "").replace(" ", "").replace(",", ".")
    else:
        s = s.replace(",", "").replace(" ", "")
    s = s.strip("()$€£%")
    if s in ("-", "—", "–", ""):
        return 0.0 if s else None
    try:
        return float(s)
    except ValueError:
        return None


# --------------------------------------------------------------------------- mapping


@cache
def _concept_items() -> dict[str, str]:
    return {r.concept: r.item for r in concept_rows()}


@dataclass(frozen=True, slots=True)
class ConceptInfo:
    """What the taxonomy says of a mapped concept: `balance` ('debit' | 'credit' | '' for
    none: net flows, per-share figures, counts), `period_type` ('instant' | 'duration') and
    the `nature` of what it reports (revenue, expense, gain, loss, asset, liability, equity,
    inflow, outflow; '' for none). A positive tagged value is the concept's own direction:
    PaymentsToAcquirePropertyPlantAndEquipment +183 is 183 paid, whatever the print."""

    concept: str
    item: str
    balance: str
    period_type: str
    nature: str


@cache
def concept_infos() -> dict[str, ConceptInfo]:
    """Every mapped concept's taxonomy facts (the catalogue entries' `concepts`, with the
    entry's balance, period and nature), by concept name."""
    return {
        r.concept: ConceptInfo(r.concept, r.item, r.balance, r.period_type, r.nature)
        for r in concept_rows()
    }


def concept_item(concept: str) -> str | None:
    """The catalogue line item a tagged concept reports, or None (company extensions included)."""
    return _concept_items().get(concept)


def period_key(fact: XbrlFact, fye_month: int) -> str:
    """Statement-model period key of a fact for a company whose fiscal year ends in `fye_month`:
    'FY2024', '2025Q3', '2025M9' (nine months to date), 'FY2024@end', '2025Q3@end'."""
    end = fact.end - timedelta(days=7) if fact.end.day <= 7 else fact.end
    fy = end.year if end.month <= fye_month else end.year + 1
    quarter = ((end.month - (fye_month % 12 + 1)) % 12) // 3 + 1
    if fact.instant:
        return f"FY{fy}@end" if quarter == 4 and end.month == fye_month else f"{fy}Q{quarter}@end"
    months = fact.months
    if months >= 11:
        return f"FY{fy}"
    if months <= 4:
        return f"{fy}Q{quarter}"
    return f"{fy}M{months}"


# --------------------------------------------------------------------------- reading


def read_facts(
    root: Any, page_of: Callable[[Any], int] | None = None, elements: Iterable[Any] | None = None
) -> XbrlFacts:
    """Facts of an inline XBRL tree; `page_of(element)` gives each fact's 0-based page."""
    contexts = _contexts(root)
    units = _units(root)
    facts: list[XbrlFact] = []
    dei: dict[str, list[str]] = {}  # parent's (no dimension) values first
    dei_members: dict[str, list[str]] = {}  # a co-registrant's (LegalEntityAxis) values
    notes: list[str] = []
    seen: set[tuple[str, str, str | None]] = set()
    found = elements if elements is not None else (e for e in root.iter() if is_fact_element(e))
    for el in found:
        name = str(_attr(el, "name") or "")
        kind = _local(el.tag)
        cid = str(_attr(el, "contextRef") or "")
        if kind == "nonnumeric":
            if name.startswith("dei:"):
                ctx = contexts.get(cid)
                value = _text(el)
                target = dei_members if ctx is not None and ctx.dimensions else dei
                if value:
                    target.setdefault(name.split(":", 1)[1], []).append(value)
            continue
        ctx = contexts.get(cid)
        if ctx is None:
            notes.append(f"{name}: unknown context {cid!r}")
            continue
        if (_attr(el, "xsi:nil") or el.get("{http://www.w3.org/2001/XMLSchema-instance}nil")) in (
            "true",
            "1",
        ):
            continue
        raw = _text(el)
        shown = _number(raw, _attr(el, "format"))
        if shown is None:
            notes.append(f"{name}: not a number {raw[:20]!r}")
            continue
        try:
            scale = int(_attr(el, "scale") or 0)
        except ValueError:
            scale = 0
        dec = str(_attr(el, "decimals") or "INF")
        negative = _attr(el, "sign") == "-"
        unit = units.get(str(_attr(el, "unitRef") or "")) or _attr(el, "unitRef")
        key = (name, cid, unit)
        if key in seen:  # the same fact shown twice (a summary and a statement)
            continue
        seen.add(key)
        value = shown * (10**scale) * (-1 if negative else 1)
        facts.append(
            XbrlFact(
                concept=name,
                value=value,
                unit=unit,
                scale=scale,
                decimals=None if dec.upper() == "INF" else _int(dec),
                negative=negative,
                start=ctx.start,
                end=ctx.end,
                dimensions=ctx.dimensions,
                context_id=cid,
                page=page_of(el) if page_of else 0,
                raw=raw,
                fact_id=str(el.get("id") or ""),
                item=concept_item(name),
                in_table=any(_local(a.tag) in ("td", "th") for a in el.iterancestors()),
            )
        )
    for local, values in dei_members.items():
        known = dei.setdefault(local, [])
        known.extend(v for v in values if v not in known)
    return XbrlFacts(tuple(facts), {k: "\n".join(v) for k, v in dei.items()}, tuple(notes))


def _int(text: str) -> int | None:
    try:
        return int(text)
    except ValueError:
        return None


# --------------------------------------------------------------------------- statement model

_UNITS = {"USD": "USD", "USD/shares": "USD/share", "shares": "shares", "pure": "pure"}
_KINDS = {"income": "income", "balance": "balance", "cash_flow": "cashflow", "equity": "equity"}


def _statement_period(fact: XbrlFact, fye_month: int) -> Any:
    from finqa.lexicon.model import StatementPeriod

    key = period_key(fact, fye_month)
    base = key.removesuffix("@end")
    fy = int(base[2:]) if base.startswith("FY") else int(base[:4])
    quarter = int(base[5]) if "Q" in base else None
    if "M" in base[4:]:  # six / nine months to date: the quarter it ends
        end = fact.end - timedelta(days=7) if fact.end.day <= 7 else fact.end
        quarter = ((end.month - (fye_month % 12 + 1)) % 12) // 3 + 1
    label = fact.end.isoformat() if fact.instant else f"{fact.start} to {fact.end}"
    return StatementPeriod(
        label=label,
        fiscal_year=fy,
        quarter=quarter,
        end_date=fact.end,
        months=fact.months,
        instant=fact.instant,
    )


def statement_tables(doc_id: str, facts: Iterable[XbrlFact], fye_month: int) -> list[Any]:
    """The tagged facts as statement-model tables (`source="xbrl"`), one per statement kind.

    Totals of mapped concepts carry their catalogue item; a fact with dimensions goes to the
    'segment' table with its item and dimensions (never a total: the store's `lookup` of an
    item leaves dimensional facts out, `lexicon.dimensions.dimensional_facts` reads them);
    company extensions, unmapped concepts
    and totals that disagree with another tag of the same item and period go to 'other' with
    `item=None`. Facts in other currencies are left out.
    """
    from finqa.lexicon.metrics import get_metric
    from finqa.lexicon.model import StatementFact, StatementTable

    facts = list(facts)
    # two tagged totals that map to one line item and period but disagree (a subtotal tagged
    # with a total's concept) say nothing certain about the item: neither is read as it
    # (a dimensional fact is checked the same way among the facts of its own dimensions)
    seen: dict[tuple[str, str, str | None, tuple[tuple[str, str], ...]], set[float]] = {}
    for fact in facts:
        if fact.item:
            key = (fact.item, period_key(fact, fye_month), fact.unit, fact.dimensions)
            seen.setdefault(key, set()).add(round(fact.value, 6))
    grouped: dict[str, list[Any]] = {}
    for n, fact in enumerate(facts):
        unit = _UNITS.get(fact.unit or "")
        if unit is None:
            continue
        key = (fact.item or "", period_key(fact, fye_month), fact.unit, fact.dimensions)
        values = seen.get(key, set())
        metric = get_metric(fact.item) if fact.item and len(values) <= 1 else None
        if fact.dimensions:
            # a segment's, a region's or a product line's figure: its line item and its
            # dimensions, never a total (`StatementStore.lookup` leaves it out)
            kind, item = "segment", (fact.item if metric is not None else None)
        elif metric is not None:
            kind, item = _KINDS.get(metric.statement, "other"), fact.item
        else:
            kind, item = "other", None
        dims = ", ".join(f"{a.split(':')[-1]}={m.split(':')[-1]}" for a, m in fact.dimensions)
        grouped.setdefault(kind, []).append(
            StatementFact(
                doc_id=doc_id,
                statement=kind,  # type: ignore[arg-type]
                table_id=f"xbrl-{kind}",
                table_title=f"inline XBRL facts ({kind})",
                label=fact.concept + (f" [{dims}]" if dims else ""),
                item=item,
                period=_statement_period(fact, fye_month),
                value=fact.value,
                unit=unit,  # type: ignore[arg-type]
                scale=float(10**fact.scale) if unit in ("USD", "shares") else 1.0,
                negative=fact.negative,
                page=fact.page,
                row=n,
                raw=fact.raw,
                source="xbrl",
                concept=fact.concept,
                dimensions=fact.dimensions,
                decimals=fact.decimals,
            )
        )
    tables = []
    for kind, rows in grouped.items():
        periods = tuple({f.period.key: f.period for f in rows}.values())
        tables.append(
            StatementTable(
                table_id=f"xbrl-{kind}",
                doc_id=doc_id,
                statement=kind,  # type: ignore[arg-type]
                title=f"inline XBRL facts ({kind})",
                pages=tuple(sorted({f.page for f in rows})),
                periods=periods,
                labels=tuple(dict.fromkeys(f.label for f in rows)),
                facts=tuple(rows),
                source="xbrl",
            )
        )
    return tables


def fiscal_year_end_month(dei: Mapping[str, str]) -> int:
    """The month a filer's fiscal year ends, from its dei: facts (CurrentFiscalYearEndDate
    '--11-29', '11/29', 'December 31'; else the registrant's gazetteer entry); 12 if unknown."""
    from finqa.lexicon.entities import lookup_company
    from finqa.lexicon.periods import MONTH_NUMBERS

    raw = (dei.get("CurrentFiscalYearEndDate") or "").strip()
    m = re.match(r"^-*(\d{1,2})[-/]", raw)
    if m and 1 <= int(m.group(1)) <= 12:
        return int(m.group(1))
    word = re.match(r"([A-Za-z]+)", raw)
    if word and word.group(1).lower() in MONTH_NUMBERS:
        return MONTH_NUMBERS[word.group(1).lower()]
    names = (dei.get("EntityRegistrantName") or "").split("\n")
    company = lookup_company(names[0]) if names and names[0] else None
    return company.fiscal_year_end_month if company else 12
