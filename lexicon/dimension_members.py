"""Dimensional facts: the parts of the business a filing's figures are about, as XBRL tags them.

A dimension is an axis (what kind of part: `us-gaap:StatementBusinessSegmentsAxis`,
`srt:StatementGeographicalAxis`, `srt:ProductOrServiceAxis`, or a company's own axis named like
one) and a member (which part: `aapl:GreaterChinaSegmentMember`, `country:JP`). The vocabulary
is the filing's own: the members of its part axes, read from its dimensional facts (the tags, or
the rows a segment note's table names), never a list of one company's segments.

- `fact_dimension(fact)`: the one part a fact is about (its figure for that part as a whole),
  None for a consolidated fact or one qualified by another axis (a segment's eliminations);
- `members_of(facts)` / `members_in(store, docs)`: a filing's vocabulary of parts;
- `dimensional_facts(store, docs, item, dimension, period)`: the lookup of a line item's
  figure for one part, through the `StatementStore` seam.

What a question names is read in `dimension_question`.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from finqa.lexicon._data import data_cache, read_csv
from finqa.lexicon._dimension_names import loose as _loose

if TYPE_CHECKING:
    from finqa.lexicon.model import AskedDimension, StatementFact

__all__ = [
    "DimensionMember",
    "axis_kind",
    "kind_words",
    "member_name",
    "is_residual",
    "bare_name",
    "country_keys",
    "fact_dimension",
    "members_of",
    "members_in",
    "dimensional_facts",
    "KIND_AXES",
]

# a segment's own figure is tagged with ConsolidationItemsAxis=OperatingSegmentsMember beside
# its segment member (before eliminations): that member qualifies nothing
_NEUTRAL = {("srt:ConsolidationItemsAxis", "us-gaap:OperatingSegmentsMember")}
# members that are no part of the business but the rest of a breakdown (XBRL's own residual
# members and their company variants): never what a question names as a segment
_RESIDUAL = re.compile(
    r"^(?:other|all ?other|corporate|eliminations?|intersegment|unallocated|reconcil|"
    r"segments? ?total|total|consolidat|product ?and ?service ?other$|reportable ?segments?$|operating ?segments?$)",
    re.I,
)
# the axis a kind's parts are read on when a text table names them (no tag to say)
KIND_AXES = {
    "segment": "us-gaap:StatementBusinessSegmentsAxis",
    "geography": "srt:StatementGeographicalAxis",
    "product": "srt:ProductOrServiceAxis",
}


@dataclass(frozen=True, slots=True)
class DimensionMember:
    """One part of the business a filing reports figures for."""

    axis: str  # 'us-gaap:StatementBusinessSegmentsAxis'
    member: str  # 'aapl:GreaterChinaSegmentMember', 'country:JP', or a caption as printed
    kind: str  # segment | geography | product
    name: str  # 'Greater China', 'Japan'
    keys: tuple[str, ...]  # letters-only spellings a question may use
    facts: int = 0  # how many facts the filing reports for it
    caption: bool = False  # printed under the consolidated line's own words ('Sales')


@data_cache()
def _axes() -> dict[str, tuple[str, tuple[str, ...]]]:
    return {
        r["axis"].strip(): (r["kind"].strip(), tuple(w.strip() for w in r["words"].split("|")))
        for r in read_csv("dimension_axes.csv")
    }


@data_cache()
def country_names() -> dict[str, tuple[str, ...]]:
    return {
        r["code"].strip().upper(): tuple(n.strip() for n in r["names"].split("|"))
        for r in read_csv("country_codes.csv")
    }


def kind_words() -> dict[str, tuple[str, ...]]:
    """The general words for each kind of part ('segment', 'region', 'product line', ...)."""
    out: dict[str, list[str]] = {}
    for kind, words in _axes().values():
        bucket = out.setdefault(kind, [])
        bucket.extend(w for w in words if w not in bucket)
    return {k: tuple(v) for k, v in out.items()}


_EXT_KIND = (
    ("segment", re.compile(r"Segment", re.I)),
    ("geography", re.compile(r"Geograph|Region|Countr", re.I)),
    ("product", re.compile(r"ProductOrService|ProductLine|Brand", re.I)),
)


def axis_kind(axis: str) -> str | None:
    """'segment', 'geography' or 'product' for an axis naming parts of the business, else None
    (a company's own axis by its name: 'ko:OperatingSegmentsAxis' is a segment axis)."""
    known = _axes().get(axis)
    if known is not None:
        return known[0]
    local = axis.split(":")[-1]
    if "Subsegment" in local or "Consolidation" in local:
        return None
    if axis.split(":")[0] in ("us-gaap", "srt", "dei"):
        return None  # a standard axis not listed names something else (equity components, ...)
    for kind, rx in _EXT_KIND:
        if rx.search(local):
            return kind
    return None


_CAMEL = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|\d+")


def member_name(member: str) -> str:
    """How a member reads: 'aapl:GreaterChinaSegmentMember' -> 'Greater China', 'country:JP'
    -> 'Japan', 'us-gaap:EMEAMember' -> 'EMEA'; a caption as printed stays as it is."""
    prefix, _, local = member.rpartition(":")
    if prefix == "country":
        names = country_names().get(local.upper())
        return names[0] if names else local
    if " " in member or not local.endswith("Member"):
        return member.strip()
    local = local.removesuffix("Member")
    local = re.sub(r"(?:Reportable)?(?:Operating)?Segments?$", "", local) or local
    local = re.sub(r"(?<=[a-z])and(?=[A-Z])", "And", local)  # 'HomeandAccessories'
    words = ["US" if w == "Us" else w for w in _CAMEL.findall(local)]
    text = " ".join(
        w.lower() if w in ("And", "Of", "The") and n else w for n, w in enumerate(words)
    )
    return re.sub(r"\bNon (?=\w)", "Non-", text) if words else local


def name_key(text: str) -> str:
    return re.sub(r"[^a-z0-9]", "", text.lower())


def _member_keys(member: str, name: str) -> tuple[str, ...]:
    prefix, _, local = member.rpartition(":")
    from finqa.lexicon.abbreviations import abbreviations

    keys = [name_key(name)]
    outer = re.match(r"^(.*?)\s*\(([^()]+)\)\s*$", name)  # 'Asia-Pacific (APAC)'
    if outer:
        keys += [name_key(outer.group(1)), name_key(outer.group(2))]
    for short in [name, *(outer.groups() if outer else ())]:
        long = abbreviations().get(short.strip())  # mined from filings: 'EMEA'
        if long:
            keys.append(name_key(long))
    if prefix == "country":
        keys += [name_key(n) for n in country_names().get(local.upper(), ())]
    if not local.endswith("Member") or " " in member:  # a caption as printed
        bare = _LINE_WORDS.sub("", name).strip()  # 'Sales of products' -> 'products'
        keys.append(name_key(bare))
    keys += [k[:-1] for k in keys if len(k) > 4 and k.endswith("s") and not k.endswith("ss")]
    keys.append(_loose(name))
    return tuple(k for k in dict.fromkeys(keys) if k)


# a line item's words around a part's printed name: 'Sales of products', 'Freight revenues'
_LINE_WORDS = re.compile(
    r"^(?:net\s+)?(?:sales|revenues?)\s+(?:of|from)\s+|\s+(?:net\s+)?(?:sales|revenues?)$", re.I
)


def is_residual(name: str) -> bool:
    """Other, corporate, eliminations, totals: the rest of a breakdown, not a part of it."""
    return bool(_RESIDUAL.search(name.strip()))


def bare_name(name: str) -> str:
    """A printed part's name without its line item's words ('Freight revenues' -> 'Freight',
    'Sales of products' -> 'products'); a name that is nothing else stays as it is."""
    return _LINE_WORDS.sub("", name).strip() or name.strip()


def country_keys() -> frozenset[str]:
    """Every spelling of a country's name, letters only ('unitedstates', 'us', 'japan')."""
    return frozenset(name_key(n) for names in country_names().values() for n in names)


# 'Other Americas': on a geographic axis the rest of a region is a part of its own, not the
# residual of the breakdown
_REST_OF_PLACE = re.compile(r"^(?i:other|rest\s+of)\s+[A-Z]")


def _kept(name: str, kind: str) -> bool:
    if not is_residual(name):
        return True
    return kind == "geography" and bool(_REST_OF_PLACE.match(name.strip()))


def _caption(name: str) -> bool:
    """A part printed under the words of the consolidated line itself ('Sales' over the
    service offerings): a question's 'sales' is the company's, so only a phrase naming a
    part (`resolve_dimension`'s spoken part) may reach it."""
    from finqa.lexicon.statements.catalogue import item_for_label

    return item_for_label(name) == "revenue"


def fact_dimension(fact: Any) -> tuple[str, str] | None:
    """The one (axis, member) of a part of the business a fact is the figure of; None when it
    has no such dimension or another axis qualifies it (a segment's intersegment sales)."""
    dims = [d for d in getattr(fact, "dimensions", ()) if tuple(d) not in _NEUTRAL]
    if len(dims) != 1:
        return None
    axis, member = dims[0]
    return (axis, member) if axis_kind(axis) else None


def members_of(facts: Iterable[StatementFact]) -> tuple[DimensionMember, ...]:
    """The filing's vocabulary of parts: every member its dimensional facts report, tagged
    members first, then most used (residual members, such as eliminations and corporate,
    left out)."""
    count: Counter[tuple[str, str]] = Counter()
    tagged: set[tuple[str, str]] = set()
    for fact in facts:
        dim = fact_dimension(fact)
        if dim is not None:
            count[dim] += 1
            if getattr(fact, "source", "xbrl") == "xbrl":
                tagged.add(dim)
    out = []
    # the filing's own tags first: a member a text table also names is read as tagged
    order = sorted(count.items(), key=lambda kv: (kv[0] not in tagged, -kv[1], kv[0]))
    for (axis, member), n in order:
        name = member_name(member)
        kind = axis_kind(axis)
        if kind is None or not _kept(name, kind) or len(name_key(name)) < 2:
            continue
        keys = _member_keys(member, name)
        caption = ":" not in member and _caption(name)  # a printed name, not a tag
        out.append(DimensionMember(axis, member, kind, name, keys, n, caption))
    return tuple(out)


def members_in(store: Any, doc_ids: Iterable[str]) -> tuple[DimensionMember, ...]:
    """The vocabulary of parts of the given documents of a `StatementStore`; a member named
    as the filer itself (a table's 'Activision Blizzard' total row read as a region) is the
    whole company, no part of it."""
    from finqa.lexicon.entities import company_for_doc

    docs = list(dict.fromkeys(doc_ids))
    facts = [f for doc in docs for t in store.tables(doc) for f in t.facts]
    companies = [company_for_doc(doc) for doc in docs]
    own = {name_key(c.name) for c in companies if c is not None}
    return tuple(
        m for m in members_of(f for f in facts if f.dimensions) if name_key(m.name) not in own
    )


def dimensional_facts(
    store: Any,
    doc_ids: Iterable[str],
    item: str,
    dimension: AskedDimension,
    period: Any = None,
) -> list[StatementFact]:
    """A line item's facts for one part of the business (`dimension.member` on its axis), in
    the given documents: the tag of the part as a whole first, then text tables' figures.
    Facts qualified by another axis (a segment's intersegment sales) are left out."""
    if dimension.member is None:
        return []
    out: list[StatementFact] = []
    for doc in dict.fromkeys(doc_ids):
        for table in store.tables(doc):
            for fact in table.facts:
                if fact.item != item or not fact.dimensions:
                    continue
                if fact_dimension(fact) != (dimension.axis, dimension.member):
                    continue
                if period is not None and not fact.period.matches(period):
                    continue
                out.append(fact)
    # two text tables naming the part (regions of the company, regions of one segment): the
    # one whose parts add up to more is the company's breakdown
    size: Counter[tuple[str, str]] = Counter()
    for doc in dict.fromkeys(doc_ids):
        for table in store.tables(doc):
            for fact in table.facts:
                if fact.item == item and fact.dimensions and fact.source != "xbrl":
                    size[(table.table_id, fact.period.key)] += abs(fact.value)
    return sorted(
        out,
        key=lambda f: (
            f.source != "xbrl",
            len(f.dimensions),
            -size[(f.table_id, f.period.key)],
            f.page,
            f.row,
        ),
    )
