"""The offline backend: answers by reading statement tables and computing, or by extraction.

No key, no network. Metric questions: find the line items for the question's metric and fiscal
years in the evidence (statement tables), apply the metric's formula, cite the pages and return
a re-executable Calculation; "cannot determine from the filings" when an operand is missing.
Other questions: the best evidence sentence(s), cited, marked with lower confidence.
"""

from __future__ import annotations

import re
from dataclasses import replace

from finqa.agents.reasoning.confidence import confidence_signals
from finqa.agents.reasoning.offline.book import Book
from finqa.agents.reasoning.offline.causes import cause_answer
from finqa.agents.reasoning.offline.change_form import both_forms
from finqa.agents.reasoning.offline.compound import with_cause, with_unanswered
from finqa.agents.reasoning.offline.conventions import other_conventions
from finqa.agents.reasoning.offline.defined import (
    DEFINED,
    asked_definition,
    defined_clause,
    defined_solution,
)
from finqa.agents.reasoning.offline.dimension import dimension_answer
from finqa.agents.reasoning.offline.explain import explain, fmt_unit
from finqa.agents.reasoning.offline.extractive import best_passages, content_words
from finqa.agents.reasoning.offline.figure_parts import answer_parts
from finqa.agents.reasoning.offline.named_rows import (
    NAMED_LINE,
    effect_sentence,
    item_side_known,
    line_effect,
    named_clause,
    named_solution,
    sided_item_line,
    sided_value,
)
from finqa.agents.reasoning.offline.part_choice import part_choice_answer
from finqa.agents.reasoning.offline.sentences import (
    assertion_answer,
    figure_answer,
    is_yes_no_question,
)
from finqa.agents.reasoning.offline.solver import (
    Solution,
    citations_for,
    format_value,
    formula_items,
    get_recipe,
    missing_operands,
    solve,
)
from finqa.agents.reasoning.offline.verdict_kit import TEMPLATE_ID, offline_answer, source_order
from finqa.agents.reasoning.offline.verdicts import metric_lead, verdict_answer
from finqa.agents.types import Answer, Calculation, Evidence, StatementStore
from finqa.lexicon import intent
from finqa.lexicon.answer_form import flow_option
from finqa.lexicon.asked_measure import answer_fit, either_or_options
from finqa.lexicon.causes import asks_cause
from finqa.lexicon.conventions import asks_per_share
from finqa.lexicon.metrics import METRICS, find_metrics
from finqa.lexicon.part_choice import asked_part_choice, asks_among_parts
from finqa.lexicon.question_ask import QuestionAsk
from finqa.lexicon.question_intent import read_intent_in

__all__ = ["OfflineBackend", "OFFLINE_TEMPLATE_ID", "CANNOT", "figure_asked"]

OFFLINE_TEMPLATE_ID = TEMPLATE_ID
CANNOT = "cannot determine from the filings"


