"""Companies: the gazetteer (data/companies.csv), lookup, and detection in free text.

Matching is case- and punctuation-insensitive ('Coca Cola' = 'Coca-Cola' = 'COCACOLA',
'JnJ' = 'J&J' = 'Johnson & Johnson', "McDonald's" = 'McDonalds'), except for names made
only of ordinary words (data/ambiguous_words.txt: 'Target', 'Block', 'Best Buy'), which
must be written with their capitals. Tickers match only written in upper case; tickers
that are words or common abbreviations ('ALL', 'IT', 'ON', 'LOW', 'KEY', 'CAT') only in
ticker context ('NYSE: ALL', '(LOW)', "CAT's", '$KEY', 'ticker IT').
"""

from __future__ import annotations

import calendar
import re
from dataclasses import dataclass
from datetime import date, timedelta
from pathlib import PurePath

from finqa.lexicon._data import data_cache, read_csv, read_words
from finqa.lexicon.display import own_year

__all__ = [
    "Company",
    "CompanyMatch",
    "all_companies",
    "lookup_company",
    "company_for_doc",
    "find_companies",
    "name_forms",
    "normalize_name",
    "calendar_years",
    "tickers_in_text",
]


@dataclass(frozen=True, slots=True)
class Company:
    """One company of the gazetteer. FY N is the fiscal year that ends in calendar year N."""

    name: str
    ticker: str
    aliases: tuple[str, ...] = ()
    fiscal_year_end_month: int = 12
    doc_prefixes: tuple[str, ...] = ()
    legal_name: str = ""
    former_names: tuple[str, ...] = ()
    brands: tuple[str, ...] = ()
    other_tickers: tuple[str, ...] = ()
    fy_label: str = "end"  # 'start': the company names a year by the year it starts in
    sector: str = ""

    def fiscal_year_end(self, fiscal_year: int) -> date:
        """Approximate last day of fiscal year N (52/53-week years end within days of it)."""
        month = self.fiscal_year_end_month
        return date(fiscal_year, month, calendar.monthrange(fiscal_year, month)[1])

    def fiscal_year_start(self, fiscal_year: int) -> date:
        month = self.fiscal_year_end_month % 12 + 1
        year = fiscal_year if month == 1 else fiscal_year - 1
        return date(year, month, 1)

    def fiscal_year_of(self, day: date, *, period_end: bool = False) -> int:
        """The fiscal year (end-year convention) that contains `day`. For a period-end date a
        52/53-week year may end up to a week into the next month (Costco's FY2023 ended on
        September 3, 2023), so such dates count for the month before."""
        if period_end and day.day <= 7:
            day = day - timedelta(days=7)
        return day.year if day.month <= self.fiscal_year_end_month else day.year + 1

    def own_label(self, fiscal_year: int) -> int:
        """How the company itself names fiscal year N (Ulta calls the year ended Jan 2023 '2022')."""
        return own_year(fiscal_year, self.fy_label)


@dataclass(frozen=True, slots=True)
class CompanyMatch:
    name: str
    ticker: str
    matched: str
    start: int
    end: int
    via: str = "name"  # name | alias | former | brand | ticker


_SPLIT = re.compile(r"\s*\|\s*")
_TOKEN = re.compile(r"[A-Za-z0-9]+|&")
# the words that end a company's legal name ('Inc.', 'Corporation', 'plc', 'N.V.'), dots left out
LEGAL_SUFFIXES = frozenset(
    {"inc", "incorporated", "corp", "corporation", "company", "co", "plc", "ltd", "limited",
     "llc", "lp", "sa", "nv", "ag", "se"}
)  # fmt: skip
_SUFFIXES = LEGAL_SUFFIXES | {"the"}
_PRIORITY = {"name": 0, "alias": 1, "former": 2, "brand": 3}


def _list(cell: str | None) -> tuple[str, ...]:
    return tuple(x for x in _SPLIT.split(cell or "") if x)


