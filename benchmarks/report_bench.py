"""The review report at scale: a log of N questions written by the real orchestrator and audit
log with scripted fake agents, then `finqa audit report` over it, then the page in Chromium.

    python -m finqa.benchmarks.report_bench [--questions 10000] [--out DIR] [--no-browser] [--json]

Reports the log's size, the report's build time (target <= 10 s) and file size, and the time
until the page is usable in headless Chromium (data parsed, first page of the table drawn;
target <= 2 s), measured by the page itself (`window.finqaTimings`, ms since navigation start:
summary read, summary JSON parsed, first page drawn = usable; then the lives block read). Timings depend on machine load:
report `uptime` with them.
The log is kept in OUT and reused when it already holds N questions (resumable).

`write_fake_log` is also what the tests use: questions cycle through accepted on the first
attempt, accepted after a retry, best effort, out-of-corpus abstention and an agent failure;
answers carry citations with quotes and a calculation; `hostile=True` puts script tags, an
``<img onerror>``, a ``javascript:`` link and an HTML comment into the filing quotes and answers.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from finqa.agents.config import Settings
from finqa.agents.types import (
    Answer,
    Calculation,
    Citation,
    Evidence,
    EvidenceItem,
    LLMUsage,
    Operand,
    RetrievalPlan,
    Verdict,
)

__all__ = [
    "HOSTILE",
    "COMPANIES",
    "write_fake_log",
    "measure_browser",
    "main",
    "TARGET_BUILD_S",
    "TARGET_USABLE_S",
]

TARGET_BUILD_S = 10.0
TARGET_USABLE_S = 2.0
HOSTILE = (
    '<script>window.__pwned = "script"</script><img src=x onerror="window.__pwned = \'img\'">'
    "<a href=\"javascript:window.__pwned='link'\">click</a><!-- hidden comment --></script><!--"
)
COMPANIES = (
    ("3M_2018_10K", "3M"),
    ("NIKE_2023_10K", "Nike"),
    ("MICROSOFT_2023_10K", "Microsoft"),
    ("AMAZON_2019_10K", "Amazon"),
    ("PEPSICO_2022_10K", "PepsiCo"),
)
# per question kind: utilities by attempt (None = retrieval finds nothing; "fail" = agent raises)
_KINDS: tuple[tuple[Any, ...], ...] = ((0.9,), (0.2, 0.8), (0.1, 0.15, 0.2), (None,), ("fail",))


def _kind(i: int) -> tuple[Any, ...]:
    return _KINDS[i % len(_KINDS)]


class _Retriever:
    def __init__(self, settings: Settings, hostile: bool) -> None:
        self.settings, self.hostile = settings, hostile

    def retrieve(self, question: str, attempt: int, **kw: Any) -> Evidence:
        i = int(question.split("#")[1].split()[0])
        step = self.settings.retrieval.step(attempt)
        doc, _ = COMPANIES[i % len(COMPANIES)]
        n = 0 if _kind(i)[0] is None else 3
        items = tuple(
            EvidenceItem(
                source_id=f"S{j + 1}",
                doc_id=doc,
                pages=(40 + j + attempt,),
                chunk_ids=(f"{doc}#{j}",),
                text="Net sales 32,765 31,657",
                scores={"rrf": round(1.0 / (j + 1), 4)},
                section="CONSOLIDATED STATEMENT OF INCOME",
            )
            for j in range(n)
        )
        reason = "company not in the corpus" if n == 0 else "ticker/company -> hybrid + filter"
        plan = RetrievalPlan(
            attempt=attempt,
            route="hybrid+filter",
            reason=reason,
            k=step.k,
            candidates=step.k * step.candidates_factor,
            rse=step.rse,
            query=question,
        )
        return Evidence(question=question, items=items, plan=plan)


class _Reasoner:
    def __init__(self, hostile: bool) -> None:
        self.hostile = hostile

    def generate(self, question: str, evidence: Evidence, attempt: int, **kw: Any) -> Answer:
        i = int(question.split("#")[1].split()[0])
        if _kind(i)[0] == "fail":
            raise RuntimeError("reasoning backend unreachable (connection refused)")
        first = evidence.items[0]
        extra = f" {HOSTILE}" if self.hostile else ""
        quote = f"Net sales 32,765 31,657{extra}"
        ops = (
            Operand(name="sales_2018", value=32765.0, scale=1e6, period="FY2018", source_id="S1", text=quote),
            Operand(name="sales_2017", value=31657.0, scale=1e6, period="FY2017", source_id="S1", text=quote),
        )  # fmt: skip
        calc = Calculation(
            expression="(sales_2018 - sales_2017) / sales_2017 * 100",
            operands=ops,
            result=(32765.0 - 31657.0) / 31657.0 * 100,
            unit="%",
            description="sales growth FY2018",
        )
        return Answer(
            text=f"Sales grew 3.5% [S1] (attempt {attempt}).{extra}",
            citations=(
                Citation(source_id="S1", doc_id=first.doc_id, page=first.pages[0], quote=quote),
            ),
            calculations=(calc,),
            strategy=kw.get("strategy") or "standard",
            template_id=f"{kw.get('strategy') or 'standard'}.v1",
            template_hash="0f" * 32,
            backend="fake",
            usage=LLMUsage(calls=1),
        )


class _Judge:
    def __init__(self, settings: Settings) -> None:
        self.settings = settings

    def evaluate(self, question: str, answer: Answer, evidence: Evidence, attempt: int) -> Verdict:
        i = int(question.split("#")[1].split()[0])
        script = _kind(i)
        u = float(script[min(attempt, len(script)) - 1])
        tau = self.settings.judge.threshold(attempt)
        ok = u >= tau
        return Verdict(
            grounding=u, completeness=u, numeric=u, utility=u, threshold=tau,
            decision="accept" if ok else "retry",
            diagnosis=None if ok else "both",
            missing_facets=() if ok else ("net sales FY2017",),
            feedback="" if ok else "cite the income statement for both years",
        )  # fmt: skip


def write_fake_log(
    path: Path, questions: int, *, hostile: bool = False, run_id: str = "bench-run"
) -> Path:
    """Answer `questions` scripted questions through the real Orchestrator into the log at `path`."""
    from finqa.audit.writer import AuditLog
    from finqa.orchestrator.loop import Orchestrator

    # every status a log can hold, best_effort included (unverified answers returned as such)
    settings = Settings().with_overrides({"orchestrator.unverified": "answer"})
    audit = AuditLog(path, run_id=run_id, fsync=False)
    audit.start_run(
        settings, index_version="fake-index", models={"llm": "fake"}, code_version="bench"
    )
    orch = Orchestrator(
        settings, _Retriever(settings, hostile), _Reasoner(hostile), _Judge(settings), audit
    )
    for i in range(questions):
        _, company = COMPANIES[i % len(COMPANIES)]
        text = f"#{i} What was {company}'s sales growth in FY2018?"
        if hostile:
            text += f" {HOSTILE}"
        orch.run(text, question_id=f"q{i:05d}")
    return path


def measure_browser(html: Path, *, timeout_s: float = 120.0) -> dict[str, float]:
    """Open the report in headless Chromium: ms until usable (the page's own clock), wall s."""
    from finqa.audit.report_html import CHROMIUM_ARGS, chromium_path
    from playwright.sync_api import sync_playwright

    args = [a for a in CHROMIUM_ARGS if a != "--headless"]
    with tempfile.TemporaryDirectory() as profile, sync_playwright() as pw:
        ctx = pw.chromium.launch_persistent_context(
            profile, executable_path=chromium_path(), headless=True, args=args
        )
        try:
            page = ctx.new_page()
            t0 = time.perf_counter()
            page.goto(html.resolve().as_uri(), timeout=timeout_s * 1000)
            page.wait_for_selector("#qrows tr", timeout=timeout_s * 1000)
            wall = time.perf_counter() - t0
            page.wait_for_load_state("domcontentloaded")
            timings = page.evaluate("window.finqaTimings")
            parsed = float(page.evaluate("window.finqaParsed"))
        finally:
            ctx.close()
    return {
        "usable_ms": float(timings["ready"]),
        "script_start_ms": float(timings["script"]),
        "data_parsed_ms": float(timings["parsed"]),
        "document_parsed_ms": parsed,
        "wall_s": wall,
    }


def screenshot(
    html: Path, png: Path, *, expand: str | None = None, width: int = 1100, height: int = 1000
) -> Path:
    """A PNG of the report's first screen in headless Chromium, `expand` question opened."""
    from finqa.audit.report_html import CHROMIUM_ARGS, chromium_path
    from playwright.sync_api import sync_playwright

    args = [a for a in CHROMIUM_ARGS if a != "--headless"]
    with tempfile.TemporaryDirectory() as profile, sync_playwright() as pw:
        ctx = pw.chromium.launch_persistent_context(
            profile, executable_path=chromium_path(), headless=True, args=args,
            viewport={"width": width, "height": height},
        )  # fmt: skip
        try:
            page = ctx.new_page()
            page.goto(html.resolve().as_uri())
            page.wait_for_selector("body[data-ready='1']")
            if expand:
                page.click("#runs summary")  # fold the run settings to show the question's life
                page.click(f"#qrows tr.q[data-qid='{expand}']")
            png.parent.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(png))
        finally:
            ctx.close()
    _shrink_png(png)
    return png


