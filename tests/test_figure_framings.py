"""A computable question framed as a yes/no, 'how fast', 'what share' or after an opening clause
is answered by its figure (the verdict from the figure's own sign or movement); a pick among parts
or a share of a whole the catalogue does not compute keeps its abstention."""

from __future__ import annotations

from _reasoning_data import BALANCE, CASH_FLOW, DEBT_BALANCE, INCOME, evidence
from finqa.agents.config import Settings
from finqa.agents.reasoning import build_reasoner
from finqa.agents.reasoning.offline import figure_asked
from finqa.lexicon import answer_form, intent
from finqa.lexicon.question_ask import read_ask


def ask(question: str, *texts: str):  # type: ignore[no-untyped-def]
    return build_reasoner(Settings()).generate(
        question, evidence(*texts, doc="ACME_2022_10K", question=question), 1
    )


class TestFramingWords:
    def test_movement_verbs(self) -> None:
        """'go up' and 'rose' ask about a rise, 'fell' about a fall; 'weaken' about a fall of the
        current ratio and nothing without an item it reads by; the idioms 'give rise to' and
        'fall within' ask about neither."""
        assert intent.asked_direction("Did Acme's long-term debt go up during 2019?") == (True, False)  # fmt: skip
        assert intent.asked_direction("Acme's revenue rose in FY2018.") == (True, False)
        assert intent.asked_direction("Did Acme's liquidity weaken during 2017?", "current_ratio") == (False, True)  # fmt: skip
        assert intent.asked_direction("Did Acme's liquidity weaken during 2017?") == (False, False)
        assert intent.asked_direction("Did Acme's total debt fall over 2018?") == (False, True)
        assert intent.asked_direction("Did the sale give rise to a gain?") == (False, False)
        assert intent.asked_direction("Does the lease fall within the scope of ASC 842?") == (False, False)  # fmt: skip

    def test_yes_no_after_an_opening_clause(self) -> None:
        """An auxiliary verb after the clause that opens the question makes it a yes/no, as does
        'Would you describe ...'; a clause opened by a question word does not."""
        assert answer_form.is_yes_no("At the end of fiscal 2019, were Acme's current liabilities larger than its current assets?")  # fmt: skip
        assert answer_form.is_yes_no("Judging by the current ratio, did Acme's liquidity weaken during 2017?")  # fmt: skip
        assert answer_form.is_yes_no("Would you describe Acme as a capital-intensive business?")
        assert not answer_form.is_yes_no("In which year, did revenue peak?")
        assert not answer_form.is_yes_no("As of FY2021, how much did Acme expect to pay?")

    def test_figure_asked_in_other_words(self) -> None:
        """'How fast did X grow', 'Give the current ratio' and a figure named first after an
        opening clause ask for a figure; 'How did X describe its segments' does not."""
        assert intent.asks_compute("How fast did Acme's operating income grow in 2017?")
        assert intent.asks_compute("Were current liabilities larger? Give the current ratio.")
        assert intent.asks_compute(
            "Using net income and average total assets, what return on assets did Acme earn in 2017?"
        )
        assert not intent.asks_compute("How did Acme describe its segments?")

    def test_share_computes_only_a_share(self) -> None:
        """'What percentage of revenue did it spend on capex' asks a computed share; 'what share
        of premium revenue was consumed by benefit costs' reads only revenue, an amount, and is
        no figure to compute."""
        capex = read_ask("What percentage of Acme's fiscal 2019 revenue did it spend on capital expenditures?")  # fmt: skip
        assert capex.computes and capex.recipe is not None and capex.recipe.startswith("pctrev:")
        benefit = read_ask("What share of Acme's 2020 premium revenue was consumed by benefit costs?")  # fmt: skip
        assert benefit.recipe == "revenue" and not benefit.computes


