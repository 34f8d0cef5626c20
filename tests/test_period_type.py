"""The period type and the form of what a question asks (issue #25, class 3 'flow for a
balance', and the form of a change): a flow is not answered with a balance nor a balance with a
flow; the cash paid for income taxes is the supplemental payment line, never the cash balance;
a movement of an amount is stated as its amount and its percent with the two years' figures."""

from __future__ import annotations

import pytest
from _reasoning_data import evidence
from finqa.agents.config import Settings
from finqa.agents.judge import JudgeAgent
from finqa.agents.types import Answer
from finqa.lexicon.question_intent import read_intent
from test_asked_line_item import BALANCE, TAXES, _ask, _codes

TAXES_PAID = """ACME INC.
SUPPLEMENTAL CASH FLOW INFORMATION
(amounts in millions)
2022 2021 2020
Cash paid for income taxes, net $ 95 $ 85 $ 60
Cash paid for interest $ 20 $ 18 $ 15
"""

CASH_FLOWS = """ACME INC.
CONSOLIDATED STATEMENTS OF CASH FLOWS
(amounts in millions)
Years Ended December 31, 2022 2021 2020
Net income $ 150 $ 140 $ 90
Net cash provided by operating activities 305 280 240
Cash paid during the year for:
Interest, net of capitalized amount $ 382 $ 383 $ 332
Income taxes, net of refunds $ 7 $ 12 $ 38
"""

RESTRUCTURING = """ACME INC.
CONSOLIDATED STATEMENTS OF INCOME
(amounts in millions)
2022 2021 2020
Total revenue 2,100 1,880 1,570
Restructuring charges 45 30 20
Operating income 200 190 120
"""

INCOME = """ACME INC.
CONSOLIDATED STATEMENTS OF INCOME
(amounts in millions)
2022 2021 2020
Net sales $ 2,000 $ 1,800 $ 1,500
Operating income 200 190 120
"""

Q_PAID = "How much cash did Acme pay in income taxes during 2022?"
Q_LIABILITY = "What restructuring liability did Acme carry at the end of 2022?"
CASH_ANSWER = (
    "Cash and cash equivalents as of December 31, 2022: $310 million [S1]. Read from the line "
    "'Cash and cash equivalents $ 310 $ 290' [S1] (amounts in USD millions). Answer: $310 million."
)


@pytest.fixture(scope="module")
def judge() -> JudgeAgent:
    return JudgeAgent(Settings())


class TestAskedPeriodType:
    def test_flow_verbs_and_frames_ask_a_duration(self) -> None:
        """A verb of flow ('pay', 'generated', 'repurchased') or 'during' asks a duration."""
        from finqa.lexicon.period_ask import asked_period_type

        assert asked_period_type(Q_PAID) == "duration"
        assert asked_period_type("How much revenue did Acme generate in 2022?") == "duration"
        assert asked_period_type("How many shares did Acme repurchase in 2022?") == "duration"

    def test_balance_frames_ask_an_instant(self) -> None:
        """'at the end of', 'as of <date>', 'outstanding', 'on its balance sheet' and 'the
        nature of the X liability' ask an instant."""
        from finqa.lexicon.period_ask import asked_period_type

        assert asked_period_type(Q_LIABILITY) == "instant"
        assert asked_period_type("What was Acme's debt outstanding as of June 30, 2023?") == (
            "instant"
        )
        assert asked_period_type(
            "What is the nature of the restructuring liability at quarter end?"
        ) == ("instant")

    def test_neither_or_both_ask_no_period_type(self) -> None:
        """A bare fiscal year ('as of FY2022' is a year, not a date) or words of both kinds
        ('issued and outstanding') give no period type."""
        from finqa.lexicon.period_ask import asked_period_type

        assert asked_period_type("What is Acme's FY2022 revenue as of FY2022?") is None
        assert asked_period_type("How many shares were issued and outstanding at year end?") is None

    def test_a_name_is_no_verb(self) -> None:
        """A company's name ('Best Buy') is no verb of flow: only the ask's own words count."""
        from finqa.lexicon.period_ask import asked_period_type

        assert asked_period_type("What is the year end FY2019 inventory for Best Buy?") is None

    def test_balance_not_matched_for_a_flow(self) -> None:
        """'How much cash did X pay in income taxes' asks the taxes paid, not cash: the one
        parse drops an instant item for a duration ask and takes the payment line."""
        ask = read_intent(
            "How much cash did Acme actually pay in income taxes during 2020, net of refunds?"
        ).ask
        assert ask.period_type == "duration"
        assert ask.metric == "income_taxes_paid"
        assert read_intent("How much cash did Acme pay for interest in 2022?").ask.metric == (
            "interest_paid"
        )

    def test_movement_asks_no_period_type(self) -> None:
        """The change in a balance over a year is still the balance's: no period type."""
        ask = read_intent("How much did Acme's inventory increase during 2022?").ask
        assert ask.period_type is None


