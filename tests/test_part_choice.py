"""A choice among the parts of one breakdown ('which segment had the highest X'): the lexicon's
reading of the ask, the reasoner's pick from the statement model, the judge's re-reading."""

from __future__ import annotations

import pytest
from _reasoning_data import INCOME, evidence
from finqa.agents.config import Settings
from finqa.agents.judge import JudgeAgent
from finqa.agents.judge.part_choice import check_part_choice
from finqa.agents.reasoning import build_reasoner
from finqa.agents.types import Answer
from finqa.lexicon.breakdowns import Breakdown, best_breakdown, pick, read_breakdowns
from finqa.lexicon.model import StatementFact, StatementPeriod, StatementTable
from finqa.lexicon.part_choice import asked_part_choice
from finqa.lexicon.question_intent import read_intent
from finqa.lexicon.statements import MemoryStatementStore, read_pages

DOC = "ACME_2022_10K"
# the parts add up to the income statement's net revenue (86,392 / 79,474) and operating
# profit (11,512 / 11,162); 'Corporate' is the breakdown's rest
SEGMENTS = """Note 18. Segment Information
Business Segment Information
(in millions)
2022 2021
Net revenue
North 50,000 40,000
South 30,000 28,000
West 6,392 11,474
Total net revenue 86,392 79,474
Operating profit
North 5,000 4,800
South 4,700 4,600
West 2,512 2,262
Corporate (700) (500)
Total operating profit 11,512 11,162
"""
# one segment's own breakdown read as the company's: the parts add up to their own printed
# total (76,392), not to the consolidated net revenue (86,392)
OFF = SEGMENTS.replace("North 50,000", "North 40,000").replace(
    "Total net revenue 86,392", "Total net revenue 76,392"
)
# North and South tie on 2022 revenue (the parts still add up)
TIE = SEGMENTS.replace("North 50,000", "North 30,000").replace("West 6,392", "West 26,392")
# the segments' operating profit leaves unallocated corporate costs out (11,212 of 11,512);
# their revenue adds up to the consolidated net revenue: the table is the company's breakdown
UNALLOCATED = SEGMENTS.replace("Corporate (700) (500)\n", "").replace(
    "Total operating profit 11,512 11,162", "Total segment operating profit 12,212 11,662"
)
PROSE = "Our segments performed well this year across every market we serve."

Q_HIGH = "Which of Acme's business segments had the highest net revenue in FY2022?"
Q_GROWTH = "Which segment of Acme grew revenue the fastest from FY2021 to FY2022, in percent?"
Q_DROP = "Which Acme segment had the biggest drop in year-over-year revenue (percentage basis) in FY2022?"  # fmt: skip
Q_EXCL = "Excluding North, which of Acme's segments had the highest net revenue in FY2022?"
Q_LOW_OP = "Which of Acme's segments had the lowest operating profit in FY2022?"


def _table(
    table_id: str, values: dict[str, float], axis: str = "us-gaap:StatementBusinessSegmentsAxis"
) -> StatementTable:
    """A parts table of FY2022 revenue (in billions) with no total and no income statement."""
    period = StatementPeriod(label="2022", fiscal_year=2022, months=12)
    facts = tuple(
        StatementFact(
            doc_id=DOC, statement="segment", table_id=table_id, label=name, item="revenue",
            period=period, value=v * 1e9, scale=1e6, page=90, row=r, dimensions=((axis, name),),
        )
        for r, (name, v) in enumerate(values.items())
    )  # fmt: skip
    return StatementTable(
        table_id=table_id, doc_id=DOC, statement="segment", pages=(90,), periods=(period,),
        facts=facts,
    )  # fmt: skip


def _store(*pages: tuple[int, str]) -> MemoryStatementStore:
    return MemoryStatementStore(read_pages(DOC, [(50, INCOME), *pages]).tables)


def _ask(question: str, table: str = SEGMENTS) -> Answer:
    store = _store((90, table))
    return build_reasoner(Settings(), statements=store).generate(
        question, evidence(PROSE, doc=DOC, question=question), 1
    )


