"""The asked measure read from the question's own phrase (issue #25: an answer to another
question, computed from a line the question names in passing, was accepted because the judge
read the question through the same catalogue match as the reasoner): `lexicon.asked_measure`
reads the noun phrase the ask governs, and an item its head noun's nature or its measure words
rule out is not what is asked; the judge refuses such an answer's figures and the reasoner
abstains rather than give them."""

from __future__ import annotations

from _reasoning_data import evidence
from finqa.agents.config import Settings
from finqa.agents.judge import JudgeAgent
from finqa.agents.reasoning import build_reasoner
from finqa.agents.reasoning.offline import OfflineBackend
from finqa.lexicon.asked_measure import (
    answer_fit,
    asked_measure,
    either_or_options,
    measure_fit,
    ratio_asked,
    side_words,
    stated_measure,
)

GROSS_INTEREST = (
    "What was Zentro's gross interest expense in FY2024 (interest on debt plus interest on "
    "finance leases)?"
)
TOTAL_DEBT = "What was Zentro's total debt at the end of FY2024? Answer in USD millions."

DOC = "ZENTRO_2024_10K"
BALANCE = """ZENTRO CORP.
CONSOLIDATED BALANCE SHEETS
(In millions)
December 31, 2024 December 31, 2023
Cash and cash equivalents $ 4,100 $ 3,900
Total current assets 6,300 5,950
Total assets $ 9,700 $ 9,250
Short-term borrowings 1,000 900
Total current liabilities 3,790 3,430
Long-term debt 2,600 2,750
Total liabilities 6,800 6,560
"""


class TestAskedPhrase:
    def test_phrase_head_and_words(self) -> None:
        """The phrase after the ask's frame, without whose figure it is or the period."""
        asked = asked_measure(GROSS_INTEREST)
        assert asked is not None
        assert asked.phrase == "gross interest expense"
        assert asked.words == ("interest", "expense")
        assert "expense" in asked.natures and "liability" not in asked.natures

    def test_operator_read_through(self) -> None:
        """'the year-over-year growth in X' asks about X's line."""
        asked = asked_measure(
            "What was the year-over-year growth in Zentro's operating income in 2024?"
        )
        assert asked is not None and asked.words == ("operating", "income")

    def test_spelled_item_decides_the_nature(self) -> None:
        """'deferred revenue' is a liability, not a revenue: the longest catalogue spelling
        the phrase ends with decides."""
        q = "What was the amount of Zentro's deferred revenue at the end of fiscal 2024?"
        fit = measure_fit(q, "deferred_revenue")
        assert fit is not None and fit.fits
        assert not measure_fit(q, "revenue").fits  # type: ignore[union-attr]

    def test_ratio_and_unread_phrases_are_not_judged(self) -> None:
        """A phrase that is the numerator of a ratio, or no phrase at all, judges nothing."""
        assert (
            asked_measure("Did Zentro's wages expense as a percent of net sales increase in 2024?")
            is None
        )
        assert measure_fit("Is Zentro subject to cyclicality?", "revenue") is None
        assert measure_fit(GROSS_INTEREST, None) is None