class TestFlowForBalance:
    def test_balance_refused_for_a_flow(self, judge: JudgeAgent) -> None:
        """The cash balance given for the cash paid in income taxes is sent back with the
        period type's reason in the verdict."""
        q = "How much did Acme pay in income taxes during 2022?"
        v = judge.evaluate(q, Answer(text=CASH_ANSWER), evidence(BALANCE, TAXES_PAID), 1)
        assert v.decision == "retry"
        problem = next(p for p in v.details["answer_problems"] if p["code"] == "period_type")
        assert "a balance at a date" in problem["message"]
        v = judge.evaluate(Q_PAID, Answer(text=CASH_ANSWER), evidence(BALANCE, TAXES_PAID), 1)
        assert v.decision == "retry"

    def test_flow_refused_for_a_balance(self, judge: JudgeAgent) -> None:
        """The year's restructuring charges given for the restructuring liability carried at
        year end are sent back."""
        text = (
            "FY2022 restructuring charges: $45 million [S1]. Read from the line 'Restructuring "
            "charges 45 30 20' [S1]. Answer: $45 million."
        )
        v = judge.evaluate(Q_LIABILITY, Answer(text=text), evidence(RESTRUCTURING), 1)
        assert v.decision == "retry"
        assert "period_type" in _codes(v)

    def test_flow_of_its_type_not_refused(self, judge: JudgeAgent) -> None:
        """The payment line given for the cash paid is of the asked period type."""
        text = (
            "FY2022 income taxes paid: $95 million [S2]. Read from the line 'Cash paid for "
            "income taxes, net $ 95 $ 85 $ 60' [S2] (amounts in USD millions). Answer: $95 million."
        )
        v = judge.evaluate(Q_PAID, Answer(text=text), evidence(BALANCE, TAXES_PAID), 1)
        assert "period_type" not in _codes(v)


class TestCashPaidLine:
    def test_taxes_paid_read_from_the_supplemental_line(self) -> None:
        """The reasoner answers the cash paid for income taxes from its supplemental line,
        not the cash balance nor the provision, and the judge accepts it."""
        answer, verdict = _ask(Q_PAID, BALANCE, TAXES, TAXES_PAID)
        assert "$95 million" in answer.text
        assert "$310" not in answer.text and "$100 million" not in answer.text
        assert verdict.decision == "accept"

    def test_abstains_naming_the_payment_when_no_line(self) -> None:
        """Without a payment line the reasoner abstains naming what it looked for, never the
        cash balance."""
        answer, _ = _ask(Q_PAID, BALANCE, TAXES)
        assert answer.abstained
        assert "income taxes paid" in answer.text
        assert "$310" not in answer.text

    def test_row_under_a_cash_paid_heading_is_the_payment(self) -> None:
        """A statement row 'Income taxes, net of refunds' under 'Cash paid during the year
        for:' is the payment item (income taxes paid), not the provision."""
        from finqa.lexicon.statements.reader import read_pages

        read = read_pages("ACME_2022_10K", [(40, CASH_FLOWS)])
        items = {f.label.split(",")[0]: f.item for t in read.tables for f in t.facts}
        assert items["Income taxes"] == "income_taxes_paid"
        assert items["Net income"] != "income_taxes_paid"

    def test_row_the_catalogue_lacks_is_what_the_heading_paid(self) -> None:
        """'Interest, net of capitalized amount' under 'Cash paid during the year for:' is the
        interest paid, an outflow given its sign from its nature (printed '(382)', paid +382)."""
        from finqa.lexicon.statements.reader import read_pages

        page = CASH_FLOWS.replace("$ 382 $ 383 $ 332", "(382) (383) (332)")
        read = read_pages("ACME_2022_10K", [(40, page)])
        facts = {
            f.period.key: f for t in read.tables for f in t.facts if f.label.startswith("Interest")
        }
        assert {k: (f.item, f.value) for k, f in facts.items()} == {
            "FY2022": ("interest_paid", 382e6),
            "FY2021": ("interest_paid", 383e6),
            "FY2020": ("interest_paid", 332e6),
        }


