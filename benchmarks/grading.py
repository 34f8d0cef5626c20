"""Deterministic grading of an answer against a FinanceBench-style gold answer.

`grade(question, gold, predicted)` returns a `Grade` with a label (`correct`, `wrong`,
`abstained`, `ungraded`), the kind of gold answer (`numeric`, `yes_no`, `text`) and a one-line
detail saying why. The rules, in order:

- An abstention (`abstained=True`, or a refusal phrase such as "cannot determine" or "not enough
  information" in an answer that does not state every key number of the gold) is `abstained`.
- yes/no gold ("Yes. Corning had a positive working capital of $831 million"): the leading
  yes/no of the prediction must equal the gold's. Without a yes/no in the prediction the gold's
  key numbers decide (all matched: correct; some matched: ungraded; numbers given but none of
  the key ones: wrong).
- numeric gold ("$5818.00", "2.8%", "0.83"): correct when a number of the prediction matches it,
  unit- and scale-aware (the question's "Answer in USD millions" sets the scale of bare
  amounts; percent vs ratio; "x"/"times"), within `rel_tol` relative or within the rounding of the
  gold's written precision; wrong otherwise.
- a choice among options the question lists itself ("Among operations, investing and financing
  activities, which ..."): when the gold names exactly one of them, the prediction's first
  sentence must name that one and no other (`lexicon.intent.choice_options`).
- other text: correct only on a clear match (every key number of the gold, or every content word
  of a short entity answer such as "Data Center"). Wrong when the answer clearly misses the gold:
  it states none of the gold's key numbers and fewer than half of the gold's own content words,
  or (a gold without key numbers, of at least `MIN_GOLD_WORDS` content words) at most
  `MAX_MISS_RECALL` of them. Content words are the gold's words that the question does not
  already use, without stop words and without a grader's note about the answer itself ("The
  answer here assumes ..."). Otherwise `ungraded` (reported separately). These rules only ever
  grade an answer wrong on missing content; a text answer is never made correct by word overlap.

Numbers are parsed with the lexicon (`lexicon.extract_quantities`), never compared as strings.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

from finqa.agents.types import Frozen
from finqa.lexicon import Quantity, extract_quantities, intent
from finqa.lexicon.numbers import SCALE_WORDS, question_scale
from finqa.lexicon.refusal import is_refusal

__all__ = [
    "Grade",
    "GradeLabel",
    "GradeKind",
    "grade",
    "is_abstention",
    "question_scale",
    "content_recall",
    "MIN_GOLD_WORDS",
    "MAX_MISS_RECALL",
]

GradeLabel = Literal["correct", "wrong", "abstained", "ungraded"]
GradeKind = Literal["numeric", "yes_no", "text"]


class Grade(Frozen):
    """The grader's verdict on one answer, with the gold's key numbers and what matched them."""

    label: GradeLabel
    kind: GradeKind
    detail: str = ""
    key_numbers: tuple[str, ...] = ()
    matched: tuple[str, ...] = ()


_YES_NO = re.compile(r"^\W*(?:(?:final\s+)?answer\s*[:\-]\s*)?\W*(yes|no)\b", re.IGNORECASE)
_NEGATIVE_WORDS = re.compile(
    r"\b(?:negative|decreas\w*|declin\w*|loss(?:es)?|drop\w*|lower|deficit|down|fell|fall\w*|"
    r"reduc\w*|shr[iu]nk\w*|contract\w*)\b",
    re.IGNORECASE,
)
_PERIOD_PREFIX = re.compile(r"(?:FY|Q[1-4]|H[12]|fiscal(?: year)?|year|CY)\s*'?$", re.IGNORECASE)
_STOPWORDS = frozenset(
    re.findall(
        r"\w+",
        "a an the and or of in on for to by with its it is was were are be as at from that this "
        "which who whom their his her our",
    )
)
_MAX_WORDS_AROUND_NUMBER = 8  # "AES has converted inventory 9.5 times in FY 2022" is numeric
_MAX_NUMBERS_FOR_KEY_MATCH = 12  # more numbers than this (a quoted table) prove nothing
# a text answer is graded wrong on missing content only when the gold has enough words of its own
# to miss (a 2-word gold is too short to say an answer misses it) and the answer holds at most
# one in five of them (measurement rules, fixed before reading the answers they grade)
MIN_GOLD_WORDS = 4
MAX_MISS_RECALL = 0.2
# a gold sentence about the answer itself is a note to graders, not part of the answer
_GRADER_NOTE = re.compile(r"\b(?:the|this) answer\b", re.IGNORECASE)
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")
_CONTENT_STOP = frozenset(
    re.findall(
        r"\w+",
        "also because but not than then there these those has have had been being can could "
        "will would should may might into over under about while such more most less per its "
        "did does was were is are company fiscal year years",
    )
)
_FIRST_SENTENCE = re.compile(r"^(.+?[.!?])(?:\s|$)", re.DOTALL)
_MONEY = frozenset({"USD", "USD/share"})
_PCT = frozenset({"%", "bps"})
_DIMLESS = frozenset({"ratio", "times", "days"})


def is_abstention(text: str) -> bool:
    """True when the text declines to answer ("cannot determine", "not enough information")."""
    return is_refusal(text)


def grade(
    question: str,
    gold: str,
    predicted: str,
    *,
    abstained: bool = False,
    rel_tol: float = 0.01,
) -> Grade:
    """Grade `predicted` against `gold` for `question` (see the module docstring for the rules)."""
    scale = question_scale(question)
    gold = _without_notes(gold)
    keys = _key_numbers(gold, question)
    kind = _kind(gold, keys)
    key_texts = tuple(k.text for k in keys)
    if abstained:
        return Grade(label="abstained", kind=kind, detail="answer abstains", key_numbers=key_texts)
    pred_numbers = [q for q in extract_quantities(predicted) if not _is_period(q, predicted)]
    matched, missing = _match_keys(keys, pred_numbers, gold, predicted, scale, rel_tol)
    if is_abstention(predicted) and (missing or not keys):
        # A refusal phrase abstains, unless the hedged answer still states every key number.
        return Grade(label="abstained", kind=kind, detail="answer abstains", key_numbers=key_texts)
    heads = pred_numbers
    if kind == "numeric":
        # Only the headline numbers count (first and last stated), not operands or quoted tables.
        heads = _headline(pred_numbers, len(pred_numbers) > _MAX_NUMBERS_FOR_KEY_MATCH)
        matched, missing = _match_keys(keys, heads, gold, predicted, scale, rel_tol)
    found = _Found(keys, pred_numbers, heads, matched, missing)
    if kind == "text":
        label, detail = _grade_choice(question, gold, predicted) or _grade_text(
            gold, predicted, found, content_recall(question, gold, predicted)
        )
    else:
        judge = {"yes_no": _grade_yes_no, "numeric": _grade_numeric}[kind]
        label, detail = judge(gold, predicted, found)
    return Grade(
        label=label,
        kind=kind,
        detail=detail,
        key_numbers=key_texts,
        matched=tuple(m.text for m in matched),
    )


@dataclass(frozen=True)
class _Found:
    """The gold's key numbers and what the answer states of them."""

    keys: Sequence[Quantity]
    numbers: Sequence[Quantity]  # every number the answer states (periods excluded)
    heads: Sequence[Quantity]  # the headline numbers (numeric answers), else all of them
    matched: Sequence[Quantity]
    missing: Sequence[Quantity]

    @property
    def too_many(self) -> bool:
        return len(self.numbers) > _MAX_NUMBERS_FOR_KEY_MATCH


