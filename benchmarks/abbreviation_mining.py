"""Mine the abbreviations filings define ('Chief Executive Officer ("CEO")') and write the
lexicon's table of them.

    python -m finqa.benchmarks.abbreviation_mining            # print the table it would write
    python -m finqa.benchmarks.abbreviation_mining --write    # refresh lexicon/data/abbreviations.csv

Reads ../shared/financebench/pages.jsonl.gz (344 filings of 40+ companies, most with no
question). A definition is words followed by a parenthesised upper-case abbreviation whose
letters are the initials of the words just before it ('Selling, General and Administrative
("SG&A")', 'right-of-use ("ROU")'). An abbreviation is kept when at least `--min-companies`
companies of at least `--min-sectors` GICS sectors (documents.jsonl) define it and one long form
holds most of its definitions: that is the filings' common language, not one company's name for
one of its programmes nor one industry's jargon ('PE', pulmonary embolism, in drug makers'
filings, would turn a question about a P/E ratio into one about a disease). The query analysis expands
an abbreviation a question uses to its long form, so a question about the 'new CEO' also finds
the page that only says 'Chief Executive Officer'.
"""

from __future__ import annotations

import argparse
import csv
import re
import sys
from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from finqa.benchmarks.label_mining import (
    DEFAULT_DOCS,
    DEFAULT_PAGES,
    company_of_filing,
    documents,
    iter_pages,
)
from finqa.lexicon.abbreviations import ABBREVIATIONS_PATH

__all__ = [
    "Definitions",
    "long_form",
    "mine_abbreviations",
    "sector_of_company",
    "table",
    "main",
]

_SMALL = frozenset({"and", "of", "&", "for", "the", "in", "on", "to", "or", "a"})
_ABBREVIATION = re.compile(r"\(\s*(?:the\s+|an?\s+)?[\"“”'‘’]?([A-Z][A-Z&]{1,6})s?[\"“”'‘’]?\s*\)")
_WORDS = re.compile(r"[A-Za-z][A-Za-z\-]*|&")


def _initials(words: list[str]) -> tuple[str, str]:
    """(initials of the content words, initials of every hyphen part of them)."""
    content = [w for w in words if w.lower() not in _SMALL]
    return (
        "".join(w[0].upper() for w in content),
        "".join(p[0].upper() for w in content for p in w.split("-") if p),
    )


def long_form(words: list[str], abbreviation: str) -> str | None:
    """The shortest run of `words` ending the list, opening on a content word, whose initials
    spell the abbreviation's letters ('&' is not a letter); None when no run does."""
    letters = abbreviation.replace("&", "")
    for start in range(len(words) - 1, -1, -1):
        tail = words[start:]
        if tail[0].lower() in _SMALL:
            continue
        if letters in _initials(tail):
            return " ".join(tail).lower()
    return None


@dataclass
class Definitions:
    """How the filings define one abbreviation: definitions, companies and sectors per long form."""

    counts: Counter[str] = field(default_factory=Counter)
    companies: dict[str, set[str]] = field(default_factory=lambda: defaultdict(set))
    sectors: dict[str, set[str]] = field(default_factory=lambda: defaultdict(set))


def mine_abbreviations(
    pages: Iterable[dict[str, object]],
    company_of: dict[str, str],
    sector_of: dict[str, str] | None = None,
) -> dict[str, Definitions]:
    """abbreviation -> its Definitions over `pages` (a company of unknown sector is its own)."""
    sector_of = sector_of or {}
    found: dict[str, Definitions] = {}
    for page in pages:
        text = " ".join(str(page.get("text") or "").split())
        doc = str(page.get("doc_name"))
        company = company_of.get(doc) or doc.split("_")[0]
        for m in _ABBREVIATION.finditer(text):
            abbreviation = m.group(1)
            words = _WORDS.findall(text[max(m.start() - 120, 0) : m.start()])[-8:]
            long = long_form(words, abbreviation)
            if long is None:
                continue
            d = found.setdefault(abbreviation, Definitions())
            d.counts[long] += 1
            d.companies[long].add(company)
            d.sectors[long].add(sector_of.get(company) or company)
    return found


def table(
    found: dict[str, Definitions],
    min_companies: int = 2,
    min_sectors: int = 2,
    dominance: float = 0.6,
) -> list[dict[str, str]]:
    """Rows of the lexicon's table: abbreviations that at least `min_companies` companies of
    `min_sectors` sectors define with one long form holding `dominance` of the definitions (one
    industry's jargon, 'PE' for pulmonary embolism in two drug makers' filings, stays out)."""
    rows = []
    for abbreviation, d in sorted(found.items()):
        long, n = d.counts.most_common(1)[0]
        if len(d.companies[long]) < min_companies or len(d.sectors[long]) < min_sectors:
            continue
        if n < dominance * sum(d.counts.values()):
            continue
        rows.append(
            {
                "abbreviation": abbreviation,
                "long_form": long,
                "companies": str(len(d.companies[long])),
                "sectors": str(len(d.sectors[long])),
                "definitions": str(n),
            }
        )
    return rows


def sector_of_company(path: Path) -> dict[str, str]:
    """company -> GICS sector from a documents.jsonl ({} when the file is missing)."""
    rows = documents(path)
    return {str(r["company"]): str(r["gics_sector"]) for r in rows if r.get("company") and r.get("gics_sector")}  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m finqa.benchmarks.abbreviation_mining")
    p.add_argument("--pages", default=str(DEFAULT_PAGES))
    p.add_argument("--documents", default=str(DEFAULT_DOCS))
    p.add_argument("--min-companies", type=int, default=2)
    p.add_argument("--min-sectors", type=int, default=2)
    p.add_argument("--write", action="store_true", help=f"write {ABBREVIATIONS_PATH.name}")
    args = p.parse_args(argv)
    pages = Path(args.pages)
    if not pages.exists():
        print(f"error: {pages} not found", file=sys.stderr)
        return 2
    docs = Path(args.documents)
    found = mine_abbreviations(iter_pages(pages), company_of_filing(docs), sector_of_company(docs))
    rows = table(found, args.min_companies, args.min_sectors)
    if args.write and not rows:
        print(f"error: no abbreviation in {pages} passes; {ABBREVIATIONS_PATH.name} kept", file=sys.stderr)  # fmt: skip
        return 2
    if args.write:
        with ABBREVIATIONS_PATH.open("w", encoding="utf-8", newline="") as fh:
            w = csv.DictWriter(fh, fieldnames=list(rows[0]))
            w.writeheader()
            w.writerows(rows)
        print(f"wrote {len(rows)} abbreviations to {ABBREVIATIONS_PATH}")
    else:
        for r in rows:
            print(
                f"{r['abbreviation']:8} {r['long_form']:60} {r['companies']:>3} {r['sectors']:>2} {r['definitions']:>4}"
            )
        print(f"{len(rows)} abbreviations ({len(found)} defined anywhere)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
