"""A passage holding two statements (an earnings release's cash flows above its balance sheet,
merged into one evidence chunk): a line is of the statement whose title is nearest above it, so
a balance read from the balance sheet below is no flow (issue #25: a balance or a flow; a right
total debt was refused as read off 'the statement of a period's flows')."""

from __future__ import annotations

from _reasoning_data import evidence
from finqa.agents.config import Settings
from finqa.agents.judge import JudgeAgent
from finqa.agents.types import Answer

DOC = "ACME_2023Q2_EARNINGS"
PAGES = """Acme, Inc. and Subsidiaries
Condensed Consolidated Statement of Cash Flows
(in millions)
24 Weeks Ended 6/17/2023 6/11/2022
Net cash provided by operating activities 1,238 1,143
Net cash used for investing activities (1,955) (1,488)
Acme, Inc. and Subsidiaries
Condensed Consolidated Balance Sheet
(in millions)
6/17/2023 12/31/2022
Total Assets $ 95,906 $ 92,187
Short-term debt obligations $ 7,613 $ 3,414
Accounts payable and other current liabilities 22,005 23,371
Long-Term Debt Obligations 36,008 35,657
"""
Q = "What was Acme's total debt as of June 17, 2023, combining short-term and long-term debt obligations?"


def _problems(text: str, page: str = PAGES) -> list[str]:
    verdict = JudgeAgent(Settings()).evaluate(Q, Answer(text=text), evidence(page, doc=DOC), 1)
    return [p["code"] for p in verdict.details["answer_problems"]]


def test_a_balance_below_a_cash_flow_title_is_a_balance() -> None:
    text = (
        "Total debt as of June 17, 2023: $43,621 million [S1], from short-term debt obligations "
        "7,613 [S1] and long-term debt obligations 36,008 [S1]."
    )
    assert "period_type" not in _problems(text)


def test_a_line_under_the_cash_flow_title_is_a_flow() -> None:
    """The same lines printed under the cash flow statement's title (no balance sheet title
    between): the figure is read off a statement of flows."""
    flows = PAGES.replace(
        "Acme, Inc. and Subsidiaries\nCondensed Consolidated Balance Sheet\n(in millions)\n"
        "6/17/2023 12/31/2022\n",
        "",
    )
    text = (
        "Total debt as of June 17, 2023: $43,621 million [S1], from short-term debt obligations "
        "7,613 [S1] and long-term debt obligations 36,008 [S1]."
    )
    assert "period_type" in _problems(text, flows)
