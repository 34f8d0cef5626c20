"""How a QAResult reads in a terminal (`finqa ask`, `finqa demo`)."""

from __future__ import annotations

from typing import TextIO

from finqa.agents.terminal import printable
from finqa.orchestrator.result import QAResult

__all__ = ["render_result"]


def render_result(result: QAResult, out: TextIO, *, verbose: bool = True) -> None:
    """A human-readable answer: status, answer, citations (doc, page), calculations, attempts.

    Control characters in the question, the answer or a quote are written as escapes
    (`finqa.agents.terminal.printable`): filing text cannot drive the terminal."""

    def say(line: str) -> None:
        out.write(printable(line))

    best = f", best attempt {result.best_attempt}" if result.best_attempt else ""
    say(f"Q: {result.question}\n")
    say(f"A: {result.answer}\n")
    count = (
        f"{len(result.legs)} legs, lowest leg utility"
        if result.legs
        else f"{len(result.attempts)} attempt(s){best}"
    )
    say(f"   status: {result.status} (utility {result.utility:.2f}, {count})\n")
    if result.reason:
        say(f"   why: {result.reason}\n")
    for c in result.citations:
        quote = " ".join(c.quote.split())
        quote = f' "{quote[:100]}{"..." if len(quote) > 100 else ""}"' if quote else ""
        where = f"p. {c.printed_page} ({c.page_label_source}; index {c.page})"
        tag = f" (tag {c.xbrl_concept})" if c.xbrl_concept else ""
        say(f"   cite [{c.source_id}] {c.doc_id} {where}{quote}{tag}\n")
    for calc in result.calculations:
        ops = ", ".join(f"{o.name}={o.value:g}" for o in calc.operands)
        say(
            f"   calc {calc.description or calc.expression}: {calc.expression} with {ops} = {calc.result:g} {calc.unit}\n"
        )
    for leg in result.legs:
        where = ", ".join(f"{c.doc_id} p. {c.printed_page}" for c in leg.citations[:2])
        say(f"   leg {leg.index} {leg.label}: {leg.shown} [{leg.status}] {where}\n")
    if verbose:
        for a in result.attempts:
            say(
                f"   attempt {a.attempt}: k={a.k} rse={'on' if a.rse else 'off'} strategy={a.strategy} "
                f"U={a.utility:.2f} tau={a.threshold:.2f} -> {a.decision}"
                + (f" (diagnosis: {a.diagnosis})" if a.diagnosis else "")
                + "\n"
            )
    if result.error:
        say(f"   error: {result.error}\n")
    say(f"   audit: {result.audit_log}\n")  # where this answer's trail was written
    say(f"   run {result.run_id}, question {result.question_id}\n")
