"""Verdicts for recurring analyst questions, read from statement line items.

Each rule recognises one question template, reads the rows it needs from the evidence (`Book`),
and answers with a leading verdict ('Yes.' / 'No.' / the choice), the figures behind it, the
cited pages and a re-executable Calculation. A rule returns None when the question is not its
template or the rows are not all there (the caller then falls back to its usual path, which
abstains on yes/no questions it cannot derive).

Rules (documented in the answer text too):
- gross-margin consistency: margin per year (up to 3 years); 'Yes' iff every year-over-year
  change is within 2 percentage points;
- debt change: current + long-term debt rows (or a 'Total debt' row) at both year ends;
- quick-ratio liquidity: 'Yes' iff the quick ratio is >= 1.0;
- financial institutions: gross margin / inventory turnover / quick ratio are not relevant when the
  income statement shows net interest income / credit-loss provisions and no cost of sales;
- capital intensity: 'Yes' when net PP&E >= 30% of total assets or capex >= 8% of revenue; below
  both thresholds no verdict is given (analysts' 'No' also weighs returns on assets, which the
  rule cannot), and the usual metric path answers;
- cash flows, dividends, restructuring, tax-rate change: see verdict_flows.py.
"""

from __future__ import annotations

import re

from finqa.agents.reasoning.confidence import confidence_signals
from finqa.agents.reasoning.offline.book import Book
from finqa.agents.reasoning.offline.question import QuestionSpec, parse_question
from finqa.agents.reasoning.offline.tables import Row
from finqa.agents.reasoning.offline.verdict_flows import (
    CF_Q,
    DIVIDENDS_Q,
    ETR_Q,
    INCOME_STMT_Q,
    RESTRUCTURING_Q,
    dividends_paid,
    largest_cash_flow,
    restructuring,
    tax_rate_change,
)
from finqa.agents.reasoning.offline.verdict_kit import (
    TEMPLATE_HASH,
    TEMPLATE_ID,
    Reader,
    money,
    statement_rows,
    verdict,
)
from finqa.agents.types import Answer, Citation, Evidence
from finqa.lexicon.arith import evaluate

__all__ = ["verdict_answer", "metric_lead", "GM_TOLERANCE_PP", "QUICK_RATIO_HEALTHY"]

GM_TOLERANCE_PP = 2.0  # 'not fluctuating more than roughly 2% each year'
QUICK_RATIO_HEALTHY = 1.0  # liquid assets cover current liabilities
PPE_SHARE_INTENSIVE = 30.0  # net PP&E as % of total assets
CAPEX_SHARE_INTENSIVE = 8.0  # capex as % of revenue
_CAPITAL_INTENSIVE = re.compile(r"capital[- ]intensive", re.I)

_GM_CONSISTENT = re.compile(
    r"gross (?:profit )?margins?\b.{0,80}\b(?:consistent|fluctuat\w*|stable|volatil\w*)", re.I
)
_NOT_RELEVANT = re.compile(r"\bnot (?:a |an )?(?:\w+ )?(?:relevant|useful|meaningful)\b", re.I)
_FI_METRIC = re.compile(r"gross (?:profit )?margins?|inventory turnover|quick ratio", re.I)
_FI_MARKERS = {
    "netinterestincome": "net interest income",
    "provisionforcreditlosses": "a provision for credit losses",
    "provisionsforcreditlosses": "provisions for credit losses",
    "financialholdingcompany": "a financial holding company",
    "bankholdingcompany": "a bank holding company",
}
_COGS_MARKERS = ("costofsales", "costofgoodssold", "costofrevenue", "costofproductssold")
_DEBT_Q = re.compile(r"\bdebt\b", re.I)
# a ratio or another debt measure is asked, not total debt
_DEBT_OTHER = re.compile(
    r"debt[- ](?:to|/)|debt ratio|net debt|leverage|coverage|rating|\bcost of debt|"
    r"interest|securit|covenant|\bper\b|%|percent",
    re.I,
)
_UP = re.compile(r"\b(?:increas\w*|grow\w*|rais\w*|higher)\b", re.I)
_DOWN = re.compile(r"\b(?:decreas\w*|reduc\w*|lower|declin\w*|paid down)\b", re.I)
_QUICK_HEALTH = re.compile(r"\b(?:health\w*|liquid\w*|adequate|sufficient|strong)\b", re.I)