class OfflineBackend:
    """Deterministic reader/calculator over the filings' statement model and the evidence text.

    `statements`: the index's statement model (built once by the orchestrator's factory); the
    figures of the filings present in the evidence are read from it first, the evidence's own
    tables are the fall-back. None reads the evidence text only.
    """

    name = "offline"

    def __init__(self, statements: StatementStore | None = None) -> None:
        self.statements = statements

    def book(self, evidence: Evidence, spec: QuestionAsk | None = None) -> Book:
        """Every statement row available for this evidence (statement model first); for a
        question about quarters or years to date, each year's figure for the period asked."""
        return Book(
            evidence,
            self.statements,
            spec.periods if spec is not None else None,
            continuing=spec is not None and spec.continuing,
            left_out=spec.left_out if spec is not None else (),
            sides_named=spec is None or spec.sides_named,
            spelled=spec.spelled if spec is not None else (),
        )

    def answer(self, question: str, evidence: Evidence, strategy: str = "standard") -> Answer:
        # two figures or more, each asked in a part of its own: each part answered on its own
        parts = answer_parts(question, lambda sub: self._whole(sub, evidence, strategy))
        if parts is not None:
            return parts
        return self._whole(question, evidence, strategy)

    def _whole(self, question: str, evidence: Evidence, strategy: str) -> Answer:
        """The answer to the question read as a whole."""
        # the lexicon's one reading of the question, the one the judge reads
        labels = (item.metadata.get("fy_label") for item in evidence.items)
        intent = read_intent_in(question, labels)
        spec = intent.ask
        answer = self._answer(question, evidence, strategy, spec)
        if not answer.abstained:
            # the lead answers the first part: the measure it states is that part's
            other = answer_fit(question, answer.text)
            if other is not None:
                text = (
                    f"I {CANNOT}: the figure found is {METRICS[other.metric].name.lower()}, "
                    f"not what is asked: {other.reason}."
                )
                return self._abstained(text, strategy, [other.asked])
        answer = _relabel(answer, spec) if spec.periods else answer
        answer = _named_years(answer, spec)
        # 'Did X rise? What drove it?': the cause part answered after the figure, or named
        answer = with_cause(question, answer, evidence, strategy, self.statements)
        return with_unanswered(question, answer)  # another part it says nothing of, named

    def _among_parts(self, question: str, evidence: Evidence, strategy: str) -> Answer | None:
        """The part of one breakdown with the highest / lowest figure; an abstention for a pick
        among parts by a condition; None when the question picks among no parts."""
        chosen = part_choice_answer(question, evidence, self.statements, strategy)
        if chosen is not None:
            return chosen
        among = _among_parts_by_condition(question)
        return self._abstained(among[0], strategy, [among[1]]) if among is not None else None

    def _answer(
        self, question: str, evidence: Evidence, strategy: str, spec: QuestionAsk
    ) -> Answer:
        chosen = self._among_parts(question, evidence, strategy)
        if chosen is not None:
            return chosen
        # a part's reported figures never answer a measure adjusted from them
        part = (
            None
            if spec.adjusted
            else dimension_answer(question, evidence, self.statements, strategy)
        )
        if part is not None:
            return part  # a segment's, a region's or a product line's figure, never the total
        book = self.book(evidence, spec)
        verdict = verdict_answer(question, evidence, strategy, book, spec)
        if verdict is not None:
            return verdict
        unknown = _unknown_share_of_revenue(spec, question)
        if unknown is not None:
            text = (
                f"I {CANNOT}: the question asks for '{unknown}' as a percent of revenue, and no "
                "line item or metric in finqa's catalogue matches it; revenue alone is not what "
                "is asked."
            )
            return self._abstained(text, strategy, [unknown])
        # 'How does X in FY2022 compare to FY2021?' sets two years' figures side by side
        compared = spec.aggregate == "trend" and spec.compares
        # the part of a line named by a cause ('the tax expense as a result of the TCJ Act') is
        # no figure of the catalogue line's: a sentence of the filing may state it
        metric_q = (
            spec.recipe is not None
            and (compared or not spec.descriptive)
            and spec.for_cause is None
        )
        if metric_q and spec.is_yes_no:
            recipe = get_recipe(spec.recipe)
            # a sign, a movement ('Did X grow in 2020, and by how much?') or a ratio: the
            # figure's own sign or direction gives the verdict
            metric_q = (
                spec.wants_positive
                or spec.aggregate in _MOVEMENTS
                or (recipe is not None and recipe.unit != "USD")
                # 'was the income tax line an expense or a benefit?': the item's signed figure
                # says which side it is on (`named_rows.item_side`)
                or (spec.asks_side and item_side_known(spec.recipe, question))
            )
        if metric_q and spec.sub_annual and not spec.periods:
            return self._abstain_period(spec, strategy)
        if metric_q and spec.adjusted and not spec.is_yes_no:
            text = (
                f"I {CANNOT}: the question asks a measure adjusted from the reported figures "
                "(excluding named impacts, or an adjusted measure), which the statements do not "
                "report; the reported figure would answer another question."
            )
            return self._abstained(text, strategy, ["an adjusted measure"])
        # a measure the question defines over named lines, computed as defined (or not at
        # all); the line the question names, read from the filing's line under that caption,
        # before a catalogue item the phrase names only part of
        own = self._defined(question, spec, strategy, book) or self._named(
            question, spec, strategy, book
        )
        if own is not None:
            return own
        item = METRICS.get(spec.recipe or "")
        if metric_q and item is not None and _other_period(spec, item.period_type):
            # a balance for a flow or a flow for a balance answers another question
            text = (
                f"I {CANNOT}: the question asks {_PERIOD_WORDS[str(spec.period_type)]}, and "
                f"{item.name.lower()} is {_PERIOD_WORDS[str(item.period_type)]}."
            )
            return self._abstained(text, strategy, [item.name.lower()])
        if metric_q and figure_asked(spec):
            sol = solve(spec, book)
            if sol is not None and sol.unit == "USD" and asks_per_share(question):
                # an amount for the whole company is no answer to a per-share question
                ans = self._abstain(spec, strategy, ["a per-share figure"], question)
                text = (
                    f"I {CANNOT}: the question asks for a figure per share, and the "
                    f"{sol.recipe.name} the evidence shows is a company total; no per-share "
                    "figure for it is in the filings' statements."
                )
                return ans.model_copy(update={"text": text})
            if sol is not None and sol.implausible:
                return self._abstain_implausible(spec, sol, strategy)
            if sol is not None and self._acceptable(sol, spec, strategy):
                return self._metric_answer(question, spec, sol, strategy, book)
            if not spec.is_yes_no:
                return self._abstain(spec, strategy, missing_operands(spec, book), question)
        return self._extractive(question, evidence, strategy, spec)

    def _named(self, question: str, spec: QuestionAsk, strategy: str, book: Book) -> Answer | None:
        """The figure of the line the question names, read from its own caption; None when
        the question names no such line or no row is it."""
        named = named_solution(spec, book)
        if named is None and (side_line := sided_item_line(spec, book)) is not None:
            # 'did X record an income tax expense or a benefit?': the catalogue item's line,
            # printed under a caption naming both sides, read as that line
            spec = replace(spec, named_line=side_line)
            named = named_solution(spec, book)
        if named is not None and named.implausible:
            return self._abstain_implausible(spec, named, strategy)
        if (
            named is not None
            and not (spec.sub_annual and not spec.periods)
            and not spec.adjusted
            and self._acceptable(named, spec, strategy)
        ):
            return self._metric_answer(question, spec, named, strategy, book)
        line = spec.named_line
        if line is not None and line.own and spec.recipe is not None:
            # a gain, loss or income named by what it is on or from: the company's net result
            # (the catalogue's nearest item) would answer another question
            text = (
                f"I {CANNOT}: the question names the line '{line.phrase}', and no line of the "
                "filings' statements in the evidence is captioned so for the periods asked; "
                "the company's net result would answer another question."
            )
            return self._abstained(text, strategy, [line.phrase])
        return None

    def _defined(
        self, question: str, spec: QuestionAsk, strategy: str, book: Book
    ) -> Answer | None:
        """The measure the question defines, computed as defined; an abstention naming what it
        lacks; None when the question defines no measure of its own."""
        measure = asked_definition(question, spec)
        if measure is None or spec.adjusted or (spec.sub_annual and not spec.periods):
            return None
        defined = defined_solution(measure, spec, book)
        if (
            defined is not None
            and not defined.implausible
            and self._acceptable(defined, spec, strategy)
        ):
            return self._metric_answer(question, spec, defined, strategy, book)
        lacking = measure.missing
        why = (
            f"finqa's catalogue has no line item for {', '.join(repr(p) for p in lacking)}"
            if lacking
            else "the evidence does not show every line of it for the periods asked"
        )
        text = (
            f"I {CANNOT}: the question defines {measure.name or 'the measure'} as "
            f"{measure.written()}, and {why}; a metric of a similar name would answer "
            "another question."
        )
        return self._abstained(text, strategy, list(lacking or measure.parts))

    # ------------------------------------------------------------------ metric
    @staticmethod
    def _acceptable(sol: Solution, spec: QuestionAsk, strategy: str) -> bool:
        if sol.unit == "USD" and not sol.scale_known:
            return False  # an amount whose scale we would have to guess
        inferred = any(f.row.header_inferred for f in sol.facts)
        return not (inferred and strategy == "conservative")

    def _metric_answer(
        self, question: str, spec: QuestionAsk, sol: Solution, strategy: str, book: Book
    ) -> Answer:
        value = sided_value(sol, format_value(sol, spec), spec)
        years = spec.agg_years
        period = f"FY{years[0]}" if len(years) == 1 else f"FY{years[0]}-FY{years[-1]}"
        what = (
            re.sub(r" \(USD \w+\)$", "", sol.calculation.description)
            or f"{period} {sol.recipe.name}"
        )
        cites = citations_for(sol)
        refs = "".join(f"[{s}]" for s in source_order(c.source_id for c in cites))
        lead = ""
        levels: tuple[Calculation, ...] = ()
        # a movement of an amount: its amount and percent (of the catalogue item: not for the
        # line the question names, whose other form `both_forms` cannot read)
        both = both_forms(spec, sol, book) if sol.recipe.id not in (NAMED_LINE, DEFINED) else None
        if both is not None:
            value = f"{value} ({both.other})"
        if spec.is_yes_no and spec.wants_positive:
            lead = "Yes. " if sol.value > 0 else "No. "
        elif both is not None and not spec.is_yes_no:
            pass  # the two years' figures follow the figures asked
        elif spec.aggregate in ("trend", "change") and len(sol.per_year) == 2:
            # the direction family: X at both period ends, the movement, and a verdict when
            # a yes/no question names a direction ('Has X increased ...?': either way)
            up, down = spec.direction
            (y0, v0), (y1, v1) = sol.per_year.items()
            change = v1 - v0
            if up != down and spec.is_yes_no:
                lead = "Yes. " if (change > 0) == up else "No. "
            moved = "increased" if change > 0 else "decreased" if change < 0 else "was unchanged"
            levels = _level_calculations(spec, sol, book)
            lead += f"The {sol.recipe.name} {moved} from {fmt_unit(v0, sol.unit, sol.scale)} in FY{y0} to {fmt_unit(v1, sol.unit, sol.scale)} in FY{y1}. "
        if not lead:
            lead = metric_lead(question, spec, sol.recipe.id, sol.value)
        # 'did that line help or hurt pre-tax income?': the option its side has; 'say whether
        # operations generated or consumed cash': the option the flow's sign has
        lead = line_effect(sol, question) + _flow_lead(sol, question) + lead
        text = f"{lead}{what[:1].upper()}{what[1:]}: {value} {refs}."
        if both is not None and not lead:
            text += f" {both.years}"
        scale = {1e3: "thousands", 1e6: "millions", 1e9: "billions"}.get(
            sol.calculation.operands[0].scale, ""
        )
        unit_note = f" (amounts in USD {scale})" if scale else ""
        if len(sol.calculation.operands) == 1:
            o = sol.calculation.operands[0]
            text += f" Read from the line {o.text!r} [{o.source_id}]{unit_note}."
        else:
            operands = "; ".join(
                f"{_operand_prose(o.name)} = {_num(o.value)} [{o.source_id}]"
                for o in sol.calculation.operands
            )
            text += (
                f" Computed by finqa as {sol.calculation.expression} from {operands}{unit_note}."
            )
        text += explain(sol) + named_clause(sol, spec)
        # 'how did it affect total operating expenses?': the way its side moves that figure
        effect, effect_verb = effect_sentence(sol, question)
        text += effect
        text += defined_clause(sol, asked_definition(question, spec), spec)
        others = other_conventions(question, spec, book, sol)
        text += others.clause
        if strategy == "detailed" and len(sol.per_year) > 1:
            text += (
                " Per year: "
                + ", ".join(
                    f"FY{y}: {fmt_unit(v, sol.unit, sol.scale)}" for y, v in sol.per_year.items()
                )
                + "."
            )
        text += f" Answer: {value}."
        base = 0.8 if sol.scale_known and not any(f.row.header_inferred for f in sol.facts) else 0.6
        if sol.basis == "year_end":
            base -= 0.2  # the catalogue's average could not be taken: a weaker figure
        conf = confidence_signals(text, cited=bool(cites), base=base)
        conf["mode"] = "metric"
        conf["recipe"] = sol.recipe.id
        if effect_verb is not None:
            conf["effect"] = effect_verb
        return offline_answer(
            text,
            strategy,
            conf,
            citations=tuple(cites),
            calculations=(
                sol.calculation,
                *((both.calculation,) if both is not None else ()),
                *others.calculations,
                *levels,
            ),
        )

    def _abstain(
        self,
        spec: QuestionAsk,
        strategy: str,
        missing: list[str] | None = None,
        question: str = "",
    ) -> Answer:
        recipe = get_recipe(spec.recipe)
        years = ", ".join(f"FY{y}" for y in spec.agg_years) or "the period asked"
        if recipe is None and question:
            # no catalogue metric or line item matches: say what was looked for
            terms = _asked_terms(question)
            looked = f"'{' '.join(terms)}'" if terms else "the figure asked for"
            text = (
                f"I {CANNOT}: no line item or metric in finqa's catalogue matches {looked} "
                f"({years}), and no evidence sentence answers it."
            )
            missing = missing or ([" ".join(terms)] if terms else [])
        else:
            what = recipe.name if recipe else "the figure asked for"
            text = f"I {CANNOT}: the evidence does not show every line item needed for {what} ({years})"
            text += f"; missing: {', '.join(missing)}" if missing else ""
            named = _named_titles(spec)
            text += (
                f" (read from the financial statements only, as the question names the {named})."
                if named
                else "."
            )
        return self._abstained(text, strategy, list(missing or []))

    def _abstained(self, text: str, strategy: str, missing: list[str]) -> Answer:
        """An abstention saying what was looked for (`missing`)."""
        conf = confidence_signals(text, cited=False)
        conf["mode"] = "abstain"
        return offline_answer(text, strategy, conf, abstained=True, missing=missing)

    def _abstain_implausible(self, spec: QuestionAsk, sol: Solution, strategy: str) -> Answer:
        """Every reading of the metric gives a figure its definition rules out (a margin of
        243.7%): the lines read are not the ones the definition names, so no figure is given."""
        read = "; ".join(
            f"{_operand_prose(o.name)} = {_num(o.value)} [{o.source_id}]"
            for o in sol.calculation.operands
        )
        text = (
            f"I {CANNOT}: the {sol.recipe.name} computed from the evidence, "
            f"{format_value(sol, spec)}, is not plausible: {sol.implausible}; the lines read "
            f"({read}) are not the ones its definition names."
        )
        return self._abstained(text, strategy, [f"{sol.recipe.name} ({sol.implausible})"])

    def _abstain_period(self, spec: QuestionAsk, strategy: str) -> Answer:
        """Two different periods asked in one fiscal year ('Q1 2025 vs Q2 2025'): the offline
        reader reads one period per fiscal year, and would answer another period than asked."""
        recipe = get_recipe(spec.recipe)
        what = recipe.name if recipe else "the figure asked for"
        text = (
            f"I {CANNOT}: the question asks for {what} for '{spec.sub_annual}', two periods "
            "within one fiscal year, and finqa's offline reader reads one period per fiscal "
            "year; any figure it gave would answer another period."
        )
        return self._abstained(text, strategy, [f"{what} for {spec.sub_annual}"])

    # ------------------------------------------------------------------ extractive
    def _extractive(
        self, question: str, evidence: Evidence, strategy: str, spec: QuestionAsk
    ) -> Answer:
        if asks_cause(question):
            # 'what drove / why did X change': the filing's own explanation, or an abstention
            return cause_answer(question, evidence, strategy, self.statements)
        if spec.recipe is None:
            # what the filing states: a yes/no from the covering sentence's polarity, or the
            # one amount a covering sentence states (sentences.py)
            if is_yes_no_question(question):
                stated = assertion_answer(question, evidence, strategy)
            elif spec.direct or spec.choice:
                stated = figure_answer(question, evidence, strategy)
            else:
                stated = None
            if stated is not None:
                return stated
        passages = best_passages(question, evidence, k=2 if strategy != "detailed" else 3)
        if not passages or passages[0].score < 1.0:
            return self._abstain(spec, strategy, None, question)
        parts = [f'"{p.text}" [{p.citation.source_id}]' for p in passages]
        # a verdict, a choice, a figure or a description that none of the sentence families
        # above (a cause, a stated fact, a stated figure) found a sentence for: quoting the
        # nearest passages as the answer would be a guess (crossval: such answers were right 1
        # time in 17 and every training fold withheld them), so they are shown, not answered
        if spec.is_yes_no:
            kind = "a yes/no verdict"
        elif spec.direct or spec.choice:
            kind = "a specific choice or figure"
        else:
            kind = "a description that no single evidence sentence was found to state"
        text = (
            f"I {CANNOT} offline: the question asks for {kind}, which finqa cannot derive "
            "from the evidence without an LLM. Most relevant passages: " + " ".join(parts)
        )
        conf = confidence_signals(text, cited=True, base=0.1 + 0.5 * passages[0].coverage)
        conf["mode"] = "passages"
        conf["coverage"] = passages[0].coverage
        return offline_answer(
            text, strategy, conf, abstained=True, citations=tuple(p.citation for p in passages)
        )


