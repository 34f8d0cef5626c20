"""What a question asks of the figures: the asked catalogue metric, its fiscal years and the
aggregation over them, the unit and rounding asked, and the form of answer (yes/no, compute,
compare, describe), read once by the lexicon (`read_ask`) and held by the question's intent
(`QuestionIntent.ask`), so the reasoner computes and the judge checks the same reading.

The asked metric is the catalogue metric the ask names (`metric`; `recipe`: among those with a
recipe, `lexicon.recipes.match_asked_metric`), the ask before any 'X is defined as ...' first. Growth,
change and a three-year average are operators over the line item named ('year-over-year growth
in operating income' is operating income's growth), between the first and last year named.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from finqa.lexicon import answer_form, intent
from finqa.lexicon._data import data_cache
from finqa.lexicon.asked_period import AskedPeriod, asked_periods
from finqa.lexicon.cash_basis import paid_asked
from finqa.lexicon.comparison import item_comparison
from finqa.lexicon.components import one_side_named
from finqa.lexicon.conventions import Conventions, stated_conventions
from finqa.lexicon.dimensions import asked_change, period_spec
from finqa.lexicon.formula import keys as formula_keys
from finqa.lexicon.line_items import spelled_captions
from finqa.lexicon.metrics import METRICS, find_metrics
from finqa.lexicon.movement import open_evaluation
from finqa.lexicon.named_line import NamedLine, named_line
from finqa.lexicon.numbers import question_scale
from finqa.lexicon.operations_scope import asks_continuing
from finqa.lexicon.operators import asked_operator
from finqa.lexicon.period_ask import PeriodType, asked_period_type
from finqa.lexicon.periods import find_periods, fiscal_naming
from finqa.lexicon.premise_operand import premise_operand_match
from finqa.lexicon.qualifiers import left_out_phrases
from finqa.lexicon.recipes import PCT_OF_REVENUE, Recipe, get_recipe, match_asked_metric
from finqa.lexicon.sides import asks_side
from finqa.lexicon.variants import Variant, read_variants

__all__ = ["QuestionAsk", "read_ask"]


@dataclass(frozen=True)
class QuestionAsk:
    """What a metric question asks, read from the (whitespace-normalised) question's words."""

    # the catalogue metric the ask names, whether or not finqa can compute it (its unit says
    # the kind of figure asked); `recipe`: the one it computes ('pctrev:<item>': % of revenue)
    metric: str | None
    recipe: str | None
    years: tuple[int, ...]  # every fiscal year the ask names (else the question), ascending
    target_year: int | None
    aggregate: str  # "single" | "avg3" | "cagr" | "change" | "growth" | "trend"
    agg_years: tuple[int, ...]
    scale: float | None  # requested scale for amounts (1e6 for "USD millions")
    percent: bool  # asks for percents
    decimals: int | None
    is_yes_no: bool
    wants_positive: bool  # "positive working capital?"
    conventions: Conventions = Conventions()  # balance basis / day count the question states
    # the period asked when it is shorter than a fiscal year ('quarter ended June 28, 2025',
    # 'six months ended ...', 'Q2 2023'), as written; '' for fiscal years only
    sub_annual: str = ""
    # when a shorter period is asked: the period asked in each fiscal year the question names
    # (a reader takes each year's figure from that period's column); () when two different
    # spans are asked in one fiscal year (no per-year reading holds both); None: fiscal years
    periods: tuple[AskedPeriod, ...] | None = None
    # how the fiscal years named were read: 'start' when the filer names a year by the calendar
    # year it starts in (its 'fiscal 2023' ended February 3, 2024 is FY2024 here), else 'end'
    fy_label: str = "end"
    # the years named in the filer's own naming, as the question wrote them ('fiscal 2023'),
    # with the end-year FY each was read as; () when no naming moved a year
    renamed: tuple[tuple[str, int], ...] = ()
    # the form of answer the question's words ask (`lexicon.intent`), over the whole question
    compares: bool = False  # 'how does X in FY2022 compare to FY2021'
    descriptive: bool = False  # causes, kinds or names rather than a line item's figure
    computes: bool = False  # asks for a figure to be computed or stated
    direct: bool = False  # asks directly for a stated thing ('what is', 'how much')
    choice: bool = False  # asks which of several ('which segment ...')
    direction: tuple[bool, bool] = (False, False)  # asks whether it went (up, down)
    # asks whether the item improved / weakened, and its definition fixes no favourable way:
    # the movement answers it, a Yes / No does not (lexicon.movement.open_evaluation)
    open_direction: bool = False
    # as the statement model's facts are looked up (`lexicon.dimensions`): the period asked
    # (2024, '2025Q3', '2025M9', 'FY2024@end'; None: not said) and a movement over the year
    # before ('growth' | 'change'; None: one period's figure)
    statement_period: str | int | None = None
    change_over_prior: str | None = None
    # an operator asked over the line items named (`lexicon.operators`): 'return' | 'share' |
    # 'ratio' (its form of answer: a ratio or a percentage, never one operand's amount), with
    # its operands (part, whole); None: the figure of the metric or line item itself
    operator: str | None = None
    operands: tuple[str | None, str | None] = (None, None)
    # the period type of the one item asked (`lexicon.period_ask`): 'duration' for a flow ('how
    # much cash did X pay ... during 2020'), 'instant' for a balance ('at the end of', 'as of
    # <date>', 'outstanding'); None when the words give neither or a movement is asked
    period_type: PeriodType | None = None
    # the form of a movement of an amount (`answer_form.change_form`): 'percent' or 'amount'
    # as the ask states it, 'both' for a bare 'change' (headline: `aggregate`); None: no
    # movement of an amount is asked
    change_form: str | None = None
    # a measure adjusted from the reported line is asked ('if we exclude the impact of FX',
    # 'Adjusted EBIT', 'organic'): the reported figure is not it
    adjusted: bool = False
    # the financial statements the question names ('on its balance sheet', 'in the cash flow
    # statement': `lexicon.query.named_statements`): a line item of a named statement is read
    # from that statement's rows, never from a note's table
    statements: tuple[str, ...] = ()
    # the recognised definition of the metric the question's words select where it is not the
    # catalogue's own formula (`lexicon.variants`: DPO over cost of sales where the question
    # names cost of sales, not the purchases); None: the catalogue's formula
    variant: Variant | None = None
    # the line item the ask names by a quoted caption or by an item with narrowing words
    # (`lexicon.named_line`: 'membership fee revenue', 'content liabilities (current plus
    # non-current)'): a filing's line under that caption answers before a broader catalogue item
    named_line: NamedLine | None = None
    # a yes/no offering the two sides of a line ('was X an expense or income?',
    # `lexicon.sides.asks_side`): each period's figure answers with the side it is on
    asks_side: bool = False
    # a continuing-operations figure is asked ('free cash flow from continuing operations',
    # `lexicon.operations_scope`): where the filing prints a line for continuing operations
    # beside its total, that line is read
    continuing: bool = False
    # the lines the question leaves out of what it asks ('long-term debt (excluding redeemable
    # preferred stock)': `lexicon.qualifiers.left_out_phrases`): a printed total that holds one
    # of them is not the line asked where the statement prints the line without it
    left_out: tuple[str, ...] = ()
    # the question names one side of the balance sheet ('current deferred revenue', 'long-term
    # operating lease liabilities': `lexicon.components.one_side_named`); a balance asked
    # without one, or with both ('current plus long-term'), printed under one caption on both
    # sides, is the two lines summed
    sides_named: bool = False
    # the catalogue lines the question names by one of their own captions, (item, caption
    # key) ('as a percentage of net sales': revenue by 'Net sales'): where the filer prints
    # that caption beside another of the item's, that line is read (`line_items.spelled_captions`)
    spelled: tuple[tuple[str, str], ...] = ()
    # the cause a one-part figure question names its amount by, after the line it is part of
    # ('the provisional tax expense as a result of the TCJ Act': `lexicon.named_line.
    # part_for_cause`): that part of the line is asked, never the line's total
    for_cause: str | None = None

    def period_label(self, year: int) -> str:
        """How the answer names a fiscal year's period: 'FY2025', or the shorter period asked
        ('Q3 FY2025', 'quarter ended June 28, 2025')."""
        for p in self.periods or ():
            if p.fiscal_year == year:
                return p.label()
        return f"FY{year}"


