"""The line item a question names (a quoted caption, or an item with narrowing words) is read
from the filing's line under that caption before a broader catalogue item, and the judge checks
the captions of the lines an answer read against it (issue #25: part for whole, nearer word)."""

from __future__ import annotations

import pytest
from _reasoning_data import evidence
from finqa.agents.config import Settings
from finqa.agents.judge import JudgeAgent
from finqa.agents.reasoning import build_reasoner
from finqa.agents.types import Answer, Calculation, Evidence, Operand, Verdict
from finqa.lexicon.named_line import CURRENT, NONCURRENT, caption_part, captions, named_line
from finqa.lexicon.question_ask import read_ask

INCOME = """ACME INC.
CONSOLIDATED STATEMENTS OF INCOME
(amounts in millions)
2022 2021 2020
REVENUE
Net sales $ 2,000 $ 1,800 $ 1,500
Membership fees 100 80 70
Total revenue 2,100 1,880 1,570
OPERATING EXPENSES
Merchandise costs 1,700 1,500 1,300
Selling, general and administrative 200 190 150
Operating income 200 190 120
Other (gains) and losses 35 (12) 4
Income before income taxes 165 202 116
Provision for income taxes 40 50 30
Consolidated net income 125 152 86
"""

BALANCE = """ACME INC.
CONSOLIDATED BALANCE SHEETS
(amounts in millions)
December 31, 2022 December 31, 2021
Cash and cash equivalents $ 310 $ 290
Receivables, net 120 110
Total current assets 430 400
Content assets, net 900 850
Total assets 1,330 1,250
Current content liabilities 150 140
Accounts payable 60 50
Total current liabilities 210 190
Non-current content liabilities 90 80
Long-term debt 300 320
Total liabilities 600 590
"""

Q_QUOTED = (
    "In 2022, did Acme record a net gain or a net loss in 'other (gains) and losses', and how "
    "much was it?"
)
Q_BOTH = (
    "How much did Acme owe in content liabilities on its balance sheet at December 31, 2022 "
    "(current plus non-current)? Answer in USD millions."
)
Q_PART = "What was the year-over-year growth rate of Acme's membership fee revenue in 2022?"


def _ask(question: str, *texts: str) -> tuple[Answer, Verdict]:
    settings = Settings()
    ev: Evidence = evidence(*texts, question=question)
    answer = build_reasoner(settings).generate(question, ev, 1)
    return answer, JudgeAgent(settings).evaluate(question, answer, ev, 1)


def _codes(v: Verdict) -> list[str]:
    return [p["code"] for p in v.details["answer_problems"]]


@pytest.fixture(scope="module")
def judge() -> JudgeAgent:
    return JudgeAgent(Settings())


class TestNamedLineRead:
    def test_quoted_caption_is_the_named_line(self) -> None:
        """A caption quoted in the question is the named line, every word of it; a possessive
        is no quote."""
        line = named_line(Q_QUOTED)
        assert line is not None and line.quoted and line.phrase == "other (gains) and losses"
        assert read_ask(Q_QUOTED).named_line == line
        assert named_line("What was Acme's total revenue in 2022?") is None

    def test_narrowed_item_is_the_named_line(self) -> None:
        """An item with narrowing words names the line; 'current plus non-current' asks both
        parts."""
        part = named_line(Q_PART)
        assert part is not None and part.metric == "revenue" and not part.both_parts
        both = named_line(Q_BOTH)
        assert both is not None and both.metric == "total_liabilities" and both.both_parts

    def test_caption_must_hold_the_narrowing_words_and_add_none_of_its_own(self) -> None:
        """'Membership fees' is membership fee revenue; 'Total revenue' and 'Deferred
        membership fees' are other lines."""
        line = named_line(Q_PART)
        assert line is not None
        assert caption_part(line, "Membership fees") == ""
        assert caption_part(line, "Total revenue") is None
        assert caption_part(line, "Deferred membership fees") is None

    def test_quoted_caption_matches_letters_only(self) -> None:
        """The quoted caption is the printed one whatever its parentheses and case; another
        caption sharing its words is not."""
        line = named_line(Q_QUOTED)
        assert line is not None
        assert caption_part(line, "Other (gains) and losses") == ""
        assert caption_part(line, "Investment (gains) and losses, net") is None
        assert caption_part(line, "Consolidated net income") is None

    def test_current_and_non_current_parts(self) -> None:
        """With both parts asked, the current and non-current captions are the two parts;
        without, a current line is not the whole."""
        both = named_line(Q_BOTH)
        assert both is not None
        assert caption_part(both, "Current content liabilities") == CURRENT
        assert caption_part(both, "Content liabilities, non-current") == NONCURRENT
        assert caption_part(both, "Total liabilities") is None
        one = named_line("How much did Acme owe in content liabilities at December 31, 2022?")
        assert one is not None and caption_part(one, "Current content liabilities") is None

    def test_captions_keep_words_in_parentheses(self) -> None:
        """A parenthesis before a word is part of the caption; one before a figure is not."""
        assert captions("Other (gains) and losses 35 (12) 4") == ("Other (gains) and losses",)
        assert captions("Net sales $ 2,000") == ("Net sales",)


