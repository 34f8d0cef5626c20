"""Quantities in financial text: value, unit, scale, sign and the span they came from.

`extract_quantities` finds every number in prose and in PDF-extracted tables
(`$\\n24,977`, `(1,577)`, `$ 1,671 $`, `394,\\n328`), `parse_quantity` reads one,
`detect_scale` reads a table header such as "(in millions, except per share data)".
Years, dates and references (`Note 5`, `Item 7`, `10-K`) are returned with
`kind` 'year' / 'date' / 'ref' so callers can ignore them. Comparison lives in
`finqa.lexicon.compare`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from finqa.lexicon._data import data_cache

__all__ = [
    "Quantity",
    "extract_quantities",
    "parse_quantity",
    "detect_scale",
    "scale_regions",
    "count_scale",
    "SCALE_WORDS",
    "question_scale",
    "parse_cell",
]

SCALE_WORDS: dict[str, float] = {
    "thousand": 1e3,
    "thousands": 1e3,
    "million": 1e6,
    "millions": 1e6,
    "billion": 1e9,
    "billions": 1e9,
    "trillion": 1e12,
    "trillions": 1e12,
}


@dataclass(frozen=True, slots=True)
class Quantity:
    """One number as written. `value` is signed and excludes the scale; `absolute` includes it.

    kind: 'number' (a quantity), 'year', 'date' or 'ref' (note/item/form numbers).
    scale_source: 'explicit' (a scale word was written: '$1.6 billion'), 'default' (from a
    table header or the caller) or 'none' (no scale known; scale is 1).
    direction: -1 when the text states a decrease ('decreased by $5 million'), +1 an
    increase, 0 otherwise; the value itself keeps the sign as written.
    """

    text: str
    value: float
    scale: float = 1.0
    unit: str = ""
    start: int = 0
    end: int = 0
    decimals: int = 0
    kind: str = "number"
    scale_source: str = "none"
    direction: int = 0

    @property
    def absolute(self) -> float:
        """value * scale (for '%' the value in percent units)."""
        return self.value * self.scale

    @property
    def precision(self) -> float:
        """Half a unit of the last written digit, in absolute terms (the rounding it implies)."""
        return 0.5 * (10.0**-self.decimals) * self.scale

    @property
    def is_number(self) -> bool:
        return self.kind == "number"


# --------------------------------------------------------------------------- patterns

_MINUS = "-\u2010\u2011\u2212\u2013\ufe63\uff0d"
_NUM = re.compile(
    r"(?<![\w.'\u2019/])"
    r"(\d{1,3}(?:,(?:\r?\n)?\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?|\.\d+)"
    r"(?![\d])"
)
_LEFT = re.compile(
    r"(?P<open>\()?[^\S\r\n]*(?P<sign1>[" + _MINUS + r"])?[^\S\r\n]*"
    r"(?P<cur>US\$|U\.S\.[ ]?\$|C\$|A\$|\$|€|£|¥|\bUSD|\bEUR|\bGBP)?\s*"
    r"(?P<open2>\()?[^\S\r\n]*(?P<sign2>[" + _MINUS + r"])?[^\S\r\n]*\Z"
)
_CUR_UNIT = {"€": "EUR", "EUR": "EUR", "£": "GBP", "GBP": "GBP", "¥": "JPY"}
_SCALE_SUFFIX = re.compile(
    r"[^\S\r\n]?(?:(?P<word>thousands?|millions?|billions?|trillions?)\b"
    r"|(?P<abbr>bn|bln|mn|mln|tn)\b|(?P<short>mm|[kmbt])(?![\w]))",
    re.IGNORECASE,
)
_UNIT_SUFFIX = re.compile(
    r"[^\S\r\n]*(?:"
    r"(?P<pct>%|percent\b|per\scent\b|pct\b|percentage\spoints?\b|ppts?\b|pp\b)"
    r"|(?P<bps>bps\b|bp\b|basis\spoints?\b)"
    r"|(?P<times>x(?![\w])|×|times\b)"
    r"|(?P<days>days?\b)"
    r"|(?P<shares>(?:common\s)?shares\b)"
    r"|(?P<usd>USD\b|U\.S\.\sdollars\b|dollars\b)"
    r")",
    re.IGNORECASE,
)
_PER_SHARE = re.compile(r"[^\S\r\n]*(?:per\s(?:diluted\s|basic\s|common\s)?share|/share)\b", re.I)
_DIRECTION = re.compile(
    r"(?P<down>decrease[sd]?|decline[sd]?|drop(?:ped|s)?|fell|fall|reduc(?:ed|tion)|lower|down|"
    r"loss|negative)(?:[ ]+(?:by|of))?[ ]+(?:approximately[ ]+|about[ ]+|roughly[ ]+|~)?\Z"
    r"|(?P<up>increase[sd]?|grew|growth|rise|rose|higher|up|gain(?:ed)?)(?:[ ]+(?:by|of))?"
    r"[ ]+(?:approximately[ ]+|about[ ]+|roughly[ ]+|~)?\Z",
    re.I,
)
_MONTHS = (
    r"(?:Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?|"
    r"Sep(?:t(?:ember)?)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)\.?"
)
_DATE = re.compile(
    r"\b(?:" + _MONTHS + r"[^\S\r\n]+\d{1,2},?\s+(?:19|20)\d\d"
    r"|\d{1,2}[^\S\r\n]+" + _MONTHS + r",?[^\S\r\n]+(?:19|20)\d\d"
    r"|" + _MONTHS + r",?[^\S\r\n]+(?:19|20)\d\d"
    r"|(?:19|20)\d\d-[01]\d-[0-3]\d"
    r"|[01]?\d/[0-3]?\d/(?:19|20)?\d\d)\b"
)
_REF = re.compile(
    r"\b(?:(?:Notes?|Items?|Part|Section|Rule|Topic|ASC|ASU|Form|Schedule|Exhibits?|Article|"
    r"Pages?|Level|Tier|Chapter|Regulation|No\.|Nos\.|Number)[^\S\r\n]+\(?\d[\dA-Za-z]*"
    r"(?:[-.][\dA-Za-z]+)*\)?"
    r"|\d+-[KQ]\b|S-\d+\b|\d+(?:-\d+)+(?!\.\d))"
)
_YEAR_RANGE = re.compile(r"\b(?:19|20)\d\d[" + _MINUS + r"/](?:19|20)?\d\d\b")
_HEADER = re.compile(
    r"(?P<what>\b(?:shares|share|options|units|employees|stores|barrels|tons|customers|"
    r"subscribers|members|vehicles)\s+)?"
    r"\b(?:in|of)\s+(?:U\.?S\.?\s+)?(?:USD\s+|\$\s*|dollars\s+)?"
    r"(?P<word>thousands|millions|billions)\b",
    re.I,
)
_MONEY_AND = re.compile(r"(?:\$|dollars|amounts)\s*(?:\band\b|&)\s*\S?\Z", re.I)
_HEADER2 = re.compile(
    r"\((?P<what>[^()]{0,40}?(?:shares|share|options|units|employees|stores|barrels|tons|"
    r"customers|subscribers|members|vehicles)\s*)?"
    r"[^()]{0,40}?(?:in|of)?\s*(?:U\.?S\.?\s*)?(?:USD\s*|\$\s*|dollars\s*)?"
    r"(?P<word>thousands|millions|billions)\b",
    re.I,
)


_COUNT_AFTER = re.compile(
    r"[^\S\r\n]*(?:-[^\S\r\n]*)?(?:months?|years?|weeks?|quarters?|hours?|employees|stores|countries|"
    r"segments|locations|new\b|times\b)",
    re.I,
)


def _scale_of_word(word: str) -> float:
    return SCALE_WORDS[word.lower()]


_ASKED_SCALE = re.compile(r"\b(?:USD|US\$)\s*(?P<word>thousands|millions|billions)\b", re.I)


def question_scale(question: str) -> float | None:
    """The scale a question asks amounts in ('Answer in USD millions', '(in USD billions)',
    'USD thousands') -> 1e6 / 1e9 / 1e3, or None. The one rule for the reasoner, judge and grader."""
    scale = detect_scale(question)
    if scale is not None:
        return scale
    m = _ASKED_SCALE.search(question)
    return _scale_of_word(m.group("word")) if m else None


def detect_scale(text: str) -> float | None:
    """The money scale a table header or instruction declares, e.g. '(in millions...)' -> 1e6.

    Headers that scale something other than money ('shares in thousands') are ignored.
    Returns the first such scale in the text, or None.
    """
    regions = scale_regions(text)
    return regions[0][1] if regions else None


# a count's own scale in its caption: 'Shares used in calculation (000s)', '(000's)', 'Weighted
# average shares (in thousands)', 'shares in millions'
_COUNT_SCALE = re.compile(
    r"\(\s*(?P<zeros>0{3}|0{6})\s*['’]?\s*s?\s*\)"
    r"|\b(?:in|of)\s+(?P<word>thousands|millions|billions)\b",
    re.I,
)


def count_scale(caption: str) -> float | None:
    """The scale a count's caption or heading states for its own figures ('(000s)' -> 1e3,
    '(in millions)' -> 1e6), which a statement printing money in another scale does not
    share; None when it states none."""
    m = _COUNT_SCALE.search(caption)
    if m is None:
        return None
    if m.group("zeros"):
        return 10.0 ** len(m.group("zeros"))
    return _scale_of_word(m.group("word"))


def scale_regions(text: str) -> list[tuple[int, float]]:
    """(offset, scale) of every money-scale header in text, in order."""
    found: list[tuple[int, float]] = []
    for rx in (_HEADER, _HEADER2):
        for m in rx.finditer(text):
            if m.groupdict().get("what") and not _MONEY_AND.search(text, 0, m.start("what") + 1):
                continue  # 'shares in thousands' scales counts, not money ('$ and shares ...' both)
            found.append((m.start(), _scale_of_word(m.group("word"))))
    found.sort()
    return found


# --------------------------------------------------------------------------- extraction


def _spans(rx: re.Pattern[str], text: str) -> list[tuple[int, int]]:
    return [(m.start(), m.end()) for m in rx.finditer(text)]


def _inside(pos: int, spans: list[tuple[int, int]]) -> tuple[int, int] | None:
    for s, e in spans:
        if s <= pos < e:
            return s, e
        if s > pos:
            break
    return None


def extract_quantities(
    text: str, default_scale: float | None = None, *, auto_scale: bool = False
) -> list[Quantity]:
    """Every quantity in `text`, in order (years, dates and refs included with their `kind`).

    default_scale (e.g. from `detect_scale` of the table header) applies to bare amounts
    (no scale word, not %, not a year). With auto_scale, each bare amount takes the scale of
    the nearest preceding header in `text` (or the first header when none precedes it).
    """
    return list(_extract(text, default_scale, auto_scale))


@data_cache(512)
def _extract(text: str, default_scale: float | None, auto_scale: bool) -> tuple[Quantity, ...]:
    """Cached: a judge looks up many claims in the same evidence text."""
    dates = _spans(_DATE, text)
    refs = sorted(_spans(_REF, text) + _spans(_YEAR_RANGE, text))
    regions = scale_regions(text) if auto_scale else []
    out: list[Quantity] = []
    emitted: set[tuple[int, int]] = set()
    for m in _NUM.finditer(text):
        pos = m.start()
        span = _inside(pos, dates)
        if span is not None:
            if span not in emitted:
                emitted.add(span)
                year = re.search(r"(?:19|20)\d\d", text[span[0] : span[1]])
                out.append(
                    Quantity(
                        text=text[span[0] : span[1]],
                        value=float(year.group(0)) if year else 0.0,
                        start=span[0],
                        end=span[1],
                        kind="date",
                    )
                )
            continue
        span = _inside(pos, refs)
        if span is not None:
            raw = m.group(1)
            kind = "year" if _is_year(raw) else "ref"
            out.append(Quantity(text=raw, value=_to_float(raw), start=pos, end=m.end(), kind=kind))
            continue
        q = _read(text, m, default_scale, regions)
        if q is not None:
            out.append(q)
    return tuple(out)


def _is_year(raw: str) -> bool:
    return len(raw) == 4 and raw.isdigit() and 1900 <= int(raw) <= 2100


def _to_float(raw: str) -> float:
    return float(raw.replace(",", "").replace("\r", "").replace("\n", ""))


@dataclass
class _Reading:
    """What `_read` has found so far right of a number: where it stands, its scale and unit."""

    pos: int
    cur: str | None
    scale: float = 1.0
    scale_source: str = "none"
    unit: str = ""
    glued: bool = False  # letters glued to the number ('3M', '10th') unless a suffix explains them


def _read(
    text: str,
    m: re.Match[str],
    default_scale: float | None,
    regions: list[tuple[int, float]],
) -> Quantity | None:
    raw = m.group(1)
    start, end = m.start(), m.end()
    left = _LEFT.search(text[max(0, start - 16) : start])
    r = _Reading(pos=end, cur=left.group("cur") if left else None)
    # glued letters: '3M', '10th', '2Q23' are not quantities (but '1.2x', '$3M', '25bps' are)
    r.glued = bool(re.match(r"[A-Za-z]", text[end : end + 40]))
    _scale_suffix(text, r)
    _unit_suffix(text, r)
    if r.glued:
        return None
    value = _to_float(raw)
    decimals = len(raw.split(".", 1)[1]) if "." in raw else 0
    negative, q_start = False, start
    if left:
        signed = _sign_and_parentheses(text, raw, value, start, left, r)
        if signed is None:  # '(2) has been subject to': an enumerator, not -2
            return Quantity(text=raw, value=value, start=start, end=end, kind="ref")
        negative, q_start = signed
    kind = "number"
    if _is_year(raw) and not r.cur and r.scale_source == "none" and r.unit == "" and not negative:
        kind = "year"
    counted = _COUNT_AFTER.match(text, r.pos)  # '12 months', '47 new stores': not amounts
    if kind == "number" and r.scale_source == "none" and r.unit in ("", "USD") and not counted:
        dscale = _region_scale(start, regions) if regions else default_scale
        if dscale:
            r.scale, r.scale_source = dscale, "default"
    dm = _DIRECTION.search(text[max(0, q_start - 40) : q_start])
    return Quantity(
        text=text[q_start : r.pos],
        value=-value if negative else value,
        scale=r.scale,
        unit=r.unit,
        start=q_start,
        end=r.pos,
        decimals=decimals,
        kind=kind,
        scale_source=r.scale_source,
        direction=(-1 if dm.group("down") else 1) if dm else 0,
    )


def _scale_suffix(text: str, r: _Reading) -> None:
    """'million', 'bn', and after a currency 'M'/'k': the scale written right of the number."""
    sm = _SCALE_SUFFIX.match(text, r.pos)
    if not (sm and (sm.group("word") or sm.group("abbr") or (sm.group("short") and r.cur))):
        return
    if sm.group("word"):
        r.scale = _scale_of_word(sm.group("word"))
    elif sm.group("abbr"):
        r.scale = {"bn": 1e9, "bln": 1e9, "mn": 1e6, "mln": 1e6, "tn": 1e12}[
            sm.group("abbr").lower()
        ]
    else:
        r.scale = {"mm": 1e6, "k": 1e3, "m": 1e6, "b": 1e9, "t": 1e12}[sm.group("short").lower()]
    r.scale_source, r.pos, r.glued = "explicit", sm.end(), False


def _unit_suffix(text: str, r: _Reading) -> None:
    """'%', 'bps', 'x', 'days', 'shares', 'USD', a trailing '$', then 'per share' after an amount."""
    um = _UNIT_SUFFIX.match(text, r.pos)
    group = (um.lastgroup or "") if um else ""
    if um and group == "times" and um.group(0).strip().lower() == "x" and r.cur:
        um = None  # '$3x' is not a multiple
    if um:
        units = {"pct": "%", "bps": "bps", "times": "times", "days": "days"}
        r.unit = {"shares": "shares", "usd": "USD"}.get(group, units.get(group, ""))
        r.pos, r.glued = um.end(), False
    elif not _UNIT_SUFFIX.match(text, r.pos) and re.match(
        r"\$(?!\s*[\d(.\-\u2212])", text[r.pos : r.pos + 8]
    ):
        r.unit, r.pos, r.glued = "USD", r.pos + 1, False  # '0.01$ per share'
    if r.glued:
        return
    if r.cur and not r.unit:
        r.unit = _CUR_UNIT.get(r.cur, "USD")
    ps = _PER_SHARE.match(text, r.pos) if r.unit in ("USD", "") else None
    if ps and (r.unit == "USD" or r.cur):
        r.unit, r.pos = "USD/share", ps.end()


def _sign_and_parentheses(
    text: str, raw: str, value: float, start: int, left: re.Match[str], r: _Reading
) -> tuple[bool, int] | None:
    """(negative, start of the quantity's text) from a minus sign or parentheses around it;
    None when the parentheses make it an enumerator ('(2) has been ...')."""
    negative = False
    if left.group("sign1") or left.group("sign2"):
        sign = left.group("sign2") or left.group("sign1")
        sign_pos = max(0, start - 16) + left.start("sign2" if left.group("sign2") else "sign1")
        before = text[max(0, sign_pos - 1) : max(0, sign_pos)]
        # a hyphen between two numbers ('2019-2021', '1-3285') is not a minus sign
        if not (before.isalnum() and sign in "-\u2010\u2011\u2013"):
            negative = True
    close = re.match(r"[^\S\r\n]*\)", text[r.pos :])
    opened = left.group("open2") or left.group("open")
    if (
        opened
        and close
        and not r.cur
        and "." not in raw
        and not r.unit
        and value <= 30
        and re.match(r"[^\S\r\n]*\)[^\S\r\n]*[A-Za-z]", text[r.pos :])
    ):
        return None
    if opened and close and not (r.scale_source == "explicit" and not negative):
        # ('($1.6 billion)' with an explicit scale is an aside in prose, not a negative amount)
        negative = True
        r.pos += close.end()
        after_close = _SCALE_SUFFIX.match(text, r.pos)  # '$(1.2) billion'
        if r.scale_source == "none" and after_close and after_close.group("word"):
            r.scale, r.scale_source = _scale_of_word(after_close.group("word")), "explicit"
            r.pos = after_close.end()
        pct = re.match(r"[^\S\r\n]?%", text[r.pos :])  # '(2.2)%'
        if pct and not r.unit:
            r.unit, r.pos = "%", r.pos + pct.end()
    lead = left.group(0).lstrip()
    if not negative:
        lead = lead.lstrip("(").lstrip()
    q_start = start - len(lead) if (left.group("cur") or negative) else start
    return negative, q_start


def _region_scale(pos: int, regions: list[tuple[int, float]]) -> float:
    current = regions[0][1]
    for offset, scale in regions:
        if offset > pos:
            break
        current = scale
    return current


def parse_quantity(s: str, default_scale: float | None = None) -> Quantity | None:
    """The first quantity in `s` (a number if there is one, else a year/date), or None."""
    found = extract_quantities(s, default_scale)
    numbers = [q for q in found if q.kind == "number"]
    if numbers:
        return numbers[0]
    return found[0] if found else None


_DASH_CELL = frozenset("\u2014\u2013-")


def parse_cell(token: str) -> float | None:
    """A statement table cell as a number: '(1,234)' -> -1234, '$ 86,392' -> 86392, '(5.2)%' ->
    -5.2, a dash cell '—' -> 0.0; None when the whole cell is not one number ('1,23', 'n/a')."""
    t = token.strip().replace("$", "").replace(" ", "")
    if t and len(t) <= 2 and set(t) <= _DASH_CELL:
        return 0.0
    found = [q for q in extract_quantities(t) if q.kind in ("number", "year")]
    if len(found) != 1 or found[0].start != 0 or found[0].end < len(t.rstrip("%")):
        return None
    q = found[0]
    if q.scale_source == "explicit" or q.unit not in ("", "%", "USD"):
        return None  # '5 million' or '3x' is prose, not a cell
    return float(q.value)


def with_scale(q: Quantity, scale: float) -> Quantity:
    """q with a default scale applied (no-op when it already has an explicit one)."""
    if q.scale_source == "explicit" or q.kind != "number" or q.unit not in ("", "USD"):
        return q
    return replace(q, scale=scale, scale_source="default")
