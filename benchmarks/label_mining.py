"""Mine the row labels that filings use in their statement tables, and check the catalogue.

    python -m finqa.benchmarks.label_mining                       # mine, then check the catalogue
    python -m finqa.benchmarks.label_mining --write-support       # refresh lexicon/data/label_support.json
    python -m finqa.benchmarks.label_mining --candidates revenue  # labels filings use near an item

Reads ../shared/financebench/pages.jsonl.gz (344 filings of 40+ companies, most with no
question) and collects, from pages that look like financial tables (a money-scale header or a
statement title), every line that is a caption followed by figures. A caption's key is its
letters only, lower case (`lexicon.line_items.label_key`), so 'Costofgoodssold' from a PDF
without spaces and 'Cost of goods sold' are one label. For each key it records the filings and
companies that use it. The catalogue check lists, for every caption of the catalogue
(`lexicon/data/metrics.yaml`: `read:` labels and `line_items`), the filings that justify it; `--write-support` stores that
evidence (label -> filing count, company count, up to five example filings) in
`lexicon/data/label_support.json`, which a test holds the catalogue to.
"""

from __future__ import annotations

import argparse
import gzip
import json
import re
import sys
from collections import defaultdict
from collections.abc import Iterable, Iterator
from pathlib import Path

from finqa.benchmarks.reasoning_eval import DEFAULT_QUESTIONS
from finqa.lexicon.line_items import SUPPORT_PATH, label_key, line_items

__all__ = [
    "mine_labels",
    "catalogue_support",
    "company_of_filing",
    "documents",
    "iter_pages",
    "main",
    "LabelStats",
]

DEFAULT_PAGES = DEFAULT_QUESTIONS.with_name("pages.jsonl.gz")
DEFAULT_DOCS = DEFAULT_PAGES.with_name("documents.jsonl")
# a page is a financial table page when it declares a money scale or names a statement
_TABLE_PAGE = re.compile(
    r"in (?:millions|thousands|billions)|(?:balance sheets?|statements? of (?:consolidated )?"
    r"(?:income|operations|earnings|cash flows?|financial (?:position|condition)))",
    re.I,
)
_FIGURE = re.compile(
    r"^[\s$€£(]*-?\d[\d,]*(?:\.\d+)?\)?%?[\s$]*$|^[\s$]*[\u2014\u2013-]{1,2}[\s$]*$"
)
_CELL = re.compile(r"^[$€£(]*-?\d[\d,]*(?:\.\d+)?\)?%?$|^[$\u2014\u2013-]{1,2}$")
_DOLLAR_ONLY = re.compile(r"^[\s$€£]*$")
_CAPTION = re.compile(r"^[A-Za-z][A-Za-z0-9 ,'’&()/.\-:]{2,90}$")


class LabelStats:
    """How one label key is used: its commonest written form, filings and companies."""

    __slots__ = ("forms", "filings", "companies")

    def __init__(self) -> None:
        self.forms: dict[str, int] = defaultdict(int)
        self.filings: set[str] = set()
        self.companies: set[str] = set()

    @property
    def label(self) -> str:
        return max(self.forms, key=lambda f: (self.forms[f], f))


def _captions(text: str) -> Iterator[str]:
    """Captions of the page's table rows: a caption line followed by a figure, or 'caption 1,234'."""
    lines = [x.strip() for x in text.replace("\r", "\n").split("\n")]
    lines = [x for x in lines if x]
    for i, line in enumerate(lines):
        toks = line.split()
        n = len(toks)
        while n and _CELL.match(toks[n - 1]):
            n -= 1  # trailing figure cells ('$ 1,234 (567)')
        if 0 < n < len(toks) and any(c.isdigit() for c in " ".join(toks[n:])):
            cap = " ".join(toks[:n]).rstrip(" $:")
            if _CAPTION.match(cap):
                yield cap
            continue
        after = [x for x in lines[i + 1 : i + 4] if not _DOLLAR_ONLY.match(x)][:1]
        if _CAPTION.match(line) and after and _FIGURE.match(after[0]):
            yield line.rstrip(" $:")


def iter_pages(path: Path) -> Iterator[dict[str, object]]:
    """The pages of a pages.jsonl.gz, one dict each; a line that is not JSON is reported and skipped."""
    with gzip.open(path, "rt", encoding="utf-8") as fh:
        for n, line in enumerate(fh, start=1):
            try:
                yield json.loads(line)
            except json.JSONDecodeError:
                print(f"warning: {path}:{n} is not JSON, skipped", file=sys.stderr)


