"""Dimensions are part of the question: a segment, region or product line named in a question is
read from the filing's own members, answered only from that part's fact, and checked so by the
judge (lexicon/dimensions.py, agents/reasoning/offline/dimension.py, agents/judge/dimension.py)."""

from __future__ import annotations

from datetime import date
from pathlib import Path

from _reasoning_data import evidence
from finqa.agents.config import Settings
from finqa.agents.reasoning import build_reasoner
from finqa.agents.types import Answer
from finqa.lexicon import analyze
from finqa.lexicon.dimensions import (
    asked_dimension,
    axis_kind,
    dimensional_facts,
    fact_dimension,
    member_name,
    members_of,
    resolve_dimension,
)
from finqa.lexicon.model import StatementFact, StatementPeriod, StatementTable
from finqa.lexicon.statements import MemoryStatementStore
from finqa.lexicon.xbrl import XbrlFact, statement_tables

DOC = "ACME_2024_10K"
FY24 = StatementPeriod(label="2024", fiscal_year=2024, months=12, end_date=date(2024, 12, 31))
SEG = "us-gaap:StatementBusinessSegmentsAxis"
GEO = "srt:StatementGeographicalAxis"
OPSEG = ("srt:ConsolidationItemsAxis", "us-gaap:OperatingSegmentsMember")
PROSE = "Management's discussion. Revenue grew across segments and regions."


def _fact(value: float, item: str, *dims: tuple[str, str], statement: str = "segment") -> StatementFact:  # fmt: skip
    return StatementFact(
        doc_id=DOC, statement=statement, label=f"us-gaap:{item} {dims}", item=item,  # type: ignore[arg-type]
        period=FY24, value=value * 1e6, scale=1e6, page=12, source="xbrl",
        concept="us-gaap:Revenues", dimensions=tuple(sorted(dims)),
    )  # fmt: skip


def _store(*facts: StatementFact) -> MemoryStatementStore:
    by_kind: dict[str, list[StatementFact]] = {}
    for f in facts:
        by_kind.setdefault(f.statement, []).append(f)
    return MemoryStatementStore(
        StatementTable(
            table_id=f"xbrl-{k}",
            doc_id=DOC,
            statement=k,
            pages=(12,),  # type: ignore[arg-type]
            periods=(FY24,),
            facts=tuple(v),
            source="xbrl",
        )  # fmt: skip
        for k, v in by_kind.items()
    )


def _acme() -> MemoryStatementStore:
    """Consolidated revenue 100,000 and operating income 9,000; two segments and a country."""
    return _store(
        _fact(100_000, "revenue", statement="income"),
        _fact(9_000, "operating_income", statement="income"),
        _fact(60_000, "revenue", (SEG, "acme:CloudSegmentMember"), OPSEG),
        _fact(11_000, "operating_income", (SEG, "acme:CloudSegmentMember"), OPSEG),
        _fact(40_000, "revenue", (SEG, "acme:DevicesSegmentMember"), OPSEG),
        _fact(-2_000, "operating_income", (SEG, "acme:DevicesSegmentMember"), OPSEG),
        _fact(-3_000, "revenue", (SEG, "acme:EliminationsMember")),
        _fact(55_000, "revenue", (GEO, "country:US")),
        _fact(
            45_000,
            "revenue",
            (SEG, "acme:CloudSegmentMember"),
            ("acme:CustomerAxis", "acme:GovMember"),
        ),  # fmt: skip
    )