# balance-sheet debt rows (normalised labels)
_LT_DEBT = re.compile(r"^(?:total)?longterm(?:debt|borrowings)")
_LT_NET = ("netofcurrent", "lesscurrent", "excludingcurrent", "noncurrent", "lessportion")
_ST_DEBT = re.compile(
    r"^(?:currentportionof(?:longterm)?(?:debt|borrowings)|currentmaturitiesof(?:longterm)?debt|"
    r"shortterm(?:debt|borrowings)|commercialpaper|debtmaturingwithinoneyear|"
    r"longterm(?:debt|borrowings)(?:due|maturing)withinoneyear|debtcurrent|"
    r"currentdebt|notespayable)"
)
_DEBT_SKIP = ("lease", "issuance", "interest", "unamortized", "relatedpart", "less")


def verdict_answer(question: str, evidence: Evidence, strategy: str) -> Answer | None:
    """A verdict answer for a recognised template, or None (not the template / rows missing)."""
    q = " ".join(question.split())
    if _FI_METRIC.search(q) and _NOT_RELEVANT.search(q):
        ans = _financial_institution(q, evidence, strategy)
        if ans is not None:
            return ans
    spec = parse_question(q)
    if _GM_CONSISTENT.search(q):
        return _gross_margin_consistency(spec, Book(evidence), strategy)
    if spec.is_yes_no and _CAPITAL_INTENSIVE.search(q) and spec.target_year:
        ans = _capital_intensive(spec, Book(evidence), strategy)
        if ans is not None:
            return ans
    debt_q = _DEBT_Q.search(q) and not _DEBT_OTHER.search(q)
    if spec.is_yes_no and debt_q and (_UP.search(q) or _DOWN.search(q)):
        return _debt_change(q, spec, Book(evidence), strategy)
    if CF_Q.search(q) and spec.target_year:
        return largest_cash_flow(spec, Book(evidence), strategy)
    if (
        spec.is_yes_no
        and DIVIDENDS_Q.search(q)
        and spec.target_year
        and not (_UP.search(q) or _DOWN.search(q) or re.search(r"per share|payout|ratio", q, re.I))
    ):
        return dividends_paid(spec, Book(evidence), strategy)
    if RESTRUCTURING_Q.search(q) and INCOME_STMT_Q.search(q) and spec.target_year:
        return restructuring(spec, Book(evidence), strategy)
    if ETR_Q.search(q) and spec.aggregate == "change" and len(spec.agg_years) == 2:
        return tax_rate_change(spec, Book(evidence), strategy)
    return None


def metric_lead(question: str, spec: QuestionSpec, recipe_id: str, value: float) -> str:
    """A leading verdict for a computed metric ('Yes. ' / 'No. '), or '' when none applies."""
    if spec.is_yes_no and recipe_id == "quick_ratio" and _QUICK_HEALTH.search(question):
        ok = value >= QUICK_RATIO_HEALTHY
        return (
            f"{'Yes' if ok else 'No'}. A quick ratio of {value:.2f} is "
            f"{'at or above' if ok else 'below'} {QUICK_RATIO_HEALTHY:.1f}, the level at which "
            "cash, short-term investments and receivables cover current liabilities. "
        )
    return ""


