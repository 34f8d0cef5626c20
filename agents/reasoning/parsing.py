"""Parse an LLM reply into an `Answer`: JSON when possible, plain text otherwise.

`extract_json` (finqa's one JSON-from-LLM extractor, in `agents.llm_client`) reads the reply. The
decoded reply is checked against the reply schema (`schema.ReplyModel`): whether it validated
goes to the answer's confidence (and so to the audit log). A reply carrying a `plan` is computed
by finqa (`plan.execute_plan`): the model's own figures are not used.

Citations resolve against the evidence (`S3` -> doc / page / chunk; unknown ids are dropped and
counted); calculations are re-executed by finqa's own arithmetic (`arith.evaluate`) — the LLM's
result is never trusted, and a disagreement is reported in the answer. A reply without usable
citations is marked uncited.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

from finqa.agents.llm_client import extract_json
from finqa.agents.reasoning.confidence import confidence_signals, is_refusal
from finqa.agents.reasoning.schema import ReplyPlan, validate_reply
from finqa.agents.types import (
    Calculation,
    Citation,
    Evidence,
    EvidenceItem,
    Operand,
    StatementStore,
)
from finqa.lexicon.arith import ArithmeticError_, evaluate, safe_name, variables
from finqa.lexicon.numbers import SCALE_WORDS

__all__ = ["ParsedAnswer", "parse_reply", "extract_json"]  # extract_json: re-exported

_CITE = re.compile(r"\[(S\d+)\]")
_THINK = re.compile(r"<think>.*?</think>", re.DOTALL | re.IGNORECASE)  # local reasoning models


class ParsedAnswer:
    """What the parser made of one reply (fields become an `Answer`)."""

    def __init__(self) -> None:
        self.text = ""
        self.citations: list[Citation] = []
        self.calculations: list[Calculation] = []
        self.abstained = False
        self.confidence: dict[str, Any] = {}  # signals for the audit log (hedging, mode ...)
        # what the reasoner tells the judge (typed `Answer` fields)
        self.missing: list[str] = []  # line items looked for and not found (abstentions)
        self.calc_problems: list[str] = []  # its own calculations it found invalid
        self.invalid_citations = 0  # citations to sources that are not in the evidence


def _quantity(value: Any) -> tuple[float, float] | None:
    """(value as written, scale) of an operand value: 86392, "86,392", "(5,207)", "$1.2 billion"."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int | float):
        return float(value), 1.0
    if not isinstance(value, str):
        return None
    try:
        from finqa.lexicon import parse_quantity

        q = parse_quantity(value)
        if q is not None:
            return float(q.value), float(q.scale or 1.0)
    except ImportError:  # lexicon not installed: minimal fallback below
        pass
    s = value.strip().replace("$", "").replace(",", "").replace("%", "").strip()
    neg = s.startswith("(") and s.endswith(")")
    s = s.strip("()")
    try:
        v = float(s)
    except ValueError:
        return None
    return (-v if neg else v), 1.0


def _number(value: Any) -> float | None:
    q = _quantity(value)
    return None if q is None else q[0]


def _scale(value: Any) -> float:
    if isinstance(value, int | float) and not isinstance(value, bool) and value > 0:
        return float(value)
    if isinstance(value, str):
        low = value.lower()
        for w, s in SCALE_WORDS.items():
            if w in low:
                return s
        n = _number(value)
        if n and n > 0:
            return n
    return 1.0


def _citation(item: EvidenceItem, quote: str) -> Citation:
    page = item.pages[0] if item.pages else 0
    chunk = item.chunk_ids[0] if item.chunk_ids else None
    return Citation(
        source_id=item.source_id, doc_id=item.doc_id, page=page, chunk_id=chunk, quote=quote[:300]
    )


def _in_source(value: Any, text: str) -> bool:
    """Whether an operand value as the model wrote it appears in the cited source's text."""
    from finqa.lexicon import find_in_text, parse_quantity

    written = value if isinstance(value, str) else f"{value}"
    q = parse_quantity(written)
    return q is None or find_in_text(q, text) is not None