def read_ask(question: str, fy_label: str | None = None) -> QuestionAsk:
    """What a metric question asks. `fy_label`: how the filer in scope names its fiscal years
    (`FilingIdentity.fy_label`); None: the naming of the company the question names, if the
    lexicon knows it (`lexicon.periods.fiscal_naming`). Cached per question text and naming."""
    return _read(" ".join(question.split()), fy_label)


@data_cache(256)
def _read(q: str, fy_label: str | None) -> QuestionAsk:
    fy_label = fy_label or fiscal_naming(q)
    head = answer_form.ask_head(q)  # the ask, without "X is defined as: ..."
    # 'how much net income was available to X's common shareholders': the amount after
    # preferred dividends, named across the verb and the owner
    head, q = _owners_amount(head), _owners_amount(q)
    period = _item_period(head, q)
    matched = premise_operand_match(q, head) or match_asked_metric(head, period=period)
    text = head if matched else q
    lex = matched or match_asked_metric(q, period=period)
    recipe = lex[0] if lex else None
    named = (
        premise_operand_match(q, head)
        or match_asked_metric(head, computable=False, period=period)
        or match_asked_metric(q, computable=False, period=period)
    )
    paid = paid_asked(head, recipe)
    if paid is not None and get_recipe(paid) is not None:
        # 'how much did X pay in income taxes': the payment, not the period's provision
        recipe, named = paid, (paid, *(named[1:] if named else (0, 0)))
    base = get_recipe(recipe)
    if lex and base is not None and base.unit == "USD" and intent.ratio_follows(text[lex[2] :]):
        # 'debt to total capital': a ratio of the amount to a line the catalogue does not
        # pair it with; the amount alone would answer another question
        recipe, base = None, None
    if (
        base is not None
        and base.unit == "USD"
        and recipe != "revenue"
        and answer_form.asks_share_of_revenue(head)
    ):
        recipe = PCT_OF_REVENUE + str(recipe)  # 'D&A as a % of revenue', 'capex % margin'
    metric = named[0] if named else None
    op = asked_operator(head)
    if op is not None and base is not None and base.unit != "USD":
        op = None  # a metric of its own kind is named ('gross margin as a % of revenue')
    if op is not None:
        # a return, share or ratio over the line items named: one operand's amount answers
        # another question; the catalogue's metric that is the operator, else none computes it
        recipe = op.metric
        base = get_recipe(op.metric)
        metric = op.metric if op.metric is not None and base is not None else op.part
        if recipe is not None and recipe.startswith(PCT_OF_REVENUE):
            metric = op.part
    years = _years(q, fy_label)
    head_years = _years(head, fy_label)
    if head_years and _base_years_only(head, fy_label):
        # 'Net loss narrowed in 2016. By how much did it shrink compared with 2015?': the ask
        # names only the year compared with; the year it is compared for is the premise's
        later = [y for y in years if y > max(head_years)]
        if later:
            head_years = [*head_years, max(later)]
    target = max(head_years) if head_years else (max(years) if years else None)
    if head_years:
        years = head_years
    aggregate, agg_years = _aggregate(q, head, (recipe, base), years, target)
    percent = answer_form.asks_percent(q)
    final = get_recipe(recipe)
    form: str | None = None
    if aggregate in ("change", "growth") and final is not None and final.unit == "USD":
        # the movement of an amount: its form as the ask states it ('by how many percent',
        # 'growth rate' -> percent; 'in dollars' -> amount); a bare 'change' gets both, the
        # headline first ('year-over-year change in operating income (in units of percents)')
        form = answer_form.change_form(head) or ("percent" if percent else None)
        headline = form or answer_form.BARE_CHANGE_HEADLINE
        aggregate = "growth" if headline == "percent" else "change"
        form = form or "both"
    sub_annual, periods = _sub_annual(head, fy_label)
    balance = recipe is not None and recipe in METRICS and METRICS[recipe].period_type == "instant"
    moved = aggregate in ("change", "growth") or (aggregate == "trend" and _of_flows(final))
    if aggregate in ("change", "growth") and balance:
        # a balance's movement between two dates named: the years are the dates' own fiscal
        # years (Ulta's January 28, 2023 and April 29, 2023 end FY2023 and FY2024's first quarter)
        periods, agg_years = _named_pair(periods, agg_years)
    elif moved and not balance and not intent.asks_sequential(head):
        # a flow's movement over a quarter: year over year (a balance's or a sequential
        # movement starts at the quarter before, which a per-year reader does not hold)
        periods, agg_years = _with_prior(periods, agg_years)
    elif (
        periods
        and len(periods) == 1 == len(agg_years)
        and not periods[0].annual
        and abs(periods[0].fiscal_year - agg_years[0]) == 1
    ):
        # one span asked, its fiscal year read by the company's calendar (Amcor's three months
        # ended December 31, 2022 are its FY2023's second quarter): the year asked is its year
        agg_years = (periods[0].fiscal_year,)
        target = periods[0].fiscal_year
        years = [target]
    variant = read_variants(recipe, q).leading if recipe is not None else None
    return QuestionAsk(
        metric=metric,
        recipe=recipe,
        years=tuple(sorted(set(years))),
        target_year=target,
        aggregate=aggregate,
        agg_years=agg_years,
        scale=question_scale(q),
        percent=percent,
        decimals=answer_form.asked_decimals(q),
        is_yes_no=answer_form.is_yes_no(q) or answer_form.is_yes_no(head),
        wants_positive=answer_form.asks_positive(q),
        conventions=stated_conventions(q),
        sub_annual=sub_annual,
        periods=periods,
        fy_label=fy_label or "end",
        renamed=_renamed(head, fy_label) if fy_label == "start" else (),
        compares=intent.asks_comparison(q),
        descriptive=intent.is_descriptive(q),
        # 'what percentage of revenue did it spend on capex': a share is a figure computed, when
        # the metric read is one (an amount read for a share answers another question)
        computes=intent.asks_compute(q)
        or (intent.asks_share(q) and final is not None and final.unit != "USD"),
        direct=intent.asks_direct(q),
        choice=intent.asks_choice(q),
        # the ask's own movement word, not a premise's ('X posted lower sales. Did its margin
        # nonetheless improve?')
        # 'did A grow faster than B?' asks how two movements compare, not which way A went
        direction=(
            (False, False)
            if item_comparison(head) is not None
            else intent.asked_direction(head, _movement_item(recipe, metric))
        ),
        open_direction=open_evaluation(q, _movement_item(recipe, metric)),
        statement_period=period_spec(q),
        change_over_prior=asked_change(q),
        operator=op.kind if op is not None else None,
        operands=(op.part, op.whole) if op is not None else (None, None),
        # a flow or a balance is one amount's type; a ratio's operands are of both (DPO: the
        # payables balance over the period's cost of sales)
        period_type=(
            period
            if aggregate == "single" and op is None and (final is None or final.unit == "USD")
            else None
        ),
        change_form=form,
        adjusted=intent.asks_adjusted(head),
        statements=_named_statements(q),
        variant=variant,
        named_line=named_line(q),
        # the ask's own sentences first: a premise quoting a two-sided caption offers no sides
        asks_side=asks_side(head) or asks_side(q),
        continuing=asks_continuing(q),
        left_out=left_out_phrases(q),
        sides_named=one_side_named(q),
        spelled=spelled_captions(q),
        for_cause=_for_cause(q),
    )


