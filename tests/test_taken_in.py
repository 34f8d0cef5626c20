"""A line the question takes in that the answer's lines leave out by definition (issue #25: part
for whole): 'total debt, including capital lease obligations', answered with the catalogue's
debt lines (which exclude leases), is not accepted unless the answer names the lease line."""

from __future__ import annotations

from _reasoning_data import evidence
from finqa.agents.config import Settings
from finqa.agents.judge import JudgeAgent
from finqa.agents.types import Answer, Calculation, Operand
from finqa.lexicon.qualifiers import included_phrases

DOC = "ACME_2015_10K"
BALANCE = """ACME CORP
CONSOLIDATED BALANCE SHEETS
(Amounts in millions)
As of January 31, 2015 2014
Short-term borrowings $ 1,592 $ 7,670
Long-term debt due within one year 4,810 4,103
Capital lease obligations due within one year 287 309
Total current liabilities 65,272 69,345
Long-term debt 41,086 41,771
Long-term capital lease obligations 2,606 2,788
"""
Q = "What was Acme's total debt, including capital lease obligations, as of January 31, 2015?"


def _answer(total: float, lines: tuple[tuple[str, float, str], ...], text: str) -> Answer:
    ops = tuple(
        Operand(name=n, value=v, unit="USD", scale=1e6, period="FY2015", source_id="S1", text=t)
        for n, v, t in lines
    )
    expression = " + ".join(n for n, _v, _t in lines)
    return Answer(
        text=text,
        calculations=(Calculation(expression=expression, operands=ops, result=total, unit="USD"),),
    )


DEBT = (
    ("short_term_debt_fy2015", 1592.0, "Short-term borrowings $ 1,592 $ 7,670"),
    ("short_term_debt_2_fy2015", 4810.0, "Long-term debt due within one year 4,810 4,103"),
    ("long_term_debt_fy2015", 41086.0, "Long-term debt 41,086 41,771"),
)


def _codes(question: str, answer: Answer) -> list[str]:
    verdict = JudgeAgent(Settings()).evaluate(question, answer, evidence(BALANCE, doc=DOC), 1)
    return [p["code"] for p in verdict.details["answer_problems"]]


def test_the_phrase_taken_in() -> None:
    assert included_phrases(Q) == ("capital lease obligations",)
    assert included_phrases("What was Acme's total debt at the end of 2015?") == ()


def test_the_lines_without_it_are_not_the_measure() -> None:
    text = (
        "Total debt as of January 31, 2015: $47,488 million [S1]. Computed by finqa as "
        "short_term_debt_fy2015 + short_term_debt_2_fy2015 + long_term_debt_fy2015 [S1]."
    )
    assert "inclusion" in _codes(Q, _answer(47488.0, DEBT, text))
    plain = "What was Acme's total debt as of January 31, 2015?"
    assert "inclusion" not in _codes(plain, _answer(47488.0, DEBT, text))


def test_an_answer_naming_the_line_taken_in() -> None:
    lines = (
        *DEBT,
        ("capital_lease_fy2015", 287.0, "Capital lease obligations due within one year 287 309"),
        ("capital_lease_2_fy2015", 2606.0, "Long-term capital lease obligations 2,606 2,788"),
    )
    text = (
        "Total debt including capital lease obligations as of January 31, 2015: $50,381 million "
        "[S1], the debt lines plus the capital lease obligations lines."
    )
    assert "inclusion" not in _codes(Q, _answer(50381.0, lines, text))