# ------------------------------------------------------------------ rules
def _financial_institution(q: str, evidence: Evidence, strategy: str) -> Answer | None:
    text = "".join(re.sub(r"[^a-z]", "", i.text.lower()) for i in evidence.items)
    if not any(m in text for m in _FI_MARKERS) or any(m in text for m in _COGS_MARKERS):
        return None
    metric = _FI_METRIC.search(q)
    name = re.sub(r"margins$", "margin", metric.group(0).lower()) if metric else "this metric"
    found = [phrase for m, phrase in _FI_MARKERS.items() if m in text][:2]
    item = next(
        (
            i
            for i in evidence.items
            if any(m in re.sub(r"[^a-z]", "", i.text.lower()) for m in _FI_MARKERS)
        ),
        None,
    )
    cites: tuple[Citation, ...] = ()
    ref = ""
    if item is not None:
        page = item.pages[0] if item.pages else 0
        chunk = item.chunk_ids[0] if item.chunk_ids else None
        cites = (Citation(source_id=item.source_id, doc_id=item.doc_id, page=page, chunk_id=chunk),)
        ref = f" [{item.source_id}]"
    answer = (
        f"{name[:1].upper()}{name[1:]} is not a relevant metric for this company: it is a financial "
        f"institution (the filing shows {' and '.join(found)}){ref}, whose income statement has no "
        "cost of goods sold (cost of sales) line, so there is no gross profit, inventory or quick-ratio "
        "style liquidity measure to compute; its performance is measured through net interest "
        "income, credit quality and capital ratios instead."
    )
    conf = confidence_signals(answer, cited=bool(cites), base=0.7)
    conf["mode"] = "not_relevant"
    return Answer(
        text=answer,
        citations=cites,
        strategy=strategy,
        template_id=TEMPLATE_ID,
        template_hash=TEMPLATE_HASH,
        backend="offline",
        confidence=conf,
    )


def _gross_margin_consistency(spec: QuestionSpec, book: Book, strategy: str) -> Answer | None:
    income = [r for r in statement_rows(book, "income") if r.primary]
    years = sorted({y for r in income for y in r.years}, reverse=True)
    if spec.target_year:
        years = [y for y in years if y <= spec.target_year]
    reader = Reader()
    margins: dict[int, str] = {}
    rev_row: Row | None = None
    gp_row: Row | None = None
    cogs_row: Row | None = None
    for y in years[:3]:
        rev = book.find("revenue", y, prefer=rev_row)
        if rev is None or not rev.row.primary:
            break
        rev_row = rev.row
        gp = book.find("gross_profit", y, prefer=gp_row)
        if gp is not None and gp.row.primary:
            gp_row = gp.row
            num = reader.add(f"gross_profit_fy{y}", gp.row, y)
        else:
            cogs = book.find("cogs", y, prefer=cogs_row)
            if cogs is None or not cogs.row.primary:
                break
            cogs_row = cogs.row
            num = f"({reader.add(f'revenue_fy{y}', rev.row, y)} - abs({reader.add(f'cogs_fy{y}', cogs.row, y)}))"
        den = (
            f"revenue_fy{y}"
            if f"revenue_fy{y}" in reader.values
            else reader.add(f"revenue_fy{y}", rev.row, y)
        )
        margins[y] = f"{num} / {den} * 100"
    if len(margins) < 2:
        return None
    ys = sorted(margins)
    per_year = {y: evaluate(margins[y], reader.values) for y in ys}
    diffs = [f"abs(({margins[b]}) - ({margins[a]}))" for a, b in zip(ys, ys[1:], strict=False)]
    expr = diffs[0] if len(diffs) == 1 else f"max({', '.join(diffs)})"
    calc = reader.calc(
        expr,
        "%",
        f"largest year-over-year change in gross margin, FY{ys[0]}-FY{ys[-1]} (percentage points)",
    )
    if calc is None:
        return None
    ok = calc.result <= GM_TOLERANCE_PP
    shown = ", ".join(f"FY{y}: {per_year[y]:.1f}%" for y in ys)
    text = (
        f"{'Yes' if ok else 'No'}. Gross margin was {shown} {reader.refs()}; the largest "
        f"year-over-year change is {calc.result:.1f} percentage points, "
        f"{'within' if ok else 'more than'} the ~{GM_TOLERANCE_PP:.0f}-point tolerance. "
        f"Computed by finqa as gross profit / revenue * 100 per year."
    )
    calcs = [calc]
    for y in ys:
        c = reader.calc(margins[y], "%", f"FY{y} gross margin")
        if c is not None:
            calcs.append(c)
    return verdict(text, reader, calcs, strategy, "verdict")