class TestVocabulary:
    """The dimension vocabulary comes from the XBRL axes and the filing's own members."""

    def test_member_names_read_from_the_tag(self) -> None:
        """A member's name is its tag's words; a country member is the country's name."""
        assert member_name("aapl:GreaterChinaSegmentMember") == "Greater China"
        assert (
            member_name("aapl:WearablesHomeandAccessoriesMember")
            == "Wearables Home and Accessories"
        )
        assert member_name("country:JP") == "Japan"
        assert member_name("us-gaap:NonUsMember") == "Non-US"

    def test_axis_kinds_from_axis_names(self) -> None:
        """Standard part axes have a kind; a company's own axis by its words; equity components none."""
        assert axis_kind(SEG) == "segment"
        assert axis_kind(GEO) == "geography"
        assert axis_kind("srt:ProductOrServiceAxis") == "product"
        assert axis_kind("ko:OperatingSegmentsAxis") == "segment"
        assert axis_kind("us-gaap:StatementEquityComponentsAxis") is None

    def test_members_leave_out_residuals_and_qualified_facts(self) -> None:
        """Eliminations are no part; a fact qualified by a second axis names no one part."""
        names = [m.name for m in members_of(f for t in _acme().tables(DOC) for f in t.facts)]
        assert set(names) == {"Cloud", "Devices", "United States"}
        qualified = _fact(
            1, "revenue", (SEG, "acme:CloudSegmentMember"), ("acme:CustomerAxis", "x")
        )
        assert fact_dimension(qualified) is None
        plain = _fact(1, "revenue", (SEG, "acme:CloudSegmentMember"), OPSEG)
        assert fact_dimension(plain) == (SEG, "acme:CloudSegmentMember")


class TestQuestionParse:
    """The parse names the part a question asks about, or none."""

    def test_words_of_the_question(self) -> None:
        """'the Greater China segment' is a segment; 'revenue from Japan' a country; the analysis carries it."""
        seg = asked_dimension("What was Apple's Greater China segment's revenue in fiscal 2024?")
        assert seg is not None and (seg.kind, seg.phrase) == ("segment", "Greater China")
        geo = asked_dimension("What was AbbVie's revenue from Japan in fiscal year 2024?")
        assert geo is not None and geo.member == "country:JP"
        assert analyze("What was Boeing's Global Services segment revenue?").dimension is not None

    def test_a_margin_the_catalogue_lacks_is_no_amount(self) -> None:
        """'the Foo segment's depreciation margin': no catalogue margin over depreciation, so no
        line item is asked (the amount itself would answer another question)."""
        from finqa.lexicon.dimension_question import asked_item

        q = "What was the Foo segment's depreciation margin in 2022?"
        assert asked_item(q, asked_dimension(q)) is None
        q = "What was the Foo segment's operating income margin in 2022?"
        assert asked_item(q, asked_dimension(q)) == "operating_margin"

    def test_the_ask_s_item_when_the_premise_opens_with_the_part(self) -> None:
        """'North America is its largest segment by revenue. By what percentage did its
        earnings before interest and taxes change?': the ask's EBIT, not the premise's revenue
        (the ask is read before the part's name is taken out of the question)."""
        from finqa.lexicon.dimension_question import asked_item
        from finqa.lexicon.model import AskedDimension

        q = (
            "North America is Acme's largest segment by revenue. By what percentage did its "
            "earnings before interest and taxes change in fiscal 2020?"
        )
        part = AskedDimension(kind="segment", phrase="North America")
        assert asked_item(q, part) == "ebit"

    def test_a_segment_named_like_a_breakdown_s_rest(self) -> None:
        """'JPMorgan's Corporate segment' is a segment the question names (its figure, or none:
        never the company's), though 'Corporate' is the rest of many breakdowns."""
        seg = asked_dimension("What was the net income of JPMorgan's Corporate segment in 2021?")
        assert seg is not None and (seg.kind, seg.phrase) == ("segment", "Corporate")

    def test_no_part_named(self) -> None:
        """'U.S. GAAP', 'Which segment ...' and a plain total name no part."""
        assert asked_dimension("What was 3M's U.S. GAAP net income in FY2022?") is None
        assert asked_dimension("Which segment had the highest revenue in FY2022?") is None
        assert asked_dimension("What was Apple's revenue in fiscal 2024?") is None
        assert asked_dimension("In Q2 2023, what were Acme's revenues in USD millions?") is None

    def test_resolved_against_the_filing(self) -> None:
        """The longest member name wins; a country only as a place; 'us' is not the US."""
        members = members_of(f for t in _acme().tables(DOC) for f in t.facts)
        got = resolve_dimension("What was Acme's Cloud revenue in FY2024?", members)
        assert got is not None and got.member == "acme:CloudSegmentMember"
        us = resolve_dimension("What was Acme's revenue in the U.S. in FY2024?", members)
        assert us is not None and us.member == "country:US"
        assert resolve_dimension("Tell us Acme's revenue in FY2024.", members) is None

    def test_a_kind_of_parts_is_no_part(self) -> None:
        """'Cloud categories' names a kind of parts, not the Cloud part: no member."""
        members = members_of(f for t in _acme().tables(DOC) for f in t.facts)
        q = "Are there any Cloud categories that represent more than 20% of Acme's revenue?"
        got = resolve_dimension(q, members)
        assert got is None or got.member is None


