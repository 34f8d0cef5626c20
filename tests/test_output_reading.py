"""Outputs as an analyst reads them: the calculation line of `finqa ask`, counts in the CSV export."""

from __future__ import annotations

import csv
import io
from pathlib import Path

from finqa.agents.types import Calculation, Citation, Operand
from finqa.orchestrator.render import render_result
from finqa.orchestrator.result import QAResult


def _result(*calcs: Calculation) -> QAResult:
    return QAResult(
        question="q?",
        question_id="q1",
        answer="a [S1]",
        status="accepted",
        utility=1.0,
        run_id="r",
        audit_log="/x/audit.jsonl",
        citations=(
            Citation(
                source_id="S1",
                doc_id="D",
                page=4,
                quote="Net sales $1,234",
                page_label="12",
                xbrl_concept="us-gaap:Revenues",
            ),
        ),
        calculations=calcs,
    )


def _text(result: QAResult) -> str:
    out = io.StringIO()
    render_result(result, out)
    return out.getvalue()


class TestCalculationLine:
    """The `calc` line prints figures as a memo does, never a bare '= 47061 USD'."""

    def test_one_figure_read(self) -> None:
        """A figure read as is says where it was read, with thousands separators."""
        calc = Calculation(
            expression="revenue_fy2024",
            operands=(Operand(name="revenue_fy2024", value=47061, scale=1e6, source_id="S1"),),
            result=47061,
            unit="USD",
            description="FY2024 revenue (USD millions)",
        )
        assert "   calc FY2024 revenue (USD millions): 47,061, read from [S1]\n" in _text(
            _result(calc)
        )

    def test_computed_ratio(self) -> None:
        """A computed ratio shows its expression, result and each operand with its source."""
        ops = (
            Operand(name="ca", value=23362, scale=1e6, source_id="S1"),
            Operand(name="cl", value=10566, scale=1e6, source_id="S2"),
        )
        calc = Calculation(
            expression="ca / cl",
            operands=ops,
            result=2.2111,
            unit="ratio",
            description="current ratio",
        )
        line = next(x for x in _text(_result(calc)).splitlines() if "calc" in x)
        assert (
            line == "   calc current ratio: ca / cl = 2.21, with ca = 23,362 [S1], cl = 10,566 [S2]"
        )

    def test_tag_beside_quote(self) -> None:
        """A tagged figure's citation shows the printed quote, then the tag apart."""
        text = _text(_result())
        assert (
            '"Net sales $1,234" (tag us-gaap:Revenues)' in text
            and "p. 12 (printed; index 4)" in text
        )


class TestExportCounts:
    """Counts in the audit CSV read as counts ('10'), rates as rates ('0.9')."""

    def test_integral_scores_stay_integers(self, tmp_path: Path) -> None:
        """items / attempts export without '.0'; utility keeps its decimals."""
        from finqa.audit import AuditLog
        from finqa.audit.review import export

        log = AuditLog(str(tmp_path / "a.jsonl"), fsync=False)
        log.append(agent="retrieval", event="retrieval", question_id="q", scores={"items": 10})
        log.append(
            agent="orchestrator",
            event="final",
            question_id="q",
            scores={"attempts": 2, "utility": 0.9},
        )
        out = export(tmp_path / "a.jsonl", tmp_path / "a.csv")
        rows = list(csv.DictReader(io.StringIO(out.read_text(encoding="utf-8"))))
        assert (rows[0]["scores.items"], rows[1]["scores.attempts"]) == ("10", "2")
        assert rows[1]["scores.utility"] == "0.9"