class TestFit:
    def test_both_ways(self) -> None:
        """The same phrase admits one item and refuses another: the verdict can come out
        either way."""
        assert measure_fit(GROSS_INTEREST, "interest_expense").fits  # type: ignore[union-attr]
        debt = measure_fit(GROSS_INTEREST, "total_debt")
        assert debt is not None and not debt.fits
        assert debt.nature == "liability" and "interest" in debt.missing

    def test_growth_of_another_line(self) -> None:
        q = "By how much did Zentro's operating income grow in fiscal 2024?"
        assert measure_fit(q, "operating_income").fits  # type: ignore[union-attr]
        assert not measure_fit(q, "revenue_growth").fits  # type: ignore[union-attr]

    def test_narrowed_line(self) -> None:
        """Income available for common shareholders is not net income."""
        q = "What was income available for common shareholders for Zentro in 2024?"
        assert measure_fit(q, "net_income_common").fits  # type: ignore[union-attr]
        assert not measure_fit(q, "net_income").fits  # type: ignore[union-attr]

    def test_premise_is_not_the_ask(self) -> None:
        q = (
            "Zentro's International net sales fell in fiscal 2024. Did its segment operating "
            "income also fall?"
        )
        assert not measure_fit(q, "revenue").fits  # type: ignore[union-attr]
        assert measure_fit(q, "segment_operating_income").fits  # type: ignore[union-attr]

    def test_ask_referring_to_its_premise(self) -> None:
        """'What was the amount?' asks the measure its premise states; an ask naming its own
        measure keeps it, and a referring ask with no premise judges nothing."""
        q = (
            "Zentro's provision for credit losses was negative in the third quarter of 2024. "
            "What was the amount, and what does it mean for earnings?"
        )
        assert not measure_fit(q, "net_income").fits  # type: ignore[union-attr]
        assert measure_fit(q, "provision_for_credit_losses").fits  # type: ignore[union-attr]
        own = "Zentro's revenue fell in 2024. What was its net income in 2024?"
        assert measure_fit(own, "net_income").fits  # type: ignore[union-attr]
        assert measure_fit("What was the amount?", "net_income") is None


class TestStatedMeasure:
    def test_answer_leads(self) -> None:
        assert stated_measure("FY2022 inventory turnover ratio: 2.72 [S1].") == "inventory_turnover"
        assert (
            stated_measure("Fiscal 2016 (ended Jun 30, 2016) cost of goods sold: $32,780 million")
            == "cogs"
        )
        assert (
            stated_measure("Yes. Working capital as of December 31, 2022: $2,278 million [S1].")
            == "working_capital"
        )
        assert stated_measure("$20 billion. The filing states the gain.") is None


class TestAgents:
    def test_judge_refuses_another_measure_and_accepts_its_own(self) -> None:
        """Total debt, read and computed right, answers the total debt question and not the
        gross interest expense one."""
        settings = Settings()
        ev = evidence(BALANCE, question=TOTAL_DEBT, doc=DOC)
        answer = build_reasoner(settings).generate(TOTAL_DEBT, ev, 1)
        assert not answer.abstained and stated_measure(answer.text) == "total_debt"
        own = JudgeAgent(settings).evaluate(TOTAL_DEBT, answer, ev, 1)
        assert own.decision == "accept"
        other = JudgeAgent(settings).evaluate(GROSS_INTEREST, answer, ev, 1)
        codes = {p.get("code") for p in other.details.get("answer_problems") or []}
        assert "other_measure" in codes
        assert other.decision != "accept"

    def test_reasoner_abstains_rather_than_answer_another_measure(self, monkeypatch) -> None:
        """Whatever path of the offline reasoner reaches a figure, one whose lead states a
        measure the asked phrase rules out becomes an abstention naming the phrase; the same
        figure for its own question is kept."""
        settings = Settings()
        reasoner = build_reasoner(settings)
        ev = evidence(BALANCE, question=TOTAL_DEBT, doc=DOC)
        debt = reasoner.generate(TOTAL_DEBT, ev, 1)
        assert not debt.abstained
        monkeypatch.setattr(OfflineBackend, "_answer", lambda self, q, e, s, spec: debt)
        answer = reasoner.generate(
            GROSS_INTEREST, evidence(BALANCE, question=GROSS_INTEREST, doc=DOC), 1
        )
        assert answer.abstained
        assert "gross interest expense" in answer.missing
        assert "total debt" in answer.text and "liability" in answer.text
        kept = reasoner.generate(TOTAL_DEBT, ev, 1)
        assert not kept.abstained


