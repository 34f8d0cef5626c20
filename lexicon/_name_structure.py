"""A question's name of a part met with a filing's printed name by the structure of the names,
where no spelling of one is the other: the words a name adds or leaves out, never a list.

A filing prints a part shorter or longer than a question (or the filing's own tags) names it:

- the printed name is the question's without a family word or a qualifier ('Sales' for 'Sales
  Cloud', 'Equipment' for 'Sporting Equipment', 'Freight' for 'Cargo and Freight'): the printed
  name is the leading or trailing words of the question's, and the words the question adds
  name no other part and no country;
- the printed name adds an 'and other' tail ('Latin America, Caribbean and other' for 'Latin
  America') or a qualifier before the question's words ('Asia Pacific' for 'Pacific'), with no
  conjunction joining two places ('United States and Canada' is not the United States) and no
  other part or country among the words it adds;
- the rest of a region, said two ways: 'Other Americas' (or 'Rest of Americas') for 'Americas
  excluding United States', when what is excluded is another part of the filing.

A name that says 'other', 'rest of', 'excluding' or 'non-' is a complement and meets only its
complement ('Rest of Asia Pacific' is not 'Asia Pacific'). `structural_matches` returns every
part met, one per printed name: one is the part; two or more leave the question ambiguous (the
caller names them); none, no part.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Protocol, TypeVar


class _Named(Protocol):
    @property
    def name(self) -> str: ...


N = TypeVar("N", bound=_Named)  # a part of the filing (`dimensions.DimensionMember`)

__all__ = ["structural_matches", "name_words", "proper_runs"]

_LINK = frozenset({"and", "of", "the", "&"})
# words of the whole company's figure: 'Total Sales' is no family of the printed part 'Sales'
_WHOLE = frozenset({"total", "consolidated", "overall", "worldwide", "net", "gross", "all"})
_COMPLEMENT = frozenset(
    {"other", "rest", "remaining", "excluding", "except", "ex", "non", "outside"}
)
_EXCLUDING = re.compile(r"^(?P<x>.+?)[\s,]+(?:excluding|except(?:\s+for)?|ex\.?|other\s+than|outside(?:\s+of)?)\s+(?:the\s+)?(?P<y>.+)$", re.I)  # fmt: skip
_OTHER = re.compile(r"^(?:other|rest\s+of(?:\s+the)?|remaining)\s+(?P<x>.+)$", re.I)
_AND_OTHER = re.compile(r"(?:\band|&)\s+other\s*$", re.I)
_JOINED = re.compile(r"\band\b|&|,|/")
_ACRONYM = re.compile(r"\(\s*[A-Z]{2,6}\s*\)")  # 'United States and Canada (UCAN)'
_MIN_LETTERS = 4


def name_words(text: str) -> tuple[str, ...]:
    """A name's words, lower case and singular, without linking words or an acronym in
    brackets: 'Marketing and Commerce Cloud' -> ('marketing', 'commerce', 'cloud')."""
    text = _ACRONYM.sub(" ", text)
    words = [w.lower() for w in re.findall(r"[A-Za-z0-9]+", text)]
    return tuple(
        w[:-1] if len(w) > 3 and w.endswith("s") and not w.endswith("ss") else w
        for w in words
        if w not in _LINK
    )


def _at(inner: Sequence[str], outer: Sequence[str]) -> str | None:
    """'start' or 'end' when `inner` is the leading or trailing words of a longer `outer`."""
    n = len(inner)
    if not inner or n >= len(outer):
        return None
    if tuple(outer[:n]) == tuple(inner):
        return "start"
    if tuple(outer[-n:]) == tuple(inner):
        return "end"
    return None


def _within(inner: Sequence[str], outer: Sequence[str]) -> bool:
    """`inner` is some consecutive words of a longer `outer`."""
    n = len(inner)
    return 0 < n < len(outer) and any(
        tuple(outer[i : i + n]) == tuple(inner) for i in range(len(outer) - n + 1)
    )


def _names_something(
    words: Sequence[str], others: set[tuple[str, ...]], countries: frozenset[str]
) -> bool:
    """The words name another part of the filing, a country, or a complement."""
    if any(w in _COMPLEMENT or w in _WHOLE for w in words):
        return True
    for i in range(len(words)):
        for j in range(i + 1, len(words) + 1):
            span = tuple(words[i:j])
            if span in others or "".join(span) in countries:
                return True
    return False


def _complement(text: str) -> tuple[tuple[str, ...], tuple[str, ...]] | None:
    """(the whole, what is left out) of a name of the rest of a whole: 'Americas excluding
    United States' -> (americas, united states); 'Other Americas' -> (americas, ())."""
    m = _EXCLUDING.match(text.strip())
    if m:
        return name_words(m.group("x")), name_words(m.group("y"))
    m = _OTHER.match(text.strip())
    if m and name_words(m.group("x")):
        return name_words(m.group("x")), ()
    return None


