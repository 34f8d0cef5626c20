"""The offline reasoner answers from the filing's own tags, and abstains on a period it cannot read."""

from __future__ import annotations

from _reasoning_data import evidence
from finqa.agents.config import Settings
from finqa.agents.reasoning import build_reasoner
from finqa.agents.reasoning.offline.book import Book
from finqa.lexicon.model import StatementFact, StatementPeriod, StatementTable
from finqa.lexicon.question_ask import read_ask
from finqa.lexicon.statements import MemoryStatementStore

DOC = "ACME_2022_10K"
PROSE = "Management's discussion. Revenue grew on higher volumes and pricing across regions."
FY22 = StatementPeriod(label="2022", fiscal_year=2022, months=12)


def _fact(label: str, value: float, source: str, **kw: object) -> StatementFact:
    base: dict[str, object] = {
        "doc_id": DOC, "statement": "income", "label": label, "period": FY22,
        "value": value * 1e6, "scale": 1e6, "page": 9, "source": source,
    }  # fmt: skip
    base.update(kw)
    return StatementFact(**base)  # type: ignore[arg-type]


def _store(*tables: tuple[str, tuple[StatementFact, ...]]) -> MemoryStatementStore:
    return MemoryStatementStore(
        StatementTable(
            table_id=f"t{n}",
            doc_id=DOC,
            statement=facts[0].statement,
            title=title,
            pages=(9,),
            scale=1e6,
            periods=(FY22,),
            facts=facts,
            source=facts[0].source,
        )  # fmt: skip
        for n, (title, facts) in enumerate(tables)
    )


class TestTaggedRows:
    """A tagged total is found by what its tag says, not by its caption."""

    def test_tag_answers_and_wins_a_tie(self) -> None:
        """us-gaap:Revenues tagged 21,505 beats a text row 'Total revenue' of 17,606 for FY2022."""
        text = ("Consolidated Statements of Income", (_fact("Total revenue", 17_606, "text"),))
        tag = ("inline XBRL facts (income)", (
            _fact("us-gaap:Revenues", 21_505, "xbrl", item="revenue", concept="us-gaap:Revenues"),
        ))  # fmt: skip
        found = Book(evidence(PROSE), _store(text, tag)).find("revenue", 2022)
        assert found is not None and found.value == 21_505 and found.row.item == "revenue"

    def test_untagged_concept_label_matches_nothing(self) -> None:
        """A tag with no catalogue item (a company extension) is never read as revenue."""
        ext = _fact("acme:SubscriptionRevenue", 20_520, "xbrl", statement="other")
        tag = ("inline XBRL facts (other)", (ext,))
        assert Book(evidence(PROSE), _store(tag)).find("revenue", 2022) is None

    def test_dimensioned_tag_is_not_a_total(self) -> None:
        """A segment's tagged revenue (a dimension, no item) is not the company's revenue."""
        seg = _fact(
            "us-gaap:Revenues [Segment=Media]", 15_000, "xbrl", statement="segment",
            dimensions=(("us-gaap:StatementBusinessSegmentsAxis", "acme:MediaMember"),),
        )  # fmt: skip
        assert Book(evidence(PROSE), _store(("segment", (seg,)))).find("revenue", 2022) is None


class TestPeriodAsked:
    """A figure for a quarter or year-to-date is not answered with a fiscal year's figure."""

    def test_quarter_question_abstains_with_the_period(self) -> None:
        """'the quarter ended June 28, 2025' abstains and names the period, though FY rows exist."""
        tag = ("inline XBRL facts (income)", (
            _fact("us-gaap:NetIncomeLoss", 84_544, "xbrl", item="net_income"),
        ))  # fmt: skip
        reasoner = build_reasoner(Settings(), statements=_store(tag))
        ans = reasoner.generate(
            "In the quarter ended June 28, 2025 (Q3 of fiscal 2025), what was Acme's net income, "
            "in USD millions?",
            evidence(PROSE),
            1,
        )
        assert ans.abstained and "quarter ended June 28, 2025" in ans.text
        assert "84,544" not in ans.text

    def test_fiscal_year_question_is_answered(self) -> None:
        """The same figure asked for fiscal year 2022 is answered from the tag."""
        tag = ("inline XBRL facts (income)", (
            _fact("us-gaap:NetIncomeLoss", 84_544, "xbrl", item="net_income"),
        ))  # fmt: skip
        reasoner = build_reasoner(Settings(), statements=_store(tag))
        ans = reasoner.generate(
            "In fiscal year 2022, what was Acme's net income, in USD millions?", evidence(PROSE), 1
        )
        assert not ans.abstained and "84,544" in ans.text

    def test_sub_annual_read_from_the_ask(self) -> None:
        """Quarter and half-year asks are recognised; a fiscal-year ask is not."""
        assert read_ask("What was revenue in Q2 2023?").sub_annual == "Q2 2023"
        assert read_ask("Revenue for the six months ended June 30, 2024?").sub_annual
        assert read_ask("What is the FY2018 capex for 3M?").sub_annual == ""
