"""What a metric question asks: metric recipe, fiscal years, aggregation, unit and rounding."""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["QuestionSpec", "parse_question", "RECIPE_PATTERNS"]

# (recipe id, pattern) — most specific first; the first match wins.
RECIPE_PATTERNS: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (rid, re.compile(p, re.IGNORECASE))
    for rid, p in (
        ("ccc", r"cash conversion cycle|\bccc\b"),
        ("dpo", r"days payables? outstanding|\bdpo\b"),
        ("dio", r"days inventory outstanding|\bdio\b|days sales of inventory|days in inventory"),
        ("dso", r"days sales outstanding|\bdso\b"),
        ("inventory_turnover", r"inventory turnover|times .{0,40}sold its inventory"),
        ("fixed_asset_turnover", r"fixed asset turnover"),
        ("asset_turnover", r"asset turnover"),
        ("roa", r"return on (?:total )?assets|\broa\b"),
        ("roe", r"return on (?:shareholders'? |stockholders'? )?equity|\broe\b"),
        ("ocf_ratio", r"operating cash flow ratio"),
        ("payout", r"(?:dividend )?payout ratio"),
        ("retention", r"retention ratio"),
        ("quick_ratio", r"quick ratio"),
        ("current_ratio", r"current ratio|working capital ratio"),
        ("working_capital", r"working capital"),
        ("interest_coverage", r"interest coverage"),
        ("tax_rate", r"effective (?:income )?tax rate"),
        (
            "ebitda_less_capex",
            r"ebitda (?:less|minus) capex|ebitda (?:less|minus) capital expenditure",
        ),
        ("ebitda_margin", r"ebitda\W{0,3}(?:%\s*)?margin"),
        ("ebitda", r"\bebitda\b"),
        ("fcf", r"free cash flow|\bfcf\b"),
        (
            "capex_pct",
            r"(?:capex|capital expenditures?) as a (?:%|percent(?:age)?) of (?:total )?revenue",
        ),
        ("da_margin", r"(?:depreciation and amortization|d&a)\b.{0,60}%?\s*margin"),
        (
            "cogs_margin",
            r"(?:cogs|cost of goods sold|cost of sales)\W{0,3}(?:%\s*)?margin|(?:cogs|cost of goods sold|cost of sales) as a (?:%|percent(?:age)?) of (?:total )?(?:revenue|sales)",
        ),
        ("gross_margin", r"gross (?:profit )?(?:%\s*)?margin"),
        ("operating_margin", r"operating (?:income |profit )?(?:%\s*)?margin"),
        ("net_margin", r"net (?:profit|income) (?:%\s*)?margin|net margin|\bprofit margin"),
        (
            "revenue_growth",
            r"(?:revenue|sales|top line) (?:growth|cagr)|growth (?:rate )?(?:in|of) (?:total )?(?:revenue|net sales|sales)|\bcagr\b|compound annual growth",
        ),
        (
            "sga_margin",
            r"(?:sg&a|selling, general and administrative)\W{0,3}(?:%\s*)?(?:margin|as a (?:%|percent(?:age)?) of)",
        ),
        (
            "rd_margin",
            r"(?:r&d|research and development)\W{0,3}(?:%\s*)?(?:margin|as a (?:%|percent(?:age)?) of)",
        ),
        ("capex", r"capital expenditures?\b|\bcapex\b|capital spending"),
        (
            "cfo",
            r"cash (?:flow )?(?:from|provided by|generated (?:from|by)) operat|operating cash flow|cash from operations",
        ),
        (
            "dividends",
            r"(?:cash )?dividends paid|total (?:cash )?dividends|pa(?:y|id|ying) (?:out )?(?:in )?(?:cash )?dividends|dividend payments",
        ),
        (
            "net_income_attr",
            r"net (?:income|earnings) attributable to (?:the )?(?:shareholders|stockholders|common|parent)",
        ),
        ("net_income", r"\bnet (?:income|earnings|profit)\b"),
        ("current_liabilities", r"total current liabilities"),
        ("current_assets", r"total current assets"),
        ("total_liabilities", r"total liabilities"),
        ("total_assets", r"total assets"),
        ("payables", r"accounts payable"),
        ("receivables", r"accounts receivable"),
        ("inventory", r"\binventor(?:y|ies)\b"),
        ("ppe", r"pp&e|\bppne\b|\bppe\b|property,? plant,? and equipment|property and equipment"),
        ("cogs", r"\bcogs\b|cost of goods sold|cost of sales|cost of revenues?"),
        ("gross_profit", r"gross profit"),
        ("operating_income", r"operating (?:income|profit)"),
        ("da", r"depreciation and amortization|\bd&a\b"),
        ("sga", r"\bsg&a\b|selling, general and administrative"),
        ("rd", r"\br&d\b|research and development"),
        ("pretax_income", r"(?:income|earnings) before (?:income )?tax"),
        ("interest_expense", r"interest expense"),
        ("revenue", r"\brevenues?\b|\bnet sales\b|\btotal sales\b|\btop line\b"),
    )
)

