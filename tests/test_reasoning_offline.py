"""The offline backend on hand-made statement snippets: reads the right cells, computes, abstains."""

from __future__ import annotations

import pytest
from _reasoning_data import (
    BALANCE,
    BANK_INCOME,
    CASH_FLOW,
    CASH_FLOW_TOTALS,
    DEBT_BALANCE,
    INCOME,
    INCOME_RESTRUCTURING,
    INCOME_VOLATILE,
    QUICK_BALANCE,
    TAX_NOTE,
    UTILITY_STATEMENTS,
    evidence,
)
from finqa.agents.config import Settings
from finqa.agents.reasoning import build_reasoner
from finqa.agents.reasoning.offline.tables import read_tables
from finqa.lexicon.arith import ArithmeticError_, evaluate, variables


def ask(question: str, *texts: str, attempt: int = 1, doc: str = "ACME_2022_10K"):  # type: ignore[no-untyped-def]
    return build_reasoner(Settings()).generate(
        question, evidence(*texts, doc=doc, question=question), attempt
    )


def recompute(answer) -> float:  # type: ignore[no-untyped-def]
    calc = answer.calculations[0]
    return evaluate(calc.expression, {o.name: o.value for o in calc.operands})


class TestTables:
    """Statement tables are read into rows with the right year columns and scale."""

    def test_pdf_layout_rows(self) -> None:
        """Cells on their own lines (with '$' cells) give one row per label, in header-year order."""
        t = read_tables(INCOME, source_id="S1", doc_id="D", page=1)
        assert t.years == (2022, 2021, 2020) and t.scale == 1e6 and t.statement == "income"
        rev = next(r for r in t.rows if r.key == "netrevenue")
        assert rev.value_for(2021) == 79474 and rev.value_for(2020) == 70372

    def test_parentheses_are_negative(self) -> None:
        """'(5,207)' reads as -5207."""
        t = read_tables(CASH_FLOW, source_id="S1", doc_id="D", page=1)
        capex = next(r for r in t.rows if r.key == "capitalspending")
        assert capex.values == (-5207, -4625, -4240)

    def test_ascending_year_columns(self) -> None:
        """Columns ordered 2020 2021 2022 (as some filers print them) map to the right years."""
        text = (
            "Statements of Operations\n(in millions)\n2020 2021 2022\nTotal net sales 100 200 300\n"
        )
        row = read_tables(text, source_id="S1", doc_id="D", page=1).rows[0]
        assert row.value_for(2022) == 300 and row.value_for(2020) == 100

    def test_row_with_missing_cells_is_skipped(self) -> None:
        """A row with fewer numbers than columns is not guessed."""
        text = "Statements of Income\n(in millions)\n2022 2021 2020\nImpairment charges 3,166 42\n"
        assert read_tables(text, source_id="S1", doc_id="D", page=1).rows == []


class TestMetrics:
    """Metric questions are computed from the statement rows with a re-executable Calculation."""

    def test_free_cash_flow(self) -> None:
        """FCF = CFO - capex, in USD millions, cited, and the calculation re-executes."""
        a = ask(
            "What is the FY2022 free cash flow (FCF) for Acme? FCF is defined as cash from operations - capex. Answer in USD millions.",
            CASH_FLOW,
        )
        assert not a.abstained
        assert "$5,604 million" in a.text
        assert recompute(a) == pytest.approx(5604)
        assert {c.source_id for c in a.citations} == {"S1"} and a.citations[0].page == 40

    def test_average_balance_ratio(self) -> None:
        """Fixed asset turnover uses the average of two year-end PP&E balances (scales reconciled)."""
        a = ask(
            "What is the FY2022 fixed asset turnover ratio for Acme? Fixed asset turnover ratio is defined as: "
            "FY2022 revenue / (average PP&E between FY2021 and FY2022). Round your answer to two decimal places.",
            INCOME,
            BALANCE,
        )
        expected = 86392 / ((319.404 + 250.395) / 2)
        assert recompute(a) == pytest.approx(expected, rel=1e-9)
        assert f"{expected:.2f}" in a.text
        assert {c.source_id for c in a.citations} == {"S1", "S2"}

    def test_three_year_average_margin(self) -> None:
        """A 3-year average margin averages the three yearly margins, rounded as asked."""
        a = ask(
            "What is the FY2020 - FY2022 3 year average unadjusted operating income % margin for Acme? "
            "Answer in units of percents and round to one decimal place.",
            INCOME,
        )
        margins = [11512 / 86392, 11162 / 79474, 10080 / 70372]
        expected = 100 * sum(margins) / 3
        assert f"{expected:.1f}%" in a.text
        assert recompute(a) == pytest.approx(expected)

    def test_ebitda_margin_across_statements(self) -> None:
        """EBITDA = operating income (income statement) + D&A (cash flow statement)."""
        a = ask("What is the FY2022 unadjusted EBITDA % margin for Acme?", INCOME, CASH_FLOW)
        assert recompute(a) == pytest.approx((11512 + 2763) / 86392 * 100)
        assert a.calculations[0].unit == "%"

    def test_unit_conversion_thousands_to_millions_and_billions(self) -> None:
        """A balance in thousands is answered in the unit the question asks for."""
        a = ask(
            "What is the year end FY2022 total current liabilities for Acme (in USD millions)?",
            BALANCE,
        )
        assert "$5,466.31 million" in a.text
        b = ask("What is Acme's FY2022 total assets? Answer in USD billions.", BALANCE)
        assert "$19.01 billion" in b.text

    def test_balance_item_not_read_from_cash_flow(self) -> None:
        """'Inventories' on the cash flow statement (a change) is not a year-end balance."""
        a = ask(
            "What is the year end FY2022 inventories for Acme? Answer in USD millions.",
            CASH_FLOW,
            BALANCE,
        )
        assert "$1,559.3 million" in a.text

    def test_dividend_payout_uses_attributable_income(self) -> None:
        """Payout ratio = dividends paid / net income attributable to shareholders."""
        a = ask(
            "What is Acme's FY2022 dividend payout ratio? Round answer to two decimal places.",
            INCOME,
            CASH_FLOW,
        )
        assert f"{6172 / 8910:.2f}" in a.text

    def test_yes_no_positive_working_capital(self) -> None:
        """'Does X have positive working capital?' is answered Yes/No from the computed figure."""
        a = ask("Does Acme have positive working capital based on FY2022 data?", BALANCE)
        assert a.text.startswith("Yes.")


