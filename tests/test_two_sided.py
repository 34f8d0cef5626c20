"""Two-sided lines: a caption naming both sides ('Other expense (income)', 'Other (income)
expense, net') puts a figure printed in parentheses on its parenthesised side; the answer states
the side in words, and the judge checks it against the filing's print, by its own reading."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _reasoning_data import evidence  # noqa: E402
from finqa.agents.config import Settings  # noqa: E402
from finqa.agents.judge import JudgeAgent  # noqa: E402
from finqa.agents.types import Answer  # noqa: E402
from finqa.lexicon.named_line import named_line  # noqa: E402
from finqa.lexicon.sides import (  # noqa: E402
    asks_side,
    line_side,
    nonoperating_rows,
    own_words,
    stated_sides,
    two_sided,
)
from finqa.lexicon.statements import read_pages  # noqa: E402

# other income of 124 in 2019 (printed in parentheses on an 'expense (income)' line), an
# expense of 208 in 2017
EXPENSE_INCOME = """ACME HEALTH CORP
CONSOLIDATED STATEMENTS OF OPERATIONS
(In millions)
Year Ended December 31,
2019 2018 2017
Total revenues 256,776 194,579 184,765
Operating income 11,987 4,021 9,538
Interest expense 3,035 2,619 1,062
Other expense (income) (124) (4) 208
Income before income tax provision 9,076 1,406 8,268
Income tax provision 2,366 2,002 1,637
Net income 6,710 (596) 6,631
"""

# income in parentheses first: (196) of income in 2017, 58 of expense in 2016
INCOME_EXPENSE = """ACME ATHLETIC INC.
CONSOLIDATED STATEMENTS OF INCOME
(In millions)
Year Ended May 31,
2017 2016
Revenues 34,350 32,376
Interest expense (income), net 59 19
Other (income) expense, net (196) 58
Income before income taxes 4,886 4,467
Income tax expense 646 807
NET INCOME 4,240 3,660
"""


# a non-operating line whose caption names no side: income in 2020, an expense in 2019
NO_SIDE = """ACME PAY INC.
CONSOLIDATED STATEMENT OF INCOME
(In millions)
Year Ended December 31,
2020 2019 2018
Net revenues 10,271 8,636 8,650
Operating income 2,611 1,861 1,752
Interest and other, net 709 (112) 497
Income from continuing operations before income taxes 3,320 1,749 2,249
Income tax provision 878 233 121
Net income 2,442 1,516 2,128
"""


def _answer(text: str, doc: str, q: str) -> str:
    from finqa.agents.reasoning import build_reasoner
    from finqa.lexicon.statements.memory import MemoryStatementStore

    read = read_pages(doc, [(92, text)])
    ev = evidence(text, doc=doc, first_page=92, question=q)
    reasoner = build_reasoner(Settings(), statements=MemoryStatementStore(read.tables))
    return reasoner.generate(q, ev, 1).text


def _judge(text: str, doc: str, q: str, answer: str) -> Any:
    ev = evidence(text, doc=doc, first_page=92, question=q)
    return JudgeAgent(Settings()).evaluate(q, Answer(text=answer), ev, 1)


def _codes(verdict: Any) -> list[str]:
    return [p["code"] for p in verdict.details["answer_problems"]]


def _verdict_facet(verdict: Any) -> dict[str, Any]:
    return next(f for f in verdict.details["facets"] if f["kind"] == "verdict")


class TestLineSide:
    """The side of a figure on a line, from the caption's parentheses or the layout."""

    def test_parenthesised_figure_is_on_the_parenthesised_side(self) -> None:
        """(124) on 'Other expense (income)' is other income; 208 on it is other expense."""
        income = line_side("Other expense (income)", -124)
        expense = line_side("Other expense (income)", 208)
        assert income is not None and (income.side, income.phrase) == ("income", "other income")
        assert expense is not None and (expense.side, expense.phrase) == (
            "expense",
            "other expense",
        )

    def test_income_in_parentheses_first(self) -> None:
        """(196) on 'Other (income) expense, net' is net other income; 58 is net other expense;
        on 'Other expense/(income), net' 305 is an expense and (119) income."""
        assert line_side("Other (income) expense, net", -196).phrase == "net other income"  # type: ignore[union-attr]
        assert line_side("Other (income) expense, net", 58).side == "expense"  # type: ignore[union-attr]
        assert line_side("Other expense/(income), net", 305).side == "expense"  # type: ignore[union-attr]
        assert line_side("Other expense/(income), net", -119).side == "income"  # type: ignore[union-attr]

    def test_gains_and_losses_and_the_tax_line(self) -> None:
        """'Other (gains) and losses' printing 50 is other losses; 'Benefit (provision) for
        income taxes' printing (200) is a provision (its 'income taxes' names no side)."""
        losses = line_side("Other (gains) and losses", 50)
        assert losses is not None and (losses.side, losses.word) == ("expense", "losses")
        tax = line_side("Benefit (provision) for income taxes", -200)
        assert tax is not None and tax.word == "provision"

    def test_a_caption_naming_no_side_is_read_by_the_layout(self) -> None:
        """'Interest and other, net' printed between operating income and pre-tax income:
        (112) is an expense, 709 income; a line elsewhere naming no side ('Membership fees')
        has no side to read."""
        expense = line_side("Interest and other, net", -112, nonoperating=True)
        assert expense is not None and expense.phrase == "net interest and other expense"
        income = line_side("Interest and other, net", 709, nonoperating=True)
        assert income is not None and income.side == "income"
        assert line_side("Interest and other, net", 709) is None
        assert line_side("Membership fees", 4224) is None

    def test_the_rows_between_operating_and_pre_tax_income(self) -> None:
        """The layout's non-operating rows are those between operating and pre-tax income."""
        read = read_pages("ACMEPAY_2020_10K", [(61, NO_SIDE)])
        table = next(t for t in read.tables if t.statement == "income")
        labels = {f.row: f.label for f in table.facts}
        between = nonoperating_rows(table.facts)
        assert {labels[r] for r in between} == {"Interest and other, net"}

    def test_one_sided_captions_are_left_to_the_statement_reader(self) -> None:
        """'Other expense, net' names one side: no two sides, no side read here."""
        assert two_sided("Other expense, net") is None
        assert line_side("Other expense, net", 30) is None