class TestAnswerFit:
    def test_operand_named_before_the_asked_ratio(self) -> None:
        """An answer naming an operand before the asked ratio still gives the ratio; one naming
        only another measure does not."""
        q = "What was Zentro's current ratio at the end of FY2024?"
        said = "Total current assets were $7,453 million and the current ratio is 1.44 [S1]."
        assert stated_measure(said) == "total_current_assets"
        assert answer_fit(q, said) is None
        misfit = answer_fit(q, "Total current assets were $7,453 million [S1].")
        assert misfit is not None and misfit.metric == "total_current_assets"


LEASES = """ZENTRO CORP.
CONSOLIDATED BALANCE SHEETS
(In millions)
December 31, 2024 December 31, 2023
Total current assets 6,300 5,950
Total assets $ 9,700 $ 9,250
Current portion of operating lease liabilities 693 660
Total current liabilities 3,790 3,430
Long-term operating lease liabilities 2,012 2,138
Long-term debt 2,600 2,750
Total shareholders' equity 2,900 2,690
"""
Q_LEASES_TOTAL = (
    "How much did Zentro carry in total operating lease liabilities on its balance sheet at the "
    "end of FY2024?"
)
Q_LEASES_LONG = "What were Zentro's long-term operating lease liabilities at the end of FY2024?"


def _judge(question: str, text: str, *pages: str):  # type: ignore[no-untyped-def]
    from finqa.agents.types import Answer

    ev = evidence(*pages, question=question, doc=DOC)
    return JudgeAgent(Settings()).evaluate(question, Answer(text=text), ev, 1)


def _codes(v) -> set[str]:  # type: ignore[no-untyped-def]
    return {p.get("code") for p in v.details.get("answer_problems") or []}


class TestSidePart:
    READ = (
        "Operating lease liabilities as of December 31, 2024: $2,012 million [S1]. Read from the "
        "line 'Long-term operating lease liabilities 2,012 2,138' [S1] (amounts in USD "
        "millions). Answer: $2,012 million."
    )

    def test_words(self) -> None:
        """A side word the question and the item's own spellings do not say."""
        assert side_words(
            "Long-term operating lease liabilities", Q_LEASES_TOTAL, "operating_lease_liabilities"
        ) == ("long term",)
        assert (
            side_words("Long-term debt", "What was Zentro's long-term debt?", "long_term_debt")
            == ()
        )
        assert (
            side_words(
                "Total current liabilities",
                "What were total current liabilities?",
                "total_current_liabilities",
            )
            == ()
        )

    def test_one_side_for_the_whole_refused_and_the_side_asked_accepted(self) -> None:
        """The long-term line answers the long-term question, not the total one."""
        whole = _judge(Q_LEASES_TOTAL, self.READ, LEASES)
        assert "part_side" in _codes(whole) and whole.decision != "accept"
        side = _judge(Q_LEASES_LONG, self.READ, LEASES)
        assert "part_side" not in _codes(side)


class TestSidePartOfACalculation:
    def test_one_line_read_refused_two_lines_summed_not(self) -> None:
        """A recorded calculation that reads one side's line answers the side; one that sums
        both sides answers the whole."""
        from finqa.agents.types import Answer, Calculation, Operand

        def judged(*lines: tuple[str, float]):  # type: ignore[no-untyped-def]
            ops = tuple(
                Operand(name=f"x{i}", value=v, scale=1e6, source_id="S1", text=t)
                for i, (t, v) in enumerate(lines)
            )
            total = sum(v for _t, v in lines)
            calc = Calculation(
                expression=" + ".join(o.name for o in ops), operands=ops, result=total * 1e6
            )
            text = (
                f"Operating lease liabilities as of December 31, 2024: ${total:,.0f} million [S1]."
            )
            ev = evidence(LEASES, question=Q_LEASES_TOTAL, doc=DOC)
            answer = Answer(text=text, calculations=(calc,))
            return JudgeAgent(Settings()).evaluate(Q_LEASES_TOTAL, answer, ev, 1)

        one = judged(("Long-term operating lease liabilities 2,012 2,138", 2012))
        assert "part_side" in _codes(one)
        both = judged(
            ("Current portion of operating lease liabilities 693 660", 693),
            ("Long-term operating lease liabilities 2,012 2,138", 2012),
        )
        assert "part_side" not in _codes(both)


