"""Which statement a table is: titles as filed -> income|balance|cashflow|equity|segment|quarterly.

A primary statement is recognised by its title ('CONSOLIDATED BALANCE SHEETS',
'NIKE, Inc. Consolidated Statements of Income', 'Statements of Consolidated Cash Flows',
Microsoft's 'INCOME STATEMENTS', 'CASH FLOWS STATEMENTS' and 'STOCKHOLDERS' EQUITY STATEMENTS');
comprehensive income counts as income. Segment and quarterly tables are recognised
by their headings ('Segment information', 'Quarterly Financial Data (Unaudited)').
"""

from __future__ import annotations

import re

from finqa.lexicon.model import StatementKind

__all__ = [
    "classify_statement",
    "title_kind",
    "formal_title_kind",
    "heading_kind",
    "statement_of_page",
]

_KINDS: tuple[tuple[StatementKind, re.Pattern[str]], ...] = (
    (
        "cashflow",
        re.compile(
            r"statements?\s*of\s*(?:consolidated\s*)?cash\s*flows?|cash\s*flows?\s*statements?",
            re.I,
        ),
    ),
    (
        "balance",
        re.compile(
            r"balance\s*sheets?|statements?\s*of\s*(?:consolidated\s*)?financial\s*(?:position|condition)",
            re.I,
        ),
    ),
    (
        "equity",
        re.compile(
            r"statements?\s*of\s*(?:consolidated\s*)?(?:changes\s*in\s*)?(?:stock|share)?(?:holders|owners)?['\u2019]?\s*(?:s\s*)?equity"
            r"|(?:stock|share)holders['\u2019]?\s*equity\s*statements?",
            re.I,
        ),
    ),
    (
        "income",
        re.compile(
            r"statements?\s*of\s*(?:consolidated\s*)?(?:comprehensive\s*)?(?:income|operations|earnings|loss)"
            r"|income\s*statements?",
            re.I,
        ),
    ),
)
_TITLE = re.compile(
    r"^(?:the)?(?:condensed)?(?:consolidated)?(?:andcombined)?(?:condensed)?"
    r"(?:statements?of(?:consolidated)?(?:cashflows?|operations|income|earnings|comprehensive(?:income|loss|earnings)"
    r"|financialposition|financialcondition|(?:changesin)?(?:share|stock)?(?:holders|owners)?s?equity)"
    r"(?:andcomprehensive(?:income|loss))?|balancesheets?|incomestatements?|cashflows?statements?"
    r"|(?:stock|share)holdersequitystatements?)"
    r"(?:continued|unaudited|inmillions|inthousands)*"
)
# what may follow a statement's name in its title: the entity, a flag, or the release's
# 'and Other Information' (Intel's 'Consolidated Statements of Income and Other Information')
_TITLE_REST = re.compile(
    r"^$|subsidiar|incorporated|inc$|corporation|compan|plc$|llc$|ltd$|continued|unaudited"
    r"|^and(?:other|supplemental)(?:financial)?information$"
)
_COMPANY_END = re.compile(
    r"(?:inc|incorporated|corporation|corp|company|companies|co|plc|ltd|llc|subsidiaries"
    r"|index|tableofcontents|contents)$"  # or a running head linking back to the index
)
_WORDS = re.compile(
    r"statements?|of|cash|flows?|operations|income|earnings|comprehensive|balance|sheets?|"
    r"financial|position|condition|changes|in|stock|share|holders|owners|equity"
)
_SEGMENT = re.compile(
    r"\b(?:business|reportable|operating|geographic)\s+segments?\b|\bsegment\s+(?:information|results|data|reporting)\b"
    r"|\binformation\s+(?:by|about)\s+(?:business\s+|reportable\s+|operating\s+)?segments?\b",
    re.I,
)
_QUARTERLY = re.compile(
    r"\bquarterly\s+(?:financial\s+)?(?:data|results|information|financial\s+information)\b"
    r"|\bselected\s+quarterly\b|\bunaudited\s+quarterly\b",
    re.I,
)


def classify_statement(text: str) -> StatementKind | None:
    """The primary statement a text names ('statements of cash flows' -> 'cashflow'), else None."""
    for kind, pattern in _KINDS:
        if pattern.search(text):
            return kind
    return None


