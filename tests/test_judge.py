"""JudgeAgent on small synthetic filings: scores, decision, diagnosis, calculations, ablation."""

from __future__ import annotations

from typing import Any

import pytest
from _reasoning_data import CORNING_INCOME as INCOME
from finqa.agents.config import Settings
from finqa.agents.judge import JudgeAgent
from finqa.agents.judge.calc import CalcError, safe_eval
from finqa.agents.judge.facets import decompose
from finqa.agents.judge.text import split_claims
from finqa.agents.types import (
    Answer,
    Calculation,
    Citation,
    Evidence,
    EvidenceItem,
    Judge,
    Operand,
    RetrievalPlan,
    Verdict,
)
from finqa.testing import assert_implements

BALANCE = """Consolidated Balance Sheets
(in millions, except share amounts)
December 31,
2022
2021
Cash and cash equivalents
$
1,671 $
2,148
Trade accounts receivable
1,721
2,004
Inventories
2,904
2,481
Total current assets
7,453
7,659
Accounts payable
1,804
1,612
Total current liabilities
5,175
4,806
"""


Q_CASH = "What were Corning's cash and cash equivalents at the end of FY2022?"
Q_WC = "What was Corning's working capital at the end of FY2022? Answer in USD millions."
Q_MARGIN = "What was Corning's FY2022 gross margin as a percent of net sales?"


def _evidence(*texts: str, question: str = "q") -> Evidence:
    items = tuple(
        EvidenceItem(
            source_id=f"S{i + 1}", doc_id="CORNING_2022_10K", pages=(59 + i,), chunk_ids=(), text=t
        )
        for i, t in enumerate(texts)
    )
    plan = RetrievalPlan(
        attempt=1,
        route="hybrid+filter",
        reason="test",
        k=len(items),
        candidates=len(items),
        rse=False,
    )
    return Evidence(question=question, items=items, plan=plan)


def _wc_calc(
    current_assets: float = 7453, current_liabilities: float = 5175, result: float | None = None
) -> Calculation:
    ops = (
        Operand(name="ca", value=current_assets, scale=1e6, period="FY2022", source_id="S1"),
        Operand(name="cl", value=current_liabilities, scale=1e6, period="FY2022", source_id="S1"),
    )
    value = current_assets - current_liabilities if result is None else result
    return Calculation(expression="ca - cl", operands=ops, result=value, unit="USD")


def _margin_calc() -> Calculation:
    ops = (
        Operand(name="gm", value=4506, scale=1e6, source_id="S1"),
        Operand(name="sales", value=14189, scale=1e6, source_id="S1"),
    )
    return Calculation(
        expression="gm / sales * 100", operands=ops, result=4506 / 14189 * 100, unit="%"
    )


@pytest.fixture(scope="module")
def judge() -> JudgeAgent:
    return JudgeAgent(Settings())


def _eval(
    judge: JudgeAgent, question: str, text: str, *texts: str, attempt: int = 1, **answer: Any
) -> Verdict:
    return judge.evaluate(
        question, Answer(text=text, **answer), _evidence(*texts, question=question), attempt
    )


class TestProtocol:
    """The judge satisfies the Judge seam and fills every Verdict field consistently."""

    def test_is_a_judge(self, judge: JudgeAgent) -> None:
        """JudgeAgent's evaluate() has the Judge protocol's signature."""
        assert_implements(judge, Judge)

    def test_decision_follows_threshold(self, judge: JudgeAgent) -> None:
        """Accept iff utility >= the attempt's threshold, and the utility is the weighted sum."""
        v = _eval(judge, Q_CASH, "Cash and cash equivalents were $1,671 million [S1].", BALANCE)
        w = Settings().judge
        assert v.utility == pytest.approx(
            w.w_grounding * v.grounding
            + w.w_completeness * v.completeness
            + w.w_numeric * v.numeric
        )
        assert v.threshold == pytest.approx(0.5)
        assert v.decision == "accept" and v.diagnosis is None

    def test_threshold_decays_with_attempt(self, judge: JudgeAgent) -> None:
        """The threshold is max(tau0 - lambda (t - 1), tau_min): 0.5, 0.4, 0.3, 0.3."""
        got = [
            _eval(judge, Q_CASH, "$1,671 million", BALANCE, attempt=t).threshold
            for t in (1, 2, 3, 4)
        ]
        assert got == pytest.approx([0.5, 0.4, 0.3, 0.3])