class TestStatementModel:
    """Dimensional facts keep their item and dimension; the total lookup never returns them."""

    def test_tagged_segment_fact_keeps_its_item(self) -> None:
        """A tagged segment revenue is in the 'segment' table as revenue, and only by dimension."""
        tag = XbrlFact(
            concept="us-gaap:Revenues", value=6e10, unit="USD", scale=6, decimals=-6,
            negative=False, start=date(2024, 1, 1), end=date(2024, 12, 31),
            dimensions=((SEG, "acme:CloudSegmentMember"),), context_id="c1", page=12,
            raw="60,000", item="revenue",
        )  # fmt: skip
        total = XbrlFact(**{**_fields(tag), "value": 1e11, "dimensions": (), "context_id": "c2"})
        store = MemoryStatementStore(statement_tables(DOC, [tag, total], 12))
        assert [f.value for f in store.lookup(DOC, "revenue", 2024)] == [1e11]
        asked = resolve_dimension("Cloud segment revenue in FY2024?", members_of(
            f for t in store.tables(DOC) for f in t.facts))  # fmt: skip
        assert asked is not None
        assert [f.value for f in dimensional_facts(store, [DOC], "revenue", asked, 2024)] == [6e10]


def _fields(fact: XbrlFact) -> dict[str, object]:
    return {k: getattr(fact, k) for k in XbrlFact.__dataclass_fields__}


class TestReasoner:
    """A question about a part is answered from that part's fact, never the consolidated one."""

    def _ask(self, question: str, store: MemoryStatementStore) -> Answer:
        reasoner = build_reasoner(Settings(), statements=store)
        return reasoner.generate(question, evidence(PROSE, doc=DOC), 1)

    def test_segment_revenue(self) -> None:
        """The Cloud segment's revenue is 60,000, not the company's 100,000."""
        ans = self._ask("What was Acme's Cloud segment's revenue in fiscal year 2024, in USD millions?", _acme())  # fmt: skip
        assert not ans.abstained and "60,000" in ans.text and "100,000" not in ans.text

    def test_a_part_named_in_a_premise_with_no_figure_asked(self) -> None:
        """'Acme's Cloud segment faced a lawsuit in 2024. What did the court decide?': no figure
        is asked of the part, so its revenue is never the answer."""
        q = "Acme's Cloud segment faced a lawsuit in fiscal year 2024. What did the court decide?"
        ans = self._ask(q, _acme())
        assert "60,000" not in ans.text and "100,000" not in ans.text

    def test_part_named_once(self) -> None:
        """'the Cloud segment' asked is shown once: no doubled article or kind word."""
        for q in (
            "What was the revenue of the Cloud segment of Acme in fiscal year 2024?",
            "What operating margin did the Cloud segment of Acme achieve in fiscal year 2024?",
        ):
            text = self._ask(q, _acme()).text
            assert "of the Cloud segment for FY2024" in text, text
            assert (
                "the the" not in text and "of the of" not in text and "segment segment" not in text
            )

    def test_segment_operating_loss_is_negative(self) -> None:
        """A segment's operating loss is answered negative and said to be a loss."""
        ans = self._ask("What was Acme's Devices segment's operating income in fiscal year 2024?", _acme())  # fmt: skip
        assert not ans.abstained and "2,000" in ans.text and "loss" in ans.text
        assert "9,000" not in ans.text

    def test_country_revenue(self) -> None:
        """Revenue from the United States is the country member's figure."""
        ans = self._ask("What was Acme's revenue from the United States in fiscal year 2024?", _acme())  # fmt: skip
        assert "55,000" in ans.text

    def test_no_part_fact_abstains_naming_it(self) -> None:
        """A segment the filing has no figure for: abstain, say what was looked for."""
        store = _store(_fact(100_000, "revenue", statement="income"))
        ans = self._ask("What was Acme's Robotics segment's revenue in fiscal year 2024?", store)
        assert ans.abstained and "no figure for segment 'Robotics'" in ans.text
        assert "100,000" not in ans.text

    def test_the_whole_an_amount_comes_from_is_no_answer(self) -> None:
        """A part named as the whole an amount comes from is not the part asked: abstain."""
        q = "How much Cloud revenue came from government customers in fiscal year 2024?"
        ans = self._ask(q, _acme())
        assert ans.abstained and "60,000" not in ans.text

    def test_plain_total_question_unchanged(self) -> None:
        """A question naming no part is still answered with the consolidated figure."""
        ans = self._ask("What was Acme's revenue in fiscal year 2024, in USD millions?", _acme())
        assert "100,000" in ans.text


