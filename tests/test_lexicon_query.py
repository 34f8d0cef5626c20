"""Query analysis, the `finqa lexicon analyze` command and the FinanceBench figures."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from finqa.lexicon import analyze
from finqa.orchestrator.cli import main as finqa_main


class TestAnalyze:
    """What analyze() understands in a question."""

    def test_metrics_generated_question(self) -> None:
        """Company, years, metrics, statements and computation are all read."""
        qa = analyze(
            "What is the FY2019 fixed asset turnover ratio for Activision Blizzard? Fixed asset "
            "turnover ratio is defined as: FY2019 revenue / (average PP&E between FY2018 and FY2019)."
        )
        assert qa.companies == ("Activision Blizzard",)
        assert qa.tickers == ("ATVI",)
        assert set(qa.fiscal_years) == {2018, 2019}
        assert qa.metrics[0] == "fixed_asset_turnover"
        assert {"revenue", "ppe_net"} <= set(qa.metrics)
        assert {"income", "balance"} <= set(qa.statements)
        assert qa.is_computation

    def test_expansion_adds_line_items(self) -> None:
        """The expanded query carries filing captions for BM25 and notes what changed."""
        qa = analyze("What was JPM's capex in FY22?")
        assert qa.companies == ("JPMorgan",)
        assert qa.fiscal_years == (2022,)
        assert "Purchases of property, plant and equipment" in qa.expanded_query
        assert qa.expanded_query.startswith("What was JPM's capex in FY22?")
        assert any("JPMorgan" in n for n in qa.notes)
        assert any("FY2022" in n for n in qa.notes)

    def test_quarter_and_doc_type(self) -> None:
        """Quarters and explicit document types become filters."""
        qa = analyze("In Pfizer's 10-Q for Q2 2023, what were revenues?")
        assert qa.quarters == (2,) and qa.fiscal_years == (2023,)
        assert qa.doc_types == ("10q",)

    def test_period_asked_per_year(self) -> None:
        """A quarter asked beside a fiscal year is named per year; a fiscal-year question names none."""
        qa = analyze("Was there any drop in Best Buy's cash between FY 2023 and Q2 of FY2024?")
        assert qa.periods == ("FY2023", "Q2 FY2024")
        assert analyze("What was 3M's FY2022 revenue?").periods == ()

    def test_comparison_not_from_company_name(self) -> None:
        """'Best Buy' in a question does not make it a comparison."""
        qa = analyze("What is Best Buy's FY2023 inventory?")
        assert not qa.is_comparison
        assert analyze("Did Best Buy's margin improve between FY2022 and FY2023?").is_comparison

    def test_customer_qualifiers_the_filings_print(self) -> None:
        """'key', 'primary' and 'principal' customers (as filings word them) read as customer
        concentration, whose expansion carries the captions BM25 needs; 'customers' alone does not."""
        for qualifier in ("key", "primary", "principal"):
            qa = analyze(f"Who are the {qualifier} customers of Acme in FY2022?")
            assert qa.metrics == ("customer_concentration",), qualifier
            assert "major customers" in qa.expanded_query
        assert analyze("How many customers did Acme serve in FY2022?").metrics == ()

    def test_plain_question(self) -> None:
        """A question with nothing financial yields empty fields, not errors."""
        qa = analyze("Hello there")
        assert qa.companies == () and qa.metrics == () and qa.fiscal_years == ()
        assert qa.expanded_query == "Hello there"


class TestCli:
    """`finqa lexicon analyze`."""

    def test_json(self, capsys: pytest.CaptureFixture[str]) -> None:
        """--json prints one object with the documented keys."""
        code = finqa_main(
            ["lexicon", "analyze", "Apple FY2023 revenue was $394.3 billion", "--json"]
        )
        data = json.loads(capsys.readouterr().out)
        assert code == 0
        assert data["companies"][0] == {"name": "Apple", "ticker": "AAPL", "matched": "Apple"}
        assert (
            data["periods"][0]["fiscal_year"] == 2023
            and data["periods"][0]["end_date"] == "2023-09-30"
        )
        assert data["metrics"][0]["canonical"] == "revenue"
        assert data["quantities"] == [
            {
                "text": "$394.3 billion",
                "value": 394.3,
                "unit": "USD",
                "scale": 1e9,
                "kind": "number",
            }
        ]
        assert data["expanded_query"].startswith("Apple FY2023")

    def test_text(self, capsys: pytest.CaptureFixture[str]) -> None:
        """The text form shows the formula of a derived metric."""
        assert finqa_main(["lexicon", "analyze", "What was 3M's free cash flow in FY2022?"]) == 0
        out = capsys.readouterr().out
        assert "3M (MMM)" in out and "fcf = cfo - capex" in out

    def test_import_is_light(self) -> None:
        """`from finqa import lexicon` does not import pydantic, yaml, torch or chromadb."""
        code = (
            "import sys; from finqa import lexicon; heavy = [m for m in ('torch', 'chromadb', 'yaml', 'pydantic', "
            "'sentence_transformers', 'openai') if m in sys.modules]; print(heavy)"
        )
        out = subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, check=True
        )
        assert out.stdout.strip() == "[]"


@pytest.mark.financebench
class TestFinanceBench:
    """The issue's figures on the shared FinanceBench questions."""

    def test_figures(self, financebench_dir: Path) -> None:
        """Companies and years are detected, gold numbers are found, perturbations are not."""
        from finqa.benchmarks.lexicon_eval import run

        r = run(financebench_dir)
        assert r["company_accuracy_when_named"] >= 0.98
        assert r["questions_with_another_company"] == 0
        assert r["fiscal_year_accuracy_when_named"] >= 0.95
        assert r["metric_recognised_share"] >= 0.85
        assert r["gold_numbers_found_share"] >= 0.95
        assert r["false_match_x1000"] == 0
        assert r["false_match_1pct"] <= 0.05