class TestAbstention:
    """The backend says it cannot determine rather than guessing."""

    def test_missing_line_item(self) -> None:
        """Capex missing from the evidence: abstain, no calculation, no citation."""
        a = ask("What is the FY2022 free cash flow for Acme? Answer in USD millions.", INCOME)
        assert a.abstained and "cannot determine from the filings" in a.text
        assert a.calculations == () and a.citations == ()

    def test_missing_year(self) -> None:
        """A year not in the table is not taken from another column."""
        a = ask("What is the FY2019 cost of goods sold for Acme? Answer in USD millions.", INCOME)
        assert a.abstained

    def test_other_language(self) -> None:
        """A question in another language gets an answer or an abstention, never a crash."""
        a = ask("¿Cuál fue el flujo de caja libre de Acme en 2022?", CASH_FLOW)
        assert a.abstained or a.citations

    def test_descriptive_question_quotes_the_cause(self) -> None:
        """A 'what drove' question returns the cited sentence stating the cause."""
        text = (
            "Management discussion. Gross margin decreased in 2022 primarily due to higher commodity "
            "costs and supply chain disruptions across our North American segment."
        )
        a = ask("What drove gross margin change as of FY2022 for Acme?", text)
        assert not a.abstained and "commodity" in a.text and a.citations
        assert a.confidence["mode"] == "cause"

    def test_description_without_a_family_shows_passages(self) -> None:
        """A description no sentence family answers abstains and shows the nearest passages."""
        text = (
            "Our business. Acme primarily operates in the packaging industry, selling to food, "
            "beverage, pharmaceutical and medical customers in over forty countries."
        )
        a = ask("What industry does Acme primarily operate in?", text)
        assert a.abstained and "cannot determine from the filings" in a.text
        assert a.citations and a.confidence["mode"] == "passages"

    @pytest.mark.parametrize(
        "question",
        [
            "Which of Acme's business segments had the lowest net revenue in FY2022?",
            "Did Acme's North American segment grow in FY2022?",
            "By how much did Acme increase its revolving credit agreement?",
        ],
    )
    def test_verdict_or_choice_is_not_guessed_from_a_passage(self, question: str) -> None:
        """A yes/no, 'which' or 'how much' question is not answered by quoting a passage."""
        text = (
            "Segment results. North American segment net revenue was $1,200 million and the "
            "International segment net revenue was $800 million; the revolving credit agreement "
            "was amended in 2022."
        )
        a = ask(question, text)
        assert a.abstained and "cannot determine from the filings" in a.text
        assert a.citations and a.confidence["mode"] == "passages"


