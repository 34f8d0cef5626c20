"""Dimensions a question names: a segment, business unit, region, country or product line.

A dimension is a part of the business a figure is about, as XBRL tags it: an axis (what
kind of part: `us-gaap:StatementBusinessSegmentsAxis`, `srt:StatementGeographicalAxis`,
`srt:ProductOrServiceAxis`, or a company's own axis named like one) and a member (which
part: `aapl:GreaterChinaSegmentMember`, `country:JP`). The vocabulary is the filing's own:
the members of its part axes, read from its dimensional facts (the tags, or the rows a
segment note's table names), never a list of one company's segments. The general words a
question uses for each kind of part ("segment", "region", "product line") come with the
axes in `data/dimension_axes.csv`; country members are named by `data/country_codes.csv`.

- `asked_dimension(question)`: what the question's own words say, without a filing ('the
  Foo segment', 'revenue in Japan'): the kind and the phrase, no member yet;
- `resolve_dimension(question, members)`: the member of the filing's vocabulary the question
  names (longest name wins), or the unresolved phrase of `asked_dimension`;
- `fact_dimension(fact)`: the one part a fact is about (its figure for that part as a whole),
  None for a consolidated fact or one qualified by another axis (a segment's eliminations);
- `dimensional_facts(store, docs, item, dimension, period)`: the lookup of a line item's
  figure for one part, through the `StatementStore` seam.

Two concepts, one module each: reading dimensional facts (`dimension_members`) and reading the
question's dimension (`dimension_question`); this module names both.
"""

from __future__ import annotations

from finqa.lexicon.dimension_members import (
    KIND_AXES,
    DimensionMember,
    axis_kind,
    dimensional_facts,
    fact_dimension,
    is_residual,
    kind_words,
    member_name,
    members_in,
    members_of,
)
from finqa.lexicon.dimension_question import (
    asked_change,
    asked_dimension,
    asked_item,
    part_item,
    period_in,
    period_spec,
    resolve_dimension,
)

__all__ = [
    "DimensionMember",
    "axis_kind",
    "kind_words",
    "member_name",
    "is_residual",
    "fact_dimension",
    "members_of",
    "members_in",
    "asked_dimension",
    "resolve_dimension",
    "dimensional_facts",
    "asked_item",
    "period_spec",
    "period_in",
    "part_item",
    "asked_change",
    "KIND_AXES",
]
