"""Is a recorded calculation the asked metric: the catalogue's definition against the operands and
operation the answer records (a ratio where an amount difference is defined, another metric's
operands, a percentage for an amount)."""

from __future__ import annotations

from _reasoning_data import evidence
from finqa.agents.config import Settings
from finqa.agents.judge import JudgeAgent
from finqa.agents.judge.definition import check_definitions, judge_definitions, operand_metric
from finqa.agents.types import Answer, Calculation, Evidence, Operand

CASH_FLOW = """Consolidated Statements of Cash Flows
(in millions)
Fiscal Year
2020
2019
Net cash provided by operating activities
3,676.2
2,807.0
Purchases of land, buildings, and equipment
(460.8)
(537.6)
"""

BALANCE = """Consolidated Balance Sheets
(in millions)
2022
2021
Cash and cash equivalents
1,671
2,148
Short-term investments
500
400
Accounts receivable, net
1,200
1,100
Total current assets
7,453
7,659
Total current liabilities
5,175
4,806
"""

Q_FCF = "What is the FY2020 free cash flow for Acme? Answer in USD millions."
Q_QUICK = "What is Acme's FY2022 quick ratio?"
Q_CURRENT = "What is Acme's FY2022 current ratio?"

CFO = ("cash_from_operations", 3676.2, "Net cash provided by operating activities 3,676.2 2,807.0")
CAPEX = ("capex", 460.8, "Purchases of land, buildings, and equipment (460.8) (537.6)")


def _evidence(text: str) -> Evidence:
    return evidence(text, first_page=51)


def _calc(expression: str, *ops: tuple[str, float, str], period: str = "FY2020") -> Calculation:
    operands = tuple(
        Operand(name=n, value=v, text=t, period=period, scale=1e6, source_id="S1")
        for n, v, t in ops
    )
    values = {o.name: o.value for o in operands}
    from finqa.lexicon.arith import evaluate

    return Calculation(
        expression=expression, operands=operands, result=evaluate(expression, values), unit=""
    )


def _judge(question: str, text: str, calc: Calculation, evidence: str) -> object:
    return JudgeAgent(Settings()).evaluate(
        question, Answer(text=text, calculations=(calc,)), _evidence(evidence), 1
    )


class TestOperandNames:
    def test_operand_named_by_its_row(self) -> None:
        """An operand is read as the catalogue metric its row names, whatever the reasoner called it."""
        op = Operand(name="x0", value=3676.2, text=CFO[2])
        assert operand_metric(op) == "cfo"

    def test_operand_named_by_its_name_when_the_row_is_unknown(self) -> None:
        """An operand whose row the catalogue cannot name is read by its own name."""
        op = Operand(name="capex_fy2020", value=-460.8, text="Purchases of land (460.8)")
        assert operand_metric(op) == "capex"

    def test_glued_caption_read_through_the_line_item_catalogue(self) -> None:
        """A caption whose words the PDF text glued together ('Totalrevenues') still names its metric."""
        assert operand_metric(Operand(name="x1", value=194579, text="Totalrevenues 194,579")) == (
            "revenue"
        )


class TestDefinitionCheck:
    def test_ratio_for_an_amount_difference_fails(self) -> None:
        """(cfo - capex) / cfo * 100 over free cash flow's own operands is another operation."""
        calc = _calc("(cash_from_operations - capex) / cash_from_operations * 100", CFO, CAPEX)
        [check] = check_definitions([calc], [0], "fcf", ["amount"])
        assert check.status == "other_operation"
        assert "cash from operations - capital expenditures" in check.message

    def test_definition_passes_with_either_sign_convention(self) -> None:
        """cfo - capex passes, and so does cfo + capex with capex recorded as a negative outflow."""
        plain = _calc("cash_from_operations - capex", CFO, CAPEX)
        negative = _calc("cash_from_operations + capex", CFO, ("capex", -460.8, CAPEX[2]))
        checks = check_definitions([plain, negative], [0, 1], "fcf", ["amount"])
        assert [c.status for c in checks] == ["matches", "matches"]

    def test_operands_of_another_metric_named(self) -> None:
        """Cash plus short-term investments over current liabilities is the cash ratio, not the quick ratio."""
        calc = _calc(
            "(a + b) / c",
            ("a", 1671, "Cash and cash equivalents 1,671"),
            ("b", 500, "Short-term investments 500"),
            ("c", 5175, "Total current liabilities 5,175"),
            period="FY2022",
        )
        [check] = check_definitions([calc], [0], "quick_ratio", ["ratio"])
        assert check.status == "other_metric" and check.computes == "cash_ratio"

    def test_average_balance_across_periods_matches(self) -> None:
        """365 x the average of two years' receivables over revenue is days sales outstanding."""
        calc = Calculation(
            expression="365 * (a + b) / 2 / r",
            operands=(
                Operand(name="a", value=40, text="Accounts receivable, net 40", period="FY2022"),
                Operand(name="b", value=30, text="Accounts receivable, net 30", period="FY2021"),
                Operand(name="r", value=100, text="Total revenues 100", period="FY2022"),
            ),
            result=127.75,
        )
        [check] = check_definitions([calc], [0], "dso", ["days"])
        assert check.status == "matches"

    def test_unnamed_operands_judged_by_dimension(self) -> None:
        """A ratio of two unnamed amounts is not an amount metric; an amount difference of them is not judged."""
        ratio = _calc("x0 / x1 * 100", ("x0", 40.0, "40"), ("x1", 30.0, "30"))
        diff = _calc("x0 - x1", ("x0", 40.0, "40"), ("x1", 30.0, "30"))
        checks = check_definitions([ratio, diff], [0, 1], "fcf", ["amount"])
        assert [c.status for c in checks] == ["wrong_dimension", "not_judged"]


