"""Retrieval over a broad store: BM25 partitions scored as one union, catalogue lookups, HNSW."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest
from finqa.agents.retrieval import bm25 as bm25_mod
from finqa.agents.retrieval._bm25_union import PartitionUnion
from finqa.agents.retrieval.bm25 import BM25Partition, BM25Store
from finqa.agents.retrieval.filters import companies_in_text, resolve_filters
from finqa.agents.retrieval.store import DocRecord
from finqa.agents.types import QueryAnalysis

_WORDS = ["revenue", "capex", "cash", "flow", "net", "income", "2022", "2021", "debt", "lease"]


def _partition(doc: str, rng: random.Random, n: int) -> BM25Partition:
    docs = [[rng.choice(_WORDS) for _ in range(rng.randint(0, 12))] for _ in range(n)]
    return BM25Partition([f"{doc}#{i}" for i in range(n)], docs)


def _store(tmp_path: Path, filings: int = 20) -> tuple[BM25Store, list[str]]:
    rng = random.Random(7)
    store = BM25Store(tmp_path)
    docs = [f"D{i:02d}" for i in range(filings)]
    for doc in docs:
        store.write(doc, _partition(doc, rng, rng.randint(1, 30)))
    return store, docs


def _one_by_one(store: BM25Store, tokens: list[str], docs: list[str], n: int) -> list:
    """The reference: every partition scored on its own (the path below the union size)."""
    old = bm25_mod.UNION_FROM
    bm25_mod.UNION_FROM = 10**9
    try:
        return store.search(tokens, docs, n)
    finally:
        bm25_mod.UNION_FROM = old


class TestPartitionUnion:
    """A broad scope is scored as one union with the same results as filing by filing."""

    def test_same_ranking_as_partition_by_partition(self, tmp_path: Path) -> None:
        """Over 20 filings the union returns the same chunks with the same scores, repeats included."""
        store, docs = _store(tmp_path)
        assert len(docs) >= bm25_mod.UNION_FROM
        for tokens in (["revenue", "capex", "revenue"], ["debt"], ["lease", "2022", "zzz"]):
            got = store.search(tokens, docs, 25)
            want = _one_by_one(store, tokens, docs, 25)
            assert [c for c, _ in got] == [c for c, _ in want]
            assert [s for _, s in got] == pytest.approx([s for _, s in want], rel=1e-12)
        assert store._unions, "a union was built for the broad scope"

    def test_old_partitions_keep_their_own_weights(self, tmp_path: Path) -> None:
        """A partition compiled before shared idf (no tf parts) scores with its own weights in a union."""
        store, docs = _store(tmp_path)
        old = store.get(docs[3])
        assert old is not None
        old._tf = None
        got = store.search(["revenue", "cash"], docs, 40)
        assert got == _one_by_one(store, ["revenue", "cash"], docs, 40)

    def test_rewritten_partition_is_not_served_stale(self, tmp_path: Path) -> None:
        """After a filing's partition is rewritten, the next broad search reads the new one."""
        store, docs = _store(tmp_path)
        assert not [c for c, _ in store.search(["anvil"], docs, 10)]
        store.write(docs[5], BM25Partition([f"{docs[5]}#0"], [["anvil", "revenue"]]))
        assert [c for c, _ in store.search(["anvil"], docs, 10)] == [f"{docs[5]}#0"]

    def test_term_cache_is_bounded(self) -> None:
        """The union's per-term postings cache drops the least recently used terms past its bound."""
        part = BM25Partition(["a", "b", "c"], [["x", "y"], ["x"], ["z"]])
        union = PartitionUnion([part, part], max_postings=4)
        assert union.df("x") == 4
        assert union.df("y") == 2 and union.df("z") == 2
        assert list(union._terms) == ["y", "z"] and union._held == 4
        assert np.array_equal(union.postings("x")[0], [0, 1, 3, 4])
        assert list(union._terms) == ["x"]