class TestRatioAsked:
    Q = (
        "What was Zentro's total debt (long-term debt only) relative to total shareholders' "
        "equity at the end of FY2024?"
    )

    def test_reading(self) -> None:
        assert ratio_asked(self.Q) == "relative to"
        assert ratio_asked(TOTAL_DEBT) is None

    def test_amount_refused_ratio_not(self) -> None:
        amount = _judge(
            self.Q, "Long-term debt as of December 31, 2024: $2,600 million [S1].", LEASES
        )
        assert "other_measure" in _codes(amount) and amount.decision != "accept"
        ratio = _judge(
            self.Q,
            "Debt to equity as of December 31, 2024: 0.90x [S1]. Computed from long-term debt "
            "2,600 [S1] and total shareholders' equity 2,900 [S1].",
            LEASES,
        )
        assert "other_measure" not in _codes(ratio)


class TestEitherOr:
    def test_options(self) -> None:
        assert either_or_options(
            "Did Zentro's deferred income taxes add to or reduce its provision in FY2024?"
        ) == ("add", "reduce")
        assert either_or_options(
            "Did Zentro record an income tax benefit or an income tax provision for 2024?"
        ) == ("benefit", "provision")
        assert either_or_options("Did Zentro grow revenue in 2024?") is None

    def test_yes_refused_option_accepted(self) -> None:
        q = "Did Zentro's long-term debt rise or fall in FY2024?"
        yes = _judge(q, "Yes. Long-term debt was $2,600 million at December 31, 2024 [S1].", LEASES)
        assert "either_or" in _codes(yes) and yes.decision != "accept"
        named = _judge(
            q,
            "Long-term debt fell from $2,750 million at December 31, 2023 to $2,600 million at "
            "December 31, 2024 [S1].",
            LEASES,
        )
        assert "either_or" not in _codes(named)
        figure = _judge(q, "FY2024 long-term debt: $2,600 million [S1].", LEASES)
        assert "either_or" in _codes(figure)


class TestEarlierComparison:
    def test_a_change_of_an_earlier_year_is_no_fact_of_the_asked_one(self) -> None:
        from finqa.lexicon.hedges import period_fault

        s = "Gross margin percentage decreased in 2016 compared to 2015 due primarily to currency."
        assert period_fault(s, [2017]) is not None
        assert period_fault(s, [2016]) is None
        assert period_fault(s, []) is None
        assert period_fault("Sales rose from 2023 to 2024 on volume.", [2024]) is None


class TestAdjustedPart:
    def test_setting_aside_an_effect_is_an_adjusted_measure(self) -> None:
        """A part's reported growth does not answer its growth with an effect set aside."""
        from finqa.lexicon.intent import asks_adjusted

        assert asks_adjusted("Setting aside the currency effect, would sales have grown?")
        assert not asks_adjusted("Did the segment's net sales grow in fiscal 2016?")


INCOME = """ZENTRO CORP.
CONSOLIDATED STATEMENTS OF OPERATIONS
(In millions)
Year Ended December 31, 2024 2023
Revenue $ 9,000 $ 8,300
Restructuring charges (credits) (34) 254
Operating income 2,000 1,700
Income before income taxes 1,900 1,600
Provision for income taxes 380 400
Net income 1,520 1,200
"""