class TestJudge:
    """The judge checks a part's figure by its own lookup in the statement model."""

    def _check(self, text: str, question: str) -> object:
        from finqa.agents.judge.dimension import check_dimension
        from finqa.agents.judge.evidence import EvidenceView
        from finqa.agents.judge.numeric import check_numbers

        ev = evidence(PROSE, doc=DOC)
        numbers, _ = check_numbers(
            text, question, EvidenceView.of(ev), [], asked=(2024,), cited=(), rel_tol=0.01
        )
        answer = Answer(text=text, strategy="standard", backend="offline")
        return check_dimension(_acme(), question, answer, ev, numbers, abstained=False)

    def test_consolidated_figure_fails(self) -> None:
        """'$100,000 million' for the Cloud segment is the consolidated figure: not accepted."""
        got = self._check("Revenue was $100,000 million.", "What was Acme's Cloud segment's revenue in fiscal year 2024?")  # fmt: skip
        assert got.failed and "consolidated" in got.message  # type: ignore[attr-defined]

    def test_the_whole_an_amount_comes_from_fails(self) -> None:
        """'How much Cloud revenue came from government customers?': the Cloud segment's own
        60,000 is the whole the amount asked is a part of, not the amount."""
        q = "How much Cloud revenue came from government customers in fiscal year 2024?"
        got = self._check("Cloud revenue was $60,000 million.", q)
        assert got.failed and "whole" in got.message  # type: ignore[attr-defined]

    def test_part_figure_verified(self) -> None:
        """The part's own figure is verified by the judge's lookup."""
        got = self._check("Cloud revenue was $60,000 million.", "What was Acme's Cloud segment's revenue in fiscal year 2024?")  # fmt: skip
        assert not got.failed and got.verified  # type: ignore[attr-defined]

    def test_loss_stated_positive_fails(self) -> None:
        """A segment's operating loss given as a positive operating income is not accepted."""
        got = self._check("Operating income was $2,000 million.", "What was Acme's Devices segment's operating income in fiscal year 2024?")  # fmt: skip
        assert got.failed and "loss" in got.message  # type: ignore[attr-defined]

    def test_agent_rejects_consolidated(self, tmp_path: Path) -> None:
        """The judge agent does not accept the consolidated figure for a segment question."""
        from finqa.agents.judge import JudgeAgent
        from finqa.lexicon.statements.reader import StatementRead
        from finqa.lexicon.statements.store import clear_shared, write_model

        read = StatementRead(doc_id=DOC, tables=list(_acme().tables(DOC)))
        write_model(tmp_path, read, content_hash="x")
        clear_shared()
        settings = Settings().model_copy(update={"index": Settings().index.model_copy(update={"path": str(tmp_path)})})  # fmt: skip
        q = "What was Acme's Cloud segment's revenue in fiscal year 2024?"
        ev = evidence(PROSE + " Total revenue was $100,000 million.", doc=DOC)
        bad = Answer(text="Revenue was $100,000 million [S1].", strategy="standard", backend="offline")  # fmt: skip
        verdict = JudgeAgent(settings).evaluate(q, bad, ev, 3)
        assert verdict.decision == "retry"
        assert any(p["code"] == "wrong_dimension" for p in verdict.details["answer_problems"])
        clear_shared()