class TestReasonerReadsTheNamedLine:
    def test_narrowed_item_growth_from_its_line(self) -> None:
        """Membership fee revenue's growth is the 'Membership fees' line's (25.0%), not total
        revenue's (11.7%); the answer names the line read, and the judge accepts it."""
        answer, verdict = _ask(Q_PART, INCOME)
        assert "25.0%" in answer.text and "11.7%" not in answer.text
        assert "'Membership fees'" in answer.text
        assert verdict.decision == "accept", verdict.feedback

    def test_current_plus_non_current_summed(self) -> None:
        """Content liabilities, current plus non-current, are the two lines summed (240), not
        total liabilities (600); the judge accepts the sum."""
        answer, verdict = _ask(Q_BOTH, BALANCE)
        assert "$240 million" in answer.text and "600" not in answer.text
        assert verdict.decision == "accept", verdict.feedback

    def test_quoted_caption_read_from_its_line(self) -> None:
        """The quoted caption's figure is read from its own line, not net income's."""
        answer, _ = _ask(Q_QUOTED, INCOME)
        assert "$35 million" in answer.text and "125" not in answer.text


class TestJudgeChecksTheLineRead:
    def test_broader_line_not_accepted(self, judge: JudgeAgent) -> None:
        """Net income given for 'other (gains) and losses', a line the evidence prints, is not
        accepted: it answers another line."""
        op = Operand(
            name="net_income_fy2022",
            value=125.0,
            unit="USD",
            scale=1e6,
            period="FY2022",
            source_id="S1",
            text="Consolidated net income 125 152 86",
        )
        calc = Calculation(expression="net_income_fy2022", operands=(op,), result=125.0, unit="USD")
        text = (
            "FY2022 net income: $125 million [S1]. Read from the line 'Consolidated net income "
            "125 152 86' [S1] (amounts in USD millions). Answer: $125 million."
        )
        v = judge.evaluate(Q_QUOTED, Answer(text=text, calculations=(calc,)), evidence(INCOME), 1)
        assert v.decision != "accept"
        assert "named_line" in _codes(v)

    def test_named_line_read_is_not_held_to_the_broader_item(self, judge: JudgeAgent) -> None:
        """An answer whose operands are the named line's is not re-derived as the broader
        catalogue item (total liabilities) and contradicted by it."""
        answer, verdict = _ask(Q_BOTH, BALANCE)
        assert "route_conflict" not in _codes(verdict)
        assert verdict.details["answer_kind"]["metric"] is None


DEBT = """ACME INC.
CONSOLIDATED BALANCE SHEETS
(amounts in millions)
December 31, 2022 December 31, 2021
Cash and cash equivalents $ 310 $ 290
Total current assets 430 400
Total assets 1,330 1,250
Short-term debt 50 40
Current portion of long-term debt 100 90
Accounts payable 60 50
Total current liabilities 210 180
Long-term debt 300 320
Total liabilities 600 590
"""

Q_SHORT = "How much short-term debt did Acme have outstanding at December 31, 2022?"


