"""Which filings a question's company selects, with and without the lexicon's gazetteer.

    python -m finqa.benchmarks.question_identity --index DIR [--questions Q.jsonl]

For every dev question whose filing is in the index, the metadata filters are resolved twice:
as the product does (the lexicon's gazetteer names the company, else the catalogue's own
names), and with the gazetteer's reading dropped (`companies`/`tickers` of the analysis
emptied), so only what the store knows of its filings (company and registrant names from
cover pages and their short forms, tickers) can recognise the company: the case of a company
the gazetteer has never heard of. Prints how often the gold filing is in scope each way and
the questions recognised only with the gazetteer.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence

__all__ = ["main"]


def main(argv: Sequence[str] | None = None) -> int:
    from finqa.agents.config import load_settings
    from finqa.agents.retrieval.analysis import analyze_question
    from finqa.agents.retrieval.filters import resolve_filters
    from finqa.agents.retrieval.store import open_index
    from finqa.benchmarks.questions import load_questions

    p = argparse.ArgumentParser(prog="python -m finqa.benchmarks.question_identity")
    p.add_argument("--index", required=True)
    p.add_argument("--questions", default="../shared/financebench/questions.jsonl")
    args = p.parse_args(argv)
    catalog = open_index(
        load_settings(None, overrides={"index.path": args.index}), create=False
    ).catalog()
    asked = [q for q in load_questions(args.questions) if q.doc_name in catalog]
    both = store = 0
    misses = []
    for q in asked:
        analysis = analyze_question(q.question)
        scoped = resolve_filters(analysis, catalog).doc_ids or []
        bare = analysis.model_copy(update={"companies": (), "tickers": ()})
        alone = resolve_filters(bare, catalog)
        both += q.doc_name in scoped
        store += q.doc_name in (alone.doc_ids or [])
        if q.doc_name in scoped and q.doc_name not in (alone.doc_ids or []):
            misses.append({"id": q.id, "doc": q.doc_name, "reason": alone.reason})
    result = {
        "questions": len(asked),
        "gold_in_scope_with_gazetteer": both,
        "gold_in_scope_store_only": store,
        "only_with_gazetteer": misses,
    }
    print(json.dumps(result, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
