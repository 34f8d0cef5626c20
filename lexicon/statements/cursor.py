"""Where the lines a text reader reads sit in the page text (`Cursor`)."""

from __future__ import annotations

__all__ = ["Cursor"]


class Cursor:
    """Where the lines the reader reads sit in the page text: the reader strips lines, joins a
    number broken over two, spaces a date ('27,2014') and cuts rows run together, none of which
    moves a printed character, so each line's characters are found in order from the last one
    placed (only blanks and dropped '$' lines skipped)."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.at = 0
        self.lost = not text

    def place(self, line: str) -> list[int] | None:
        """The text offset of each character of `line` (a blank: the offset after the last
        character placed), None once a line is not found where it should be."""
        if self.lost:
            return None
        text, j, out = self.text, self.at, []
        for ch in line:
            if ch.isspace():
                out.append(j)
                continue
            while j < len(text) and text[j] != ch and (text[j].isspace() or text[j] == "$"):
                j += 1
            if j >= len(text) or text[j] != ch:
                self.lost = True
                return None
            out.append(j)
            j += 1
        self.at = j
        return out
