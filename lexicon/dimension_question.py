"""The dimension a question names: a segment, business unit, region, country or product line.

The general words a question uses for each kind of part ("segment", "region", "product line")
come with the axes in `data/dimension_axes.csv`; country members are named by
`data/country_codes.csv`; the filing's own vocabulary of parts is `dimension_members`'.

- `asked_dimension(question)`: what the question's own words say, without a filing ('the
  Foo segment', 'revenue in Japan'): the kind and the phrase, no member yet;
- `resolve_dimension(question, members)`: the member of the filing's vocabulary the question
  names (longest name wins), or the unresolved phrase of `asked_dimension`;
- `asked_item`, `asked_change`, `part_item`, `period_spec`: the line item, change and period
  asked of the part; `period_in(question, docs)`: the period under the calendar of the company
  the documents are filings of ('three months ended April 30, 2023' is a January filer's
  fiscal 2024 Q1, as its filings key that column).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from finqa.lexicon._dimension_names import abbreviates as _abbreviates
from finqa.lexicon._dimension_names import loose as _loose
from finqa.lexicon._dimension_names import narrower as _narrower
from finqa.lexicon.components import Enumeration, enumeration
from finqa.lexicon.dimension_members import (
    KIND_AXES,
    DimensionMember,
    bare_name,
    country_keys,
    country_names,
    is_residual,
    kind_words,
    name_key,
)
from finqa.lexicon.metrics import EXPENSE_HEAD

if TYPE_CHECKING:
    from finqa.lexicon.model import AskedDimension

__all__ = [
    "asked_dimension",
    "period_in",
    "resolve_dimension",
    "asked_item",
    "period_spec",
    "part_item",
    "asked_change",
    "asks_part_share",
    "named_brands",
]

_WORD = re.compile(r"[A-Za-z0-9][A-Za-z0-9.&'’-]*")
_MAX_WORDS = 7
# a country is named as a place figures come from: 'in / from / within / outside (the) X',
# not 'U.S. GAAP' or 'in U.S. dollars'
_PLACE_BEFORE = re.compile(r"\b(?:in|from|within|to|of)\s+(?:the\s+)?$", re.I)
# 'outside the United States', 'excluding the U.S.': the part named is the one left out
_LEFT_OUT_BEFORE = re.compile(
    r"\b(?:outside(?:\s+of)?|excluding|except(?:\s+for)?|other\s+than)\s+(?:the\s+)?$", re.I
)
_NOT_PLACE_AFTER = re.compile(
    r"^\W*(?:gaap|dollars?|currency|federal|treasury|tax|government)\b", re.I
)


def _tokens(question: str) -> list[tuple[int, int, str]]:
    out = []
    for m in _WORD.finditer(question):
        text = m.group(0)
        end = m.end()
        for tail in ("'s", "’s"):
            if text.lower().endswith(tail):
                text, end = text[: -len(tail)], end - len(tail)
        text = text.rstrip(".'’-") if not re.fullmatch(r"(?:[A-Z]\.)+", text) else text
        if text:
            out.append((m.start(), end, text))
    return out


def _place_ok(question: str, start: int, end: int) -> bool:
    return bool(_PLACE_BEFORE.search(question[:start])) and not _NOT_PLACE_AFTER.search(
        question[end:]
    )


def _short_ok(text: str, key: str) -> bool:
    """A name of two letters ('US', 'UK') counts only in capitals, one of three ('Mac') only
    capitalised: 'us' and 'mac' in running text are no part's name."""
    if len(key) > 3:
        return True
    letters = text.replace(".", "")
    return letters.isupper() if len(key) <= 2 else letters[:1].isupper()


def _axis_word(question: str) -> tuple[str, int, int] | None:
    """The kind of part a general word of the question names, and where the word is."""
    found = _axis_words(question)
    return found[0] if found else None


def _axis_words(question: str) -> list[tuple[str, int, int]]:
    """Every general word of a kind of part the question uses, in order ('What Segment EBITDA
    margin did X's Wireline segment report': the second names the part)."""
    found: dict[int, tuple[str, int, int]] = {}
    for kind, words in kind_words().items():
        for w in sorted(words, key=len, reverse=True):
            for m in re.finditer(rf"\b{re.escape(w)}\b", question, re.I):
                if m.start() not in found:
                    found[m.start()] = (kind, m.start(), m.end())
    # a kind word before another is its modifier ('business segments', 'business units'): the
    # part's name is read before the pair, by the later word
    starts = [(s, e) for _k, s, e in found.values()]
    return [
        found[k]
        for k in sorted(found)
        if not any(s >= found[k][2] and not question[found[k][2] : s].strip() for s, _e in starts)
    ]


def _company_spans(question: str) -> list[tuple[int, int]]:
    """Where the question names a company by its name, alias or ticker (a brand, such as a
    segment named after one, 'Converse', is left to be a part's name)."""
    from finqa.lexicon.entities import find_companies

    return [(c.start, c.end) for c in find_companies(question) if c.via != "brand"]


