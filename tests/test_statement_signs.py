"""Economic signs: a statement fact's value follows its line item's nature, not parentheses alone."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _statement_read import values_of  # noqa: E402
from finqa.lexicon.statements import read_pages  # noqa: E402
from finqa.lexicon.statements.signs import item_nature  # noqa: E402

CASH_FLOWS = """ACME CORP
CONSOLIDATED STATEMENTS OF CASH FLOWS
(in millions)
Year Ended December 31,
2024 2023
Net income 900 800
Depreciation and amortization 120 110
Net cash provided by operating activities 1,100 950
Purchases of property and equipment (183) (160)
Net cash used in investing activities (500) (400)
Dividends paid (90) (80)
Repurchases of common stock (300) (250)
Net cash used in financing activities (390) (330)
"""

EXPENSES_IN_PARENS = """ACME CORP
CONSOLIDATED STATEMENTS OF OPERATIONS
(in millions)
Year Ended December 31,
2024 2023
Revenues 2,000 1,800
Cost of revenue (700) (650)
Selling, general and administrative (200) (190)
Research and development (100) (90)
Operating income 1,000 870
Income before income taxes 1,000 870
Provision for income taxes (150) 20
Net income 850 890
"""

EXPENSES_PLAIN = """ACME CORP
CONSOLIDATED STATEMENTS OF OPERATIONS
(in millions)
Year Ended December 31,
2024 2023
Revenues 2,000 1,800
Cost of revenue 700 650
Selling, general and administrative 200 190
Operating income 1,100 960
Other expense, net 30 (5)
Income (loss) before income taxes 1,070 (40)
Provision for (benefit from) income taxes 150 (20)
Net income (loss) 920 (20)
"""

LOSSES = """ACME CORP
CONSOLIDATED STATEMENTS OF OPERATIONS
(in millions)
Year Ended December 31,
2024 2023
Revenues 500 450
Cost of revenue 400 380
Operating loss (50) (60)
Income tax benefit 10 12
Net loss 40 48
"""

BALANCE = """ACME CORP
CONSOLIDATED BALANCE SHEETS
(in millions)
December 31, 2024 December 31, 2023
Cash and cash equivalents 300 250
Total assets 5,000 4,600
Total liabilities 3,000 2,900
Accumulated deficit (500) (450)
Treasury stock, at cost (1,200) (1,000)
Total stockholders' equity 2,000 1,700
Total liabilities and stockholders' equity 5,000 4,600
"""


def _read(text: str) -> object:
    return read_pages("acme-10k-2024", [(3, text)])


class TestNature:
    """Each catalogue item's nature and period type come from its concepts' taxonomy facts."""

    def test_capex_is_a_duration_outflow(self) -> None:
        """Capex (PaymentsToAcquirePropertyPlantAndEquipment) is a credit-balance outflow over a period."""
        n = item_nature("capex")
        assert n is not None and (n.nature, n.balance, n.period_type) == (
            "outflow",
            "credit",
            "duration",
        )

    def test_balances_are_instants_and_treasury_stock_is_contra(self) -> None:
        """Total assets is an instant asset; treasury stock an equity item with a debit balance (contra)."""
        assets, treasury = item_nature("total_assets"), item_nature("treasury_stock")
        assert assets is not None and (assets.nature, assets.period_type) == ("asset", "instant")
        assert treasury is not None and treasury.contra and not assets.contra

    def test_unmapped_item_has_no_nature(self) -> None:
        """An item with no mapped concept (or none at all) has no nature: its print is kept."""
        assert item_nature(None) is None and item_nature("no_such_item") is None


class TestCashFlowSigns:
    """Cash outflows are positive amounts, as PaymentsFor... tags are; net flows keep their sign."""

    def test_outflows_in_parentheses_are_positive_amounts(self) -> None:
        """'(183)' under purchases of property and equipment is capex of +183 million."""
        read = _read(CASH_FLOWS)
        assert values_of(read, "Purchases of property and equipment")["FY2024"] == 183e6
        assert values_of(read, "Dividends paid")["FY2023"] == 80e6
        assert values_of(read, "Repurchases of common stock")["FY2024"] == 300e6

    def test_net_cash_used_stays_negative(self) -> None:
        """'Net cash used in investing activities (500)' is -500 million, as its tag is."""
        read = _read(CASH_FLOWS)
        assert values_of(read, "Net cash used in investing activities")["FY2024"] == -500e6
        assert values_of(read, "Net cash provided by operating activities")["FY2024"] == 1100e6

    def test_printed_sign_is_still_recorded(self) -> None:
        """The fact still says it was printed in parentheses (negative, raw '(183)')."""
        read = _read(CASH_FLOWS)
        fact = next(
            f
            for t in read.tables  # type: ignore[attr-defined]
            for f in t.facts
            if f.label == "Purchases of property and equipment" and f.period.key == "FY2024"
        )
        assert fact.negative and fact.raw == "(183)" and fact.value == 183e6


class TestIncomeSigns:
    """Expenses are positive as expenses whether the statement prints them in parentheses or not."""

    def test_expenses_printed_in_parentheses_are_positive(self) -> None:
        """A statement printing every cost in parentheses gives cost of revenue +700, tax +150."""
        read = _read(EXPENSES_IN_PARENS)
        assert values_of(read, "Cost of revenue")["FY2024"] == 700e6
        assert values_of(read, "Selling, general and administrative")["FY2023"] == 190e6
        assert values_of(read, "Provision for income taxes")["FY2024"] == 150e6

    def test_benefit_printed_plain_among_parenthesised_costs(self) -> None:
        """In that layout a tax line printed '20' (no parentheses) is a benefit: -20."""
        read = _read(EXPENSES_IN_PARENS)
        assert values_of(read, "Provision for income taxes")["FY2023"] == -20e6

    def test_benefit_in_parentheses_among_plain_costs(self) -> None:
        """Where costs are printed plain, '(20)' on 'Provision for (benefit from)' is a -20 benefit."""
        read = _read(EXPENSES_PLAIN)
        assert values_of(read, "Provision for (benefit from) income taxes") == {
            "FY2024": 150e6,
            "FY2023": -20e6,
        }
        assert values_of(read, "Cost of revenue")["FY2024"] == 700e6
        assert values_of(read, "Net income (loss)")["FY2023"] == -20e6

    def test_other_expense_caption_is_negative_income(self) -> None:
        """'Other expense, net 30' is other income of -30 (its tag's sign); '(5)' there is +5."""
        read = _read(EXPENSES_PLAIN)
        assert values_of(read, "Other expense, net") == {"FY2024": -30e6, "FY2023": 5e6}

    def test_loss_captions_are_negative_whatever_the_print(self) -> None:
        """'Net loss 40' and 'Operating loss (50)' are both losses; 'Income tax benefit 10' is -10."""
        read = _read(LOSSES)
        assert values_of(read, "Net loss")["FY2024"] == -40e6
        assert values_of(read, "Operating loss")["FY2024"] == -50e6
        assert values_of(read, "Income tax benefit")["FY2023"] == -12e6


class TestBalanceSigns:
    """Contra balances are positive amounts; a deficit is negative; other balances as printed."""

    def test_treasury_stock_is_a_positive_amount(self) -> None:
        """'Treasury stock, at cost (1,200)' is 1,200 million, as TreasuryStockValue is tagged."""
        read = _read(BALANCE)
        assert values_of(read, "Treasury stock, at cost")["FY2024@end"] == 1200e6

    def test_deficit_and_equity(self) -> None:
        """'Accumulated deficit (500)' stays -500; total equity and assets stay positive."""
        read = _read(BALANCE)
        assert values_of(read, "Accumulated deficit")["FY2024@end"] == -500e6
        assert values_of(read, "Total stockholders' equity")["FY2024@end"] == 2000e6
        assert values_of(read, "Total assets")["FY2023@end"] == 4600e6


STEPS = """ACME CORP
CONSOLIDATED STATEMENTS OF INCOME
(in millions)
Year Ended December 31,
2024 2023
Revenues 24,250 24,119
Compensation and benefits 4,899 4,818
Operating income 9,713 9,082
Income before income taxes 8,794 8,233
Income taxes (2,047) (1,854)
Net income 6,747 6,379
"""

NONCONTROLLING = """ACME CORP
CONDENSED CONSOLIDATED STATEMENTS OF INCOME
(in millions)
Three Months Ended
June 30, 2025 June 27, 2024
Revenues 12,500 12,400
Consolidated net income 3,801 2,400
Less: Net income (loss) attributable to noncontrolling interests (7) 18
Net income attributable to shareowners of Acme 3,808 2,382
"""


class TestStatementArithmetic:
    """Where a line is the step between two results, the step's direction gives its sign."""

    def test_taxes_printed_as_a_deduction(self) -> None:
        """'Income taxes (2,047)' between pre-tax 8,794 and net 6,747 is a tax expense of +2,047."""
        read = _read(STEPS)
        assert values_of(read, "Income taxes") == {"FY2024": 2047e6, "FY2023": 1854e6}

    def test_noncontrolling_share_signed_by_the_step(self) -> None:
        """'Less: ... (7)' that raises the total is a loss of 7 to the minority; '18' is +18."""
        read = _read(NONCONTROLLING)
        got = values_of(read, "Less: Net income (loss) attributable to noncontrolling interests")
        assert sorted(got.values()) == [-7e6, 18e6]


UNMAPPED_CASH = """ACME CORP
CONSOLIDATED STATEMENTS OF CASH FLOWS
(in millions)
Year Ended December 31,
2024 2023
Net cash provided by operating activities 1,100 950
Additions to property, plant and equipment (430) (812)
Payments for dividends and dividend equivalents (11,559) (11,430)
Proceeds from (repayments of) commercial paper, net (300) 200
Net cash used in financing activities (12,289) (12,042)
"""


class TestCaptionNature:
    """A cash-flow line the catalogue does not map is signed by its caption's verb."""

    def test_outflow_verbs_give_positive_amounts(self) -> None:
        """'Additions to ... (430)' and 'Payments for dividends ... (11,559)' are +430 and +11,559."""
        read = _read(UNMAPPED_CASH)
        assert values_of(read, "Additions to property, plant and equipment")["FY2024"] == 430e6
        got = values_of(read, "Payments for dividends and dividend equivalents")
        assert got["FY2024"] == 11559e6

    def test_a_caption_naming_both_ways_keeps_its_print(self) -> None:
        """'Proceeds from (repayments of) commercial paper, net (300)' stays -300, as it is tagged."""
        read = _read(UNMAPPED_CASH)
        got = values_of(read, "Proceeds from (repayments of) commercial paper, net")
        assert got == {"FY2024": -300e6, "FY2023": 200e6}


class TestPeriodTypeByNature:
    """Under bare-year columns, a balance line is an instant at the year end; a flow stays a year."""

    def test_liability_under_a_bare_year_is_the_year_end_balance(self) -> None:
        """'Operating lease liabilities 2,094' under '2024' is keyed FY2024@end, not FY2024."""
        from finqa.lexicon.model import StatementFact, StatementPeriod, StatementTable
        from finqa.lexicon.statements.nature_periods import periods_by_nature

        year = StatementPeriod(label="2024", fiscal_year=2024)
        facts = tuple(
            StatementFact(
                doc_id="d",
                statement="other",
                label=label,
                item=item,
                period=year,
                value=v,
                page=40,
                row=r,
            )  # fmt: skip
            for r, (label, item, v) in enumerate(
                [
                    ("Total operating lease liabilities", "operating_lease_liabilities", 2094e6),
                    ("Research and development", "rnd", 410e6),
                ]  # fmt: skip
            )
        )
        table = StatementTable(table_id="t", doc_id="d", statement="other", periods=(year,),
                               facts=facts)  # fmt: skip
        got = {f.label: (f.item, f.period.key) for f in periods_by_nature(table).facts}
        assert got["Total operating lease liabilities"] == (
            "operating_lease_liabilities",
            "FY2024@end",
        )
        assert got["Research and development"] == ("rnd", "FY2024")

    def test_a_flow_in_an_instant_column_is_not_the_item(self) -> None:
        """An expense line under 'December 31, 2024' (an accrual) is not read as the year's expense."""
        from finqa.lexicon.model import StatementFact, StatementPeriod, StatementTable
        from finqa.lexicon.statements.nature_periods import periods_by_nature

        end = StatementPeriod(label="December 31, 2024", fiscal_year=2024, months=0, instant=True)
        fact = StatementFact(doc_id="d", statement="other", label="Interest expense",
                             item="interest_expense", period=end, value=5e6, page=3)  # fmt: skip
        table = StatementTable(table_id="t", doc_id="d", statement="other", periods=(end,),
                               facts=(fact,))  # fmt: skip
        assert periods_by_nature(table).facts[0].item is None

    def test_an_unmapped_balance_caption_is_an_instant(self) -> None:
        """'Total operating lease liabilities' (no catalogue item) under '2024' is FY2024@end;
        'Operating lease cost' there stays the year's flow."""
        from finqa.lexicon.model import StatementFact, StatementPeriod, StatementTable
        from finqa.lexicon.statements.nature_periods import periods_by_nature

        year = StatementPeriod(label="2024", fiscal_year=2024)
        facts = tuple(
            StatementFact(
                doc_id="d", statement="other", label=label, period=year, value=v, page=40, row=r
            )  # fmt: skip
            for r, (label, v) in enumerate(
                [("Total operating lease liabilities", 2094e6), ("Operating lease cost", 410e6)]
            )
        )
        table = StatementTable(table_id="t", doc_id="d", statement="other", periods=(year,),
                               facts=facts)  # fmt: skip
        keys = [f.period.key for f in periods_by_nature(table).facts]
        assert keys == ["FY2024@end", "FY2024"]


class TestNetIncomeAttribution:
    """Above a noncontrolling-interests line is the consolidated total; below, the company's share."""

    def test_lines_told_apart_by_layout(self) -> None:
        """'Consolidated net income' is net_income_consolidated; 'attributable to shareowners' is net_income."""
        read = _read(NONCONTROLLING)
        items = {
            f.label: f.item
            for t in read.tables  # type: ignore[attr-defined]
            for f in t.facts
        }
        assert items["Consolidated net income"] == "net_income_consolidated"
        assert items["Net income attributable to shareowners of Acme"] == "net_income"

    def test_plain_net_income_without_minority_stays(self) -> None:
        """A statement with no noncontrolling line keeps 'Net income' as net_income."""
        read = _read(STEPS)
        items = {f.label: f.item for t in read.tables for f in t.facts}  # type: ignore[attr-defined]
        assert items["Net income"] == "net_income"


def test_current_portion_caption_is_a_balance() -> None:
    """'Less: Current portion of long-term notes (1,000)' under '2024' is +1,000 at FY2024@end."""
    from finqa.lexicon.model import StatementFact, StatementPeriod, StatementTable
    from finqa.lexicon.statements.nature_periods import periods_by_nature
    from finqa.lexicon.statements.signs import sign_table

    year = StatementPeriod(label="2024", fiscal_year=2024)
    fact = StatementFact(doc_id="d", statement="other", label="Less: Current portion of long-term notes",
                         period=year, value=-1000e6, negative=True, page=74)  # fmt: skip
    table = StatementTable(table_id="t", doc_id="d", statement="other", periods=(year,),
                           facts=(fact,))  # fmt: skip
    got = periods_by_nature(sign_table(table)).facts[0]
    assert (got.value, got.period.key) == (1000e6, "FY2024@end")
