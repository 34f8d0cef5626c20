"""A question that asks two figures or more, each in a part of its own ('What cash balance did X
hold at the end of fiscal 2015, and how much did that balance increase during the year?', 'What
operating margin did the segment earn, and how fast did its revenue grow?'): each part is asked
on its own and the answers are given in the question's order, one after the other.

- The parts are the lexicon's one parse of the question (`lexicon.question_parts`); only a
  question whose every part asks a figure (or asks the part before again for another year,
  'and what was it in fiscal 2018?': that part's question for that year; or asks which side of
  a line its figure is on, 'and was its income tax line an expense or a benefit?', answered
  with the figure and its side) is split (a yes/no, a choice or a cause part is answered by
  the modules that read those).
- A part is asked with what the question said before it as its premise: the question's own
  premise and the earlier parts, stated ('How much cash did X hold at the end of fiscal 2015.
  How much did that balance increase during the year?'), so 'that balance', 'the segment' and
  the year read as the question means them; the question's closing instructions ('Round the
  growth to one decimal') go with every part.
- Every part must be answered, each with a figure of its own: one part the reasoner cannot
  answer, or answers with the figure it gave another part ('how much unearned revenue was added
  during 2015?' read as the balance again), leaves the question to the whole-question reading
  (which the judge checks part by part), never a partial answer.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from finqa.agents.types import Answer, Citation
from finqa.lexicon.question_parts import follow_up_year, question_parts
from finqa.lexicon.sides import asks_side

__all__ = ["part_questions", "joined"]

_FIGURE_FORMS = frozenset({"figure"})


def part_questions(question: str) -> tuple[str, ...] | None:
    """One question per part of a question whose parts (two or more) all ask a figure, each
    with the question's premise and earlier parts before it; None for any other question."""
    q = " ".join(question.split())
    parts = question_parts(q).parts
    if len(parts) < 2 or any(
        p.form not in _FIGURE_FORMS and not (i and follow_up_year(p.text)) and not asks_side(p.text)
        for i, p in enumerate(parts)
    ):
        return None
    first = q.find(parts[0].text)
    last = q.rfind(parts[-1].text)
    if first < 0 or last < 0:
        return None
    premise = q[:first].strip()
    closing = q[last + len(parts[-1].text) :].strip(" ?")
    # a lead-in phrase ('For fiscal 2021,') opens every part; a premise sentence goes before
    lead = premise if premise.endswith(",") else ""
    premise = "" if lead else premise
    out: list[str] = []
    for i, part in enumerate(parts):
        again = follow_up_year(part.text) if i else None
        if again is not None:
            # 'and what was it in fiscal 2018?': the part before, asked for that year
            ask = _for_year(out[-1], again)
            if ask is None:
                return None
            out.append(ask)
            continue
        side = asks_side(part.text)
        # a part asking a line's side reads the earlier parts as its premise (their subject
        # and period), not as asks of their own: 'What was X's tax rate for 2016' is stated
        # as 'X's tax rate for 2016.'
        earlier = " ".join(_stated(_unasked(p.text) if side else p.text, lead) for p in parts[:i])
        ask = _asked(part.text, lead)
        out.append(" ".join(x for x in (premise, earlier, ask, closing) if x))
    return tuple(out)


_YEAR = re.compile(r"(?<!\d)(?:19|20)\d{2}(?!\d)")


def _for_year(question: str, year: int) -> str | None:
    """The question asked for another fiscal year: its one year named replaced (None when it
    names none, or several)."""
    found = {m.group() for m in _YEAR.finditer(question)}
    if len(found) != 1:
        return None
    return _YEAR.sub(str(year), question)


def joined(answers: Sequence[Answer]) -> Answer:
    """The parts' answers as one answer, in the question's order: their texts, citations (each
    once), calculations and what each looked for."""
    first = answers[0]
    seen: set[tuple[str, str]] = set()
    citations: list[Citation] = []
    for a in answers:
        for c in a.citations:
            if (c.source_id, c.quote) not in seen:
                seen.add((c.source_id, c.quote))
                citations.append(c)
    return first.model_copy(
        update={
            "text": " ".join(a.text.strip() for a in answers),
            "citations": tuple(citations),
            "calculations": tuple(c for a in answers for c in a.calculations),
            "missing": tuple(m for a in answers for m in a.missing),
            "calc_problems": tuple(p for a in answers for p in a.calc_problems),
            "confidence": {**first.confidence, "parts": len(answers)},
        }
    )


def answer_parts(question: str, ask: Callable[[str], Answer]) -> Answer | None:
    """Each part's answer by `ask`, joined; None when the question is not one of figure parts,
    or when a part is not answered."""
    subs = part_questions(question)
    if subs is None:
        return None
    answers: list[Answer] = []
    for sub in subs:
        answer = ask(sub)
        if answer.abstained or any(_lead(answer) == _lead(a) for a in answers):
            return None  # a part not answered, or answered with another part's figure
        answers.append(answer)
    return joined(answers)


def _lead(answer: Answer) -> str:
    """An answer's lead statement (its first sentence, without its citations)."""
    first = re.split(r"(?<=[.;])\s", answer.text.strip(), maxsplit=1)[0]
    return re.sub(r"\s*\[[^\]]*\]", "", first).strip()


_ASK_OPENING = re.compile(r"^\s*(?:what|which)\s+(?:was|were|is|are)\s+(?=\S)", re.I)


def _unasked(part: str) -> str:
    """A 'What was X' part as the phrase it asks about ('X')."""
    return _ASK_OPENING.sub("", part, count=1)


def _stated(part: str, lead: str = "") -> str:
    """An earlier part as a statement before the next one ('... hold at the end of 2015.')."""
    text = _opened(part, lead)
    return f"{text}." if text else ""


def _asked(part: str, lead: str = "") -> str:
    """A part as a question of its own ('how much did it grow?' -> 'How much did it grow?')."""
    text = _opened(part, lead)
    return f"{text}?" if text else ""


def _opened(part: str, lead: str) -> str:
    """A part's words without its joining word or question mark, opened by the lead-in phrase
    when there is one ('For fiscal 2021, what ...'), else by a capital."""
    text = re.sub(r"^(?:and|but|also)\s+", "", part.strip(), flags=re.I).rstrip("?").strip()
    if not text:
        return ""
    if lead and not text.startswith(lead):
        return f"{lead} {text[:1].lower()}{text[1:]}"
    return f"{text[:1].upper()}{text[1:]}"