class TestRatioForm:
    def test_reading(self) -> None:
        from finqa.lexicon.asked_measure import asks_ratio_form

        assert asks_ratio_form(
            "What was Zentro's restructuring charge as a percentage of revenue in 2024?"
        )
        assert asks_ratio_form("How did revenue compare with 2023, in percentage terms?")
        assert asks_ratio_form("What share of revenue came from services in 2024?")
        assert not asks_ratio_form("What was Zentro's revenue in 2024?")
        assert not asks_ratio_form("By how much did Zentro's revenue grow in 2024?")

    def test_amount_refused_percent_accepted(self) -> None:
        q = "How did Zentro's revenue in 2024 compare with 2023, in percentage terms?"
        amount = _judge(
            q,
            "Revenue increased from $8,300 million in FY2023 to $9,000 million in FY2024. Change "
            "in revenue: $700 million [S1].",
            INCOME,
        )
        assert "other_measure" in _codes(amount) and amount.decision != "accept"
        rate = _judge(
            q,
            "Revenue grew 8.4% from $8,300 million in FY2023 to $9,000 million in FY2024 [S1].",
            INCOME,
        )
        assert "other_measure" not in _codes(rate)


class TestEffectAsked:
    Q = "Did restructuring reduce Zentro's operating income in 2024?"

    def test_reading(self) -> None:
        from finqa.lexicon.asked_measure import effect_asked

        assert effect_asked(self.Q) == ("restructuring", "Zentro's operating income in 2024")
        assert effect_asked("Did Zentro's revenue increase in 2024?") is None

    def test_own_movement_refused_effect_accepted(self) -> None:
        moved = _judge(
            self.Q,
            "Yes. The restructuring costs decreased from $254 million in FY2023 to -$34 million "
            "in FY2024 [S1].",
            INCOME,
        )
        assert "effect_not_answered" in _codes(moved) and moved.decision != "accept"
        effect = _judge(
            self.Q,
            "No. The restructuring line was a credit of $34 million in FY2024 [S1], which added "
            "to operating income rather than reducing it.",
            INCOME,
        )
        assert "effect_not_answered" not in _codes(effect)


class TestPartMeasure:
    def test_frames_and_unnamed_measure(self) -> None:
        from finqa.lexicon.asked_measure import unnamed_measure

        q = "Revenue fell in 2024. What happened to the segment's operating margin?"
        asked = asked_measure(q)
        assert asked is not None and asked.phrase == "operating margin"
        part = "what was that segment's operating margin in FY2024?"
        assert unnamed_measure(part, "Revenue growth of the segment for FY2024 was -1.5%.") == (
            "operating margin"
        )
        assert unnamed_measure(part, "The operating margin of the segment was 9.1%.") is None

    def test_second_part_of_another_measure_is_not_answered(self) -> None:
        """A second figure part is addressed only by a figure of its own measure, not by any
        figure of its year; the first part, answered, stays addressed."""
        q = (
            "By how much in percentage terms did Zentro's revenue grow in FY2024, and what was "
            "its operating margin in FY2024?"
        )
        v = _judge(
            q,
            "The growth in revenue of Zentro for FY2024 was 8.4% [S1], computed from its own "
            "figures: revenue FY2024 $9,000 million; revenue FY2023 $8,300 million. Answer: 8.4%.",
            INCOME,
        )
        assert v.decision != "accept"
        first, second = v.details["facets"][:2]
        assert first["addressed"]
        assert not second["addressed"] and "operating margin" in second["how"]


class TestYearsAsked:
    Q = "Compute Zentro's effective tax rate for FY2024 and FY2023."

    def test_request_is_a_part_with_each_year(self) -> None:
        from finqa.lexicon.question_parts import question_parts

        (part,) = question_parts(self.Q).parts
        assert part.form == "compare" and part.years == (2023, 2024)

    def test_one_year_of_two_is_not_accepted(self) -> None:
        one = _judge(self.Q, "FY2024 effective tax rate: 20.0% (380 / 1,900) [S1].", INCOME)
        assert "part_dropped" in _codes(one) and one.decision != "accept"
        both = _judge(
            self.Q,
            "FY2024 effective tax rate: 20.0% (380 / 1,900); FY2023: 25.0% (400 / 1,600) [S1].",
            INCOME,
        )
        assert "part_dropped" not in _codes(both)