def _flow_lead(sol: Solution, question: str) -> str:
    """'It consumed cash: ' for a cash-flow statement figure whose question offers an inflow
    and an outflow verb ('generated or consumed'), by the figure's sign; '' otherwise."""
    options = either_or_options(question)
    metric = METRICS.get(sol.recipe.id)
    if options is None or metric is None or metric.statement != "cash_flow" or not sol.value:
        return ""
    word = flow_option(options, sol.value > 0)
    return f"It {word} cash: " if word else ""


def _level_calculations(spec: QuestionAsk, sol: Solution, book: Book) -> tuple[Calculation, ...]:
    """Each period's figure of a movement of an amount computed from several lines (total debt:
    the sum of its debt lines), as its own calculation: the levels the answer states
    ('from $47,685 million to $43,555 million') are then re-executable; () when each figure is
    one line read, or a period's figure cannot be computed alone."""
    if sol.unit != "USD" or len(sol.calculation.operands) <= len(sol.per_year):
        return ()  # a ratio's levels the judge recomputes from its operands
    out = []
    for year in sol.per_year:
        one = solve(replace(spec, aggregate="single", agg_years=(year,), change_form=None), book)
        if one is None or len(one.per_year) != 1:
            return ()
        out.append(one.calculation)
    return tuple(out)