def _for_cause(question: str) -> str | None:
    """The cause a question asking one figure names its amount by (None for a question of
    several parts, or a cause or yes/no question: 'why did X fall as a result of Y' asks why)."""
    from finqa.lexicon.named_line import part_for_cause
    from finqa.lexicon.question_parts import question_parts

    if [p.form for p in question_parts(question).parts] != ["figure"]:
        return None
    return part_for_cause(question)


_FOR_COMMON = re.compile(
    r"\b(?P<line>net\s+income|net\s+earnings|income|earnings)\b(?P<gap>[^?.;]{0,40}?)\s+"
    r"(?:was|were|is|are|has\s+been)\s+(?P<how>available|attributable|applicable)\s+"
    r"(?P<to>to|for)\s+(?:[A-Z][\w&.\-]*(?:\s+[A-Z][\w&.\-]*)*['\u2019]s\s+)?"
    r"(?P<holders>common\s+(?:share|stock)holders)\b",
    re.I,
)


def _owners_amount(text: str) -> str:
    """'net income was available to Acme's common shareholders' read as 'net income
    available to common shareholders' (the catalogue's spelling of the amount after
    preferred dividends); the text unchanged otherwise."""
    return _FOR_COMMON.sub(
        lambda m: (
            f"{m.group('line')}{m.group('gap')} {m.group('how')} {m.group('to')} "
            f"{m.group('holders')}"
        ),
        text,
    )