class TestOwnWords:
    """Words quoted or copied from a two-sided caption state no side."""

    def test_caption_words_state_no_side(self) -> None:
        """A bare figure under the caption names neither side; 'other income of' names one."""
        bare = "FY2019 Other expense (income): $124 million. Read from the line 'Other expense (income) (124)'."
        assert stated_sides(bare) == set()
        assert "expense" not in own_words(bare).lower()
        assert stated_sides("FY2019 Other expense (income): other income of $124 million") == {
            "income"
        }

    def test_questions_asking_a_side(self) -> None:
        """'an expense or income?', 'a net gain or a net loss?' ask a side; 'pay dividends or
        buy back shares?' does not."""
        assert asks_side("Was Acme's 'Other expense/(income), net' an expense or income in 2015?")
        assert asks_side("Did Acme record a net gain or a net loss on investments in 2021?")
        assert not asks_side("Did Acme pay dividends or buy back shares in 2021?")


class TestReasonerStatesTheSide:
    """A named two-sided line's figure is answered with its side in words."""

    def test_other_income_printed_in_parentheses(self) -> None:
        """(124) on 'Other expense (income)' is answered as other income of $124 million."""
        q = (
            "In 2019, did Acme Health record a net other expense or a net other income on its "
            "'Other expense (income)' line, and how much?"
        )
        text = _answer(EXPENSE_INCOME, "ACMEHEALTH_2019_10K", q)
        assert "other income of $124 million" in text, text
        assert "other expense of $124 million" not in text, text

    def test_each_asked_year_gets_its_side(self) -> None:
        """'an expense or income in fiscal 2017 and in fiscal 2016': income of $196 million in
        2017, an expense of $58 million in 2016."""
        q = (
            "Was Acme Athletic's 'Other (income) expense, net' an expense or income in fiscal "
            "2017 and in fiscal 2016? Answer in USD millions."
        )
        text = _answer(INCOME_EXPENSE, "ACMEATHLETIC_2017_10K", q)
        assert "net other income of $196 million" in text, text
        assert "net other expense of $58 million" in text, text

    def test_the_premise_quotes_the_line_the_ask_refers_to(self) -> None:
        """'Acme's income statement has a line called 'Other expense (income)'. Did this line
        represent net other income or a net expense in 2019?': the premise's caption is the
        line asked (income of $124 million), not the catalogue's net income."""
        q = (
            "Acme Health's income statement has a line called 'Other expense (income)'. Did this "
            "line represent net other income or a net expense in 2019, and how large was it?"
        )
        text = _answer(EXPENSE_INCOME, "ACMEHEALTH_2019_10K", q)
        assert "other income of $124 million" in text, text
        line = named_line(q)
        assert line is not None and line.phrase == "Other expense (income)"
        # a premise quoting a caption names no line for an ask of its own
        own = "Acme's income statement has a line called 'Other expense (income)'. What was Acme's revenue in 2019?"  # fmt: skip
        assert named_line(own) is None

    def test_the_effect_its_side_has(self) -> None:
        """'Did that line help or hurt pre-tax income?': income (124) in parentheses helps,
        the 2017 expense of 208 hurts; the judge accepts the option the side has and refuses
        the other."""
        q = (
            "Acme Health's income statement carries a line called 'Other expense (income)'. Did "
            "that line help or hurt pre-tax income in {y}, and by how much?"
        )
        helped = _answer(EXPENSE_INCOME, "ACMEHEALTH_2019_10K", q.format(y=2019))
        assert helped.startswith("It did help pre-tax income"), helped
        hurt = _answer(EXPENSE_INCOME, "ACMEHEALTH_2019_10K", q.format(y=2017))
        assert hurt.startswith("It did hurt pre-tax income"), hurt
        ok = _judge(EXPENSE_INCOME, "ACMEHEALTH_2019_10K", q.format(y=2017), hurt)
        assert "wrong_side" not in _codes(ok) and _verdict_facet(ok)["addressed"]
        wrong = hurt.replace("It did hurt", "It did help")
        bad = _judge(EXPENSE_INCOME, "ACMEHEALTH_2019_10K", q.format(y=2017), wrong)
        assert "wrong_side" in _codes(bad) and bad.decision != "accept"

    def test_a_quoted_caption_may_open_with_a_parenthesis(self) -> None:
        line = named_line("Was Acme's '(Provision) benefit for income taxes' a provision or a benefit in 2017?")  # fmt: skip
        assert line is not None and line.phrase == "(Provision) benefit for income taxes"