def _figure_near(question: str, start: int, end: int) -> bool:
    """A catalogue line item is named near the kind word (within 60 characters, the kind
    word's own match left out): the part qualifies a figure ('the X segment's operating
    income'), not an event ('the separation of its X business segment')."""
    from finqa.lexicon.metrics import find_metrics

    for m in find_metrics(question):
        if start <= m.start and m.end <= end:
            continue
        gap = min(abs(m.start - end), abs(start - m.end), 0 if m.start < end < m.end else 999)
        if gap <= _NEAR:
            return True
        # 'revenue from external customers of X's Optical Communications segment': one
        # clause (no comma, colon, semicolon or sentence end between) names both
        between = question[min(m.end, end) : max(m.start, start)]
        if gap <= _CLAUSE and not _CLAUSE_BREAK.search(between):
            return True
    return False


_NEAR = 60  # characters between a figure and the kind word that qualify it anywhere
_CLAUSE = 120  # ... within one clause
_CLAUSE_BREAK = re.compile(r"[,;:?!]|\.\s")


_PROPER = re.compile(r"^(?:[A-Z0-9][\w.&'’-]*|&|and|of|the|,)$")
_QUESTION_WORDS = frozenset({"what", "which", "how", "in", "for", "the", "did", "was", "is", "its"})


# a kind word referring back to a part named before it: 'the segment's net income', 'that unit'
_REFERRED = re.compile(r"\b(?:the|that|this)\s+$", re.I)


def _referred_part(question: str, kinds: list[tuple[str, int, int]]) -> AskedDimension | None:
    """The part a kind word refers back to ('... Consumer & Community Banking segment benefited
    from higher rates. What was the segment's net income?'): the part named before it by the
    same kind word, whatever that sentence says of it; None when no earlier name is found."""
    for kind, start, end in kinds:
        if not _REFERRED.search(question[max(0, start - 6) : start]):
            continue
        if not _figure_near(question, start, end):
            continue
        for earlier in kinds:
            if earlier[1] >= start or earlier[0] != kind:
                continue
            named = _part_before_kind(question, earlier, need_figure=False)
            if named is not None:
                return named
    return None


def _part_before_kind(
    question: str, found: tuple[str, int, int], need_figure: bool = True
) -> AskedDimension | None:
    """The part a proper name before a kind word names ('the Greater China segment'), or None
    (no name, a question word, the company's own name, a kind word naming no figure;
    `need_figure`: the kind word must qualify a figure, not an event)."""
    from finqa.lexicon.model import AskedDimension

    kind, start, end = found
    if need_figure and not _figure_near(question, start, end):
        return None
    words = list(_tokens(question[:start]))
    companies = _company_spans(question)
    run: list[str] = []
    for i in range(len(words) - 1, -1, -1):
        s, e, text = words[i]
        raw = question[s : e + 2]
        if not _PROPER.match(text) or text.lower() in _QUESTION_WORDS:
            break
        owned = raw[len(text) :].startswith(("'s", "\u2019s"))
        if owned and run:
            if i > 0 and _owned(question, words[i - 1]):
                # "Walmart's Sam's Club segment": after the company's possessive, a name
                # holding one of its own
                run.insert(0, question[s : e + 2])
            break  # "Apple's Greater China": the company's possessive ends the name
        run.insert(0, text)
        if owned:
            break
    while run and run[0].lower() in ("and", "of", "the", ","):
        run.pop(0)
    phrase = " ".join(run)
    if any(name_key(question[a:b]) == name_key(phrase) for a, b in companies):
        phrase = ""  # "Best Buy product category": the company is no part's name
    if phrase and (not is_residual(phrase) or kind == "segment"):
        # 'the Corporate segment': a name a breakdown's rest often takes, stated a segment
        # by the question, is still the part asked (never the company's figure)
        return AskedDimension(kind=kind, phrase=phrase)
    return None


def _owned(question: str, token: tuple[int, int, str]) -> bool:
    """The token is a name in the possessive ('Walmart's')."""
    s, e, text = token
    return question[s : e + 2][len(text) :].startswith(("'s", "\u2019s"))


def asked_dimension(question: str) -> AskedDimension | None:
    """A part the question names by its own words, without a filing's vocabulary: a proper
    name before a kind word ('the Greater China segment', "Boeing's Global Services business
    unit"), or a country as a place ('revenue from Japan'). None when it names none."""
    from finqa.lexicon.demonyms import place_adjective
    from finqa.lexicon.model import AskedDimension

    kinds = _axis_words(question)
    for found in kinds:
        named = _part_before_kind(question, found)
        if named is not None:
            return named
    referred = _referred_part(question, kinds)
    if referred is not None:
        return referred
    place_part = place_adjective(question)  # 'Canadian operations', 'European revenue'
    if place_part is not None:
        return place_part
    source = _source_named(question)
    if source is not None:
        return source
    toks = _tokens(question)
    for i in range(len(toks)):
        for j in range(min(len(toks), i + 4), i, -1):
            text = question[toks[i][0] : toks[j - 1][1]]
            key = name_key(text)
            for code, names in country_names().items():
                spelled = key in {name_key(n) for n in names} and _short_ok(text, key)
                if spelled and _place_ok(question, toks[i][0], toks[j - 1][1]):
                    return AskedDimension(
                        kind="geography",
                        phrase=text,
                        axis=KIND_AXES["geography"],
                        member=f"country:{code}",
                        label=names[0],
                    )
    return None