class TestNamesInQuestions:
    """A part named after a brand is still a part; a company's name is not."""

    def test_brand_segment_and_source(self) -> None:
        """'Converse segment' (a brand) is a part; 'revenue from Salesforce Platform and Other' too."""
        seg = asked_dimension("What was Nike's Converse segment's revenue in fiscal year 2025?")
        assert seg is not None and seg.phrase == "Converse"
        src = asked_dimension("What was Salesforce's revenue from Salesforce Platform and Other in fiscal year 2025?")  # fmt: skip
        assert src is not None and src.phrase == "Salesforce Platform and Other"

    def test_event_about_a_segment_is_no_part_figure(self) -> None:
        """A gain on separating a segment asks no figure of that segment."""
        q = "What is the gain accruing to JnJ from the separation of its Consumer Health business segment?"  # fmt: skip
        assert asked_dimension(q) is None
        assert asked_dimension("Which Best Buy product category performed the best?") is None

    def test_a_part_named_in_the_figures_clause(self) -> None:
        """'revenue from external customers of X's Optical Communications segment': the
        segment qualifies the figure of its clause, however long the clause."""
        q = "By what percentage did revenue from external customers of Corning's Optical Communications segment grow in 2017?"  # fmt: skip
        found = asked_dimension(q)
        assert found is not None and found.phrase == "Optical Communications"

    def test_printed_name_with_its_abbreviation(self) -> None:
        """'Asia-Pacific (APAC)' as printed is asked by either name; 'EMEA' by its long form."""
        from finqa.lexicon.dimension_members import DimensionMember, _member_keys

        apac = DimensionMember(GEO, "Asia-Pacific (APAC)", "geography", "Asia-Pacific (APAC)",
                               _member_keys("Asia-Pacific (APAC)", "Asia-Pacific (APAC)"))  # fmt: skip
        for q in (
            "What was revenue from APAC in FY2024?",
            "Asia Pacific region revenue in FY2024?",
        ):
            got = resolve_dimension(q, [apac])
            assert got is not None and got.member == "Asia-Pacific (APAC)"
        emea = DimensionMember(GEO, "us-gaap:EMEAMember", "geography", "EMEA", _member_keys("us-gaap:EMEAMember", "EMEA"))  # fmt: skip
        got = resolve_dimension("Revenue from Europe, Middle East and Africa in FY2024?", [emea])
        assert got is not None and got.member == "us-gaap:EMEAMember"

    def test_a_segment_named_in_the_company_name_is_not_asked(self) -> None:
        """'Alpha Beta's Gamma segment': the segments 'Alpha' and 'Beta' spelled in the
        company's possessive name ('of Alpha Beta's') are the owner; 'Gamma', named outside
        it, is asked; 'Alpha' named alone is asked."""
        from finqa.lexicon.dimension_members import DimensionMember, _member_keys

        seg = "us-gaap:StatementBusinessSegmentsAxis"
        members = [
            DimensionMember(seg, name, "segment", name, _member_keys(name, name))
            for name in ("Alpha", "Beta", "Gamma")
        ]
        got = resolve_dimension("How much operating income did Alpha Beta's Gamma segment earn in 2024?", members)  # fmt: skip
        assert got is not None and got.member == "Gamma"
        got = resolve_dimension("By what percentage did segment revenues of Alpha Beta's Gamma segment grow in 2024?", members)  # fmt: skip
        assert got is not None and got.member == "Gamma"
        got = resolve_dimension("What revenue did the Alpha segment report in 2024?", members)
        assert got is not None and got.member == "Alpha"

    def test_a_part_named_within_a_member_is_not_the_member(self) -> None:
        """'Platform and Other subscription and support revenue' names a part within the
        member 'Subscription and support': no member is chosen; named alone, it is."""
        from finqa.lexicon.dimension_members import DimensionMember, _member_keys

        axis = "srt:ProductOrServiceAxis"
        members = [
            DimensionMember(axis, name, "product", name, _member_keys(name, name))
            for name in ("Subscription and support", "Professional services and other")
        ]
        got = resolve_dimension("How much did Zentro's Platform and Other subscription and support revenue grow in 2024?", members)  # fmt: skip
        assert got is not None and got.member is None
        assert got.phrase == "Platform and Other subscription and support"
        got = resolve_dimension("How much did Zentro's subscription and support revenue grow in 2024?", members)  # fmt: skip
        assert got is not None and got.member == "Subscription and support"

    def test_a_part_printed_by_name_and_abbreviation_is_one_part(self) -> None:
        """One table prints 'Missiles and Fire Control', another its abbreviation 'MFC': one
        part, read by its full name whether the question spells the name, both, or the
        abbreviation alone; two distinct parts stay apart."""
        from finqa.lexicon.dimension_members import DimensionMember, _member_keys

        seg = "us-gaap:StatementBusinessSegmentsAxis"
        members = [
            DimensionMember(seg, name, "segment", name, _member_keys(name, name))
            for name in ("Aeronautics", "Missiles and Fire Control", "MFC", "Space")
        ]
        for q in (
            "What was the operating margin of Acme's Missiles and Fire Control (MFC) segment in 2024?",
            "What was the revenue of Acme's MFC segment in 2024?",
            "What was the revenue of Acme's Missiles and Fire Control segment in 2024?",
        ):
            got = resolve_dimension(q, members)
            assert got is not None and got.member == "Missiles and Fire Control", q
        got = resolve_dimension("What was the revenue of Acme's Space segment in 2024?", members)
        assert got is not None and got.member == "Space"

    def test_a_segment_spelled_within_a_company_name_is_the_company(self) -> None:
        """A company whose name holds its segments' names ('Activision Blizzard', segments
        Activision, Blizzard, King): a segment's word within the company's name is the company
        (no part asked), the segment named on its own is the part."""
        from finqa.lexicon.dimension_members import DimensionMember, _member_keys

        seg = "us-gaap:StatementBusinessSegmentsAxis"
        members = [
            DimensionMember(seg, name, "segment", name, _member_keys(name, name))
            for name in ("Activision", "Blizzard", "King")
        ]
        got = resolve_dimension("What gross margin did Activision Blizzard earn in 2021?", members)
        assert got is None or got.member is None
        got = resolve_dimension("What was Activision Blizzard's deferred revenue at year end 2021?", members)  # fmt: skip
        assert got is None or got.member is None
        got = resolve_dimension("By what percentage did net revenues of Activision Blizzard's Blizzard segment grow in 2023?", members)  # fmt: skip
        assert got is not None and got.member == "Blizzard"
        got = resolve_dimension("What revenue did the Activision segment report in 2021?", members)
        assert got is not None and got.member == "Activision"