class TestNumbers:
    """Numeric faithfulness: unit/scale-aware, period-aware, strict on wrong figures."""

    @pytest.mark.parametrize(
        "text",
        ["$1,671 million", "$1.671 billion", "$1,671,000,000", "1,671"],
    )
    def test_formats_and_scales_accepted(self, judge: JudgeAgent, text: str) -> None:
        """The same figure written in another scale or format is accepted."""
        v = _eval(judge, Q_CASH, f"Cash and cash equivalents were {text}.", BALANCE)
        assert v.numeric == 1.0 and v.decision == "accept", v.details["numbers"]

    @pytest.mark.parametrize(
        "text", ["$1,688 million", "$1,838 million", "$1,671 billion", "$1.671 million"]
    )
    def test_wrong_figure_rejected(self, judge: JudgeAgent, text: str) -> None:
        """A figure 1% or 10% off, or 1000x off in scale, is rejected as unsupported."""
        v = _eval(judge, Q_CASH, f"Cash and cash equivalents were {text}.", BALANCE)
        assert v.decision == "retry"
        assert v.unsupported_numbers == (text,)
        assert v.diagnosis == "reasoning"

    def test_prior_year_column_rejected(self, judge: JudgeAgent) -> None:
        """The prior year's figure from the same row is in the evidence but the wrong period."""
        v = _eval(judge, Q_CASH, "Cash and cash equivalents were $2,148 million.", BALANCE)
        assert v.decision == "retry" and v.diagnosis == "reasoning"
        assert v.details["numbers"][0]["status"] == "period_mismatch"
        assert "FY2021" in v.feedback

    def test_stated_period_is_checked(self, judge: JudgeAgent) -> None:
        """A figure the answer attributes to FY2021 must come from the FY2021 column."""
        q = "How did Corning's cash change from FY2021 to FY2022?"
        ok = _eval(
            judge,
            q,
            "Cash fell from $2,148 million in FY2021 to $1,671 million in FY2022.",
            BALANCE,
        )
        swapped = _eval(
            judge,
            q,
            "Cash fell from $1,671 million in FY2021 to $2,148 million in FY2022.",
            BALANCE,
        )
        assert ok.decision == "accept"
        assert swapped.decision == "retry"

    def test_years_and_question_numbers_are_not_claims(self, judge: JudgeAgent) -> None:
        """Years, dates and numbers quoted from the question are not checked."""
        q = "Did Corning hold more than $1,000 million of cash at December 31, 2022?"
        v = _eval(
            judge,
            q,
            "Yes. At December 31, 2022 it held $1,671 million, more than $1,000 million.",
            BALANCE,
        )
        assert [n["text"] for n in v.details["numbers"]] == ["$1,671 million"]
        assert v.decision == "accept"