def _grade_yes_no(gold: str, predicted: str, f: _Found) -> tuple[GradeLabel, str]:
    want, got = _leading_yes_no(gold), _leading_yes_no(predicted)
    if got is not None:
        if got == want:
            return "correct", f"leading {got!r} matches the gold"
        return "wrong", f"leading {got!r}, gold says {want!r}"
    if f.keys and f.too_many:
        return "ungraded", f"no yes/no; {len(f.numbers)} numbers, too many to judge"
    if f.keys and not f.missing:
        return "correct", "no yes/no in the answer; every key number matches"
    if f.matched:
        return "ungraded", f"no yes/no; key numbers partly matched, missing {_join(f.missing)}"
    if f.keys and f.numbers:
        return "wrong", f"no yes/no in the answer; unmatched: {_join(f.missing)}"
    return "ungraded", "no yes/no in the answer and no key number to compare"


def _grade_numeric(gold: str, predicted: str, f: _Found) -> tuple[GradeLabel, str]:
    if not f.missing:
        return "correct", f"{_join(f.matched)} matches gold {_join(f.keys)}"
    if not f.numbers:
        return "wrong", f"no number in the answer; gold {_join(f.keys)}"
    return "wrong", f"gold {_join(f.keys)} is not the answer's {_join(f.heads)}"


