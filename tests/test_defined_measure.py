"""A measure the question defines by arithmetic over named lines is computed as defined, or the
answer abstains naming the line it lacks; never the catalogue metric of a similar name (issue
#25, 'another metric's formula')."""

from __future__ import annotations

from _reasoning_data import evidence
from finqa.agents.config import Settings
from finqa.agents.reasoning import build_reasoner
from finqa.lexicon.defined_measure import defined_measure, same_measure

INCOME = """HARBORLINE BANCORP
CONSOLIDATED STATEMENTS OF INCOME
(in millions)
Year ended December 31, 2024 2023
Total net revenue $ 12,400 $ 11,800
Provision for credit losses 900 1,300
Total noninterest expense 7,300 6,500
Income before income tax expense 4,200 4,000
Income tax expense 1,000 950
Net income $ 3,200 $ 3,050
"""

Q = (
    "Compute Harborline's pre-provision profit (total net revenue minus total noninterest "
    "expense) for 2024 and its percentage change versus 2023. Answer in USD millions and percent "
    "rounded to one decimal place."
)


def _answer(question: str) -> str:
    return (
        build_reasoner(Settings()).generate(question, evidence(INCOME, question=question), 1).text
    )


class TestDefinedMeasureRead:
    def test_definition_over_catalogue_lines(self) -> None:
        """The definition is read as a formula over the lines' catalogue keys; net income (the
        metric its name resembles) is not that measure."""
        measure = defined_measure(Q)
        assert measure is not None and measure.name == "pre-provision profit"
        assert measure.formula == "revenue - noninterest_expense"
        assert not same_measure(measure, "net_income")

    def test_catalogue_metric_over_the_same_lines_is_the_measure(self) -> None:
        """Free cash flow defined as operating cash flow minus capital expenditures is the
        catalogue's own free cash flow."""
        measure = defined_measure(
            "What was Acme's free cash flow in 2024 (operating cash flow minus capital "
            "expenditures)?"
        )
        assert measure is not None and same_measure(measure, "fcf")

    def test_operand_of_a_ratio_is_not_the_measure(self) -> None:
        """A definition of a ratio's operand ('the average of equity (total equity less
        noncontrolling interests)') is not the measure asked."""
        assert (
            defined_measure(
                "Use net income divided by the average of equity attributable to Acme (total "
                "equity less noncontrolling interests) for 2024."
            )
            is None
        )

    def test_name_without_the_ask_verb(self) -> None:
        """'Give net interest (A minus B)' names the measure 'net interest'."""
        measure = defined_measure(
            "Was Acme a net payer of interest in 2024? Give net interest (interest expense "
            "minus interest income) in USD millions."
        )
        assert measure is not None and measure.name == "net interest"


class TestComputedAsDefined:
    def test_difference_and_its_change(self) -> None:
        """Pre-provision profit is 5,100 in 2024 and 5,300 in 2023, down 3.8%: the answer
        states both amounts and the definition, and is not net income's growth (4.9%)."""
        text = _answer(Q)
        assert "-3.8%" in text
        assert "$5,100 million" in text and "$5,300 million" in text
        assert "total net revenue - total noninterest expense" in text
        assert "4.9%" not in text

    def test_line_the_catalogue_lacks_abstains(self) -> None:
        """A defined measure over a line the catalogue has no item for abstains naming it,
        rather than answering a metric of a similar name."""
        text = _answer(
            "Compute Harborline's core spread (total net revenue minus widget harvesting "
            "outlays) for 2024. Answer in USD millions."
        )
        assert "cannot determine" in text and "widget harvesting outlays" in text
        assert "$3,200 million" not in text