class TestOnePartForParts:
    Q = (
        "What were Zentro's total operating lease liabilities at the end of FY2024, counting "
        "both the current portion of operating lease liabilities and long-term operating lease "
        "liabilities?"
    )

    def test_one_row_refused_sum_not(self) -> None:
        one = _judge(
            self.Q,
            "Operating lease liabilities as of December 31, 2024: $2,012 million [S1]. Read from "
            "the line 'Long-term operating lease liabilities 2,012 2,138' [S1].",
            LEASES,
        )
        assert "one_part" in _codes(one) and one.decision != "accept"
        both = _judge(
            self.Q,
            "Operating lease liabilities as of December 31, 2024: $2,705 million [S1]. Computed "
            "by finqa as 693 + 2,012 from the current portion 693 [S1] and the long-term line "
            "2,012 [S1].",
            LEASES,
        )
        assert "one_part" not in _codes(both)


class TestAskJoinedByHowMuch:
    def test_cause_and_amount_are_two_parts(self) -> None:
        from finqa.lexicon.question_parts import question_parts

        parts = question_parts(
            "Zentro's net income fell in 2024. What drove the decline, and by how much did net "
            "income drop?"
        ).parts
        assert [p.form for p in parts] == ["explanation", "figure"]


class TestEachYearItsOwnFigure:
    """'for FY2024 and for FY2023' asks one figure of the asked kind for each year: a margin's
    operands listed for a year are not that year's margin."""

    Q = "Compute Zentro's operating margin for 2024 and for 2023."

    def test_read_as_each_year(self) -> None:
        from finqa.lexicon.question_parts import question_parts

        (part,) = question_parts(self.Q).parts
        assert part.form == "compare" and part.years == (2023, 2024)

    def test_operands_of_a_year_are_not_its_margin(self) -> None:
        one = _judge(
            self.Q,
            "The operating margin of Zentro for FY2024 was 22.2% [S1], computed from its own "
            "figures: operating income FY2024 $2,000 million; revenue FY2024 $9,000 million; "
            "operating income FY2023 $1,700 million; revenue FY2023 $8,300 million.",
            INCOME,
        )
        facets = {f["period"]: f for f in one.details["facets"]}
        assert not facets[2023]["addressed"] and one.decision != "accept"
        both = _judge(
            self.Q,
            "Operating margin FY2024: 22.2% (2,000 / 9,000) [S1]; FY2023: 20.5% (1,700 / 8,300) "
            "[S1].",
            INCOME,
        )
        assert all(f["addressed"] for f in both.details["facets"])


class TestMovementPart:
    Q = (
        "How much revenue did Zentro report in FY2024, and how much did that figure increase "
        "during the year?"
    )

    def test_a_level_is_no_movement(self) -> None:
        level = _judge(
            self.Q,
            "FY2024 revenue: $9,000 million [S1]. Read from the line 'Revenue $ 9,000 $ 8,300' "
            "[S1] (amounts in USD millions). Answer: $9,000 million.",
            INCOME,
        )
        assert level.decision != "accept"
        second = level.details["facets"][1]
        assert not second["addressed"] and "movement" in second["how"]
        moved = _judge(
            self.Q,
            "FY2024 revenue: $9,000 million [S1]. It increased by $700 million from $8,300 "
            "million in FY2023 [S1].",
            INCOME,
        )
        assert moved.details["facets"][1]["addressed"] and moved.decision == "accept"


class TestContribution:
    def test_the_line_acted_on_is_not_the_contribution(self) -> None:
        q = (
            "What was the net contribution of unallocated items to Zentro's 2024 consolidated "
            "operating profit?"
        )
        fit = answer_fit(q, "FY2024 operating income: $2,000 million [S1].")
        assert fit is not None and not fit.fits and "acts on" in fit.reason
        assert answer_fit(q, "Unallocated items, net FY2024: $806 million [S1].") is None
        plain = "What was Zentro's 2024 consolidated operating profit?"
        assert answer_fit(plain, "FY2024 operating income: $2,000 million [S1].") is None


