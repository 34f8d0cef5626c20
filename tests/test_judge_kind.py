"""Does the answer answer the question: expected kind, plausible range, copies, bad input."""

from __future__ import annotations

from typing import Any

import pytest
from _reasoning_data import evidence
from finqa.agents.config import Settings
from finqa.agents.judge import JudgeAgent
from finqa.agents.judge.kind import expected_kind, not_english
from finqa.agents.types import Answer, Calculation, Evidence, Operand

BALANCE = """Consolidated Balance Sheets
(in millions)
December 31,
2022
2021
Cash and cash equivalents
$
1,671 $
2,148
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

INCOME = """Consolidated Statements of Income
(in millions)
2022
2021
Net sales
14,189
14,082
Cost of sales
9,683
9,019
Gross margin
4,506
5,063
"""

DEBT = """Consolidated Balance Sheets
(in millions)
December 31,
2022
2021
Current portion of long-term debt
150
400
Long-term debt
7,000
7,500
Total liabilities
20,000
21,000
"""

Q_RATIO = "What is Corning's FY2022 current ratio?"
Q_CASH = "What were Corning's cash and cash equivalents at the end of FY2022?"
Q_YESNO = "Does Corning have positive working capital based on FY2022 data?"


def _evidence(*texts: str) -> Evidence:
    return evidence(*texts, doc="CORNING_2022_10K", first_page=59)


@pytest.fixture(scope="module")
def judge() -> JudgeAgent:
    return JudgeAgent(Settings())


def _eval(judge: JudgeAgent, question: str, text: str, *texts: str, **kw: Any) -> Any:
    return judge.evaluate(question, Answer(text=text, **kw), _evidence(*(texts or (BALANCE,))), 1)


def _codes(verdict: Any) -> list[str]:
    return [p["code"] for p in verdict.details["answer_problems"]]


class TestExpectedKind:
    def test_ratio_from_catalogue_unit(self) -> None:
        """A current-ratio question expects a ratio, from the catalogue's unit for the metric."""
        e = expected_kind(Q_RATIO, ["figure"])
        assert e.kind == "ratio" and e.metric == "current_ratio"

    def test_yes_no_needs_basis(self) -> None:
        """A yes/no question expects a verdict with its basis."""
        e = expected_kind(Q_YESNO, ["verdict"])
        assert e.kind == "verdict" and e.needs_basis

    def test_percent_wording_wins(self) -> None:
        """'What percent of ... inventories' expects a percentage though inventory is an amount."""
        q = "What percent of Corning's total current assets were inventories in FY2022?"
        e = expected_kind(q, ["figure"])
        assert e.kind == "percent"

    def test_no_metric_says_so(self) -> None:
        """A question with no recognisable metric gets no kind, and the reason says so."""
        q = "What is the company's approach to remote work?"
        e = expected_kind(q, ["figure"])
        assert e.kind is None and "no recognisable metric" in e.reason