class TestCalculations:
    """Recorded calculations are re-executed by the judge, never trusted."""

    def test_computed_figure_verified(self, judge: JudgeAgent) -> None:
        """A computed answer is verified through its calculation whose operands are in the evidence."""
        v = _eval(
            judge, Q_WC, "Working capital was $2,278 million.", BALANCE, calculations=(_wc_calc(),)
        )
        assert v.details["numbers"][0]["status"] == "calculation"
        assert v.details["calculations"][0]["status"] == "verified"
        assert v.decision == "accept"

    def test_rounding_and_percent_ratio(self, judge: JudgeAgent) -> None:
        """A rounded result is accepted, as a percent or as a ratio."""
        for text in ("31.8%", "about 32%", "0.318"):
            v = _eval(
                judge,
                Q_MARGIN,
                f"Gross margin was {text} of net sales.",
                INCOME,
                calculations=(_margin_calc(),),
            )
            assert v.decision == "accept", (text, v.details["numbers"])

    def test_lying_result_rejected(self, judge: JudgeAgent) -> None:
        """A recorded result that the arithmetic does not give is caught."""
        calc = _wc_calc(result=2400.0)
        v = _eval(judge, Q_WC, "Working capital was $2,400 million.", BALANCE, calculations=(calc,))
        assert v.details["numbers"][0]["status"] == "calc_mismatch"
        assert v.decision == "retry"

    def test_operand_not_in_evidence(self, judge: JudgeAgent) -> None:
        """A calculation over a figure that is not in the evidence does not verify its result."""
        calc = _wc_calc(current_assets=7999)
        v = _eval(judge, Q_WC, "Working capital was $2,824 million.", BALANCE, calculations=(calc,))
        assert v.details["calculations"][0]["status"] == "operand_not_found"
        assert v.decision == "retry"

    def test_safe_eval_refuses_code(self) -> None:
        """The evaluator computes arithmetic and refuses anything else."""
        assert safe_eval("(a + b) / 2", {"a": 1.0, "b": 2.0}) == pytest.approx(1.5)
        assert safe_eval("(a / 100) ** (1 / 2) * 100 - 100", {"a": 121.0}) == pytest.approx(10.0)
        assert safe_eval("abs(a - 3)", {"a": 1.0}) == pytest.approx(2.0)
        for bad in ("__import__('os')", "a.real", "[x for x in (1,)]", "a / 0", "2 ** 100"):
            with pytest.raises(CalcError):
                safe_eval(bad, {"a": 1.0})


class TestCompleteness:
    """The facet checklist finds the parts of a question and which the answer leaves out."""

    def test_decompose_two_parts(self) -> None:
        """A compound question yields a facet for each part; instructions are not facets."""
        facets = decompose(
            "Does Corning have positive working capital? What drove the change? Answer in USD millions."
        )
        assert [f.kind for f in facets] == ["verdict", "explanation"]

    def test_follow_up_figure_answered_with_the_verdict(self) -> None:
        """'Did X ...? If so, how much?': the figure given with the Yes answers the follow-up;
        a bare Yes leaves it open."""
        from finqa.agents.judge.facets import check_facets, completeness_score

        q = "Did eBay pay dividends to common stockholders in FY2019? If so, how much in total?"
        claims = [
            "Yes.",
            "The FY2019 cash flow statement shows 'Payments for dividends' of $473 million.",
        ]
        full = check_facets(decompose(q), " ".join(claims), 1, claims, [0, 1])
        assert [f.kind for f in full] == ["verdict", "figure"]
        assert completeness_score(full) == 1.0
        bare = check_facets(decompose(q), "Yes.", 0, ["Yes."], [0])
        assert completeness_score(bare) == 0.5
        # a second part with a subject of its own is not answered by the verdict's figure
        q2 = "Did Acme pay a dividend in FY2022? What was its interest coverage ratio in FY2022?"
        claims2 = ["Yes.", "Acme paid dividends of $1.00 per share in FY2022."]
        other = check_facets(decompose(q2), " ".join(claims2), 1, claims2, [0, 1])
        assert completeness_score(other) == 0.5

    def test_yes_does_not_answer_which_of_two_opposites(self) -> None:
        """'An expense or a benefit?' asks which: a bare 'Yes' with a figure leaves the verdict
        open; naming the option answers it."""
        from finqa.agents.judge.facets import check_facets

        q = "Did Acme record a deferred income tax expense or a deferred income tax benefit in FY2018?"
        yes = check_facets(
            decompose(q),
            "Yes. It shows $7,543 million.",
            1,
            ["Yes.", "It shows $7,543 million."],
            [0, 1],
        )
        assert not yes[0].addressed and "neither option" in yes[0].how
        named = "A deferred income tax benefit of $32,590 million."
        assert check_facets(decompose(q), named, 1, [named], [1])[0].addressed

    def test_missing_part_rejected(self, judge: JudgeAgent) -> None:
        """An answer that ignores one part of a two-part question is sent back as reasoning."""
        q = "What were Corning's FY2022 cash and cash equivalents? What was its FY2022 net income?"
        full = _eval(
            judge, q, "Cash was $1,671 million. Net income was $1,316 million.", BALANCE, INCOME
        )
        half = _eval(judge, q, "Cash was $1,671 million.", BALANCE, INCOME)
        assert full.decision == "accept"
        assert half.decision == "retry" and half.diagnosis == "reasoning"
        assert len(half.missing_facets) == 1

    def test_comparison_needs_both_periods(self, judge: JudgeAgent) -> None:
        """A comparison of two years needs the figure of each year."""
        q = "How does Corning's FY2022 net income compare to FY2021?"
        v = _eval(judge, q, "Net income was $1,316 million in FY2022.", INCOME)
        assert "figure for FY2021" in v.missing_facets

    def test_claims_split(self) -> None:
        """Claims are split at sentence ends, not inside decimals or abbreviations, with citations."""
        claims = split_claims("Sales were $14.2 billion [S1]. Cash fell vs. 2021 [S2, S3]. Yes.")
        assert [c.sources for c in claims] == [("S1",), ("S2", "S3"), ()]