@data_cache()
def all_companies() -> tuple[Company, ...]:
    """Every company of the gazetteer, in file order."""
    out = []
    for row in read_csv("companies.csv"):
        out.append(
            Company(
                name=row["name"].strip(),
                ticker=row["ticker"].strip(),
                aliases=_list(row.get("aliases")),
                fiscal_year_end_month=int(row.get("fye_month") or 12),
                doc_prefixes=_list(row.get("doc_prefixes")),
                legal_name=(row.get("legal_name") or "").strip(),
                former_names=_list(row.get("former_names")),
                brands=_list(row.get("brands")),
                other_tickers=_list(row.get("other_tickers")),
                fy_label=(row.get("fy_label") or "end").strip(),
                sector=(row.get("sector") or "").strip(),
            )
        )
    return tuple(out)


def _tokens(text: str) -> list[str]:
    return ["and" if t == "&" else t.lower() for t in _TOKEN.findall(text)]


def normalize_name(text: str) -> str:
    """Case/punctuation-free key: 'Coca-Cola Co.' -> 'coca cola co', 'J&J' -> 'j and j'."""
    return " ".join(_tokens(text))


def _variants(alias: str) -> set[str]:
    """Keys under which an alias is indexed (apostrophes merged or split, suffixes dropped)."""
    out: set[str] = set()
    for form in (alias.replace("'", "").replace("\u2019", ""), alias):
        toks = _tokens(form)
        if not toks:
            continue
        out.add(" ".join(toks))
        core = list(toks)
        while len(core) > 1 and core[0] == "the":
            core = core[1:]
        while len(core) > 1 and core[-1] in _SUFFIXES:
            core = core[:-1]
        if core and not (core[-1] == "and" or core[0] == "and"):
            out.add(" ".join(core))
        merged = "".join(t for t in core if t != "and")
        if len(core) > 1 and len(merged) >= 6:
            out.add(merged)
    return out


def name_forms(name: str) -> tuple[str, ...]:
    """The keys (`normalize_name` form) a registrant name is written under, from the name alone
    (no gazetteer): as printed, without a leading 'The' and trailing legal designators ('THE
    BOEING COMPANY' -> 'boeing'), and with its words run together; a form that is a single
    ordinary English word (ambiguous_words.txt: 'Target Corporation' -> not 'target') is left out."""
    words = read_words("ambiguous_words.txt")
    return tuple(sorted(k for k in _variants(name) if " " in k or k not in words))


_TICKERISH = re.compile(r"\b[A-Za-z]*[A-Z][A-Za-z]*[A-Z][A-Za-z]*\b")


def tickers_in_text(text: str, tickers: frozenset[str] | set[str]) -> list[str]:
    """Tickers of `tickers` (upper case) the text writes as a word with two or more capitals
    ('JPM's', 'JnJ' for JNJ), in order; a ticker that is an ordinary English word ('ALL',
    'LOW') is never read from text alone."""
    words = read_words("ambiguous_words.txt")
    found: list[str] = []
    for m in _TICKERISH.finditer(text):
        t = m.group(0).upper()
        if 2 <= len(t) <= 5 and t in tickers and t.lower() not in words and t not in found:
            found.append(t)
    return found


@dataclass(frozen=True, slots=True)
class _Entry:
    company: Company
    alias: str
    via: str
    strict: bool  # only matches when written with the alias's capitals