def _of_flows(recipe: Recipe | None) -> bool:
    """The recipe's metric is a flow over a period, or every line item it reads is (net income,
    an operating margin; not a current ratio): its movement over a quarter or a half is year over year, while a
    balance's starts at the period's opening balance."""
    metric = METRICS.get(recipe.id) if recipe is not None else None
    if metric is None:
        return False
    formulas = [str(f) for f in (*metric.formulas, metric.formula) if f]
    if not formulas:
        return metric.period_type == "duration"  # a line item itself (net income)
    items = {key for formula in formulas for key in formula_keys(formula)}
    return bool(items) and all(
        (item := METRICS.get(key)) is not None and item.period_type == "duration" for key in items
    )


def _movement_item(recipe: str | None, metric: str | None) -> str | None:
    """The catalogue item whose movement the question asks: the figure computed (the recipe),
    else the item named; its favourable direction reads 'improve' / 'weaken'."""
    from finqa.lexicon.catalogue import entries

    return next((k for k in (recipe, metric) if k is not None and k in entries()), None)


def _named_statements(q: str) -> tuple[str, ...]:
    from finqa.lexicon.query import named_statements

    return named_statements(q)


def _item_period(head: str, q: str) -> PeriodType | None:
    """The period type of the item asked (`lexicon.period_ask`): a flow or a balance, when the
    ask is one item's figure; None for a movement, an average or an operator over items (the
    change in a balance 'during' a year is still a balance's)."""
    if answer_form.asked_aggregates(head, q) or intent.asks_movement(head):
        return None
    if intent.asks_change_amount(head) or asked_operator(head) is not None:
        return None
    return asked_period_type(head)


