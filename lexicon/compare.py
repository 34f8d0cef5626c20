"""Unit- and scale-aware comparison of quantities with an explicit rounding tolerance.

Two quantities are equal when their units are compatible and their values differ by no
more than the rounding of the less precise one plus `rel_tol` of the larger magnitude:
'$394.3 billion' == '394,328' under '(in millions)' == '$394,300 million';
'4.1%' == 0.041; '(1,577)' == '-1,577' == '−1,577'; 25 bps == 0.25%.
A change of 1% or a factor of 1000 does not match.
"""

from __future__ import annotations

from collections.abc import Iterator

from finqa.lexicon.numbers import Quantity, extract_quantities

__all__ = ["quantities_match", "find_in_text", "units_compatible"]

_MONEY = {"USD", "USD/share"}
_PLAIN = {"", "ratio", "times"}


def units_compatible(a: str, b: str) -> bool:
    """Whether two units can denote the same figure ('' is unknown and fits any unit)."""
    if a == b or a == "" or b == "":
        return True
    if a in _MONEY and b in _MONEY:
        return True
    if a in _PLAIN and b in _PLAIN:
        return True
    return {a, b} <= {"%", "bps", "ratio"}


def _views(q: Quantity) -> Iterator[tuple[float, float, str]]:
    """(value, rounding, unit) readings of q in comparable terms (percent points for % and bps)."""
    signs = [1.0]
    if q.direction < 0 and q.value > 0:
        signs.append(-1.0)  # 'decreased by $229 million' may be compared with '(229)'
    for sign in signs:
        if q.unit == "%":
            yield sign * q.value, q.precision, "%"
        elif q.unit == "bps":
            yield sign * q.value / 100.0, q.precision / 100.0, "%"
        else:
            yield sign * q.absolute, q.precision, q.unit


def _ratio_like(q: Quantity) -> bool:
    """A plain figure that can be a fraction written as a decimal (0.041 = 4.1%), not '15'."""
    return q.decimals > 0 and q.scale_source != "explicit" and abs(q.value) < 10


def _as_written(q: Quantity) -> Quantity:
    return Quantity(
        text=q.text, value=q.value, unit=q.unit, decimals=q.decimals, direction=q.direction
    )


def _close(x: float, px: float, y: float, py: float, rel_tol: float) -> bool:
    tol = max(px, py) + rel_tol * max(abs(x), abs(y))
    return abs(x - y) <= tol * (1 + 1e-12)


def _match_views(a: Quantity, b: Quantity, rel_tol: float, signed: bool, directional: bool) -> bool:
    for va, pa, ua in _views(a):
        for vb, pb, ub in _views(b):
            if (ua == "%") != (ub == "%"):
                # 4.1% vs 0.041: a percentage against a plain ratio only
                if ua == "%" and ub in ("", "ratio") and _ratio_like(b):
                    vb, pb = vb * 100.0, pb * 100.0
                elif ub == "%" and ua in ("", "ratio") and _ratio_like(a):
                    va, pa = va * 100.0, pa * 100.0
                else:
                    continue
            x, y = (va, vb) if signed else (abs(va), abs(vb))
            if directional:
                # only the claim's rounding; rel_tol only when the claim is the coarser figure
                tol = pa + (rel_tol * max(abs(x), abs(y)) if pa > pb else 0.0)
                if abs(x - y) <= tol * (1 + 1e-12):
                    return True
            elif _close(x, pa, y, pb, rel_tol):
                return True
    return False


def quantities_match(
    a: Quantity,
    b: Quantity,
    rel_tol: float = 0.005,
    *,
    signed: bool = True,
    directional: bool = False,
) -> bool:
    """Whether a and b denote the same figure (unit-, scale- and sign-aware).

    The tolerance is the rounding of the less precise of the two (half a unit of its last
    written digit) plus rel_tol of the larger magnitude. With directional=True, `a` is a
    claim checked against evidence `b`: only a's own rounding counts, plus rel_tol when the
    claim is the coarser figure ('$8.70 billion' vs 8,738 in millions), so a claim more
    precise than the evidence ('16.16%' vs '16%') is not supported by it. signed=False
    compares magnitudes. When exactly one side has no scale at all ('$1.58' against a
    '(in millions, except per share data)' table), the figures are also compared as
    written. Years, dates and references only match their own kind.
    """
    if a.kind != b.kind:
        return False
    if a.kind != "number":
        return a.value == b.value
    if not units_compatible(a.unit, b.unit):
        return False
    if _match_views(a, b, rel_tol, signed, directional):
        return True
    if (a.scale_source == "none") != (b.scale_source == "none"):
        return _match_views(_as_written(a), _as_written(b), rel_tol, signed, directional)
    return False


def find_in_text(
    q: Quantity,
    text: str,
    rel_tol: float = 0.005,
    *,
    signed: bool = False,
    directional: bool = True,
) -> Quantity | None:
    """The first quantity in `text` that supports the claim q.

    Bare table figures take the scale of the nearest preceding header ('(in millions)'),
    as `detect_scale` reads it. q is a claim: by default only its own rounding is allowed
    (directional), so '$394.3 billion' is found in '394,328' (in millions) but '16.16%'
    is not found in '16%'; directional=False uses the symmetric `quantities_match` rule.
    Signs are presentation in filings (capex '(4,625)' in a cash flow statement is reported
    as 'capex of $4.6 billion'), so by default magnitudes are compared; signed=True is strict.
    """
    for cand in extract_quantities(text, auto_scale=True):
        if quantities_match(q, cand, rel_tol, signed=signed, directional=directional):
            return cand
    return None
