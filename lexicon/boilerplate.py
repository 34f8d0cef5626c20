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
        # the safe-harbour disclaimer ('This report contains forward-looking statements within
        # the meaning of ...', 'Forward-looking statements are subject to risks and
        # uncertainties'): it says what statements are, never what happened
        "forward-looking statement disclaimer",
        re.compile(
            r"\bforward[- ]looking statements?\b.{0,200}\b(?:within the meaning|safe harbou?r|"
            r"risks? and uncertaint|subject to (?:a number of |certain |various )?(?:risks|factors)|"
            r"differ materially|undue reliance|speak only as of)|"
            r"\b(?:safe harbou?r|undue reliance|differ materially)\b.{0,200}\bforward[- ]looking\b",
            re.I,
        ),
    ),
    (
        # the definitions a report opens with ('References in this Annual Report on Form 10-K to
        # "AMD", "we", "us" ... mean Advanced Micro Devices, Inc.'): names, not facts
        "report definitions",
        re.compile(
            r"\breferences? (?:in|throughout) this (?:annual |quarterly )?report\b.{0,200}\b"
            r"(?:mean|means|refer to|refers to|include)\b|"
            r"^\W*unless (?:the context )?otherwise (?:requires|indicates|noted)\b.{0,120}\b"
            r"(?:we|us|our|the company)\b",
            re.I,
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
    """True when the text is a signature block, certification, table of contents, forward-looking
    statement disclaimer, the report's definitions of its names, or a page header."""
    return boilerplate_kind(text) is not None
