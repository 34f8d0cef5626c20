"""Filing boilerplate that never answers a question: signature blocks, tables of contents,
page headers and footers, certifications, letter headings. One place for this language (the
offline reasoner's extractive answers and any other reader of filing prose)."""

from __future__ import annotations

import re

__all__ = ["is_boilerplate", "boilerplate_kind"]

_KINDS: tuple[tuple[str, re.Pattern[str]], ...] = (
    (
        "signature block",
        re.compile(
            r"/s/|\bpursuant to the requirements of\b|\bduly (?:caused|authorized)\b|"
            r"\bsigned on (?:its|their) behalf\b|\bby:\s*_{2,}|\bsignatures?\s*(?:title|date)\b|"
            r"\b(?:principal (?:executive|financial|accounting) officer)\b.*\b(?:date|director)\b",
            re.I,
        ),
    ),
    (
        "certification",
        re.compile(
            r"\bI,? [A-Z][\w.\s]{2,40},? certify that\b|\bsection 906 of the sarbanes|"
            r"\b(?:rule|rules) 13a-14\(a\)",
            re.I,
        ),
    ),
    (
        "table of contents",
        re.compile(
            r"\btable of contents\b|(?:\.\s?){5,}\s*\d|\bitem\s+\d+[a-c]?\.?\s.{0,80}\bitem\s+\d+[a-c]?\b",
            re.I,
        ),
    ),
    (
        # a letter's address block or salutation ('330 West 34th Street New York, New York
        # 10001 Dear Dick,'): who a letter goes to, not what the filing states
        "letter heading",
        re.compile(
            r"\bDear (?!(?:Fellow|Shareholders|Stockholders|Investors|Owners)\b)"
            r"(?:Mr\.|Ms\.|Mrs\.|Dr\.)?\s?[A-Z][a-z]+(?: [A-Z][a-z]+)?,|"
            r"\b\d{1,5} (?:[A-Z0-9][A-Za-z0-9]+ ){1,3}(?:Street|Avenue|Road|Boulevard|Drive|Lane|Way|Place)\b"
            r"[^.]{0,60}\b\d{5}(?:-\d{4})?\b"
        ),
    ),
    (
        "page header",
        re.compile(
            r"^\W*(?:[\w&.,' -]{2,60}\s+)?(?:form\s+10-?[kq]|annual report)\W*(?:\d{1,3}|page \d+)?\W*$|"
            r"^\W*page\s+\d+(?:\s+of\s+\d+)?\W*$|\|\s*\d{1,3}\s*$",
            re.I,
        ),
    ),
)


def boilerplate_kind(text: str) -> str | None:
    """The kind of boilerplate the text is ('signature block', 'table of contents', ...), or None."""
    flat = " ".join(text.split())
    for kind, rx in _KINDS:
        if rx.search(flat):
            return kind
    return None


def is_boilerplate(text: str) -> bool:
    """True when the text is a signature block, certification, table of contents or page header."""
    return boilerplate_kind(text) is not None
