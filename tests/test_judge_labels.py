"""The labelled real-LLM answer set: stratified order, labels, resumable run, export, fixture."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from finqa.agents.reasoning.fake_server import FakeOpenAIServer
from finqa.benchmarks.judge_labels import (
    default_set,
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

    def test_echoed_reply_form_is_not_to_be_accepted(self) -> None:
        """A verdict followed only by the prompt's reply-form words has no basis; a real reason does."""
        q = "Does Corning have positive working capital?"
        gold = "Yes. Current assets of $7,453 million exceed current liabilities."
        echo = "Yes, then the reason with the figures and [S#] citations>"
        assert label_row(q, gold, {"text": echo})["should_accept"] is False
        reason = "Yes, the reason: current assets exceed current liabilities [S2]."
        assert label_row(q, gold, {"text": reason})["should_accept"] is True

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

    def test_default_set_outside_the_repository(
        self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        """The labelled set defaults to $FINQA_JUDGE_LLM_SET, else the user's cache directory."""
        monkeypatch.delenv("FINQA_JUDGE_LLM_SET", raising=False)
        monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
        assert default_set() == tmp_path / "cache" / "finqa" / "judge_llm_answers.jsonl"
        monkeypatch.setenv("FINQA_JUDGE_LLM_SET", str(tmp_path / "set.jsonl"))
        assert default_set() == tmp_path / "set.jsonl"


def _bench_run(tmp_path: Path) -> Path:
    """A benchmark run directory: one question, two attempts (wrong, then right) in its audit log."""
    run = tmp_path / "bench-openai"
    (run / "audit").mkdir(parents=True)
    log = run / "audit" / "self-improving.jsonl"
    q = _row(0, "metrics-generated", "C0")
    items = [{"source_id": "S1", "doc_id": "C0_2022_10K", "pages": [3], "chunk_ids": ["c#1"]}]
    records = [{"run_id": "r1", "question_id": None, "attempt": None, "agent": "orchestrator"}]
    for attempt, text in ((1, "$9,999 million [S1]"), (2, "$7,453 million [S1]")):
        records.append(
            {
                "run_id": "r1",
                "question_id": "id_0",
                "attempt": attempt,
                "agent": "retrieval",
                "data": {"items": items},
            }
        )
        records.append(
            {
                "run_id": "r1",
                "question_id": "id_0",
                "attempt": attempt,
                "agent": "reasoning",
                "params": {"backend": "openai", "model": "m"},
                "data": {"answer": text, "abstained": False, "citations": [], "confidence": {}},
            }
        )
    log.write_text("".join(json.dumps(r) + "\n" for r in records) + '{"torn')
    row = {
        "id": "id_0",
        "mode": "self-improving",
        "type": "metrics-generated",
        "question": q["question"],
        "gold": q["answer"],
        "doc_name": q["doc_name"],
        "run_id": "r1",
        "audit_log": str(log),
        # the benchmark's final status says nothing about each attempt: labels come from the grader
        "status": "accepted",
    }
    (run / "results.jsonl").write_text(json.dumps(row) + "\n")
    return run


class TestFromBench:
    def test_every_attempt_labelled_by_the_grader(self, tmp_path: Path) -> None:
        """Each judged attempt of a benchmark run becomes an item labelled by the grader against
        the gold, with the evidence ids it was judged against and no question text."""
        from finqa.benchmarks._judge_runs import items_from_run

        items = items_from_run(_bench_run(tmp_path), label_row)
        assert [(x["attempt"], x["label"]) for x in items] == [(1, "wrong"), (2, "correct")]
        assert items[0]["evidence_items"][0]["chunk_ids"] == ["c#1"]
        assert items[1]["answer"]["backend"] == "openai"
        assert all("question" not in x and "gold" not in x for x in items)

    def test_run_still_being_written_is_read(self, tmp_path: Path) -> None:
        """A torn last line of a run's results.jsonl (the run is still going) is left out; the
        finished questions before it are labelled."""
        from finqa.benchmarks._judge_runs import items_from_run

        run = _bench_run(tmp_path)
        with (run / "results.jsonl").open("a") as fh:
            fh.write('{"id": "id_1", "mode": "self-impr')
        items = items_from_run(run, label_row)
        assert [(x["qid"], x["attempt"]) for x in items] == [("id_0", 1), ("id_0", 2)]

    def test_from_bench_merges_into_fixture(self, tmp_path: Path) -> None:
        """Re-adding the same run replaces its items; older items of the fixture are kept."""
        fixture = tmp_path / "fixture.jsonl"
        old = {"qid": "id_9", "label": "wrong", "answer": {"text": "x"}, "should_accept": False}
        fixture.write_text(json.dumps(old) + "\n")
        run = _bench_run(tmp_path)
        assert main(["from-bench", str(run), "--fixture", str(fixture)]) == 0
        assert main(["from-bench", str(run), "--fixture", str(fixture)]) == 0
        rows = load_fixture(fixture)
        assert [(r["qid"], r.get("attempt")) for r in rows] == [
            ("id_0", 1),
            ("id_0", 2),
            ("id_9", None),
        ]

    def test_built_set_is_well_formed(self, tmp_path: Path) -> None:
        """Every row of a set built with --out has an id, an answer and a label, and no question text."""
        out = tmp_path / "var" / "judge_llm_answers.jsonl"
        assert main(["from-bench", str(_bench_run(tmp_path)), "--out", str(out)]) == 0
        rows = load_fixture(out)
        assert len(rows) == 2
        for r in rows:
            assert r["qid"] and r["label"] in ("correct", "wrong", "abstained", "ungraded")
            assert "question" not in r and "gold" not in r and isinstance(r["answer"], dict)

    def test_supersede_drops_the_same_answer_to_the_same_question(self, tmp_path: Path) -> None:
        """With --supersede, an older item giving the same answer (whitespace aside) to the same
        question as an added item is dropped; other older items stay."""
        out = tmp_path / "set.jsonl"
        same = {"qid": "id_0", "source": "old", "attempt": 1, "label": "correct",
                "answer": {"text": "$7,453  million [S1]"}, "should_accept": True}  # fmt: skip
        other = {**same, "qid": "id_1"}
        out.write_text(json.dumps(same) + "\n" + json.dumps(other) + "\n")
        run = _bench_run(tmp_path)
        assert main(["from-bench", str(run), "--out", str(out), "--supersede"]) == 0
        rows = load_fixture(out)
        assert sorted((r["qid"], r["source"]) for r in rows) == [
            ("id_0", "bench-openai/self-improving"),
            ("id_0", "bench-openai/self-improving"),
            ("id_1", "old"),
        ]

    def test_prefix_keeps_same_named_runs_apart(self, tmp_path: Path) -> None:
        """Two sessions' runs of the same name are kept apart by --prefix, not replaced."""
        out = tmp_path / "set.jsonl"
        run = _bench_run(tmp_path)
        assert main(["from-bench", str(run), "--out", str(out), "--prefix", "a"]) == 0
        assert main(["from-bench", str(run), "--out", str(out), "--prefix", "b"]) == 0
        sources = sorted({r["source"] for r in load_fixture(out)})
        assert sources == ["a/bench-openai/self-improving", "b/bench-openai/self-improving"]

    def test_judge_eval_reads_the_set_from_a_path(
        self, tmp_path: Path, capsys: pytest.CaptureFixture[str]
    ) -> None:
        """judge_eval --llm-set PATH judges the set there; a missing set is a one-line error."""
        import gzip

        from finqa.benchmarks.judge_eval import main as judge_eval

        out = tmp_path / "set.jsonl"
        assert main(["from-bench", str(_bench_run(tmp_path)), "--out", str(out)]) == 0
        qfile = tmp_path / "questions.jsonl"
        qfile.write_text(json.dumps(_row(0, "metrics-generated", "C0")) + "\n")
        with gzip.open(tmp_path / "pages.jsonl.gz", "wt") as fh:
            fh.write(json.dumps({"doc_name": "C0_2022_10K", "page": 3, "text": PAGE}) + "\n")
        capsys.readouterr()
        assert judge_eval(["--questions", str(qfile), "--llm-set", str(out)]) == 0
        printed = capsys.readouterr().out
        assert "real-LLM answers (set.jsonl), every item: correct answers accepted   1/1" in printed
        assert "DISTINCT (question, answer) pairs (2 pairs from 2 items" in printed
        missing = tmp_path / "nope.jsonl"
        assert judge_eval(["--questions", str(qfile), "--llm-set", str(missing)]) == 2
        err = capsys.readouterr().err.strip()
        assert "not found" in err and str(missing) in err and "\n" not in err

    def test_judged_against_recorded_pages(self, tmp_path: Path) -> None:
        """Without the index, an item's evidence is the text of its recorded pages, and the judge
        accepts the grader's correct answer and rejects the wrong one."""
        import gzip

        from finqa.benchmarks._judge_runs import items_from_run
        from finqa.benchmarks._judge_summary import run_llm_set

        fixture = tmp_path / "fixture.jsonl"
        fixture.write_text(
            "".join(json.dumps(x) + "\n" for x in items_from_run(_bench_run(tmp_path), label_row))
        )
        qfile = tmp_path / "questions.jsonl"
        qfile.write_text(json.dumps(_row(0, "metrics-generated", "C0")) + "\n")
        with gzip.open(tmp_path / "pages.jsonl.gz", "wt") as fh:
            fh.write(json.dumps({"doc_name": "C0_2022_10K", "page": 3, "text": PAGE}) + "\n")
        rows = run_llm_set(fixture, qfile)
        assert [(r["should_accept"], r["accepted"]) for r in rows] == [(False, False), (True, True)]


class TestFoldFit:
    @staticmethod
    def _rows() -> list[dict[str, Any]]:
        rows = []
        for fold in range(5):
            rows += [{"fold": fold, "should_accept": True, "utility": u} for u in (0.9, 0.8, 0.55)]
            rows += [{"fold": fold, "should_accept": False, "utility": u} for u in (0.1, 0.3, 0.5)]
        return rows

    def test_threshold_separates_right_from_wrong(self) -> None:
        """The fitted threshold accepts every correct answer and no wrong one when one exists."""
        from finqa.benchmarks._judge_summary import fit_threshold

        assert fit_threshold(self._rows()) == 0.55

    def test_threshold_keeps_wrong_accepted_under_target(self) -> None:
        """When separating is impossible, no threshold accepting over 5% of wrong answers wins."""
        from finqa.benchmarks._judge_summary import fit_threshold

        rows = [{"should_accept": True, "utility": 0.6}, {"should_accept": False, "utility": 0.7}]
        assert fit_threshold(rows) > 0.7

    def test_fold_report_holds_out_each_fold(self) -> None:
        """The report fits on four folds and gives the fifth's acceptance beside the default's."""
        from finqa.benchmarks._judge_summary import fold_fit

        out = fold_fit(self._rows(), "set", 0.5)
        assert out.count("tau=0.55") == 5
        assert "held-out total (fit): correct accepted 15/15 100.0%, wrong accepted 0/15" in out
        assert "held-out total (default): correct accepted 15/15 100.0%, wrong accepted 5/15" in out


class TestDistinctPairs:
    def test_repeated_answers_count_once(self) -> None:
        """Identical attempts are one pair; a pair judged both ways counts its accepted share."""
        from finqa.benchmarks._judge_summary import distinct_pairs

        def row(qid: str, text: str, ok: bool, accepted: bool) -> dict[str, Any]:
            return {"qid": qid, "answer": text, "should_accept": ok, "accepted": accepted,
                    "question_type": "t", "backend": "openai"}  # fmt: skip

        rows = [row("q1", "8,978", True, False)] * 5 + [
            row("q2", "$1 million", True, True),
            row("q2", "$1 million", True, False),
            row("q3", "no", False, False),
        ]
        out = distinct_pairs(rows, "set")
        assert "(3 pairs from 8 items; 1 pair(s) judged differently" in out
        assert "correct answers accepted  0.5/2    25.0%" in out
        assert "wrong answers accepted    0/1     0.0%" in out
