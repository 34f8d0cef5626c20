"""Mine the row labels that filings use in their statement tables, and check the catalogue.

    python -m finqa.benchmarks.label_mining                       # mine, then check the catalogue
    python -m finqa.benchmarks.label_mining --write-support       # refresh lexicon/data/label_support.json
    python -m finqa.benchmarks.label_mining --candidates revenue  # labels filings use near an item
    python -m finqa.benchmarks.label_mining --tagged ../shared/edgar --candidates cfo
    python -m finqa.benchmarks.label_mining --tagged ../shared/edgar --models INDEX --write-support

Reads ../shared/financebench/pages.jsonl.gz (344 filings of 40+ companies, most with no
question) and collects, from pages that look like financial tables (a money-scale header or a
statement title), every line that is a caption followed by figures. A caption's key is its
letters only, lower case (`lexicon.line_items.label_key`), so 'Costofgoodssold' from a PDF
without spaces and 'Cost of goods sold' are one label. For each key it records the filings and
companies that use it. The catalogue check lists, for every caption of the catalogue
(`lexicon/data/metrics.yaml`: each entry's one caption list, `line_items`), the filings that
justify it; `--write-support` stores that
evidence (label -> filing count, company count, up to five example filings) in
`lexicon/data/label_support.json`, which a test holds the catalogue to.

`--tagged DIR` adds the filers' own word: for every inline-XBRL filing in DIR, the tags of
catalogue concepts (no dimension) are matched to the row the tag-stripped document prints the
same figure on (same page, period and value, read by the statement reader as ingest reads it),
and that row's caption is recorded as tagged with the concept's item (`tagged`: the filings
whose tags say the caption is the item). `--candidates ITEM` then also lists the captions the
tags attach to ITEM that the catalogue does not read yet. The captions of every figure row the
statement reader reads in those filings count as printed by them too (a caption beside a note
reference, or one wrapped over two lines, is a row there). A caption enters the catalogue only
with filings behind it: printed by filings of `pages.jsonl.gz` or of DIR, or tagged as the item
by a filer. `--models INDEX` counts the same way the row captions of an index's statement
models (`statements/*.parquet`, read at ingest from the filings of pages.jsonl.gz): a caption a
PDF's text wraps over two lines is a row there though no line of the page reads 'caption 1,234'.
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
from typing import Any

from finqa.benchmarks.reasoning_eval import DEFAULT_QUESTIONS
from finqa.lexicon.line_items import (
    SUPPORT_PATH,
    catalogue_items,
    get_item,
    label_key,
)

__all__ = [
    "mine_labels",
    "catalogue_support",
    "company_of_filing",
    "documents",
    "iter_pages",
    "main",
    "LabelStats",
    "mine_tagged_captions",
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


def mine_model_captions(statements: Path, company_of: dict[str, str]) -> dict[str, LabelStats]:
    """label key -> LabelStats of the row captions of the statement models in `statements`
    (`<doc_id>.parquet`, as an index keeps them), each printed by its filing."""
    import pandas as pd

    stats: dict[str, LabelStats] = defaultdict(LabelStats)
    for path in sorted(statements.glob("*.parquet")):
        try:
            facts = pd.read_parquet(path, columns=["doc_id", "label"])
        except (OSError, ValueError, KeyError):
            continue  # a model without facts
        for doc, label in set(zip(facts["doc_id"], facts["label"], strict=True)):
            cap = " ".join(str(label).split())
            if len(label_key(cap)) < 3:
                continue
            s = stats[label_key(cap)]
            s.forms[cap] += 1
            s.filings.add(str(doc))
            s.companies.add(company_of.get(str(doc)) or str(doc).split("_")[0])
    return dict(stats)


def _merge(stats: dict[str, LabelStats], more: dict[str, LabelStats]) -> None:
    for key, extra in more.items():
        s = stats.setdefault(key, LabelStats())
        for form, n in extra.forms.items():
            s.forms[form] += n
        s.filings |= extra.filings
        s.companies |= extra.companies


def mine_tagged_captions(filings: Iterable[Path]) -> dict[str, dict[str, Any]]:
    """label key -> {'label', 'items': {item: [filings]}, 'printed': [filings]}: the captions of
    the rows on which each filing prints a figure it tags with a catalogue concept (module
    docstring); a figure printed on more than one row of its page and period (or zero) names no
    caption. `printed`: the filings whose statement reader reads the caption as a figure row."""
    import tempfile
    from datetime import date

    from finqa.agents.retrieval.loaders import LoadedDoc, load_path
    from finqa.agents.retrieval.metadata import doc_metadata
    from finqa.benchmarks._xbrl_recovery import fye_month_of
    from finqa.benchmarks.xbrl import strip_tags
    from finqa.lexicon.statements import read_pages
    from finqa.lexicon.xbrl import period_key

    out: dict[str, dict[str, Any]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for path in filings:
            tagged = next((d for d in load_path(path) if isinstance(d, LoadedDoc)), None)
            if tagged is None or not tagged.facts:
                continue
            plain_path = Path(tmp) / path.name
            plain_path.write_bytes(strip_tags(path.read_bytes()))
            plain = next((d for d in load_path(plain_path) if isinstance(d, LoadedDoc)), None)
            meta = doc_metadata(tagged.doc_id, dei=tagged.dei)
            if plain is None or not meta.get("period_end"):
                continue
            fp = str(meta.get("fiscal_period") or "FY")
            end = date.fromisoformat(str(meta["period_end"]))
            fye = fye_month_of(meta, end, int(fp[1]) if fp.startswith("Q") else None)
            read = read_pages(plain.doc_id, plain.pages, [(t.page, t.rows) for t in plain.tables])
            printed: dict[tuple[int, str], list[tuple[float, str]]] = defaultdict(list)
            for table in read.tables:
                for f in table.facts:
                    printed[(f.page, f.period.key)].append((abs(float(f.value)), f.label))
                    if len(label_key(f.label)) < 3:
                        continue
                    row = out.setdefault(label_key(f.label), {"label": f.label, "items": {}})
                    if path.name not in row.setdefault("printed", []):
                        row["printed"].append(path.name)
            for fact in tagged.facts:
                if fact.item is None or not fact.is_total or fact.unit not in ("USD", "USD/shares"):
                    continue
                per_share = fact.unit == "USD/shares"
                tol = 0.005 if per_share else max(1.0, 0.0005 * abs(fact.value))
                if abs(fact.value) <= tol:
                    continue  # a zero or a dash says nothing of which row it is
                rows = {
                    label_key(label): label
                    for value, label in printed.get((fact.page, period_key(fact, fye)), ())
                    if abs(value - abs(fact.value)) <= tol and label_key(label)
                }
                if len(rows) != 1:
                    continue  # the figure is on no row, or on several: no word for one caption
                ((key, label),) = rows.items()
                entry = out.setdefault(key, {"label": label, "items": {}})
                docs = entry["items"].setdefault(fact.item, [])
                if path.name not in docs:
                    docs.append(path.name)
    return out


def catalogue_support(
    stats: dict[str, LabelStats], tagged: dict[str, dict[str, Any]] | None = None
) -> dict[str, dict[str, object]]:
    """For every catalogue caption (the captions of each statement line item, then the other
    metrics' `line_items`): filings and companies that use it, up to five example filings; with
    `tagged` (`mine_tagged_captions`), the filings whose tags say the caption is its item. Each
    `read:` prefix is recorded too (key 'prefix:...'), with the filings printing a caption
    that starts with it."""
    from finqa.lexicon import METRICS

    labels = [(item.id, label) for item in catalogue_items().values() for label in item.labels]
    labels += [(f"metric:{m.id}", label) for m in METRICS.values() for label in m.line_items]
    prefixes = [(item.id, p) for item in catalogue_items().values() for p in item.prefixes]
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
        tag = (tagged or {}).get(key, {}).get("items", {}).get(item_id.removeprefix("metric:"))
        if tag:
            out[key]["tagged"] = sorted(tag)
    for item_id, prefix in prefixes:
        key = "prefix:" + label_key(prefix)
        if key in out:
            continue
        started = [k for k in stats if k.startswith(key[7:])]
        filings = sorted({f for k in started for f in stats[k].filings})
        out[key] = {
            "label": prefix,
            "item": item_id,
            "filings": len(filings),
            "companies": len({c for k in started for c in stats[k].companies}),
            "examples": filings[:5],
        }
        tag = sorted(
            {
                d
                for k, v in (tagged or {}).items()
                if k.startswith(key[7:])
                for d in v.get("items", {}).get(item_id, ())
            }
        )
        if tag:
            out[key]["tagged"] = tag
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
    p.add_argument("--tagged", type=Path, metavar="DIR", help="inline-XBRL filings (*.htm*)")
    p.add_argument("--models", type=Path, metavar="INDEX", help="an index's statement models")
    args = p.parse_args(argv)
    if not args.pages.exists():
        print(f"error: pages file not found: {args.pages}", file=sys.stderr)
        return 2
    company_of = company_of_filing(args.documents)
    stats = mine_labels(iter_pages(args.pages), company_of)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    mined = {
        k: {"label": s.label, "filings": len(s.filings), "companies": len(s.companies)}
        for k, s in sorted(stats.items(), key=lambda kv: -len(kv[1].companies))
        if len(s.companies) >= args.min_companies
    }
    args.out.write_text(json.dumps(mined, indent=1) + "\n", encoding="utf-8")
    print(f"{len(stats)} distinct captions, {len(mined)} used by >= {args.min_companies} companies -> {args.out}")  # fmt: skip
    tags: dict[str, dict[str, Any]] = {}
    if args.tagged:
        tags = mine_tagged_captions(sorted(args.tagged.glob("*.htm*")))
        rows: dict[str, LabelStats] = defaultdict(LabelStats)
        for key, tag in tags.items():  # the statement reader's rows: printed by the filing
            for filing in tag.get("printed", ()):
                rows[key].forms[" ".join(str(tag["label"]).split())] += 1
                rows[key].filings.add(filing)
                rows[key].companies.add(filing.split("-")[0])
        _merge(stats, rows)
    if args.models:
        _merge(stats, mine_model_captions(args.models / "statements", company_of))
    support = catalogue_support(stats, tags)
    weak = {
        k: v
        for k, v in support.items()
        if int(str(v["companies"])) < args.min_companies and not v.get("tagged")
    }
    print(
        f"catalogue labels: {len(support)}; used by < {args.min_companies} companies: {len(weak)}"
    )
    for v in weak.values():
        print(
            f"  {v['item']:<24} {v['label']!r}: {v['filings']} filings, {v['companies']} companies"
        )
    if args.candidates:
        item = get_item(args.candidates)
        if item is None:
            print(f"error: no line item {args.candidates!r} in the catalogue", file=sys.stderr)
            return 2
        words = {w for lab in item.labels for w in re.findall(r"[a-z]{4,}", lab.lower())}
        for k, v in mined.items():
            if k not in support and any(w in k for w in words):
                print(
                    f"  candidate {v['label']!r}: {v['filings']} filings, {v['companies']} companies"
                )
        for key, tag in tags.items():
            docs = tag["items"].get(args.candidates)
            if docs and key not in support:
                printed = stats.get(key)
                print(
                    f"  tagged {tag['label']!r}: tagged {args.candidates} by {', '.join(docs)};"
                    f" printed by {len(printed.filings) if printed else 0} filings of pages.jsonl.gz"
                )
    if args.write_support:
        SUPPORT_PATH.write_text(json.dumps(support, indent=1) + "\n", encoding="utf-8")
        print(f"wrote {SUPPORT_PATH}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
