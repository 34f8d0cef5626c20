"""The statement model of the evidence pages as the judge reads it: the value of a catalogue
metric (or line item) for a fiscal year, its change between two years, and a ratio of two line
items, each with the statement lines it comes from.

An answer's figure that equals one of these, for the period the answer gives it (or the asked
period), is supported even when it comes with no calculation trail: '36.8% in FY2021' for an
operating-margin question, 'Return on assets 12.4%' in a capital-intensity verdict, 'debt fell
by $2.5bn in FY2023'. Which metrics are tried comes from the question's analysis and the words
of the answer's own sentence around the figure (through the lexicon), never from the figure.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from finqa.agents.judge import _lex
from finqa.agents.judge.route_reading import same_value
from finqa.agents.types import Evidence

__all__ = [
    "StatementValue",
    "StatementFigures",
    "from_statements",
    "change_from_statements",
    "match_statement_value",
    "units_agree",
]

_TIGHTER = 0.2  # share of the judge's relative tolerance allowed against its own derivation
_PURE = frozenset({"", "%", "ratio", "times", "x", "days"})


def units_agree(written: str, computed: str) -> bool:
    """A figure in euros is not a dollar metric; a bare or percent figure may be any pure one."""
    if written in ("", "%"):
        return True
    if written in _PURE and computed in _PURE:
        return True
    return written == computed


@dataclass(frozen=True)
class StatementValue:
    """A metric computed from the statement model of the evidence pages."""

    metric: str
    value: float  # base units for amounts; as the formula gives for ratios / percents / days
    unit: str
    year: int
    facts: tuple[str, ...]  # 'label FY2022 = value (doc p.N)' of every line used
    what: str = ""  # 'change from FY2021 in ...', 'ratio of ...' (empty: the metric itself)

    def describe(self) -> str:
        used = "; ".join(self.facts)
        name = self.what or self.metric.replace("_", " ")
        return f"{name} FY{self.year} = {self.value:,.4g} from {used}"


def _leaves(metric_id: str) -> list[str]:
    """The line items (non-derived catalogue ids) a metric's formula needs, recursively."""
    out: list[str] = []
    stack = [metric_id]
    while stack:
        mid = stack.pop()
        inputs = _lex.metric_inputs(mid)
        if not inputs and mid not in out:
            out.append(mid)
        stack.extend(i for i in inputs if i not in out)
    return out