_FY = re.compile(
    r"\bFY\s?'?(\d{4}|\d{2})\b|\bfiscal(?:\s+year)?\s+(\d{4})\b|\b((?:19|20)\d{2})\b", re.I
)
_RANGE = re.compile(
    r"\bFY\s?(\d{4})\s*(?:-|–|to|through)\s*FY\s?(\d{4})\b|\bfrom\s+FY\s?(\d{4})\s+to\s+FY\s?(\d{4})\b",
    re.I,
)
_DEFINITION = re.compile(
    r"\b(?:is|are) defined as\b|\bdefined as\b|\bdefine [\w\s&()-]{0,60} as\b|\bcalculate [\w\s&()-]{0,60} using\b",
    re.I,
)
_PCT_OF_REV = re.compile(
    r"as an? (?:%|percent(?:age)?) of (?:total |net )*(?:revenues?|sales)|\W%\s*margin\b|\bmargin\b|"
    r"(?:%|percent(?:age)?) of (?:total |net )*(?:revenues?|sales)",
    re.I,
)
_DECIMALS = {"one": 1, "two": 2, "three": 3, "zero": 0, "no": 0, "1": 1, "2": 2, "3": 3, "0": 0}


@dataclass(frozen=True)
class QuestionSpec:
    recipe: str | None
    years: tuple[int, ...]  # every fiscal year the question names, ascending
    target_year: int | None
    aggregate: str  # "single" | "avg3" | "change" | "growth"
    agg_years: tuple[int, ...]
    scale: float | None  # requested scale for amounts (1e6 for "USD millions")
    percent: bool  # asks for percents
    decimals: int | None
    is_yes_no: bool
    wants_positive: bool  # "positive working capital?"


def _years(question: str) -> list[int]:
    years: list[int] = []
    for m in _FY.finditer(question):
        raw = m.group(1) or m.group(2) or m.group(3)
        y = int(raw)
        if y < 100:
            y += 2000
        if 1990 <= y <= 2039:
            years.append(y)
    return years


def _first_recipe(text: str) -> tuple[str | None, tuple[int, int]]:
    for rid, pat in RECIPE_PATTERNS:
        m = pat.search(text)
        if m:
            return rid, m.span()
    return None, (0, 0)