class TestAnswerKind:
    def test_amount_for_a_ratio_rejected(self, judge: JudgeAgent) -> None:
        """A large balance-sheet figure given for a current ratio is rejected as the wrong kind."""
        v = _eval(judge, Q_RATIO, "The current ratio is 7,453.")
        assert v.decision == "retry" and "wrong_kind" in _codes(v)
        assert "a ratio" in v.feedback and "7,453" in v.feedback

    def test_right_ratio_accepted(self, judge: JudgeAgent) -> None:
        """The current ratio with its recorded calculation is accepted."""
        ops = (
            Operand(name="ca", value=7453, scale=1e6, period="FY2022", source_id="S1"),
            Operand(name="cl", value=5175, scale=1e6, period="FY2022", source_id="S1"),
        )
        calc = Calculation(expression="ca / cl", operands=ops, result=7453 / 5175, unit="ratio")
        v = _eval(judge, Q_RATIO, "The FY2022 current ratio is 1.44 [S1].", calculations=(calc,))
        assert v.decision == "accept", v.feedback

    def test_bare_yes_rejected(self, judge: JudgeAgent) -> None:
        """A bare 'Yes.' to a judgement question is incomplete and says the basis is missing."""
        v = _eval(judge, Q_YESNO, "Yes.")
        assert v.decision == "retry" and "bare_verdict" in _codes(v)
        assert "basis" in v.feedback

    def test_yes_with_basis_accepted(self, judge: JudgeAgent) -> None:
        """'Yes' with the figures it rests on is accepted."""
        text = (
            "Yes. Total current assets of $7,453 million exceed total current liabilities "
            "of $5,175 million in FY2022 [S1]."
        )
        v = _eval(judge, Q_YESNO, text)
        assert v.decision == "accept", v.feedback

    def test_copied_question_rejected(self, judge: JudgeAgent) -> None:
        """The question copied back as the answer is rejected."""
        v = _eval(judge, Q_CASH, Q_CASH)
        assert v.decision == "retry" and "copied_question" in _codes(v)

    def test_copied_evidence_rejected(self, judge: JudgeAgent) -> None:
        """A page-long passage copied from the evidence is not an answer."""
        prose = (
            "Corning completed several acquisitions during the year, including businesses in "
            "optical communications and specialty materials, and the purchase price was "
            "allocated to the assets acquired and liabilities assumed based on their fair "
            "values at the acquisition date with the excess recorded as goodwill in the "
            "segments expected to benefit from the business combination as described below. "
        ) * 3
        q = "Which acquisitions did Corning complete in FY2022?"
        v = _eval(judge, q, prose, prose)
        assert v.decision == "retry" and "copied_evidence" in _codes(v)

    def test_focused_extract_is_not_a_copy(self, judge: JudgeAgent) -> None:
        """A short answer quoting the evidence about exactly what was asked is not a copy."""
        page = (
            "Corning sells optical fiber, cable and connectivity products, display glass for "
            "televisions and monitors, specialty glass for smartphones, environmental substrates "
            "for vehicles and life sciences labware to customers in many countries, and Corning "
            "also sells hemlock polysilicon, pharmaceutical glass tubing and vials, automotive "
            "glass and precision optics to industrial customers."
        )
        assert 40 <= len(page.split()) < 120
        q = "What products does Corning sell?"
        v = _eval(judge, q, page, page)
        assert "copied_evidence" not in _codes(v)


class TestBadInput:
    def test_empty_answer(self, judge: JudgeAgent) -> None:
        """An empty answer scores zero and says it is empty."""
        v = _eval(judge, Q_CASH, "   ")
        assert v.decision == "retry" and v.utility == 0.0 and "empty" in v.feedback

    def test_other_language(self, judge: JudgeAgent) -> None:
        """An answer in another language is rejected even with the right figure."""
        v = _eval(judge, Q_CASH, "La trésorerie de la société était de 1 671 millions de dollars.")
        assert v.decision == "retry" and "language" in _codes(v)
        assert not_english("El efectivo de la empresa es de 1.671 millones de dólares en el año")
        assert not not_english("Cash and cash equivalents were $1,671 million at year end.")
        # 'per' is English too: a per-share answer quoting its line is not Italian
        assert not not_english(
            "FY2024 diluted eps: $11.09 per diluted share [S1]. Read from the line 'Earnings per"
            " share - diluted $11.09 $10.45 $11.21' [S1]. Answer: $11.09 per diluted share."
        )

    def test_unknown_source_cited(self, judge: JudgeAgent) -> None:
        """A claim citing only a source id that is not in the evidence is unsupported."""
        v = _eval(judge, Q_CASH, "Cash and cash equivalents were $1,671 million [S9].")
        claim = v.details["claims"][0]
        assert not claim["supported"] and "S9" in claim["reason"]
        assert v.decision == "retry"

    def test_different_scale(self, judge: JudgeAgent) -> None:
        """Figures all at another scale than the filing's (thousands for millions) are rejected."""
        v = _eval(judge, Q_CASH, "Cash and cash equivalents were $1,671 thousand in FY2022.")
        assert v.decision == "retry" and v.unsupported_numbers

    def test_different_currency(self, judge: JudgeAgent) -> None:
        """A figure in euros for a dollar filing is not supported."""
        v = _eval(judge, Q_CASH, "Cash and cash equivalents were €1,671 million in FY2022.")
        assert v.decision == "retry" and v.unsupported_numbers

    def test_right_column_chosen(self, judge: JudgeAgent) -> None:
        """With two tables of the same line item for different years, the asked year's column wins."""
        older = BALANCE.replace("2022\n2021", "2021\n2020").replace(
            "1,671 $\n2,148", "2,148 $\n2,672"
        )
        ok = _eval(judge, Q_CASH, "Cash and cash equivalents were $1,671 million.", older, BALANCE)
        assert ok.decision == "accept", ok.feedback
        wrong = _eval(
            judge, Q_CASH, "Cash and cash equivalents were $2,148 million.", older, BALANCE
        )
        assert wrong.decision == "retry"

    def test_no_metric_judged_without_kind(self, judge: JudgeAgent) -> None:
        """A question with no recognisable metric is judged without an answer kind, and says so."""
        q = "What is Corning's approach to remote work?"
        v = _eval(judge, q, "Corning is hiring.", "Corning is hiring engineers in New York.")
        assert v.details["answer_kind"]["kind"] is None
        assert "no recognisable metric" in v.details["answer_kind"]["reason"]

    def test_flagged_calculation_fails_numbers(self, judge: JudgeAgent) -> None:
        """A figure stated beside a calculation the reasoner flagged invalid is not accepted."""
        v = _eval(
            judge,
            Q_CASH,
            "Cash and cash equivalents were $1,671 million.",
            confidence={"calc_problems": ["LLM result 3 disagrees with finqa's 1.44"]},
        )
        assert v.decision == "retry" and "invalid_calculation" in _codes(v)