def _statements_named(text: str) -> set[StatementKind]:
    """Every primary statement a text names (an index line names several)."""
    return {kind for kind, pattern in _KINDS if pattern.search(text)}


def title_kind(line: str) -> StatementKind | None:
    """The primary statement a title line names ('CONSOLIDATED BALANCE SHEETS' -> 'balance')."""
    if len(line) > 120 or line.rstrip().endswith(".") or not line.lstrip()[:1].isupper():
        return None
    key = re.sub(r"\(.*?\)", "", line.lower())
    key = re.sub(r"[^a-z]", "", key)
    m = _TITLE.match(key) if key else None
    if m is None:  # 'NIKE, Inc. Consolidated Statements of Income'
        at = min(
            (
                i
                for i in (key.find("consolidated"), key.find("statement"), key.find("balancesheet"))
                if i > 0
            ),
            default=-1,
        )
        if at > 0 and _COMPANY_END.search(key[:at]):
            key = key[at:]
            m = _TITLE.match(key)
    if m is None or not _TITLE_REST.search(key[m.end() :]):
        return None
    # a parenthetical is no part of the name ("STOCKHOLDERS' (DEFICIT) EQUITY")
    spaced = re.sub(r"([a-z])([A-Z])", r"\1 \2", re.sub(r"\(.*?\)", " ", line))
    return classify_statement(spaced) or classify_statement(" ".join(_WORDS.findall(key)))


def heading_kind(line: str) -> StatementKind | None:
    """'segment' or 'quarterly' for the headings of those notes (short lines only), else None."""
    if len(line) > 80 or line.rstrip().endswith((":", ".", ";")):
        return None
    if _QUARTERLY.search(line):
        return "quarterly"
    if _SEGMENT.search(line):
        return "segment"
    return None


# a title deep in the page head must say it is the entity's statement ('Consolidated ...');
# a bare 'Statement of Earnings' there is a column caption of a note table
_FORMAL = re.compile(r"consolidated|combined|condensed", re.I)
_INDEX = re.compile(r"\bindex\s+to\s+(?:the\s+)?(?:consolidated\s+)?financial\s+statements\b", re.I)


def formal_title_kind(line: str) -> StatementKind | None:
    """The primary statement a formal title line names ('Condensed Consolidated Balance
    Sheet'); None for a line without 'consolidated', 'combined' or 'condensed', or no title."""
    text = line.strip()
    return title_kind(text) if _FORMAL.search(text) else None


def _is_index(lines: list[str]) -> bool:
    """An index / table of contents listing the statements (titles followed by page numbers).

    An 'Index to Consolidated Financial Statements' heading makes an index only when the page
    goes on to name more than one statement: filers print it as a running head (a link back
    to the index) at the top of every statement page, over that page's one title.
    """
    top = [ln.strip() for ln in lines if ln.strip()][:40]
    if any(_INDEX.search(ln) for ln in top[:12]):
        named = {classify_statement(ln) for ln in top if not _INDEX.search(ln)}
        return len(named - {None}) >= 2
    titles = sum(1 for at, ln in enumerate(top) if any(map(title_kind, _title_candidates(ln, at))))
    # an index run onto one line: 'Consolidated Statements of Operations 56 Consolidated
    # Statements of Comprehensive Income (Loss) 57 Consolidated Statements of Cash Flows 58'
    listed = any(
        ln.lower().count("statement") >= 2  # cheap test first: pages run to long lines
        and re.search(r"\d", ln)
        and len(_statements_named(ln)) >= 3
        for ln in top
    )
    return titles >= 3 or listed


_FIGURES_START = re.compile(r"\d")
_BROKEN_WORD = re.compile(r"^[a-z]+\s+(?=[A-Z])")


def _title_candidates(line: str, at: int) -> list[str]:
    """The line, and the title it may open: a title the extractor ran into the table's header
    ('Consolidated Balance Sheets Corning Incorporated and Subsidiary Companies December 31,
    (In millions) 2015 2014 Assets ...' -> the text before the first figure),
    and at the very top a title after the tail of a word cut off the page before ('heets
    Consolidated Balance Sheets')."""
    out = [line]
    m = _FIGURES_START.search(line)
    if m and m.start() >= 12 and len(_statements_named(line)) < 2:  # not an index's line
        out.append(line[: m.start()].strip())
    if at < 2:
        out += [c[m.end() :] for c in list(out) if (m := _BROKEN_WORD.match(c))]
    return out