FY23 = StatementPeriod(label="2023", fiscal_year=2023, months=12, end_date=date(2023, 12, 31))


def _computable() -> MemoryStatementStore:
    """Cloud: revenue 60,000 (FY2023 50,000), operating income 11,000; the company 100,000 / 9,000."""
    cloud = ((SEG, "acme:CloudSegmentMember"), OPSEG)
    return _store(
        _fact(100_000, "revenue", statement="income"),
        _fact(9_000, "operating_income", statement="income"),
        _fact(60_000, "revenue", *cloud),
        _fact(50_000, "revenue", *cloud).model_copy(update={"period": FY23}),
        _fact(11_000, "operating_income", *cloud),
        _fact(40_000, "revenue", (SEG, "acme:DevicesSegmentMember"), OPSEG),
    )


class TestPartComputed:
    """A part's margin or growth is computed from the part's own facts, both operands its own."""

    def _ask(self, question: str, store: MemoryStatementStore) -> Answer:
        reasoner = build_reasoner(Settings(), statements=store)
        return reasoner.generate(question, evidence(PROSE, doc=DOC), 1)

    def test_segment_operating_margin(self) -> None:
        """Cloud's operating margin is 11,000 / 60,000 = 18.3%, not the company's 9.0%."""
        ans = self._ask("What was Acme's Cloud segment's operating margin in fiscal year 2024?", _computable())  # fmt: skip
        assert not ans.abstained and "18.3%" in ans.text and "9.0%" not in ans.text
        assert ans.calculations and abs(ans.calculations[0].result - 18.333) < 0.01

    def test_segment_revenue_growth(self) -> None:
        """Cloud's revenue growth over FY2023 is 20.0%."""
        ans = self._ask("What was the year-over-year growth in Acme's Cloud segment's revenue in fiscal year 2024?", _computable())  # fmt: skip
        assert not ans.abstained and "20.0%" in ans.text

    def test_missing_operand_abstains(self) -> None:
        """Devices has no operating income: its margin abstains, naming what it lacks."""
        ans = self._ask("What was Acme's Devices segment's operating margin in fiscal year 2024?", _computable())  # fmt: skip
        assert ans.abstained and "operating income" in ans.text

    def test_growth_in_dollars_and_in_percent(self) -> None:
        """'in dollars and in percent': the rate with the amount, 20.0% ($10,000 million)."""
        ans = self._ask("How much did Acme's Cloud segment's revenue grow in fiscal year 2024, in dollars and in percent?", _computable())  # fmt: skip
        assert not ans.abstained, ans.text
        assert "20.0%" in ans.text and "$10,000 million" in ans.text

    def test_by_how_much_did_it_fall_is_the_change(self) -> None:
        """'By how much did the Cloud segment's revenue rise' asks the amount it moved by, read
        from the part's own two years (it used to abstain as 'more than one figure')."""
        ans = self._ask("By how much did Acme's Cloud segment's revenue rise in fiscal year 2024?", _computable())  # fmt: skip
        assert not ans.abstained, ans.text
        assert "$10,000 million" in ans.text and "$100,000" not in ans.text

    def test_growth_without_the_year_before_abstains(self) -> None:
        """Devices reports no FY2023 revenue: no growth."""
        ans = self._ask("What was the year-over-year growth in Acme's Devices segment's revenue in fiscal year 2024?", _computable())  # fmt: skip
        assert ans.abstained