class TestGroundingAndDiagnosis:
    """Grounding by cited evidence; diagnosis retrieval vs reasoning; abstention."""

    def test_unrelated_answer_rejected(self, judge: JudgeAgent) -> None:
        """A fluent answer about something else is not grounded in the evidence."""
        text = "Boeing forecasts higher production rates for the 737 and 787 aircraft programs."
        v = _eval(judge, Q_CASH, text, BALANCE)
        assert v.decision == "retry" and v.grounding < 0.5

    def test_citation_limits_support(self, judge: JudgeAgent) -> None:
        """A claim is checked against the source it cites, not any source."""
        good = _eval(judge, Q_CASH, "Cash was $1,671 million [S1].", BALANCE, INCOME)
        wrong_cite = _eval(judge, Q_CASH, "Cash was $1,671 million [S2].", BALANCE, INCOME)
        assert good.details["numbers"][0]["source"] == "S1"
        assert wrong_cite.details["numbers"][0]["source"] == "S1"  # figures are still found
        assert good.decision == "accept"

    def test_retrieval_diagnosis_when_evidence_lacks_period(self, judge: JudgeAgent) -> None:
        """When the evidence has no FY2023 data, the rejection is a retrieval problem."""
        q = "What were Corning's cash and cash equivalents at the end of FY2023?"
        v = _eval(judge, q, "Cash was $1,900 million.", BALANCE)
        assert v.decision == "retry" and v.diagnosis in ("retrieval", "both")
        assert any("FY2023" in g for g in v.details["evidence_gaps"])

    def test_abstention_retries(self, judge: JudgeAgent) -> None:
        """An abstained answer scores zero; no evidence means a retrieval diagnosis."""
        empty = _eval(judge, Q_CASH, "I cannot determine this from the filings.")
        assert empty.utility == 0.0 and empty.decision == "retry" and empty.diagnosis == "retrieval"
        flagged = _eval(judge, Q_CASH, "Unknown.", BALANCE, abstained=True)
        assert flagged.decision == "retry" and flagged.details["abstained"] is True

    def test_abstention_passes_on_declared_gaps(self, judge: JudgeAgent) -> None:
        """Line items an abstaining reasoner could not find become missing facets for retrieval."""
        answer = Answer(
            text="Cannot determine from the filings; missing: Total current liabilities.",
            abstained=True,
            confidence={"missing": ["Total current liabilities"]},
        )
        v = judge.evaluate(Q_WC, answer, _evidence(INCOME), 1)
        assert v.decision == "retry" and "Total current liabilities" in v.missing_facets

    def test_feedback_names_the_problem(self, judge: JudgeAgent) -> None:
        """Feedback lists the unsupported numbers for the next attempt."""
        v = _eval(
            judge,
            Q_CASH,
            "Cash was $1,700 million.",
            BALANCE,
            citations=(Citation(source_id="S1", doc_id="d", page=1),),
        )
        assert "$1,700 million" in v.feedback and v.feedback.startswith("Rejected")


