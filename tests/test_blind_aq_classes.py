"""Classes of wrong answers found on blind set AQ (issue #25), each a general reading:

- a line the question names as a line ('a line called Other operating (income) expense, net',
  "its nonoperating line") is answered only by an answer naming it: net income's change given
  for the line's side answers another line;
- a brand's figure ('did Apple's iPad net sales grow or shrink?') names the brand whatever form
  the answer takes (a yes/no too);
- a measure defined 'i.e. A (a remark) less B' is the defined difference, the remark in
  parentheses qualifying A;
- 'sales to customers in Europe' names a part of the business."""

from __future__ import annotations

import pytest
from _reasoning_data import INCOME, evidence
from finqa.agents.config import Settings
from finqa.agents.judge import JudgeAgent
from finqa.agents.types import Answer
from finqa.lexicon.components import enumeration
from finqa.lexicon.dimension_question import asked_dimension
from finqa.lexicon.named_line import line_words, named_line


@pytest.mark.parametrize(
    ("question", "words"),
    [
        (
            "Acme reports a line called Other operating (income) expense, net. Was it a net "
            "expense or net income in 2022?",
            ("other", "operating", "income", "expense", "net"),
        ),
        ("Was Acme's nonoperating line a net expense or net income in 2022?", ("nonoperating",)),
        ("What was the bottom line in 2022?", ()),  # net income's own name
        ("In the prior-year quarter was the tax line a provision or a benefit?", ("tax",)),
        # a 'line' that names no statement line
        ("Which category performed the best (by top line) in the domestic market?", ()),
        ("Answer the question by using the line items shown within the income statement.", ()),
        ("What was the company's line of credit in 2022?", ()),
        ("What was Acme's revenue in 2022?", ()),
    ],
)
def test_a_line_named_as_a_line(question: str, words: tuple[str, ...]) -> None:
    assert line_words(question) == words


def test_a_line_called_is_its_caption() -> None:
    q = "Acme reports a line called Other operating (income) expense, net. Was it an expense?"
    line = named_line(q)
    assert line is not None and line.phrase == "Other operating (income) expense, net"


def _codes(question: str, text: str) -> tuple[str, list[str]]:
    verdict = JudgeAgent(Settings()).evaluate(
        question, Answer(text=text), evidence(INCOME, question=question), 1
    )
    return verdict.decision, [p["code"] for p in verdict.details["answer_problems"]]


def test_another_lines_figures_for_a_named_line_are_refused() -> None:
    q = "Was Acme's nonoperating line a net expense or net income in 2022, and how large was it?"
    decision, codes = _codes(
        q, "Net income rose from $290 million in 2021 to $300 million in 2022 [S1]."
    )
    assert decision != "accept" and "line_named" in codes


def test_a_brands_verdict_names_the_brand() -> None:
    q = "Did Apple's iPad net sales grow or shrink in fiscal 2022, and by how much?"
    decision, codes = _codes(
        q, "Yes. Revenue rose from $1,880 million in 2021 to $2,100 million in 2022 [S1]."
    )
    assert decision != "accept" and "brand_part" in codes


def test_a_remark_in_a_defined_difference() -> None:
    q = (
        "What was Acme's net interest expense for 2022, i.e. interest expense (net of the "
        "portion capitalized) less interest income?"
    )
    found = enumeration(q)
    assert found is not None and found.parts == ("interest expense", "interest income")
    assert found.signs == (1, -1)


def test_sales_to_customers_in_a_place() -> None:
    found = asked_dimension(
        "By what percentage did Acme's sales to customers in Europe grow in 2022?"
    )
    assert found is not None and found.phrase == "Europe"
    assert asked_dimension("What were Acme's sales to customers in fiscal 2022?") is None