def _named_titles(spec: QuestionAsk) -> str:
    """'balance sheet' when the question names the statement of an operand of its metric."""
    from finqa.lexicon.line_items import get_item
    from finqa.lexicon.query import STATEMENT_TITLES

    recipe = get_recipe(spec.recipe)
    if recipe is None or not spec.statements:
        return ""
    statements = {
        item.statement
        for formula in recipe.formulas
        for item in map(get_item, formula_items(formula))
        if item is not None and item.statement in spec.statements
    }
    return " and ".join(STATEMENT_TITLES[s] for s in sorted(statements))


_FY = re.compile(r"\bFY(\d{4})\b")


def _named_years(answer: Answer, spec: QuestionAsk) -> Answer:
    """An answer to a question that names a year the filer's way ('fiscal 2023' of a filer whose
    years are named by the calendar year they start in) says how it read the year."""
    if not spec.renamed or answer.abstained:
        return answer
    said = "; ".join(
        f"'{text}' is read as the filer names its years (by the calendar year a year starts "
        f"in): the fiscal year that ends in {fy}, FY{fy} here"
        for text, fy in spec.renamed
    )
    return answer.model_copy(update={"text": f"{answer.text.rstrip()} ({said}.)"})


# the aggregations that are a movement between two periods: a figure computed from both
_MOVEMENTS = frozenset({"trend", "change", "growth"})