@data_cache()
def _index() -> dict[str, tuple[_Entry, ...]]:
    words = read_words("ambiguous_words.txt")
    abbreviations = read_words("acronyms.txt")
    idx: dict[str, list[_Entry]] = {}
    for c in all_companies():
        named = [(c.name, "name"), (c.legal_name, "name")]
        named += [(a, "alias") for a in c.aliases]
        named += [(a, "former") for a in c.former_names]
        named += [(a, "brand") for a in c.brands]
        for alias, via in named:
            if not alias:
                continue
            core = alias.replace(".", "").strip()
            acronym = core.isupper() and core.isalpha() and len(core) <= 5
            toks = [t for t in _tokens(alias) if t not in _SUFFIXES]
            shouted = any(w.isupper() and w.lower() in words for w in _TOKEN.findall(alias))
            strict = (
                acronym
                or shouted  # 'ON Semiconductor' is not 'on semiconductor'
                or all(t in words or len(t) == 1 for t in toks)  # 'U.S. Bank', 'AT&T'
            )
            for key in _variants(alias):
                if " " not in key and key.upper() in abbreviations:
                    continue  # 'PTC' (pre-tax contribution): only as a ticker in context
                entries = idx.setdefault(key, [])
                if not any(e.company is c for e in entries):
                    entries.append(_Entry(c, alias, via, strict))
    return {k: tuple(sorted(v, key=lambda e: _PRIORITY[e.via])) for k, v in idx.items()}


@data_cache()
def _first_words() -> dict[str, tuple[int, ...]]:
    """first word of an indexed alias -> alias lengths in words, longest first."""
    lengths: dict[str, set[int]] = {}
    for key in _index():
        words = key.split()
        lengths.setdefault(words[0], set()).add(len(words))
    return {w: tuple(sorted(ns, reverse=True)) for w, ns in lengths.items()}


@data_cache()
def _tickers() -> dict[str, Company]:
    out: dict[str, Company] = {}
    for c in all_companies():
        for t in (c.ticker, *c.other_tickers):
            out.setdefault(t.upper(), c)
    return out


@data_cache()
def _prefixes() -> list[tuple[str, Company]]:
    out: list[tuple[str, Company]] = []
    for c in all_companies():
        keys = {p.upper() for p in c.doc_prefixes}
        keys.add(re.sub(r"[^A-Z0-9]", "", c.name.upper()))
        keys.add(c.ticker.upper().replace(".", ""))
        out += [(k, c) for k in keys if k]
    out.sort(key=lambda kc: -len(kc[0]))
    return out


def company_for_doc(doc_name: str) -> Company | None:
    """The company of a filing from its FinanceBench-style name ('JOHNSON_JOHNSON_2022_10K')."""
    stem = PurePath(doc_name.strip()).name
    stem = re.sub(r"\.(pdf|html?|txt|jsonl?|gz)$", "", stem, flags=re.I).upper()
    for prefix, company in _prefixes():
        if stem == prefix or (stem.startswith(prefix) and not stem[len(prefix)].isalnum()):
            return company
    head = re.split(r"[_\-\s]+(?=\d|8K|10K|10Q)", stem)[0]
    return lookup_company(head.replace("_", " ")) if head != stem or "_" not in stem else None


def calendar_years(doc_name: str) -> bool:
    """The filing's company names each fiscal year by the calendar year it is (its years end in
    December and are named by the year they end in): a year a sentence names is that fiscal
    year. False where the company is not known or its years end in another month."""
    company = company_for_doc(doc_name)
    return company is not None and company.fiscal_year_end_month == 12 and company.fy_label == "end"


def lookup_company(name_or_ticker_or_alias: str) -> Company | None:
    """The company a name, ticker, alias, former name, brand or doc prefix denotes, or None."""
    s = name_or_ticker_or_alias.strip()
    if not s:
        return None
    tickers = _tickers()
    if s.isupper() and s.replace(".", "").replace("-", "").isalnum() and s in tickers:
        return tickers[s]
    idx = _index()
    for key in (
        normalize_name(s),
        normalize_name(s.replace("_", " ")),
        normalize_name(s).replace(" ", ""),
    ):
        entries = idx.get(key)
        if entries:
            return entries[0].company
    if s.upper() in tickers:
        return tickers[s.upper()]
    if re.fullmatch(r"[A-Z0-9_]+", s):
        for prefix, company in _prefixes():
            if s == prefix:
                return company
    matches = find_companies(s)
    names = {m.name for m in matches}
    if len(names) == 1:
        return lookup_company_by_name(matches[0].name)
    return None


