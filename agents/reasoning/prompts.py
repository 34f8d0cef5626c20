"""Versioned prompt templates (standard -> conservative -> detailed) and evidence rendering.

Templates live in `agents/reasoning/prompts/<strategy>.v<N>.txt`, with a `[system]` and a `[user]`
part; the id is the file stem (`standard.v1`) and the hash is the SHA-256 of the file bytes — both
go to the audit log. Evidence is rendered with explicit source boundaries (`EvidenceItem.label`
then the text then an end marker) so citations parse back to doc / page / chunk, and evidence text
cannot forge a boundary.

`{task}` is the reply format finqa asks for: for figure questions the plan form (the line items
finqa read from the evidence are listed; the model names items, periods and the arithmetic, finqa
computes), otherwise a cited answer in words. `{feedback}` is the Judge's diagnosis of the
previous attempt as short imperative lines a small model can act on (what is missing, which
numbers are unsupported, use the plan form).
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
    "render_task",
    "is_figure_question",
    "PROMPTS_DIR",
    "load_template",
    "render_evidence",
    "render_feedback",
    "render_messages",
    "reply_form_text",
    "STRATEGIES",
]

PROMPTS_DIR = Path(__file__).resolve().parent / "prompts"
STRATEGIES = ("standard", "conservative", "detailed")
_PLACEHOLDER = re.compile(r"\{(question|evidence|feedback|task)\}")
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


def render_feedback(feedback: Verdict | None, *, figure: bool = False) -> str:
    """The Judge's diagnosis of the previous attempt as retry instructions ('' when none)."""
    if feedback is None:
        return ""
    lines = ["", "Your previous answer was rejected. Fix this:"]
    if feedback.missing_facets:
        lines.append(
            "- Your answer did not address: "
            + "; ".join(_neutralise(f) for f in feedback.missing_facets)
        )
    if feedback.unsupported_numbers:
        lines.append(
            "- These numbers are not in the evidence, do not use them: "
            + ", ".join(_neutralise(n) for n in feedback.unsupported_numbers)
        )
    if feedback.diagnosis in ("retrieval", "both"):
        lines.append("- The evidence has been searched again: read it again from the start.")
    if feedback.feedback:
        lines.append(f"- Judge's note: {_neutralise(' '.join(feedback.feedback.split()))[:400]}")
    if len(lines) == 2:
        return ""
    if figure:
        lines.append("- Give the figure as a plan (line items and periods); finqa computes it.")
    return "\n".join(lines) + "\n"


_PLAN_FORM = (
    '{"answer": "<one sentence: what you compute>", "plan": {"description": "<what the figure '
    'is, e.g. FY2022 gross margin>", "expression": "<arithmetic over the names, e.g. (a - b) / a '
    '* 100>", "unit": "<USD|%|ratio|days|times>", "items": [{"name": "a", "item": "<line item id '
    'from the list>", "period": "FY2022"}, {"name": "b", "item": "<line item id>", "period": '
    '"FY2022"}]}, "citations": [{"source": "S#", "quote": "<short exact quote>"}], "abstain": false}'
)
_ANSWER_FORM = (
    '{"answer": "<answer in one to three sentences with [S#] citations>", "citations": '
    '[{"source": "S#", "quote": "<short exact quote>"}], "abstain": false}'
)
_CALC_FORM = (
    'If the answer needs a computed figure, add "calculations": [{"description": "<what>", '
    '"expression": "(a - b) / b * 100", "unit": "%", "operands": [{"name": "a", "value": '
    '<number as written>, "scale": <1, 1000 or 1000000>, "period": "FY2022", "source": "S#"}]}]; '
    "finqa recomputes it."
)


def is_figure_question(question: str) -> bool:
    """Whether the question asks for a figure finqa can compute from line items (a metric)."""
    from finqa.lexicon.question_intent import read_intent

    intent = read_intent(question)  # the lexicon's one reading of the question
    if intent.ask.descriptive:  # causes, kinds or names rather than a line item's figure
        return False
    qa = intent.analysis
    return qa is not None and (bool(qa.metrics) or qa.is_computation)


def render_task(
    question: str,
    evidence: Evidence,
    strategy: str,
    *,
    figure: bool | None = None,
    statements: str | None = None,
) -> str:
    """The reply format asked for this attempt: plan form for figures, a cited answer otherwise."""
    figure = is_figure_question(question) if figure is None else figure
    if figure:
        if statements is None:
            from finqa.agents.reasoning.plan import statement_view

            statements = statement_view(evidence)
        if statements:
            return (
                "\nThis question needs a figure. Do not do arithmetic yourself: give a plan and "
                "finqa computes it.\nLine items finqa read from the evidence "
                "(id: period value [source]):\n"
                f"{statements}\n"
                f"Reply with: {_PLAN_FORM}\n"
            )
    from finqa.lexicon.question_intent import read_intent

    yes_no = read_intent(question).ask.is_yes_no
    extra = f" {_CALC_FORM}" if figure or strategy != "standard" else ""
    form = _ANSWER_FORM
    lead = ""
    if yes_no:  # a bare "Yes" is no answer: ask for the verdict with its reason
        lead = "Begin the answer with Yes or No, then give the reason with the figures. "
        form = form.replace(
            "<answer in one to three sentences with [S#] citations>",
            "<Yes or No, then the reason with the figures and [S#] citations>",
        )
    return f"\n{lead}Reply with: {form}{extra}\n"


def reply_form_text() -> str:
    """The instruction text of every reply form a prompt shows (an answer that only restates it says nothing)."""
    yes_no = "<Yes or No, then the reason with the figures and [S#] citations>"
    return " ".join((_ANSWER_FORM, _PLAN_FORM, _CALC_FORM, yes_no))


def render_messages(
    template: PromptTemplate,
    question: str,
    evidence: Evidence,
    *,
    feedback: Verdict | None = None,
    max_chars: int = 24000,
    figure: bool | None = None,
    statements: str | None = None,
) -> list[dict[str, str]]:
    """System + user chat messages for one attempt (`figure`: None asks the lexicon)."""
    figure = is_figure_question(question) if figure is None else figure
    values = {
        "question": " ".join(question.split()),
        "evidence": render_evidence(evidence, max_chars),
        "feedback": render_feedback(feedback, figure=figure),
        "task": render_task(
            question, evidence, template.strategy, figure=figure, statements=statements
        ),
    }
    user = _PLACEHOLDER.sub(lambda m: values[m.group(1)], template.user)
    return [{"role": "system", "content": template.system}, {"role": "user", "content": user}]
