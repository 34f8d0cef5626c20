"""A line the question writes out in the filing's own words, found by the judge in the evidence
(agents/judge/printed_caption.py): an answer none of whose figures is printed on that row
answers another line and is not accepted; one read from the row is."""

from __future__ import annotations

from _reasoning_data import evidence
from finqa.agents.config import Settings
from finqa.agents.judge import JudgeAgent
from finqa.agents.types import Answer

INCOME = """ACME CORP
CONSOLIDATED STATEMENTS OF INCOME
(in millions)
52 Weeks Ended
August 30, 2015 August 31, 2014 September 1, 2013
REVENUE
Net sales $ 113,666 $ 110,212 $ 102,870
Membership fees 2,533 2,428 2,286
Total revenue 116,199 112,640 105,156
OPERATING EXPENSES
Merchandise costs 101,065 98,458 91,948
Transaction and credit losses 398 360 301
Operating income 3,624 3,220 3,053
"""

HEADED = """ACME CORP
SEGMENT RESULTS
(Dollars in millions) FISCAL 2020 FISCAL 2019 % CHANGE
CHANGES FISCAL 2018 % CHANGE
Revenues $ 14,484 $ 15,902 -9 %
"""


def _verdict(question: str, text: str, page: str = INCOME):  # noqa: ANN202 - a Verdict
    judge = JudgeAgent(Settings())
    return judge.evaluate(question, Answer(text=text), evidence(page), 1)


def _problems(verdict) -> list[str]:  # noqa: ANN001
    return [p["code"] for p in verdict.details.get("answer_problems", [])]


class TestNamedCaption:
    def test_total_for_a_named_line_is_not_accepted(self) -> None:
        """'revenue ... from membership fees': the row 'Membership fees' is the line asked; the
        total revenue is another line's figure."""
        q = "How much revenue did Acme earn from membership fees in fiscal 2015?"
        wrong = _verdict(q, "Fiscal 2015 revenue: $116,199 million [S1].")
        assert wrong.decision != "accept"
        assert "named_line" in _problems(wrong)
        right = _verdict(q, "Fiscal 2015 membership fees: $2,533 million [S1].")
        assert "named_line" not in _problems(right)

    def test_a_cost_named_by_its_caption(self) -> None:
        q = "What did Acme record for transaction and credit losses in fiscal 2015?"
        wrong = _verdict(q, "Fiscal 2015 revenue: $116,199 million [S1].")
        assert "named_line" in _problems(wrong)
        right = _verdict(q, "Fiscal 2015 transaction and credit losses: $398 million [S1].")
        assert "named_line" not in _problems(right)

    def test_a_catalogue_item_s_own_words_name_no_other_line(self) -> None:
        """'total revenue' is the metric's own caption: nothing more is named."""
        q = "What was Acme's total revenue in fiscal 2015?"
        verdict = _verdict(q, "Fiscal 2015 total revenue: $116,199 million [S1].")
        assert "named_line" not in _problems(verdict)

    def test_a_heading_of_movements_is_no_line(self) -> None:
        """'CHANGES FISCAL 2018 % CHANGE' heads columns: 'change' names the form asked."""
        q = "By what percentage did Acme's revenues change in fiscal 2020?"
        verdict = _verdict(q, "Fiscal 2020 revenue growth: -8.9% [S1].", HEADED)
        assert "named_line" not in _problems(verdict)


BALANCE = """ACME CORP
CONSOLIDATED BALANCE SHEETS
(in millions) 2017 2016
Long-term debt 6,490 5,749
Redeemable preferred stock at redemption value 8 10
Total long-term debt 6,498 5,759
Short-term debt 905 849
Current portion of long-term debt 322 574
"""


def _debt_answer(long_term: float) -> Answer:
    from finqa.agents.types import Calculation, Operand
    from finqa.lexicon.arith import evaluate

    ops = tuple(
        Operand(name=n, value=v, text=f"{t} {v:,.0f}", scale=1e6, period="FY2017", source_id="S1")
        for n, v, t in (
            ("short_term_debt_fy2017", 905.0, "Short-term debt"),
            ("current_ltd_fy2017", 322.0, "Current portion of long-term debt"),
            ("long_term_debt_fy2017", long_term, "Long-term debt"),
        )
    )
    expr = "short_term_debt_fy2017 + current_ltd_fy2017 + long_term_debt_fy2017"
    result = evaluate(expr, {o.name: o.value for o in ops})
    calc = Calculation(expression=expr, operands=ops, result=result, unit="USD")
    return Answer(
        text=f"Total debt at December 31, 2017: ${result:,.0f} million [S1].", calculations=(calc,)
    )