class TestAblation:
    """deterministic_verify=False: the paper-style raw-string check."""

    def test_raw_string_check_rejects_reformatted(self) -> None:
        """Without unit-aware matching or re-execution, correct reformatted/computed figures fail."""
        raw = JudgeAgent(Settings().with_overrides({"judge.deterministic_verify": False}))
        same = _eval(raw, Q_CASH, "Cash was $1,671 million.", BALANCE)
        scaled = _eval(raw, Q_CASH, "Cash was $1.671 billion.", BALANCE)
        computed = _eval(
            raw, Q_WC, "Working capital was $2,278 million.", BALANCE, calculations=(_wc_calc(),)
        )
        assert same.numeric == 1.0
        assert scaled.numeric < 1.0 and computed.numeric < 1.0
        assert (
            raw.evaluate(Q_CASH, Answer(text="x"), _evidence(BALANCE), 1)
            .details["mode"]
            .startswith("raw")
        )


class TestTables:
    """Column periods read from PDF-flattened tables and narrative text."""

    def test_change_columns_and_footnotes(self) -> None:
        """'Change' columns and '(a)' footnote markers keep values aligned with their years."""
        from finqa.lexicon.statements.located import column_period

        text = (
            "(in millions)\n2022\n2021\nChange\n2022\n2021\nChange\n"
            "Net income\n3,100\n5,645\n(a)\n(45)\n3,725\n5,020\n(a)\n(26)\n"
        )
        got = [
            column_period(text, text.index(v), text.index(v) + len(v)).year
            for v in ("3,725", "5,020", "5,645")
        ]
        assert got == [2022, 2021, 2021]

    def test_narrative_period(self) -> None:
        """'... 13.6% in 2021' belongs to 2021 even below a header of other years."""
        from finqa.lexicon.statements.located import column_period

        text = (
            "In 2022, sales increased 1.3% compared to an increase of 13.6% in 2021.\n2022\n2021\n"
        )
        at = text.index("13.6%")
        assert column_period(text, at, at + 5).year == 2021

    def test_change_between_periods_is_for_the_later(self, judge: JudgeAgent) -> None:
        """A change 'between FY2021 and FY2022' computed only from earlier figures is stale."""
        q = "Did Corning's gross margin improve?"
        stale = Calculation(
            expression="(a / b - c / d) * 100",
            operands=(
                Operand(name="a", value=5063, scale=1e6, source_id="S1"),
                Operand(name="b", value=14082, scale=1e6, source_id="S1"),
                Operand(name="c", value=3531, scale=1e6, source_id="S1"),
                Operand(name="d", value=11303, scale=1e6, source_id="S1"),
            ),
            result=4.715,
        )
        v = _eval(
            judge,
            q,
            "Yes, it improved by 4.7 points between FY2021 and FY2022.",
            INCOME,
            calculations=(stale,),
        )
        assert v.details["numbers"][0]["status"] == "period_mismatch" and v.decision == "retry"

    def test_details_are_json(self, judge: JudgeAgent) -> None:
        """Verdict details serialise to JSON as they are (for the audit log)."""
        import json

        v = _eval(
            judge,
            Q_WC,
            "Working capital was $2,278 million [S1].",
            BALANCE,
            calculations=(_wc_calc(),),
        )
        json.dumps(dict(v.details))


