"""Text for a terminal: control characters shown, never obeyed.

A question, a filing's text or an LLM's answer can carry escape sequences (``ESC ] 0 ; title
BEL`` retitles a terminal window, ``ESC [ 2 J`` clears it, ``CR`` overwrites a line). Every
plain-text line the CLI prints goes through `printable`, which writes each C0 and C1 control
character and DEL as its visible ``\\xNN`` escape, except the newline and tab the layout uses.
`json_printable` does the same for JSON text (C1 characters as ``\\u00NN``; JSON already escapes C0).
"""

from __future__ import annotations

import re

__all__ = ["printable", "json_printable"]

_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")  # all but \t (0x09) and \n (0x0a)
_CONTROL_ALL = re.compile("[\x00-\x1f\x7f-\x9f]")
_C1 = re.compile("[\x7f-\x9f]")


def printable(text: str, *, layout: bool = True) -> str:
    """`text` with control characters written as ``\\xNN``; newline and tab kept when `layout`."""
    pattern = _CONTROL if layout else _CONTROL_ALL
    return pattern.sub(lambda m: f"\\x{ord(m[0]):02x}", text)


def json_printable(text: str) -> str:
    """JSON text (`json.dumps(..., ensure_ascii=False)`) with DEL and C1 characters escaped."""
    return _C1.sub(lambda m: f"\\u{ord(m[0]):04x}", text)
