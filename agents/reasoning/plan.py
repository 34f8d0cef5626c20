"""Plan, then compute: the LLM names line items, periods and the arithmetic; finqa does the rest.

`statement_view(evidence)` is what the model is shown: the line items finqa read for the
evidence's filings, per fiscal year, with value and source id. `execute_plan` resolves each plan
item to a catalogue line item, looks its value up in the `Book` — the filing's statement model
(`StatementStore`, cited by doc and page) first, the evidence's own statement tables as the
fallback — evaluates the expression with finqa's arithmetic and writes the answer with
citations. A plan naming a line item finqa does not know, a period it cannot read, or a value
neither the statement model nor the evidence has abstains and says which. The model's own
numbers are never used.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from finqa.agents.reasoning.offline.book import Book, Fact
from finqa.agents.reasoning.offline.solver import fact_citations
from finqa.agents.reasoning.offline.verdict_kit import source_order
from finqa.agents.reasoning.schema import ReplyPlan
from finqa.agents.types import Calculation, Citation, Evidence, Operand, StatementStore
from finqa.lexicon import find_periods
from finqa.lexicon.arith import ArithmeticError_, evaluate, safe_name, variables
from finqa.lexicon.caches import data_cache
from finqa.lexicon.display import format_amount
from finqa.lexicon.line_items import LineItem, catalogue_items, item_for_metric, label_key
from finqa.lexicon.metrics import is_diluted

__all__ = ["PlanOutcome", "execute_plan", "statement_view", "resolve_item", "known_items"]

_SCALE_WORD = {1e3: "thousands", 1e6: "millions", 1e9: "billions"}


@dataclass
class PlanOutcome:
    """The computed answer of a plan, or why it could not be computed."""

    text: str
    abstained: bool
    calculation: Calculation | None = None
    citations: list[Citation] = field(default_factory=list)
    unknown_items: list[str] = field(default_factory=list)  # not in the statement model
    missing: list[str] = field(default_factory=list)  # known items absent from the evidence
    problems: list[str] = field(default_factory=list)


@data_cache()
def known_items() -> dict[str, LineItem]:
    """Every line item of the catalogue (offline items plus the lexicon's), by id."""
    return catalogue_items()


@data_cache()
def _by_label() -> dict[str, str]:
    out: dict[str, str] = {}
    for item_id, li in known_items().items():
        for key in (label_key(item_id), label_key(li.name), *li.keys()[0]):
            out.setdefault(key, item_id)
    return out


def resolve_item(name: str) -> str | None:
    """The catalogue id for a line item as the model wrote it ('Total revenue', 'cogs'), or None."""
    raw = name.strip().lower()
    ident = safe_name(raw).strip("_")
    items = known_items()
    if ident in items:
        return ident
    mapped = item_for_metric(
        ident
    )  # a catalogue key read as a line item ('ebit' -> operating_income)
    if mapped is not None and mapped in items:
        return mapped
    return _by_label().get(label_key(raw))


def _clean_item(text: str) -> tuple[str, int | None]:
    """The item as written without source markers, parentheticals and a period (and its year):
    'cfo_fy2018' -> ('cfo', 2018); 'Net income (S1 3M_2018_10K p.59)' -> ('Net income', None)."""
    text = re.sub(r"\[[^\]]*\]|\([^)]*\)", " ", text).replace("_", " ")
    year = None
    for p in sorted(find_periods(text), key=lambda p: -p.start):
        if p.fiscal_year and year is None:
            year = p.fiscal_year
        text = text[: p.start] + " " + text[p.end :]
    return " ".join(text.split()), year


def _by_value(text: str, book: Book, years: list[int]) -> tuple[str, int] | None:
    """The one (item, year) whose value in the evidence is the number the model wrote as the
    item ('5,363' copied from the line-item list); None unless exactly one matches."""
    from finqa.lexicon import parse_quantity

    q = parse_quantity(text)
    if q is None or q.value == 0:
        return None
    hits = {
        (item_id, y)
        for item_id in known_items()
        for y in years
        if (f := book.find(item_id, y)) is not None and abs(f.value) == abs(float(q.value))
    }
    return next(iter(hits)) if len(hits) == 1 else None


def _year(period: str) -> int | None:
    found = find_periods(period)
    for p in found:
        if p.fiscal_year:
            return p.fiscal_year
    return None


def statement_view(
    evidence: Evidence,
    max_items: int = 40,
    book: Book | None = None,
    *,
    statements: StatementStore | None = None,
) -> str:
    """One line per catalogue item found in the evidence: `revenue: FY2022 394,328 [S2]; ...`
    (`statements`: the statement model, read first for the evidence's filings)."""
    book = book or Book(evidence, statements)
    years = sorted({y for r in book.rows for y in r.years}, reverse=True)[:4]
    lines: list[str] = []
    for item_id in sorted(known_items()):
        cells = []
        for y in years:
            fact = book.find(item_id, y)
            if fact is not None:
                value = abs(fact.value) if fact.item.magnitude else fact.value
                cells.append(f"FY{y} {_num(value)} [{fact.row.source_id}]")
        if cells:
            lines.append(f"{item_id}: " + "; ".join(cells))
        if len(lines) >= max_items:
            break
    return "\n".join(lines)


def execute_plan(
    plan: ReplyPlan,
    evidence: Evidence,
    book: Book | None = None,
    *,
    statements: StatementStore | None = None,
) -> PlanOutcome:
    """Look up every plan item, evaluate the expression, and write the answer (or abstain).

    `statements`: the statement model, read first for the evidence's filings (then the
    evidence's own tables)."""
    book = book or Book(evidence, statements)
    if not plan.items:
        return _abstain("the plan names no line items", problems=["empty plan"])
    facts, renames, failure = _look_up(plan, book)
    if failure is not None:
        return failure
    expression = plan.expression.strip()
    for original, var in sorted(renames.items(), key=lambda kv: -len(kv[0])):
        if original and original != var:
            expression = re.sub(rf"(?<!\w){re.escape(original)}(?!\w)", var, expression)
    unit = _unit(plan.unit)
    if unit == "%" and "100" not in expression:
        expression = f"({expression}) * 100"  # a percentage asked for, a fraction written
    values, operands, scale_known = _operands(facts)
    try:
        unknown_vars = [v for v in variables(expression) if v not in values]
        if unknown_vars:
            return _abstain("the plan's expression uses unknown names: " + ", ".join(unknown_vars))
        clash = _unit_clash(expression, {o.name: o.unit for o in operands})
        if clash:
            return _abstain(f"the plan adds or subtracts figures in different units ({clash})")
        result = evaluate(expression, values)
    except ArithmeticError_ as exc:
        return _abstain(f"the plan's expression cannot be evaluated ({exc})")
    scale = operands[0].scale if operands else 1.0
    calc = Calculation(
        expression=expression,
        operands=tuple(operands),
        result=result,
        unit=unit,
        description=(plan.description or "result")[:200],
    )
    cites = fact_citations(facts.values())
    refs = "".join(f"[{s}]" for s in source_order(c.source_id for c in cites))
    shown = "; ".join(
        f"{name} = {facts[name].item.id.replace('_', ' ')} FY{facts[name].year} "
        f"{_num(values[name])} [{facts[name].row.source_id}]"
        for name in facts
    )
    note = f" (amounts in USD {_SCALE_WORD[scale]})" if scale in _SCALE_WORD else ""
    what = (plan.description or "Result").strip().rstrip(".:")
    diluted = (
        any(is_diluted(f.item.id) for f in facts.values())
        or "diluted" in (plan.description or "").lower()
    )
    value = _format(result, unit, scale, diluted=diluted)
    text = (
        f"{what[:1].upper()}{what[1:]}: {value} {refs}. Computed by finqa as {expression} "
        f"from {shown}{note}. Answer: {value}."
    )
    problems = [] if scale_known else ["scale of some operands not stated in the evidence"]
    return PlanOutcome(text, False, calc, cites, problems=problems)


def _look_up(
    plan: ReplyPlan, book: Book
) -> tuple[dict[str, Fact], dict[str, str], PlanOutcome | None]:
    """(facts by variable, plan name -> variable, an abstention when an item cannot be read)."""
    facts: dict[str, Fact] = {}
    unknown: list[str] = []
    missing: list[str] = []
    bad_periods: list[str] = []
    renames: dict[str, str] = {}
    years = sorted({y for r in book.rows for y in r.years}, reverse=True)[:4]
    for it in plan.items:
        var = safe_name(it.name or it.item)
        renames[it.name] = var
        item_id = resolve_item(it.item)
        written, item_year = _clean_item(it.item)
        if item_id is None and written:
            item_id = resolve_item(written)
        year = _year(it.period) or item_year
        if item_id is None:  # a figure copied from the list, as the item or as its name
            hit = _by_value(it.item, book, years) or _by_value(it.name, book, years)
            if hit is not None:
                item_id, year = hit
        if item_id is None:
            unknown.append(it.item)
            continue
        if year is None:
            bad_periods.append(f"{it.item} {it.period!r}")
            continue
        fact = book.find(item_id, year)
        if fact is None:
            missing.append(f"{item_id.replace('_', ' ')} FY{year}")
            continue
        facts[var] = fact
    failure = None
    if unknown:
        failure = _abstain(
            "the plan names line item(s) the statement model does not have: " + ", ".join(unknown),
            unknown=unknown,
        )
    elif bad_periods:
        failure = _abstain("the plan gives period(s) finqa cannot read: " + ", ".join(bad_periods))
    elif missing:
        where = (
            "neither the statement model of "
            + ", ".join(sorted({r.doc_id for r in book.model_rows}))
            + " nor the evidence shows "
            if book.model_rows
            else "the evidence does not show "
        )
        failure = _abstain(where + ", ".join(missing), missing=missing)
    return facts, renames, failure


def _operands(facts: dict[str, Fact]) -> tuple[dict[str, float], list[Operand], bool]:
    """Values in one common scale (the first operand's), the Operands, whether scales were known."""
    scales = [f.row.scale for f in facts.values() if f.row.scale]
    base = scales[0] if scales else 1.0
    values: dict[str, float] = {}
    operands: list[Operand] = []
    for name, fact in facts.items():
        row_scale = fact.row.scale or base
        value = fact.value if row_scale == base else fact.value * row_scale / base
        if fact.item.magnitude:
            value = abs(value)
        values[name] = value
        operands.append(
            Operand(
                name=name,
                value=value,
                unit="USD/share" if fact.row.per_share else "USD",
                scale=base,
                period=f"FY{fact.year}",
                source_id=fact.row.source_id,
                text=fact.row.line[:300],
            )
        )
    return values, operands, all(f.row.scale for f in facts.values())


def _unit_clash(expression: str, units: dict[str, str]) -> str:
    """'USD - USD/share' when a sum or difference mixes units ('' when consistent)."""
    import ast

    clash = ""

    def unit(node: ast.AST) -> str | None:
        nonlocal clash
        if isinstance(node, ast.Name):
            return units.get(node.id)
        if isinstance(node, ast.UnaryOp):
            return unit(node.operand)
        if isinstance(node, ast.BinOp):
            left, right = unit(node.left), unit(node.right)
            if isinstance(node.op, ast.Add | ast.Sub):
                if left and right and left != right and not clash:
                    clash = f"{left} and {right}"
                return left or right
            return None  # products and ratios change the unit
        if isinstance(node, ast.Call):
            args = [unit(a) for a in node.args]
            known = {a for a in args if a}
            if len(known) > 1 and not clash:
                clash = " and ".join(sorted(known))
            return next(iter(known)) if len(known) == 1 else None
        return None

    try:
        unit(ast.parse(expression, mode="eval").body)
    except SyntaxError:
        return ""
    return clash


_PER_SHARE_UNITS = frozenset({"usd/share", "$/share", "per share", "usd per share", "dollars per share", "eps"})  # fmt: skip


def _unit(unit: str) -> str:
    low = unit.strip().lower()
    if low in ("%", "percent", "percentage", "pct"):
        return "%"
    if low in ("usd", "$", "dollars", "usd millions", "usd thousands"):
        return "USD"
    if low in _PER_SHARE_UNITS:
        return "USD/share"  # a per-share amount is money, never a 'ratio'
    return low if low in ("ratio", "times", "days") else (low or "ratio")


def _format(value: float, unit: str, scale: float, *, diluted: bool = False) -> str:
    """The plan's result as a memo prints it (finqa.lexicon.display)."""
    return format_amount(value, unit, scale if unit == "USD" else 1.0, diluted=diluted)


def _num(v: float) -> str:
    return f"{v:,.2f}".rstrip("0").rstrip(".") if v != int(v) else f"{int(v):,}"


def _abstain(
    why: str,
    *,
    unknown: list[str] | None = None,
    missing: list[str] | None = None,
    problems: list[str] | None = None,
) -> PlanOutcome:
    from finqa.agents.reasoning.offline import CANNOT

    return PlanOutcome(
        text=f"I {CANNOT}: {why}.",
        abstained=True,
        unknown_items=list(unknown or []),
        missing=list(missing or []),
        problems=list(problems or [why]),
    )