class TestParse:
    def test_choice_among_parts(self) -> None:
        """'Which of X's business segments had the lowest net revenue' is a choice of a part."""
        c = asked_part_choice("Which of JPM's business segments had the lowest net revenue in 2021 Q1?")  # fmt: skip
        assert c is not None
        assert (c.kind, c.measure, c.operator, c.extreme) == ("segment", "revenue", "level", "lowest")  # fmt: skip

    def test_growth_drop_and_exclusion(self) -> None:
        """A drop on a percentage basis is the lowest growth; 'excluding X' leaves a part out."""
        drop = asked_part_choice(
            "For Acme, which geographic region had the biggest drop in year over year revenues "
            "(on a percentage basis) in FY2023?"
        )
        assert drop is not None
        assert (drop.kind, drop.operator, drop.extreme) == ("geography", "growth", "lowest")
        most = asked_part_choice(
            "From FY21 to FY22, excluding Embedded, in which Acme reporting segment did sales "
            "proportionally increase the most?"
        )
        assert most is not None
        assert (most.operator, most.extreme, most.excluded) == ("growth", "highest", ("Embedded",))  # fmt: skip

    def test_margin_is_a_derived_measure(self) -> None:
        """'the highest operating margin' compares the catalogue's margin, not operating income."""
        c = asked_part_choice("Which of Acme's reportable segments had the highest operating margin in FY2018?")  # fmt: skip
        assert c is not None and c.measure == "operating_margin" and c.operator == "level"

    def test_not_a_choice_among_parts(self) -> None:
        """A figure's 'which segment', a pick of risks, one named part, 'top line': no choice."""
        assert asked_part_choice("Which segment reported revenue of $5 billion in FY2022?") is None
        assert asked_part_choice("Which of the following risks is the most significant for Acme?") is None  # fmt: skip
        assert asked_part_choice("What was the highest revenue of Acme's North segment in FY2022?") is None  # fmt: skip
        assert asked_part_choice("Which Acme product category performed the best (by top line) in FY2024?") is None  # fmt: skip

    def test_typed_intent(self) -> None:
        """The choice is a field of the lexicon's one reading of the question."""
        assert read_intent(Q_HIGH).part_choice == asked_part_choice(Q_HIGH)
        assert read_intent("What was Acme's net revenue in FY2022?").part_choice is None


class TestReasoner:
    def test_highest_part_with_runner_up(self) -> None:
        """The part with the highest figure is named with its figure and the runner-up."""
        a = _ask(Q_HIGH)
        assert a.text.startswith("North.") and "$50,000 million" in a.text
        assert "runner-up was South ($30,000 million)" in a.text
        assert a.calculations and a.calculations[0].result == pytest.approx(50_000)

    def test_growth_and_drop(self) -> None:
        """Growth is each part's own change over the year before, in percent."""
        up = _ask(Q_GROWTH)
        assert up.text.startswith("North.") and "25.0%" in up.text
        down = _ask(Q_DROP)
        assert down.text.startswith("West.") and "-44.3%" in down.text

    def test_change_in_dollars(self) -> None:
        """A decline without a percent word is the change in amount, recorded per part."""
        a = _ask("Which of Acme's segments had the biggest decline in net revenue in FY2022?")
        assert a.text.startswith("West.") and "-$5,082 million" in a.text
        assert any(c.result == pytest.approx(-5_082) for c in a.calculations[1:])

    def test_excluded_part_left_out(self) -> None:
        """A part the question leaves out is not named."""
        a = _ask(Q_EXCL)
        assert a.text.startswith("South.") and "Left out as asked: North" in a.text

    def test_rest_row_that_would_be_the_extreme(self) -> None:
        """A 'Corporate' row lower than every segment leaves the choice unanswered."""
        a = _ask(Q_LOW_OP)
        assert a.abstained and "Corporate" in a.text

    def test_parts_that_do_not_add_up(self) -> None:
        """Parts that miss the printed total (a misread breakdown) name no part."""
        a = _ask(Q_HIGH, OFF)
        assert a.abstained and "do not add up" in a.text

    def test_tie(self) -> None:
        """Two parts with the same figure: no part is named."""
        a = _ask(Q_HIGH, TIE)
        assert a.abstained and "tie" in a.text


