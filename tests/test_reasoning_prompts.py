"""Prompt templates: versioned files with id + hash, rendered prompts pinned by golden files.

Regenerate the golden files after an intended template change with
`FINQA_UPDATE_GOLDEN=1 .venv/bin/python -m pytest tests/test_reasoning_prompts.py` (and bump the
template version).
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import pytest
from _reasoning_data import evidence
from finqa.agents.errors import ConfigError
from finqa.agents.reasoning.prompts import PROMPTS_DIR, STRATEGIES, load_template, render_messages
from finqa.agents.types import Verdict

GOLDEN = Path(__file__).parent / "golden" / "reasoning"
FIXED = (
    "Consolidated Statement of Cash Flows\n(in millions)\n2022 2021\n"
    "Net Cash Provided by Operating Activities 10,811 11,616\nCapital spending (5,207) (4,625)"
)
QUESTION = "What is the FY2022 free cash flow for Acme? Answer in USD millions."


def _render(strategy: str, feedback: Verdict | None = None) -> str:
    ev = evidence(
        FIXED,
        "Liquidity. Cash from operations funds capital spending.",
        sections=("CONSOLIDATED STATEMENTS OF CASH FLOWS",),
    )
    msgs = render_messages(load_template(strategy), QUESTION, ev, feedback=feedback)
    return "".join(f"=== {m['role']} ===\n{m['content']}\n" for m in msgs)


class TestTemplates:
    """Each strategy has a versioned template file with an id and a content hash."""

    @pytest.mark.parametrize("strategy", STRATEGIES)
    def test_id_and_hash(self, strategy: str) -> None:
        """The id is the file stem and the hash is the SHA-256 of the file bytes."""
        t = load_template(strategy)
        path = PROMPTS_DIR / f"{t.id}.txt"
        assert t.id.startswith(f"{strategy}.v")
        assert t.sha256 == hashlib.sha256(path.read_bytes()).hexdigest()

    def test_unknown_strategy(self) -> None:
        """An unknown strategy is a one-line ConfigError."""
        with pytest.raises(ConfigError, match="unknown prompt strategy"):
            load_template("creative")

    def test_hashes_differ(self) -> None:
        """The three strategies are three different templates."""
        assert len({load_template(s).sha256 for s in STRATEGIES}) == 3


class TestGolden:
    """The rendered prompt for a fixed evidence is pinned."""

    @pytest.mark.parametrize("strategy", STRATEGIES)
    def test_rendered_prompt(self, strategy: str) -> None:
        """Rendering standard/conservative/detailed gives exactly the golden text."""
        rendered = _render(strategy)
        path = GOLDEN / f"{strategy}.txt"
        if os.environ.get("FINQA_UPDATE_GOLDEN"):
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(rendered, encoding="utf-8")
        assert rendered == path.read_text(encoding="utf-8")

    def test_rendered_with_feedback(self) -> None:
        """A retry prompt with the Judge's feedback is pinned too."""
        verdict = Verdict(
            grounding=0.3,
            completeness=0.5,
            numeric=0.0,
            utility=0.25,
            threshold=0.4,
            decision="retry",
            diagnosis="reasoning",
            missing_facets=("unit (USD millions)",),
            unsupported_numbers=("5,604.5",),
            feedback="Capex must be read from the FY2022 column.",
        )
        rendered = _render("conservative", verdict)
        path = GOLDEN / "conservative_feedback.txt"
        if os.environ.get("FINQA_UPDATE_GOLDEN"):
            path.write_text(rendered, encoding="utf-8")
        assert rendered == path.read_text(encoding="utf-8")

    def test_source_labels(self) -> None:
        """Sources carry the EvidenceItem label with doc, page and section."""
        assert "[S1] ACME_2022_10K p.40 — CONSOLIDATED STATEMENTS OF CASH FLOWS\n<<<" in _render(
            "standard"
        )
