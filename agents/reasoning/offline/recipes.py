"""Metric recipes: formulas over statement line items, per fiscal year `y`.

`item[y]` is the line item in year y, `item[y-1]` the prior year-end balance. Items read as
magnitudes (capex, dividends paid, D&A, COGS, interest expense) are wrapped in abs() in the
expression, so the Calculation re-executes on the values as written. Income tax is read signed
(an expense positive, a benefit negative: the effective tax rate of a loss year with a tax
benefit is positive); a caption showing the expense in parentheses is negated in the expression
(`lexicon.line_items.caption_sign`). Alternatives are tried in
order; the first one whose operands are all in the evidence is used.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Recipe", "RECIPES", "MAGNITUDE_ITEMS"]

MAGNITUDE_ITEMS = frozenset({"capex", "dividends", "da", "cogs", "interest_expense", "sga", "rd"})


@dataclass(frozen=True)
class Recipe:
    id: str
    name: str
    formulas: tuple[str, ...]
    unit: str  # USD | % | ratio | times | days


def _r(rid: str, name: str, unit: str, *formulas: str) -> Recipe:
    return Recipe(rid, name, formulas, unit)


_AVG_TA = "avg(total_assets[y], total_assets[y-1])"
_DIO = "365 * avg(inventory[y], inventory[y-1]) / cogs[y]"
_DSO = "365 * avg(receivables[y], receivables[y-1]) / revenue[y]"
_DPO = "365 * avg(payables[y], payables[y-1]) / (cogs[y] + inventory[y] - inventory[y-1])"

RECIPES: dict[str, Recipe] = {
    r.id: r
    for r in (
        _r(
            "net_margin",
            "net profit margin",
            "%",
            "net_income[y] / revenue[y] * 100",
            "net_income_attr[y] / revenue[y] * 100",
        ),
        _r("operating_margin", "operating margin", "%", "operating_income[y] / revenue[y] * 100"),
        _r(
            "gross_margin",
            "gross margin",
            "%",
            "gross_profit[y] / revenue[y] * 100",
            "(revenue[y] - cogs[y]) / revenue[y] * 100",
        ),
        _r("cogs_margin", "COGS as % of revenue", "%", "cogs[y] / revenue[y] * 100"),
        _r("da_margin", "D&A % margin", "%", "da[y] / revenue[y] * 100"),
        _r("capex_pct", "capex as % of revenue", "%", "capex[y] / revenue[y] * 100"),
        _r(
            "ebitda_margin",
            "unadjusted EBITDA margin",
            "%",
            "(operating_income[y] + da[y]) / revenue[y] * 100",
        ),
        _r("ebitda", "unadjusted EBITDA", "USD", "operating_income[y] + da[y]"),
        _r(
            "ebitda_less_capex",
            "unadjusted EBITDA less capex",
            "USD",
            "operating_income[y] + da[y] - capex[y]",
        ),
        _r("fcf", "free cash flow", "USD", "cfo[y] - capex[y]"),
        _r(
            "working_capital",
            "working capital",
            "USD",
            "current_assets[y] - current_liabilities[y]",
        ),
        _r(
            "roa",
            "return on assets",
            "ratio",
            f"net_income[y] / {_AVG_TA}",
            f"net_income_attr[y] / {_AVG_TA}",
        ),
        _r("roe", "return on equity", "ratio", "net_income[y] / avg(equity[y], equity[y-1])"),
        _r("asset_turnover", "asset turnover ratio", "ratio", f"revenue[y] / {_AVG_TA}"),
        _r(
            "fixed_asset_turnover",
            "fixed asset turnover ratio",
            "ratio",
            "revenue[y] / avg(ppe[y], ppe[y-1])",
        ),
        _r(
            "inventory_turnover",
            "inventory turnover ratio",
            "times",
            "cogs[y] / avg(inventory[y], inventory[y-1])",
        ),
        _r("dpo", "days payable outstanding", "days", _DPO),
        _r("dio", "days inventory outstanding", "days", _DIO),
        _r("dso", "days sales outstanding", "days", _DSO),
        _r("ccc", "cash conversion cycle", "days", f"{_DIO} + {_DSO} - {_DPO}"),
        _r("ocf_ratio", "operating cash flow ratio", "ratio", "cfo[y] / current_liabilities[y]"),
        _r(
            "payout",
            "dividend payout ratio",
            "ratio",
            "dividends[y] / net_income_attr[y]",
            "dividends[y] / net_income[y]",
        ),
        _r(
            "retention",
            "retention ratio",
            "ratio",
            "1 - dividends[y] / net_income_attr[y]",
            "1 - dividends[y] / net_income[y]",
        ),
        _r(
            "quick_ratio",
            "quick ratio",
            "ratio",
            "(cash[y] + short_term_investments[y] + receivables[y]) / current_liabilities[y]",
            "(cash[y] + receivables[y]) / current_liabilities[y]",
        ),
        _r("current_ratio", "current ratio", "ratio", "current_assets[y] / current_liabilities[y]"),
        _r(
            "interest_coverage",
            "interest coverage ratio",
            "times",
            "operating_income[y] / interest_expense[y]",
        ),
        _r("tax_rate", "effective tax rate", "%", "income_tax[y] / pretax_income[y] * 100"),
        _r("revenue_growth", "revenue", "USD", "revenue[y]"),
        _r("sga_margin", "SG&A as % of revenue", "%", "sga[y] / revenue[y] * 100"),
        _r("rd_margin", "R&D as % of revenue", "%", "rd[y] / revenue[y] * 100"),
    )
}

for _item, _name in (
    ("revenue", "revenue"),
    ("cogs", "cost of goods sold"),
    ("gross_profit", "gross profit"),
    ("operating_income", "operating income"),
    ("net_income", "net income"),
    ("net_income_attr", "net income attributable to shareholders"),
    ("da", "depreciation and amortization"),
    ("cfo", "cash from operations"),
    ("capex", "capital expenditure"),
    ("dividends", "cash dividends paid"),
    ("total_assets", "total assets"),
    ("current_assets", "total current assets"),
    ("current_liabilities", "total current liabilities"),
    ("total_liabilities", "total liabilities"),
    ("inventory", "inventories"),
    ("receivables", "accounts receivable"),
    ("payables", "accounts payable"),
    ("ppe", "net PP&E"),
    ("pretax_income", "income before income taxes"),
    ("interest_expense", "interest expense"),
    ("sga", "SG&A expense"),
    ("rd", "R&D expense"),
    ("equity", "total shareholders' equity"),
):
    RECIPES[_item] = _r(_item, _name, "USD", f"{_item}[y]")
RECIPES["net_income_attr"] = _r(
    "net_income_attr",
    "net income attributable to shareholders",
    "USD",
    "net_income_attr[y]",
    "net_income[y]",
)
