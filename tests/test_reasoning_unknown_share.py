"""'X as a percent of revenue' where X is no line item of the catalogue abstains, naming X."""

from __future__ import annotations

from _reasoning_data import INCOME, evidence
from finqa.agents.config import Settings
from finqa.agents.reasoning import build_reasoner
from finqa.lexicon import intent


def ask(question: str, *texts: str):  # type: ignore[no-untyped-def]
    return build_reasoner(Settings()).generate(question, evidence(*texts, question=question), 1)


class TestShareOfRevenue:
    def test_numerator_read_from_the_question(self) -> None:
        """The line item before 'as a percent of net sales' is the numerator, without the company."""
        q = "Did Ulta Beauty's wages expense as a percent of net sales increase in FY2023?"
        assert intent.share_of_revenue_numerator(q) == "wages expense"
        assert intent.share_of_revenue_numerator("What was Acme's revenue in FY2022?") is None

    def test_unknown_numerator_abstains_naming_it(self) -> None:
        """Freight expense is no catalogue item: the answer abstains instead of giving revenue."""
        a = ask("What is Acme's freight expense as a percentage of net sales in FY2022?", INCOME)
        assert a.abstained and "'freight expense'" in a.text
        assert a.missing == ("freight expense",) and not a.calculations

    def test_known_numerator_is_computed(self) -> None:
        """A catalogue item as a percent of revenue (SG&A) is still computed."""
        a = ask("What is Acme's SG&A as a % of revenue in FY2022?", INCOME)
        assert not a.abstained and "39.7" in a.text
