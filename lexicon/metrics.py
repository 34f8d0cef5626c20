"""Canonical financial metrics (the catalogue, `lexicon.catalogue`): synonyms, statement, line
items, formulas.

`find_metrics` recognises a metric however a question or filing says it ('top line',
'capex', 'SG&A', 'operating income % margin', 'Purchases of property, plant and
equipment'); the longest spelling wins ('fixed asset turnover' over 'asset turnover').
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from finqa.errors import FinqaError
from finqa.lexicon._data import data_cache
from finqa.lexicon.catalogue import entries
from finqa.lexicon.display import UNIT_DECIMALS, format_amount

__all__ = [
    "display_value",
    "is_diluted",
    "DEFAULT_DECIMALS",
    "Metric",
    "MetricMatch",
    "METRICS",
    "UnknownMetricError",
    "get_metric",
    "find_metrics",
    "bridging_item",
    "metric_key",
    "EXPENSE_HEAD",
]

_HELPERS = {"avg", "prev", "change"}


@dataclass(frozen=True, slots=True)
class Metric:
    """A canonical metric or line item of the catalogue. Derived metrics have a formula over
    other catalogue keys (`lexicon.formula`'s notation), where avg(x) is the average of the
    opening and closing balance, prev(x) the prior period's value and change(x) = x - prev(x);
    `convention` says which balances are used."""

    id: str
    name: str
    synonyms: tuple[str, ...]
    statement: str
    line_items: tuple[str, ...]
    formula: str | None = None
    convention: str = "ending"
    unit: str = "USD"
    # how a statement reader computes it, tried in order (the first whose operands the
    # statements hold is used): `formula` alone unless the catalogue lists `formulas`
    formulas: tuple[str, ...] = ()
    growth_of: str | None = None  # a growth rate: the growth operator over this key
    phrase: str | None = None  # how an answer names the computed figure (else name, lower case)
    unread: str | None = None  # why no statement reader computes it (it abstains instead)
    nature: str | None = None  # revenue, expense, gain, loss, asset, liability, equity, ...
    period_type: str | None = None  # instant | duration
    balance: str | None = None  # debit | credit
    concepts: tuple[str, ...] = ()  # XBRL concepts that report it
    # a segment metric: the consolidated metric its parts add up to ('segment_revenue' -> revenue)
    parts_of: str | None = None
    # a supplemental cash payment: the expense item it is the cash paid for (income taxes paid
    # for the income tax provision; `lexicon.cash_basis`)
    paid_for: str | None = None
    # a balance whose statement prints its movement over a period as a line of its own (cash:
    # the statement of cash flows' net increase (decrease)): that line is the balance's change
    # over the period where printed, the difference of two balances a second route to it
    moved_by: str | None = None
    # the statement line that takes one line to another (`bridges: [A, B]`: A - this = B, as
    # income before income taxes less income taxes is net income): it explains why they differ
    bridges: tuple[str, ...] = ()
    # display precision in answers when it differs from the unit's (finqa.lexicon.display)
    decimals: int | None = None
    # a ratio conventionally quoted as a percent (a return: ROE 0.288 is '28.8%'): the answer
    # shows the percent beside the ratio
    quoted_percent: bool = False
    # words naming an operator (growth) rather than its operand: they mean this metric only
    # when the text names no other line item ('growth in operating income' is not revenue growth)
    operator_words: tuple[str, ...] = ()

    @property
    def inputs(self) -> tuple[str, ...]:
        """Metric ids the formula uses, in order of first use."""
        if not self.formula:
            return ()
        seen: list[str] = []
        for name in re.findall(r"[a-z_][a-z0-9_]*", self.formula):
            if name not in _HELPERS and name not in seen:
                seen.append(name)
        return tuple(seen)

    @property
    def is_derived(self) -> bool:
        return self.formula is not None


@dataclass(frozen=True, slots=True)
class MetricMatch:
    canonical: str
    matched: str
    start: int
    end: int
    operator: bool = False  # matched by an operator word ('year-over-year growth')


def _convention(spec: Mapping[str, object]) -> str:
    """'ending' or 'average' (balances used), then '; ' and the file's note if it has one."""
    balances = "average" if "avg(" in str(spec.get("formula") or "") else "ending"
    note = str(spec.get("convention") or "").strip()
    if not note or note.startswith(balances):
        return note or balances
    return f"{balances}; {note}"


@data_cache()
def _load() -> dict[str, Metric]:
    out: dict[str, Metric] = {}
    for mid, spec in entries().items():
        out[mid] = Metric(
            id=mid,
            name=str(spec["name"]),
            synonyms=tuple(str(s) for s in spec.get("synonyms") or ()),
            statement=str(spec.get("statement", "other")),
            line_items=tuple(str(s) for s in spec.get("line_items") or ()),
            formula=spec.get("formula") or None,
            convention=_convention(spec),
            unit=str(spec.get("unit", "USD")),
            formulas=_formulas(spec),
            growth_of=str(spec["growth_of"]) if spec.get("growth_of") else None,
            phrase=str(spec["phrase"]) if spec.get("phrase") else None,
            unread=" ".join(str(spec["unread"]).split()) if spec.get("unread") else None,
            nature=str(spec["nature"]) if spec.get("nature") else None,
            period_type=str(spec["period"]) if spec.get("period") else None,
            balance=str(spec["balance"]) if spec.get("balance") else None,
            concepts=tuple(str(c) for c in spec.get("concepts") or ()),
            parts_of=str(spec["parts_of"]) if spec.get("parts_of") else None,
            paid_for=str(spec["paid_for"]) if spec.get("paid_for") else None,
            moved_by=str(spec["moved_by"]) if spec.get("moved_by") else None,
            bridges=tuple(str(b) for b in spec.get("bridges") or ()),
            decimals=int(spec["decimals"]) if spec.get("decimals") is not None else None,
            quoted_percent=spec.get("quoted") == "percent",
            operator_words=tuple(str(s) for s in spec.get("operator_words") or ()),
        )
    return out


def _formulas(spec: Mapping[str, Any]) -> tuple[str, ...]:
    listed = tuple(str(f) for f in spec.get("formulas") or ())
    if listed:
        return listed
    return (str(spec["formula"]),) if spec.get("formula") else ()


class _Metrics(Mapping[str, Metric]):
    """Read-only mapping id -> Metric, loaded from the data file on first use."""

    def __getitem__(self, key: str) -> Metric:
        return _load()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(_load())

    def __len__(self) -> int:
        return len(_load())

    def __repr__(self) -> str:
        return f"<METRICS: {len(self)} metrics>"


METRICS: Mapping[str, Metric] = _Metrics()


class UnknownMetricError(FinqaError, KeyError):
    """A metric id that is not in data/metrics.yaml (also a KeyError)."""

    def __str__(self) -> str:  # KeyError would quote the message
        return str(self.args[0]) if self.args else ""


def get_metric(canonical_id: str) -> Metric:
    """The metric with this id; UnknownMetricError (a KeyError) names an unknown id."""
    metrics = _load()
    if canonical_id not in metrics:
        raise UnknownMetricError(
            f"unknown metric {canonical_id!r}: see lexicon/data/metrics.yaml for the ids"
        )
    return metrics[canonical_id]


_TOKEN = re.compile(r"[A-Za-z0-9]+|&|%")


def _norm_token(tok: str) -> str:
    t = tok.lower()
    if t == "&":
        return "and"
    if t == "%":
        return "percent"
    if len(t) > 3 and t.endswith("s") and not t.endswith("ss"):
        return t[:-1]
    return t


def metric_key(text: str) -> str:
    """Normalised form used for matching: lower case, '&' -> and, '%' -> percent, singular."""
    return " ".join(_norm_token(t) for t in _TOKEN.findall(text))


_NOT_METRICS = (
    "statement of cash flows",
    "statements of cash flows",
    "cash flow statement",
    "cash flows statement",
    "statement of cash flow",
    "consolidated statements of cash flows",
    "cash flow statements",
    "income statement",
    "income statements",
    "statement of income",
    "statements of income",
    "statement of operations",
    "statements of operations",
    "statement of financial position",
    "balance sheet",
    "balance sheets",
    "p&l statement",
    "statement of comprehensive income",
    "statement of shareholders equity",
    "statement of stockholders equity",
    # deferred taxes (XBRL DeferredIncomeTaxExpenseBenefit, DeferredIncomeTaxLiabilities): a
    # concept the catalogue does not hold, whose words begin with a synonym of one it does
    # ('deferred income' is deferred revenue): no item is named rather than the nearer one
    "deferred income tax",
    "deferred income taxes",
    "deferred tax",
    "deferred taxes",
)


@data_cache()
def _phrases() -> tuple[dict[str, str], dict[str, tuple[int, ...]]]:
    """normalised phrase -> metric id (synonyms first, then multi-word line items, then
    operator words), and first word -> phrase lengths (in words) starting with it, longest first."""
    index: dict[str, str] = {}
    for m in _load().values():
        for s in (*m.synonyms, m.name, m.id.replace("_", " ")):
            index.setdefault(metric_key(s), m.id)
    for m in _load().values():
        for s in m.line_items:
            key = metric_key(s)
            if len(key.split()) >= 2:
                index.setdefault(key, m.id)
    for m in _load().values():
        for s in m.operator_words:
            index.setdefault(metric_key(s), m.id)
    index.pop("", None)
    for phrase in _NOT_METRICS:  # statement names: 'statement of cash flows' is not 'cash'
        index[metric_key(phrase)] = ""
    lengths: dict[str, set[int]] = {}
    for key in index:
        words = key.split()
        lengths.setdefault(words[0], set()).add(len(words))
    return index, {w: tuple(sorted(ns, reverse=True)) for w, ns in lengths.items()}


@data_cache()
def _operator_keys() -> frozenset[str]:
    return frozenset(metric_key(s) for m in _load().values() for s in m.operator_words)


def find_metrics(text: str) -> list[MetricMatch]:
    """Every metric mention in text, in order (longest spelling wins, no overlaps). An operator
    word ('year-over-year growth') names its default metric only when the text names no other:
    growth, like change or margin, is an operator over the line item the text names."""
    found = [m for m in _scan(text) if not _qualifier_only(m, text)]
    if any(m.operator for m in found) and any(not m.operator for m in found):
        found = [m for m in found if not m.operator]
    found = [m for m in found if not (m.operator and _names_expense(text, m))]
    return _fold_heads(found, text)


# the head noun of an expense line's caption ('Fulfillment expenses', 'Technology costs',
# 'Restructuring charges'): the words before it name which expense, a line item of its own
EXPENSE_HEAD = re.compile(r"\b(?:expenses?|costs?|charges)\b", re.I)


def _names_expense(text: str, m: MetricMatch) -> bool:
    """An operator word ('growth') whose sentence names an expense line ('fulfillment expense
    growth', 'growth in X costs') is over that line, not over its default (revenue): the
    catalogue does not know the line, so no metric is named."""
    start = max((b.end() for b in re.finditer(r"[?!;\n]|\.\s", text[: m.start])), default=0)
    end = re.search(r"[?!;\n]|\.\s", text[m.end :])
    sentence = text[start : m.end + end.start() if end else len(text)]
    return bool(EXPENSE_HEAD.search(sentence))


# a head noun that makes the item after it a qualifier: an allowance, reserve or provision for
# X is a valuation account against X (or an expense), not X ('allowance for loan losses' is not
# the loans; 'reserve for inventory obsolescence' is not the inventory)
_VALUATION_HEAD = re.compile(
    r"\b(?:allowances?|reserves?|provisions?|valuation\s+allowances?)\s+for\s+(?:the\s+)?"
    r"(?:[\w&'-]+\s+){0,3}$",
    re.I,
)
# a payment verb after a balance word: 'cash paid for income taxes', 'cash did it pay', 'cash
# received from customers' name a cash flow over a period, not the balance held at a date
_FLOW_VERB = re.compile(
    r"^\s+(?:(?:was|were|has|have|had|did|does|do|is|are|will)\s+(?:[\w'&-]+\s+){0,3}?)?"
    r"(?:paid|pays?|paying|spent|spend(?:s|ing)?|received|receiv(?:e|es|ing)|collected|"
    r"collect(?:s|ing)?|used|provided?|generated?|generating|returned|repaid|refunded)\b",
    re.I,
)


def _qualifier_only(m: MetricMatch, text: str) -> bool:
    """The mention names no item of its own: the object of a valuation head ('allowance for
    loan losses'), or a balance word a payment verb follows ('cash paid for ...')."""
    if _VALUATION_HEAD.search(text[: m.start]):
        return True
    metric = _load().get(m.canonical)
    if metric is None or metric.period_type != "instant" or m.operator:
        return False
    return bool(_FLOW_VERB.match(re.split(r"[?!;\n]|\.\s", text[m.end :], maxsplit=1)[0]))


# words that set two mentions side by side ('cash and operating cash flow', 'cash to CFO')
_COORDINATED = re.compile(
    r"\b(?:and|or|to|than|versus|vs|compared|against|plus|minus)\b|[,;/&+]", re.I
)


def _fold_heads(found: list[MetricMatch], text: str) -> list[MetricMatch]:
    """A bare word naming a balance that is the head noun of a flow matched in the same clause
    names that flow, not the balance: in 'how much net cash did X's operating activities
    provide', 'cash' is the head of 'net cash provided by operating activities' (a duration),
    not cash and cash equivalents (an instant). The word must be a word of the flow's own
    captions or stand just before the flow's mention ('cash additions to property and
    equipment'), and nothing may set the two side by side ('cash and operating cash flow')."""
    if len(found) < 2:
        return found
    metrics = _load()
    dropped: set[int] = set()
    for i, bare in enumerate(found):
        word = metric_key(bare.matched)
        head = metrics.get(bare.canonical)
        if " " in word or head is None or head.period_type != "instant":
            continue
        for other in found:
            flow = metrics.get(other.canonical)
            if other is bare or flow is None or flow.period_type != "duration":
                continue
            captions = (*flow.line_items, *flow.synonyms, flow.name)
            adjunct = bare.end <= other.start and not text[bare.end : other.start].strip()
            if not adjunct and not any(word in metric_key(c).split() for c in captions):
                # ('cash additions to property and equipment': a noun just before the flow
                # qualifies it, whatever the flow's captions say)
                continue
            if bare.end <= other.start:
                between = text[bare.end : other.start]
            else:
                between = text[other.end : bare.start]
            if re.search(r"[?!.\n]", between) or _COORDINATED.search(between):
                continue
            dropped.add(i)
            break
    return [m for i, m in enumerate(found) if i not in dropped]


def _head_ratio(
    toks: list[tuple[int, int, str]],
    i: int,
    n: int,
    mid: str,
    index: Mapping[str, str],
    lengths: Mapping[str, tuple[int, ...]],
) -> tuple[int, int, str] | None:
    """A spelling that starts inside the one matched at `i` and runs past its end, naming a
    ratio over the matched item ('adjusted ebit' + 'ebit margin' in 'Adjusted EBIT margin'):
    the compound's last noun is its head, so the text names the ratio, the words before it
    qualifying its operand. (start, tokens, id) of that spelling, or None."""
    metrics = _load()
    base = metrics.get(mid)
    own = {mid, *(base.inputs if base is not None and len(base.inputs) == 1 else ())}
    for j in range(i + 1, i + n):
        for m in lengths.get(toks[j][2], ()):
            if j + m <= i + n or j + m > len(toks):
                continue
            other = index.get(" ".join(t[2] for t in toks[j : j + m]))
            ratio = metrics.get(other) if other else None
            if ratio is not None and ratio.unit == "%" and own & set(ratio.inputs):
                return j, m, str(other)
    return None


def _scan(text: str) -> list[MetricMatch]:
    index, lengths = _phrases()
    operators = _operator_keys()
    toks = [(m.start(), m.end(), _norm_token(m.group(0))) for m in _TOKEN.finditer(text)]
    out: list[MetricMatch] = []
    i = 0
    while i < len(toks):
        for n in lengths.get(toks[i][2], ()):
            if i + n > len(toks):
                continue
            key = " ".join(t[2] for t in toks[i : i + n])
            mid = index.get(key)
            if mid is None:
                continue
            start, end = toks[i][0], toks[i + n - 1][1]
            if n > 1 and re.search(r"[?!;\n]|\.\s", text[start:end]):
                continue  # never across sentences or lines
            head = _head_ratio(toks, i, n, mid, index, lengths) if mid else None
            if head is not None:  # 'Adjusted EBIT margin': the margin of (adjusted) EBIT
                j, m, mid = head
                start, end, key = toks[j][0], toks[j + m - 1][1], " ".join(t[2] for t in toks[j : j + m])  # fmt: skip
                n = j + m - i
            if mid:
                out.append(MetricMatch(mid, text[start:end], start, end, key in operators))
            i += n
            break
        else:
            i += 1
    return out


DEFAULT_DECIMALS = UNIT_DECIMALS  # each unit's display precision (finqa.lexicon.display)


def display_value(
    value: float, unit: str, decimals: int | None = None, *, metric: str | None = None
) -> str:
    """A metric value as shown to a user, at its display precision ('16.5%', '0.83', '45.2 days',
    '$13.89 per diluted share'): `decimals` when asked, else the metric's own `decimals:` in
    metrics.yaml, else its unit's. A small ratio is never rounded away: -0.0128 at two decimals
    would read '-0.01', so it keeps two significant digits and, for a ratio, shows its percent
    form ('-0.013 (-1.3%)'). A ratio quoted as a percent (a return) is shown as the percent
    ('28.8%'); at a precision the question asks, as the ratio with its percent beside it
    ('0.29 (28.8%)')."""
    m = METRICS.get(metric) if metric else None
    if decimals is None and m is not None:
        decimals = m.decimals
    percent = m is not None and m.quoted_percent and unit == "ratio"
    if percent and decimals is None:
        return format_amount(value * 100.0, "%")  # a return as it is quoted: '28.8%'
    return format_amount(
        value, unit, decimals=decimals, diluted=is_diluted(metric), with_percent=percent
    )


def is_diluted(metric: str | None) -> bool:
    """A per-share metric on the diluted basis (its id says so: 'eps_diluted')."""
    return bool(metric) and "diluted" in str(metric)


def bridging_item(named: Iterable[str]) -> Metric | None:
    """The catalogue line that bridges two of the `named` catalogue keys (`bridges`: income taxes
    between income before income taxes and net income), or None. Consolidated net income and
    net income are one line here (a filer without noncontrolling interests prints one)."""
    same = {"net_income_consolidated": "net_income", "net_income_attributable": "net_income"}
    keys = {same.get(k, k) for k in named}
    for metric in METRICS.values():
        if len(metric.bridges) == 2 and {same.get(b, b) for b in metric.bridges} <= keys:
            return metric
    return None