class TestJudgeComputed:
    """The judge recomputes a part's computed figure from the statement model's part facts."""

    def _check(self, text: str, question: str) -> object:
        from finqa.agents.judge.dimension import check_dimension
        from finqa.agents.judge.evidence import EvidenceView
        from finqa.agents.judge.numeric import check_numbers

        ev = evidence(PROSE, doc=DOC)
        numbers, _ = check_numbers(
            text, question, EvidenceView.of(ev), [], asked=(2024,), cited=(), rel_tol=0.01
        )
        answer = Answer(text=text, strategy="standard", backend="offline")
        return check_dimension(_computable(), question, answer, ev, numbers, abstained=False)

    def test_part_margin_verified(self) -> None:
        """18.3% is Cloud's margin by the judge's own computation."""
        got = self._check("The operating margin was 18.3%.", "What was Acme's Cloud segment's operating margin in fiscal year 2024?")  # fmt: skip
        assert not got.failed and got.verified  # type: ignore[attr-defined]

    def test_consolidated_margin_fails(self) -> None:
        """9.0% is the company's margin: not accepted for the Cloud segment."""
        got = self._check("The operating margin was 9.0%.", "What was Acme's Cloud segment's operating margin in fiscal year 2024?")  # fmt: skip
        assert got.failed and "consolidated" in got.message  # type: ignore[attr-defined]


class TestOperatingResultOfAPart:
    """A segment's operating result (operating profit) is its operating income, not its revenue."""

    def test_operating_result_is_operating_income(self) -> None:
        """'operating result(s)' names operating income; 'segment operating profit' the segment's."""
        from finqa.lexicon import find_metrics

        for q in ("What was the operating result of X?", "What operating results did X report?"):
            assert [m.canonical for m in find_metrics(q)] == ["operating_income"]
        assert [m.canonical for m in find_metrics("segment operating profit")] == [
            "segment_operating_income"
        ]

    def test_segment_revenue_for_its_operating_result_fails(self) -> None:
        """The Cloud segment's revenue given for its operating result is refused; its operating income is verified."""
        q = "What was the operating result of Acme's Cloud segment in fiscal year 2024?"
        judge = TestJudge()
        assert judge._check("Cloud revenue was $60,000 million.", q).failed  # type: ignore[attr-defined]
        ok = judge._check("Cloud operating income was $11,000 million.", q)
        assert not ok.failed and ok.verified  # type: ignore[attr-defined]