class TestItemsOwnName:
    def test_summed_item_named_by_its_own_caption(self) -> None:
        """The name of an item the catalogue sums from several lines is a line of its own to
        match exactly; an item read from one line is not named that way."""
        line = named_line(Q_SHORT)
        assert line is not None and line.printed and line.metric == "short_term_debt"
        assert caption_part(line, "Short-term debt") == ""
        assert caption_part(line, "Current portion of long-term debt") is None
        assert named_line("What was Acme's total liabilities at December 31, 2022?") is None

    def test_printed_line_answers_not_the_catalogue_sum(self) -> None:
        """A filing printing 'Short-term debt' beside the current portion of long-term debt
        has stated short-term debt: $50 million, not the catalogue's sum ($150 million); the
        answer names the line read."""
        answer, _ = _ask(Q_SHORT, DEBT)
        assert "$50 million" in answer.text and "150" not in answer.text
        assert "'Short-term debt'" in answer.text

    def test_sum_over_the_printed_line_not_accepted(self, judge: JudgeAgent) -> None:
        """The catalogue's sum given where the filing prints the asked line is not accepted:
        it answers the current portion of long-term debt as well."""
        ops = tuple(
            Operand(
                name=name,
                value=value,
                unit="USD",
                scale=1e6,
                period="FY2022",
                source_id="S1",
                text=text,
            )
            for name, value, text in (
                ("short_term_debt_fy2022", 50.0, "Short-term debt 50 40"),
                ("short_term_debt_2_fy2022", 100.0, "Current portion of long-term debt 100 90"),
            )
        )
        calc = Calculation(
            expression="short_term_debt_fy2022 + short_term_debt_2_fy2022",
            operands=ops,
            result=150.0,
            unit="USD",
        )
        text = (
            "Short-term debt as of December 31, 2022: $150 million [S1]. Computed by finqa as "
            "short_term_debt_fy2022 + short_term_debt_2_fy2022. Answer: $150 million."
        )
        v = judge.evaluate(Q_SHORT, Answer(text=text, calculations=(calc,)), evidence(DEBT), 1)
        assert v.decision != "accept"
        assert "named_line" in _codes(v)


class TestNoNamedLine:
    def test_share_and_segment_questions_name_no_line(self) -> None:
        """A share of a whole names its lines as operands; a segment's words name a part of
        the company, not a line."""
        assert (
            named_line("What share of Acme's 2022 premium revenue was consumed by costs?") is None
        )
        assert (
            named_line("What operating margin did Acme's Space business segment earn in 2022?")
            is None
        )

    def test_operands_without_captions_are_not_another_line(self, judge: JudgeAgent) -> None:
        """An answer whose operands print no caption is not held to read another line."""
        op = Operand(
            name="x_fy2022",
            value=35.0,
            unit="USD",
            scale=1e6,
            period="FY2022",
            source_id="S1",
            text="35",
        )
        calc = Calculation(expression="x_fy2022", operands=(op,), result=35.0, unit="USD")
        text = "FY2022 other (gains) and losses: $35 million [S1]. Answer: $35 million."
        v = judge.evaluate(Q_QUOTED, Answer(text=text, calculations=(calc,)), evidence(INCOME), 1)
        assert "named_line" not in _codes(v)


class TestLineInAnotherFigure:
    """A ratio, a percent or a share over the named line asks another figure than the line's
    own: the line's amount is no answer to it, and a ratio reading the line is not 'another
    line'."""

    def test_ratio_over_the_line_is_not_the_line(self) -> None:
        from test_asked_line_item import INCOME as REV

        for q in (
            "What was the ratio of Acme's membership fee revenue to its net sales in 2022?",
            "What percentage of Acme's 2022 total revenue came from 'Membership fees'?",
        ):
            answer, _ = _ask(q, REV)
            assert "$100 million" not in answer.text, (q, answer.text)
        assert (
            named_line("What percentage of Acme's 2022 revenue came from 'Membership fees'?")
            is None
        )

    def test_judge_takes_a_ratio_reading_the_line(self, judge: JudgeAgent) -> None:
        from test_asked_line_item import INCOME as REV

        q = "What was Acme's membership fee revenue as a ratio of its net sales in 2022?"
        ops = (
            Operand(name="fees_fy2022", value=100.0, unit="USD", scale=1e6, period="FY2022",
                    source_id="S1", text="Membership fees 100 80 70"),
            Operand(name="sales_fy2022", value=2000.0, unit="USD", scale=1e6, period="FY2022",
                    source_id="S1", text="Net sales $ 2,000 $ 1,800 $ 1,500"),
        )  # fmt: skip
        calc = Calculation(
            expression="fees_fy2022 / sales_fy2022", operands=ops, result=0.05, unit="ratio"
        )
        text = "Membership fees over net sales in 2022: 0.05 [S1]. Answer: 0.05."
        v = judge.evaluate(q, Answer(text=text, calculations=(calc,)), evidence(REV), 1)
        assert "named_line" not in _codes(v)

    def test_a_narrowed_balance_the_catalogue_has_no_recipe_for(self) -> None:
        """'accrued income taxes' narrows income taxes to a balance no recipe computes: the
        line is still the figure asked (not a ratio over it)."""
        sheet = (
            "ACME INC.\nCONSOLIDATED BALANCE SHEETS\n(amounts in millions)\n"
            "December 31, 2022 December 31, 2021\nAccounts payable 900 850\n"
            "Accrued income taxes 414 400\nTotal current liabilities 1,314 1,250\n"
        )
        answer, _ = _ask(
            "What accrued income taxes did Acme carry on its balance sheet at the end of 2022?",
            sheet,
        )
        assert "$414 million" in answer.text, answer.text
