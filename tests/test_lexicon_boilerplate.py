"""Filing boilerplate is recognised so extractive answers never quote it."""

from __future__ import annotations

import pytest
from finqa.lexicon.boilerplate import boilerplate_kind


class TestBoilerplate:
    @pytest.mark.parametrize(
        ("text", "kind"),
        [
            ("/s/ Jane Roe Chief Executive Officer February 9, 2023", "signature block"),
            (
                "Pursuant to the requirements of Section 13 or 15(d) of the Securities Exchange "
                "Act of 1934, the registrant has duly caused this report to be signed on its behalf",
                "signature block",
            ),
            ("Table of Contents", "table of contents"),
            ("Item 7. Management's Discussion and Analysis ........ 35", "table of contents"),
            ("Acme Corp | 2022 Form 10-K | 45", "page header"),
            ("Page 12 of 140", "page header"),
            (
                "This report contains forward-looking statements within the meaning of the "
                "Private Securities Litigation Reform Act of 1995.",
                "forward-looking statement disclaimer",
            ),
            (
                "Actual results could differ materially from those expressed in any "
                "forward-looking statements we make.",
                "forward-looking statement disclaimer",
            ),
            (
                "References in this Annual Report on Form 10-K to AMD, we, us, management, our or "
                "the Company mean Advanced Micro Devices, Inc. and our consolidated subsidiaries.",
                "report definitions",
            ),
            (
                "Acme Inc. 330 West 34th Street New York, New York 10001 Dear Dick, In concert with",
                "letter heading",
            ),  # fmt: skip
            (
                "Dear Ms. Roe, we are pleased to confirm the terms of your employment.",
                "letter heading",
            ),  # fmt: skip
        ],
    )
    def test_boilerplate_is_recognised(self, text: str, kind: str) -> None:
        """Signature blocks, tables of contents, page headers and letter headings are named as such."""
        assert boilerplate_kind(text) == kind

    @pytest.mark.parametrize(
        "text",
        [
            "Revenue increased 5% driven by strong demand for data center products.",
            "The Company operates in four segments: Safety, Transportation, Health Care and Consumer.",
            "We expect to pay $1.2 billion of pension benefits in 2024.",
            "Dear Shareholders, 2022 was a year of record revenue for our company.",
            "We opened 330 stores on Main Street locations in 2022 across 10001 square miles.",
            "We expect revenue to grow 5% next year, driven by new products in every segment.",
        ],
    )
    def test_prose_is_not_boilerplate(self, text: str) -> None:
        """Sentences that answer questions are not boilerplate."""
        assert boilerplate_kind(text) is None


class TestExtractiveSkipsBoilerplate:
    def test_signature_block_never_quoted(self) -> None:
        """A page of prose and a signature block: the answer quotes the prose, never the signatures."""
        from finqa.agents.reasoning.offline.extractive import best_passages
        from finqa.agents.types import Evidence, EvidenceItem, RetrievalPlan

        text = (
            "Table of Contents\n"
            "The Company's principal executive officer signed the annual report after the board "
            "reviewed the company's strategy for growth in its international segments.\n\n"
            "SIGNATURES Pursuant to the requirements of Section 13 of the Securities Exchange Act, "
            "the registrant has duly caused this report to be signed on its behalf by the "
            "undersigned, the principal executive officer of the company.\n"
        )
        ev = Evidence(
            question="q",
            items=(
                EvidenceItem(source_id="S1", doc_id="D", pages=(3,), chunk_ids=("c1",), text=text),
            ),
            plan=RetrievalPlan(attempt=1, route="t", reason="t", k=1, candidates=1, rse=False),
        )
        got = best_passages("Who signed the annual report as principal executive officer?", ev, k=3)
        assert got and all("Pursuant" not in p.text and "Table of" not in p.text for p in got)
        assert 0 < got[0].coverage <= 1
