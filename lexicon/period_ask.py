"""The period type a question asks: a flow over a period or a balance at a date. 'How much cash
did X pay in income taxes during 2020' asks a duration (a verb of flow, 'during'); 'what did X
carry as deferred revenue at the end of fiscal 2022', 'the nature of the restructuring liability
at quarter end' ask an instant. The words are general financial English
(`data/period_words.yaml`, verbs inflected regularly or through `irregular_verbs.txt`); a
question whose words give both, or neither, asks no period type. XBRL concepts carry the same
distinction (`period` of each catalogue entry), so an asked item of the other type answers
another question: the reasoner does not give it and the judge does not accept it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from finqa.lexicon._data import data_cache, read_yaml
from finqa.lexicon.question_frame import base_forms

__all__ = ["PeriodType", "asked_period_type", "flow_verb_at", "names_prior_year", "states_flow"]

PeriodType = Literal["instant", "duration"]

_WORD = re.compile(r"[A-Za-z]+(?:\s+back\b)?")


@dataclass(frozen=True)
class _Words:
    verbs: frozenset[str]
    flow: tuple[re.Pattern[str], ...]
    balance: tuple[re.Pattern[str], ...]
    unsettled: tuple[re.Pattern[str], ...] = ()
    prior: tuple[re.Pattern[str], ...] = ()


@data_cache()
def _words() -> _Words:
    data = read_yaml("period_words.yaml")
    return _Words(
        frozenset(str(v).lower() for v in data["flow_verbs"]),
        tuple(re.compile(p, re.I) for p in data["flow_frames"]),
        tuple(re.compile(p, re.I) for p in data["balance_frames"]),
        tuple(re.compile(p, re.I) for p in data.get("unsettled") or ()),
        tuple(re.compile(p, re.I) for p in data.get("prior_year") or ()),
    )


def names_prior_year(text: str) -> bool:
    """`text` names the period a year before the one asked ('a year earlier', 'the prior
    year', 'last year'), as a reference a figure is compared with."""
    return any(p.search(text) for p in _words().prior)


def _base(word: str) -> str:
    """The base form of a verb form ('paid' -> 'pay', 'collected' -> 'collect', 'incurs' ->
    'incur', 'repurchasing' -> 'repurchase'), by the irregular table, else regular endings."""
    w = word.lower()
    irregular = base_forms()
    if w in irregular:
        return irregular[w]
    verbs = _words().verbs
    for suffix, repl in (
        ("ied", "y"),
        ("ies", "y"),
        ("ed", ""),
        ("ed", "e"),
        ("ing", ""),
        ("ing", "e"),
        ("es", ""),
        ("s", ""),
    ):
        if w.endswith(suffix) and w[: -len(suffix)] + repl in verbs:
            return w[: -len(suffix)] + repl
    return w


def flow_verb_at(text: str) -> re.Match[str] | None:
    """The first verb of flow in `text` ('paid', 'generated', 'bought back'), else None."""
    verbs = _words().verbs
    for m in _WORD.finditer(text):
        if not m.group(0)[0].islower():
            continue  # a name ('Best Buy'), not a verb of the ask
        phrase = " ".join(m.group(0).split()).lower()
        head = phrase.split()[0]
        if _base(head) in verbs or (" " in phrase and f"{_base(head)} back" in verbs):
            return m
    return None


def states_flow(text: str) -> bool:
    """The words state a flow over a period: a verb of flow or a span frame ('during')."""
    flow = _words().flow
    return flow_verb_at(text) is not None or any(rx.search(text) for rx in flow)


def _states_balance(text: str) -> bool:
    return any(rx.search(text) for rx in _words().balance)


def asked_period_type(ask: str) -> PeriodType | None:
    """The period type the ask's words give: 'duration' for a flow, 'instant' for a balance (an
    amount not yet paid is one, whatever verb of flow beside it), None when they give neither or
    both ('shares issued and outstanding')."""
    if any(rx.search(ask) for rx in _words().unsettled):
        return "instant"  # 'acquired on account but not yet paid': owed at a date
    flow, balance = states_flow(ask), _states_balance(ask)
    if flow == balance:
        return None
    return "duration" if flow else "instant"