class TestWhatWereFigures:
    """'What were X's <line item>' asks for a figure, not for a description."""

    def test_what_were_current_liabilities_reads_the_balance_sheet(self) -> None:
        """The line item is read from the statement instead of quoting a passage."""
        a = ask("What were Acme's total current liabilities at the end of FY2022?", BALANCE)
        assert not a.abstained and a.calculations and a.confidence["mode"] == "metric"

    def test_what_were_the_drivers_stays_descriptive(self) -> None:
        """A question about drivers keeps the extractive path."""
        text = "Revenue grew in 2022 primarily due to higher volumes in the Industrial segment."
        a = ask("What were the main drivers of Acme's revenue growth in FY2022?", text)
        assert a.confidence["mode"] in ("cause", "abstain")

    def test_major_items_asked_is_a_list_not_a_figure(self) -> None:
        """'What are major acquisitions ...' is not answered with the cash-flow line's figure."""
        text = CASH_FLOW + "Acquisitions, net of cash acquired (468) (20) (30)\n"
        a = ask("What are major acquisitions that Acme has done in FY2022?", text)
        assert a.confidence["mode"] != "metric" and "(468)" not in a.text


class TestArithmetic:
    """The evaluator is arithmetic only."""

    @pytest.mark.parametrize(
        "expr",
        [
            "__import__('os').system('x')",
            "a.b",
            "[1][0]",
            "open('f')",
            "lambda: 1",
            "1 if 1 else 2",
        ],
    )
    def test_rejects_non_arithmetic(self, expr: str) -> None:
        """Anything beyond numbers, names, + - * / and allowed functions is refused."""
        with pytest.raises(ArithmeticError_):
            evaluate(expr, {"a": 1.0})

    def test_avg_and_precedence(self) -> None:
        """avg(), parentheses and precedence work; variables are listed in order."""
        assert evaluate(
            "365 * avg(a, b) / (c + d - e)", {"a": 1, "b": 3, "c": 5, "d": 2, "e": 2}
        ) == pytest.approx(146)
        assert variables("x + avg(y, x)") == ["x", "y"]

    def test_division_by_zero(self) -> None:
        """Division by zero is an ArithmeticError_, not a crash."""
        with pytest.raises(ArithmeticError_):
            evaluate("a / b", {"a": 1, "b": 0})


MDNA = """Item 7. Results of Operations
Consolidated Statements of Operations Data (amounts in millions)
2022 2021
Net revenue 86,392 100 79,474 100
Cost of sales 40,576 47 37,075 47
"""

EXHIBIT = """Exhibit
99.3
OTHER HOLDINGS, LLC
CONSOLIDATED
BALANCE
SHEETS
(In thousands)
2022 2021
Accounts payable 25,758 24,950
"""


class TestRobustness:
    """Layouts seen in real filings and retrieval chunks."""

    def test_chunk_without_header_uses_filing_year(self) -> None:
        """A statement chunk cut below its header reads its columns as FY, FY-1, FY-2 of the 10-K."""
        chunk = "Net Cash Provided by Operating Activities 10,811 11,616 10,613\nCapital spending (5,207) (4,625) (4,240)\n"
        ev = evidence(chunk, sections=("Consolidated Statement of Cash Flows",))
        q = "What is the FY2021 free cash flow for Acme? Answer in USD millions."
        a = build_reasoner(Settings()).generate(q, ev, 1)
        # scale unknown in the chunk and nowhere else: the amount is not guessed
        assert a.abstained
        scaled = evidence(INCOME, chunk, sections=(None, "Consolidated Statement of Cash Flows"))
        b = build_reasoner(Settings()).generate(q, scaled, 1)
        assert "$6,991 million" in b.text

    def test_several_rows_on_one_line(self) -> None:
        """'... (3.4) Dividends paid (1,244.5) ...' is split into rows."""
        text = (
            "Consolidated Statements of Cash Flows\n(In Millions)\n2022 2021 2020\n"
            "Purchases of common stock for treasury (876.8) (301.4) (3.4) Dividends paid (1,244.5) (1,246.4) (1,195.8) "
            "Other, net (28.0) (30.9) (16.0)\n"
        )
        rows = {r.key: r.values for r in read_tables(text, source_id="S1", doc_id="D", page=1).rows}
        assert rows["dividendspaid"] == (-1244.5, -1246.4, -1195.8)

    def test_statement_preferred_over_mdna_table(self) -> None:
        """The income statement wins over an MD&A table with percent columns."""
        a = ask("What is the FY2021 COGS for Acme? Answer in USD millions.", MDNA, INCOME)
        assert "$37,075 million" in a.text

    def test_exhibit_of_another_entity_is_ignored(self) -> None:
        """An affiliate's balance sheet filed as an exhibit is not the filer's."""
        a = ask(
            "What is the year end FY2022 accounts payable for Acme? Answer in USD millions.",
            EXHIBIT,
        )
        assert a.abstained
        b = ask(
            "What is the year end FY2022 accounts payable for Acme? Answer in USD millions.",
            EXHIBIT,
            BALANCE,
        )
        assert "$359.56 million" in b.text

    def test_unlabeled_total_row(self) -> None:
        """A total printed without a label after a section heading is read as 'Total <heading>'."""
        text = "Statements of Operations\n(In thousands)\n2020\n2019\nRevenues\nCasino\n10\n20\nRooms\n5\n6\n\n15\n26\n"
        rows = {r.key: r.values for r in read_tables(text, source_id="S1", doc_id="D", page=1).rows}
        assert rows["totalrevenues"] == (15, 26)

    def test_growth_cagr_and_change(self) -> None:
        """Growth, CAGR and change-in-margin questions aggregate across years."""
        g = ask(
            "What is the FY2021 - FY2022 total revenue growth rate for Acme? Answer in units of percents and round to one decimal place.",
            INCOME,
        )
        assert f"{(86392 / 79474 - 1) * 100:.1f}%" in g.text
        c = ask(
            "What is the FY2020 - FY2022 2 year total revenue CAGR for Acme? Answer in units of percents and round to one decimal place.",
            INCOME,
        )
        assert f"{((86392 / 70372) ** 0.5 - 1) * 100:.1f}%" in c.text
        d = ask(
            "What is the FY2021 - FY2022 change in unadjusted operating income % margin for Acme? Answer in units of percents and round to one decimal place.",
            INCOME,
        )
        # the change of a margin is a difference of percentages: percentage points
        assert f"{(11512 / 86392 - 11162 / 79474) * 100:.1f} percentage points" in d.text

    def test_trend_yes_no(self) -> None:
        """'Does X have an improving operating margin?' is answered from the two latest years."""
        a = ask("Does Acme have an improving operating margin profile as of FY2022?", INCOME)
        assert a.text.startswith("No.") and "decreased" in a.text