class TestNonClaims:
    """Verbatim quotes of the evidence and formula constants are not the answer's own claims."""

    def test_quoted_source_line_not_checked(self, judge: JudgeAgent) -> None:
        """A quoted source line with the prior-year column does not count against the answer."""
        text = "Cash was $1,671 million [S1], read from the line 'Cash and cash equivalents $ 1,671 $ 2,148'."
        v = _eval(judge, Q_CASH, text, BALANCE)
        assert [n["text"] for n in v.details["numbers"]] == ["$1,671 million"]
        assert v.decision == "accept"

    def test_formula_constant_not_checked(self, judge: JudgeAgent) -> None:
        """'* 100' in a written formula is not a figure to find in the evidence."""
        text = "Gross margin was 31.8% [S1], computed as gross_margin / net_sales * 100."
        v = _eval(judge, Q_MARGIN, text, INCOME, calculations=(_margin_calc(),))
        assert [n["text"] for n in v.details["numbers"]] == ["31.8%"]

    def test_stated_criterion_not_checked(self, judge: JudgeAgent) -> None:
        """A threshold the answer applies ('threshold 30%') and its repetitions are not figures
        claimed from the filing; the figures compared with it still are."""
        q = "Is Corning's gross margin healthy in FY2022?"
        ok = "Yes. Gross margin was 31.8% in FY2022 (threshold 30%); margins above 30% are healthy."
        v = _eval(judge, q, ok, INCOME)
        assert [n["text"] for n in v.details["numbers"]] == ["31.8%"]
        assert [x["reason"] for x in v.details["skipped_numbers"]] == ["criterion", "criterion"]
        bad = _eval(judge, q, ok.replace("31.8%", "41.8%"), INCOME)
        assert bad.decision == "retry"

    def test_share_of_the_question_not_checked(self, judge: JudgeAgent) -> None:
        """'60% of what the question asks about' measures the answer, not the filing: it is not
        a figure to find; a percentage of a line item still is."""
        text = (
            "Cash was $1,671 million [S1]. Read offline from this sentence (60% of what the "
            "question asks about: cash)."
        )
        v = _eval(judge, Q_CASH, text, BALANCE)
        assert [n["text"] for n in v.details["numbers"]] == ["$1,671 million"]
        bad = _eval(judge, Q_CASH, "Cash was $1,671 million [S1], 60% of current assets.", BALANCE)
        assert "60%" in bad.unsupported_numbers

    def test_provenance_note_is_not_a_claim(self, judge: JudgeAgent) -> None:
        """finqa's own note on how it read the answer is not grounded; the claims beside it are,
        so a fluent wrong claim next to such a note is still unsupported."""
        note = " finqa judged its wording, not figures."
        ok = _eval(judge, Q_CASH, "Cash was $1,671 million [S1]." + note, BALANCE)
        claims = ok.details["claims"]
        assert claims[-1]["content"] is False and ok.grounding == 1.0
        bad = _eval(judge, Q_CASH, "Cash rose on strong aircraft deliveries [S1]." + note, BALANCE)
        assert bad.decision == "retry"

    def test_constant_leading_a_formula_not_checked(self, judge: JudgeAgent) -> None:
        """'- 365 * avg(...)' inside a written formula is a constant, not a figure of -365."""
        text = (
            "Gross margin was 31.8% [S1], computed as gross_margin / net_sales * 100 - 365 * 0 "
            "+ 365 * 0."
        )
        v = _eval(judge, Q_MARGIN, text, INCOME, calculations=(_margin_calc(),))
        assert "-365" not in {n["text"].replace(" ", "") for n in v.details["numbers"]}
        assert "- 365" not in v.unsupported_numbers

    def test_units_alone_are_no_words_to_ground(self, judge: JudgeAgent) -> None:
        """'Answer: $1,671 million.' restates a verified figure: its only words are the figure's
        own, so the claim is supported by the figure."""
        v = _eval(judge, Q_CASH, "Cash was $1,671 million [S1]. Answer: $1,671 million.", BALANCE)
        assert all(c["supported"] for c in v.details["claims"]), v.details["claims"]

    def test_semicolon_inside_an_aside_does_not_split(self) -> None:
        """A ';' inside parentheses does not end the claim; one outside does."""
        claims = split_claims(
            "Averaged balances (the catalogue's definition; year-end differs). Yes; no."
        )
        assert [c.text for c in claims][0].endswith("year-end differs).")
        assert len(claims) == 3

    def test_year_label_belongs_to_next_figure(self, judge: JudgeAgent) -> None:
        """In 'FY2021: 36.0%, FY2022: 31.8%' each figure is for the year labelling it."""
        q = "How did Corning's gross margin change from FY2021 to FY2022?"
        v = _eval(judge, q, "Gross margin was FY2021: 36.0%, FY2022: 31.8%.", INCOME)
        periods = {n["text"]: n["expected_periods"] for n in v.details["numbers"]}
        assert periods == {"36.0%": [2021], "31.8%": [2022]}
        assert v.decision == "accept", v.details["numbers"]

    def test_number_in_a_name_not_checked(self, judge: JudgeAgent) -> None:
        """'COVID-19' in an explanation is a name, not a figure to find in the evidence."""
        q = "What drove Corning's gross margin change in FY2022?"
        text = "Gross margin fell to 31.8% in FY2022 on COVID-19 related costs."
        v = _eval(judge, q, text, INCOME)
        assert [n["text"] for n in v.details["numbers"]] == ["31.8%"]
        assert {"text": "19", "reason": "part of a name"} in v.details["skipped_numbers"]

    def test_prior_period_baseline_allowed(self, judge: JudgeAgent) -> None:
        """'up from $X' may quote the prior period's figure without naming the year."""
        v = _eval(judge, Q_CASH, "Cash was $1,671 million, down from $2,148 million.", BALANCE)
        assert v.decision == "accept", v.details["numbers"]