def _grade_text(
    gold: str, predicted: str, f: _Found, recall: tuple[int, float]
) -> tuple[GradeLabel, str]:
    words, share = recall
    if f.keys and f.too_many:
        return "ungraded", f"text answer with {len(f.numbers)} numbers, too many to judge"
    if f.keys and not f.missing:
        return "correct", f"every key number matches ({_join(f.matched)})"
    if f.keys and f.matched:
        return "ungraded", f"text answer; key numbers partly matched, missing {_join(f.missing)}"
    if not f.keys and _entity_match(gold, predicted):
        return "correct", "short text answer: every content word of the gold is present"
    if f.keys and share < 0.5:
        return "wrong", (
            f"text answer states none of the gold's key numbers ({_join(f.keys)}) and "
            f"{share:.0%} of its {words} content words"
        )
    if not f.keys and words >= MIN_GOLD_WORDS and share <= MAX_MISS_RECALL:
        return "wrong", f"text answer holds {share:.0%} of the gold's {words} content words"
    return "ungraded", "text answer without a clear key number or entity match"


def _grade_choice(question: str, gold: str, predicted: str) -> tuple[GradeLabel, str] | None:
    """A pick among the options the question lists: the gold names one, the prediction's first
    sentence must name it and no other; None when this rule does not apply."""
    if not intent.asks_choice(question):
        return None
    options = intent.choice_options(question)
    if not options:
        return None
    want = _named_options(options, gold)
    if len(want) != 1:
        return None
    m = _FIRST_SENTENCE.match(predicted.strip())
    got = _named_options(options, m.group(1) if m else predicted)
    if len(got) != 1:
        return None
    if got == want:
        return "correct", f"names the option the gold names ({want[0]!r})"
    return "wrong", f"names {got[0]!r}; the gold names {want[0]!r}"


def _without_notes(gold: str) -> str:
    """The gold without its sentences about the answer itself ('The answer here assumes FY2023
    refers to ...'): a note to graders, not part of the answer."""
    kept = [x for x in _SENTENCE_END.split(gold.strip()) if not _GRADER_NOTE.search(x)]
    return " ".join(kept) if kept else gold


def _named_options(options: Sequence[str], text: str) -> list[str]:
    bag = _stems(text)
    return [o for o in options if _stems(o) and _stems(o) <= bag]


def _stem(w: str) -> str:
    """The grader's own crude stem, two suffixes deep ('materially' and 'material' meet): kept
    apart from the lexicon's stemmer so that a change there does not move the yardstick that
    scores it."""
    for _ in range(2):
        for suf in ("ality", "ities", "ity", "ly", "ing", "ies", "ed", "es", "al", "s"):
            if w.endswith(suf) and len(w) - len(suf) >= 4:
                w = w[: -len(suf)]
                break
    return w