def _among_parts_by_condition(question: str) -> tuple[str, str] | None:
    """(abstention text, what was looked for) for a pick among the company's parts by a
    condition ('which of X's segments saw operating income decline'): the offline reader picks
    a part only by an extreme, and the consolidated figures would answer another question."""
    among = asks_among_parts(question)
    if among is None or asked_part_choice(question) is not None or not find_metrics(question):
        return None  # no pick among parts, one by an extreme, or no measure ('which segment
        # reports AppleCare revenue' is no condition on figures)
    text = (
        f"I {CANNOT} offline: the question asks which of the company's {among}s meet a "
        "condition; finqa's offline reader picks a part only by the highest or lowest of a "
        "measure, and the consolidated figures would answer another question."
    )
    return text, f"the {among}s' figures"


def figure_asked(spec: QuestionAsk) -> bool:
    """The metric's figure answers the ask: a yes/no (its verdict from the figure), a figure
    asked, or a movement ('How fast did X grow'), unless a pick among parts is asked ('which
    region had the biggest drop': the total's movement picks nothing)."""
    moved = spec.aggregate == "trend" or (spec.aggregate in _MOVEMENTS and not spec.choice)
    return spec.is_yes_no or spec.computes or moved


_PERIOD_WORDS = {"instant": "a balance at a date", "duration": "a flow over a period"}


