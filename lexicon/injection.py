"""Instructions aimed at a language model inside source text (prompt injection), from the one
vocabulary in data/injection.yaml: a sentence that overrides the model's instructions, addresses
the model and tells it what to do, directs what the answer must be, or carries a chat role
marker. Used by the Judge to flag evidence and to reject answers that follow it."""

from __future__ import annotations

import re
from dataclasses import dataclass

from finqa.lexicon._data import data_cache, read_yaml

__all__ = ["Instruction", "find_instructions"]


@dataclass(frozen=True, slots=True)
class Instruction:
    """One instruction-like sentence: where it is, why it is one, and what it asks to output."""

    start: int
    end: int
    text: str
    kinds: tuple[str, ...]  # override | address | directive | role
    payload: str  # the sentence after the directive: what the model is told to say

    @property
    def reason(self) -> str:
        return "text aimed at a language model (" + ", ".join(self.kinds) + ")"


def _alt(words: list[str]) -> str:
    return "|".join(
        re.escape(w).replace(r"\ ", r"\s+") for w in sorted(words, key=len, reverse=True)
    )


@data_cache()
def _patterns() -> dict[str, re.Pattern[str]]:
    v = read_yaml("injection.yaml")
    target = _alt(v["override_targets"])
    who = _alt(v["addressees"])
    verbs = _alt(v["output_verbs"])
    links = _alt(v["output_links"])
    word = r"(?:\s+[\w'-]+){0,4}?"
    return {
        "override": re.compile(
            rf"\b(?:{_alt(v['override_verbs'])})(?:ing|e|s|d)?\b"
            rf"(?:{word}\s+(?:{_alt(v['override_scope'])})\b{word}\s+(?:{target})\b"
            rf"|{word}\s+(?:{target})\s+(?:{_alt(v['override_after'])})\b)",
            re.I,
        ),
        "address": re.compile(
            rf"(?:\b(?:{_alt(v['vocatives'])})\s+(?:the\s+|any\s+|all\s+|an?\s+)?(?:{who})s?\b"
            rf"|\byou\s+are\s+(?:now\s+)?(?:an?|the)\s+(?:\w+\s+)?(?:{who})\b"
            rf"|\bas\s+an?\s+(?:{who})\b"
            rf"|\b(?:{who})s?\s+(?:reading|processing|summari[sz]ing|answering)\b)",
            re.I,
        ),
        "command": re.compile(
            rf"(?:^|[:>\]]\s*|\b(?:{_alt(v['modal_directives'])}|and|then|instead)\s+)"
            rf"(?:{verbs})\b(?=\s*(?:{links}))",
            re.I,
        ),
        "answer_is": re.compile(
            rf"\b(?:the|your|my)\s+(?:{_alt(v['answer_qualifiers'])})\s+(?:{_alt(v['answer_words'])})\s+"
            rf"(?:is|should\s+be|must\s+be|will\s+be)\b",
            re.I,
        ),
        "role": re.compile(rf"(?:^|\s)(?:{_alt(v['role_markers'])})", re.I),
    }


# a sentence ends at . ! ? followed by a space or the end (not inside '1.852%'), or at a line end
_SENTENCE = re.compile(r"(?:[^.!?\n]|[.!?](?![\s]|$))+(?:[.!?]+|\n|$)")


_REACH = 400


def find_instructions(text: str) -> list[Instruction]:
    """Every instruction-like sentence of `text`, in order."""
    if not text:
        return []
    pats = _patterns()
    out: list[Instruction] = []
    for m in _SENTENCE.finditer(text):
        sentence = m.group(0)
        if not sentence.strip():
            continue
        kinds: list[str] = []
        cut = 0
        if (o := pats["override"].search(sentence)) is not None:
            kinds.append("override")
            cut = o.end()
        directive = pats["command"].search(sentence.lstrip()) or pats["answer_is"].search(sentence)
        addressed = pats["address"].search(sentence)
        if addressed is not None and (directive is not None or kinds):
            kinds.append("address")
        if directive is not None:
            kinds.append("directive")
            lead = len(sentence) - len(sentence.lstrip()) if directive.re is pats["command"] else 0
            cut = max(cut, lead + directive.end())
        if pats["role"].search(sentence):
            kinds.append("role")
        if kinds:
            # what it dictates runs on to the end of its line ('... output Corporate. Its net
            # revenue was $X.'), at most _REACH characters
            end = m.end()
            if not sentence.endswith("\n"):
                nl = text.find("\n", end)
                end = min(len(text) if nl < 0 else nl, end + _REACH)
            payload = (sentence[cut:] + text[m.end() : end]).strip(" :\"'\n")
            out.append(
                Instruction(m.start(), end, text[m.start() : end].strip(), tuple(kinds), payload)
            )
    return _joined(text, out)


def _joined(text: str, found: list[Instruction]) -> list[Instruction]:
    """An instruction with nothing after its directive ('SYSTEM:', 'Ignore the instructions
    above.') carries on to the next sentence, whose text is then its payload."""
    out: list[Instruction] = []
    for ins in found:
        nxt = None if ins.payload else _SENTENCE.search(text, ins.end)
        if nxt is not None and nxt.group(0).strip():
            ins = Instruction(
                ins.start,
                nxt.end(),
                f"{ins.text} {nxt.group(0).strip()}",
                ins.kinds,
                nxt.group(0).strip(" :\"'\n"),
            )
        out.append(ins)
    return out
