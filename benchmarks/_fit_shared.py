"""fit_reranker on a shared store: the dev questions asked of the whole store (each over the
filings its metadata filters select, dense lists from the index), in the folds of their
companies, so one model is fitted and measured out of fold on both index shapes."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

__all__ = ["SharedData", "shared_data", "shared_meta"]


@dataclass
class SharedData:
    agent: Any
    index: str
    items: list[tuple[Any, int]]  # (question data, fold of its company)

    def __bool__(self) -> bool:
        return bool(self.items)


def shared_data(
    args: argparse.Namespace,
    settings: Any,
    pool: int,
    fold_of: Mapping[str, int],
    collect: Callable[..., list[Any]],
) -> SharedData | None:
    """Candidates of the questions asked of the whole shared store (`collect`: fit_reranker's
    feature collection, with `shared=True`), each in its company's fold."""
    if not args.shared_index:
        return None
    from finqa.agents.retrieval.agent import RetrievalAgent
    from finqa.benchmarks.questions import load_questions

    agent = RetrievalAgent(settings.with_overrides({"index.path": args.shared_index}))
    catalog = agent.index.catalog()
    every = [q for q in load_questions(args.questions, limit=args.limit) if q.evidence_pages]
    asked = [q for q in every if q.doc_name in catalog]
    data = collect(agent, asked, pool, progress=False, shared=True)
    items = [(d, fold_of.get(d.question.company or d.question.doc_name or "", -1)) for d in data]
    print(
        f"fit_reranker: {len(items)} of {len(every)} questions asked of {args.shared_index}",
        file=sys.stderr,
    )
    return SharedData(agent, args.shared_index, items)


def shared_meta(
    shared: SharedData | None,
    rows: Mapping[str, list[dict[str, float]]],
    summary: Callable[[list[dict[str, float]]], dict[str, float]],
) -> dict[str, Any] | None:
    """The out-of-fold figures on the shared store, of the model fitted without and with it."""
    if not shared:
        return None
    return {
        "index": shared.index,
        "questions": len(shared.items),
        "configs": {
            "single store only": summary(rows["single"]),
            "single + shared store": summary(rows["both"]),
        },
    }