COMMON_SIZE = """Condensed Consolidated Statement of Earnings
(Unaudited; in Millions Except Per Share Figures)
Second Quarter
Percent
Percent
Amount
to Sales
Amount
to Sales
Sales to customers
25,530
$
 100.0
24,020
$
 100.0
Cost of products sold
 8,212
32.2

7,919

33.0
Net earnings
5,144
$
20.1

4,814
$
20.0
"""

ORGANIC = """Year ended December 31, 2022
(Dollars in millions)
Worldwide Sales Change By Business Segment
Organic sales
Acquisitions
Translation
Total sales change
Safety and Industrial
1.0 %
 %
(4.2) %
(3.2) %
Health Care
3.2
(1.4)
(3.8)
(2.0)
Consumer
(0.9)
(0.4)
(2.6)
(3.9)
"""

PCT_LINES = "Gross margin as a percent of net sales\n2022\n2021\nGross margin\n31.8\n%\n36.0\n%\n"
Q_JNJ = "What were Johnson & Johnson's net earnings as a percent of sales in Q2 FY2023?"
Q_ORGANIC = "How did 3M's consumer segment organic sales change in 2022?"


class TestPercentAsRatio:
    """A percentage written as a ratio matches a bare figure its table context makes a percent."""

    @pytest.mark.parametrize("text", ["20.1%", "0.201", "a ratio of 0.201 to sales"])
    def test_percent_of_sales_column(self, judge: JudgeAgent, text: str) -> None:
        """'0.201' is found as 20.1 in a 'Percent to Sales' column whose total row reads 100.0."""
        v = _eval(judge, Q_JNJ, f"Net earnings were {text} of sales in FY2023.", COMMON_SIZE)
        assert v.numeric == 1.0 and v.decision == "accept", v.details["numbers"]

    @pytest.mark.parametrize("text", ["0.2030", "0.2211", "201", "0.0201"])
    def test_wrong_ratio_rejected(self, judge: JudgeAgent, text: str) -> None:
        """A ratio 1% or 10% off, or 1000x / 10x off, is still rejected."""
        v = _eval(judge, Q_JNJ, f"Net earnings were {text} of sales in FY2023.", COMMON_SIZE)
        assert v.decision == "retry" and v.unsupported_numbers == (text,)

    def test_ratio_more_precise_than_evidence_rejected(self, judge: JudgeAgent) -> None:
        """'0.2012' claims a precision the column's '20.1' does not have (as '20.12%' would)."""
        v = _eval(judge, Q_JNJ, "Net earnings were 0.2012 of sales in FY2023.", COMMON_SIZE)
        assert v.decision == "retry" and v.unsupported_numbers == ("0.2012",)

    @pytest.mark.parametrize(("text", "ok"), [("20%", True), ("20.12%", False), ("20.2%", False)])
    def test_percent_claim_rounding(self, judge: JudgeAgent, text: str, ok: bool) -> None:
        """A percent claim against a bare column figure allows only its own rounding."""
        v = _eval(judge, Q_JNJ, f"Net earnings were {text} of sales in FY2023.", COMMON_SIZE)
        assert (v.decision == "accept") is ok, v.details["numbers"]

    def test_prior_year_ratio_rejected(self, judge: JudgeAgent) -> None:
        """The prior year's percent, written as a ratio, is in the wrong column."""
        v = _eval(judge, Q_MARGIN, "Gross margin was 0.360 of net sales.", PCT_LINES)
        assert v.decision == "retry"
        assert v.details["numbers"][0]["status"] == "period_mismatch"

    @pytest.mark.parametrize("text", ["0.9%", "0.009"])
    def test_column_marked_by_percent_row(self, judge: JudgeAgent, text: str) -> None:
        """'(0.9)' under a row of '1.0 %' cells is a percent: '0.009' and '0.9%' both match it."""
        v = _eval(judge, Q_ORGANIC, f"Consumer organic sales shrank by {text}.", ORGANIC)
        assert v.numeric == 1.0 and v.decision == "accept", v.details["numbers"]

    def test_lone_percent_line(self, judge: JudgeAgent) -> None:
        """A '%' alone on the line after a figure makes it a percent ('31.8\\n%')."""
        v = _eval(judge, Q_MARGIN, "Gross margin was 0.318 of net sales.", PCT_LINES)
        assert v.decision == "accept", v.details["numbers"]

    def test_dollar_column_is_not_a_percent(self, judge: JudgeAgent) -> None:
        """Without percent context a bare '20.1' (in millions) does not support '0.201'."""
        text = "(in millions)\n2022\n2021\nOther income\n20.1\n18.4\nNet income\n1,316\n1,906\n"
        q = "What was Corning's other income in FY2022?"
        v = _eval(judge, q, "Other income was 0.201.", text)
        assert v.decision == "retry" and v.unsupported_numbers == ("0.201",)

    def test_percent_column_reader(self) -> None:
        """percent_column reads the column's unit from aligned rows, not from other widths."""
        from finqa.lexicon.statements.located import percent_column

        def at(text: str, value: str, nth: int = 0) -> bool:
            start = -1
            for _ in range(nth + 1):
                start = text.index(value, start + 1)
            return percent_column(text, start, start + len(value))

        assert at(COMMON_SIZE, "20.1") and at(COMMON_SIZE, "32.2")
        assert not at(COMMON_SIZE, "5,144") and not at(COMMON_SIZE, "4,814")
        assert at(ORGANIC, "(0.9)") and at(ORGANIC, "3.2", 1)
        wide = "2022\n2021\nSales\n1,200\n1,100\n9 %\nCost\n20.1\n18.0\n12\n"
        assert not at(wide, "20.1") and at(wide, "12")