def parse_question(question: str) -> QuestionSpec:
    q = " ".join(question.split())
    head = _DEFINITION.split(q, maxsplit=1)[0]  # the ask, without "X is defined as: ..."
    recipe, span = _first_recipe(head)
    if recipe is None:
        recipe, span = _first_recipe(q)
    from finqa.agents.reasoning.offline.lexicon_bridge import lexicon_match

    lex = lexicon_match(head) or lexicon_match(q)
    # the lexicon's catalogue: when we found nothing, or it names a more specific metric
    # around our match ('FCF margin' vs 'FCF')
    if lex is not None and (
        recipe is None
        or (lex[1] <= span[0] and lex[2] >= span[1] and lex[2] - lex[1] > span[1] - span[0])
    ):
        recipe = lex[0]
    from finqa.agents.reasoning.offline.lexicon_bridge import PCT_OF_REVENUE, get_recipe

    base = get_recipe(recipe)
    if base is not None and base.unit == "USD" and recipe != "revenue" and _PCT_OF_REV.search(head):
        recipe = PCT_OF_REVENUE + str(recipe)  # 'D&A as a % of revenue', 'capex % margin'
    years = _years(q)
    head_years = _years(head)
    target = max(head_years) if head_years else (max(years) if years else None)
    if head_years:
        years = head_years
    aggregate = "single"
    agg_years: tuple[int, ...] = (target,) if target else ()
    rng = _RANGE.search(q)
    if re.search(
        r"\b(?:3|three)[- ]year average\b|\baverage .{0,60}\b(?:3|three) years?\b", q, re.I
    ):
        aggregate = "avg3"
        end = target
        if rng:
            end = max(int(g) for g in rng.groups() if g)
        agg_years = tuple(range(end - 2, end + 1)) if end else ()
    elif re.search(r"\bcagr\b|compound annual growth", head, re.I) and len(set(years)) >= 2:
        aggregate = "cagr"
        agg_years = (min(years), max(years))
    elif (
        re.search(r"\bchange in\b|\bchanged?\b|\bdifference\b", head, re.I) and len(set(years)) >= 2
    ):
        aggregate = "change"
        agg_years = (min(years), max(years))
    elif (
        re.search(
            r"\bgrowth\b|\bgrow\b|\b(?:%|percent(?:age)?) (?:change|increase|decrease)\b",
            head,
            re.I,
        )
        and len(set(years)) >= 2
    ):
        aggregate = "growth"
        agg_years = (min(years), max(years))
    elif recipe == "revenue_growth" and target:
        aggregate = "growth"
        agg_years = (target - 1, target)
    elif (
        re.match(r"\s*(?:is|are|has|have|did|does|was|were)\b", q, re.I)
        and target
        and re.search(
            r"\b(?:improv\w*|increas\w*|declin\w*|decreas\w*|grow\w*|expand\w*|deteriorat\w*)\b",
            head,
            re.I,
        )
    ):
        aggregate = "trend"
        agg_years = (min(years), target) if len(set(years)) >= 2 else (target - 1, target)
    scale = None
    m = re.search(
        r"\b(?:usd|us\$|\$|dollars?)\s*(thousands|millions|billions)\b|\bin (thousands|millions|billions)\b",
        q,
        re.I,
    )
    if m:
        scale = {"thousands": 1e3, "millions": 1e6, "billions": 1e9}[
            (m.group(1) or m.group(2)).lower()
        ]
    percent = bool(re.search(r"\bpercent|\b%|as a %|in units of percents?", q, re.I))
    dm = re.search(
        r"round(?:ed)?(?: your)?(?: answer)?(?: to)?(?: the nearest)? (\w+) decimal", q, re.I
    )
    decimals = _DECIMALS.get(dm.group(1).lower()) if dm else None
    if decimals is None and re.search(
        r"round(?:ed)? to (?:the )?nearest (?:whole|integer)", q, re.I
    ):
        decimals = 0
    final = get_recipe(recipe)
    if aggregate == "change" and percent and final is not None and final.unit == "USD":
        aggregate = "growth"  # 'year-over-year change in operating income (in units of percents)'
    is_yes_no = bool(
        re.match(r"\s*(?:does|do|did|is|are|was|were|has|have|had|can|will|should)\b", q, re.I)
    )
    wants_positive = bool(re.search(r"\bpositive\b", q, re.I))
    return QuestionSpec(
        recipe=recipe,
        years=tuple(sorted(set(years))),
        target_year=target,
        aggregate=aggregate,
        agg_years=agg_years,
        scale=scale,
        percent=percent,
        decimals=decimals,
        is_yes_no=is_yes_no,
        wants_positive=wants_positive,
    )
