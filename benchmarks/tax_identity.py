"""Income statements whose tax, pre-tax and after-tax rows close the tax identity in the
statement model, over every filing printed as text, with the ones that do not.

    python -m finqa.benchmarks.tax_identity [--financebench DIR] [--pages FILE] [--out DIR]
        [--docs DOC...] [--sample N] [--seed S]

Every filing of `pages.jsonl.gz` (or `--pages`) is read from its page text
(`statements.read_pages`). Each income-statement table with an income-tax row is one case:

* `closes` - the model's own rows close the identity (`statements.tax_identity`): a row the model
  names pre-tax income, the tax row as the model signs it, the after-tax row below, in every
  column the tax row prints (pre-tax - tax + the lines between as printed = after-tax);
* `sign_differs` - the printed rows close it, but the model's tax value has the other sign in
  some column (or the pre-tax row it closes from is not named pre-tax income);
* `open` - the printed rows close no identity (no pre-tax row above the tax row, an after-tax row
  more than three lines below, a note's table of tax components): listed for a look.

OUT/tax_identity.jsonl lists every case; OUT/summary.json counts them (all tables, and the main
printing of each filing's income statement). `--sample N` prints N closed cases drawn at random,
at most one per filer (seed `--seed`), each with its page lines, for a hand check of the sign
and the pre-tax row.
"""

from __future__ import annotations

import json
import random
import sys
from collections import Counter
from typing import Any

from finqa.benchmarks.part_figures import filing_pages, filings_args

__all__ = ["main", "tax_cases"]


def tax_cases(doc: str, pages: list[tuple[int, str]]) -> list[dict[str, Any]]:
    """One case per income-statement table of the filing with an income-tax row."""
    from finqa.lexicon.statements import read_pages
    from finqa.lexicon.statements.main_printing import main_pages
    from finqa.lexicon.statements.tax_identity import PRETAX_ITEM, TAX_ITEM, tax_identities

    read = read_pages(doc, pages)
    main = main_pages(read.tables).get("income")
    out: list[dict[str, Any]] = []
    for table in read.tables:
        if table.statement != "income" or table.source == "xbrl":
            continue
        tax = {f.column: f for f in table.facts if f.item == TAX_ITEM and f.unit == "USD"}
        if not tax:
            continue
        rows: dict[int, str] = {f.row: f"{f.label} [{f.item or '-'}]" for f in table.facts}
        found = tax_identities(table.facts)
        case: dict[str, Any] = {
            "doc": doc, "page": table.page, "table": table.table_id,
            "main": main is not None and abs(table.page - main) <= 1,
            "tax": {str(c): f.filed_value for c, f in sorted(tax.items())},
            "tax_raw": [f.raw for _c, f in sorted(tax.items())],
        }  # fmt: skip
        if not found:
            case.update(outcome="open", rows=[rows[r] for r in sorted(rows)][:40])
            out.append(case)
            continue
        ident = found[0]
        facts = {(f.row, f.column): f for f in table.facts}
        agrees = all(
            (f := facts.get((ident.tax_row, c))) is not None
            and abs(f.value - v) < 1e-6 * max(1, abs(v))
            for c, v in ident.expense.items()
        )
        pre = facts.get((ident.pretax_row, next(iter(ident.expense))))
        named = pre is not None and pre.item == PRETAX_ITEM
        case.update(
            outcome="closes" if agrees and named else "sign_differs",
            pretax=rows[ident.pretax_row],
            after=rows[ident.after_row],
            between=[rows[r] for r in ident.between],
            convention=ident.convention,
            expense={str(c): v / (tax[c].scale or 1.0) for c, v in ident.expense.items()},
            rate={str(c): ident.rate(c) for c in ident.expense},
            pretax_named=named,
            sign_agrees=agrees,
        )
        out.append(case)
    return out


def _summary(cases: list[dict[str, Any]]) -> dict[str, Any]:
    def count(sel: list[dict[str, Any]]) -> dict[str, int]:
        got = Counter(c["outcome"] for c in sel)
        return {"tables": len(sel), **{k: got[k] for k in ("closes", "sign_differs", "open")}}

    return {
        "filings": len({c["doc"] for c in cases}),
        "all_tables": count(cases),
        "main_printing": count([c for c in cases if c["main"]]),
        "convention": dict(Counter(str(c.get("convention")) for c in cases if "convention" in c)),
    }


def _page_lines(text: str, labels: list[str]) -> list[str]:
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    keys = [lb.split(" [")[0][:25].lower() for lb in labels]
    return [ln for ln in lines if any(k and ln.lower().startswith(k) for k in keys)][:8]


def main(argv: list[str] | None = None) -> int:
    args, path = filings_args("tax_identity", "tax-identity", argv)
    cases: list[dict[str, Any]] = []
    texts: dict[tuple[str, int], str] = {}
    for doc, pages in filing_pages(path, set(args.docs)):
        got = tax_cases(doc, pages)
        cases += got
        wanted = {g["page"] for g in got}
        texts.update({(doc, p): t for p, t in pages if p in wanted})
        print(f"{doc}: {Counter(g['outcome'] for g in got)}", file=sys.stderr)
    with (args.out / "tax_identity.jsonl").open("w", encoding="utf-8") as fh:
        for g in cases:
            fh.write(json.dumps(g) + "\n")
    summary = _summary(cases)
    (args.out / "summary.json").write_text(json.dumps(summary, indent=2) + "\n")
    print(json.dumps(summary, indent=2))
    if args.sample:
        rng = random.Random(args.seed)
        by_filer: dict[str, list[dict[str, Any]]] = {}
        for g in cases:
            if g["outcome"] != "open":
                by_filer.setdefault(g["doc"].split("_")[0], []).append(g)
        filers = sorted(by_filer)
        rng.shuffle(filers)
        for i, filer in enumerate(filers[: args.sample], 1):
            g = rng.choice(by_filer[filer])
            print(
                f"\n#{i} {g['doc']} p{g['page']} {g['table']} {g['outcome']} conv={g['convention']}"
                f" tax={g['tax']} expense={g['expense']} rate={g['rate']}"
            )
            print(f"    pre-tax {g['pretax']} | after {g['after']} | between {g['between']}")
            labels = [g["pretax"], g["after"], *g["between"]]
            text = texts.get((g["doc"], g["page"]), "")
            for ln in (
                _page_lines(text, labels)
                + [ln for ln in text.splitlines() if "tax" in ln.lower()][:4]
            ):
                print("    |", ln.strip()[:150])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