@data_cache()
def _by_name() -> dict[str, Company]:
    return {c.name: c for c in all_companies()}


def lookup_company_by_name(name: str) -> Company | None:
    return _by_name().get(name)


# --------------------------------------------------------------------------- detection

_TICKER = re.compile(
    r"(?<![\w&./\-$])\$?([A-Z][A-Z0-9]{0,4}(?:\.[A-Z])?)(?![\w&]|\.[A-Za-z0-9]|-[A-Za-z0-9])"
)
_TICKER_CONTEXT = re.compile(
    r"(?:NYSE|NASDAQ|Nasdaq|NYSE\s+American|ticker|symbol|stock|shares\s+of|traded\s+as)"
    r"[\s:()\"'“”-]*\Z",
    re.I,
)
_CORP_AFTER = re.compile(
    r"\A(?:['’]s\b|\s+(?:Inc|Corp|Corporation|Company|Co|plc|Ltd|Holdings|Group)\b|\s*\(|"
    r"\s+(?:FY|Q[1-4]|H[12]|[0-9])|\s*[,:]?\s*\Z)"
)
_SENTENCE_END = re.compile(r"(?:\A|[.!?:;\n\"“(]\s*|^\s*[-•*]\s*)\Z")


def _token_spans(text: str) -> list[tuple[int, int, str]]:
    return [(m.start(), m.end(), m.group(0)) for m in _TOKEN.finditer(text)]


def _written_as(span_text: str, alias: str) -> bool:
    """The span shows the alias's own capitals (or is an all-caps multi-word heading)."""
    got = [t for t in _TOKEN.findall(span_text)]
    want = [t for t in _TOKEN.findall(alias.replace("'", "").replace("\u2019", ""))]
    if [t.lower() for t in got] != [t.lower() for t in want]:
        got_j = "".join(got)
        return got_j == "".join(want) or (len(want) > 1 and got_j.isupper())
    if got == want:
        return True
    return len(want) > 1 and all(t.isupper() for t in got)


def find_companies(text: str) -> list[CompanyMatch]:
    """Every company mention in `text` (names, aliases, former names, brands, tickers), in order."""
    idx = _index()
    first = _first_words()
    spans = _token_spans(text)
    keys = ["and" if t == "&" else t.lower() for _, _, t in spans]
    out: list[CompanyMatch] = []
    i = 0
    while i < len(spans):
        hit = None
        for n in first.get(keys[i], ()):
            if i + n > len(spans):
                continue
            key = " ".join(keys[i : i + n])
            entries = idx.get(key)
            if not entries:
                continue
            start, end = spans[i][0], spans[i + n - 1][1]
            if n > 1 and re.search(r"[\n;!?]", text[start:end]):
                continue  # do not glue tokens across lines or sentences
            entry = _accept(text, start, end, entries)
            if entry is not None:
                hit = CompanyMatch(
                    entry.company.name, entry.company.ticker, text[start:end], start, end, entry.via
                )
                i += n
                break
        if hit is None:
            i += 1
        else:
            out.append(hit)
    out += _find_tickers(text, out)
    out.sort(key=lambda m: m.start)
    return out


def _accept(text: str, start: int, end: int, entries: tuple[_Entry, ...]) -> _Entry | None:
    if text[max(0, start - 1) : start] == "$" and text[start].isdigit():
        return None  # '$3M' is money
    if start > 0 and (text[start - 1].isalnum() or text[end : end + 1].isalnum()):
        return None
    if _EXCHANGE_AFTER.match(text, end):
        return None  # '(NASDAQ: PTC)', 'the Nasdaq Global Select Market': the exchange
    span = text[start:end]
    single = len(_TOKEN.findall(span)) == 1
    if single and span.islower():
        # 'ups', 'discovery': a one-word name is written with capitals (unless it is 'atmos')
        entries = tuple(e for e in entries if e.alias == span)
    for e in entries:
        if not e.strict:
            return e
        if not _written_as(span, e.alias):
            continue
        if single and _in_title_phrase(text, start, end):
            continue  # 'Annual Target Amount', 'Dow Jones', 'Dow Corning
        sentence_start = single and _SENTENCE_END.search(text[:start])
        if sentence_start and not _CORP_AFTER.match(text[end:]):
            continue  # 'Target sales fell.' - a common word opening a sentence
        return e
    return None