# '<revenue | sales> from / in <Proper Name>': the part the revenue comes from
_SOURCE = re.compile(
    r"\b(?:revenues?|net revenues?|sales|net sales)(?:\s+to\s+(?:external\s+)?customers)?"
    r"\s+(?:from|in|of)\s+(?:the\s+|its\s+)?"
    r"(?P<name>[A-Z][\w&.'’-]*(?:,?\s+(?:and\s+|of\s+|&\s+)?[A-Z][\w&.'’-]*)*)"
)


# a unit, scale or period word after 'revenue in': 'in USD millions', 'in Fiscal 2024'
_UNIT_WORD = re.compile(
    r"^(?:USD|US\$|U\.S\. dollars?|EUR|GBP|JPY|CNY|dollars?|euros?|millions?|thousands?|"
    r"billions?|percent|fiscal|FY|Q[1-4]|H[12]|quarter|year|GAAP|non-GAAP)\b",
    re.I,
)


def _source_named(question: str) -> AskedDimension | None:
    """A proper name a question says revenue comes from ('revenue from Oceania', 'sales in
    Greater China'), companies and periods left out; a country is a geography member."""
    from finqa.lexicon.model import AskedDimension
    from finqa.lexicon.periods import find_periods

    text = question
    for p in sorted(find_periods(question), key=lambda p: p.start, reverse=True):
        text = text[: p.start] + "~" * (p.end - p.start) + text[p.end :]
    m = _SOURCE.search(text)
    if m is None:
        return None
    name = m.group("name").strip(" ,")
    if _UNIT_WORD.match(name):
        return None  # 'revenues in USD millions': a unit, no part
    start = m.start("name")
    whole = any(a <= start and start + len(name) <= b for a, b in _company_spans(question))
    if not name or "~" in name or whole or is_residual(name):
        return None
    key = name_key(name)
    for code, names in country_names().items():
        if key in {name_key(n) for n in names}:
            geo = KIND_AXES["geography"]
            return AskedDimension(
                kind="geography", phrase=name, axis=geo, member=f"country:{code}", label=names[0]
            )
    return AskedDimension(kind="part", phrase=name)


# a plural noun of grouping right after a name makes the name a kind of parts ('product
# categories', 'service lines'), not one part ('the Products segment')
_GROUP_AFTER = re.compile(
    r"^\s*(?:categories|lines|groups|types|kinds|segments|units|divisions|regions|areas)\b", re.I
)


# an expense line's head noun right after a name makes the name part of the line's caption
# ('Technology and infrastructure expenses', 'Marketing costs'), not a part of the business:
# a part is named as one only when the question's own words say so ('the Fulfillment segment')
_EXPENSE_AFTER = re.compile(r"^\s*(?:'s\s+|’s\s+)?" + EXPENSE_HEAD.pattern, re.I)
# the same caption spelled with its head first ('cost of products', 'costs of the services'), or
# a name in the list of an expense's lines ('all cost of revenue lines (subscription, product,
# and services and other)'): the lines named are the operands of the figure asked (a company's
# cost of revenue), not a part of the business ('operating expenses (excluding the Cloud
# segment)' lists no lines: its part is still asked)
_EXPENSE_OF_BEFORE = re.compile(EXPENSE_HEAD.pattern + r"\s+of\s+(?:the\s+)?$", re.I)
_EXPENSE_LIST_BEFORE = re.compile(
    EXPENSE_HEAD.pattern + r"(?:\s+[\w-]+){0,3}?\s+(?:line\s+items?|lines?)\s*(?:\(|for\s+)[^()]*$",
    re.I,
)


def _expense_operand(before: str, text: str) -> bool:
    """The name at the end of `before` (spelled `text`) names an expense line the question
    counts, by its head ('cost of X') or in the list of an expense's lines ('cost lines (X,
    Y)', 'the cost lines for X, Y and Z'), not a part of the business."""
    lead = re.match(r"(?i)of\s+", text)
    if lead is not None:  # a member matched with its 'of' ('Sales of products' as 'of products')
        before = before + text[: lead.end()]
    return bool(_EXPENSE_OF_BEFORE.search(before) or _EXPENSE_LIST_BEFORE.search(before))


