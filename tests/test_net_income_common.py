"""'Net income attributable to common shareholders' is its own catalogue item, after preferred
dividends (us-gaap NetIncomeLossAvailableToCommonStockholdersBasic), not the amount
attributable to the company (issue #25, 'the nearer word')."""

from __future__ import annotations

from _reasoning_data import evidence
from finqa.agents.config import Settings
from finqa.agents.reasoning import build_reasoner
from finqa.lexicon.line_items import get_item
from finqa.lexicon.metrics import find_metrics
from finqa.lexicon.question_ask import read_ask

INCOME = """VELMORA FOODS COMPANY
CONSOLIDATED STATEMENTS OF INCOME
(in millions)
2024 2023 2022
Net sales $ 9,400 $ 8,800 $ 8,100
Cost of products sold 6,100 5,800 5,400
Gross profit 3,300 3,000 2,700
Operating income 1,250 1,100 900
Income before income taxes 1,000 880 700
Provision for income taxes 260 230 180
Net income/(loss) 740 650 520
Net income attributable to noncontrolling interest 20 15 10
Net income/(loss) attributable to Velmora 720 635 510
Preferred dividends 450 450 450
Net income/(loss) attributable to common shareholders $ 270 $ 185 $ 60
"""

Q = (
    "What was Velmora Foods' net income (loss) attributable to common shareholders for 2024? "
    "Answer in USD millions."
)


class TestCommonShareholders:
    def test_its_own_item(self) -> None:
        """The question names the common shareholders' item, with or without '(loss)', not
        the company's; 'attributable to the company' stays the company's."""
        assert read_ask(Q).recipe == "net_income_common"
        found = find_metrics("net income attributable to common stockholders in 2024")
        assert found[0].canonical == "net_income_common"
        found = find_metrics("net income attributable to the company in 2024")
        assert found[0].canonical == "net_income_attributable"
        item = get_item("net_income_common")
        assert item is not None and item.period_type == "duration"
        assert "us-gaap:NetIncomeLossAvailableToCommonStockholdersBasic" in item.concepts

    def test_read_after_preferred_dividends(self) -> None:
        """The answer is the line after preferred dividends (270), not the amount attributable
        to the company (720) nor consolidated net income (740)."""
        answer = build_reasoner(Settings()).generate(Q, evidence(INCOME, question=Q), 1)
        assert "$270 million" in answer.text
        assert "$720 million" not in answer.text and "$740 million" not in answer.text


class TestEarningsPerShareTable:
    def test_numerator_under_a_per_share_heading_is_an_amount(self) -> None:
        """In an earnings-per-share table ('in millions, except per share data'), the
        earnings available to common shareholders are an amount in millions; the per-share
        figure and the share count keep their own units."""
        from finqa.lexicon.statements.build import row_unit

        heading = "Basic earnings per share"
        assert row_unit("Earnings available to common shareholders", heading, "", 1e6) == (
            "USD",
            1e6,
        )
        assert row_unit("Basic earnings per share", heading, "", 1e6) == ("USD/share", 1.0)
        assert row_unit("Net earnings", heading, "", 1e6) == ("USD/share", 1.0)
        assert row_unit("Weighted-average basic shares outstanding", heading, "", 1e6)[0] == (
            "shares"
        )
