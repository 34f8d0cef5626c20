"""A filer may print a section's total without a caption: MGM prints its revenue lines under
'Revenues', then their sum on a line of figures alone (and, in 2016, the net of promotional
allowances under that). That row is the heading's total, so a margin over it is accepted,
while an uncaptioned row that no heading over summed rows names (liabilities and equity
under 'Total stockholders' equity') is still no line item's figure."""

from __future__ import annotations

from _reasoning_data import evidence
from finqa.agents.config import Settings
from finqa.agents.judge import JudgeAgent
from finqa.agents.types import Answer, Calculation, Operand
from finqa.lexicon.statements.located import uncaptioned_total

INCOME = """ACME INC.
CONSOLIDATED STATEMENTS OF OPERATIONS
(In thousands)
2016 2015 2014
Revenues
Casino $ 4,936,490 $ 4,842,836 $ 5,878,775
Rooms 2,023,841 1,876,733 1,768,012
Food and beverage 1,639,910 1,575,496 1,558,937
8,600,241 8,295,065 9,205,724
Less: Promotional allowances (793,571) (751,773) (766,280)
7,806,670 7,543,292 8,439,444
Expenses
Casino 2,718,483 2,882,752 3,643,881
General and administrative 1,378,617 1,309,104 1,318,749
Net income attributable to Acme $ 1,101,440 $ (447,720) $ (149,873)
"""
BALANCE = """ACME INC.
CONSOLIDATED BALANCE SHEETS
(In thousands)
2016 2015
Total liabilities 21,213,437 19,740,915
Total stockholders' equity 12,662,919 10,469,791
$ 33,876,356 $ 30,210,706
"""


def test_the_heading_over_the_rows_it_totals() -> None:
    at = INCOME.find("8,600,241")
    assert uncaptioned_total(INCOME, at) == "Revenues"
    assert uncaptioned_total(INCOME, INCOME.find("7,806,670")) == "Revenues"  # net of allowances
    assert uncaptioned_total(BALANCE, BALANCE.find("33,876,356")) is None


def _margin(revenue: float, row: str) -> Answer:
    ni = "Net income attributable to Acme $ 1,101,440 $ (447,720) $ (149,873)"
    return Answer(
        text=f"FY2016 net profit margin: {1101440 / revenue * 100:.1f}% [S1].",
        calculations=(
            Calculation(
                description="FY2016 net profit margin",
                expression="net_income_fy2016 / revenue_fy2016 * 100",
                operands=(
                    Operand(name="net_income_fy2016", value=1101440.0, unit="USD", scale=1e3,
                            period="FY2016", source_id="S1", text=ni),
                    Operand(name="revenue_fy2016", value=revenue, unit="USD", scale=1e3,
                            period="FY2016", source_id="S1", text=row),
                ),
                result=1101440 / revenue * 100,
                unit="%",
            ),
        ),
    )  # fmt: skip


def test_a_margin_over_the_uncaptioned_revenue_total_is_accepted() -> None:
    q = "What was Acme' 2016 net profit margin, based on net income attributable to Acme and net revenues?"
    verdict = JudgeAgent(Settings()).evaluate(
        q,
        _margin(7806670.0, "7,806,670 7,543,292 8,439,444"),
        evidence(INCOME, doc="ACME_2016_10K", question=q),
        1,
    )
    assert verdict.decision == "accept", verdict.details["answer_problems"]