def _aggregate(
    q: str, head: str, asked: tuple[str | None, Recipe | None], years: list[int], target: int | None
) -> tuple[str, tuple[int, ...]]:
    """The aggregation over years the question asks, and the years it spans. `asked`: the asked
    recipe id and the recipe of the line or metric named (an item's own, for '% of revenue')."""
    recipe, base = asked
    forms = answer_form.asked_aggregates(head, q)
    several = len(set(years)) >= 2
    if "avg3" in forms:
        rng = answer_form.year_range(q)
        end = rng[1] if rng else target
        return "avg3", tuple(range(end - 2, end + 1)) if end else ()
    if several and (form := next((f for f in forms if f != "avg3"), None)) is not None:
        return form, (min(years), max(years))  # cagr, change or growth: first to last year
    if several and intent.asks_change_amount(head):
        # 'by how many dollars did X increase from 2020 to 2022': the movement between the
        # first and the last year named, not one year's figure (nor two adjacent years)
        return "change", (min(years), max(years))
    if target and (
        recipe == "revenue_growth" or ("growth" in forms and base is not None and base.unit != "%")
    ):
        # growth is an operator over the line item named: 'year-over-year growth in operating
        # income for FY2022' is operating income's growth from FY2021 to FY2022
        return "growth", (target - 1, target)
    if (
        target
        and ("change" in forms or intent.asks_movement(head))
        and base is not None
        and base.unit == "USD"
        and intent.asks_change_amount(head)
    ):
        # 'the year-over-year change in operating income for FY2022', 'by how much did cash
        # increase during fiscal 2020': the change operator over the line item named, from the
        # year before to the year named
        return "change", (target - 1, target)
    if target and _asks_effect(q):
        # 'did the line add to or reduce pre-tax income?': the line's own figure, whose side
        # is the option (`lexicon.sides.effect_option`), not its movement
        return "single", (target,)
    if target and (
        (answer_form.is_yes_no_of_fact(q) and intent.asks_movement(head))
        or (intent.asks_comparison(head) and several)
    ):
        return "trend", (min(years), target) if several else (target - 1, target)
    return "single", (target,) if target else ()


def _asks_effect(q: str) -> bool:
    """An either/or question offering a line's two effects on a figure it names after them ('add
    to or reduce its income before income taxes', 'help or hurt pre-tax income')."""
    from finqa.lexicon.sides import affected_kind, effect_asked

    asked = effect_asked(q)
    # transitive: the option names the figure it moved ('reduce its income before income
    # taxes'); 'did total debt increase or decrease during 2016?' asks the debt's own movement
    obj = asked[1] if asked is not None else ""
    return bool(obj) and (bool(find_metrics(obj)) or affected_kind(obj) is not None)