# the company a question's possessive names ('Activision Blizzard's King segment'): a member's
# name within it is the owner's ('Activision'), not the part asked
_OWNER = re.compile(r"(?P<owner>\b[A-Z][\w&.-]*(?:\s+[A-Z][\w&.-]*)*)(?:['’]s|(?<=s)['’])(?=\s)")


def _in_owner(question: str, owners: Sequence[tuple[int, int]], start: int, end: int) -> int:
    """1 when the span's name lies within a possessive's owner, else 0 (a rank: parts outside
    first); the span's leading small words ('of Activision') are not the name."""
    lead = re.match(r"(?:[a-z]+\s+)*", question[start:end])
    first = start + (lead.end() if lead else 0)
    return int(any(s <= first and end <= e for s, e in owners))


def _within_company(companies: Sequence[tuple[int, int]], start: int, end: int) -> bool:
    """Whether the span is a word of a longer company name the question spells ('Activision'
    within 'Activision Blizzard'): a word of the company's name, not a part of its business; a
    span spelling the whole name ('Sam's Club') stays a candidate."""
    return any(s <= start and end <= e and e - s > end - start for s, e in companies)


def _in_list(listed: Enumeration | None, start: int, end: int) -> bool:
    """Whether the span lies in the list of the components the question sums for the figure
    it asks (`lexicon.components`): an operand of the whole, never a part of the business."""
    return listed is not None and listed.start <= start and end <= listed.end


def _unowned(spoken: AskedDimension | None) -> AskedDimension | None:
    """The question's phrase for the part without the possessive's owner before it ('Alpha
    Beta's Gamma' -> 'Gamma'): the owner is the company, no word of the part's name."""
    if spoken is None or not spoken.phrase:
        return spoken
    owner = _OWNER.match(spoken.phrase)
    rest = spoken.phrase[owner.end() :] if owner else ""
    return spoken.model_copy(update={"phrase": rest.strip()}) if rest.strip() else spoken


def resolve_dimension(question: str, members: Sequence[DimensionMember]) -> AskedDimension | None:
    """The part of the business the question names, from the filing's own members: a span
    outside the possessive that names the company first, then the span the question ties to
    its kind word ('the King segment'), then the longest span of the question spelling a
    member's name (a country only as a place), the member of the kind the question's words
    name first on a tie. Without a match, what the
    question's own words name (`asked_dimension`, member None when it is not a country)."""

    members = _full_names(members)
    spoken = asked_dimension(question)
    rest = _rest_of(question)
    if rest is not None:  # 'the Americas outside the United States': the rest, not the US
        found = _by_structure(rest, members)
        if found.member is not None or found.candidates:
            return found
    index: dict[str, list[DimensionMember]] = {}
    for m in members:
        for k in m.keys:
            index.setdefault(k, []).append(m)
            index.setdefault(k + "s", []).append(m)
    toks = _tokens(question)
    owners = [(o.start(), o.end("owner")) for o in _OWNER.finditer(question)]
    # a brand that names a part of the business ('Boeing Global Services') is that part
    companies = _company_spans(question)
    listed = enumeration(question)
    best: tuple[int, int, int, int, int, DimensionMember, str] | None = None  # rank, member, text
    for i in range(len(toks)):
        for j in range(min(len(toks), i + _MAX_WORDS), i, -1):
            text = question[toks[i][0] : toks[j - 1][1]]
            key = name_key(text)
            hits = index.get(key, []) or index.get(_loose(text), [])
            hits = hits or [m for m in members if _abbreviates(text, m.name)]
            after = question[toks[j - 1][1] :]
            said = spoken is not None and name_key(spoken.phrase) == key  # 'the X segment'
            # 'product categories': a kind of part, not one part's name; 'Fulfillment
            # expenses': an expense line's caption, not a part
            generic = _GROUP_AFTER.match(after) or (
                not said
                and (_EXPENSE_AFTER.match(after) or _expense_operand(question[: toks[i][0]], text))
            )
            # 'Activision Blizzard earned': a word of the company's name, not its Activision
            generic = generic or _within_company(companies, toks[i][0], toks[j - 1][1])
            # 'total cost of revenue (product plus service and other)': a line the question
            # counts in the whole it asks, not a part of the business
            generic = generic or _in_list(listed, toks[i][0], toks[j - 1][1])
            for m in hits:
                if not _short_ok(text, key) or generic:
                    continue
                if _LEFT_OUT_BEFORE.search(question[: toks[i][0]]):
                    continue  # the part the question leaves out is not the one it asks
                if m.caption and not (spoken and name_key(spoken.phrase) == key):
                    continue  # 'sales' is the company's unless the question names the part
                if m.member.startswith("country:") and not _place_ok(
                    question, toks[i][0], toks[j - 1][1]
                ):
                    continue
                rank = (
                    _in_owner(question, owners, toks[i][0], toks[j - 1][1]),
                    0 if said else 1,
                    -len(key),
                    0 if spoken and spoken.kind == m.kind else 1,
                    i,
                )
                if best is None or rank < best[:5]:
                    best = (*rank, m, text)
    if best is not None and not _narrower(best[6], _unowned(spoken)):
        return _chosen(question, best[5], best[6])
    if spoken is not None and spoken.member is None and spoken.phrase:
        return _by_structure(spoken, members)
    return rest or spoken or _left_out(question) or _in_runs(question, members)