_EXCHANGE_AFTER = re.compile(
    r"\s*:\s*\$?[A-Z]{1,5}\b|\s+(?:Global\s+Select|Global|Stock|Capital)\s+Market"
)
_LEFT_WORD = re.compile(r"([A-Z][A-Za-z&'’.-]*)\s{1,4}\Z")
_RIGHT_WORD = re.compile(r"\A\s{1,4}([A-Z][A-Za-z&'’-]*)")
_OK_RIGHT = {"Inc", "Corp", "Corporation", "Company", "Co", "plc", "Ltd", "Holdings", "Group", "FY"}


def _in_title_phrase(text: str, start: int, end: int) -> bool:
    """A common-word name inside a run of Capitalised Words ('Annual Target Amount')."""
    left = _LEFT_WORD.search(text[max(0, start - 30) : start])
    if left and not _SENTENCE_END.search(text[: start - len(left.group(0))]):
        return True
    right = _RIGHT_WORD.match(text[end : end + 30])
    return bool(right and right.group(1).rstrip(".,") not in _OK_RIGHT)


def _shouting(text: str, start: int, end: int) -> bool:
    """Whether the words around a span are mostly upper case (a heading, legal boilerplate)."""
    window = text[max(0, start - 40) : start] + text[end : end + 40]
    letters = [c for c in window if c.isalpha()]
    return len(letters) >= 12 and sum(c.isupper() for c in letters) / len(letters) > 0.6


_VERSUS = re.compile(r"\b(?:vs\.?|versus|than|compared (?:to|with)|and|or)\s+\Z", re.I)


def _about_company(text: str, start: int, end: int, names: list[CompanyMatch]) -> bool:
    """An upper-case word-ticker used as a company: followed by a metric ('LOW revenue') or
    set against another company ('HD versus LOW')."""
    if _shouting(text, start, end):
        return False
    from finqa.lexicon.metrics import find_metrics

    following = text[end : end + 60]
    metric = find_metrics(following)
    if metric and not following[: metric[0].start].strip():
        return True
    return bool(names) and bool(_VERSUS.search(text[max(0, start - 20) : start]))


def _find_tickers(text: str, names: list[CompanyMatch]) -> list[CompanyMatch]:
    tickers = _tickers()
    words = read_words("ambiguous_words.txt")
    acronyms = read_words("acronyms.txt")
    taken = [(m.start, m.end) for m in names]
    out: list[CompanyMatch] = []
    for m in _TICKER.finditer(text):
        sym = m.group(1)
        company = tickers.get(sym)
        if company is None:
            continue
        start, end = m.start(1), m.end(1)
        if any(s < end and start < e for s, e in taken):
            continue
        before, after = text[max(0, start - 30) : start], text[end : end + 12]
        exchange = m.group(0).startswith("$") or bool(_TICKER_CONTEXT.search(before))
        possessive = bool(re.match(r"['’]s\b", after))
        if len(sym) < 2 or sym in acronyms:
            ok = exchange  # 'A', 'IT', 'CF': only 'NYSE: IT', 'ticker A', '$IT'
        elif sym.lower() in words:
            # 'ALL', 'LOW', 'CAT': also "CAT's", 'LOW revenue', 'HD versus LOW'
            ok = exchange or possessive or _about_company(text, start, end, names)
        else:
            ok = exchange or possessive or not _shouting(text, start, end)
        if ok:
            out.append(CompanyMatch(company.name, company.ticker, sym, start, end, "ticker"))
    return out