def _shrink_png(png: Path) -> None:
    """Re-save with a 64-colour palette (a few times smaller; the page is flat colours)."""
    try:
        from PIL import Image
    except ImportError:
        return
    with Image.open(png) as img:
        small = img.convert("RGB").quantize(colors=64)
    small.save(png, optimize=True)


def _children_cpu() -> float:
    import resource

    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        prog="python -m finqa.benchmarks.report_bench", description=__doc__.split("\n")[0]
    )
    ap.add_argument("--questions", type=int, default=10_000)
    ap.add_argument("--out", default=".finqa/report-bench")
    ap.add_argument("--no-browser", action="store_true")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--screenshot", metavar="LOG", help="only: a PNG of LOG's report (--png)")
    ap.add_argument("--png", default="docs/review-report.png")
    ap.add_argument("--expand", help="with --screenshot: open this question")
    args = ap.parse_args(argv)
    from finqa.agents.logs import configure_logging
    from finqa.audit.report_html import write_report

    configure_logging("warning")
    if args.screenshot:
        with tempfile.TemporaryDirectory() as tmp:
            html, _ = write_report(args.screenshot, Path(tmp) / "review.html")
            print(screenshot(html, Path(args.png), expand=args.expand))
        return 0

    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    log = out / f"audit-{args.questions}.jsonl"
    t0 = time.perf_counter()
    if not log.exists() or not (out / f"{log.name}.done").exists():
        log.unlink(missing_ok=True)
        write_fake_log(log, args.questions)
        (out / f"{log.name}.done").write_text("ok\n")
    gen_s = time.perf_counter() - t0
    t0, c0, k0 = time.perf_counter(), time.process_time(), _children_cpu()
    html, data = write_report(log, out / f"review-{args.questions}.html")
    build_s, build_cpu_s = time.perf_counter() - t0, time.process_time() - c0
    verify_cpu_s = _children_cpu() - k0
    figures: dict[str, Any] = {
        "questions": len(data["questions"]),
        "records": data["log"]["records"],
        "log_mb": round(log.stat().st_size / 1e6, 2),
        "log_generation_s": round(gen_s, 2),
        "build_s": round(build_s, 2),
        # CPU of this process, and of the child that verifies the chain beside it (logs of 8 MB
        # and more on 2+ cores): on an idle machine the build's wall time is about the larger.
        "build_cpu_s": round(build_cpu_s, 2),
        "verify_child_cpu_s": round(verify_cpu_s, 2),
        "load_average_1m": round(os.getloadavg()[0], 1),
        "build_target_s": TARGET_BUILD_S,
        "html_mb": round(html.stat().st_size / 1e6, 2),
        "verify": data["verify"]["label"],
    }
    if not args.no_browser:
        b = measure_browser(html)
        figures["usable_s"] = round(b["usable_ms"] / 1000.0, 3)
        figures["page_loaded_s"] = round(b["script_start_ms"] / 1000.0, 3)
        figures["data_parsed_s"] = round(b["data_parsed_ms"] / 1000.0, 3)
        figures["lives_read_s"] = round(b["document_parsed_ms"] / 1000.0, 3)
        figures["browser_wall_s"] = round(b["wall_s"], 2)
        figures["usable_target_s"] = TARGET_USABLE_S
    if args.json:
        print(json.dumps(figures, indent=2))
    else:
        for k, v in figures.items():
            print(f"{k:20} {v}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
