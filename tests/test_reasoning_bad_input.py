"""Awkward statements reach the reasoner through the statement model: right figure, or an abstention that says why."""

from __future__ import annotations

from _reasoning_data import INCOME, evidence
from finqa.agents.config import Settings
from finqa.agents.reasoning import build_reasoner
from finqa.agents.types import Answer
from finqa.lexicon.statements import MemoryStatementStore, read_pages
from test_statement_reader import (
    HALF_PROSE,
    INCOME_THOUSANDS,
    MULTI_LEVEL,
    NO_HEADER,
    QUARTER_BALANCE,
    WEEKS_RESTATED,
)

PROSE = "The company discussed its results and outlook with investors during the year."


def ask(question: str, doc: str, *pages: tuple[int, str], shown: tuple[str, ...] = ()) -> Answer:
    """Ask with the pages read into a statement model; the evidence is prose (or `shown`)."""
    store = MemoryStatementStore(read_pages(doc, list(pages)).tables)
    ev = evidence(*(shown or (PROSE,)), doc=doc, question=question)
    return build_reasoner(Settings(), statements=store).generate(question, ev, 1)


class TestBadStatementsThroughTheModel:
    def test_thousands_except_per_share(self) -> None:
        """'In thousands, except per share data': amounts scale to millions, EPS stays per share."""
        sales = ask("What were Acme's FY2022 net sales in USD millions?", "ACME_2022_10K", (9, INCOME_THOUSANDS))  # fmt: skip
        assert "$1,200.5 million" in sales.text
        eps = ask("What was Acme's FY2022 basic EPS?", "ACME_2022_10K", (9, INCOME_THOUSANDS))
        assert not eps.abstained and "1.23" in eps.text and "million" not in eps.text.split("Answer:")[-1]  # fmt: skip

    def test_multi_level_quarter_header_is_not_a_fiscal_year(self) -> None:
        """A 10-Q's 'Three / Six Months Ended' columns never answer for a fiscal year: abstains."""
        ans = ask("What were Acme's revenues in FY2023?", "ACME_2023Q2_10Q", (3, MULTI_LEVEL))
        assert ans.abstained and "revenue FY2023" in ans.text

    def test_quarter_only_balance_reads_the_prior_year_end(self) -> None:
        """A 10-Q balance sheet answers for the prior fiscal year end, not with the quarter's column."""
        ans = ask("What were Acme's total assets at the end of FY2022?", "ACME_2023Q2_10Q", (2, QUARTER_BALANCE))  # fmt: skip
        assert not ans.abstained and "1,900" in ans.text and "2,000" not in ans.text

    def test_53_week_year_and_restated_column(self) -> None:
        """Both columns of a 53/52-week statement with a restated column are read for their years."""
        ans = ask("What were Acme's net sales in FY2017 in USD millions?", "ACME_2017_10K", (40, WEEKS_RESTATED))  # fmt: skip
        assert "$6,500 million" in ans.text
        ans = ask("What were Acme's net sales in FY2018 in USD millions?", "ACME_2017_10K", (40, WEEKS_RESTATED))  # fmt: skip
        assert "$7,000 million" in ans.text

    def test_numbers_split_across_lines(self) -> None:
        """A cell broken over two lines ('394,' / '328') is read as one figure."""
        text = "CONSOLIDATED BALANCE SHEETS\n(in millions)\n2022\n2021\nTotal assets\n394,\n328\n365,817\n"
        ans = ask("What were Acme's total assets at the end of FY2022 in USD millions?", "ACME_2022_10K", (4, text))  # fmt: skip
        assert "$394,328 million" in ans.text

    def test_half_table_half_prose(self) -> None:
        """The table half of a page answers; the prose half's numbers are never read as cells."""
        ans = ask("What were Acme's total liabilities at the end of FY2021?", "ACME_2022_10K", (6, HALF_PROSE))  # fmt: skip
        assert not ans.abstained and "900" in ans.text
        assert "1,234" not in ans.text and "5,678" not in ans.text

    def test_statement_that_does_not_parse_abstains(self) -> None:
        """A cash-flow page the model could not type is not guessed from the filing's year: abstains, naming the item."""
        ans = ask(
            "What was Acme's FY2022 capital expenditure?",
            "ACME_2022_10K",
            (50, INCOME),
            (5, NO_HEADER),
            shown=(NO_HEADER,),
        )
        assert ans.abstained and "capex FY2022" in ans.text

    def test_same_page_without_a_model_is_read_by_the_filing_year(self) -> None:
        """Without a statement model the headerless chunk is read as FY, FY-1 (the old fall-back)."""
        q = "What was Acme's FY2022 capital expenditure?"
        ans = build_reasoner(Settings()).generate(q, evidence(NO_HEADER, question=q), 1)
        assert not ans.abstained and "100" in ans.text

    def test_unknown_line_item_abstains_naming_it(self) -> None:
        """A line item the catalogue does not know abstains and says what it looked for."""
        ans = ask("What was Acme's FY2022 widget backlog?", "ACME_2022_10K", (9, INCOME_THOUSANDS))
        assert ans.abstained and "widget backlog" in ans.text