def _with_prior(
    periods: tuple[AskedPeriod, ...] | None, agg_years: tuple[int, ...]
) -> tuple[tuple[AskedPeriod, ...] | None, tuple[int, ...]]:
    """A year-over-year movement of a quarter ('growth in Q1 2023'): the same span of the year
    before is the base (FY2022's first quarter), when the question names only the later one;
    the years are the period's fiscal years (a stated date read by the company's calendar:
    Walmart's quarter ended April 30, 2023 is FY2024's, its base FY2023's)."""
    if periods and len(periods) == 2 == len(agg_years):
        return _named_pair(periods, agg_years)
    if not periods or len(periods) != 1 or len(agg_years) != 2 or periods[0].annual:
        return periods, agg_years
    (p,) = periods
    if p.months == 0:
        return periods, agg_years  # a balance's change over a quarter starts at its last end
    if agg_years[1] - agg_years[0] != 1 or abs(p.fiscal_year - agg_years[1]) > 1:
        return periods, agg_years
    years = (p.fiscal_year - 1, p.fiscal_year)
    prior = AskedPeriod(f"{p.text}, a year earlier", years[0], p.months, p.quarter, None)
    return (prior, p), years


def _named_pair(
    periods: tuple[AskedPeriod, ...] | None, agg_years: tuple[int, ...]
) -> tuple[tuple[AskedPeriod, ...] | None, tuple[int, ...]]:
    """Both spans of a movement named (a balance at the year end and at a quarter's end): the
    years are theirs, read by the company's calendar, where they are a year from those read
    without it."""
    if not periods or len(periods) != 2 or len(agg_years) != 2:
        return periods, agg_years
    named = tuple(sorted(p.fiscal_year for p in periods))
    close = all(abs(a - b) <= 1 for a, b in zip(named, agg_years, strict=True))
    return periods, named if close and named[0] != named[1] else agg_years


def _named_company(head: str) -> str | None:
    """The one company the question names (its year end reads a stated date: Walmart's 'three
    months ended April 30, 2023' is its first quarter of FY2024), else None."""
    from finqa.lexicon.entities import find_companies

    try:
        names = {c.name for c in find_companies(head) if c.via != "brand"}
    except Exception:  # noqa: BLE001 - a name only refines the calendar; never fail on it
        return None
    return names.pop() if len(names) == 1 else None


def _sub_annual(head: str, fy_label: str | None) -> tuple[str, tuple[AskedPeriod, ...] | None]:
    """The periods shorter than a fiscal year a question asks for, as written ('' when none),
    and the period asked in each fiscal year it names (() when one year holds two spans)."""
    asked = asked_periods(head, _named_company(head), fy_label=fy_label)
    if asked is None:
        return " and ".join(p.text for p in find_periods(head, fy_label=fy_label)), ()
    shorter = [p.text for p in asked if not p.annual]
    return (" and ".join(shorter), asked) if shorter else ("", None)


# the words before a year that make it the base a figure is compared with ('compared with
# 2015', 'versus fiscal 2015', 'from 2015'), not the year asked
_BASE_BEFORE = re.compile(
    r"\b(?:compared\s+(?:with|to)|versus|vs\.?|relative\s+to|from|since|against|over)\s+"
    r"(?:the\s+)?(?:(?:fiscal\s+)?(?:year\s+)?|FY\s*)?$",
    re.I,
)


def _base_years_only(head: str, fy_label: str | None) -> bool:
    """Every year the ask names is a base it compares with ('... shrink compared with 2015?')."""
    found = [p for p in find_periods(head, fy_label=fy_label) if p.fiscal_year]
    return bool(found) and all(_BASE_BEFORE.search(head[: p.start]) for p in found)


def _years(question: str, fy_label: str | None = None) -> list[int]:
    """Every fiscal year the question names, read by the lexicon (FY22, fiscal 2022, Q2 2023...)."""
    return [p.fiscal_year for p in find_periods(question, fy_label=fy_label) if p.fiscal_year]


def _renamed(question: str, fy_label: str | None) -> tuple[tuple[str, int], ...]:
    """The mentions the filer's naming read as another end-year FY than the plain reading."""
    plain = find_periods(question, fy_label="end")
    named = find_periods(question, fy_label=fy_label)
    return tuple(
        (b.text, b.fiscal_year)
        for a, b in zip(plain, named, strict=False)
        if a.start == b.start and b.fiscal_year is not None and a.fiscal_year != b.fiscal_year
    )