def documents(path: Path) -> list[dict[str, object]]:
    """The rows of a documents.jsonl (doc_name, company, gics_sector, ...); [] when it is missing."""
    if not path.exists():
        return []
    lines = path.read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines if line.strip()]


def company_of_filing(path: Path) -> dict[str, str]:
    """doc_name -> company from a documents.jsonl ({} when the file is missing)."""
    return {str(r["doc_name"]): str(r.get("company") or r["doc_name"]) for r in documents(path)}


def mine_labels(pages: Iterable[dict[str, object]], company_of: dict[str, str]) -> dict[str, LabelStats]:  # fmt: skip
    """label key -> LabelStats over the table pages of `pages`."""
    stats: dict[str, LabelStats] = defaultdict(LabelStats)
    for page in pages:
        text = str(page.get("text") or "")
        if not _TABLE_PAGE.search(text):
            continue
        doc = str(page.get("doc_name"))
        company = company_of.get(doc) or doc.split("_")[0]
        for cap in _captions(text):
            key = label_key(cap)
            if len(key) < 3:
                continue
            s = stats[key]
            s.forms[" ".join(cap.split())] += 1
            s.filings.add(doc)
            s.companies.add(company)
    return dict(stats)


def catalogue_support(stats: dict[str, LabelStats]) -> dict[str, dict[str, object]]:
    """For every catalogue caption (`read:` labels, then `line_items`): filings and
    companies that use it, up to five example filings."""
    from finqa.lexicon import METRICS

    labels = [(item.id, label) for item in line_items().values() for label in item.labels]
    labels += [(f"metric:{m.id}", label) for m in METRICS.values() for label in m.line_items]
    out: dict[str, dict[str, object]] = {}
    for item_id, label in labels:
        key = label_key(label)
        if key in out:
            continue
        s = stats.get(key)
        out[key] = {
            "label": label,
            "item": item_id,
            "filings": len(s.filings) if s else 0,
            "companies": len(s.companies) if s else 0,
            "examples": sorted(s.filings)[:5] if s else [],
        }
    return dict(sorted(out.items()))


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(
        prog="python -m finqa.benchmarks.label_mining", description=(__doc__ or "").split("\n")[0]
    )
    p.add_argument("--pages", type=Path, default=DEFAULT_PAGES)
    p.add_argument("--documents", type=Path, default=DEFAULT_DOCS)
    p.add_argument("--out", type=Path, default=Path("/work/var/label_mining/labels.json"))
    p.add_argument("--write-support", action="store_true", help=f"write {SUPPORT_PATH}")
    p.add_argument("--candidates", metavar="ITEM", help="labels sharing a word with ITEM's labels")
    p.add_argument("--min-companies", type=int, default=2)
    args = p.parse_args(argv)
    if not args.pages.exists():
        print(f"error: pages file not found: {args.pages}", file=sys.stderr)
        return 2
    stats = mine_labels(iter_pages(args.pages), company_of_filing(args.documents))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    mined = {
        k: {"label": s.label, "filings": len(s.filings), "companies": len(s.companies)}
        for k, s in sorted(stats.items(), key=lambda kv: -len(kv[1].companies))
        if len(s.companies) >= args.min_companies
    }
    args.out.write_text(json.dumps(mined, indent=1) + "\n", encoding="utf-8")
    print(f"{len(stats)} distinct captions, {len(mined)} used by >= {args.min_companies} companies -> {args.out}")  # fmt: skip
    support = catalogue_support(stats)
    weak = {k: v for k, v in support.items() if int(str(v["companies"])) < args.min_companies}
    print(
        f"catalogue labels: {len(support)}; used by < {args.min_companies} companies: {len(weak)}"
    )
    for v in weak.values():
        print(
            f"  {v['item']:<24} {v['label']!r}: {v['filings']} filings, {v['companies']} companies"
        )
    if args.candidates:
        item = line_items()[args.candidates]
        words = {w for lab in item.labels for w in re.findall(r"[a-z]{4,}", lab.lower())}
        for k, v in mined.items():
            if k not in support and any(w in k for w in words):
                print(
                    f"  candidate {v['label']!r}: {v['filings']} filings, {v['companies']} companies"
                )
    if args.write_support:
        SUPPORT_PATH.write_text(json.dumps(support, indent=1) + "\n", encoding="utf-8")
        print(f"wrote {SUPPORT_PATH}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