class TestLayoutSide:
    """A non-operating line naming no side is read by the layout, each asked year."""

    def test_interest_and_other_by_the_layout(self) -> None:
        """709 is net interest and other income in 2020, (112) an expense in 2019."""
        q = (
            "Was Acme Pay's 'interest and other, net' a net income or a net expense in 2020 "
            "and in 2019? Answer in USD millions."
        )
        text = _answer(NO_SIDE, "ACMEPAY_2020_10K", q)
        assert "net interest and other income of $709 million" in text, text
        assert "net interest and other expense of $112 million" in text, text


class TestJudgeSide:
    """The judge's verdict facet needs the side in the answer's own words, agreeing with the
    side the filing's print gives the line."""

    Q = (
        "In 2019, did Acme Health record a net other expense or a net other income on its "
        "'Other expense (income)' line, and how much?"
    )
    DOC = "ACMEHEALTH_2019_10K"

    def test_caption_words_do_not_name_the_option(self) -> None:
        """A bare $124 million under the caption 'Other expense (income)' names no side: the
        verdict part is not addressed."""
        bare = "FY2019 Other expense (income): $124 million [S1]."
        verdict = _judge(EXPENSE_INCOME, self.DOC, self.Q, bare)
        assert not _verdict_facet(verdict)["addressed"], verdict.details["facets"]

    def test_the_wrong_side_is_sent_back(self) -> None:
        """'a net other expense of $124 million' where the line prints (124) is sent back; 'net
        other income of $124 million' is not."""
        bad = _judge(
            EXPENSE_INCOME, self.DOC, self.Q, "FY2019: a net other expense of $124 million [S1]."
        )
        assert "wrong_side" in _codes(bad), bad.details["answer_problems"]
        assert bad.decision != "accept"
        ok = _judge(
            EXPENSE_INCOME, self.DOC, self.Q, "FY2019: net other income of $124 million [S1]."
        )
        assert "wrong_side" not in _codes(ok), ok.details["answer_problems"]
        assert _verdict_facet(ok)["addressed"], ok.details["facets"]

    def test_the_side_named_with_the_figure_answers_the_verdict(self) -> None:
        """'did X record net other income or net other expense ..., and how much?': the
        reasoner's 'net other income of $196 million' answers both parts and is accepted."""
        q = (
            "In fiscal 2017, did Acme Athletic record net other income or net other expense on "
            "its 'Other (income) expense, net' line, and how much? Answer in USD millions."
        )
        doc = "ACMEATHLETIC_2017_10K"
        text = _answer(INCOME_EXPENSE, doc, q)
        verdict = _judge(INCOME_EXPENSE, doc, q, text)
        assert _verdict_facet(verdict)["addressed"], verdict.details["facets"]
        assert verdict.decision == "accept", verdict.details["answer_problems"]