class TestFigureRoute:
    def test_yes_no_movement_and_by_how_much(self) -> None:
        """'Did X grow in 2022, and by how much?' is answered by the movement: No, and the
        decline from 11,616 to 10,811."""
        a = ask("Did Acme's cash flow from operations grow in 2022, and by how much?", CASH_FLOW)
        assert not a.abstained and a.text.startswith("No.")
        assert "-$805 million" in a.text

    def test_go_up_during_a_year(self) -> None:
        """'Did X go up during 2023?' is the year's movement of the balance: Yes, by $2,000
        million."""
        a = ask("Did Acme's long-term debt go up during 2023, and by how much?", DEBT_BALANCE)
        assert not a.abstained and a.text.startswith("Yes.")
        assert "$2,000 million" in a.text

    def test_weaken_after_an_opening_clause(self) -> None:
        """'Judging by the current ratio, did liquidity weaken during 2022?': the current ratio
        rose from 1.25 to 1.40, so No."""
        a = ask(
            "Judging by the current ratio, did Acme's short-term liquidity weaken during 2022?",
            BALANCE,
        )
        assert not a.abstained and a.text.startswith("No.")
        assert "1.25" in a.text and "1.40" in a.text

    def test_how_fast_in_percent(self) -> None:
        """'How fast did operating income grow, in percent?' is its growth rate, 3.1%."""
        a = ask(
            "How fast did Acme's operating income grow in 2022 compared with 2021, in percent?",
            INCOME,
        )
        assert not a.abstained and "3.1%" in a.text

    def test_share_of_revenue_spent(self) -> None:
        """'What percentage of revenue did it spend on capital expenditures' is capex over
        revenue, 6.0%."""
        a = ask(
            "What percentage of Acme's fiscal 2022 revenue did it spend on capital expenditures?",
            INCOME,
            CASH_FLOW,
        )
        assert not a.abstained and "6.0" in a.text

    def test_would_you_describe_a_judgement(self) -> None:
        """'Would you describe X as capital-intensive?' is the catalogue's judgement of capex
        over revenue: 6.0% is below 8%, so No."""
        a = ask(
            "Would you describe Acme as a capital-intensive business based on its fiscal 2022 figures?",
            INCOME,
            CASH_FLOW,
        )
        assert not a.abstained and a.text.startswith("No.")

    def test_pick_among_parts_is_not_the_total(self) -> None:
        """'Which region had the biggest drop in revenue' is a pick among parts: the total's
        movement is no figure for it; 'How fast did revenue grow' is."""
        pick = read_ask(
            "For Acme, which geographic region had the biggest drop in Q2 2023 year over year "
            "revenues (on a percentage basis)?"
        )
        assert pick.aggregate == "growth" and not figure_asked(pick)
        assert figure_asked(read_ask("How fast did Acme's revenue grow in 2022, in percent?"))

    def test_levels_of_a_summed_amount_are_recorded(self) -> None:
        """'Did total debt rise or fall?' states each year's total (the sum of the debt lines):
        each is a recorded calculation, $40,000 million and $43,000 million."""
        a = ask("Did Acme's total debt rise or fall over 2023?", DEBT_BALANCE)
        assert not a.abstained and "increased from $40,000 million" in a.text
        results = {round(c.result) for c in a.calculations}
        assert {3000, 40000, 43000} <= results


class TestMovementPeriods:
    def test_flow_movement_over_a_quarter_is_year_over_year(self) -> None:
        """'Did the operating margin weaken in the quarter ended ... compared with the prior-year
        quarter?' sets the quarter against the same quarter a year earlier (a margin is read from
        flows); a current ratio's movement over a half starts at its opening balance instead."""
        margin = read_ask(
            "Did Acme's operating margin weaken in the quarter ended September 30, 2022 compared "
            "with the prior-year quarter?"
        )
        assert margin.aggregate == "trend" and margin.periods is not None
        assert [p.fiscal_year for p in margin.periods] == [2021, 2022]
        # a line item that is itself a flow (net income), not only a ratio of flows
        line = read_ask(
            "Did Acme's net income increase in the first quarter of fiscal 2023 versus the "
            "prior-year quarter?"
        )
        assert line.periods is not None
        assert [(p.fiscal_year, p.quarter) for p in line.periods] == [(2022, 1), (2023, 1)]
        ratio = read_ask("Did Acme's current ratio improve in the first half of 2023?")
        assert ratio.aggregate == "trend" and ratio.periods is not None
        assert len(ratio.periods) == 1


class TestPremise:
    def test_the_ask_after_a_stated_premise(self) -> None:
        """'X's net sales fell in 2022. Did its operating income also fall?' asks operating
        income: the premise's line is context. A premise the ask only points back to ('Did it
        also fall?') still names the line; an instruction preamble stays out of the way."""
        from finqa.lexicon.answer_form import after_premise

        q = "Acme's net sales fell in fiscal 2022. Did its operating income also fall?"
        assert after_premise(q) == "Did its operating income also fall?"
        assert read_ask(q).recipe == "operating_income"
        back = "Acme's net sales fell in fiscal 2022. Did they also fall in 2021?"
        assert read_ask(back).recipe == "revenue"
        one = "What was Acme's U.S. Revenue in 2022? Answer in USD millions."
        assert after_premise(one) == one
