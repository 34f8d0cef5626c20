"""Calculation conventions a question states (ending vs average balances, 360 vs 365 days) change the formula."""

from __future__ import annotations

import pytest
from _reasoning_data import BALANCE, CASH_FLOW, INCOME, evidence
from finqa.agents.config import Settings
from finqa.agents.reasoning import build_reasoner
from finqa.lexicon.conventions import Conventions, apply_conventions, stated_conventions

DIO = "365 * avg(inventory[y], inventory[y-1]) / cogs[y]"


class TestStatedConventions:
    @pytest.mark.parametrize(
        ("question", "balance", "days"),
        [
            ("Inventory turnover for FY2022 using ending inventory?", "ending", None),
            ("ROA on total assets at year-end FY2021?", "ending", None),
            (
                "ROA defined as net income / (average total assets between FY2016 and FY2017)",
                "average",
                None,
            ),  # fmt: skip
            ("DSO for FY2020 based on a 360-day year", None, 360),
            ("What is the year end FY2019 total amount of inventories?", None, None),
            ("What was FY2022 inventory turnover?", None, None),
        ],
    )
    def test_reads_what_the_question_says(self, question: str, balance: str | None, days: int | None) -> None:  # fmt: skip
        """Only a stated basis or day count is read; a question that states none gets None."""
        c = stated_conventions(question)
        assert (c.balance, c.days) == (balance, days)

    def test_ending_replaces_averages_and_days(self) -> None:
        """Ending balances replace avg(x[y], x[y-1]) and a stated 360 replaces 365."""
        out = apply_conventions(DIO, Conventions(balance="ending", days=360))
        assert out == "360 * inventory[y] / cogs[y]"
        assert apply_conventions(DIO, Conventions()) == DIO


class TestReasonerFollowsThem:
    def ask(self, q: str):  # type: ignore[no-untyped-def]
        return build_reasoner(Settings()).generate(q, evidence(INCOME, BALANCE, CASH_FLOW, question=q), 1)  # fmt: skip

    def test_default_is_the_average_balance(self) -> None:
        """With nothing stated, inventory turnover uses the average of opening and closing inventory."""
        a = self.ask("What was Acme's FY2022 inventory turnover ratio?")
        assert "avg(inventory_fy2022, inventory_fy2021)" in a.calculations[0].expression

    def test_stated_ending_balance_is_used_and_said(self) -> None:
        """'Using ending inventory' computes on the year-end balance and says so in the answer."""
        a = self.ask("What was Acme's FY2022 inventory turnover ratio using ending inventory?")
        assert "avg" not in a.calculations[0].expression
        assert "ending balances, as the question states" in a.text
        assert abs(a.calculations[0].result - 40576 / 1559.3) < 0.01


class TestPerShareAsked:
    def test_company_total_is_no_per_share_answer(self) -> None:
        """'How much could each shareholder get' is not answered with the company's total assets."""
        q = "If Acme liquidated all of its assets at the end of FY2022, how much could each shareholder get?"  # fmt: skip
        a = build_reasoner(Settings()).generate(q, evidence(BALANCE, question=q), 1)
        assert a.abstained and "per-share figure" in a.text

    def test_same_total_when_asked_as_a_total(self) -> None:
        """Asked for the total, the same evidence answers with total assets."""
        q = "What were Acme's total assets at the end of FY2022?"
        a = build_reasoner(Settings()).generate(q, evidence(BALANCE, question=q), 1)
        assert not a.abstained and "19,012" in a.text

    def test_per_share_wording(self) -> None:
        """Per share, each share or each shareholder is a per-share ask; 'shareholders' equity' is not."""
        from finqa.lexicon.conventions import asks_per_share

        assert asks_per_share("dividends per common share in FY2022")
        assert asks_per_share("how much would each shareholder receive")
        assert not asks_per_share("What was total shareholders' equity?")