class TestJudgeOnDefinitions:
    def test_free_cash_flow_as_a_percentage_rejected(self) -> None:
        """87.47 computed as (cfo - capex) / cfo * 100 for a free cash flow question is rejected,
        its feedback saying what free cash flow is."""
        calc = _calc("(cash_from_operations - capex) / cash_from_operations * 100", CFO, CAPEX)
        v = _judge(Q_FCF, "Free cash flow was 87.47 [S1].", calc, CASH_FLOW)
        assert v.decision == "retry"
        assert "87.47" in v.unsupported_numbers
        assert "cash from operations - capital expenditures" in v.feedback
        assert v.details["definitions"][0]["status"] == "other_operation"

    def test_free_cash_flow_as_defined_accepted(self) -> None:
        """3,215.4 computed as cfo - capex for the same question is accepted."""
        calc = _calc("cash_from_operations - capex", CFO, CAPEX)
        v = _judge(Q_FCF, "Free cash flow was $3,215.4 million [S1].", calc, CASH_FLOW)
        assert v.decision == "accept", v.feedback
        assert v.details["definitions"][0]["status"] == "matches"

    def test_working_capital_for_a_current_ratio_rejected(self) -> None:
        """Current assets minus current liabilities stated for a current ratio is rejected as working capital."""
        calc = _calc(
            "a - b",
            ("a", 7453, "Total current assets 7,453"),
            ("b", 5175, "Total current liabilities 5,175"),
            period="FY2022",
        )
        v = _judge(Q_CURRENT, "The current ratio is 2,278 [S1].", calc, BALANCE)
        assert v.decision == "retry"
        assert "working capital" in v.feedback.lower()

    def test_current_ratio_as_defined_accepted(self) -> None:
        """Current assets over current liabilities stated for a current ratio is accepted."""
        calc = _calc(
            "a / b",
            ("a", 7453, "Total current assets 7,453"),
            ("b", 5175, "Total current liabilities 5,175"),
            period="FY2022",
        )
        v = _judge(Q_CURRENT, "The current ratio is 1.44 [S1].", calc, BALANCE)
        assert v.decision == "accept", v.feedback


class TestAcrossPeriods:
    def test_change_of_a_margin_is_the_margin(self) -> None:
        """The change in gross margin between two years is judged the asked metric, not another operation."""
        calc = Calculation(
            expression="(a - b) / a * 100 - (c - d) / c * 100",
            operands=(
                Operand(name="a", value=14189, text="Net sales 14,189", period="FY2022"),
                Operand(name="b", value=9683, text="Cost of sales 9,683", period="FY2022"),
                Operand(name="c", value=14082, text="Net sales 14,082", period="FY2021"),
                Operand(name="d", value=9019, text="Cost of sales 9,019", period="FY2021"),
            ),
            result=-4.19,
        )
        [check] = check_definitions([calc], [0], "gross_margin", ["percent"])
        assert check.status == "matches"

    def test_cost_ratio_for_a_gross_margin_fails(self) -> None:
        """Cost of sales over net sales for a gross margin rests on its line items but is another operation."""
        calc = _calc(
            "b / a * 100",
            ("a", 14189, "Net sales 14,189"),
            ("b", 9683, "Cost of sales 9,683"),
            period="FY2022",
        )
        [check] = check_definitions([calc], [0], "gross_margin", ["percent"])
        assert check.failed


class TestDimensionsOnlyOverAmounts:
    def test_operands_recorded_as_ratios_not_judged_by_dimension(self) -> None:
        """A difference of operands recorded as ratios is not called a ratio for an amount question."""
        calc = Calculation(
            expression="x0 - x1",
            operands=(
                Operand(name="x0", value=40.0, unit="ratio", text="40"),
                Operand(name="x1", value=30.0, unit="ratio", text="30"),
            ),
            result=10.0,
        )
        [check] = check_definitions([calc], [0], "fcf", ["amount"])
        assert check.status == "not_judged"