def _calculation(
    raw: Mapping[str, Any], evidence: Evidence, problems: list[str]
) -> tuple[Calculation | None, str]:
    expression = str(raw.get("expression") or "").strip()
    ops_raw = raw.get("operands") or []
    if not expression or not isinstance(ops_raw, list):
        return None, "calculation without expression/operands"
    operands: list[Operand] = []
    values: dict[str, float] = {}
    renames: dict[str, str] = {}
    for op in ops_raw:
        if not isinstance(op, Mapping):
            continue
        parsed = _quantity(op.get("value"))
        if parsed is None:
            return None, f"operand {op.get('name')!r} has no numeric value"
        value, written_scale = parsed
        original = str(op.get("name") or f"x{len(operands) + 1}")
        name = safe_name(original)
        renames[original] = name
        source = str(op.get("source") or op.get("source_id") or "") or None
        item = evidence.by_source(source.strip().strip("[]")) if source else None
        if source and item is None:
            problems.append(f"operand {original!r} cites {source}, which is not in the evidence")
            source = None
        elif item is not None and not _in_source(op.get("value"), item.text):
            problems.append(f"operand {original!r} = {op.get('value')} is not in {item.source_id}")
            source = None  # not grounded: the judge must not take it as read from that page
        operands.append(
            Operand(
                name=name,
                value=value,
                unit=str(op.get("unit") or "USD"),
                scale=_scale(op.get("scale")) if op.get("scale") else written_scale,
                period=str(op["period"]) if op.get("period") else None,
                source_id=source.strip("[]") if source else None,
                text=str(op.get("text") or "")[:300],
            )
        )
        values[name] = value
    for original, name in sorted(renames.items(), key=lambda kv: -len(kv[0])):
        if original != name:
            expression = re.sub(rf"(?<![\w]){re.escape(original)}(?![\w])", name, expression)
    try:
        unknown = [v for v in variables(expression) if v not in values]
        if unknown:
            return None, f"expression uses unknown operand(s) {', '.join(unknown)}"
        result = evaluate(expression, values)
    except ArithmeticError_ as exc:
        return None, str(exc)
    claimed = _number(raw.get("result"))
    note = ""
    if claimed is not None and abs(claimed - result) > 0.005 * max(abs(result), 1e-9) + 1e-9:
        note = f"LLM result {claimed:g} disagrees with finqa's {result:g}"
    calc = Calculation(
        expression=expression,
        operands=tuple(operands),
        result=result,
        unit=str(raw.get("unit") or ""),
        description=str(raw.get("description") or "")[:200],
    )
    return calc, note


def parse_reply(
    text: str, evidence: Evidence, *, statements: StatementStore | None = None
) -> ParsedAnswer:
    """Answer text, resolved citations, re-executed calculations and confidence signals
    (a plan's line items are looked up in `statements` first, then the evidence's tables)."""
    out = ParsedAnswer()
    problems: list[str] = []
    text = _THINK.sub("", text)
    data = extract_json(text)
    json_ok = data is not None
    schema_ok, schema_error = validate_reply(data)
    salvaged = False
    if data is None:
        data = _salvage(text)
        salvaged = data is not None
    if data is None:
        out.text = text.strip()
        data = {}
    else:
        answer = data.get("answer", "")
        out.text = (answer if isinstance(answer, str) else json.dumps(answer)).strip()
    plan = _plan(data.get("plan"))
    if plan is not None:
        return _planned(out, plan, evidence, json_ok, schema_ok, schema_error, statements)
    out.citations, invalid = _citations(data.get("citations"), out.text, evidence)
    raw_calcs = data.get("calculations") or []
    for rc in raw_calcs if isinstance(raw_calcs, list) else []:
        if not isinstance(rc, Mapping):
            continue
        calc, note = _calculation(rc, evidence, problems)
        if calc is not None:
            out.calculations.append(calc)
        if note:
            problems.append(note)
    disagreements = [p for p in problems if "disagrees" in p]
    if disagreements:
        out.text += (
            " [finqa recomputed: "
            + "; ".join(
                f"{c.description or c.expression} = {c.result:,.4g}" for c in out.calculations
            )
            + "]"
        )
    out.abstained = bool(data.get("abstain") is True) or is_refusal(out.text)
    if not out.text:
        out.abstained = True
        out.text = "cannot determine from the filings (empty reply)"
    out.confidence = confidence_signals(out.text, cited=bool(out.citations))
    out.confidence.update(
        {
            "json": json_ok,
            "schema_valid": schema_ok,
            "schema_error": schema_error,
            "mode": "free-form",
            "salvaged": salvaged,
            "uncited": not out.citations and not out.abstained,
        }
    )
    out.invalid_citations, out.calc_problems = invalid, list(problems)
    return out


