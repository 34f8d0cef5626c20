"""The offline reasoner does not answer with a figure its definition rules out (a margin outside
[-100%, 100%]): it abstains naming what failed; a figure within the definition is answered."""

from __future__ import annotations

from _reasoning_data import evidence
from finqa.agents.config import Settings
from finqa.agents.reasoning import build_reasoner
from finqa.lexicon.plausibility import out_of_bounds


def _income(revenue: str, operating: str) -> str:
    return (
        "Consolidated Statements of Operations\n(in millions)\n2022 2021\n"
        f"Net sales {revenue}\nCost of sales 700 585\nOperating income {operating}\n"
        "Income before income taxes 250 240\nProvision for income taxes 50 48\n"
        "Net income 200 192\n"
    )


def ask(question: str, *texts: str):  # type: ignore[no-untyped-def]
    return build_reasoner(Settings()).generate(question, evidence(*texts, question=question), 1)


class TestImplausibleMetric:
    def test_margin_over_100_percent_abstains(self) -> None:
        """An operating margin of 243.7% (operating income read larger than revenue) is no
        answer: the reasoner abstains and names the range it breaks."""
        ans = ask("What was Acme's operating margin in FY2022?", _income("1,000 900", "2,437 300"))
        assert ans.abstained
        assert "not plausible" in ans.text and "[-100, 100]" in ans.text

    def test_operating_loss_margin_within_range_is_answered(self) -> None:
        """An operating loss of 40% of revenue is a plausible (negative) margin: answered."""
        ans = ask("What was Acme's operating margin in FY2022?", _income("1,000 900", "(400) 300"))
        assert not ans.abstained and "-40.0%" in ans.text

    def test_days_ratio_cannot_be_negative(self) -> None:
        """Days sales outstanding is an average balance over a day's revenue: never negative."""
        assert out_of_bounds(-12.0, "dso") is not None and out_of_bounds(45.0, "dso") is None


class TestVerdictByFigure:
    Q = "Did Acme have positive momentum in its licensing business in FY2022?"

    def test_sign_question_not_answered_from_wording_of_a_figure(self) -> None:
        """A sign asked of a sentence that states the figure is not answered by the sentence's
        wording ('net cash used in' reads as a statement, not as a negative figure)."""
        sentence = (
            "In fiscal 2022 the licensing business of Acme had momentum, with net cash used in "
            "licensing of $120 million."
        )
        ans = ask(self.Q, sentence)
        assert ans.abstained or not ans.text.startswith("Yes"), ans.text

    def test_sign_question_without_a_figure_is_read_from_wording(self) -> None:
        """A covering sentence stating no figure still gives the verdict by its wording."""
        sentence = "In fiscal 2022 the licensing business of Acme had positive momentum."
        ans = ask(self.Q, sentence)
        assert ans.text.startswith("Yes"), ans.text


TAX_NOTE_DEFERRED = """Income Taxes
The components of deferred tax assets and liabilities are as follows (in millions):
2021 2020
Deferred revenue 210 274
Accrued compensation 95 80
Total deferred tax assets 305 354
"""

BALANCE_DEFERRED = """Consolidated Balance Sheets
(in millions)
December 31, 2021 December 31, 2020
Total current assets 9,000 8,000
Deferred revenue 1,118 1,689
Total current liabilities 3,000 2,900
"""


BALANCE_NO_DEFERRED = """Consolidated Balance Sheets
(in millions)
December 31, 2021 December 31, 2020
Total current assets 9,000 8,000
Accrued expenses 1,900 1,700
Total current liabilities 3,000 2,900
"""


class TestNamedStatement:
    Q = "What balance of deferred revenues did Acme report on its balance sheet at December 31, 2021?"

    def test_balance_sheet_row_preferred_over_a_note(self) -> None:
        """A question naming the balance sheet reads the balance sheet's row, not the income
        tax note's line of the same caption."""
        ans = ask(self.Q, TAX_NOTE_DEFERRED, BALANCE_DEFERRED)
        assert not ans.abstained and "1,118" in ans.text and "210" not in ans.text, ans.text

    def test_note_beside_a_balance_sheet_without_the_line_abstains(self) -> None:
        """With the balance sheet in the evidence but no deferred revenue line on it, the note's
        line is not the balance asked: abstain, naming the statement."""
        ans = ask(self.Q, TAX_NOTE_DEFERRED, BALANCE_NO_DEFERRED)
        assert ans.abstained and "as the question names the balance sheet" in ans.text, ans.text

    def test_without_a_named_statement_the_note_still_answers(self) -> None:
        """Without a statement named, nothing changes: the note's line is read as before."""
        ans = ask("What deferred revenue did Acme report at December 31, 2021?", TAX_NOTE_DEFERRED)
        assert "210" in ans.text or ans.abstained


INCOME_NO_RESTRUCTURING = """Consolidated Statement of Income
(in millions)
2022 2021
Net revenue 86,392 79,474
Cost of sales 40,576 37,075
Operating profit 11,512 11,162
"""

CASH_FLOW_RESTRUCTURING = """Consolidated Statement of Cash Flows
(in millions)
2022 2021
Net income 8,978 7,679
Depreciation and amortization 2,763 2,710
Restructuring and impairment charges 411 247
Net cash provided by operating activities 10,811 11,616
"""

NOTE_RESTRUCTURING = """Note 3 Restructuring
A summary of our restructuring charges (in millions):
2022 2021
Restructuring and impairment charges 388 247
"""


class TestNamedFlowStatement:
    Q = "What is the quantity of restructuring costs directly outlined in Acme's income statements for FY2022?"

    def test_flow_on_the_other_flow_statement_is_the_same_figure(self) -> None:
        """A flow the question places on the income statement, printed only on the cash flow
        statement (charges added back), is read there, not from a note's table."""
        ans = ask(self.Q, NOTE_RESTRUCTURING, INCOME_NO_RESTRUCTURING, CASH_FLOW_RESTRUCTURING)
        assert not ans.abstained and "$411 million" in ans.text, ans.text


LOSS_BENEFIT = """Consolidated Statements of Operations
(in millions)
2022 2021
Net sales 5,000 5,200
Cost of sales 4,100 4,000
Operating loss (900) (350)
Loss before income taxes (1,000) (400)
Income tax expense (benefit) (210) (80)
Net loss (790) (320)
"""


class TestBadInput:
    def test_tax_benefit_on_a_pretax_loss_is_a_positive_rate(self) -> None:
        """A tax benefit on a pre-tax loss is a positive effective tax rate: answered (21.0%),
        not abstained as implausible."""
        ans = ask("What was Acme's effective tax rate in FY2022?", LOSS_BENEFIT)
        assert not ans.abstained and "21.0%" in ans.text and "-21.0%" not in ans.text, ans.text

    def test_operating_loss_with_costs_printed_positive(self) -> None:
        """Costs printed as positive numbers without parentheses and an operating loss in
        parentheses give a negative margin within the definition: answered (-18.0%)."""
        ans = ask("What was Acme's operating margin in FY2022?", LOSS_BENEFIT)
        assert not ans.abstained and "-18.0%" in ans.text, ans.text