def _other_period(spec: QuestionAsk, kind: str | None) -> bool:
    """The ask's period type (`QuestionAsk.period_type`) and the item's differ."""
    return spec.period_type is not None and kind is not None and kind != spec.period_type


def _relabel(answer: Answer, spec: QuestionAsk) -> Answer:
    """An answer read through the periods asked names them: each fiscal year's figure is the
    period asked in that year ('Q3 FY2025' or 'quarter ended June 28, 2025' for 'FY2025')."""

    def sub(text: str) -> str:
        return _FY.sub(lambda m: spec.period_label(int(m.group(1))), text)

    calcs = tuple(
        c.model_copy(
            update={
                "description": sub(c.description),
                "operands": tuple(
                    o.model_copy(update={"period": sub(o.period or "") or o.period})
                    for o in c.operands
                ),
            }
        )
        for c in answer.calculations
    )
    text = sub(answer.text)
    return answer.model_copy(
        update={
            "text": text[:1].upper() + text[1:],
            "calculations": calcs,
            "missing": tuple(sub(m) for m in answer.missing),
        }
    )


def _unknown_share_of_revenue(spec: QuestionAsk, question: str) -> str | None:
    """The numerator of 'X as a percent of revenue' when the catalogue matched only revenue
    (X is no line item it knows): answering with revenue would answer another question."""
    if spec.recipe not in ("revenue", "revenue_growth"):
        return None
    numerator = intent.share_of_revenue_numerator(question)
    if numerator is None or any(w in numerator.lower() for w in ("revenue", "sales")):
        return None
    return numerator