class TestPerShareDividend:
    def test_rate_per_share_is_not_cash_paid(self) -> None:
        from finqa.lexicon.question_ask import read_ask

        for q in (
            "By what percentage did Zentro's dividends declared per common share change in 2024?",
            "Did Zentro raise its quarterly common stock dividend during 2024?",
        ):
            assert read_ask(q).metric == "dividends_per_share"
        assert read_ask("How much did Zentro pay in dividends in 2024?").metric == "dividends_paid"


class TestBothSidesNamed:
    Q = (
        "What were Zentro's total operating lease liabilities, current and long-term combined, "
        "at the end of FY2024?"
    )

    def test_sides_read(self) -> None:
        from finqa.lexicon.components import side_classes

        assert side_classes(self.Q) == {"current", "noncurrent"}
        assert side_classes("Long-term operating lease liabilities") == {"noncurrent"}
        assert side_classes("Deferred revenue, non-current") == {"noncurrent"}
        assert side_classes("Total operating lease liabilities") == frozenset()

    def test_one_side_for_both_refused(self) -> None:
        """The question names the two sides as its whole: the long-term line alone is one
        side, whichever catalogue item the question was read as."""
        one = _judge(self.Q, TestSidePart.READ, LEASES)
        assert "part_side" in _codes(one) and one.decision != "accept"


class TestOpenMovement:
    def test_one_years_level_is_no_movement(self) -> None:
        q = "What happened to Zentro's operating income between 2023 and 2024?"
        level = _judge(
            q,
            "FY2024 operating income: $2,000 million [S1]. Read from the line 'Operating "
            "income 2,000 1,700' [S1]. Answer: $2,000 million.",
            INCOME,
        )
        assert not level.details["facets"][0]["addressed"] and level.decision != "accept"
        moved = _judge(
            q,
            "Operating income increased by $300 million, from $1,700 million in 2023 to $2,000 "
            "million in 2024 [S1].",
            INCOME,
        )
        assert moved.details["facets"][0]["addressed"]


def test_which_figures_were_read_is_no_verdict() -> None:
    """'not the consolidated figures' says which figures an answer read, not a No."""
    from finqa.lexicon.intent import states_verdict

    assert not states_verdict("The margin was 10.4%, from the segment's own figures; not the "
                              "consolidated figures.")  # fmt: skip
    assert states_verdict("Revenue did not increase in 2024.")


def test_part_item_is_read_from_the_ask_before_the_premise() -> None:
    from finqa.lexicon.dimension_question import asked_item

    q = (
        "Zentro's North America segment grew EBIT 18% in fiscal 2024. What share of North "
        "America's fiscal 2024 revenues came from sales Direct to Consumer?"
    )
    assert asked_item(q) == "revenue"
    assert asked_item("What was the EBIT of Zentro's North America segment in 2024?") == "ebit"


class TestPerShare:
    Q = "Did Zentro raise its per-share cash dividend in 2024?"

    def test_totals_do_not_answer_a_per_share_ask(self) -> None:
        from finqa.lexicon.asked_measure import asks_per_share

        assert asks_per_share(self.Q) and not asks_per_share(
            "How much did Zentro pay in dividends?"
        )
        total = _judge(
            self.Q,
            "Yes. The cash dividends paid increased from $365 million in FY2023 to $367 million "
            "in FY2024 [S1].",
            CASH_DIVIDENDS,
        )
        assert "other_measure" in _codes(total) and total.decision != "accept"
        rate = _judge(
            self.Q,
            "No. Zentro paid $0.47 per share in 2024, the same as in 2023 [S1].",
            CASH_DIVIDENDS,
        )
        assert "other_measure" not in _codes(rate)