class TestRightFigure:
    def test_other_line_named(self, judge: JudgeAgent) -> None:
        """A figure from another row of the asked column is unsupported, naming the row it is."""
        v = _eval(judge, Q_CASH, "Cash and cash equivalents were $2,904 million in FY2022.")
        assert v.decision == "retry"
        (num,) = v.details["numbers"]
        assert num["status"] == "not_found" and "Inventories" in num["detail"]

    def test_operand_line_is_on_topic(self, judge: JudgeAgent) -> None:
        """An operand of the asked metric (total current assets for a current ratio) is supported."""
        text = "Total current assets were $7,453 million and the current ratio is 1.44 [S1]."
        v = _eval(judge, Q_RATIO, text)
        statuses = {n["text"]: n["status"] for n in v.details["numbers"]}
        assert statuses["$7,453 million"] == "evidence"


SWAPS = """Derivative instruments
(dollars in millions)
At December 31,
2021
2020
Interest rate swaps
$
19,779
$
17,768
Cross currency swaps
32,502
26,288
Forward starting interest rate swaps
1,000
2,000
"""


class TestSeveralParts:
    def test_second_part_kind_not_judged_by_first(self, judge: JudgeAgent) -> None:
        """In a two-part question, the second part's figure ('1.44' for a current ratio) is not
        judged by the first part's kind (an amount), while its value is still checked."""
        q = Q_CASH + " Also: What is Corning's FY2022 current ratio?"
        ok = _eval(
            judge, q, "Cash and cash equivalents were $1,671 million. The current ratio was 1.44."
        )
        assert "no_unit" not in _codes(ok) and "wrong_kind" not in _codes(ok)
        assert ok.decision == "accept", ok.feedback
        bad = _eval(
            judge, q, "Cash and cash equivalents were $1,671 million. The current ratio was 1.62."
        )
        assert bad.decision == "retry"


class TestRowTheAnswerNames:
    Q = "Which derivative instrument of Corning had the highest notional value in FY2021?"

    def test_named_row_supported(self, judge: JudgeAgent) -> None:
        """With no catalogue line to ask for, a figure from the row the answer names is supported."""
        v = _eval(
            judge, self.Q, "Cross currency swaps. Its notional value was $32,502 million.", SWAPS
        )
        assert v.decision == "accept", v.details["numbers"]

    def test_other_row_unsupported(self, judge: JudgeAgent) -> None:
        """A figure from a row the answer does not name is unsupported, naming the row it is."""
        v = _eval(
            judge, self.Q, "Cross currency swaps. Its notional value was $1,000 million.", SWAPS
        )
        assert v.decision == "retry"
        assert "Forward starting interest rate swaps" in v.details["numbers"][0]["detail"]


