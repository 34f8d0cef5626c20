"""Per-chunk reranker statistics stored at ingest, and the per-query caches of the agent."""

from __future__ import annotations

import pickle
import shutil
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

sys.path.insert(0, str(Path(__file__).resolve().parent / "fixtures" / "retrieval"))
from finqa.agents.config import Settings  # noqa: E402
from finqa.agents.retrieval._chunk_stats import letters, number_density, page_titles  # noqa: E402
from finqa.agents.retrieval.agent import RetrievalAgent  # noqa: E402
from finqa.agents.retrieval.analysis import analyze_question  # noqa: E402
from finqa.agents.retrieval.bm25 import BM25Partition, token_set, tokenize  # noqa: E402
from finqa.agents.retrieval.ingest import ingest_paths  # noqa: E402
from finqa.agents.retrieval.router import Route  # noqa: E402
from retrieval_support import HERE, FakeEmbedder, make_acme_pdf  # noqa: E402

CAPEX_Q = "What were Acme's purchases of property, plant and equipment in FY2022 per the cash flow statement?"


def _settings(index: Path) -> Settings:
    return Settings().with_overrides({"index.path": str(index), "index.embed_min_words": 0})


@pytest.fixture
def fake_embedder_agents(monkeypatch: pytest.MonkeyPatch) -> None:
    """Retrieval agents a benchmark builds embed with the fake embedder the fixture index was built with."""
    import finqa.agents.retrieval.agent as agent_module

    class _Agent(RetrievalAgent):
        def __init__(self, settings: Settings, **kw: object) -> None:
            kw.setdefault("embedder", FakeEmbedder())
            super().__init__(settings, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(agent_module, "RetrievalAgent", _Agent)


@pytest.fixture(scope="module")
def index_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    corpus = tmp_path_factory.mktemp("corpus")
    shutil.copytree(HERE / "corpus", corpus, dirs_exist_ok=True)
    make_acme_pdf(corpus / "ACME_2022_10K.pdf")
    index = tmp_path_factory.mktemp("idx")
    ingest_paths(
        [corpus],
        _settings(index),
        embedder=FakeEmbedder(),
        progress=False,
        metadata_file=HERE / "documents.csv",
    )
    return index


def _inputs(agent: RetrievalAgent, question: str) -> tuple[list[str], dict[str, object]]:
    analysis = analyze_question(question)
    scope = list(agent.index.catalog())
    r = Route("pool", "test", True, True, True, True, False, 10, 30)
    fused, chunks, vector = agent.candidates(question, analysis, r, scope)
    return [c.chunk_id for c in fused], agent.rerank_inputs(
        analysis, question, fused, chunks, vector
    )


class TestTokens:
    """The fast token set and the postings-based term counts agree with tokenize."""

    def test_token_set_equals_set_of_tokenize(self) -> None:
        """token_set gives exactly the distinct tokens tokenize gives (stop words out, plurals folded)."""
        text = "Purchases of Property, plant and equipment: 1,234 and 1,234 Companies' PP&E"
        assert token_set(text) == set(tokenize(text))

    def test_term_counts_counts_distinct_terms_per_chunk(self) -> None:
        """A chunk scores the number of distinct asked terms it contains, repeated words once."""
        part = BM25Partition(["a", "b", "c"], [["capex", "capex", "2022"], ["revenue"], []])
        assert part.term_counts(["capex", "2022", "capex", "missing"]).tolist() == [2.0, 0.0, 0.0]
        assert part.row("b") == 1 and part.row("zzz") is None


class TestStoredStats:
    """Ingest stores number density and title-on-page per chunk in the BM25 partition."""

    def test_ingest_stores_density_and_titles(self, index_dir: Path) -> None:
        """The cash-flow page's chunk is dense with numbers and prints its statement title."""
        agent = RetrievalAgent(_settings(index_dir), embedder=FakeEmbedder())
        part = agent.index.bm25.get("ACME_2022_10K")
        assert part is not None and part.density is not None and part.titled is not None
        chunks = agent.index.get_chunks(part.chunk_ids)
        for row, cid in enumerate(part.chunk_ids):
            assert part.density[row] == pytest.approx(number_density(chunks[cid].text))
        cash = [i for i, c in enumerate(part.chunk_ids) if "Dividends paid" in chunks[c].text]
        assert cash and part.titled[cash[0]] and part.density[cash[0]] > 0.5

    @given(st.text())
    def test_letters_keeps_exactly_the_letters(self, text: str) -> None:
        """letters() keeps the lower-cased text's alphabetic characters, ASCII or not, in order."""
        assert letters(text) == "".join(ch for ch in text.lower() if ch.isalpha())

    def test_page_titles_reads_the_pages_first_chunk(self) -> None:
        """A heading carried onto a later page does not count as printed there."""
        rows = [
            (3, "CONSOLIDATED BALANCE SHEETS", "Consolidated Balance Sheets\nCash 10"),
            (3, "CONSOLIDATED BALANCE SHEETS", "Goodwill 5"),
            (4, "CONSOLIDATED BALANCE SHEETS", "Total liabilities 7"),
            (4, None, "prose"),
        ]
        assert page_titles(rows).tolist() == [True, True, False, False]

    def test_candidates_carry_their_filings_metadata(self, index_dir: Path) -> None:
        """The reranker inputs give each candidate its filing's catalogue metadata (form, period), which the doc_* features read."""
        agent = RetrievalAgent(_settings(index_dir), embedder=FakeEmbedder())
        ids, inputs = _inputs(agent, CAPEX_Q)
        filings = inputs["filings"]
        assert isinstance(filings, list) and len(filings) == len(ids)
        catalog = agent.index.catalog()
        for cid, meta in zip(ids, filings, strict=True):
            assert meta == catalog[agent.index.get_chunks([cid])[cid].doc_id].meta
        assert {m.get("doc_type") for m in filings} >= {"10k"}

    def test_partitions_without_stats_rank_the_same(self, index_dir: Path) -> None:
        """An index whose partitions predate the stored statistics gives the reranker the same inputs."""
        agent = RetrievalAgent(_settings(index_dir), embedder=FakeEmbedder())
        ids, stored = _inputs(agent, CAPEX_Q)
        for doc_id in agent.index.catalog():
            path = agent.index.bm25._file(doc_id)
            part = pickle.loads(path.read_bytes())  # noqa: S301 - the test's own index
            part.density = part.titled = None
            path.write_bytes(pickle.dumps(part))
        old = RetrievalAgent(_settings(index_dir), embedder=FakeEmbedder())
        assert old.index.bm25.get("ACME_2022_10K").density is None  # type: ignore[union-attr]
        old_ids, computed = _inputs(old, CAPEX_Q)
        assert old_ids == ids
        assert np.allclose(computed["density"], stored["density"])  # type: ignore[arg-type]
        assert computed["titled"] == stored["titled"]
        assert computed["coverage"] == stored["coverage"]
        agent.index.rebuild_bm25()  # leave the shared fixture as ingest wrote it
        assert agent.index.bm25.get("ACME_2022_10K").density is not None  # type: ignore[union-attr]

    def test_rebuild_command_adds_stats_to_an_old_index(
        self, tmp_path: Path, index_dir: Path
    ) -> None:
        """shared_dense --rebuild-bm25 gives partitions built before the statistics their statistics, with the same BM25 scores."""
        from finqa.benchmarks.shared_dense import main

        copy = tmp_path / "idx"
        shutil.copytree(index_dir, copy)
        agent = RetrievalAgent(_settings(copy), embedder=FakeEmbedder())
        path = agent.index.bm25._file("ACME_2022_10K")
        old = pickle.loads(path.read_bytes())  # noqa: S301 - the test's own index
        old.density = old.titled = None
        path.write_bytes(pickle.dumps(old))
        assert main(["--out", str(tmp_path / "out"), "--index", str(copy), "--rebuild-bm25"]) == 0
        new = pickle.loads(path.read_bytes())  # noqa: S301 - the test's own index
        assert new.density is not None and new.titled is not None
        query = tokenize(CAPEX_Q)
        assert new.scores(query).tolist() == old.scores(query).tolist()

    def test_latency_command_reports_timings_and_recall(
        self, tmp_path: Path, index_dir: Path, fake_embedder_agents: None
    ) -> None:
        """shared_dense --latency times attempt 1 of each question whose filing is in the store and scores its pages against the gold; a question of a filing not in the store is left out."""
        import json

        from finqa.benchmarks.shared_dense import main

        rows = [
            {"financebench_id": "q1", "question": CAPEX_Q, "answer": "-", "doc_name": "ACME_2022_10K",
             "evidence": [{"doc_name": "ACME_2022_10K", "evidence_page_num": 2}]},
            {"financebench_id": "q2", "question": CAPEX_Q, "answer": "-", "doc_name": "NOPE_2022_10K",
             "evidence": [{"doc_name": "NOPE_2022_10K", "evidence_page_num": 1}]},
        ]  # fmt: skip
        questions = tmp_path / "q.jsonl"
        questions.write_text("".join(json.dumps(r) + "\n" for r in rows))
        out = tmp_path / "out"
        argv = ["--out", str(out), "--index", str(index_dir), "--questions", str(questions)]
        assert main([*argv, "--latency", "5", "--warm", "--set", "index.embed_min_words=0"]) == 0
        result = json.loads((out / "latency.json").read_text())
        assert result["questions"] == 1 and result["warm"] is True
        assert result["filings_in_store"] >= 1 and result["chunks_in_store"] > 0
        assert 0 < result["p50_ms"] <= result["p95_ms"]
        assert result["recall@10"] == 1.0 and result["hit@10"] == 1.0 and result["mrr"] > 0

    def test_rebuilt_partition_keeps_stats_through_pickle(self, tmp_path: Path) -> None:
        """A partition written and read back keeps its statistics; an old pickle reads as None."""
        part = BM25Partition(["a"], [["x"]], density=[0.25], titled=[True])
        back = pickle.loads(pickle.dumps(part))  # noqa: S301 - our own object
        assert back.density.tolist() == [0.25] and back.titled.tolist() == [True]
        state = dict(part.__dict__)
        del state["density"], state["titled"]
        old = BM25Partition.__new__(BM25Partition)
        old.__setstate__(state)
        assert old.density is None and old.titled is None and old.row("a") == 0


class TestFitShared:
    """fit_reranker's shared-store data: each question over the filings its filters select."""

    def test_questions_scoped_by_filters_in_company_folds(
        self, tmp_path: Path, index_dir: Path, fake_embedder_agents: None
    ) -> None:
        """A question naming Acme gets candidates of Acme's filing only, in Acme's fold; a company the store lacks is left out."""
        import argparse
        import json

        from finqa.benchmarks import fit_reranker
        from finqa.benchmarks._fit_shared import shared_data, shared_meta

        rows = [
            {"financebench_id": "q1", "question": CAPEX_Q, "answer": "-", "doc_name": "ACME_2022_10K",
             "company": "Acme", "evidence": [{"doc_name": "ACME_2022_10K", "evidence_page_num": 2}]},
            {"financebench_id": "q2", "question": "What was Boeing's revenue in FY2022?", "answer": "-",
             "doc_name": "ACME_2022_10K", "company": "Boeing",
             "evidence": [{"doc_name": "ACME_2022_10K", "evidence_page_num": 1}]},
        ]  # fmt: skip
        questions = tmp_path / "q.jsonl"
        questions.write_text("".join(json.dumps(r) + "\n" for r in rows))
        args = argparse.Namespace(shared_index=str(index_dir), questions=str(questions), limit=None)
        got = shared_data(args, _settings(index_dir), 20, {"Acme": 1}, fit_reranker._collect)
        assert got is not None and [(d.question.id, f) for d, f in got.items] == [("q1", 1)]
        ((data, _),) = got.items
        assert data.filt.doc_ids == ["ACME_2022_10K"] and data.x.shape[0] == len(data.y) > 0
        assert data.y.sum() > 0  # the gold page is among the candidates
        row = {"recall@5": 1.0, "recall@10": 1.0, "recall@20": 1.0, "recall@30": 1.0}
        one = [{**row, "hit@10": 1.0, "rr": 1.0}]
        meta = shared_meta(got, {"single": one, "both": one}, fit_reranker._summary)
        assert meta is not None and meta["questions"] == 1
        assert meta["configs"]["single store only"]["recall@10"] == 1.0
        args.shared_index = None
        assert shared_data(args, _settings(index_dir), 20, {}, fit_reranker._collect) is None


class TestQueryCaches:
    """A retry of the same question does not embed it again."""

    def test_retry_reuses_the_query_vector(self, index_dir: Path) -> None:
        """Attempts 1 and 2 of one question embed it once; another question embeds again."""
        embedder = FakeEmbedder()  # counts its calls
        agent = RetrievalAgent(_settings(index_dir), embedder=embedder)
        agent.retrieve(CAPEX_Q, 1)
        agent.retrieve(CAPEX_Q, 2)
        assert embedder.calls == 1
        agent.retrieve("What was Initech's revenue in 2022?", 1)
        assert embedder.calls == 2


class FakeCandidateVectors:
    """Candidate vectors from the fake embedder, counting what it was asked for."""

    def __init__(self, index: object) -> None:
        self.embedder = FakeEmbedder()
        self.index = index
        self.asked: list[str] = []

    def query(self, text: str) -> list[float]:
        return self.embedder.embed([text])[0]

    def chunks(self, chunk_ids: list[str]) -> list[list[float] | None]:
        self.asked.extend(chunk_ids)
        texts = self.index.indexed_texts(chunk_ids)  # type: ignore[attr-defined]
        return [self.embedder.embed([texts[c]])[0] if c in texts else None for c in chunk_ids]


class TestCandidateVectorsSeam:
    """On a BM25-only index the agent takes candidate vectors from an injected source."""

    def test_bm25_only_index_gets_cosine_features(self, tmp_path: Path) -> None:
        """Without a source the cosine feature is absent; with one every candidate gets its cosine to the query."""
        corpus = tmp_path / "corpus"
        make_acme_pdf(corpus.mkdir() or corpus / "ACME_2022_10K.pdf")
        settings = _settings(tmp_path / "idx").with_overrides({"index.dense": "none"})
        ingest_paths([corpus], settings, progress=False)
        plain = RetrievalAgent(settings)
        assert not plain.index.dense
        _, inputs = _inputs(plain, CAPEX_Q)
        assert inputs["dense"] is None
        source = FakeCandidateVectors(plain.index)
        agent = RetrievalAgent(settings, index=plain.index, candidate_vectors=source)
        ids, inputs = _inputs(agent, CAPEX_Q)
        assert ids and source.asked == ids
        cosines = inputs["dense"]
        assert isinstance(cosines, list) and len(cosines) == len(ids)
        assert any(c > 0 for c in cosines)