class TestCatalogLookups:
    """Company filters resolve through a per-catalogue index, with the same answers."""

    catalog = {
        d: DocRecord(d, "h", 1, 1, m)
        for d, m in {
            "ACME_2022_10K": {"company": "Acme Corp", "company_key": "acme", "ticker": "ACM"},
            "ACME_2021_10K": {"company": "Acme Corp", "company_key": "acme", "ticker": "ACM"},
            "ACME_FOODS_2022_10K": {"company": "Acme Foods", "company_key": "acme foods"},
            "GLOBEX_2022_10K": {"company": "Globex", "company_key": "globex", "ticker": "GBX"},
        }.items()
    }

    def test_named_company_and_ticker(self) -> None:
        """A company named by ticker selects its filings and no other company's."""
        res = resolve_filters(QueryAnalysis(question="q", tickers=("GBX",)), self.catalog)
        assert res.doc_ids == ["GLOBEX_2022_10K"]

    def test_longest_name_in_text_wins(self) -> None:
        """'Acme Foods' in a question is Acme Foods, not Acme Corp."""
        assert companies_in_text("What did Acme Foods earn?", self.catalog) == ["acme foods"]
        res = resolve_filters(QueryAnalysis(question="What did Acme Foods earn?"), self.catalog)
        assert res.doc_ids == ["ACME_FOODS_2022_10K"]

    def test_new_catalogue_is_reindexed(self) -> None:
        """A catalogue read again after an ingest sees the new filing."""
        grown = dict(self.catalog)
        grown["INITECH_2022_10K"] = DocRecord(
            "INITECH_2022_10K", "h", 1, 1, {"company": "Initech", "company_key": "initech"}
        )
        assert companies_in_text("Initech revenue", self.catalog) == []
        assert companies_in_text("Initech revenue", grown) == ["initech"]


class TestHnswSearch:
    """Unfiltered dense search does not ask the collection's size first."""

    def test_empty_and_filled_collection(self) -> None:
        """An empty collection answers no hits; a filled one its nearest chunks, without count()."""
        from finqa.agents.retrieval._chroma import hnsw_search

        class Collection:
            def __init__(self, ids: list[str]) -> None:
                self.ids = ids

            def count(self) -> int:
                raise AssertionError("count() scans the collection")

            def query(self, **kw: object) -> dict:
                return {"ids": [self.ids], "distances": [[0.25] * len(self.ids)]}

        assert hnsw_search(Collection([]), [1.0, 0.0], 5, None) == []
        assert hnsw_search(Collection(["a#0"]), [1.0, 0.0], 5, None) == [("a#0", 0.75)]
        assert hnsw_search(Collection(["a#0"]), [1.0, 0.0], 5, []) == []


class TestStoreIdentity:
    """A company the gazetteer does not know is recognised from the store's own metadata."""

    catalog = {
        "ZYX_2022_10K": DocRecord(
            "ZYX_2022_10K",
            "h",
            1,
            1,
            {"company": "ZYX", "registrant": "THE QUORBLE WIDGET COMPANY", "ticker": "QWZ"},
        ),
        "OTHER_2022_10K": DocRecord(
            "OTHER_2022_10K", "h", 1, 1, {"company": "Other", "registrant": "Other Inc."}
        ),
    }

    def test_registrant_short_form(self) -> None:
        """'Quorble Widget' (the cover page's 'THE QUORBLE WIDGET COMPANY' without 'the' and 'company') scopes to its filing."""
        res = resolve_filters(
            QueryAnalysis(question="What did Quorble Widget earn in 2022?"), self.catalog
        )
        assert res.doc_ids == ["ZYX_2022_10K"]

    def test_ticker_written_in_the_question(self) -> None:
        """A catalogue ticker written with capitals ('QWZ's', 'QwZ') scopes to its filing; in lower case it does not."""
        for text in ("What was QWZ's revenue?", "What was QwZ revenue?"):
            res = resolve_filters(QueryAnalysis(question=text), self.catalog)
            assert res.doc_ids == ["ZYX_2022_10K"], text
        assert (
            resolve_filters(QueryAnalysis(question="what was qwz revenue"), self.catalog).doc_ids
            is None
        )
