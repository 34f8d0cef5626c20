"""A question's name of a part meets a filing's printed name by the structure of the names (a
family word, a qualifier, an 'and other' tail, the rest of a region), never by a list; a name
that two printed parts could be is answered for neither."""

from __future__ import annotations

from datetime import date

from _reasoning_data import evidence
from finqa.agents.config import Settings
from finqa.agents.reasoning import build_reasoner
from finqa.lexicon.dimensions import DimensionMember, members_of, resolve_dimension
from finqa.lexicon.model import AskedDimension, StatementFact, StatementPeriod, StatementTable
from finqa.lexicon.statements import MemoryStatementStore

DOC = "ACME_2024_10K"
FY24 = StatementPeriod(label="2024", fiscal_year=2024, months=12, end_date=date(2024, 12, 31))
GEO = "srt:StatementGeographicalAxis"
SEG = "us-gaap:StatementBusinessSegmentsAxis"


def _facts(names: tuple[str, ...], axis: str = GEO) -> list[StatementFact]:
    return [
        StatementFact(
            doc_id=DOC, statement="segment", table_id="p5-t0-parts", label=n, item="revenue",
            period=FY24, value=(i + 1) * 1_000e6, scale=1e6, page=5, row=i, source="text",
            dimensions=((axis, n),),
        )
        for i, n in enumerate(names)
    ]  # fmt: skip


def _printed(*names: str, axis: str = GEO) -> tuple[DimensionMember, ...]:
    """The vocabulary of parts a text table names (captions as printed, no tags)."""
    return members_of(_facts(names, axis))


def _resolve(question: str, *names: str) -> AskedDimension | None:
    return resolve_dimension(question, _printed(*names))


def _member(question: str, *names: str) -> str | None:
    asked = _resolve(question, *names)
    return asked.member if asked is not None else None


OFFERINGS = ("Sales", "Service", "Platform and Other", "Marketing and Commerce")


class TestPrintedNameInsideTheQuestions:
    """The filing prints the question's name without a family word or a qualifier."""

    def test_family_word_after_the_printed_name(self) -> None:
        """'Service Cloud' and 'Marketing and Commerce Cloud' are the printed 'Service' and
        'Marketing and Commerce' (no other part is in those words)."""
        q = "What was Acme's revenue from Service Cloud in fiscal year 2024?"
        assert _member(q, *OFFERINGS) == "Service"
        q = "What was Acme's revenue from Marketing and Commerce Cloud in fiscal year 2024?"
        assert _member(q, *OFFERINGS) == "Marketing and Commerce"

    def test_qualifier_before_the_printed_name(self) -> None:
        """'Sporting Equipment' is the printed 'Equipment' beside footwear and apparel."""
        q = "What was Acme's revenue from Sporting Equipment in fiscal year 2024?"
        assert _member(q, "Footwear", "Apparel", "Equipment") == "Equipment"

    def test_line_item_words_of_the_printed_row(self) -> None:
        """'Cargo and Freight' is the printed row 'Freight revenues'."""
        q = "What was Acme's revenue from Cargo and Freight in fiscal year 2024?"
        assert _member(q, "Freight revenues", "Accessorial revenues") == "Freight revenues"

    def test_two_printed_parts_inside_abstain_naming_both(self) -> None:
        """Near miss: 'Marketing and Commerce Cloud' where 'Marketing' and 'Commerce' are two
        printed parts is neither; both are named."""
        q = "What was Acme's revenue from Marketing and Commerce Cloud in fiscal year 2024?"
        asked = _resolve(q, "Marketing", "Commerce", "Service")
        assert asked is not None and asked.member is None
        assert set(asked.candidates) == {"Marketing", "Commerce"}

    def test_added_words_naming_a_country(self) -> None:
        """'United States and Mexico' is not the printed 'United States': Mexico is a place."""
        q = "What was Acme's revenue from United States and Mexico in fiscal year 2024?"
        assert _member(q, "United States", "Europe") is None


class TestQuestionsNameInsidePrinted:
    """The filing prints the question's name with an 'and other' tail or a qualifier."""

    def test_and_other_tail(self) -> None:
        """'Latin America' is the printed 'Latin America, Caribbean and other'."""
        q = "What was Acme's revenue from Latin America in fiscal year 2024?"
        names = ("Europe", "Latin America, Caribbean and other", "Asia")
        assert _member(q, *names) == "Latin America, Caribbean and other"

    def test_qualifier_in_the_printed_name(self) -> None:
        """The 'Pacific' segment is the printed 'Asia Pacific' when no other part ends so."""
        q = "What was Acme's Pacific segment's revenue in fiscal year 2024?"
        assert _member(q, "Asia Pacific", "Latin America") == "Asia Pacific"

    def test_two_printed_names_ending_so_abstain(self) -> None:
        """Near miss: 'Pacific' beside 'Asia Pacific' and 'South Pacific' is neither."""
        q = "What was Acme's Pacific segment's revenue in fiscal year 2024?"
        asked = _resolve(q, "Asia Pacific", "South Pacific")
        assert asked is not None and asked.member is None
        assert set(asked.candidates) == {"Asia Pacific", "South Pacific"}

    def test_two_places_joined_are_not_one(self) -> None:
        """'United States' is not the printed 'United States and Canada (UCAN)'."""
        q = "What was Acme's revenue from the United States in fiscal year 2024?"
        assert (
            _member(q, "United States and Canada (UCAN)", "Latin America (LATAM)") == "country:US"
        )

    def test_rest_of_a_region_is_not_the_region(self) -> None:
        """'Asia Pacific' is not the printed 'Rest of Asia Pacific'."""
        q = "What was Acme's revenue from Asia Pacific in fiscal year 2024?"
        assert _member(q, "Rest of Asia Pacific", "Greater China") is None