def _chosen(question: str, m: DimensionMember, text: str) -> AskedDimension:
    """The member the question's words `text` match, unless the question names a part within
    it ('Platform and Other subscription and support revenue': no member is that part)."""
    from finqa.lexicon.model import AskedDimension

    named = _named_before(question, text, m.name)
    if named is not None:
        return AskedDimension(kind=m.kind, phrase=f"{named} {text}", axis=m.axis)
    return AskedDimension(kind=m.kind, phrase=text, axis=m.axis, member=m.member, label=m.name)


def _named_before(question: str, text: str, name: str) -> str | None:
    """A run of capitalised words written right before a member's matched words that is no
    part of the member's name ('Platform and Other' before 'subscription and support'): the
    question then names a narrower part than the member; None otherwise."""
    from finqa.lexicon._name_structure import proper_runs

    at = question.find(text)
    if at <= 0:
        return None
    before = question[:at].rstrip()
    own = set(name_key(name).split())
    for run in proper_runs(question):
        if before.endswith(run) and not set(name_key(run).split()) <= own:
            return run
    return None


def _in_runs(question: str, members: Sequence[DimensionMember]) -> AskedDimension | None:
    """A part named in the question's own capitalised words without a kind word ('How much
    revenue did Sales Cloud bring in'): only a run that meets exactly one member by the names'
    structure; a run meeting none leaves the question about no part."""
    from finqa.lexicon._name_structure import proper_runs
    from finqa.lexicon.model import AskedDimension

    spelled = {k for m in members for k in m.keys}  # a name spelled out is the scan's to read
    found = [
        asked
        for run in proper_runs(question)
        if name_key(run) not in spelled and _loose(run) not in spelled
        if (asked := _by_structure(AskedDimension(kind="part", phrase=run), members)).member
        or asked.candidates
    ]
    return found[0] if len(found) == 1 else None


def _left_out(question: str) -> AskedDimension | None:
    """'revenue outside the U.S.': a part the question names by the country it leaves out,
    unresolved (no member: the country's own figure is not the answer)."""
    from finqa.lexicon.model import AskedDimension

    toks = _tokens(question)
    for i, (s, _, _) in enumerate(toks):
        before = _LEFT_OUT_BEFORE.search(question[:s])
        if before is None:
            continue
        for j in range(min(len(toks), i + 3), i, -1):
            text = question[s : toks[j - 1][1]]
            after = question[toks[j - 1][1] :]
            place = not _NOT_PLACE_AFTER.search(after)
            if place and name_key(text) in country_keys() and _short_ok(text, name_key(text)):
                return AskedDimension(
                    kind="geography", phrase=question[before.start() : toks[j - 1][1]]
                )
    return None


# 'the Americas outside the United States', 'Europe excluding the UK': a whole less a part
_REST_OF = re.compile(
    r"\b(?P<x>(?:[A-Z][\w.&'’-]*\s+){0,3}?[A-Z][\w.&'’-]*),?\s+(?:excluding|outside(?:\s+of)?|"
    r"except(?:\s+for)?|other\s+than)\s+(?:the\s+)?(?P<y>[A-Z][\w.]*(?:\s+[A-Z][\w.]*){0,2})"
)


def _rest_of(question: str) -> AskedDimension | None:
    """A part the question names as a whole less another part ('the Americas outside the
    United States'); a period less a part ('FY22, excluding Embedded') is none."""
    from finqa.lexicon.model import AskedDimension
    from finqa.lexicon.periods import find_periods

    text = question
    for p in sorted(find_periods(question), key=lambda p: p.start, reverse=True):
        text = text[: p.start] + "~" * (p.end - p.start) + text[p.end :]  # 'FY22, excluding'
    m = _REST_OF.search(text)
    if m is None or "~" in m.group(0) or not name_key(_unsaid_company(m.group("x"))):
        return None
    x = _unsaid_company(m.group("x"))
    return AskedDimension(kind="part", phrase=f"{x} excluding {m.group('y')}")


def _by_structure(spoken: AskedDimension, members: Sequence[DimensionMember]) -> AskedDimension:
    """The one member whose printed name meets the question's own name of a part by the
    names' structure (`_name_structure`); two or more: the question's part, unresolved, with
    the printed names it could be; none: the question's part as it said it."""
    from finqa.lexicon._name_structure import structural_matches

    phrase = name_key(_unsaid_company(spoken.phrase)) and _unsaid_company(spoken.phrase)
    found = structural_matches(phrase, members, bare_name, country_keys())
    if len(found) == 1:
        m = found[0]
        return spoken.model_copy(
            update={"kind": m.kind, "axis": m.axis, "member": m.member, "label": m.name}
        )
    if len(found) > 1:
        return spoken.model_copy(update={"candidates": tuple(m.name for m in found)})
    return spoken