class TestLexiconMetrics:
    """Metrics the offline recipes lack are computed from the lexicon's formulas."""

    def test_fcf_margin_from_lexicon_formula(self) -> None:
        """'FCF margin' (lexicon formula (cfo - capex) / revenue * 100) is computed and re-executes."""
        a = ask(
            "What is Acme's FY2022 FCF margin? Answer in units of percents and round to two decimal places.",
            INCOME,
            CASH_FLOW,
        )
        assert f"{(10811 - 5207) / 86392 * 100:.2f}%" in a.text
        assert recompute(a) == pytest.approx((10811 - 5207) / 86392 * 100)

    def test_summed_metric_abstains(self) -> None:
        """Total debt needs several rows summed: the backend abstains rather than read one row."""
        a = ask("What is Acme's FY2022 total debt? Answer in USD millions.", BALANCE)
        assert a.abstained


class TestTitlesAndHeadings:
    """Statement titles and per-share sections are recognised as filings print them."""

    def test_company_prefixed_title(self) -> None:
        """'NIKE, Inc. Consolidated Statements of Income' is an income statement title."""
        from finqa.agents.reasoning.offline.tables import title_statement

        assert title_statement("NIKE, Inc. Consolidated Statements of Income") == "income"
        assert title_statement("Consolidated Statements of Operations Data") is None
        assert title_statement("presented in our consolidated statements of cash flows.") is None

    def test_per_share_rows_are_not_amounts(self) -> None:
        """'Net earnings' under a 'Per share data' heading is not read as net income."""
        text = (
            "Statements of Income\n(in millions, except per share data)\n2022 2021\n"
            "Per share data:\nNet earnings 1.59 2.10\n"
        )
        a = ask("What is Acme's FY2022 net income? Answer in USD millions.", text)
        assert a.abstained


class TestPercentOfRevenue:
    """'<line item> as a % of revenue' is a ratio to revenue, never the bare amount."""

    def test_item_as_percent_of_revenue(self) -> None:
        """SG&A as a % of revenue divides by revenue; a bare-amount answer would be a wrong answer."""
        a = ask("What is Acme's FY2022 SG&A as a % of revenue? Round to one decimal place.", INCOME)
        assert f"{34304 / 86392 * 100:.1f}%" in a.text
        b = ask("What is Acme's FY2022 net interest expense as a % of revenue?", INCOME)
        assert b.abstained or "%" in b.text.split(" [S")[0]


class TestScale:
    """The table's scale is read as filers print it, or borrowed from the filing's statements."""

    def test_bare_millions_note(self) -> None:
        """'(Millions) 2018 2017 2016' is a header in millions."""
        text = (
            "Consolidated Statement of Cash Flows\n(Millions) 2022 2021 2020\n"
            + CASH_FLOW.split("(in millions)\n2022 2021 2020\n", 1)[1]
        )
        a = ask("What is Acme's FY2022 free cash flow? Answer in USD millions.", text)
        assert "$5,604 million" in a.text

    def test_scale_borrowed_from_other_statement(self) -> None:
        """A cash flow table without a scale note uses the scale every titled statement of the filing shares."""
        text = CASH_FLOW.replace("(in millions)\n", "")
        assert ask("What is Acme's FY2022 free cash flow? Answer in USD millions.", text).abstained
        a = ask("What is Acme's FY2022 free cash flow? Answer in USD millions.", text, INCOME)
        assert "$5,604 million" in a.text


