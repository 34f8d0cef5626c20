"""Lines written beside a progress bar, as tqdm-based tools do: above the bar, never glued to it.

A tqdm bar redraws its line in place without a newline, so anything else written to the same
terminal (stdout or stderr) lands on the bar's line. `write_line` writes through `tqdm.write`
while a bar is live (the bar is cleared, the line written, the bar redrawn below it) and plainly
otherwise; `LineStream` does that for a stream that is written in pieces (structlog's
`PrintLogger` writes the message, then the newline), so operational log lines go above the bar
too. tqdm is never imported here: with no bar in the process there is nothing to step around.
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable
from typing import Any, TextIO

__all__ = ["write_line", "LineStream", "live_bars"]


def live_bars() -> Any | None:
    """tqdm's bar class when a bar is open in this process, else None."""
    std = sys.modules.get("tqdm.std")
    cls = getattr(std, "tqdm", None) if std is not None else None
    return cls if cls is not None and len(getattr(cls, "_instances", ())) else None


def write_line(text: str, file: TextIO | None = None) -> None:
    """Write `text` and a newline to `file` (default stderr), above any live progress bar."""
    out = file if file is not None else sys.stderr
    bars = live_bars()
    if bars is None:
        out.write(text + "\n")
    else:
        bars.write(text, file=out)
    out.flush()


class LineStream:
    """A text stream that hands each complete line to `write_line` (partial text waits for
    its newline), writing to whatever `target()` returns at that moment."""

    def __init__(self, target: Callable[[], TextIO]) -> None:
        self._target = target
        self._pending = ""
        self._lock = threading.Lock()

    def write(self, text: str) -> int:
        with self._lock:
            self._pending += text
            *lines, self._pending = self._pending.split("\n")
        for line in lines:
            write_line(line, self._target())
        return len(text)

    def flush(self) -> None:
        self._target().flush()

    def isatty(self) -> bool:
        return bool(getattr(self._target(), "isatty", lambda: False)())