class TestCatalogueReadings:
    def test_amount_row_captioned_as_a_margin_is_the_profit(self) -> None:
        """An amount printed on a 'Gross margin' row is gross profit, so gross profit / net sales is the gross margin."""
        calc = _calc(
            "gross_profit_fy2022 / revenue_fy2022 * 100",
            ("gross_profit_fy2022", 170782, "Gross margin 170,782"),
            ("revenue_fy2022", 394328, "Total net sales 394,328"),
            period="FY2022",
        )
        assert operand_metric(calc.operands[0]) == "gross_profit"
        [check] = check_definitions([calc], [0], "gross_margin", ["percent"])
        assert check.status == "matches"

    def test_a_second_catalogue_formula_is_the_metric(self) -> None:
        """Dividends over net income is the payout ratio by the catalogue's second formula."""
        calc = _calc(
            "d / n * 100",
            ("d", 400, "Dividends paid 400"),
            ("n", 1000, "Net income 1,000"),
        )
        [check] = check_definitions([calc], [0], "dividend_payout_ratio", ["percent", "ratio"])
        assert check.status == "matches"

    def test_bare_line_listed_in_formulas_is_no_definition(self) -> None:
        """Long-term debt alone is not total debt, though a reader may look for that line."""
        calc = _calc("ltd", ("ltd", 27516, "Long-term debt 27,516"))
        [check] = check_definitions([calc], [0], "total_debt", ["amount"])
        assert check.status != "matches"

    def test_two_short_term_debt_lines_plus_long_term_debt_is_total_debt(self) -> None:
        """Short-term borrowings + current maturities + long-term debt is short-term + long-term debt."""
        calc = _calc(
            "(a + b) + c",
            ("a", 10994, "Loans and notes payable 10,994"),
            ("b", 4253, "Current maturities of long-term debt 4,253"),
            ("c", 27516, "Long-term debt 27,516"),
        )
        assert [operand_metric(o) for o in calc.operands] == [
            "short_term_debt",
            "short_term_debt",
            "long_term_debt",
        ]
        [check] = check_definitions([calc], [0], "total_debt", ["amount"])
        assert check.status == "matches"

    def test_the_same_line_counted_twice_is_not_total_debt(self) -> None:
        """The same short-term debt row added twice is not short-term + long-term debt."""
        row = ("a", 10994, "Loans and notes payable 10,994")
        calc = _calc("a + b + c", row, ("b", 10994, row[2]), ("c", 27516, "Long-term debt 27,516"))
        [check] = check_definitions([calc], [0], "total_debt", ["amount"])
        assert check.status == "other_operation"

    def test_one_fact_read_from_two_sources_is_not_summed(self) -> None:
        """Long-term debt read from the balance sheet and again from the debt note (two
        captions, one figure) and added to short-term debt counts one fact twice: not total
        debt."""
        calc = _calc(
            "a + b + c",
            ("a", 27516, "Long-term debt 27,516"),
            ("b", 27516, "Long-term debt, net of current portion 27,516"),
            ("c", 10994, "Loans and notes payable 10,994"),
        )
        [check] = check_definitions([calc], [0], "total_debt", ["amount"])
        assert check.status == "other_operation"

    def test_attributable_net_income_is_net_income(self) -> None:
        """Net income attributable to the company is net income as the catalogue defines it."""
        calc = _calc("n", ("n", 19265, "Net income attributable to Verizon 19,265"))
        [check] = check_definitions([calc], [0], "net_income", ["amount"])
        assert check.status == "matches"

    def test_consolidated_net_income_is_not_net_income(self) -> None:
        """Net income including noncontrolling interests is not the company's net income."""
        calc = _calc("n", ("n", 19788, "Net income including noncontrolling interests 19,788"))
        [check] = check_definitions([calc], [0], "net_income", ["amount"])
        assert check.status == "other_metric"


class TestReturnOnParentEquity:
    """Return on equity over the company's share of net income takes the parent's equity."""

    NI = ("n", 8920, "Net Income Attributable to Shareowners of The Coca-Cola Company 8,920 6,434")

    def test_total_equity_naming_no_owners_fails(self) -> None:
        """Attributable net income over 'Total Equity' (noncontrolling interests included) is refused."""
        calc = _calc("n / e", self.NI, ("e", 21098, "Total Equity 21,098 19,058"))
        [check] = check_definitions([calc], [0], "roe", ["ratio", "percent"])
        assert check.failed and "Total Equity" in check.message

    def test_shareholders_equity_passes(self) -> None:
        """Net income over total shareholders' equity is return on equity."""
        calc = _calc("n / e", self.NI, ("e", 18981, "Total shareholders' equity 18,981 16,981"))
        [check] = check_definitions([calc], [0], "roe", ["ratio", "percent"])
        assert check.status == "matches"

    def test_judged_when_the_kind_of_figure_is_unread(self) -> None:
        """The parent-equity rule holds when the question's kind of figure is not read."""
        from types import SimpleNamespace

        from finqa.agents.judge.numeric import NumberCheck

        calc = _calc("n / e", self.NI, ("e", 21098, "Total Equity 21,098 19,058"))
        nc = NumberCheck("0.42", 0, 4, 0.42, "", status="calculation", calculation=0)
        expect = SimpleNamespace(metric="roe", kind=None, also=())
        [check] = judge_definitions([calc], [nc], expect, SimpleNamespace(metrics=["roe"]))
        assert check.failed and nc.status == "calc_other_metric"