class TestLeftOut:
    Q = (
        "What was Acme's total debt at December 31, 2017 (short-term debt, current portion of "
        "long-term debt and long-term debt), leaving out redeemable preferred stock?"
    )

    def test_a_total_holding_the_line_left_out_is_not_accepted(self) -> None:
        """6,498 = 6,490 + 8: the total long-term debt holds the preferred stock left out."""
        judge = JudgeAgent(Settings())
        wrong = judge.evaluate(self.Q, _debt_answer(6498.0), evidence(BALANCE), 1)
        assert wrong.decision != "accept"
        assert any("leaves out" in p["message"] for p in wrong.details["answer_problems"])
        right = judge.evaluate(self.Q, _debt_answer(6490.0), evidence(BALANCE), 1)
        assert not any("leaves out" in p["message"] for p in right.details["answer_problems"])


CONTINUING = """ACME CORP
CONSOLIDATED STATEMENTS OF INCOME
(in millions) 2020 2019
Net revenues $ 10,271 $ 10,800
Income from continuing operations 2,542 1,516
Income from discontinued operations, net of income taxes 3,125 270
Net income $ 5,667 $ 1,786
"""


def _margin(net: float, label: str) -> Answer:
    from finqa.agents.types import Calculation, Operand
    from finqa.lexicon.arith import evaluate

    ops = (
        Operand(name="net_income_fy2020", value=net, text=f"{label} {net:,.0f}", scale=1e6,
                period="FY2020", source_id="S1"),
        Operand(name="revenue_fy2020", value=10271.0, text="Net revenues $ 10,271", scale=1e6,
                period="FY2020", source_id="S1"),
    )  # fmt: skip
    expr = "net_income_fy2020 / revenue_fy2020 * 100"
    result = evaluate(expr, {o.name: o.value for o in ops})
    calc = Calculation(expression=expr, operands=ops, result=result, unit="percent")
    return Answer(text=f"FY2020 net profit margin: {result:.1f}% [S1].", calculations=(calc,))


def test_a_ratio_s_operand_spelled_out_in_its_definition() -> None:
    """'net margin (income from continuing operations over net revenues)': the definition
    names the line; a margin over net income is not accepted, one over the named line is."""
    q = (
        "Looking only at continuing operations, what was Acme's 2020 net margin (income from "
        "continuing operations over net revenues)?"
    )
    judge = JudgeAgent(Settings())
    wrong = judge.evaluate(q, _margin(5667.0, "Net income"), evidence(CONTINUING), 1)
    assert "named_line" in _problems(wrong)
    right = judge.evaluate(
        q, _margin(2542.0, "Income from continuing operations"), evidence(CONTINUING), 1
    )
    assert "named_line" not in _problems(right)
    # a rate qualified by a scope without a definition names no line of its own
    plain = "What was Acme's 2020 effective tax rate on continuing operations?"
    assert "named_line" not in _problems(_verdict(plain, "FY2020 rate: 25.7% [S1].", CONTINUING))


CAPEX = """ACME CORP
CAPITAL SPENDING BY DIVISION
(in millions) 2018 2017
North America $ 2,100 $ 1,900
Europe 930 890
Corporate 252 179
Total capital spending $ 3,282 $ 2,969
PepsiCo, Inc. 3,282 2,969
"""