def _full_names(members: Sequence[DimensionMember]) -> list[DimensionMember]:
    """The members without those naming a part twice: a one-word abbreviation another table
    prints for a member of the same kind ('MFC' for 'Missiles and Fire Control') is that part,
    read by its full name; the abbreviation in a question still meets it."""
    return [
        m
        for m in members
        if not (
            len(m.name.split()) == 1
            and any(
                o.kind == m.kind and len(o.name.split()) > 1 and _abbreviates(m.name, o.name)
                for o in members
            )
        )
    ]


def _unsaid_company(phrase: str) -> str:
    """The phrase without a company's name in it ('Salesforce Platform and Other')."""
    for a, b in sorted(_company_spans(phrase), reverse=True):
        phrase = phrase[:a] + " " + phrase[b:]
    return " ".join(phrase.split())


def asked_item(question: str, dimension: AskedDimension | None = None) -> str | None:
    """The catalogue line item the question asks for a part of, read outside the part's own
    name ('Finished Product Operations' names no line item); None when it names none."""
    from finqa.lexicon.answer_form import ask_head, asks_profitable
    from finqa.lexicon.metrics import find_metrics, get_metric

    # the ask first: a premise's line ('X's segment grew EBIT 18% in 2015. What share of its
    # revenues ...') is context, not what is asked of the part. The ask is read before the
    # part's name is taken out ('North America is its largest segment by revenue. By what
    # percentage did its EBIT change?': without the name the first sentence has no start)
    head = ask_head(question)
    if dimension is not None and dimension.phrase:
        question = question.replace(dimension.phrase, " ")
        head = head.replace(dimension.phrase, " ")
    if asks_profitable(question):
        return profit_level(question)
    for text in dict.fromkeys((head, question)):
        for m in find_metrics(text):
            metric = get_metric(m.canonical)
            if metric is not None:
                item = part_item(metric.id)
                if _MARGIN_AFTER.match(text[m.end :]):  # 'segment operating profit margin'
                    return _margin_of(item)  # a margin the catalogue lacks: none (never the amount)
                return item
    return None


# the level a profit is asked at ('at the operating income level', 'at the gross-profit level',
# 'on a pre-tax basis', 'at the operating level')
_LEVEL = re.compile(
    r"\b(?:at|on)\s+(?:the|an?)\s+(?P<level>[a-z-]+(?:\s+[a-z-]+){0,3}?)\s+(?:level|basis)\b",
    re.I,
)


def profit_level(question: str) -> str | None:
    """The catalogue line whose sign says whether a part was profitable: the line of the level
    the question names, read whole ('at the gross profit level': gross profit; 'at the
    operating level': operating income; 'on a pre-tax basis': pretax income), else operating
    income, the result a segment's figures report; None for a level the catalogue does not
    name as a whole ('at the contribution-profit level': never net income)."""
    from finqa.lexicon.metrics import find_metrics, get_metric

    m = _LEVEL.search(question)
    if m is None:
        return "operating_income"
    words = " ".join(m.group("level").replace("-", " ").split())
    words = re.sub(r"^segment\s+", "", words, flags=re.I)
    for text in (words, f"{words} income", f"{words} profit"):
        found = [f for f in find_metrics(text) if f.start == 0 and f.end == len(text)]
        if found and (metric := get_metric(found[0].canonical)) is not None:
            return part_item(metric.id)
    return None


_MARGIN_AFTER = re.compile(r"\s*margins?\b", re.I)


def _margin_of(item: str) -> str | None:
    """The catalogue's margin over an amount: the derived metric whose formula is the amount
    over revenue in percent (operating income -> operating margin); None when it has none."""
    from finqa.lexicon.metrics import METRICS

    want = f"{item} / revenue * 100"
    return next((m.id for m in METRICS.values() if m.is_derived and m.formula == want), None)


def asked_change(question: str) -> str | None:
    """'growth' or 'change' when the question asks how a figure moved over the year before
    ('by how much did X decline' too: `intent.asks_change_amount`); a change asked as a rate
    alone ('by what percentage did X change') is its growth; None
    for one period's figure (a CAGR or a multi-year average is not read here)."""
    from finqa.lexicon.answer_form import asked_aggregates, change_form
    from finqa.lexicon.intent import asks_change_amount

    found = asked_aggregates(question, question)
    if found and found[0] == "change" and change_form(question) == "percent":
        return "growth"
    if found and found[0] in ("growth", "change"):
        return found[0]
    # 'by how much did the segment's operating profit decline': the amount it moved by
    return "change" if asks_change_amount(question) else None