def statement_of_page(lines: list[str], head: int = 8) -> tuple[StatementKind | None, str]:
    """(kind, title line) from the first `head` non-empty lines of a page; (None, '') when none.

    Titles broken over several short lines ('CONSOLIDATED' / 'BALANCE SHEETS') are joined.
    """
    recent: list[str] = []
    top = [ln.strip() for ln in lines if ln.strip()][:head]
    if _is_index(lines):
        return None, ""
    for at, line in enumerate(top):
        for cand in _title_candidates(line, at):
            kind = title_kind(cand)
            if kind and (at < 4 or _FORMAL.search(cand)):
                return kind, cand
        if len(line) <= 40 and not re.search(r"\d", line):
            recent.append(line)
            for k in range(2, min(5, len(recent)) + 1):
                joined = " ".join(recent[-k:])
                kind = title_kind(joined)
                if kind:
                    return kind, joined
        else:
            recent.clear()
    for line in top:
        kind = heading_kind(line)
        if kind:
            return kind, line
    broken = _broken_title(lines, head)
    return broken if broken[0] is not None else _title_below(lines)


def _broken_title(lines: list[str], head: int) -> tuple[StatementKind | None, str]:
    """A formal title printed a word a line under an entity's name printed the same way ('MGM'
    / 'RESORTS' / 'INTERNATIONAL' / 'AND' / 'SUBSIDIARIES' / 'CONSOLIDATED' / 'STATEMENTS' / 'OF'
    / 'CASH' / 'FLOWS'): the page's opening run of one- or two-word lines, read within
    three times `head` lines, joined; its title is the formal words to its end."""
    run: list[str] = []
    for ln in lines:
        line = ln.strip()
        if not line:
            continue
        if not _BROKEN_TITLE_WORD.fullmatch(line) or len(run) >= 3 * head:
            break
        run.append(line)
    joined = " ".join(run)
    m = _FORMAL.search(joined)
    if m is None:
        return None, ""
    title = joined[m.start() :]
    kind = title_kind(title)
    return (kind, title) if kind in ("income", "balance", "cashflow", "equity") else (None, "")


# a line holding one or two words of a title or an entity's name broken one word a line
# ('MGM' / 'RESORTS' / 'INTERNATIONAL' / 'AND' / 'SUBSIDIARIES' / 'CONSOLIDATED' / ...), or the
# number of the item the statements open ('ITEM' / '8.' / 'FINANCIAL' / 'STATEMENTS' / ...)
_BROKEN_TITLE_WORD = re.compile(
    r"[A-Za-z&,.'\u2019-]{1,20}(?:\s[A-Za-z&,.'\u2019-]{1,20})?|\d{1,2}[A-Z]?\.?"
)


_SCALE_NOTE = re.compile(r"^\(.*\b(?:millions?|thousands?|billions?)\b.*\)$", re.I)


def _title_below(lines: list[str]) -> tuple[StatementKind | None, str]:
    """A statement that starts below the head of its page (a release's statements after its
    prose): the entity's name, then a formal title ('Lockheed Martin Corporation' /
    'Consolidated Balance Sheets'), then within three lines its scale note or period header."""
    from finqa.lexicon.statements.header import is_header_line  # header does not import us

    top = [ln.strip() for ln in lines if ln.strip()]
    for at in range(1, len(top) - 1):
        line = top[at]
        if len(line) > 80 or not _FORMAL.search(line):
            continue
        kind = title_kind(line)
        if kind not in ("income", "balance", "cashflow", "equity"):
            continue
        entity = re.sub(r"[^a-z]", "", top[at - 1].lower())
        below = top[at + 1 : at + 4]
        if _COMPANY_END.search(entity) and any(
            _SCALE_NOTE.match(ln) or is_header_line(ln) for ln in below
        ):
            return kind, line
    return None, ""
