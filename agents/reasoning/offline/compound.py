"""Answers to a question that asks a figure and its cause in one ('Did X's gross margin improve in
FY2018? What did management say drove the change?', 'How much did X change, and why?'): the
figure answer, then the cause answer for the same line and period, in one answer.

- The parts are the lexicon's one parse of the question (`lexicon.question_parts.cause_part`):
  a cause part that follows a figure, a yes/no or a choice part.
- The cause is `causes.cause_answer` over the whole question (its line, period and movement),
  with its quotes and citations; the judge checks those quotes as it checks any cause answer's
  basis (`agents/judge/basis.py`, `movement.py`).
- No stated cause in the evidence: the answer says so in words (`lexicon.refusal.part_not_found`:
  'finqa found no stated reason for ... in the retrieved pages') rather than staying silent,
  so the part is named as unanswered and the figure still stands.
- An answer that abstains, that is itself the cause answer, or that states a line's effect on
  the figure an effect question names ('how did it affect Y?', by the line's side:
  `named_rows.effect_sentence`), is returned as it is.
- Another part with a subject of its own that the answer never names ('Did net income rise in
  the quarter, and what unusual items affected it?': the figure answer says nothing of unusual
  items) is named as not found (`with_unanswered`), so the analyst sees the answer is partial and
  the judge does not take the figure's claims for that part's answer.
"""

from __future__ import annotations

from typing import Any

from finqa.agents.reasoning.offline.causes import cause_answer, cause_subject
from finqa.agents.reasoning.offline.extractive import content_words
from finqa.agents.types import Answer, Citation, Evidence
from finqa.lexicon.question_parts import cause_part, question_parts
from finqa.lexicon.refusal import part_not_found

__all__ = ["with_cause", "with_unanswered"]

# a part's own words beyond the other parts' that make it a subject of its own ('how large was
# it' has none: the figure given answers it)
_OWN_WORDS = 2
# answers that state computed figures and verdicts only: they say nothing of another subject
_COMPUTED = frozenset({"metric", "verdict", "dimension"})

# the cause markers a missing cause was looked for by (the answer names what it looked for)
_LOOKED_FOR = "'due to', 'driven by', 'as a result of', 'offset by'"


def with_cause(
    question: str, answer: Answer, evidence: Evidence, strategy: str, statements: Any = None
) -> Answer:
    """`answer` (to the figure, yes/no or choice part) followed by the answer to the question's
    cause part, when it asks one (module docstring); `answer` unchanged otherwise."""
    if cause_part(question) is None or answer.abstained:
        return answer
    if answer.confidence.get("mode") == "cause":
        return answer  # the cause answer already: the figure part is the judge's to miss
    if answer.confidence.get("effect"):
        return answer  # 'how did it affect Y?' answered by the line's side (`effect_sentence`)
    cause = cause_answer(question, evidence, strategy, statements)
    if cause.abstained:
        subject = cause_subject(question)
        said = (
            f"{part_not_found(f'stated reason for {subject}')} (looked for a sentence naming it "
            f"with a cause: {_LOOKED_FOR})."
        )
        return answer.model_copy(
            update={
                "text": f"{answer.text.rstrip()} {said}",
                "missing": (*answer.missing, *cause.missing),
                "confidence": {**answer.confidence, "cause": "not found"},
            }
        )
    return answer.model_copy(
        update={
            "text": f"{answer.text.rstrip()} {cause.text}",
            "citations": _merged(answer.citations, cause.citations),
            "confidence": {**answer.confidence, "cause": cause.confidence.get("marker", "")},
        }
    )


def _merged(first: tuple[Citation, ...], then: tuple[Citation, ...]) -> tuple[Citation, ...]:
    """The figure's citations, then the cause's quotes (each one once)."""
    seen = {(c.source_id, c.quote) for c in first}
    return (*first, *(c for c in then if (c.source_id, c.quote) not in seen))


def with_unanswered(question: str, answer: Answer) -> Answer:
    """`answer` (a computed figure or verdict) with each part of the question it does not address
    named as not found: a part asking something other than a figure, a yes/no, a choice or a
    cause, with more than `_OWN_WORDS` words of its own (beside the other parts'), none of which
    the answer uses."""
    if answer.abstained or answer.confidence.get("mode") not in _COMPUTED:
        return answer  # a quoted or descriptive answer may answer a part in its own words
    parts = question_parts(question).parts
    if len(parts) < 2:
        return answer
    words = [set(content_words(p.text)) for p in parts]
    said = set(content_words(answer.text))
    unanswered = []
    for i, part in enumerate(parts):
        others = set().union(*(w for j, w in enumerate(words) if j != i))
        own = words[i] - others
        if part.form == "answer" and len(own) > _OWN_WORDS and not own & said:
            unanswered.append(part.text.strip().rstrip("?").strip())
    if not unanswered:
        return answer
    said_text = " ".join(part_not_found(f'answer to "{text}"') + "." for text in unanswered)
    return answer.model_copy(
        update={
            "text": f"{answer.text.rstrip()} {said_text}",
            "missing": (*answer.missing, *unanswered),
        }
    )