class TestNotTheLineAsked:
    def test_a_part_the_whole_includes_or_leaves_out(self) -> None:
        """'total capital spending, including corporate': 'Corporate' is a part of the whole
        asked, not the line asked; 'excluding Europe' the same."""
        for q in (
            "What was Acme's total capital spending in 2018, including corporate?",
            "What was Acme's total capital spending in 2018 (excluding Europe)?",
        ):
            verdict = _verdict(q, "FY2018 capital spending: $3,282 million [S1].", CAPEX)
            assert "named_line" not in _problems(verdict), q

    def test_the_company_s_own_name_is_no_line(self) -> None:
        q = "What was PepsiCo, Inc.'s total capital spending in 2018?"
        verdict = _verdict(q, "FY2018 capital spending: $2,100 million [S1].", CAPEX)
        assert "named_line" not in _problems(verdict)

    def test_the_revenue_a_cost_is_asked_for(self) -> None:
        """'the cost lines for membership fees' names what the cost is for, a line of another
        nature: no refusal for not reading the revenue row."""
        q = "What was Acme's cost of sales in fiscal 2015, adding the cost lines for net sales?"
        verdict = _verdict(q, "Fiscal 2015 cost of sales: $101,065 million [S1].")
        assert "named_line" not in _problems(verdict)


def test_accounting_not_final_is_no_fact_of_completion() -> None:
    """'accounted for the tax effects ... on a provisional basis' states no finished
    accounting: a hedge, so no Yes rests on it."""
    from finqa.lexicon.hedges import hedge_in

    said = "We have accounted for the tax effects of the Act on a provisional basis."
    assert hedge_in(said) is not None
    assert hedge_in("We have completed our accounting for the tax effects of the Act.") is None


def test_a_sum_spelled_out_in_a_definition_may_be_read_as_its_printed_total() -> None:
    """'gross margin, using total cost of sales (product costs plus severance charges)': the
    printed total holds the lines; no refusal for not reading 'Severance charges' itself."""
    page = """ACME CORP
STATEMENTS OF EARNINGS
(in millions) 2022 2021
Net sales $ 65,984 $ 67,044
Cost of sales - products (57,000) (57,983)
Severance and other charges (100) (36)
Total cost of sales (57,697) (57,983)
Gross profit 8,287 9,061
"""
    q = (
        "What was Acme's 2022 gross margin, using total cost of sales (product costs plus "
        "severance and other charges)?"
    )
    verdict = _verdict(q, "FY2022 gross margin: 12.6% (8,287 / 65,984) [S1].", page)
    assert "named_line" not in _problems(verdict)


class TestScaleWords:
    def test_a_scale_heading_names_no_line(self) -> None:
        """'(in millions)' heading a roll-forward's balances (as a reader may caption them) is
        the answer's scale the question states ('in USD millions'), no line of its own."""
        page = """ACME CORP
CONSOLIDATED STATEMENTS OF INCOME
(in millions) 2024 2023
Net revenues $56,334 $54,318
GOODWILL
(in millions) $32,156 $32,293
"""
        q = "For fiscal year 2024, what was Acme's revenue, in USD millions?"
        verdict = _verdict(q, "FY2024 revenue: $56,334 million [S1].", page)
        assert "named_line" not in _problems(verdict)

    def test_a_row_printed_rounded_carries_the_figure(self) -> None:
        """'26.7%' is the figure a row printing '27 %' rounds."""
        page = """ACME CORP
CONSOLIDATED STATEMENTS OF OPERATIONS
(in thousands) 2024 2023
Revenues $ 39,000,966 $ 33,723,297
Operating income 10,417,614 6,954,003
As a percentage of revenues 27 % 21 %
"""
        q = (
            "What was Acme's operating margin (operating income as a percentage of revenues) "
            "in fiscal year 2024?"
        )
        verdict = _verdict(q, "FY2024 operating margin: 26.7% [S1].", page)
        assert "named_line" not in _problems(verdict)

    def test_a_percentage_caption_names_no_line(self) -> None:
        """'As a percentage of revenues' under another line (cost of revenues) is the form the
        question's definition states, not a line of its own."""
        page = """ACME CORP
RESULTS OF OPERATIONS
(in thousands) 2024 2023
Revenues $ 39,000,966 $ 33,723,297
Cost of revenues $21,038,464 $19,715,368
As a percentage of revenues 54% 58%
Operating income 10,417,614 6,954,003
"""
        q = (
            "What was Acme's operating margin (operating income as a percentage of revenue) "
            "in fiscal year 2024?"
        )
        verdict = _verdict(q, "FY2024 operating margin: 26.7% [S1].", page)
        assert "named_line" not in _problems(verdict)