def _debt_rows(book: Book, y0: int, y1: int) -> list[Row] | None:
    rows = [r for r in statement_rows(book, "balance") if r.primary]
    chosen: dict[str, Row] = {}
    has_lt = False
    for r in rows:
        k = r.key
        if r.value_for(y0) is None and r.value_for(y1) is None:
            continue
        if k in chosen or any(s in k for s in _DEBT_SKIP if not k.startswith("longtermdebtless")):
            continue
        if k == "totaldebt":
            return [r]
        is_lt = (
            bool(_LT_DEBT.match(k))
            and ("current" not in k or any(n in k for n in _LT_NET))
            and "within" not in k
            and "due" not in k
        )
        if is_lt or _ST_DEBT.match(k):
            if r.value_for(y0) is None or r.value_for(y1) is None:
                return None  # one year's figure missing: no verdict
            chosen[k] = r
            has_lt = has_lt or is_lt
    if has_lt:
        return list(chosen.values())
    # no balance sheet: a 'Total debt' row from a debt table
    for r in book.rows:
        if (
            r.key == "totaldebt"
            and not r.exhibit
            and r.value_for(y0) is not None
            and r.value_for(y1) is not None
        ):
            return [r]
    return None


def _debt_change(q: str, spec: QuestionSpec, book: Book, strategy: str) -> Answer | None:
    if len(spec.years) < 2:
        return None
    y0, y1 = min(spec.years), max(spec.years)
    rows = _debt_rows(book, y0, y1)
    if not rows:
        return None
    reader = Reader()
    totals = []
    for y in (y0, y1):
        names = [reader.add(f"{r.key[:40]}_fy{y}", r, y) for r in rows]
        totals.append(" + ".join(f"abs({n})" for n in names))
    calc = reader.calc(
        f"({totals[1]}) - ({totals[0]})", "USD", f"change in total debt, FY{y0} to FY{y1}"
    )
    if calc is None or reader.scale_unknown:
        return None
    t0, t1 = evaluate(totals[0], reader.values), evaluate(totals[1], reader.values)
    change = calc.result
    up = change > 0
    asks_up = not (_DOWN.search(q) and not _UP.search(q))
    yes_no = "Yes" if up == asks_up and change != 0 else "No"
    moved = "increased" if up else "decreased" if change < 0 else "was unchanged"
    labels = " + ".join(sorted({r.label.strip()[:60] for r in rows}))
    text = (
        f"{yes_no}. Total debt ({labels}) {moved} from {money(t0, reader.scale)} at the end of "
        f"FY{y0} to {money(t1, reader.scale)} at the end of FY{y1}, a change of "
        f"{money(change, reader.scale)} {reader.refs()}. Computed by finqa as {calc.expression}."
    )
    return verdict(text, reader, [calc], strategy, "verdict")


def _capital_intensive(spec: QuestionSpec, book: Book, strategy: str) -> Answer | None:
    y = spec.target_year or 0
    reader = Reader()
    calcs = []
    shares: list[str] = []
    triggered = False
    for num_id, den_id, label, limit in (
        ("ppe", "total_assets", "net PP&E / total assets", PPE_SHARE_INTENSIVE),
        ("capex", "revenue", "capex / revenue", CAPEX_SHARE_INTENSIVE),
    ):
        num, den = book.find(num_id, y), book.find(den_id, y)
        if num is None or den is None or not den.value:
            continue
        a = reader.add(f"{num_id}_fy{y}", num.row, y)
        b = reader.add(f"{den_id}_fy{y}", den.row, y)
        calc = reader.calc(f"abs({a}) / {b} * 100", "%", f"FY{y} {label} (%)")
        if calc is None:
            continue
        calcs.append(calc)
        shares.append(f"{label} = {calc.result:.1f}% (threshold {limit:.0f}%)")
        triggered = triggered or calc.result >= limit
    if not triggered or reader.scale_unknown:
        return None
    text = (
        f"Yes. In FY{y}, {'; '.join(shares)} {reader.refs()}. Rule: a business is capital-intensive "
        f"when net PP&E is at least {PPE_SHARE_INTENSIVE:.0f}% of total assets or capital "
        f"expenditure is at least {CAPEX_SHARE_INTENSIVE:.0f}% of revenue."
    )
    return verdict(text, reader, calcs, strategy, "verdict")
