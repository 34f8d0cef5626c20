"""Identity accuracy: company, form, fiscal year and period read from filings under neutral names.

    python -m finqa.benchmarks.identity --financebench ../shared/financebench \\
        --edgar ../shared/edgar --work /work/var/i15/identity

Copies the FinanceBench PDFs (gold: documents.jsonl) and the EDGAR filings (gold: the labels
below, from the folder's README and each filing's fiscal calendar) to `--work` as
`filing-NNN.*`, loads them with the product's loaders and reads their identity as ingest
does. EDGAR filings are also scored with their tags ignored (cover page only). With
`--named` the original names are kept, for comparison. Prints one line per field and
writes `identity.json` (with every miss) to `--work`.
"""

from __future__ import annotations

import argparse
import json
import shutil
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from finqa.agents.retrieval.loaders import LoadedDoc, load_path
from finqa.agents.retrieval.metadata import doc_metadata

__all__ = ["score", "main", "EDGAR_GOLD"]

FIELDS = ("company", "form", "fiscal_year", "period")

# file -> (company, doc_type, fiscal year, period); FY N ends in calendar year N.
EDGAR_GOLD = {
    "adbe-10-k-2025-01-13.html": ("Adobe", "10k", 2024, "FY2024"),
    "aapl-10-q-2025-08-01.html": ("Apple", "10q", 2025, "2025Q3"),
    "ba-10-k-2025-02-03.html": ("Boeing", "10k", 2024, "FY2024"),
    "crm-10-k-2025-03-05.html": ("Salesforce", "10k", 2025, "FY2025"),
    "googl-10-k-2025-02-05.html": ("Alphabet", "10k", 2024, "FY2024"),
    "ibm-10-k-2025-02-25.html": ("IBM", "10k", 2024, "FY2024"),
    "jnj-10-q-2025-07-24.html": ("Johnson & Johnson", "10q", 2025, "2025Q2"),
    "ko-10-k-2025-02-20.html": ("Coca-Cola", "10k", 2024, "FY2024"),
    "ko-10-q-2025-07-24.html": ("Coca-Cola", "10q", 2025, "2025Q2"),
}


def _financebench_gold(folder: Path) -> dict[str, tuple[str, str, int, str | None]]:
    from finqa.lexicon import lookup_company, parse_doc_name

    out: dict[str, tuple[str, str, int, str | None]] = {}
    for line in (folder / "documents.jsonl").read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        row = json.loads(line)
        company = lookup_company(row["company"])
        form = str(row["doc_type"]).lower().replace("10k_annualreport", "10k")
        period = None if form == "8k" else parse_doc_name(row["doc_name"]).period
        out[row["doc_name"]] = (
            company.name if company else row["company"],
            form,
            int(row["doc_period"]),
            period,
        )
    return out


def _copy(files: Iterable[Path], dest: Path, named: bool) -> dict[Path, str]:
    dest.mkdir(parents=True, exist_ok=True)
    mapping: dict[Path, str] = {}
    for n, src in enumerate(sorted(files), 1):
        target = dest / (src.name if named else f"filing-{n:03d}{src.suffix.lower()}")
        if not target.exists():
            shutil.copyfile(src, target)
        mapping[target] = src.name
    return mapping


def _identity(path: Path, use_tags: bool = True) -> dict[str, Any]:
    doc = next((d for d in load_path(path) if isinstance(d, LoadedDoc)), None)
    if doc is None:
        return {}
    return doc_metadata(
        doc.doc_id,
        pages=[t for _, t in doc.pages[:8]],
        dei=(doc.dei or None) if use_tags else None,
        sgml=doc.sgml or None,
    )


def score(
    cases: list[tuple[str, dict[str, Any], tuple[str, str, int, str | None]]],
) -> dict[str, Any]:
    """Share of filings with each field right, and the misses."""
    hits = dict.fromkeys(FIELDS, 0)
    misses = []
    for name, meta, gold in cases:
        got = (
            meta.get("company"),
            meta.get("doc_type"),
            meta.get("fiscal_year"),
            meta.get("period"),
        )
        wrong = [f for f, g, w in zip(FIELDS, got, gold, strict=True) if g != w]
        for f in FIELDS:
            hits[f] += f not in wrong
        if wrong:
            misses.append({"file": name, "wrong": wrong, "got": got, "gold": gold})
    n = len(cases)
    return {
        "filings": n,
        "accuracy": {f: round(hits[f] / n, 4) if n else None for f in FIELDS},
        "misses": misses,
    }


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m finqa.benchmarks.identity", description=__doc__)
    p.add_argument("--financebench", type=Path, help="folder with pdfs/ and documents.jsonl")
    p.add_argument("--edgar", type=Path, help="folder of EDGAR .html filings")
    p.add_argument("--work", type=Path, required=True, help="where the renamed copies go")
    p.add_argument("--named", action="store_true", help="keep the original file names")
    args = p.parse_args(argv)
    report: dict[str, Any] = {"named": args.named}
    tag = "named" if args.named else "renamed"
    if args.financebench:
        gold = _financebench_gold(args.financebench)
        mapping = _copy(
            (args.financebench / "pdfs").glob("*.pdf"), args.work / f"pdfs-{tag}", args.named
        )
        cases = [
            (orig, _identity(path), gold[orig[:-4]])
            for path, orig in sorted(mapping.items())
            if orig[:-4] in gold
        ]
        report["financebench_pdfs"] = score(cases)
    if args.edgar:
        mapping = _copy((args.edgar).glob("*.htm*"), args.work / f"edgar-{tag}", args.named)
        known = [(path, orig) for path, orig in sorted(mapping.items()) if orig in EDGAR_GOLD]
        report["edgar"] = score([(o, _identity(p), EDGAR_GOLD[o]) for p, o in known])
        report["edgar_cover_only"] = score(
            [(o, _identity(p, use_tags=False), EDGAR_GOLD[o]) for p, o in known]
        )
    for key in ("financebench_pdfs", "edgar", "edgar_cover_only"):
        if key in report:
            acc = report[key]["accuracy"]
            shown = "  ".join(f"{f} {acc[f]:.1%}" for f in FIELDS)
            print(f"{key} ({tag}, {report[key]['filings']} filings): {shown}")
            for miss in report[key]["misses"]:
                print(
                    f"  miss {miss['file']}: {miss['wrong']} got {miss['got']} gold {miss['gold']}"
                )
    args.work.mkdir(parents=True, exist_ok=True)
    (args.work / f"identity-{tag}.json").write_text(json.dumps(report, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
