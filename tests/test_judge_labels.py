"""The labelled real-LLM answer set: stratified order, labels, resumable run, export, fixture."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from finqa.agents.reasoning.fake_server import FakeOpenAIServer
from finqa.benchmarks.judge_labels import (
    FIXTURE,
    export_rows,
    label_row,
    load_fixture,
    main,
    stratified_order,
)

PAGE = (
    "Consolidated Balance Sheets\n(in millions)\n2022\n2021\nTotal current assets\n7,453\n7,659\n"
)


def _row(n: int, qtype: str, company: str, answer: str = "$7,453 million") -> dict[str, Any]:
    return {
        "financebench_id": f"id_{n}",
        "question_type": qtype,
        "company": company,
        "doc_name": f"{company}_2022_10K",
        "question": f"What were {company}'s total current assets in FY2022?",
        "answer": answer,
        "evidence": [
            {"doc_name": f"{company}_2022_10K", "evidence_page_num": 3, "evidence_text": PAGE}
        ],
    }


class TestLabels:
    def test_stratified_order_interleaves_types(self) -> None:
        """The first rows of the order cover every question type."""
        rows = [_row(i, "a" if i < 6 else "b", f"C{i}") for i in range(8)]
        first = stratified_order(rows)[:2]
        assert {r["question_type"] for r in first} == {"a", "b"}
        assert stratified_order(rows) == stratified_order(list(reversed(rows)))

    def test_bare_yes_is_not_to_be_accepted(self) -> None:
        """A bare 'Yes' matching a yes/no gold is graded correct but must not be accepted."""
        q = "Does Corning have positive working capital?"
        gold = "Yes. Current assets of $7,453 million exceed current liabilities."
        assert label_row(q, gold, {"text": "Yes."})["should_accept"] is False
        full = label_row(q, gold, {"text": "Yes, current assets of $7,453 million are larger."})
        assert full["label"] == "correct" and full["should_accept"] is True

    def test_wrong_answer_labelled(self) -> None:
        """A wrong figure is labelled wrong and should not be accepted."""
        out = label_row(
            "What were total current assets?", "$7,453 million", {"text": "$9,999 million"}
        )
        assert out["label"] == "wrong" and out["should_accept"] is False

    def test_export_keeps_no_question_text(self) -> None:
        """The exported fixture keeps ids, answers and labels, never the question or gold text."""
        rec = {"qid": "x", "question": "Q?", "gold": "G", "label": "wrong", "answer": {"text": "a"}}
        (out,) = export_rows([rec, {"qid": "y", "label": "error"}])
        assert "question" not in out and "gold" not in out and out["label"] == "wrong"


class TestRun:
    def test_run_is_resumable(self, tmp_path: Path) -> None:
        """A second run asks only the questions the first did not record; failures are retried."""
        qfile = tmp_path / "q.jsonl"
        qfile.write_text("".join(json.dumps(_row(i, "t", f"C{i}")) + "\n" for i in range(3)))
        out = tmp_path / "answers.jsonl"
        reply = json.dumps(
            {
                "answer": "Total current assets were $7,453 million [S1].",
                "citations": [{"source": "S1", "quote": ""}],
            }
        )
        with FakeOpenAIServer([reply] * 10) as srv:
            args = ["run", "--questions", str(qfile), "--out", str(out), "--base-url", srv.url]
            assert main([*args, "--limit", "2"]) == 0
            assert len(out.read_text().splitlines()) == 2
            assert main(args) == 0
        rows = [json.loads(x) for x in out.read_text().splitlines()]
        assert sorted(r["qid"] for r in rows) == ["id_0", "id_1", "id_2"]
        assert all(r["label"] == "correct" for r in rows)

    def test_endpoint_failure_is_asked_again(self, tmp_path: Path) -> None:
        """A question whose LLM call fails is recorded as an error and asked again on resume."""
        from finqa.agents.reasoning.fake_server import FakeReply

        qfile = tmp_path / "q.jsonl"
        qfile.write_text(json.dumps(_row(0, "t", "C0")) + "\n")
        out = tmp_path / "answers.jsonl"
        reply = json.dumps({"answer": "Total current assets were $7,453 million [S1]."})
        with FakeOpenAIServer([FakeReply.error(500)] * 2 + [reply] * 4) as srv:
            args = ["run", "--questions", str(qfile), "--out", str(out), "--base-url", srv.url]
            assert main(args) == 0
            assert json.loads(out.read_text().splitlines()[0])["label"] == "error"
            assert main(args) == 0
        last = json.loads(out.read_text().splitlines()[-1])
        assert last["label"] == "correct"
        assert [
            r["qid"] for r in export_rows([json.loads(x) for x in out.read_text().splitlines()])
        ] == ["id_0"]

    def test_fixture_is_well_formed(self) -> None:
        """Every row of the kept fixture has an id, an answer and a label, and no question text."""
        rows = load_fixture(FIXTURE)
        assert rows, f"missing fixture {FIXTURE}"
        for r in rows:
            assert r["qid"] and r["label"] in ("correct", "wrong", "abstained", "ungraded")
            assert "question" not in r and isinstance(r["answer"], dict)