def part_item(item: str) -> str:
    """The line item a part's figure is read as: a segment's revenue ('segment revenue') is
    the part's revenue, its segment operating income the part's operating income."""
    from finqa.lexicon.metrics import get_metric

    metric = get_metric(item)
    if metric is None or metric.statement != "segment" or metric.is_derived:
        return item
    if "revenue" in item:
        return "revenue"
    return "operating_income" if item == "segment_operating_income" else item


def period_in(question: str, doc_ids: Sequence[str]) -> str | int | None:
    """`period_spec` under the fiscal calendar of the one company `doc_ids` are filings of (a
    period stated by its end date is that company's fiscal quarter or year-to-date), the
    calendar reading when the documents are no known company's or several companies'."""
    from finqa.lexicon.entities import company_for_doc

    names = {c.name if c else None for c in map(company_for_doc, dict.fromkeys(doc_ids))}
    company = next(iter(names)) if len(names) == 1 else None
    return period_spec(question, company)


def period_spec(question: str, company: str | None = None) -> str | int | None:
    """The statement-model period the question asks for: 2024 (a fiscal year), '2025Q3',
    '2025M9' (nine months to date), 'FY2024@end' / '2025Q2@end' (a balance); None: not said."""
    from finqa.lexicon.asked_period import asked_periods

    asked = asked_periods(question, company) or ()
    if not asked:
        return None
    chosen = max(asked, key=lambda a: a.fiscal_year)  # the latest year named
    if chosen.annual:
        return chosen.fiscal_year
    if chosen.instant:
        return f"{chosen.fiscal_year}Q{chosen.quarter}@end" if chosen.quarter else None
    if chosen.months == 3 and chosen.quarter:
        return f"{chosen.fiscal_year}Q{chosen.quarter}"
    if chosen.months in (6, 9):
        return f"{chosen.fiscal_year}M{chosen.months}"
    return None


# 'what percentage / share / portion of <the company's line> came from <a part>': a part's share
# of the whole; '<one line> as a percentage of <another>' is a ratio of two lines, not this
_PART_SHARE = re.compile(
    r"\b(?:what|which)\s+(?:%|percent(?:age)?|share|portion|proportion|fraction)\s+of\b", re.I
)


# where a part's share names the part it asks about: after 'came from', 'generated by' ...
_SHARE_SOURCE = re.compile(
    r"\b(?:(?:came|come|comes|coming)\s+from|from|generated\s+by|contributed\s+by|"
    r"attributable\s+to|accounted\s+for\s+by)\b",
    re.I,
)


def share_base(question: str) -> str:
    """The words of the whole a part's share is asked of ('of Acme's fiscal 2022 net sales' in
    'What percentage of Acme's fiscal 2022 net sales came from its South segment?'): between
    the share word and the words naming the part; '' when the question asks no share."""
    m = _PART_SHARE.search(question)
    if m is None:
        return ""
    source = _SHARE_SOURCE.search(question, m.end())
    return question[m.end() : source.start() if source else len(question)]


# words of a share's whole that name no measure: the company's total
_TOTAL_WORDS = frozenset(
    [
        "the",
        "its",
        "their",
        "all",
        "total",
        "company",
        "company's",
        "consolidated",
        "overall",
        "whole",
        "fiscal",
        "year",
        "of",
    ]
)


def revenue_share(base: str) -> bool:
    """A share's whole (`share_base`) is the company's revenue: it names revenue or sales, or
    no measure at all ('the company total', ''); a whole naming another measure ('all U.S.
    retail pharmacy prescriptions') is not."""
    from finqa.lexicon.metrics import find_metrics

    found = {m.canonical for m in find_metrics(base)}
    if found:
        return "revenue" in found
    words = [
        w for w in re.findall(r"[A-Za-z'’]+", base.split("?")[0]) if w.lower() not in _TOTAL_WORDS
    ]
    # the words after the whole that only say who ('did the company dispense') are the part's
    # frame, not the whole: a whole is its words before a verb
    whole = []
    for w in words:
        if w.lower() in ("did", "does", "do", "was", "were", "is", "are", "came", "come", "comes"):
            break
        whole.append(w)
    return not [w for w in whole if not w[:1].isupper()]


# an amount a part brought in, asked of a whole it comes from ('how much Domestic revenue
# came from Computing'): the source verb, with what the question says before it
_CAME_FROM = re.compile(
    r"\b(?:came|come|comes|coming|derived|generated|contributed)\s+(?:from|by)\b", re.I
)


def part_is_whole(question: str, phrase: str) -> bool:
    """The part read is the qualifier of the whole the asked amount comes from, not the part it
    comes from ('how much Domestic revenue came from Computing and Mobile Phones': Domestic is
    the whole, the amount asked is a part of it): the phrase is before the source verb and
    not after it."""
    m = _CAME_FROM.search(question)
    if m is None or not phrase:
        return False
    before, after = question[: m.start()].lower(), question[m.end() :].lower()
    return phrase.lower() in before and phrase.lower() not in after


