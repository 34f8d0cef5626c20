"""Quarter, year-to-date and quarter-end questions are answered from the right column of a 10-Q."""

from __future__ import annotations

from _reasoning_data import evidence
from finqa.agents.config import Settings
from finqa.agents.reasoning import build_reasoner
from finqa.agents.types import Answer
from finqa.lexicon.statements import MemoryStatementStore, read_pages
from test_statement_reader import MULTI_LEVEL, QUARTER_BALANCE

DOC = "ACME_2023Q2_10Q"
PROSE = "The company discussed its results and outlook with investors during the quarter."


def ask(question: str) -> Answer:
    """Ask with a 10-Q's income statement (p.3) and balance sheet (p.2) in the statement model."""
    store = MemoryStatementStore(read_pages(DOC, [(2, QUARTER_BALANCE), (3, MULTI_LEVEL)]).tables)
    ev = evidence(PROSE, doc=DOC, question=question)
    return build_reasoner(Settings(), statements=store).generate(question, ev, 1)


class TestQuarterQuestions:
    def test_quarter_reads_the_three_month_column(self) -> None:
        """'the quarter ended June 30, 2023' reads 500 (three months), not 990 (six months), and names it."""
        ans = ask("In the quarter ended June 30, 2023, what were Acme's revenues in USD millions?")
        assert not ans.abstained and "$500 million" in ans.text
        assert "Quarter ended June 30, 2023 revenue" in ans.text and "FY2023" not in ans.text
        assert any(c.page == 3 and c.doc_id == DOC for c in ans.citations)

    def test_quarter_by_number(self) -> None:
        """'Q2 2022' reads the prior year's quarter column (450)."""
        ans = ask("What were Acme's revenues in Q2 2022, in USD millions?")
        assert not ans.abstained and "$450 million" in ans.text and "Q2 FY2022" in ans.text

    def test_year_to_date(self) -> None:
        """'six months ended June 30, 2023' reads the six-month column (990)."""
        ans = ask("What were Acme's revenues for the six months ended June 30, 2023, in USD millions?")  # fmt: skip
        assert not ans.abstained and "$990 million" in ans.text
        half = ask("What was Acme's net income in the first half of 2022, in USD millions?")
        assert not half.abstained and "$70 million" in half.text

    def test_change_between_quarters(self) -> None:
        """A change from Q2 2022 to Q2 2023 is computed from the two quarter columns (500 - 450)."""
        ans = ask(
            "By how much did Acme's revenues change from Q2 2022 to Q2 2023, in USD millions?"
        )
        assert not ans.abstained and "$50 million" in ans.text
        assert ans.calculations and {o.period for o in ans.calculations[0].operands} == {"Q2 FY2022", "Q2 FY2023"}  # fmt: skip

    def test_balance_at_the_quarter_end(self) -> None:
        """Total assets as of June 30, 2023 is the quarter-end balance (2,000), not the year end's."""
        ans = ask("What were Acme's total assets as of June 30, 2023, in USD millions?")
        assert not ans.abstained and "$2,000 million" in ans.text and "1,900" not in ans.text


class TestPeriodNotInTheFiling:
    def test_quarter_the_filing_lacks_abstains_naming_it(self) -> None:
        """Q1 2023 is not in a second-quarter 10-Q: abstains, naming Q1 FY2023, no other column's figure."""
        ans = ask("What were Acme's revenues in Q1 2023, in USD millions?")
        assert ans.abstained and "Q1 FY2023" in ans.text
        assert not any(v in ans.text for v in ("500", "990", "450"))

    def test_nine_months_abstains(self) -> None:
        """Nine months to date are not in a second-quarter 10-Q: abstains."""
        ans = ask("What were Acme's revenues for the nine months ended September 30, 2023?")
        assert ans.abstained and "nine months ended September 30, 2023" in ans.text

    def test_two_periods_in_one_year(self) -> None:
        """Q1 2023 against Q2 2023 cannot be read one period per year: abstains naming both."""
        ans = ask("By how much did Acme's revenues change from Q1 2023 to Q2 2023?")
        assert ans.abstained and "Q1 2023" in ans.text and "Q2 2023" in ans.text

    def test_fiscal_year_still_reads_no_quarter(self) -> None:
        """A fiscal-year question on the 10-Q still abstains rather than read a quarter column."""
        ans = ask("What were Acme's revenues in FY2023?")
        assert ans.abstained and "500" not in ans.text