@dataclass
class StatementFigures:
    """One statement store over the evidence pages (read on first use), and metric values in it."""

    evidence: Evidence
    _store: Any = field(default=None, init=False, repr=False)
    _read: bool = field(default=False, init=False, repr=False)
    _values: dict[tuple[str, int], StatementValue | None] = field(
        default_factory=dict, init=False, repr=False
    )

    def store(self) -> Any:
        if not self._read:
            self._read = True
            try:
                from finqa.lexicon.statements.memory import MemoryStatementStore
                from finqa.lexicon.statements.reader import read_pages

                pages: dict[str, dict[int, str]] = {}
                for item in self.evidence.items:
                    for page in item.pages[:1]:
                        pages.setdefault(item.doc_id, {})[page] = item.text
                self._store = MemoryStatementStore(
                    t for doc, texts in pages.items() for t in read_pages(doc, texts.items()).tables
                )
            except Exception:  # noqa: BLE001 - pages the reader cannot parse: no statement model
                self._store = None
        return self._store

    def value(self, metric_id: str, year: int) -> StatementValue | None:
        """The metric for fiscal `year` (catalogue formula over the lines found), else None."""
        key = (metric_id, year)
        if key not in self._values:
            self._values[key] = self._compute(metric_id, year)
        return self._values[key]

    def _compute(self, metric_id: str, year: int) -> StatementValue | None:
        store = self.store()
        if store is None:
            return None
        try:
            from finqa.agents.judge.component_routes import whole_facts
            from finqa.lexicon import evaluate_metric, get_metric

            current: dict[str, float] = {}
            previous: dict[str, float] = {}
            used: list[str] = []
            scales: set[float] = set()
            for leaf in _leaves(metric_id):
                for doc in store.docs():
                    # a line printed only as its parts under a heading naming it: their sum
                    now = store.lookup(doc, leaf, year) or whole_facts(store, doc, leaf, year)
                    if now and leaf not in current:
                        current[leaf] = now[0].value
                        if now[0].unit == "USD":
                            scales.add(float(now[0].scale))
                        used.append(
                            f"{now[0].label} FY{year} = {now[0].raw} ({doc} p.{now[0].page})"
                        )
                    before = store.lookup(doc, leaf, year - 1) or whole_facts(
                        store, doc, leaf, year - 1
                    )
                    if before and leaf not in previous:
                        previous[leaf] = before[0].value
            if len(scales) > 1:
                # lines read at different scales (one table's '(in millions)' missed): their
                # sum or ratio would be off by the scale, so nothing is computed
                return None
            value = evaluate_metric(metric_id, current, previous)
            unit = get_metric(metric_id).unit
        except Exception:  # noqa: BLE001 - no table, no line, no formula: nothing to compute
            return None
        return StatementValue(metric_id, value, unit, year, tuple(used))

    def change(self, metric_id: str, year: int) -> list[StatementValue]:
        """The metric's change from `year - 1` to `year`: the difference (in points for a
        percentage) and, for an amount, the percentage change. A balance whose statement prints
        its movement (`Metric.moved_by`: cash's net increase (decrease) on the statement of cash
        flows) changes by that printed line; the balances' difference and its percentage count
        only where they agree with it (the line holds what the balance sheet line does not:
        cash held for sale, restricted cash)."""
        printed = self.printed_change(metric_id, year)
        out = [] if printed is None else [printed]
        diff = self.balances_change(metric_id, year)
        if diff is None or (printed is not None and not same_value(printed.value, diff.value)):
            return out
        name = metric_id.replace("_", " ")
        out.append(replace(diff, what=f"change from FY{year - 1} in {name}"))
        before = self.value(metric_id, year - 1)
        if diff.unit not in _PURE and before is not None and before.value:
            pct = diff.value / abs(before.value) * 100.0
            out.append(
                StatementValue(
                    metric_id, pct, "%", year, diff.facts, f"% change from FY{year - 1} in {name}"
                )
            )
        return out

    def printed_change(self, metric_id: str, year: int) -> StatementValue | None:
        """The line the statements print for the balance's movement over `year` (None: the
        balance has none in the catalogue, or the evidence does not print it)."""
        moved = _lex.moved_by(metric_id)
        found = self.value(moved, year) if moved else None
        if found is None:
            return None
        return StatementValue(
            metric_id,
            found.value,
            found.unit,
            year,
            found.facts,
            f"change in FY{year} in {metric_id.replace('_', ' ')} as the statements print it",
        )

    def balances_change(self, metric_id: str, year: int) -> StatementValue | None:
        """The difference of the balance's two year-end figures (None: one is not read)."""
        now, before = self.value(metric_id, year), self.value(metric_id, year - 1)
        if now is None or before is None:
            return None
        return StatementValue(
            metric_id,
            now.value - before.value,
            now.unit,
            year,
            now.facts + before.facts,
            f"difference of the FY{year - 1} and FY{year} balances of "
            f"{metric_id.replace('_', ' ')}",
        )

    def ratio(self, numerator: str, denominator: str, year: int) -> StatementValue | None:
        """numerator / denominator for `year` (two line items the answer names as a ratio)."""
        a, b = self.value(numerator, year), self.value(denominator, year)
        if a is None or b is None or not b.value or a.unit != b.unit:
            return None
        return StatementValue(
            numerator,
            a.value / b.value,
            "ratio",
            year,
            a.facts + b.facts,
            f"{numerator.replace('_', ' ')} / {denominator.replace('_', ' ')}",
        )

    def match(
        self,
        q: Any,
        metrics: Sequence[str],
        years: Sequence[int],
        rel_tol: float,
        ratios: Sequence[tuple[str, str]] = (),
    ) -> StatementValue | None:
        """The first statement value `q` states: each metric, its change, each named ratio, for
        each of `years` (the periods the figure is for)."""
        for year in years:
            for metric in metrics:
                found = self.value(metric, year)
                candidates = ([found] if found else []) + self.change(metric, year)
                for cand in candidates:
                    if match_statement_value(q, cand, rel_tol):
                        return cand
            for num, den in ratios:
                quotient = self.ratio(num, den, year)
                if quotient is not None and match_statement_value(q, quotient, rel_tol):
                    return quotient
        return None


def from_statements(
    metric_id: str | None, evidence: Evidence, asked: Sequence[int]
) -> StatementValue | None:
    """The asked metric for the latest asked year, from the statement model of the evidence
    pages (finqa's statement reader, one store over all of them) and the catalogue formula."""
    if metric_id is None or not asked or not evidence.items:
        return None
    return StatementFigures(evidence).value(metric_id, max(asked))


def change_from_statements(
    metric_id: str | None, evidence: Evidence, asked: Sequence[int]
) -> StatementValue | None:
    """The asked metric's change into the latest asked year (its difference: an amount, or points
    for a percentage), from the statement model of the evidence pages."""
    if metric_id is None or not asked or not evidence.items:
        return None
    found = StatementFigures(evidence).change(metric_id, max(asked))
    return found[0] if found else None


def match_statement_value(q: Any, found: StatementValue, rel_tol: float) -> bool:
    """Does the answer's quantity `q` state the statement-model value (in any of its forms)?"""
    if not units_agree(str(q.unit or ""), found.unit):
        return False
    tol = rel_tol * _TIGHTER
    if found.unit in ("USD", "USD/share") and q.unit != "%":
        return _lex.magnitude_close(q, found.value, rel_tol=tol)
    as_written = (1.0 / float(q.scale or 1.0),)
    targets = [found.value]
    if found.unit == "%" and q.unit != "%":
        targets.append(found.value / 100.0)  # the percentage written as a fraction
    if found.unit in ("ratio", "times") and q.unit == "%":
        targets.append(found.value * 100.0)
    return any(_lex.magnitude_close(q, t, rel_tol=tol, scales=as_written) for t in targets)
