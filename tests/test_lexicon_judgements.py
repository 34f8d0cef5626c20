"""The catalogue of general judgements (lexicon/data/judgements.yaml) and its loader."""

from __future__ import annotations

import pytest
from finqa.lexicon.judgements import judgement, judgements


class TestJudgements:
    def test_capital_intensity_is_capex_over_revenue(self) -> None:
        """Capital intensity has one definition, the catalogue's capex / revenue, with its threshold."""
        j = judgement("capital_intensive")
        assert [(t.numerator, t.denominator, t.threshold) for t in j.tests] == [
            ("capex", "revenue", 8.0)
        ]
        assert "capital expenditure over revenue" in j.definition

    def test_a_question_names_a_judgement_by_its_phrase(self) -> None:
        """'capital-intensive' and 'Capital Intensive' name the judgement; 'capital expenditure' does not."""
        from finqa.lexicon.judgements import asked_judgements

        assert [j.id for j in asked_judgements("Is Acme a capital-intensive business?")] == ["capital_intensive"]  # fmt: skip
        assert [j.id for j in asked_judgements("Is Acme Capital Intensive?")] == [
            "capital_intensive"
        ]
        assert asked_judgements("What was Acme's capital expenditure in FY2022?") == []

    def test_thresholds_compare_as_stated(self) -> None:
        """'at least' includes the threshold, 'above' does not."""
        quick = judgement("healthy_quick_ratio").tests[0]
        growth = judgement("high_growth").tests[0]
        assert quick.passes(1.0) and not quick.passes(0.99)
        assert growth.passes(20.1) and not growth.passes(20.0)

    def test_every_judgement_names_its_definition(self) -> None:
        """Every judgement states the general definition its rule comes from."""
        assert judgements()
        for j in judgements().values():
            assert j.tests and len(j.definition) > 40

    def test_unknown_judgement_names_the_known_ones(self) -> None:
        """Asking for a judgement the catalogue lacks is a KeyError listing those it has."""
        with pytest.raises(KeyError, match="capital_intensive"):
            judgement("gross_margin_is_healthy")
