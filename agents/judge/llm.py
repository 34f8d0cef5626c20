"""Optional LLM judge: entailment of each content claim against the evidence it cites.

It adds a check to, never replaces, the deterministic ones: the agent lets it lower the
grounding score (the mean of the two), never raise it, so it cannot lift a deterministic failure;
a claim whose number failed the deterministic check counts unsupported whatever the LLM says.
Any LLM failure leaves the deterministic verdict standing.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

from finqa.agents.errors import FinqaError
from finqa.agents.judge.evidence import EvidenceView
from finqa.agents.judge.grounding import ClaimCheck
from finqa.agents.llm_client import extract_json
from finqa.agents.types import LLMClient, LLMUsage

__all__ = ["llm_grounding", "ENTAILMENT_PROMPT"]

ENTAILMENT_PROMPT = (
    "You check claims against SEC filing excerpts. For each numbered claim say whether the "
    "excerpts SUPPORT it, CONTRADICT it, or NOT_ENOUGH information is given. Reply with JSON "
    'only: {"labels": ["supported"|"contradicted"|"not_enough", ...]} in claim order.'
)
_MAX_EVIDENCE_CHARS = 12000
_LABELS = {"supported", "contradicted", "not_enough"}


def _evidence_block(view: EvidenceView, claims: Sequence[ClaimCheck]) -> str:
    wanted = {s for c in claims for s in c.sources} | {c.source for c in claims if c.source}
    sources = [s for s in view.sources if s.source_id in wanted] or list(view.sources)
    out, used = [], 0
    for s in sources:
        chunk = s.text[: max(0, _MAX_EVIDENCE_CHARS - used)]
        if not chunk:
            break
        out.append(f"[{s.label()}]\n{chunk}")
        used += len(chunk)
    return "\n\n".join(out)


def _parse(text: str, n: int) -> list[str] | None:
    data = extract_json(text)
    labels = data.get("labels") if data is not None else None
    if not isinstance(labels, list) or len(labels) != n:
        return None
    out = [str(x).strip().lower() for x in labels]
    return out if all(x in _LABELS for x in out) else None


def llm_grounding(
    llm: LLMClient, question: str, claims: list[ClaimCheck], view: EvidenceView
) -> tuple[float | None, dict[str, Any]]:
    """(LLM grounding score or None, details). Sets `ClaimCheck.llm` on each content claim."""
    content = [c for c in claims if c.content]
    info: dict[str, Any] = {"model": getattr(llm, "model", ""), "claims": len(content)}
    if not content or not view:
        info["status"] = "skipped"
        return None, info
    listing = "\n".join(f"{i + 1}. {c.text}" for i, c in enumerate(content))
    messages = [
        {"role": "system", "content": ENTAILMENT_PROMPT},
        {
            "role": "user",
            "content": f"Question: {question}\n\nExcerpts:\n{_evidence_block(view, content)}\n\nClaims:\n{listing}",
        },
    ]
    started = time.perf_counter()
    try:
        response = llm.complete(messages, json_mode=True, temperature=0.0)
    except FinqaError as exc:  # the call failed: its time still counts, the score is not given
        info["status"] = f"error: {exc}"
        elapsed_ms = (time.perf_counter() - started) * 1000
        info["usage"] = LLMUsage(calls=1, latency_ms=elapsed_ms).model_dump()
        return None, info
    usage = response.usage
    if not usage.latency_ms:  # a client that does not time its calls: time it here
        usage = usage.model_copy(update={"latency_ms": (time.perf_counter() - started) * 1000})
    info["usage"] = usage.model_copy(update={"calls": max(usage.calls, 1)}).model_dump()
    labels = _parse(response.text, len(content))
    if labels is None:
        info["status"] = "unparseable reply"
        return None, info
    supported = 0
    for claim, label in zip(content, labels, strict=True):
        claim.llm = label
        if label == "supported" and not claim.failed_numbers:
            supported += 1
    info["status"] = "ok"
    info["labels"] = labels
    return supported / len(content), info
