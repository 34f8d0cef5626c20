"""Wholes, parts and periods the question asks (issue #25: part for whole, a part dropped, the
year a change is for), each read once in the lexicon and checked by the judge on the evidence:

- one part of a line printed in parts with no total ('Dividends paid-common stock' beside
  'Dividends paid-Series A Preferred Stock') where the question asks the whole;
- one side of a balance the balance sheet prints on both sides under the question's caption;
- 'A and B combined' of two catalogue lines is their sum;
- 'how large a share of ...' and 'how fast did ... grow' each ask a figure of their own, and
  'on what date?' a date;
- 'X narrowed in 2016. By how much ... compared with 2015?' is a change for 2016.
"""

from __future__ import annotations

from _reasoning_data import evidence
from finqa.agents.config import Settings
from finqa.agents.judge import JudgeAgent
from finqa.agents.types import Answer
from finqa.lexicon.answer_form import date_asked, states_date, states_share
from finqa.lexicon.components import enumeration
from finqa.lexicon.intent import asks_share
from finqa.lexicon.question_ask import read_ask
from finqa.lexicon.question_parts import question_parts

CASH_FLOW = """ACME CORP
CONSOLIDATED STATEMENTS OF CASH FLOWS
(in millions)
December 31, 2016 December 31, 2015
CASH FLOWS FROM FINANCING ACTIVITIES
Repayments of long-term debt (86) (12,314)
Dividends paid-Series A Preferred Stock (180) (900)
Dividends paid-common stock (3,584) (1,302)
Other financing activities, net (16) (37)
Net cash used for financing activities (3,866) (14,553)
"""

BALANCE = """ACME CORP
CONSOLIDATED BALANCE SHEETS
(in millions)
December 3, 2021 November 27, 2020
Current liabilities:
Trade payables $ 312 $ 306
Deferred revenue 4,733 3,629
Income taxes payable 54 63
Total current liabilities 5,099 3,998
Long-term liabilities:
Debt 4,123 4,117
Deferred revenue 145 130
Other liabilities 252 223
Total liabilities 9,619 8,468
"""


def _verdict(question: str, text: str, page: str):  # noqa: ANN202 - a Verdict
    return JudgeAgent(Settings()).evaluate(question, Answer(text=text), evidence(page), 1)


def _problems(verdict) -> list[str]:  # noqa: ANN001
    return [p["code"] for p in verdict.details.get("answer_problems", [])]


class TestOnePartOfALine:
    Q = "How much did Acme pay in dividends in total during 2016, counting every class of stock?"

    def test_one_part_for_the_whole_is_not_accepted(self) -> None:
        wrong = _verdict(
            self.Q,
            "FY2016 cash dividends paid: $3,584 million [S1]. Read from the line 'Dividends "
            "paid-common stock (3,584) (1,302)' [S1].",
            CASH_FLOW,
        )
        assert wrong.decision != "accept" and "named_line" in _problems(wrong)

    def test_the_parts_summed_are_the_whole(self) -> None:
        right = _verdict(self.Q, "FY2016 dividends paid: $3,764 million [S1].", CASH_FLOW)
        assert "named_line" not in _problems(right)

    def test_a_part_the_question_names_is_asked(self) -> None:
        q = "How much did Acme pay in total in dividends on its common stock during 2016?"
        verdict = _verdict(q, "FY2016 common dividends paid: $3,584 million [S1].", CASH_FLOW)
        assert "named_line" not in _problems(verdict)


class TestOneSideOfABalance:
    def test_one_side_is_not_the_balance(self) -> None:
        q = "What was Acme's deferred revenue balance at December 3, 2021?"
        wrong = _verdict(
            q, "Deferred revenue as of December 3, 2021: $4,733 million [S1].", BALANCE
        )
        assert wrong.decision != "accept" and "named_line" in _problems(wrong)
        right = _verdict(
            q, "Deferred revenue as of December 3, 2021: $4,878 million [S1].", BALANCE
        )
        assert "named_line" not in _problems(right)

    def test_both_sides_named_ask_the_whole(self) -> None:
        q = "What was Acme's total deferred revenue (current plus long-term) at December 3, 2021?"
        wrong = _verdict(
            q, "Deferred revenue as of December 3, 2021: $4,733 million [S1].", BALANCE
        )
        assert wrong.decision != "accept" and "named_line" in _problems(wrong)

    def test_a_side_the_question_names(self) -> None:
        q = "What was Acme's current deferred revenue at December 3, 2021?"
        verdict = _verdict(
            q, "Deferred revenue as of December 3, 2021: $4,733 million [S1].", BALANCE
        )
        assert "named_line" not in _problems(verdict)


