"""Citations as an analyst reads them (finqa.orchestrator.citing): printed pages, matching labels."""

from __future__ import annotations

from finqa.agents.types import (
    Calculation,
    Citation,
    Evidence,
    EvidenceItem,
    Operand,
    RetrievalPlan,
)
from finqa.orchestrator.citing import label_pages, renumber
from finqa.orchestrator.result import QAResult, citation_json


def _evidence(*items: tuple[str, str, int]) -> Evidence:
    plan = RetrievalPlan(attempt=1, route="hybrid", reason="", k=10, candidates=10, rse=False)
    return Evidence(
        question="q",
        plan=plan,
        items=tuple(
            EvidenceItem(source_id=s, doc_id=d, pages=(p,), chunk_ids=(f"{d}-c{p}",), text="t")
            for s, d, p in items
        ),
    )


class TestRenumber:
    def test_single_source_is_s1(self) -> None:
        """An answer citing only [S3] lists that source as S1, in the text and the citation."""
        cite = Citation(source_id="S3", doc_id="D", page=36, quote="Revenue 51,217")
        text, cites, _ = renumber("Revenue: $51,217 million [S3]. Answer: $51,217 million.", [cite])
        assert text == "Revenue: $51,217 million [S1]. Answer: $51,217 million."
        assert [c.source_id for c in cites] == ["S1"] and cites[0].page == 36

    def test_order_is_first_cited(self) -> None:
        """Sources are numbered in the order the answer first cites them, statement pages apart."""
        cites = [
            Citation(source_id="S2", doc_id="D", page=1),
            Citation(source_id="S5", doc_id="D", page=9),
            Citation(source_id="M2", doc_id="D", page=4),
        ]
        text, out, _ = renumber("a [S5] b [M2] c [S2] d [S5].", cites)
        assert text == "a [S1] b [M1] c [S2] d [S1]."
        assert [(c.source_id, c.page) for c in out] == [("S1", 9), ("M1", 4), ("S2", 1)]

    def test_cited_but_unlisted_source_is_listed(self) -> None:
        """A label the text cites without a citation is listed from the evidence item it names."""
        cite = Citation(source_id="S3", doc_id="D", page=36)
        evidence = _evidence(("S2", "E", 7), ("S3", "D", 36))
        text, out, _ = renumber("x [S2] and y [S3].", [cite], evidence=evidence)
        assert text == "x [S1] and y [S2]."
        assert [(c.source_id, c.doc_id, c.page) for c in out] == [("S1", "E", 7), ("S2", "D", 36)]

    def test_calculation_operands_follow(self) -> None:
        """A calculation's operands name the renumbered source, so the audit page still links them."""
        cite = Citation(source_id="S4", doc_id="D", page=2)
        calc = Calculation(
            expression="a", operands=(Operand(name="a", value=1.0, source_id="S4"),), result=1.0
        )
        _, _, calcs = renumber("v [S4].", [cite], [calc])
        assert calcs[0].operands[0].source_id == "S1"


class TestPrintedPages:
    def test_label_from_the_index(self) -> None:
        """A page whose printed number the index knows is cited by it, marked 'printed'."""
        cites = label_pages(
            [
                Citation(source_id="S1", doc_id="D", page=36),
                Citation(source_id="S2", doc_id="E", page=3),
            ],
            lambda doc, page: "37" if doc == "D" else None,
        )
        assert [c.printed_page for c in cites] == ["37", "4"]
        assert [c.page_label_source for c in cites] == ["printed", "position"]

    def test_json_keeps_the_index(self) -> None:
        """JSON gives `page` (printed, as an int when numeric), `page_index` (0-based) and the source."""
        printed = citation_json(Citation(source_id="S1", doc_id="D", page=36, page_label="37"))
        assert (printed["page"], printed["page_index"], printed["page_label_source"]) == (
            37,
            36,
            "printed",
        )
        lettered = citation_json(Citation(source_id="S1", doc_id="D", page=80, page_label="F-3"))
        assert lettered["page"] == "F-3"
        bare = citation_json(Citation(source_id="S1", doc_id="D", page=36))
        assert (bare["page"], bare["page_label_source"]) == (37, "position")

    def test_text_output_names_both(self) -> None:
        """The text output cites 'p. 37 (printed; index 36)'."""
        import io

        from finqa.orchestrator.render import render_result

        result = QAResult(
            question="q", question_id="q1", answer="x [S1]", status="accepted", utility=1.0,
            run_id="r", audit_log="a.jsonl",
            citations=(Citation(source_id="S1", doc_id="D", page=36, page_label="37"),),
        )  # fmt: skip
        out = io.StringIO()
        render_result(result, out)
        assert "cite [S1] D p. 37 (printed; index 36)" in out.getvalue()
