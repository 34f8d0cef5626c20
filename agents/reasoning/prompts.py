"""Versioned prompt templates (standard -> conservative -> detailed) and evidence rendering.

Templates live in `agents/reasoning/prompts/<strategy>.v<N>.txt`, with a `[system]` and a `[user]`
part; the id is the file stem (`standard.v1`) and the hash is the SHA-256 of the file bytes — both
go to the audit log. Evidence is rendered with explicit source boundaries (`EvidenceItem.label`
then the text then an end marker) so citations parse back to doc / page / chunk, and evidence text
cannot forge a boundary.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from finqa.agents.errors import ConfigError
from finqa.agents.types import Evidence, Verdict

__all__ = [
    "PromptTemplate",
    "PROMPTS_DIR",
    "load_template",
    "render_evidence",
    "render_feedback",
    "render_messages",
    "STRATEGIES",
]

PROMPTS_DIR = Path(__file__).resolve().parent / "prompts"
STRATEGIES = ("standard", "conservative", "detailed")
_PLACEHOLDER = re.compile(r"\{(question|evidence|feedback)\}")
_BOUNDARY = re.compile(r"<{3,}|>{3,}|\[/?S\d+\]")


@dataclass(frozen=True)
class PromptTemplate:
    id: str  # "standard.v1"
    strategy: str
    system: str
    user: str
    sha256: str


@lru_cache(maxsize=16)
def load_template(strategy: str) -> PromptTemplate:
    """The newest version of the template for `strategy` (raises ConfigError when unknown)."""
    files = sorted(
        PROMPTS_DIR.glob(f"{strategy}.v*.txt"), key=lambda p: int(p.stem.rsplit(".v", 1)[1])
    )
    if not files:
        known = ", ".join(STRATEGIES)
        raise ConfigError(f"unknown prompt strategy {strategy!r} (known: {known})")
    path = files[-1]
    raw = path.read_bytes()
    text = raw.decode("utf-8")
    if "[system]" not in text or "[user]" not in text:
        raise ConfigError(f"prompt template {path.name} needs [system] and [user] parts")
    head, rest = text.split("[system]", 1)
    system, user = rest.split("[user]", 1)
    del head  # comment lines
    return PromptTemplate(
        id=path.stem,
        strategy=strategy,
        system=system.strip(),
        user=user.strip(),
        sha256=hashlib.sha256(raw).hexdigest(),
    )


def _neutralise(text: str) -> str:
    """Evidence text may not forge source boundaries or citation markers."""
    return _BOUNDARY.sub(
        lambda m: (
            m.group(0).replace("<", "‹").replace(">", "›").replace("[", "(").replace("]", ")")
        ),
        text,
    )


def render_evidence(evidence: Evidence, max_chars: int = 24000) -> str:
    """Each item as `label` / text / `end of S#`, in rank order, within `max_chars` of text."""
    blocks: list[str] = []
    budget = max_chars
    for item in evidence.items:
        if budget <= 0:
            break
        body = _neutralise(item.text.strip())
        if len(body) > budget:
            body = body[:budget].rstrip() + " …[truncated]"
        budget -= len(body)
        blocks.append(f"{item.label}\n<<<\n{body}\n>>> end of {item.source_id}")
    return "\n\n".join(blocks) if blocks else "(no evidence)"


def render_feedback(feedback: Verdict | None) -> str:
    """The Judge's diagnosis of the previous attempt, for the retry prompt ('' when none)."""
    if feedback is None:
        return ""
    lines = ["", "Feedback on your previous answer (fix these problems):"]
    if feedback.feedback:
        lines.append(f"- {feedback.feedback.strip()}")
    if feedback.missing_facets:
        lines.append("- Parts of the question not addressed: " + "; ".join(feedback.missing_facets))
    if feedback.unsupported_numbers:
        lines.append(
            "- Numbers not supported by the evidence (re-check or remove): "
            + ", ".join(feedback.unsupported_numbers)
        )
    if feedback.diagnosis:
        lines.append(f"- Diagnosis: {feedback.diagnosis}")
    return "\n".join(lines) + "\n" if len(lines) > 2 else ""


def render_messages(
    template: PromptTemplate,
    question: str,
    evidence: Evidence,
    *,
    feedback: Verdict | None = None,
    max_chars: int = 24000,
) -> list[dict[str, str]]:
    """System + user chat messages for one attempt."""
    values = {
        "question": " ".join(question.split()),
        "evidence": render_evidence(evidence, max_chars),
        "feedback": render_feedback(feedback),
    }
    user = _PLACEHOLDER.sub(lambda m: values[m.group(1)], template.user)
    return [{"role": "system", "content": template.system}, {"role": "user", "content": user}]