_GM_Q = (
    "Are Acme's gross margins historically consistent (not fluctuating more than roughly 2% "
    "each year)? If gross margins are not a relevant metric for a company like this, then "
    "please state that and explain why."
)


class TestVerdicts:
    """Recurring analyst templates answered with a leading verdict, figures, citations and a Calculation."""

    def test_gross_margin_consistent_yes(self) -> None:
        """Three years of gross margin within 2 points of each other give 'Yes.' and each margin."""
        a = ask(_GM_Q, INCOME)
        assert not a.abstained and a.text.startswith("Yes.")
        assert "53.03%" in a.text and "53.35%" in a.text and "54.82%" in a.text
        assert a.citations and recompute(a) == pytest.approx(1.466, abs=1e-3)

    def test_gross_margin_fluctuating_no(self) -> None:
        """A 5-point year-over-year swing in gross margin gives 'No.'."""
        a = ask(_GM_Q, INCOME_VOLATILE)
        assert a.text.startswith("No.") and recompute(a) == pytest.approx(5.0)

    def test_bank_gross_margin_not_relevant(self) -> None:
        """A bank's income statement (net interest income, no cost of sales) makes gross margin not relevant."""
        a = ask(_GM_Q, BANK_INCOME)
        assert not a.abstained and "not a relevant metric" in a.text
        assert (
            "no gross profit or" in a.text and "cost of goods sold line" in a.text and a.citations
        )

    def test_industrial_gross_margin_is_relevant(self) -> None:
        """An income statement with cost of sales is never called 'not relevant': the margin is computed."""
        a = ask(_GM_Q, INCOME_VOLATILE)
        assert "not a relevant metric" not in a.text

    def test_unread_statement_abstains(self) -> None:
        """A statement that does not parse (no columns) gives no verdict: the answer abstains."""
        broken = "Consolidated Statements of Income\nNet interest income was strong this year.\n"
        assert ask(_GM_Q, broken).abstained

    def test_consistency_without_stated_tolerance(self) -> None:
        """Without a stated tolerance, a change under 10% of the level is stable, either way."""
        q = "Is Acme's operating margin consistent over the last three years?"
        a = ask(q, INCOME_VOLATILE)
        assert a.text.startswith("No.") and "10%" in a.text

    def test_debt_increase_sums_current_and_long_term(self) -> None:
        """Commercial paper, current portion and long-term debt are summed at both year ends; leases are not."""
        q = "Has Acme increased its debt on balance sheet between FY2023 and the FY2022 period?"
        a = ask(q, DEBT_BALANCE, doc="ACME_2023_10K")
        assert a.text.startswith("Yes.") and recompute(a) == pytest.approx(3000.0)
        assert "$40,000 million" in a.text and "$43,000 million" in a.text
        assert not any("lease" in o.name for o in a.calculations[0].operands)

    def test_debt_decrease_is_no(self) -> None:
        """The same direction question over lower year-end debt comes out 'No.', with both totals."""
        text = DEBT_BALANCE.replace("Long-term debt 40,000 38,000", "Long-term debt 34,000 38,000")
        q = "Has Acme increased its debt on balance sheet between FY2023 and the FY2022 period?"
        a = ask(q, text, doc="ACME_2023_10K")
        assert a.text.startswith("No.") and recompute(a) == pytest.approx(-3000.0)
        assert "decreased from $40,000 million" in a.text

    def test_debt_names_the_lines_it_adds_up(self) -> None:
        """Short-term debt read from two balance-sheet lines says which lines were added."""
        q = "Has Acme increased its debt on balance sheet between FY2023 and the FY2022 period?"
        a = ask(q, DEBT_BALANCE, doc="ACME_2023_10K")
        assert (
            "sum of the lines 'Commercial paper' and 'Current portion of long-term debt'" in a.text
        )
        assert "excluding lease liabilities (the catalogue's definition)" in a.text

    def test_a_second_line_is_named_in_words(self) -> None:
        """An item's second line is 'short term debt, second line' in the answer's prose: a
        digit from the calculation's identifier would read as one of the answer's figures."""
        q = "What was Acme's total debt at the end of FY2023?"
        a = ask(q, DEBT_BALANCE, doc="ACME_2023_10K")
        assert recompute(a) == pytest.approx(43000.0)
        assert "short term debt, second line, FY2023 = 2,000" in a.text
        assert "debt 2 " not in a.text

    def test_debt_total_row_when_no_debt_lines(self) -> None:
        """A 'Total debt' line is read when no short- or long-term debt line is, and the answer says so."""
        text = (
            "Consolidated Balance Sheets\n(in millions)\n2023 2022\nTotal current assets 50,000 48,000\n"
            "Total assets 120,000 110,000\nTotal current liabilities 30,000 28,000\n"
            "Total debt 37,000 40,000\nTotal liabilities 80,000 75,000\n"
        )
        q = "Has Acme's debt decreased between FY2022 and FY2023?"
        a = ask(q, text, doc="ACME_2023_10K")
        assert a.text.startswith("Yes.") and recompute(a) == pytest.approx(-3000.0)
        assert "no long term debt or short term debt line was read" in a.text

    def test_debt_to_equity_reads_the_summed_debt(self) -> None:
        """Debt to equity divides short- plus long-term debt (leases excluded) by equity."""
        text = DEBT_BALANCE.replace("Total liabilities 80,000 75,000\n", "Total liabilities 80,000 75,000\nTotal equity 40,000 35,000\n")  # fmt: skip
        a = ask("What was Acme's FY2023 debt-to-equity ratio?", text, doc="ACME_2023_10K")
        assert recompute(a) == pytest.approx(43000 / 40000)
        assert not any("lease" in o.text.lower() for o in a.calculations[0].operands)

    def test_debt_to_equity_without_short_term_debt(self) -> None:
        """A balance sheet with long-term debt only gives debt to equity over it, saying so."""
        text = (
            "Consolidated Balance Sheets\n(in millions)\n2023 2022\nTotal current assets 50,000 48,000\n"
            "Total assets 120,000 110,000\nTotal current liabilities 30,000 28,000\n"
            "Long-term debt 36,000 38,000\nTotal liabilities 80,000 75,000\nTotal equity 40,000 35,000\n"
        )
        a = ask("What was Acme's FY2023 debt-to-equity ratio?", text, doc="ACME_2023_10K")
        assert recompute(a) == pytest.approx(0.9)
        assert "total_debt / shareholders_equity" in a.text and "no short term debt" in a.text

    def test_debt_obligations_on_the_balance_sheet(self) -> None:
        """'Short-term' and 'Long-Term Debt Obligations' on a balance sheet are the debt lines."""
        text = (
            "Consolidated Balance Sheet\n(in millions)\n2023 2022\nTotal Current Assets 50,000 48,000\n"
            "Total Assets 120,000 110,000\nShort-term debt obligations 4,000 3,000\n"
            "Total Current Liabilities 30,000 28,000\nLong-Term Debt Obligations 36,000 38,000\n"
            "Total Liabilities 80,000 75,000\nTotal Equity 40,000 35,000\n"
        )
        a = ask("What was Acme's FY2023 debt-to-equity ratio?", text, doc="ACME_2023_10K")
        assert recompute(a) == pytest.approx(40000 / 40000)

    def test_common_stock_cash_dividends_paid(self) -> None:
        """'Common stock cash dividends paid' in a cash-flow statement answers a cash dividends question."""
        text = (
            "CASH FLOWS STATEMENTS\n(In millions)\nYear Ended June 30, 2023 2022\n"
            "Net cash from operations 87,582 89,035\nCommon stock repurchased (22,245) (32,696)\n"
            "Common stock cash dividends paid (19,800) (18,135)\n"
        )
        a = ask("How much did Acme pay in cash dividends in FY2023?", text, doc="ACME_2023_10K")
        assert not a.abstained and "19,800" in a.text

    def test_ppe_net_of_stated_depreciation(self) -> None:
        """'PP&E, net of accumulated depreciation - $14,147 and $13,969' is net PP&E."""
        text = (
            "Consolidated Balance Sheets\n(in millions)\n2022 2021\nTotal current assets 7,000 8,000\n"
            "Property, plant and equipment, net of accumulated depreciation - $14,147 and $13,969 "
            "(Note 8) 15,371 15,804\nTotal assets 29,499 30,154\n"
        )
        a = ask("What was Acme's net PP&E at the end of FY2022?", text)
        assert not a.abstained and "15,371" in a.text

    def test_loans_and_notes_payable_are_short_term_debt(self) -> None:
        """'Loans and notes payable' is summed with current maturities into short-term debt."""
        text = (
            "Consolidated Balance Sheets\n(in millions)\n2017 2016\nTotal current assets 36,545 34,010\n"
            "Total assets 87,896 87,270\nLoans and notes payable 13,205 12,498\n"
            "Current maturities of long-term debt 3,298 3,527\nTotal current liabilities 27,194 26,532\n"
            "Long-term debt 31,182 29,684\nTotal equity 18,977 23,062\n"
        )
        a = ask("What is Acme's total debt at the end of FY2017?", text, doc="ACME_2017_10K")
        assert recompute(a) == pytest.approx(13_205 + 3_298 + 31_182)

    def test_common_shareholders_equity_of_a_utility(self) -> None:
        """A utility's 'Total common shareholders' equity' (no 'Total equity' line) is its equity."""
        text = (
            "Consolidated Balance Sheets\n(In millions)\n2022 2021\nTotal assets 30,298 29,099\n"
            "Total common shareholders' equity 7,693 7,298\nLong-term debt 10,926 10,341\n"
        )
        a = ask("What was Acme's total shareholders' equity at the end of FY2022?", text)
        assert not a.abstained and "7,693" in a.text

    def test_contractual_obligations_are_not_debt(self) -> None:
        """'Long-term debt obligations' in a contractual-obligations schedule is not long-term debt."""
        text = (
            "Contractual Obligations\n(in millions)\n2023 2022\n"
            "Long-term debt obligations 41,000 43,000\nOperating leases 2,000 2,100\n"
        )
        a = ask("What was Acme's long-term debt at the end of FY2023?", text, doc="ACME_2023_10K")
        assert a.abstained and "41,000" not in a.text

    def test_debt_without_long_term_row_is_not_answered(self) -> None:
        """Without debt rows for both years there is no debt verdict."""
        q = "Has Acme increased its debt on balance sheet between FY2022 and the FY2021 period?"
        a = ask(q, QUICK_BALANCE)
        assert a.abstained and not a.text.startswith(("Yes", "No"))

    def test_debt_ratio_question_is_not_a_total_debt_verdict(self) -> None:
        """A debt-to-equity question is not answered with the change in total debt."""
        q = "Has Acme's debt-to-equity ratio increased between FY2022 and FY2023?"
        a = ask(q, DEBT_BALANCE, doc="ACME_2023_10K")
        assert "Total debt" not in a.text

    def test_quick_ratio_liquidity_verdict(self) -> None:
        """A quick ratio of at least 1.0 is a healthy liquidity profile: 'Yes.' with the ratio."""
        q = (
            "Does Acme have a reasonably healthy liquidity profile based on its quick ratio for "
            "FY2022? If the quick ratio is not relevant to measure liquidity, please state that."
        )
        a = ask(q, QUICK_BALANCE)
        assert a.text.startswith("Yes.") and "1.33" in a.text
        assert recompute(a) == pytest.approx(8000 / 6000)

    def test_quick_ratio_below_one_is_not_healthy(self) -> None:
        """The same question over larger current liabilities is 'No.', with the threshold and the rule."""
        q = (
            "Does Acme have a reasonably healthy liquidity profile based on its quick ratio for "
            "FY2022? If the quick ratio is not relevant to measure liquidity, please state that."
        )
        text = QUICK_BALANCE.replace(
            "Total current liabilities 6,000", "Total current liabilities 10,000"
        )
        a = ask(q, text)
        assert a.text.startswith("No.") and "0.80 is below 1" in a.text
        assert "healthy liquidity" in a.text

    def test_figure_without_evaluation_has_no_verdict(self) -> None:
        """A yes/no question that asks for no evaluation gets no judgement of the ratio."""
        a = ask("Did Acme report a quick ratio for FY2022?", QUICK_BALANCE)
        assert "at or above" not in a.text and "is below" not in a.text

    def test_largest_cash_flow_activity(self) -> None:
        """The largest of the operating, investing and financing totals is named (as the question
        lists it) with its amount."""
        q = (
            "Among operations, investing, and financing activities, which brought in the most "
            "(or lost the least) cash flow for Acme in FY2022?"
        )
        a = ask(q, CASH_FLOW_TOTALS)
        assert a.text.startswith("Operations.") and "$10,811 million" in a.text
        assert recompute(a) == pytest.approx(10811.0)

    def test_dividends_paid_yes(self) -> None:
        """A non-zero 'Dividends paid' cash-flow line gives 'Yes.' with the amount."""
        a = ask("Has Acme paid dividends to common shareholders in FY2022?", CASH_FLOW)
        assert a.text.startswith("Yes.") and "$6,172 million" in a.text
        assert recompute(a) == pytest.approx(6172.0)

    def test_dividends_absent_abstains(self) -> None:
        """A cash-flow statement without a dividends line gives no verdict."""
        a = ask("Has Acme paid dividends to common shareholders in FY2022?", BALANCE)
        assert a.abstained

    def test_restructuring_line_read(self) -> None:
        """The income statement's restructuring line is the answer, with its amount and scale."""
        q = (
            "What is the quantity of restructuring costs directly outlined in Acme's income "
            "statements for FY2022? If restructuring costs are not explicitly outlined then state 0."
        )
        a = ask(q, INCOME_RESTRUCTURING)
        assert a.text.startswith("$411 million") and recompute(a) == pytest.approx(411.0)

    def test_restructuring_missing_abstains(self) -> None:
        """No restructuring line in the income statement: abstain, naming what is missing."""
        q = "What is the quantity of restructuring costs directly outlined in Acme's income statements for FY2022?"
        a = ask(q, INCOME)
        assert a.abstained and a.missing == ("restructuring costs FY2022",)

    def test_effective_tax_rate_change_from_stated_rate(self) -> None:
        """The stated effective tax rates give the change in percentage points."""
        q = "How much has the effective tax rate of Acme changed between FY2021 and FY2022?"
        a = ask(q, TAX_NOTE)
        assert not a.abstained and "24.6%" in a.text and "21.6%" in a.text
        assert recompute(a) == pytest.approx(-3.0)

    def test_capital_intensive_yes(self) -> None:
        """Capex at 68.6% of revenue makes the business capital-intensive: 'Yes.' with the share."""
        a = ask("Is Acme a capital-intensive business based on FY2022 data?", UTILITY_STATEMENTS)
        assert a.text.startswith("Yes.") and "68.6%" in a.text
        assert recompute(a) == pytest.approx(68.6, abs=0.05)

    def test_capital_light_is_no(self) -> None:
        """Capex below 8% of revenue: 'No.', with the share, the threshold and the definition."""
        a = ask(
            "Is Acme a capital-intensive business based on FY2022 data?", INCOME, CASH_FLOW, BALANCE
        )
        assert a.text.startswith("No.") and "threshold 8%" in a.text
        assert "capital expenditure over revenue" in a.text

    def test_capital_intensity_needs_capex_and_revenue(self) -> None:
        """Without capex and revenue in the evidence, no verdict is given."""
        a = ask("Is Acme a capital-intensive business based on FY2022 data?", BALANCE)
        assert not a.text.startswith(("Yes", "No"))

    def test_dividends_without_the_statement_model_give_no_no(self) -> None:
        """Without the statement model, a cash flow chunk lacking a dividend line proves no absence."""
        text = CASH_FLOW.replace("Dividends paid (6,172) (5,815) (5,509)\n", "")
        a = ask("Has Acme paid dividends to common shareholders in FY2022?", text)
        assert not a.text.startswith("No.")


