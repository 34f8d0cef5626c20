"""One reading of what a question asks (`lexicon.question_ask`, held by `QuestionIntent.ask`):
the reasoner computes it and the judge checks against it; neither parses the question again."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from _reasoning_data import evidence
from finqa.agents.config import Settings
from finqa.agents.judge import JudgeAgent
from finqa.agents.reasoning.offline import OfflineBackend
from finqa.agents.types import Answer, Evidence
from finqa.lexicon.question_ask import QuestionAsk
from finqa.lexicon.question_intent import read_intent

OFFLINE = Path(__file__).resolve().parents[1] / "agents" / "reasoning" / "offline"

# the lexicon's readers of a question whose results the intent holds (`QuestionAsk`,
# `QuestionIntent`): a reasoner module that calls one on the question parses it a second time
HELD = frozenset(
    {
        "ask_head", "asks_share_of_revenue", "asked_aggregates", "year_range", "is_yes_no",
        "is_yes_no_of_fact", "asks_percent", "asked_decimals", "asks_positive", "defines_metric",
        "ratio_follows", "asked_direction", "asks_comparison", "is_descriptive", "asks_compute",
        "asks_direct", "asks_choice", "asks_change_amount", "asks_share", "question_scale",
        "stated_conventions", "asked_periods", "fiscal_naming", "match_asked_metric", "period_spec",
        "asked_change",
    }
)  # fmt: skip
_QUESTION_NAMES = frozenset({"question", "q"})


def held_calls_on_question(source: str) -> list[tuple[int, str]]:
    """(line, reader) of each call of a held reader with the question as its first argument."""
    out: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(source)):
        if not (isinstance(node, ast.Call) and node.args):
            continue
        f = node.func
        name = f.attr if isinstance(f, ast.Attribute) else getattr(f, "id", None)
        first = node.args[0]
        if name in HELD and isinstance(first, ast.Name) and first.id in _QUESTION_NAMES:
            out.append((node.lineno, str(name)))
    return out


class TestReasonerReadsTheIntent:
    """The offline reasoner reads the question through the lexicon's intent, not by itself."""

    def test_offline_package_calls_no_held_reader_on_the_question(self) -> None:
        """No module of agents/reasoning/offline calls a reader the intent holds on the question."""
        found = {
            p.name: calls
            for p in sorted(OFFLINE.glob("*.py"))
            if (calls := held_calls_on_question(p.read_text(encoding="utf-8")))
        }
        assert found == {}

    def test_the_scan_finds_a_second_parse(self) -> None:
        """The scan reports a held reader called on the question (it is not vacuous), and not
        one called on other text."""
        src = (
            "from finqa.lexicon import intent\n"
            "def f(question, sentence):\n"
            "    a = intent.asks_comparison(question)\n"
            "    return a and intent.asks_comparison(sentence)\n"
        )
        assert held_calls_on_question(src) == [(3, "asks_comparison")]

    def test_scan_reads_the_package(self) -> None:
        """The package scanned holds the reasoner's modules (an empty folder would pass)."""
        assert len(list(OFFLINE.glob("*.py"))) >= 10


def _seen_by_reasoner(question: str, ev: Evidence, monkeypatch: pytest.MonkeyPatch) -> QuestionAsk:
    seen: list[QuestionAsk] = []

    def spy(self: OfflineBackend, q: str, e: Evidence, strategy: str, spec: QuestionAsk) -> Answer:
        seen.append(spec)
        return Answer(text="x")

    monkeypatch.setattr(OfflineBackend, "_answer", spy)
    OfflineBackend().answer(question, ev)
    return seen[0]


def _labelled(ev: Evidence, fy_label: str) -> Evidence:
    items = tuple(i.model_copy(update={"metadata": {"fy_label": fy_label}}) for i in ev.items)
    return ev.model_copy(update={"items": items})


GROWTH = (
    "What is the year-over-year growth in operating income for Acme in FY2022? Answer in percent."
)
AVG3 = "What is Acme's 3-year average capital expenditure as a % of revenue from FY2019 to FY2021?"
HALF = "What was Acme's revenue for the six months ended June 30, 2024, in USD millions?"
START = "What were Zeta Stores' net sales in fiscal 2023?"


class TestReasonerAndJudgeReadOneAsk:
    """The reasoner and the judge see the same asked metric, years and aggregation."""

    @pytest.mark.parametrize(
        ("question", "label", "metric", "aggregate", "agg_years", "sub_annual"),
        [
            (GROWTH, None, "operating_income", "growth", (2021, 2022), ""),
            (AVG3, None, "capex", "avg3", (2019, 2020, 2021), ""),
            (HALF, None, "revenue", "single", (2024,), "six months ended June 30, 2024"),
            (START, "start", "revenue", "single", (2024,), ""),
        ],
        ids=["growth-of-a-named-line", "avg3", "sub-annual", "start-naming-fiscal-year"],
    )
    def test_same_reading(
        self,
        monkeypatch: pytest.MonkeyPatch,
        question: str,
        label: str | None,
        metric: str,
        aggregate: str,
        agg_years: tuple[int, ...],
        sub_annual: str,
    ) -> None:
        """Growth of a named line, a three-year average, a half year and a start-naming filer's
        'fiscal 2023': the reasoner's reading is the judge's, and the judge's expected metric
        and asked year are the reasoner's."""
        ev = evidence("Net sales 10,500 9,800")
        ev = _labelled(ev, label) if label else ev
        ask = _seen_by_reasoner(question, ev, monkeypatch)
        ctx = JudgeAgent(Settings())._context(question, Answer(text="x"), ev)
        assert ask == ctx.intent.ask
        assert (ask.metric, ask.aggregate, ask.agg_years) == (metric, aggregate, agg_years)
        assert ask.sub_annual == sub_annual
        assert ctx.expect.metric == ask.metric
        assert max(ctx.asked) == ask.target_year == agg_years[-1]

    def test_filings_naming_moves_the_year(self) -> None:
        """The filings' own naming is part of the reading: 'fiscal 2023' of a start-naming filer
        is FY2024, of an unknown one FY2023."""
        assert read_intent(START, "start").ask.years == (2024,)
        assert read_intent(START).ask.years == (2023,)

    def test_derived_metric_wins_over_a_named_dimension(self) -> None:
        """'EBITDAR contribution by region' asks for EBITDAR (a metric with a formula of its
        own), not the region's revenue the word 'region' names."""
        q = "Which region had the highest EBITDAR contribution for Acme during FY2022?"
        assert read_intent(q).ask.metric == "ebitdar"


def test_by_how_much_did_it_increase_during_a_year_asks_the_change() -> None:
    """'By how much did X's cash increase during fiscal 2020?' asks the change over the year
    (from the year before's end), never the year-end level."""
    from finqa.lexicon.question_ask import read_ask

    a = read_ask("By how much did Acme's cash and cash equivalents increase during fiscal 2020?")
    assert (a.aggregate, a.agg_years, a.change_form) == ("change", (2019, 2020), "amount")
    assert read_ask("What was Acme's revenue in 2020?").aggregate == "single"
