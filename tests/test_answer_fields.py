"""What the reasoner tells the judge travels in typed Answer fields, also from older records."""

from __future__ import annotations

from finqa.agents.types import Answer


class TestAnswerFields:
    def test_typed_fields(self) -> None:
        """Missing line items, flagged calculations and unknown citations are typed fields."""
        a = Answer(
            text="x", missing=("revenue FY2022",), calc_problems=("bad",), invalid_citations=2
        )
        assert a.missing == ("revenue FY2022",) and a.calc_problems == ("bad",)
        assert a.invalid_citations == 2

    def test_older_records_read_from_confidence(self) -> None:
        """An answer recorded with these in `confidence` (an older audit log) gets them typed."""
        a = Answer.model_validate(
            {
                "text": "x",
                "confidence": {"missing": ["capex"], "calc_problems": [], "invalid_citations": 1},
            }
        )
        assert a.missing == ("capex",) and a.calc_problems == () and a.invalid_citations == 1

    def test_typed_field_wins(self) -> None:
        """A typed field given explicitly is not overwritten by a confidence key."""
        a = Answer(text="x", missing=("a",), confidence={"missing": ["b"]})
        assert a.missing == ("a",)