class TestWhichBreakdown:
    def test_profit_leaving_unallocated_costs_out(self) -> None:
        """Segment profits that leave unallocated costs out are compared when the same table's
        revenue adds up to the consolidated figure."""
        a = _ask("Which of Acme's segments had the highest operating profit in FY2022?", UNALLOCATED)  # fmt: skip
        assert a.text.startswith("North.") and "$5,000 million" in a.text

    def test_one_table_no_consolidated_figure(self) -> None:
        """With no consolidated figure to check, the one table of parts is read."""
        store = MemoryStatementStore(read_pages(DOC, [(90, SEGMENTS)]).tables)
        a = build_reasoner(Settings(), statements=store).generate(
            Q_HIGH, evidence(PROSE, doc=DOC, question=Q_HIGH), 1
        )
        assert a.text.startswith("North.")

    def test_several_unchecked_tables(self) -> None:
        """Several tables of parts and no consolidated figure to tell the company's: none."""
        north = _table("t1", {"North": 50.0, "South": 30.0})
        south = _table("t2", {"North": 10.0, "South": 30.0})
        store = MemoryStatementStore([north, south])
        choice = asked_part_choice(Q_HIGH)
        assert choice is not None
        found = best_breakdown(read_breakdowns(store, [DOC], choice, 2022), choice)
        assert isinstance(found, str) and "several tables" in found
        one = best_breakdown(read_breakdowns(MemoryStatementStore([north]), [DOC], choice, 2022), choice)  # fmt: skip
        assert isinstance(one, Breakdown) and pick(one, choice).winner is not None

    def test_adjustment_rows_are_no_part(self) -> None:
        """A hedging line or a company-level row printed among the parts is never named."""
        q = "Which of Acme's geographic regions had the lowest revenue in FY2022?"
        rows = {"United States": 50.0, "Europe": 30.0, "Asia Pacific": 6.0,
                "Hedging gains (losses)": 0.2, "Acme-level activities": -1.0}  # fmt: skip
        store = MemoryStatementStore([_table("t1", rows, axis="srt:StatementGeographicalAxis")])
        choice = asked_part_choice(q)
        assert choice is not None
        found = best_breakdown(read_breakdowns(store, [DOC], choice, 2022), choice)
        assert isinstance(found, Breakdown)
        winner = pick(found, choice).winner
        assert winner is not None and winner.name == "Asia Pacific"
        assert {r.name for r in found.rest} == {"Hedging gains (losses)", "Acme-level activities"}


class TestJudge:
    def _check(self, text: str, table: str = SEGMENTS):  # type: ignore[no-untyped-def]
        return check_part_choice(
            _store((90, table)), Q_HIGH, Answer(text=text), evidence(PROSE, doc=DOC), [],
            abstained=False,
        )  # fmt: skip

    def test_the_extreme_part_passes(self) -> None:
        """An answer naming the part the breakdown's figures give passes."""
        check = self._check("North, with net revenue of $50,000 million.")
        assert check is not None and not check.failed and check.expected == "North"

    def test_another_part_fails(self) -> None:
        """An answer naming another part is not accepted, with the part that is."""
        check = self._check("South, with net revenue of $30,000 million.")
        assert check is not None and check.failed and "North" in check.message

    def test_parts_not_adding_up_fail(self) -> None:
        """Where the parts miss the printed total, no named part is accepted."""
        check = self._check("North, with net revenue of $40,000 million.", OFF)
        assert check is not None and check.failed and "add up" in check.message

    def test_agent_rejects_the_wrong_part(self) -> None:
        """The judge agent sends back an answer naming another part than the figures give."""
        judge = JudgeAgent(Settings(), statements=_store((90, SEGMENTS)))
        ev = evidence(SEGMENTS, doc=DOC, question=Q_HIGH)
        good = judge.evaluate(Q_HIGH, Answer(text="North, with $50,000 million."), ev, 1)
        bad = judge.evaluate(Q_HIGH, Answer(text="South, with $30,000 million."), ev, 1)
        assert good.decision == "accept", good.feedback
        assert bad.decision != "accept"


class TestAmongPartsByCondition:
    def test_parts_by_a_condition_never_answered_with_the_company(self) -> None:
        """'Which of X's segments saw operating income decline' picks parts by a condition the
        offline reader does not read: it abstains rather than give the company's change."""
        from finqa.lexicon.part_choice import asks_among_parts

        q = "Which of Acme's reportable segments saw operating income decline in FY2022 compared with FY2021?"  # fmt: skip
        assert asks_among_parts(q) == "segment"
        assert asks_among_parts("What was Acme's operating income in FY2022?") is None
        a = _ask(q)
        assert a.abstained and "segments" in a.text and not a.calculations


class TestReviewGuards:
    def test_a_period_or_verb_ends_the_parts_noun_phrase(self) -> None:
        """'Which of the two years had the largest segment revenue' picks a year, not a
        segment: the kind word must head the noun phrase 'which' opens."""
        from finqa.lexicon.part_choice import asked_part_choice, asks_among_parts

        assert asked_part_choice("Which of the two years had the largest segment revenue for Acme?") is None  # fmt: skip
        assert asks_among_parts("Which quarter of FY2022 saw the highest segment revenue?") is None
        assert asked_part_choice("Which of Acme's business segments had the lowest revenue in FY2022?") is not None  # fmt: skip