def _citations(raw: Any, text: str, evidence: Evidence) -> tuple[list[Citation], int]:
    """The reply's citations resolved to evidence items (listed ones, then [S<n>] markers in the
    text), and how many named a source that does not exist."""
    cites: dict[tuple[str, str], Citation] = {}
    invalid = 0
    for c in raw if isinstance(raw, list) else []:
        if isinstance(c, str):
            sid, quote = c, ""
        elif isinstance(c, Mapping):
            sid = str(c.get("source") or c.get("source_id") or "")
            quote = str(c.get("quote") or "")
        else:
            sid, quote = "", ""
        item = evidence.by_source(sid.strip().strip("[]"))
        if item is None:
            invalid += 1
            continue
        if quote.strip().startswith("<") and quote.strip().endswith(">"):
            quote = ""  # the prompt's placeholder copied, not a quote
        cites.setdefault((item.source_id, quote), _citation(item, quote))
    for sid in _CITE.findall(text):
        item = evidence.by_source(sid)
        if item is None:
            invalid += 1
        elif not any(k[0] == sid for k in cites):
            cites[(sid, "")] = _citation(item, "")
    return list(cites.values()), invalid


_FIELD = r'"{0}"\s*:\s*"((?:[^"\\]|\\.)*)"'


def _salvage(text: str) -> dict[str, Any] | None:
    """The answer (and abstain flag) of a JSON reply cut off mid-way (token limit), else None."""
    start = text.find("{")
    if start == -1:
        return None
    m = re.search(_FIELD.format("answer"), text[start:])
    if m is None:
        return None
    try:
        answer = json.loads(f'"{m.group(1)}"')
    except json.JSONDecodeError:
        return None
    out: dict[str, Any] = {"answer": answer}
    out["citations"] = re.findall(_FIELD.format("source"), text[start:])
    if re.search(r'"abstain"\s*:\s*true', text[start:]):
        out["abstain"] = True
    return out


def _plan(raw: Any) -> ReplyPlan | None:
    """The reply's plan when it has one with items (a malformed plan counts as none)."""
    if not isinstance(raw, Mapping) or not raw.get("items"):
        return None
    try:
        return ReplyPlan.model_validate(dict(raw))
    except ValueError:
        return None


def _planned(
    out: ParsedAnswer,
    plan: ReplyPlan,
    evidence: Evidence,
    json_ok: bool,
    schema_ok: bool,
    schema_error: str,
    statements: StatementStore | None = None,
) -> ParsedAnswer:
    """The answer finqa computes from the model's plan (or its abstention naming what is missing)."""
    from finqa.agents.reasoning.plan import execute_plan

    outcome = execute_plan(plan, evidence, statements=statements)
    out.text = outcome.text
    out.abstained = outcome.abstained
    out.citations = outcome.citations
    out.calculations = [outcome.calculation] if outcome.calculation is not None else []
    out.confidence = confidence_signals(out.text, cited=bool(out.citations))
    out.confidence.update(
        {
            "json": json_ok,
            "schema_valid": schema_ok,
            "schema_error": schema_error,
            "mode": "plan-abstain" if outcome.abstained else "plan",
            "plan": plan.model_dump(mode="json"),
            "uncited": False,
            "unknown_items": outcome.unknown_items,
        }
    )
    out.calc_problems, out.missing = list(outcome.problems), list(outcome.missing)
    return out