def _asked_terms(question: str) -> list[str]:
    """The question's own content words, without company names and periods (what was looked for)."""
    from finqa.lexicon import find_companies, find_periods

    text = question
    spans = [(c.start, c.end) for c in find_companies(question)]
    spans += [(p.start, p.end) for p in find_periods(question)]
    for a, b in sorted(spans, reverse=True):
        text = text[:a] + " " + text[b:]
    return [w for w in content_words(text) if not w.endswith("'s") and w not in _NOT_ASKED][:6]


_NOT_ASKED = frozenset({"usd", "dollars", "thousands", "millions", "billions", "much", "many", "round", "decimal", "places"})  # fmt: skip


_NTH = {2: "second", 3: "third", 4: "fourth", 5: "fifth", 6: "sixth"}
_NUMBERED = re.compile(r"^(?P<item>[a-z_]+?)_(?P<n>\d)(?=_fy|$)")


def _operand_prose(name: str) -> str:
    """An operand's name in prose ('short_term_debt_2_fy2017' -> 'short term debt, second
    line, FY2017'): a calculation's identifier numbers the second line of an item, and a digit
    in prose would read as a figure of the answer."""
    m = _NUMBERED.match(name)
    if m and int(m["n"]) in _NTH:
        name = f"{m['item']}, {_NTH[int(m['n'])]} line,{name[m.end() :]}"
    return name.replace("_fy", " FY").replace("_", " ").replace(",,", ",").strip(", ")


def _num(v: float) -> str:
    return f"{v:,.2f}".rstrip("0").rstrip(".") if v != int(v) else f"{int(v):,}"