class TestPlaceAdjectives:
    """A part named by its place's adjective ('Canadian operations') is that country or region."""

    def test_adjective_before_a_part_or_a_figure(self) -> None:
        """'Canadian operations', 'U.S. operations', 'European revenue' name Canada, the United States, Europe."""
        for q, place in (
            (
                "How much operating income did Acme's Canadian operations generate in 2024?",
                "Canada",
            ),  # fmt: skip
            ("What was the revenue of Acme's U.S. operations in 2024?", "United States"),
            ("What was Acme's European revenue in 2024?", "Europe"),
        ):
            got = asked_dimension(q)
            assert got is not None and (got.phrase, got.label) == (place, place)

    def test_adjective_of_no_part(self) -> None:
        """'U.S. GAAP', 'U.S. federal tax rate' and a company's name name no part."""
        assert asked_dimension("What was 3M's U.S. GAAP net income in FY2022?") is None
        assert asked_dimension("What is the U.S. federal statutory tax rate in 2022?") is None
        assert asked_dimension("What was American Express's revenue in 2022?") is None

    def test_answered_from_the_country_or_abstains_naming_it(self) -> None:
        """'U.S. revenue' is the country's 55,000; Canadian operations, absent, abstain naming Canada."""
        reasoner = TestReasoner()
        us = reasoner._ask("What was Acme's U.S. revenue in fiscal year 2024?", _acme())
        assert not us.abstained and "55,000" in us.text and "100,000" not in us.text
        q = "What was the revenue of Acme's Canadian operations in fiscal year 2024?"
        ca = reasoner._ask(q, _acme())
        assert ca.abstained and "'Canada'" in ca.text and "100,000" not in ca.text


class TestGroupIsASegmentWord:
    """A business named '... Group' is a segment of the company ('the Data Center Group')."""

    def test_named_group_is_a_segment(self) -> None:
        """'Intel's Non-Volatile Memory Solutions Group' names that segment; 'the group's' alone names none."""
        got = asked_dimension("What operating result did Intel's Non-Volatile Memory Solutions Group report for 2019?")  # fmt: skip
        assert got is not None and (got.kind, got.phrase) == (
            "segment",
            "Non-Volatile Memory Solutions",
        )
        assert asked_dimension("What was the group's revenue in 2019?") is None


class TestPlaceAdjectiveWithoutAFigure:
    """A place's adjective names a part only where the question asks a figure of it."""

    def test_no_figure_no_part(self) -> None:
        """'Did Acme's European operations grow?' asks no catalogue figure: no part is read."""
        assert asked_dimension("Did Acme's European operations grow in FY2022?") is None


def test_a_change_asked_as_a_rate_is_the_growth() -> None:
    """'By what percentage did X change': the rate of the move (growth), not its amount; 'how
    much did it change' stays the amount, and a growth stays a growth."""
    from finqa.lexicon.dimension_question import asked_change

    rate = "By what percentage did net revenues of the Gamma segment change in 2024 versus 2023?"
    assert asked_change(rate) == "growth"
    amount = "How much operating income did the Gamma segment earn in 2024, and how much did it change from 2023?"  # fmt: skip
    assert asked_change(amount) == "change"
    assert asked_change("How much did revenue of the Gamma segment grow in 2024?") == "growth"
    assert asked_change(
        "By how much did the Gamma segment's operating profit decline in 2024?"
    ) == ("change")
    assert asked_change("What was the Gamma segment's operating profit in 2024?") is None


def test_the_kind_word_that_follows_a_name_names_the_part() -> None:
    """'What Segment EBITDA margin did X's Wireline segment report?': the first 'Segment' names
    no part, the second does; "Walmart's Sam's Club segment": a name holding a possessive after
    the company's."""
    from finqa.lexicon.dimension_question import asked_dimension

    a = asked_dimension(
        "What Segment EBITDA margin did Verizon's Wireline segment report for 2015?"
    )
    assert a is not None and a.phrase == "Wireline"
    b = asked_dimension(
        "What operating income did Walmart's Sam's Club segment report for fiscal 2022?"
    )
    assert b is not None and b.phrase == "Sam's Club"
    c = asked_dimension("What was Apple's Greater China segment revenue in 2020?")
    assert c is not None and c.phrase == "Greater China"