def _complement_meets(asked: str, printed: str, others: set[tuple[str, ...]]) -> bool:
    """The same rest of the same whole: the wholes are one, and what either leaves out is
    another part of the filing (both say it, or the one that says it names a sibling)."""
    a, p = _complement(asked), _complement(printed)
    if a is None or p is None or not a[0] or a[0] != p[0]:
        return False
    if a[1] and p[1]:
        return a[1] == p[1]
    left_out = a[1] or p[1]
    return bool(left_out) and left_out in others


def _meets(
    asked: str, printed: str, others: set[tuple[str, ...]], countries: frozenset[str]
) -> bool:
    a, p = name_words(asked), name_words(printed)
    if not a or not p or a == p:
        return bool(a) and a == p
    if _complement(asked) is not None or _complement(printed) is not None:
        return _complement_meets(asked, printed, others)
    if any(w in _COMPLEMENT for w in a):
        return False
    if len("".join(p)) >= _MIN_LETTERS and _at(p, a) is not None:
        rest = a[len(p) :] if _at(p, a) == "start" else a[: len(a) - len(p)]
        return not _names_something(rest, others, countries)
    where = _at(a, p) if len("".join(a)) >= _MIN_LETTERS else None
    if where == "start" and _AND_OTHER.search(printed):
        return True  # 'Latin America, Caribbean and other'
    if where == "end" and not _JOINED.search(_ACRONYM.sub(" ", printed)):
        return not _names_something(p[: len(p) - len(a)], others, countries)  # 'Asia Pacific'
    return False


def structural_matches(
    phrase: str,
    members: Sequence[N],
    bare: Callable[[str], str],
    countries: frozenset[str],
) -> tuple[N, ...]:
    """The members whose printed name meets the question's `phrase` by the structure of the
    names (see the module doc), one per printed name, in the members' order; `bare` takes a
    printed name's line item words off ('Freight revenues' -> 'Freight'), `countries` are the
    countries' names as letters."""
    out: dict[tuple[str, ...], N] = {}
    asked = name_words(phrase)
    if _complement(phrase) is None and not any(w in _COMPLEMENT for w in asked):
        for m in members:  # two printed parts inside the question's words: it is neither
            words = name_words(bare(m.name))
            if len("".join(words)) >= _MIN_LETTERS and _within(words, asked):
                out.setdefault(words, m)
        if len(out) > 1:
            return tuple(out.values())
        out.clear()
    for m in members:
        words = name_words(bare(m.name))
        others = {name_words(bare(o.name)) for o in members} - {words}
        if words not in out and _meets(phrase, bare(m.name), others, countries):
            out[words] = m
    return tuple(out.values())


_RUN_WORD = re.compile(r"^(?:[A-Z][\w.&'’-]*|and|of|&)$")
_OPENERS = frozenset(
    {"what", "which", "how", "did", "does", "do", "is", "was", "were", "are", "in"}
)


def proper_runs(question: str) -> list[str]:
    """The runs of capitalised words a question may name a part by ('How much revenue did
    Sales Cloud bring in', 'did Boeing earn in Latin America'), without companies, periods
    and the question's opening word; a run of catalogue words alone ('Total Net Sales',
    'Free Cash Flow') names a line item, not a part."""
    from finqa.lexicon.entities import find_companies
    from finqa.lexicon.metrics import find_metrics
    from finqa.lexicon.periods import find_periods

    text = question
    spans = [(c.start, c.end) for c in find_companies(question)]
    spans += [(p.start, p.end) for p in find_periods(question)]
    for a, b in sorted(spans, reverse=True):
        text = text[:a] + " ~ " * 1 + " " * max(0, b - a - 3) + text[b:]
    runs: list[list[str]] = [[]]
    for m in re.finditer(r"[A-Za-z0-9][\w.&'’-]*", text):
        word = re.sub(r"(?:'s|’s)$", "", m.group(0)).rstrip(".")
        starts = not runs[-1] and word.lower() in _OPENERS
        if _RUN_WORD.match(word) and not starts and (runs[-1] or word[:1].isupper()):
            runs[-1].append(word)
            if m.group(0).endswith(("'s", "’s")):
                runs.append([])
        elif runs[-1]:
            runs.append([])
    out = []
    for run in runs:
        while run and run[-1] in ("and", "of", "&"):
            run.pop()
        phrase = " ".join(run)
        if not phrase:
            continue
        named = "".join(phrase[m.start : m.end] for m in find_metrics(phrase))
        if re.sub(r"[^A-Za-z]", "", phrase) != re.sub(r"[^A-Za-z]", "", named):
            out.append(phrase)
    return out