CASH_DIVIDENDS = """ZENTRO CORP.
In 2024 and 2023, Zentro paid cash dividends of $0.47 per share, or $367 million and $365 million.
CONSOLIDATED STATEMENTS OF CASH FLOWS
(In millions)
Year Ended December 31, 2024 2023
Dividends paid (367) (365)
"""


class TestAvailableToCommon:
    Q = "How much 2024 net income was available to Zentro's common shareholders?"
    PAGE = """ZENTRO CORP.
CONSOLIDATED STATEMENTS OF INCOME
(In millions)
Year Ended December 31, 2024 2023
Net income 3,640 640
Net income attributable to noncontrolling interest 8 6
Net income attributable to Zentro 3,632 634
Preferred dividends 180 900
Net income attributable to common shareholders $ 3,452 $ (266)
"""

    def test_read_as_the_amount_after_preferred_dividends(self) -> None:
        from finqa.lexicon.question_ask import read_ask

        assert read_ask(self.Q).metric == "net_income_common"
        assert read_ask("What was Zentro's net income in 2024?").metric == "net_income"

    def test_reasoner_answers_after_preferred_dividends(self) -> None:
        settings = Settings()
        ev = evidence(self.PAGE, question=self.Q, doc=DOC)
        answer = build_reasoner(settings).generate(self.Q, ev, 1)
        assert "3,452" in answer.text and "$3,632 million" not in answer.text


def test_how_many_dollars_of_a_whole_asks_that_whole() -> None:
    """'How many dollars of the equity earnings X recognized came from Y' asks equity earnings:
    the company's net income is no answer to it."""
    from finqa.lexicon.asked_measure import answer_fit

    q = "Roughly how many dollars of the equity earnings Acme recognized in 2015 came from its joint venture?"  # fmt: skip
    fit = answer_fit(q, "FY2015 net income: $1,339 million [S1]. Read from the line 'Net income'.")
    assert fit is not None and not fit.fits and "equity" in fit.missing


def test_a_share_of_a_measure_the_catalogue_does_not_name_is_no_revenue_share() -> None:
    from finqa.lexicon.dimension_question import revenue_share, share_base

    def share(q: str) -> bool:
        return revenue_share(share_base(q))

    assert not share("What share of all U.S. retail pharmacy prescriptions did the company dispense?")  # fmt: skip
    assert share("What percentage of Acme net sales came from the Americas in 2020?")
    assert share("What share of the company total came from Europe in 2020?")


def test_a_year_inside_the_phrase_is_a_modifier() -> None:
    """'total 2015 operating expenses including stock-based compensation' asks operating
    expenses: the stock-based compensation line is no answer to it."""
    from finqa.lexicon.asked_measure import answer_fit, asked_measure

    q = "Acme's 2015 stock-based compensation was $2,119 million. What were Acme's total 2015 operating expenses including stock-based compensation?"  # fmt: skip
    asked = asked_measure(q)
    assert asked is not None and "operating" in asked.words
    fit = answer_fit(q, "FY2015 stock-based compensation: $2,119 million [S1].")
    assert fit is not None and not fit.fits


def test_a_measure_defined_after_ie() -> None:
    """'net interest expense, i.e. interest expense less interest income and other' defines a
    difference of two lines."""
    from finqa.lexicon.defined_measure import defined_measure

    m = defined_measure("What was Acme's net interest expense in 2016, i.e. interest expense less interest income and other?")  # fmt: skip
    assert m is not None and m.name == "net interest expense"
    assert m.parts == ("interest expense", "interest income and other") and m.signs == (1, -1)


def test_the_company_share_named_before_a_consolidated_comparison() -> None:
    from finqa.lexicon.conventions import stated_conventions

    q = "What was net income attributable to Acme in 2017, and how did it compare with consolidated net income?"  # fmt: skip
    assert stated_conventions(q).owners is None
    assert (
        stated_conventions("What was Acme's ROE using consolidated net income?").owners
        == "consolidated"
    )