def _stems(text: str) -> set[str]:
    """Content words, stemmed; a final 'e' dropped so 'airline' and 'airlines' meet."""
    words = re.findall(r"[a-z][a-z0-9&]+", text.lower())
    out = set()
    for w in words:
        if len(w) <= 2 or w in _STOPWORDS or w in _CONTENT_STOP:
            continue
        s = _stem(w)
        out.add(s[:-1] if s.endswith("e") and len(s) > 4 else s)
    return out


def content_recall(question: str, gold: str, predicted: str) -> tuple[int, float]:
    """(number of the gold's own content words, share of them the prediction uses): the gold's
    words the question does not already use, stemmed, without a grader's note about the answer."""
    own = _stems(_without_notes(gold)) - _stems(question)
    if not own:
        return 0, 0.0
    return len(own), len(own & _stems(predicted)) / len(own)


def _headline(numbers: Sequence[Quantity], dump: bool) -> list[Quantity]:
    """The numbers an answer states as its result: the first and the last one (only the first
    after a long list of numbers, whose last one is an arbitrary table cell)."""
    if dump:
        return list(numbers[:1])
    if len(numbers) <= 2:
        return list(numbers)
    return [numbers[0], numbers[-1]]


# --------------------------------------------------------------------------- gold analysis


def _kind(gold: str, keys: Sequence[Quantity]) -> GradeKind:
    if _leading_yes_no(gold) is not None:
        return "yes_no"
    if len(keys) == 1 and _is_mostly_number(gold, keys[0]):
        return "numeric"
    return "text"


def _is_mostly_number(gold: str, q: Quantity) -> bool:
    rest = (gold[: q.start] + " " + gold[q.end :]).lower()
    for word in SCALE_WORDS:
        rest = rest.replace(word, " ")
    words = re.findall(r"[a-z]+", rest)
    return len(words) <= _MAX_WORDS_AROUND_NUMBER


def _key_numbers(gold: str, question: str) -> list[Quantity]:
    """The numbers that carry the gold's answer: not periods, not numbers restated from the question."""
    found = [q for q in extract_quantities(gold) if not _is_period(q, gold)]
    if len(found) <= 1:
        return found
    asked = [q for q in extract_quantities(question) if not _is_period(q, question)]
    kept = [q for q in found if not any(_same_number(q, a) for a in asked)]
    return kept or found


def _is_period(q: Quantity, text: str) -> bool:
    """Years ("2022", "FY 2022"), dates, references ("Note 5") and period labels are not answers."""
    if getattr(q, "kind", "number") != "number":
        return True
    if q.unit not in ("", None) or q.scale != 1 or q.decimals:
        return False
    if 1900 <= q.value <= 2100:
        return True
    if _is_name_part(q, text):
        return True
    return bool(_PERIOD_PREFIX.search(text[max(0, q.start - 12) : q.start]))


def _is_name_part(q: Quantity, text: str) -> bool:
    """A number written into a name ('COVID-19', 'A-10'), not a figure: a bare number joined by
    a hyphen to the word before it."""
    before = text[max(0, q.start - 2) : q.start]
    return len(before) == 2 and before[1] == "-" and before[0].isalpha()


def _same_number(a: Quantity, b: Quantity) -> bool:
    return a.unit == b.unit and math.isclose(a.value * a.scale, b.value * b.scale, rel_tol=1e-9)


def _leading_yes_no(text: str) -> str | None:
    m = _YES_NO.match(text)
    return m.group(1).lower() if m else None


def _entity_match(gold: str, predicted: str) -> bool:
    words = [w for w in re.findall(r"[a-z0-9&]+", gold.lower()) if w not in _STOPWORDS]
    if not words or len(words) > 8:
        return False
    have = set(re.findall(r"[a-z0-9&]+", predicted.lower()))
    return all(w in have for w in words)


def _join(items: Iterable[Quantity | str]) -> str:
    return ", ".join(i if isinstance(i, str) else repr(i.text) for i in items) or "-"


# --------------------------------------------------------------------------- number matching


