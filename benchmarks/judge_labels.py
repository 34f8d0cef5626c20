"""A labelled set of real LLM answers for the judge: the local model answers every dev question
from its gold evidence pages, the benchmark grader labels each answer against the gold.

    python -m finqa.benchmarks.judge_labels run [--questions FILE] [--out FILE.jsonl]
        [--base-url URL] [--model NAME] [--limit N]          # resumable: skips ids already in --out
    python -m finqa.benchmarks.judge_labels export [--out FILE.jsonl] [--fixture FILE.jsonl]
    python -m finqa.benchmarks.judge_labels from-bench RUN_DIR... [--out FILE.jsonl] [--prefix P]

`run` appends one JSON line per question (the answer as finqa's openai backend returned it, its
grade, the evidence ids) and flushes it, so an interrupted run resumes where it stopped; a
question whose LLM call fails is recorded as `error` and retried on the next run. Questions are
asked in a fixed stratified order (question types and companies interleaved) so a partial run is
already a balanced sample. `export` keeps what the repository may hold: ids, answers, labels,
evidence ids; never the FinanceBench question or gold-answer text.

The labelled set is derived from FinanceBench (its question ids, the model's answers to them), so
it is never kept in the repository: it lives at `$FINQA_JUDGE_LLM_SET`, else
`$XDG_CACHE_HOME/finqa/judge_llm_answers.jsonl` (`~/.cache/...`), or wherever `--out` /
`--fixture` puts it; `judge_eval --llm-set [PATH]` reads it from there.

`from-bench` adds every judged attempt of `finqa bench financebench` runs (e.g. the openai and
hybrid backends) to the set: the answer as the judge saw it, the evidence ids it was judged
against (source id, filing, pages, chunk ids) and the grader's label against the gold (see
`finqa.benchmarks._judge_runs`); re-running it replaces the items of the same run and attempt.
With `--supersede`, items already in the set that give the same answer (whitespace aside) to the
same question as an added item are dropped, and their number printed: the newer run's item, with
its own evidence, stands for that answer.

Labels: the grader's `correct` / `wrong` / `abstained` / `ungraded`; `should_accept` is True for
a correct answer that also answers the question (a bare "Yes"/"No" to a question that asks for a
judgement with its basis, or a verdict followed only by the words of finqa's reply form, is graded
correct by the grader but is incomplete), False for wrong and
abstained, None for ungraded (left out of the acceptance figures).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import sys
import time
from collections import defaultdict
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from finqa.benchmarks.questions import gold_evidence, read_rows

__all__ = [
    "main",
    "stratified_order",
    "label_row",
    "export_rows",
    "merge_fixture",
    "supersede",
    "default_set",
    "load_fixture",
]


def default_set() -> Path:
    """Where the labelled real-LLM set is kept by default: `$FINQA_JUDGE_LLM_SET`, else the
    user's cache directory (FinanceBench-derived data never goes into the repository)."""
    env = os.environ.get("FINQA_JUDGE_LLM_SET")
    if env:
        return Path(env)
    cache = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return cache / "finqa" / "judge_llm_answers.jsonl"


DEFAULT_QUESTIONS = (
    Path(__file__).resolve().parents[2] / "shared" / "financebench" / "questions.jsonl"
)
DEFAULT_OUT = Path("/work/var/i10/llm_answers.jsonl")
_KEEP_ALWAYS = (
    "qid",
    "question_type",
    "company",
    "doc_name",
    "evidence",
    "answer",
    "label",
    "kind",
)
_KEEP = (*_KEEP_ALWAYS, "source", "attempt", "evidence_items")


def _qid(row: Mapping[str, Any]) -> str:
    return str(row.get("financebench_id") or row.get("id"))