class TestLexicon:
    def test_a_pair_combined_is_their_sum(self) -> None:
        listed = enumeration(
            "How much cash did Acme hand back to shareholders in fiscal 2017 through dividends "
            "(including dividend equivalents) and share repurchases combined?"
        )
        assert listed is not None and listed.parts == ("dividends", "share repurchases")
        assert listed.stated_sum
        listed = enumeration(
            "What were cash and cash equivalents and marketable securities combined?"
        )
        assert listed is not None
        assert listed.parts == ("cash and cash equivalents", "marketable securities")
        assert enumeration("What were revenue and net income in 2020?") is None

    def test_operators_and_whole_firm_words_name_no_part(self) -> None:
        """'operating income over segment net revenues' divides, 'firmwide net interest
        income' is the whole firm's: neither names a part printed as a row ('Over', 'Firmwide')."""
        from finqa.lexicon.qualifiers import named_part

        labels = ["revenue recognized over time", "firmwide", "net interest income"]
        for q in (
            "What operating margin did Acme's King segment earn in 2021, measured as segment "
            "operating income over segment net revenues?",
            "By what percentage did Acme's firmwide net interest income grow in 2022?",
        ):
            assert named_part(q, labels) is None, q

    def test_share_and_speed_parts(self) -> None:
        q = (
            "How large a share of Acme's total operating revenues came from natural gas in the "
            "first quarter of 2023, and how fast did natural gas revenues grow from a year earlier?"
        )
        parts = question_parts(q).parts
        assert [p.form for p in parts] == ["figure", "figure"]
        assert asks_share(parts[0].text) and not asks_share(parts[1].text)
        assert states_share("33.7% of total operating revenues")
        assert not states_share("The growth in revenue of natural gas was 27.4%")

    def test_a_date_asked(self) -> None:
        assert date_asked("If so, on what date?") == "day"
        assert date_asked("When did it emerge from bankruptcy?") == "period"
        assert date_asked("What was revenue in 2020?") is None
        assert not states_date("On the Effective Date, Acme emerged from Chapter 11.", "day")
        assert states_date("Acme emerged from Chapter 11 on July 1, 2020.", "day")
        assert states_date("It emerged in 2020.", "period")

    def test_the_year_a_change_is_for(self) -> None:
        q = (
            "Acme's net loss narrowed in 2016. By how much did the net loss attributable to "
            "common stockholders shrink compared with 2015?"
        )
        ask = read_ask(q)
        assert ask.target_year == 2016 and ask.agg_years == (2015, 2016)
        assert read_ask("How much did revenue grow from 2015 to 2017?").agg_years == (2015, 2017)


class TestJudgeParts:
    def test_a_date_part_left_without_a_date(self) -> None:
        q = "Had Acme emerged from Chapter 11 by the end of 2020? If so, on what date?"
        page = "On July 1, 2020, Acme emerged from Chapter 11 pursuant to the Plan."
        wrong = _verdict(
            q, 'Yes. The filing states it: "On the Effective Date, Acme emerged from Chapter '
            '11." [S1]', page,
        )  # fmt: skip
        assert wrong.decision != "accept"

    def test_a_share_stated_once_answers_its_part(self) -> None:
        """The share stated in the lead sentence answers the share part, though the claim the
        part owns is the bare 'Answer: 16.3%.'; a growth figure alone answers no share part."""
        page = """ACME CORP
SALES BY CHANNEL
(in millions) Thirteen weeks ended October 29, 2022
Stores $ 1,818
Direct-to-customers 355
Total sales $ 2,173
"""
        q = (
            "In Acme's third quarter of 2022, what were sales through the direct-to-customers "
            "channel, and what percentage of total sales did that channel represent?"
        )
        right = _verdict(
            q,
            "The direct-to-customers channel's share of the company's sales for the quarter was "
            "16.3% [S1], computed from the channel's own figure, $355 million, over total sales, "
            "$2,173 million [S1]. Answer: 16.3%.",
            page,
        )
        assert "part_dropped" not in _problems(right)
        wrong = _verdict(
            q,
            "The growth in sales of the direct-to-customers channel was 12.1% [S1], from $317 "
            "million to $355 million. Answer: 12.1%.",
            page,
        )
        assert wrong.decision != "accept"