class TestBadInput:
    """Questions and statements the offline backend cannot read abstain, saying what they looked for."""

    def test_amount_to_another_line_is_no_amount_answer(self) -> None:
        """'debt to total capital' is a ratio the catalogue lacks: the answer abstains, never the debt amount."""
        a = ask("What was Acme's FY2023 debt to total capital?", DEBT_BALANCE, doc="ACME_2023_10K")
        assert a.abstained and "43,000" not in a.text and "total capital" in a.text

    def test_unknown_line_item_abstains_naming_it(self) -> None:
        """A line item the catalogue does not know abstains and names what it looked for."""
        a = ask("What was Acme's FY2022 widget royalty income? Answer in USD millions.", INCOME)
        assert a.abstained and "widget royalty income" in a.text
        assert "widget royalty income" in " ".join(a.missing)

    def test_statement_without_columns_abstains(self) -> None:
        """A statement whose figures do not parse into year columns gives an abstention, not a guess."""
        broken = "Consolidated Statements of Income\n(in millions)\nNet sales were up on volume.\n"
        a = ask("What was Acme's FY2022 net sales? Answer in USD millions.", broken)
        assert a.abstained and not a.calculations


class TestPeriodExtreme:
    """'In which year was X highest/lowest' is answered from X per year, either way."""

    def test_highest_year(self) -> None:
        """Gross margin 30% / 35% / 30%: the highest year is FY2021, with every year's figure."""
        a = ask(
            "In which year was Acme's gross margin highest between FY2020 and FY2022?",
            INCOME_VOLATILE,
        )
        assert (
            a.text.startswith("FY2021.")
            and "FY2020" in a.text
            and recompute(a) == pytest.approx(35.0)
        )

    def test_lowest_year(self) -> None:
        """The same figures asked for the lowest year name FY2020 (the first of the tied lows)."""
        a = ask(
            "In which year was Acme's gross margin lowest between FY2020 and FY2022?",
            INCOME_VOLATILE,
        )
        assert a.text.startswith("FY2020.") and recompute(a) == pytest.approx(30.0)

    def test_which_segment_is_not_a_year_question(self) -> None:
        """'In which segment did sales grow most' is not answered with a year."""
        a = ask(
            "From FY2021 to FY2022, in which segment did Acme's revenue grow the most?",
            INCOME_VOLATILE,
        )
        assert not a.text.startswith("FY20")