def stratified_order(rows: Sequence[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    """Rows interleaved by question type, each type's rows in a fixed hash order of company then id
    (so the first N rows of any run cover every type and many companies)."""
    by_type: dict[str, list[Mapping[str, Any]]] = defaultdict(list)
    for r in rows:
        by_type[str(r.get("question_type") or "unknown")].append(r)

    def key(r: Mapping[str, Any]) -> str:
        return hashlib.sha256(f"{r.get('company')}|{_qid(r)}".encode()).hexdigest()

    queues = [sorted(v, key=key) for _t, v in sorted(by_type.items())]
    out: list[Mapping[str, Any]] = []
    while any(queues):
        for q in queues:
            if q:
                out.append(q.pop(0))
    return out


def _words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9#]+", text.lower())


def _is_bare_yes_no(text: str) -> bool:
    """A verdict with no basis: "Yes"/"No" alone, or followed only by words of finqa's own reply
    form (a model echoing "<Yes or No, then the reason with the figures and [S#] citations>")."""
    from finqa.agents.reasoning.prompts import reply_form_text
    from finqa.lexicon import extract_quantities

    words = _words(text)
    if not words or words[0] not in ("yes", "no"):
        return False
    if any(q.kind == "number" for q in extract_quantities(text)):
        return False
    rest = words[1:]
    return len(rest) <= 1 or set(rest) <= set(_words(reply_form_text()))


def label_row(question: str, gold: str, answer: Mapping[str, Any]) -> dict[str, Any]:
    """The grader's label for one answer, and whether a judge should accept it."""
    from finqa.benchmarks.grading import grade

    text = str(answer.get("text") or "")
    g = grade(question, gold, text, abstained=bool(answer.get("abstained")))
    should: bool | None
    if g.label == "correct":
        should = not (g.kind == "yes_no" and _is_bare_yes_no(text))
    elif g.label in ("wrong", "abstained"):
        should = False
    else:
        should = None
    return {"label": g.label, "kind": g.kind, "detail": g.detail, "should_accept": should}


def _done(out: Path) -> set[str]:
    if not out.exists():
        return set()
    done: set[str] = set()
    for line in out.read_text(encoding="utf-8").splitlines():
        try:
            row = json.loads(line)
        except json.JSONDecodeError:
            continue  # a torn last line from an interrupted run: that question is asked again
        if row.get("label") != "error":
            done.add(str(row.get("qid")))
    return done


def run(
    questions: Path,
    out: Path,
    *,
    base_url: str,
    model: str,
    limit: int | None,
    timeout: float,
    skip_formats: Sequence[str] = (),
    retries: int = 1,
) -> int:
    from finqa.agents.config import load_settings
    from finqa.agents.logs import configure_logging
    from finqa.agents.reasoning import OpenAIChatClient, build_reasoner

    configure_logging("warning")
    settings = load_settings(
        overrides={
            "llm.backend": "openai",
            "llm.base_url": base_url,
            "llm.model": model,
            "llm.timeout_s": timeout,
            "llm.max_retries": retries,
        }
    )
    client = OpenAIChatClient(settings.llm, api_key="local")
    if skip_formats:
        # llama-cpp-python's server answers an unsupported response_format with HTTP 500 (not
        # 400), which the client does not take as a refusal: start at a level it accepts
        client._rejected.update(skip_formats)
    reasoner = build_reasoner(settings, client)
    rows = stratified_order(read_rows(questions))
    done = _done(out)
    todo = [r for r in rows if _qid(r) not in done][: limit or None]
    out.parent.mkdir(parents=True, exist_ok=True)
    if out.exists() and out.stat().st_size and not out.read_bytes().endswith(b"\n"):
        with out.open("a", encoding="utf-8") as fh:
            fh.write("\n")  # close a torn last line so the next record starts on its own
    print(f"judge_labels: {len(done)} done, {len(todo)} to ask -> {out}", flush=True)
    for n, r in enumerate(todo, start=1):
        question = str(r["question"])
        ev = gold_evidence(question, r.get("evidence") or [])
        t0 = time.perf_counter()
        rec: dict[str, Any] = {
            "qid": _qid(r),
            "question_type": r.get("question_type"),
            "company": r.get("company"),
            "doc_name": r.get("doc_name"),
            "evidence": [[i.doc_id, i.pages[0]] for i in ev.items],
        }
        try:
            ans = reasoner.generate(question, ev, 1)
        except Exception as exc:  # noqa: BLE001 - one failed question is recorded, the run goes on
            rec |= {"label": "error", "detail": f"{type(exc).__name__}: {exc}"[:300]}
        else:
            dumped = ans.model_dump(mode="json", exclude={"raw", "usage"})
            rec["latency_s"] = round(time.perf_counter() - t0, 1)
            if ans.confidence.get("mode") == "llm-error":
                # the endpoint failed: recorded as an error, so a resumed run asks again
                rec |= {
                    "label": "error",
                    "detail": str(ans.confidence.get("llm_error") or ans.text)[:300],
                }
            else:
                rec["answer"] = dumped
                rec |= label_row(question, str(r["answer"]), dumped)
        with out.open("a", encoding="utf-8") as fh:
            fh.write(json.dumps(rec, ensure_ascii=False) + "\n")
            fh.flush()
        print(
            f"[{n}/{len(todo)}] {rec['qid']} {rec.get('label')} {rec.get('latency_s', '-')}s",
            flush=True,
        )
    return 0


def export_rows(rows: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """The fixture's rows: last non-error record per item (question, run, attempt), only the
    fields the repo may keep."""
    from finqa.benchmarks._judge_runs import item_key

    latest: dict[tuple[str, str, int], Mapping[str, Any]] = {}
    for r in rows:
        if r.get("label") != "error":
            latest[item_key(r)] = r
    out = []
    for key in sorted(latest):
        r = latest[key]
        rec = {k: r.get(k) for k in _KEEP if k in r or k in _KEEP_ALWAYS}
        rec["should_accept"] = r.get("should_accept")
        out.append(rec)
    return out


def merge_fixture(path: Path, items: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """The fixture with `items` added (replacing items of the same question, run and attempt)."""
    return export_rows([*load_fixture(path), *items])


def _same_answer(rec: Mapping[str, Any]) -> tuple[str, str]:
    answer = rec.get("answer") or {}
    text = str(answer.get("text") or "") if isinstance(answer, Mapping) else ""
    return (str(rec.get("qid")), " ".join(text.split()))


def supersede(
    old: Sequence[Mapping[str, Any]], new: Sequence[Mapping[str, Any]]
) -> tuple[list[Mapping[str, Any]], int]:
    """`old` without the items that give the same answer to the same question as an item of
    `new` (other than that very item, same run and attempt), and how many were dropped."""
    from finqa.benchmarks._judge_runs import item_key

    answers = {_same_answer(r) for r in new}
    keys = {item_key(r) for r in new}
    kept = [r for r in old if _same_answer(r) not in answers or item_key(r) in keys]
    return kept, len(old) - len(kept)


def load_fixture(path: Path) -> list[dict[str, Any]]:
    """The labelled real-LLM answers at `path` (empty when absent)."""
    if not path.exists():
        return []
    return [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines() if x.strip()]


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(
        prog="python -m finqa.benchmarks.judge_labels", description=__doc__.split("\n\n")[0]
    )
    sub = p.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run", help="ask the LLM (resumable)")
    r.add_argument("--questions", type=Path, default=DEFAULT_QUESTIONS)
    r.add_argument("--out", type=Path, default=DEFAULT_OUT)
    r.add_argument("--base-url", default="http://127.0.0.1:8011/v1")
    r.add_argument("--model", default="qwen05")
    r.add_argument("--limit", type=int, default=None)
    r.add_argument("--timeout", type=float, default=300.0)
    r.add_argument("--retries", type=int, default=1, help="LLM retries per call (slow servers: 0)")
    r.add_argument(
        "--skip-format",
        action="append",
        default=[],
        help="a response_format level the server cannot take (e.g. json_schema for llama.cpp)",
    )
    e = sub.add_parser("export", help="write the labelled set from a run's output")
    e.add_argument("--out", type=Path, default=DEFAULT_OUT)
    e.add_argument("--fixture", type=Path, default=None, help="the set (default: see above)")
    b = sub.add_parser("from-bench", help="add every judged attempt of benchmark runs")
    b.add_argument("runs", type=Path, nargs="+", help="run directories (results.jsonl + audit/)")
    b.add_argument(
        "--out", "--fixture", dest="fixture", type=Path, default=None, help="the set to add to"
    )
    b.add_argument(
        "--supersede",
        action="store_true",
        help="drop items of the set giving the same answer to the same question as an added item",
    )
    b.add_argument(
        "--prefix",
        default="",
        help="prepended to each item's source run name (keeps same-named runs of two sessions apart)",
    )
    args = p.parse_args(argv)
    if args.cmd in ("export", "from-bench") and args.fixture is None:
        args.fixture = default_set()
    if args.cmd == "from-bench":
        return _from_bench(args.runs, args.fixture, args.prefix, supersede_old=args.supersede)
    if args.cmd == "run":
        if not args.questions.exists():
            print(f"judge_labels: questions file not found: {args.questions}", file=sys.stderr)
            return 2
        return run(
            args.questions,
            args.out,
            base_url=args.base_url,
            model=args.model,
            limit=args.limit,
            timeout=args.timeout,
            skip_formats=args.skip_format,
            retries=args.retries,
        )
    if not args.out.exists():
        print(f"judge_labels: no run output at {args.out}", file=sys.stderr)
        return 2
    rows = [json.loads(x) for x in args.out.read_text(encoding="utf-8").splitlines() if x.strip()]
    kept = export_rows(rows)
    args.fixture.parent.mkdir(parents=True, exist_ok=True)
    args.fixture.write_text("".join(json.dumps(x) + "\n" for x in kept), encoding="utf-8")
    print(f"judge_labels: {len(kept)} labelled answers -> {args.fixture}")
    return 0


def _from_bench(
    runs: Sequence[Path], fixture: Path, prefix: str = "", *, supersede_old: bool = False
) -> int:
    from collections import Counter

    from finqa.benchmarks._judge_runs import items_from_run

    items: list[dict[str, Any]] = []
    for run_dir in runs:
        if not (run_dir / "results.jsonl").exists():
            print(f"judge_labels: no results.jsonl in {run_dir}: skipped", file=sys.stderr)
            continue
        found = items_from_run(run_dir, label_row)
        if prefix:
            for x in found:
                x["source"] = f"{prefix}/{x['source']}"
        counts = Counter(str(x["label"]) for x in found)
        print(f"judge_labels: {run_dir}: {len(found)} judged attempts {dict(counts)}")
        items += found
    old = load_fixture(fixture)
    if supersede_old:
        old_kept, dropped = supersede(old, items)
        print(
            f"judge_labels: {dropped} item(s) of the set superseded by the same question and "
            "answer in the added runs"
        )
        old = [dict(r) for r in old_kept]
    kept = export_rows([*old, *items])
    fixture.parent.mkdir(parents=True, exist_ok=True)
    fixture.write_text("".join(json.dumps(x) + "\n" for x in kept), encoding="utf-8")
    print(f"judge_labels: {len(kept)} labelled answers -> {fixture}")
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