def _match_keys(
    keys: Sequence[Quantity],
    preds: Sequence[Quantity],
    gold: str,
    predicted: str,
    scale: float | None,
    rel_tol: float,
) -> tuple[list[Quantity], list[Quantity]]:
    """For each key number, the first predicted number matching it; (matched preds, missing keys)."""
    matched: list[Quantity] = []
    missing: list[Quantity] = []
    for key in keys:
        hit = next(
            (p for p in preds if numbers_match(key, p, gold, predicted, scale, rel_tol)), None
        )
        if hit is None:
            missing.append(key)
        else:
            matched.append(hit)
    return matched, missing


def numbers_match(
    g: Quantity,
    p: Quantity,
    gold_text: str = "",
    pred_text: str = "",
    scale: float | None = None,
    rel_tol: float = 0.01,
) -> bool:
    """True when predicted `p` states gold `g` (unit/scale-aware, sign-aware, tolerant to rounding)."""
    if not _units_compatible(g.unit or "", p.unit or ""):
        return False
    for gv, gstep in _candidates(g, p.unit or "", scale, _explicit(p), is_gold=True):
        for pv, _ in _candidates(p, g.unit or "", scale, _explicit(g), is_gold=False):
            if _close(gv, pv, gstep, rel_tol) or (
                (gv < 0) != (pv < 0)
                and _close(abs(gv), abs(pv), gstep, rel_tol)
                and _negation_explained(p if gv < 0 else g, pred_text if gv < 0 else gold_text)
            ):
                return True
    return False


def _explicit(q: Quantity) -> bool:
    """A scale word was written ('$1.6 billion'), or a header/caller gave one."""
    source = getattr(q, "scale_source", None)
    return source in ("explicit", "default") if source is not None else q.scale != 1


def _units_compatible(gu: str, pu: str) -> bool:
    if not gu or not pu or gu == pu:
        return True
    groups = (_MONEY, _PCT | _DIMLESS - {"days"}, _DIMLESS)
    return any(gu in grp and pu in grp for grp in groups)


def _candidates(
    q: Quantity, other_unit: str, scale: float | None, other_explicit: bool, *, is_gold: bool
) -> list[tuple[float, float]]:
    """(value in base units, rounding step of the written value) under each plausible reading."""
    # Rounding leniency only where the written precision is fine enough: a small whole number
    # ("0", "3") is a count or an exact figure, not a rounded one.
    step = 10.0 ** -(q.decimals or 0) if (q.decimals or abs(q.value) >= 10) else 0.0
    unit = q.unit or ""
    if unit in _PCT or (other_unit in _PCT and unit in ("ratio", "times")):
        # Everything percent-like is compared as a fraction: 2.8% -> 0.028, 0.83x -> 0.83.
        div = 100.0 if unit == "%" else 10000.0 if unit == "bps" else 1.0
        return [(q.value / div, step / div)]
    if not unit and other_unit in _PCT:
        # A bare number next to a percentage: either a fraction (0.028) or a percent without '%'.
        return [(q.value, step), (q.value / 100.0, step / 100.0)]
    if _explicit(q):
        return [(q.value * q.scale, step * q.scale)]
    if unit in _MONEY or not unit:
        if scale is not None:
            mults = [scale] if is_gold else [scale, 1.0]
        elif other_explicit:
            mults = [1.0, 1e3, 1e6, 1e9]
        else:
            mults = [1.0]
        return [(q.value * m, step * m) for m in mults]
    return [(q.value, step)]


def _close(a: float, b: float, gold_step: float, rel_tol: float) -> bool:
    diff = abs(a - b)
    if diff <= rel_tol * max(abs(a), abs(b)):
        return True
    return diff <= 0.5 * gold_step * (1 + 1e-9)


def _negation_explained(unsigned: Quantity, unsigned_text: str) -> bool:
    """A sign flip is fine when the unsigned side says the number is negative ("a decline of 42%")."""
    if getattr(unsigned, "direction", 0) < 0:
        return True
    return bool(_NEGATIVE_WORDS.search(unsigned_text))