class TestRederive:
    def test_bare_right_ratio_accepted(self, judge: JudgeAgent) -> None:
        """A correct current ratio given without any calculation is re-derived and accepted."""
        v = _eval(judge, Q_RATIO, "1.44")
        assert v.decision == "accept", v.feedback
        assert v.details["numbers"][0]["status"] == "rederived"

    def test_statement_model_rederivation(self, judge: JudgeAgent) -> None:
        """The statement model of the evidence pages gives the asked metric and the lines used."""
        v = _eval(judge, Q_RATIO, "1.44")
        model = v.details["statement_model"]
        assert "Total current assets FY2022 = 7,453" in model and "1.44" in model

    def test_bare_wrong_ratio_rejected(self, judge: JudgeAgent) -> None:
        """A confident wrong current ratio is rejected, and the feedback says what the evidence gives."""
        v = _eval(judge, Q_RATIO, "1.62")
        assert v.decision == "retry"
        assert "the evidence gives" in v.details["numbers"][0]["detail"]
        assert "1.44" in v.details["numbers"][0]["detail"]


class TestPerPeriod:
    Q = "Has Corning's gross margin improved in FY2022 compared with FY2021?"

    def test_each_years_value_rederived(self, judge: JudgeAgent) -> None:
        """Per-year margins with no calculation trail are read from the statement model for the
        year the answer gives each, and their difference is then derived."""
        text = "No. Gross margin fell from 36.0% in FY2021 to 31.8% in FY2022, a drop of 4.2%."
        v = _eval(judge, self.Q, text, INCOME)
        statuses = {n["text"]: n["status"] for n in v.details["numbers"]}
        assert statuses["36.0%"] == statuses["31.8%"] == "rederived"
        assert statuses["4.2%"] in ("derived", "rederived")
        assert v.decision == "accept", v.feedback

    def test_swapped_years_rejected(self, judge: JudgeAgent) -> None:
        """The same two margins attached to the wrong years are not supported."""
        text = "Yes. Gross margin rose from 31.8% in FY2021 to 36.0% in FY2022."
        v = _eval(judge, self.Q, text, INCOME)
        assert v.decision == "retry"
        assert {n["status"] for n in v.details["numbers"]} == {"not_found"}

    def test_change_of_an_amount(self, judge: JudgeAgent) -> None:
        """A change the answer states for a year ('by $750 million in FY2022') is the statement
        model's difference from the year before; a wrong change is not."""
        q = "Did Corning reduce its total debt in FY2022?"
        ok = _eval(judge, q, "Yes. Total debt decreased by $750 million in FY2022.", DEBT)
        assert ok.details["numbers"][0]["status"] == "rederived", ok.details["numbers"]
        assert ok.decision == "accept", ok.feedback
        bad = _eval(judge, q, "Yes. Total debt decreased by $850 million in FY2022.", DEBT)
        assert bad.decision == "retry"

    def test_lines_at_different_scales_not_combined(self) -> None:
        """Statement lines read at different scales (a table whose '(in millions)' was missed)
        give no computed metric rather than one off by the scale."""
        from finqa.agents.judge.statement_figures import StatementFigures

        unscaled = DEBT.replace("(in millions)\n", "").replace("Long-term debt", "Long term debt")
        split = unscaled.replace("Current portion of long-term debt\n150\n400\n", "")
        scaled = "Consolidated Balance Sheets\n(in millions)\nDecember 31,\n2022\n2021\n"
        scaled += "Current portion of long-term debt\n150\n400\n"
        figures = StatementFigures(_evidence(split, scaled))
        assert figures.value("total_debt", 2022) is None
        assert StatementFigures(_evidence(DEBT)).value("total_debt", 2022) is not None

    def test_span_question_not_one_year(self, judge: JudgeAgent) -> None:
        """For a question over a span of years, an earlier year's value given without its year
        is not taken as the answer."""
        q = "What was Corning's average gross margin over FY2021-FY2022?"
        v = _eval(judge, q, "36.0%", INCOME)
        assert v.details["numbers"][0]["status"] != "rederived"
