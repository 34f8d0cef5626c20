"""Right answers of blind set AO the judge refused (issue #25: the judge's acceptance of right
answers), each for a general reason:

- a total printed without a caption under a heading naming the part of the business asked
  ('Data Center Group' over its 'Platform' and 'Adjacency' lines) is that part's figure;
- a sum of lines that the evidence prints under the caption the question names ('Total Debt
  $ 8,871' beside short-term 1,150 and long-term 7,721 debt) is that line's figure."""

from __future__ import annotations

from _reasoning_data import evidence
from finqa.agents.config import Settings
from finqa.agents.judge import JudgeAgent
from finqa.agents.types import Answer, Calculation, Operand

SEGMENTS = """ACME CORP
Note 18: Operating Segments
(In Millions) 2020 2019
Operating segment revenue:
Data Center Group
Platform $ 23,481 $ 21,703
Adjacency 2,622 1,801
26,103 23,504
Client Computing Group
Platform 33,791 32,087
Adjacency 4,261 5,009
38,052 37,096
Operating income (loss):
Data Center Group $ 10,571 $ 10,227
Client Computing Group 12,160 11,675
"""
DEBT = """ACME CORP
Note 9: Debt
(In millions) December 31, 2022 December 31, 2021
Total long-term debt 7,721 7,727
Short-Term Debt
Current portion of long-term debt 1,150 1,355
Total short-term debt 1,150 1,355
Total Debt $ 8,871 $ 9,082
"""


def _problems(question: str, answer: Answer, page: str) -> list[str]:
    ev = evidence(page, doc="ACME_2022_10K", question=question)
    verdict = JudgeAgent(Settings()).evaluate(question, answer, ev, 1)
    return [p["code"] for p in verdict.details["answer_problems"]]


def _operand(name: str, value: float, row: str) -> Operand:
    return Operand(
        name=name, value=value, unit="USD", scale=1e6, period="FY2020", source_id="S1", text=row
    )


def test_a_parts_uncaptioned_total_is_its_figure() -> None:
    q = "What was the operating margin of Acme's Data Center Group in 2020?"
    answer = Answer(
        text=(
            "The operating margin of the Data Center Group segment for FY2020 was 40.5% [S1], "
            "computed from the segment's own figures: operating income FY2020 $10,571 million "
            "[S1]; revenue FY2020 $26,103 million [S1]."
        ),
        calculations=(
            Calculation(
                description="operating margin of Data Center Group",
                expression="operating_income / revenue * 100",
                operands=(
                    _operand("operating_income", 10571.0, "Data Center Group $ 10,571 $ 10,227"),
                    _operand("revenue", 26103.0, "26,103 23,504"),
                ),
                result=10571 / 26103 * 100,
                unit="%",
            ),
        ),
    )
    assert "other_item" not in _problems(q, answer, SEGMENTS)
    other = q.replace("Data Center Group", "Client Computing Group")
    assert "other_item" in _problems(other, answer, SEGMENTS)  # another part's heading


def test_the_named_lines_printed_figure_is_the_sum() -> None:
    q = "What was Acme's total debt (short-term plus long-term) at December 31, 2022?"
    ops = (
        _operand("short_term_debt_fy2022", 1150.0, "Total short-term debt 1,150 1,355"),
        _operand("long_term_debt_fy2022", 7721.0, "Total long-term debt 7,721 7,727"),
    )
    calc = Calculation(
        description="total debt", expression="short_term_debt_fy2022 + long_term_debt_fy2022",
        operands=ops, result=8871.0, unit="USD",
    )  # fmt: skip
    right = Answer(
        text="Total debt as of December 31, 2022: $8,871 million [S1].", calculations=(calc,)
    )
    assert "named_line" not in _problems(q, right, DEBT)
    wrong = Answer(text="Total debt as of December 31, 2022: $8,000 million [S1].", calculations=(
        calc.model_copy(update={"result": 8000.0}),))  # fmt: skip
    assert "named_line" in _problems(q, wrong, DEBT)