class TestPerShareTopic:
    """A per-share figure is on topic next to a per-share measure named by its acronym."""

    EVIDENCE = (
        "Selected capital-related metrics\nThe Firm's CET1 capital was $206 billion.\n"
        "The Firm grew TBVPS, ending the first quarter of 2021 at\n$66.56, up 10% versus the "
        "prior year.\nNet revenue was $33.1 billion.\n"
    )
    QUESTION = (
        "If JPM liquidated all of its assets at 2021 Q1, how much could each shareholder get?"
    )

    def test_acronym_supports_per_share_claim(self, judge: JudgeAgent) -> None:
        """'$66.56 per share' is found next to 'TBVPS ... $66.56'."""
        v = judge.evaluate(
            self.QUESTION,
            Answer(text="They could receive $66.56 per share."),
            _evidence(self.EVIDENCE, question=self.QUESTION),
            1,
        )
        assert v.decision == "accept", v.details["numbers"]

    def test_other_claims_still_need_their_topic(self, judge: JudgeAgent) -> None:
        """The same digits as a non-per-share amount about something else stay off topic."""
        v = judge.evaluate(
            self.QUESTION,
            Answer(text="Goodwill impairments were $66.56 million."),
            _evidence(self.EVIDENCE, question=self.QUESTION),
            1,
        )
        assert v.decision == "retry"