class TestRestOfARegion:
    """'Other Americas' and 'Americas excluding United States' are one part, said two ways."""

    def test_other_region_kept_on_a_geographic_axis(self) -> None:
        """'Other Americas' is a region's part; 'Other' and a segment 'Other Bets' stay out."""
        geo = {m.name for m in _printed("United States", "Other Americas", "Other")}
        assert geo == {"United States", "Other Americas"}
        seg = {m.name for m in _printed("Google Services", "Other Bets", axis=SEG)}
        assert seg == {"Google Services"}

    def test_excluding_a_sibling_is_the_other(self) -> None:
        """'Americas Excluding United States' is 'Other Americas' when the United States is a
        part beside it; without that part, what 'Other' leaves out is not said, no match."""
        q = "What was Acme's revenue from Americas Excluding United States in fiscal year 2024?"
        assert _member(q, "United States", "EMEA", "Other Americas") == "Other Americas"
        assert _member(q, "EMEA", "Other Americas") is None


class TestPartPrintedAsTheLineItself:
    """A part printed under the consolidated line's own word ('Sales') is reached only by a
    phrase naming a part, never by a question about the company's sales."""

    def test_reached_by_the_parts_name(self) -> None:
        """'Sales Cloud' is the printed part 'Sales'."""
        q = "What was Acme's revenue from Sales Cloud in fiscal year 2024?"
        assert _member(q, *OFFERINGS) == "Sales"

    def test_company_sales_are_not_the_part(self) -> None:
        """'What were Acme's total sales' names no part."""
        asked = _resolve("What were Acme's total sales in fiscal year 2024?", *OFFERINGS)
        assert asked is None or asked.member != "Sales"


class TestAmbiguousAnswer:
    """The reasoner abstains on a name two printed parts could be, naming both."""

    def test_abstains_naming_both(self) -> None:
        """'Pacific' beside 'Asia Pacific' and 'South Pacific': no figure, both named."""
        facts = _facts(("Asia Pacific", "South Pacific"), SEG)
        store = MemoryStatementStore(
            [StatementTable(table_id="p5-t0-parts", doc_id=DOC, statement="segment", pages=(5,),
                            periods=(FY24,), facts=tuple(facts))]
        )  # fmt: skip
        reasoner = build_reasoner(Settings(), statements=store)
        q = "What was Acme's Pacific segment's revenue in fiscal year 2024, in USD millions?"
        ans = reasoner.generate(q, evidence("Segment note.", doc=DOC), 1)
        assert ans.abstained
        assert "'Asia Pacific'" in ans.text and "'South Pacific'" in ans.text
        assert "1,000" not in ans.text and "2,000" not in ans.text


class TestLeftOutPart:
    """A part named as a whole less another part is never the part left out."""

    def test_whole_less_a_sibling(self) -> None:
        """'the Americas outside the United States' is the printed 'Other Americas'."""
        q = "What was Acme's revenue from the Americas outside the United States in 2024?"
        assert _member(q, "United States", "EMEA", "Other Americas") == "Other Americas"

    def test_outside_a_country_is_not_the_country(self) -> None:
        """'revenue outside the United States' is not the United States' figure: unresolved."""
        asked = _resolve("What was Acme's revenue outside the United States in 2024?", "United States", "EMEA")  # fmt: skip
        assert asked is not None and asked.member is None

    def test_a_customer_is_no_place(self) -> None:
        """'excluding the U.S. government' names a customer, not a place left out."""
        asked = _resolve("What was Acme's revenue in 2024, excluding the U.S. government?", "EMEA")
        assert asked is None


class TestPartInEverydayWords:
    """A part named in capitalised words without a kind word is met only when one part is."""

    def test_family_word_without_a_kind_word(self) -> None:
        """'How much revenue did Sales Cloud bring in' is the printed part 'Sales'."""
        q = "How much revenue did Sales Cloud bring in for Acme in fiscal year 2024?"
        assert _member(q, *OFFERINGS) == "Sales"

    def test_and_other_tail_after_a_place_word(self) -> None:
        """'earn in Latin America' is the printed 'Latin America, Caribbean and other'."""
        q = "How much revenue did Acme earn in Latin America in fiscal year 2024?"
        assert _member(q, "Europe", "Latin America, Caribbean and other") == "Latin America, Caribbean and other"  # fmt: skip

    def test_the_whole_is_no_family_word(self) -> None:
        """Near miss: 'Total Sales' and 'Net Sales' are the company's, not the part 'Sales'."""
        for q in ("What were Acme's Total Sales in 2024?", "What were Acme's Net Sales in 2024?"):
            asked = _resolve(q, *OFFERINGS)
            assert asked is None or asked.member is None

    def test_a_period_less_a_part_is_no_part(self) -> None:
        """'From FY21 to FY22, excluding Embedded, which segment ...': FY22 is no whole."""
        q = "From FY21 to FY22, excluding Embedded, in which Acme segment did sales increase the most?"  # fmt: skip
        asked = _resolve(q, "Embedded", "Data Center", "Gaming")
        assert asked is None or (asked.member is None and "FY22" not in asked.phrase)