def asks_part_share(question: str) -> bool:
    """The question asks what share of the company's figure a part makes up ('What
    percentage of Acme's net sales came from its South segment?'); a ratio of two lines
    ('benefit costs as a percentage of premium revenues') is not a part's share."""
    return bool(_PART_SHARE.search(question))


def named_brands(question: str) -> tuple[tuple[str, ...], ...]:
    """The spellings of the brands, businesses or subsidiaries of a company that the question
    names, when an asking sentence names one ('How much operating loss did Sikorsky contribute
    to Lockheed's operating profit?', 'What operating margin did Boeing Global Services
    earn?'): a part of the business, never the company, so a figure for it names it. Each
    spelling is given twice, as written ('amazon web service') and without the words of the
    company's own name ('web service'); the gazetteer (`companies.csv`) lists the brands."""
    from finqa.lexicon.entities import find_companies, lookup_company
    from finqa.lexicon.metrics import metric_key
    from finqa.lexicon.prose import question_sentences

    asked = [s for s in question_sentences(question) if "?" in s] or [question]
    owned = _subsidiary_names(asked) + _defined_parts(question, asked)
    if not owned and not any(c.via == "brand" for s in asked for c in find_companies(s)):
        return ()
    out: list[tuple[str, ...]] = list(owned)
    for c in find_companies(question):
        if c.via != "brand":
            continue
        company = lookup_company(c.name)
        own = {
            w
            for n in (c.name, *(company.aliases if company else ()))
            for w in metric_key(n).split()
        }
        whole = tuple(metric_key(c.matched).split())
        for words in (whole, tuple(w for w in whole if w not in own)):
            if words and words not in out:
                out.append(words)
    return tuple(out)


# a company's name followed by more capitalised words and a possessive ("MGM China's net
# revenues", "Walmart International's operating income"): a business of the company named
# after it; legal suffixes ('Inc.', 'Corporation': `entities.LEGAL_SUFFIXES`) are the company's
# own name
_NAMED_AFTER = re.compile(r"^\s+((?:[A-Z][\w&.\-]*\s+){0,2}[A-Z][\w&.\-]*?)['\u2019]s?\b")
# a group's own words after its name ('Holdings', 'Group') are no business of it either
_GROUP_WORDS = frozenset({"group", "holdings"})


# a business named after the company and given a short name in the question ('PepsiCo
# Beverages North America (PBNA) grew ...'): the name and its initials
_DEFINED = re.compile(
    r"^\s+((?:[A-Z][\w&.\-]*\s+){0,3}[A-Z][\w&.\-]*)\s*\((?P<short>[A-Z][A-Za-z&]{1,7})\)"
)


def _after_company(
    text: str, pattern: re.Pattern[str]
) -> list[tuple[Any, re.Match[str], list[str]]]:
    """(company match, pattern match, extra words) for each company the text names (not by a
    brand) followed by capitalised words `pattern` reads, a legal suffix or group word
    ('Inc.', 'Holdings') among them being the company's own name, not a business of it."""
    from finqa.lexicon.entities import LEGAL_SUFFIXES, find_companies

    out: list[tuple[Any, re.Match[str], list[str]]] = []
    for c in find_companies(text):
        if c.via == "brand":
            continue
        m = pattern.match(text[c.end :])
        if m is None:
            continue
        extra = m.group(1).split()
        if not any(w.lower().replace(".", "") in LEGAL_SUFFIXES | _GROUP_WORDS for w in extra):
            out.append((c, m, extra))
    return out


def _defined_parts(question: str, asked: Sequence[str]) -> list[tuple[str, ...]]:
    """The spellings of a business the question names after the company with a short name in
    parentheses, when an asking sentence uses that short name ('... (PBNA) grew its net
    revenue. By what percentage did PBNA's operating profit change?'): the short name, the
    extra words and the whole name."""
    from finqa.lexicon.metrics import metric_key

    out: list[tuple[str, ...]] = []
    for c, m, extra in _after_company(question, _DEFINED):
        short = m.group("short")
        if not any(re.search(rf"\b{re.escape(short)}\b", s) for s in asked):
            continue
        for spelled in (
            (short.lower(),),
            tuple(metric_key(" ".join(extra)).split()),
            tuple(metric_key(f"{c.matched} {' '.join(extra)}").split()),
        ):
            if spelled and spelled not in out:
                out.append(spelled)
    return out


def _subsidiary_names(sentences: Sequence[str]) -> list[tuple[str, ...]]:
    """The spellings of businesses named after the company (the extra words, and the whole
    name) in the asking sentences."""
    from finqa.lexicon.metrics import metric_key

    out: list[tuple[str, ...]] = []
    for sentence in sentences:
        for c, _m, extra in _after_company(sentence, _NAMED_AFTER):
            words = tuple(metric_key(" ".join(extra)).split())
            whole = tuple(metric_key(f"{c.matched} {' '.join(extra)}").split())
            for spelled in (whole, words):
                if spelled and spelled not in out:
                    out.append(spelled)
    return out