# product lines printed on the face of the statement of operations, the scale note on the
# header line ('(in millions, except per share data) 2019 2018 revenues:')
PRODUCT_LINES = """ACME SOFTWARE CORPORATION
CONSOLIDATED STATEMENTS OF OPERATIONS
For the Years Ended May 31, 2019 and 2018
Year Ended May 31,
(in millions, except per share data) 2019 2018 revenues:
Cloud services and license support $ 20,110 $ 19,640
Hardware 2,905 3,120
Services 2,480 2,515
Total revenues 25,495 25,275
Operating expenses:
Cloud services and license support 2,790 2,650
Hardware 1,040 1,180
Services 2,105 2,130
Sales and marketing 6,300 6,250
Total operating expenses 12,235 12,210
Operating income 13,260 13,065
Interest expense (1,540) (1,495)
Income before provision for income taxes 11,720 11,570
Provision for income taxes 1,120 6,840
Net income $ 10,600 $ 4,730
Earnings per share:
Basic $ 2.92 $ 1.15
"""


class TestProductLinesOnTheFace:
    """Amounts under a scale note printed on the header line are amounts (not per share), and
    a product line's revenue is no answer to its margin as a percentage."""

    def test_revenue_lines_are_amounts(self) -> None:
        """'Hardware 2,905' under '(in millions, except per share data)' is $2,905 million."""
        read = read_pages("ACMESOFT_2019_10K", [(69, PRODUCT_LINES)])
        table = next(t for t in read.tables if t.statement == "income")
        hardware = [f for f in table.facts if f.label == "Hardware" and f.row < 5]
        assert {f.unit for f in hardware} == {"USD"}
        assert {f.value for f in hardware} == {2905e6, 3120e6}

    def test_a_margin_percentage_is_not_the_lines_revenue(self) -> None:
        """'the margin of its hardware business as a percentage of hardware revenues' is not
        answered with hardware revenue of $2,905 million."""
        q = (
            "What was the margin of Acme Software's hardware business as a percentage of "
            "hardware revenues in fiscal 2019? Round to one decimal place."
        )
        text = _answer(PRODUCT_LINES, "ACMESOFT_2019_10K", q)
        assert "$2,905 million" not in text, text


def test_a_two_sided_caption_has_its_sides_in_any_table() -> None:
    """A segment reconciliation's 'Interest and other expense (income), net' prints its sides
    as the income statement does; a one-sided caption outside the income statement has none
    read by the layout."""
    from types import SimpleNamespace

    from finqa.agents.reasoning.offline.named_rows import _sided_row

    two = SimpleNamespace(statement="segment", label="Interest and other expense (income), net")
    one = SimpleNamespace(statement="segment", label="Interest and other, net")
    assert _sided_row(two) and not _sided_row(one)  # type: ignore[arg-type]


TAX_TWO_SIDED = """ACME RETAIL INC.
CONSOLIDATED STATEMENTS OF OPERATIONS
(in millions)
Year Ended December 31,
2022 2021
Total net sales 513,983 469,822
Operating income 12,248 24,879
Income (loss) before income taxes (5,936) 38,151
Benefit (provision) for income taxes 3,217 (4,791)
Net income (loss) (2,722) 33,364
"""


def test_a_catalogue_items_side_read_from_its_two_sided_caption() -> None:
    """'Did Acme record an income tax expense or an income tax benefit for 2022?' names no line:
    the tax line, printed under 'Benefit (provision) for income taxes', is read for its side
    (3,217 unparenthesised: a benefit; 2021's (4,791) a provision), and the judge checks a
    stated side against that print."""
    doc = "ACMERETAIL_2022_10K"
    q = "Did Acme Retail record an income tax expense or an income tax benefit for 2022, and how much was it?"  # fmt: skip
    text = _answer(TAX_TWO_SIDED, doc, q)
    assert "benefit for income taxes of $3,217 million" in text, text
    assert not text.startswith("Yes"), text
    wrong = (
        "FY2022: a provision for income taxes of $3,217 million [S1]. Read from the line "
        "'Benefit (provision) for income taxes 3,217 (4,791)' [S1] (amounts in USD millions)."
    )
    verdict = _judge(TAX_TWO_SIDED, doc, q, wrong)
    assert "wrong_side" in _codes(verdict), verdict.details["answer_problems"]
