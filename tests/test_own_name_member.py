"""The filer is no part of itself: a geographic table's total row captioned with the company's
name ('Activision Blizzard') is not a region, so 'What were Activision Blizzard's cash and cash
equivalents?' is the company's figure, not a part's that no table reports (issue #25: a
segment read where none is named)."""

from __future__ import annotations

from datetime import date

from finqa.lexicon.dimension_members import members_in
from finqa.lexicon.dimension_question import resolve_dimension
from finqa.lexicon.model import StatementFact, StatementPeriod, StatementTable
from finqa.lexicon.statements import MemoryStatementStore

DOC = "ACTIVISIONBLIZZARD_2015_10K"
FY15 = StatementPeriod(label="2015", fiscal_year=2015, months=12, end_date=date(2015, 12, 31))
GEO = "srt:StatementGeographicalAxis"


def _fact(value: float, member: str) -> StatementFact:
    return StatementFact(
        doc_id=DOC, statement="segment", label=member, item="revenue",  # type: ignore[arg-type]
        period=FY15, value=value * 1e6, scale=1e6, page=90, source="text",
        dimensions=((GEO, member),),
    )  # fmt: skip


def _store() -> MemoryStatementStore:
    facts = (
        _fact(2300, "North America"),
        _fact(1400, "Europe"),
        _fact(4664, "Activision Blizzard"),
    )
    return MemoryStatementStore(
        [
            StatementTable(
                table_id="geo",
                doc_id=DOC,
                statement="segment",
                pages=(90,),  # type: ignore[arg-type]
                periods=(FY15,),
                facts=facts,
                source="text",
            )  # fmt: skip
        ]
    )


def test_the_filers_own_name_is_no_member() -> None:
    names = [m.name for m in members_in(_store(), [DOC])]
    assert "Activision Blizzard" not in names
    assert {"North America", "Europe"} <= set(names)


def test_the_company_question_names_no_part() -> None:
    members = members_in(_store(), [DOC])
    q = "What were Activision Blizzard's cash and cash equivalents at December 31, 2015?"
    assert resolve_dimension(q, members) is None
    found = resolve_dimension("What was Activision Blizzard's revenue in Europe in 2015?", members)
    assert found is not None and found.member == "Europe"
