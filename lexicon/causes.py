"""The language of causes, from data/causes.yaml: whether a question asks what caused a movement
('What drove ...', 'Why did ...') and the line it asks about when it names two lines one bridges,
the cause marker a filing sentence holds ('due to', 'driven
by', 'offset by'), whether a sentence opens on a movement it goes on to explain ('The increase
was primarily due to ...'), the way a text says a figure moved (up or down, a loss line read as
its result's negative side), and whether a section heading is the management's discussion. The
movement words themselves ('increased', 'the decline', 'improved') and the way each says a figure
moved come from the one list of data/movements.yaml (`lexicon.movement`). One place for this
language: the offline reasoner's cause answers read filings through it, and the judge reads
through it the movement a cause answer's basis states."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import TYPE_CHECKING

from finqa.lexicon import movement
from finqa.lexicon._data import data_cache, read_yaml
from finqa.lexicon.movement import Direction
from finqa.lexicon.stems import singular

if TYPE_CHECKING:
    from finqa.lexicon.metrics import Metric

__all__ = [
    "Direction",
    "asks_cause",
    "requests_cause",
    "stated_direction",
    "direction_word",
    "asked_bridge",
    "effect_object",
    "cause_marker",
    "split_at_cause",
    "states_movement_cause",
    "opens_on_movement",
    "names_movement",
    "movement_noun",
    "is_hypothetical",
    "is_discussion_section",
]


def _alt(words: list[str]) -> str:
    return "|".join(
        re.escape(w).replace(r"\ ", r"\s+") for w in sorted(words, key=len, reverse=True)
    )


@data_cache()
def _patterns() -> dict[str, re.Pattern[str]]:
    v = read_yaml("causes.yaml") or {}
    openers = movement.alternation(forms=("nouns",))
    return {
        "marker": re.compile(rf"\b(?:{_alt(v['markers'])})\b", re.I),
        # 'what mainly drove' asks as 'what drove' does
        "question": re.compile(
            rf"\b(?:{_alt(v['questions'])})\b".replace(
                r"what\s+", rf"what\s+(?:(?:{_alt(v['adverbs'])})\s+)?"
            ),
            re.I,
        ),
        # 'The increase ...', 'This decline ...', 'The $104.2 million increase was ...'
        "opens": re.compile(
            rf"^\W*(?:the|this|these|that|such)\s+(?:\S+\s+){{0,3}}?(?:{openers})\b",
            re.I,
        ),
        "section": re.compile(rf"{_alt(v['sections'])}", re.I),
        "opener_word": re.compile(rf"\b(?:{openers})\b", re.I),
        "hypothetical": re.compile(rf"\b(?:{_alt(v['hypothetical'])})\b", re.I),
        "difference": re.compile(rf"\b(?:{_alt(v['differences'])})\b", re.I),
        "request": re.compile(
            rf"^\W*(?:also\s+)?(?:{_alt(v['requests']['verbs'])})\b.*\b(?:{_alt(v['requests']['nouns'])})\b",
            re.I | re.S,
        ),
        # 'and the decrease in <the second line>': a movement of its own asked for the second
        "own_movement": re.compile(
            rf"\W*(?:,\s*)?(?:and|&|as well as)\s+(?:(?:the|its|their)\s+)?(?:\S+\s+){{0,2}}?"
            rf"(?:{openers})\s+(?:in|of)\s+(?:(?:its|their|the)\s+)?",
            re.I,
        ),
    }


def asks_cause(question: str) -> bool:
    """The question asks what caused a movement ('What drove ...', 'Why did ...', 'reasons for')."""
    return bool(_patterns()["question"].search(question))


# 'how did X affect Y', 'how has X impacted Y': the effect of X on Y is asked
_EFFECT = re.compile(
    r"\bhow\s+(?:did|does|do|has|have|had|would|will)\b.*?\b(?:affect(?:ed)?|impact(?:ed)?)\s+"
    r"(?P<object>[^?.;,]+?)(?=\s+and\b|[?.;,]|$)",
    re.I,
)


# what names the affected figure's period or owner, not the figure ('in 2021', "Acme's")
_NOT_FIGURE = re.compile(
    r"\b(?:in|for|during)\s+(?:fiscal\s+|FY\s*)?\d{4}\b|\b(?:fiscal\s+|FY\s*)?\d{4}\b"
    r"|\b[A-Z0-9][\w&.-]*(?:\s+[A-Z][\w&.-]*)*['\u2019]s\b|^\s*(?:its|their|the|our)\b",
)


def effect_object(question: str) -> str | None:
    """The figure whose change an effect question asks, without its period or owner ("How did
    the gain affect Acme's 2021 total operating expenses?": 'total operating expenses'), else
    None. What explains it names the thing whose effect is asked, not only that figure."""
    m = _EFFECT.search(question)
    if m is None:
        return None
    return " ".join(_NOT_FIGURE.sub(" ", m.group("object")).split()) or None


def requests_cause(sentence: str) -> bool:
    """The sentence asks, in the imperative, for what caused a movement ('Give the change and the
    reason the company states'): a part of the question, not an instruction on the answer's form."""
    return bool(_patterns()["request"].search(sentence))


def asked_bridge(question: str) -> Metric | None:
    """The line a cause question asks about when it names two statement lines one line bridges
    ('Why did net income exceed income before taxes?': income taxes, the catalogue's `bridges`):
    what made the two differ is that line, not what moved either of them; None otherwise. Two
    lines named as a list ('What drove revenue and gross profit?') ask what moved each."""
    from finqa.lexicon.metrics import bridging_item, find_metrics

    if not asks_cause(question):
        return None
    found = find_metrics(question)
    bridge = bridging_item(m.canonical for m in found)
    if bridge is None:
        return None
    if _patterns()["difference"].search(question):
        return bridge  # 'the difference between net income and income before taxes'
    ends = [m for m in found if m.canonical != bridge.id]
    for a, b in zip(ends, ends[1:], strict=False):
        gap = question[a.end : b.start]
        if _LISTED.fullmatch(gap) or _patterns()["own_movement"].fullmatch(gap):
            # listed side by side ('revenue and gross profit'), or each with a movement of its
            # own ('the increase in X and the decrease in Y'): each line's own movement is asked
            return None
    return bridge


# what stands between two line names listed side by side ('revenue and gross profit', 'net
# income, and its income before taxes')
_LISTED = re.compile(r"\W*(?:,\s*)?(?:and|&|as well as|or)?\s*(?:its|their|the|in)?\s*", re.I)


# words between a movement word and the name it governs ('the decrease in PG&E's net loss',
# 'lowered our effective tax rate'), and after a name before its movement ('Net revenue for 2022
# was $23.6 billion, an increase of 44%')
_BEFORE = 4
_AFTER = 8
_TOKEN = re.compile(r"[A-Za-z0-9&$%][\w&$%.,'’-]*")


def _tokens(text: str) -> list[str]:
    return [t for t, _s, _e in _spans(text)]


def _spans(text: str) -> list[tuple[str, int, int]]:
    """Each word read for matching (lower case, singular) with its span in `text`."""
    out = []
    for m in _TOKEN.finditer(text):
        word = m.group(0).rstrip(".,")
        out.append((singular(word), m.start(), m.start() + len(word)))
    return out


def direction_word(word: str, item: str | None = None) -> Direction | None:
    """+1 for a word of a rise ('increased', 'higher'), -1 of a fall ('lowered'); an evaluative
    word ('improved', 'weakened') by the favourable direction of the catalogue item `item`
    (`lexicon.movement.favourable_direction`); else None."""
    cls = movement.word_class(word)
    if cls == "up":
        return 1
    if cls == "down":
        return -1
    if cls in ("favourable", "unfavourable"):
        way = movement.favourable_direction(item)
        if way is None:
            return None
        return way if cls == "favourable" else (1 if way < 0 else -1)
    return None


def stated_direction(text: str, names: Iterable[str], item: str | None = None) -> Direction | None:
    """The way `text` says the figure named by one of `names` (the catalogue item `item`, when
    known) moved: +1 up, -1 down, None when it names none of them or states no movement of it.
    The movement word nearest a name counts: before it ('the decrease in X', 'lowered our X by
    24 points', a few words away) or after it ('X increased', 'X was $23.6 billion, an increase
    of 44%'). A literal word on a name holding a loss word and no gain word ('net loss') is the
    result's negative side: its fall is the result going up (not on an item that is the loss or
    expense itself, which moves as named); an evaluative word ('the improvement in net loss')
    reads the item's favourable direction, and nothing without an item. A name that is the
    whole a share is taken of ('As a percentage of net sales, SG&A expenses increased') is not
    what moved."""
    from finqa.lexicon.answer_form import share_base
    from finqa.lexicon.catalogue import entries

    own_line = str((entries().get(item or "") or {}).get("nature") or "") in ("loss", "expense")
    spans = _spans(movement.without_idioms(text))
    toks = [t for t, _s, _e in spans]
    bases = share_base(text)
    best: tuple[int, int, Direction] | None = None  # (distance, after?, direction)
    for name in {n for n in names if n.strip()}:
        seq = _tokens(name)
        if not seq:
            continue
        flip = -1 if not own_line and movement.names_loss_side(name) else 1
        for i in range(len(toks) - len(seq) + 1):
            if toks[i : i + len(seq)] != seq:
                continue
            end = i + len(seq)
            first, last = spans[i][1], spans[end - 1][2]
            if any(a <= first and last <= b for a, b in bases):
                continue  # the whole of a share, not the figure that moved
            around = [(i - j, 1, j) for j in range(max(0, i - _BEFORE), i)]
            around += [(j - end + 1, 0, j) for j in range(end, min(len(toks), end + _AFTER))]
            for dist, before, j in around:
                cls = movement.word_class(toks[j])
                way = direction_word(toks[j], item)
                if way is None:
                    continue
                turn = flip if cls in ("up", "down") else 1  # 'improved' is the economics
                signed: Direction = 1 if way * turn > 0 else -1
                if best is None or (dist, before) < best[:2]:
                    best = (dist, before, signed)
    return None if best is None else best[2]


def cause_marker(sentence: str) -> str | None:
    """The first cause marker the sentence holds ('due to', 'driven by', 'offset by'), or None."""
    m = _patterns()["marker"].search(sentence)
    return " ".join(m.group(0).lower().split()) if m else None


def split_at_cause(sentence: str) -> tuple[str, str, str] | None:
    """(what moved, the marker, the cause): the sentence split at its first cause marker, or
    None without one ('Gross margin decreased' | 'due to' | 'higher costs.')."""
    m = _patterns()["marker"].search(sentence)
    if m is None:
        return None
    marker = " ".join(m.group(0).lower().split())
    return sentence[: m.start()], marker, sentence[m.end() :]


def states_movement_cause(text: str) -> bool:
    """The text explains a movement: a cause marker with a cause after it, and before it a
    movement ('Gross margin decreased ... due to ...') or a sentence opening on one ('The
    increase was driven by ...'). A line's name holding a marker word ('net income attributable
    to the company') explains nothing."""
    split = split_at_cause(text)
    if split is None or not split[2].strip(" .:;,"):
        return False
    return names_movement(split[0]) or opens_on_movement(text)


def names_movement(text: str) -> bool:
    """The text names a movement of a figure ('increased', 'decline', 'higher', 'grew')."""
    return bool(movement.pattern().search(movement.without_idioms(text)))


def movement_noun(text: str) -> str | None:
    """The first noun of a movement the text uses ('increase', 'reduction', 'change'), or None."""
    m = _patterns()["opener_word"].search(text)
    return m.group(0).lower() if m else None


def is_hypothetical(text: str) -> bool:
    """A possibility, expectation or condition ('may', 'could', 'we expect', 'if'), not what
    happened."""
    return bool(_patterns()["hypothetical"].search(text))


def opens_on_movement(sentence: str) -> bool:
    """The sentence opens on a movement named before it ('The increase was ...', 'This decline')."""
    return bool(_patterns()["opens"].match(sentence))


def is_discussion_section(section: str | None) -> bool:
    """The heading is the management's discussion of results (MD&A, 'Results of Operations')."""
    return bool(section) and bool(_patterns()["section"].search(section or ""))