class TestChangeForm:
    def test_form_read_from_the_ask(self) -> None:
        """'by how many percent' asks a percent, 'in dollars' an amount, a bare 'change' both
        (its headline the fold-chosen form)."""
        from finqa.lexicon.answer_form import BARE_CHANGE_HEADLINE

        pct = read_intent("By how many percent did Acme's operating income rise from 2021 to 2022?")
        usd = read_intent(
            "What was the change in Acme's operating income in dollars from 2021 to 2022?"
        )
        bare = read_intent("What was the year-over-year change in Acme's operating income in 2022?")
        assert (pct.ask.change_form, pct.ask.aggregate) == ("percent", "growth")
        assert (usd.ask.change_form, usd.ask.aggregate) == ("amount", "change")
        assert bare.ask.change_form == "both"
        assert bare.ask.aggregate == ("growth" if BARE_CHANGE_HEADLINE == "percent" else "change")

    @pytest.mark.parametrize(
        "question",
        [
            "What was the year-over-year change in Acme's operating income in 2022?",
            "By how many percent did Acme's operating income rise from 2021 to 2022?",
            "What was the change in Acme's operating income in dollars from 2021 to 2022?",
        ],
    )
    def test_change_stated_in_both_forms(self, question: str) -> None:
        """A change is stated as its amount and its percent with both years' figures, each a
        recorded calculation, and accepted."""
        answer, verdict = _ask(question, INCOME)
        assert "$10 million" in answer.text and "5.3%" in answer.text
        assert "$190 million in FY2021" in answer.text and "$200 million in FY2022" in answer.text
        assert len(answer.calculations) == 2
        assert verdict.decision == "accept"

    def test_headline_in_the_asked_form(self) -> None:
        """The figure the answer gives first is the form the ask states."""
        pct, _ = _ask(
            "By how many percent did Acme's operating income rise from 2021 to 2022?", INCOME
        )
        usd, _ = _ask(
            "What was the change in Acme's operating income in dollars from 2021 to 2022?", INCOME
        )
        assert pct.text.split("Answer: ")[-1].startswith("5.3%")
        assert usd.text.split("Answer: ")[-1].startswith("$10 million")

    @pytest.mark.parametrize(
        ("question", "text"),
        [
            (
                "By how many percent did Acme's operating income rise from 2021 to 2022?",
                "Change in operating income, FY2021 to FY2022: $10 million [S1]. Answer: $10 million.",
            ),
            (
                "What was the change in Acme's operating income in dollars from 2021 to 2022?",
                "Growth in operating income, FY2021 to FY2022: 5.3% [S1]. Answer: 5.3%.",
            ),
        ],
    )
    def test_other_form_alone_refused(self, judge: JudgeAgent, question: str, text: str) -> None:
        """An answer giving only the other form than the one asked is sent back."""
        v = judge.evaluate(question, Answer(text=text), evidence(INCOME), 1)
        assert v.decision == "retry"
        assert "wrong_kind" in _codes(v)


class TestAdjustedMeasure:
    def test_adjusted_change_not_answered_with_the_reported_one(self) -> None:
        """'The real change in sales if we exclude the impact of FX' is not the reported
        change: the reasoner abstains saying so."""
        q = (
            "How much was the real change in Acme's net sales from 2021 to 2022, if we exclude "
            "the impact of FX movements?"
        )
        assert read_intent(q).ask.adjusted
        answer, _ = _ask(q, INCOME)
        assert answer.abstained
        assert "adjusted" in answer.text


def test_an_amount_not_yet_paid_is_a_balance() -> None:
    """'acquired on account but not yet paid' asks what is owed at a date, whatever verb of
    flow stands beside it; the flow itself ('paid during 2018') is a duration."""
    from finqa.lexicon.period_ask import asked_period_type

    q = "As of the end of 2018, how much capital expenditure had Acme acquired on account but not yet paid?"
    assert asked_period_type(q) == "instant"
    assert (
        asked_period_type("How much did Acme pay for capital expenditures during 2018?")
        == "duration"
    )
    assert asked_period_type("What unpaid dividends did Acme have at year end?") == "instant"
