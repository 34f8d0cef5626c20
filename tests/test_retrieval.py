"""Retrieval: fusion, filters, router, RSE, reranker, the agent end to end, and the benchmark."""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent / "fixtures" / "retrieval"))
from finqa.agents.config import EscalationStep, Settings  # noqa: E402
from finqa.agents.retrieval.agent import RetrievalAgent  # noqa: E402
from finqa.agents.retrieval.bm25 import BM25Partition, tokenize  # noqa: E402
from finqa.agents.retrieval.filters import resolve_filters  # noqa: E402
from finqa.agents.retrieval.fusion import rrf_fuse  # noqa: E402
from finqa.agents.retrieval.ingest import ingest_paths  # noqa: E402
from finqa.agents.retrieval.rerank import FinanceReranker, build_reranker  # noqa: E402
from finqa.agents.retrieval.router import route  # noqa: E402
from finqa.agents.retrieval.rse import extract_segments  # noqa: E402
from finqa.agents.retrieval.store import DocRecord, open_index  # noqa: E402
from finqa.agents.types import Chunk, QueryAnalysis, Retriever, Verdict  # noqa: E402
from finqa.testing import assert_implements
from retrieval_support import HERE, FakeEmbedder, make_acme_pdf  # noqa: E402

CAPEX_Q = "What were Acme's purchases of property, plant and equipment in FY2022 per the cash flow statement?"


def _settings(index: Path, **overrides: object) -> Settings:
    # the fixture pages are a few lines each: embed every page (skipping is tested on its own)
    return Settings().with_overrides(
        {"index.path": str(index), "index.embed_min_words": 0, **overrides}
    )


@pytest.fixture(scope="module")
def corpus_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("corpus")
    shutil.copytree(HERE / "corpus", folder, dirs_exist_ok=True)
    shutil.copy(HERE / "pages_with_broken_line.jsonl", folder / "hooli_pages.jsonl")
    make_acme_pdf(folder / "ACME_2022_10K.pdf")
    return folder


@pytest.fixture(scope="module")
def fake_index(corpus_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    index = tmp_path_factory.mktemp("idx")
    ingest_paths(
        [corpus_dir],
        _settings(index),
        embedder=FakeEmbedder(),
        progress=False,
        metadata_file=HERE / "documents.csv",
    )
    return index


@pytest.fixture(scope="module")
def agent(fake_index: Path) -> RetrievalAgent:
    return RetrievalAgent(_settings(fake_index), embedder=FakeEmbedder())


def _chunk(doc: str, pos: int, text: str = "x", page: int = 0) -> Chunk:
    return Chunk(chunk_id=f"{doc}#{pos}", doc_id=doc, page=page, position=pos, text=text)


class TestFusion:
    """RRF combines ranks and keeps every input score."""

    def test_rrf_orders_by_summed_reciprocal_rank(self) -> None:
        """An item ranked well in both lists beats one ranked first in only one list."""
        fused = rrf_fuse(
            {"dense": [("a", 0.9), ("b", 0.8)], "bm25": [("b", 7.0), ("c", 6.0)]}, k=60
        )
        assert [c.chunk_id for c in fused] == ["b", "a", "c"]
        assert fused[0].scores["dense"] == 0.8 and fused[0].scores["bm25_rank"] == 1.0
        assert fused[0].scores["rrf"] == pytest.approx(1 / 62 + 1 / 61)


class TestBM25:
    """The rank-bm25 adapter is safe on empty input."""

    def test_empty_partition_and_query(self) -> None:
        """An empty corpus or an all-stop-word query scores zeros instead of raising."""
        assert BM25Partition([], []).scores(["revenue"]).tolist() == []
        assert BM25Partition(["a"], [[]]).scores(["x"]).tolist() == [0.0]
        assert tokenize("What is the total of the") == []
        assert tokenize("Net sales 1,234 companies") == ["net", "sale", "1234", "company"]

    def test_scores_equal_rank_bm25(self) -> None:
        """The compiled postings give exactly rank-bm25's BM25Okapi scores, repeated terms included."""
        from rank_bm25 import BM25Okapi

        docs = [
            ["net", "sale", "grew"],
            ["net", "income", "fell", "net"],
            ["cash", "flow"],
            ["sale"] * 3,
        ]
        query = ["net", "sale", "net", "unknown"]
        ours = BM25Partition(["a", "b", "c", "d"], docs).scores(query)
        assert ours.tolist() == pytest.approx(BM25Okapi(docs).get_scores(query).tolist(), rel=1e-6)

    def test_shared_idf_across_filings(self, tmp_path: Path) -> None:
        """Across filings a term rare in the whole scope outranks one common everywhere."""
        from finqa.agents.retrieval.bm25 import BM25Store

        store = BM25Store(tmp_path)
        store.write("A", BM25Partition(["A#0", "A#1"], [["revenue", "anvil"], ["revenue"]]))
        store.write(
            "B", BM25Partition(["B#0", "B#1", "B#2"], [["revenue"], ["revenue"], ["revenue", "x"]])
        )
        top = store.search(["anvil", "revenue"], ["A", "B"], 5)
        assert top[0][0] == "A#0" and len(top) == 5
        assert store.search(["zzz"], ["A", "B"], 5) == []


class TestFilters:
    """Company, year, period and doc type resolve to filings of the index."""

    catalog = {
        d: DocRecord(d, "h", 1, 1, m)
        for d, m in {
            "ACME_2021_10K": {
                "company": "Acme Corp",
                "company_key": "acme",
                "doc_type": "10k",
                "fiscal_year": 2021,
            },
            "ACME_2022_10K": {
                "company": "Acme Corp",
                "company_key": "acme",
                "doc_type": "10k",
                "fiscal_year": 2022,
            },
            "ACME_2023Q2_10Q": {
                "company": "Acme Corp",
                "company_key": "acme",
                "doc_type": "10q",
                "fiscal_year": 2023,
                "period": "2023Q2",
            },
            "GLOBEX_2022_10K": {
                "company": "Globex",
                "company_key": "globex",
                "doc_type": "10k",
                "fiscal_year": 2022,
            },
        }.items()
    }

    def test_company_and_year(self) -> None:
        """A named company and fiscal year select that year's annual filing."""
        res = resolve_filters(
            QueryAnalysis(question="Acme revenue FY2022", fiscal_years=(2022,)), self.catalog
        )
        assert res.doc_ids == ["ACME_2022_10K"] and res.applied["fiscal_year"] == [2022]

    def test_quarter_period(self) -> None:
        """A quarter and year select the matching 10-Q."""
        res = resolve_filters(
            QueryAnalysis(question="Acme Q2 2023", fiscal_years=(2023,), quarters=(2,)),
            self.catalog,
        )
        assert res.doc_ids == ["ACME_2023Q2_10Q"]

    def test_no_period_means_latest(self) -> None:
        """Without a named period, the latest annual report and later filings are searched."""
        res = resolve_filters(QueryAnalysis(question="What industry is Acme in?"), self.catalog)
        assert res.doc_ids == ["ACME_2022_10K", "ACME_2023Q2_10Q"] and "latest" in res.reason

    def test_latest_named_year_wins(self) -> None:
        """FY2021 vs FY2022 searches the FY2022 report, which carries FY2021 comparatives."""
        res = resolve_filters(
            QueryAnalysis(question="Acme growth FY2021 to FY2022", fiscal_years=(2021, 2022)),
            self.catalog,
        )
        assert res.doc_ids == ["ACME_2022_10K"]

    def test_unknown_company(self) -> None:
        """A company with no filing yields an empty selection and says so."""
        res = resolve_filters(QueryAnalysis(question="x"), self.catalog, company="Tesla")
        assert res.doc_ids == [] and res.unknown_company == "Tesla" and "no filing" in res.reason

    def test_missing_year_falls_back(self) -> None:
        """A year with no filing drops the year filter but keeps the company."""
        res = resolve_filters(
            QueryAnalysis(question="Globex 2019 capex", fiscal_years=(2019,)), self.catalog
        )
        assert res.doc_ids == ["GLOBEX_2022_10K"] and "dropped" in res.reason

    def test_no_company_named_period_filters_every_company(self) -> None:
        """A year but no company selects that year's filings of every company in the index."""
        res = resolve_filters(
            QueryAnalysis(question="Revenue in FY2022?", fiscal_years=(2022,)), self.catalog
        )
        assert res.doc_ids == ["ACME_2022_10K", "GLOBEX_2022_10K"]
        assert "no company named" in res.reason and res.applied["fiscal_year"] == [2022]

    def test_no_company_no_period_is_whole_index(self) -> None:
        """Neither a company nor a period, or a period no filing is near, searches the whole index."""
        plain = resolve_filters(QueryAnalysis(question="Who audits?"), self.catalog)
        assert plain.doc_ids is None and "whole index" in plain.reason
        far = resolve_filters(QueryAnalysis(question="x 2005", fiscal_years=(2005,)), self.catalog)
        assert far.doc_ids is None and "fiscal_year" not in far.applied
        relaxed = resolve_filters(
            QueryAnalysis(question="Revenue FY2022", fiscal_years=(2022,)),
            self.catalog,
            use_periods=False,
        )
        assert relaxed.doc_ids is None


class TestRouter:
    """The route follows DESIGN's rules and says why."""

    step = EscalationStep(k=10, candidates_factor=3, rse=False)

    def test_numeric_with_company(self) -> None:
        """A computation about a named company goes hybrid + filter + rerank."""
        r = route(
            QueryAnalysis(question="Acme margin", is_computation=True),
            self.step,
            has_target=True,
            dense_available=True,
            reranker_available=True,
        )
        assert r.name == "hybrid+filter+rerank" and r.candidates == 30 and "rerank" in r.reason

    def test_open_and_bm25_only(self) -> None:
        """No company -> broad; a BM25-only index says so; no keywords -> semantic."""
        assert (
            route(
                QueryAnalysis(question="risks of supply chains"),
                self.step,
                has_target=False,
                dense_available=True,
                reranker_available=True,
            ).name
            == "hybrid-broad"
        )
        assert (
            route(
                QueryAnalysis(question="Acme risks"),
                self.step,
                has_target=True,
                dense_available=False,
                reranker_available=True,
            ).name
            == "bm25+filter"
        )
        assert (
            route(
                QueryAnalysis(question="what is the"),
                self.step,
                has_target=False,
                dense_available=True,
                reranker_available=True,
            ).name
            == "semantic"
        )

    def test_rerank_all_option(self) -> None:
        """retrieval.rerank_routes=all reranks a non-numeric company question too."""
        plain = QueryAnalysis(question="What industry is Acme in?")
        kw = {"has_target": True, "dense_available": True, "reranker_available": True}
        assert route(plain, self.step, **kw).name == "hybrid+filter"  # type: ignore[arg-type]
        assert route(plain, self.step, rerank_all=True, **kw).name == "hybrid+filter+rerank"  # type: ignore[arg-type]


class TestRSE:
    """Adjacent relevant chunks of one filing merge into one segment within the budget."""

    def test_adjacent_merge_and_budget(self) -> None:
        """Chunks 1-2 of doc A merge; chunk 7 stays alone; the budget splits long runs."""
        ranked = [
            (_chunk("A", 1, "l1\nl2"), 0.9),
            (_chunk("A", 2, "l2\nl3"), 0.8),
            (_chunk("A", 7), 0.7),
            (_chunk("B", 3), 0.1),
        ]
        segs = extract_segments(ranked, max_chars=100, min_score=0.2)
        assert [tuple(c.position for c in s.chunks) for s in segs][0] == (1, 2)
        assert segs[0].text == "l1\nl2\nl3"  # overlap not repeated
        assert len(extract_segments(ranked, max_chars=5, min_score=0.2)) == 4


class TestPageItems:
    """Evidence items are pages: chunks of one page merge, ranked by their best chunk."""

    def test_group_by_page(self) -> None:
        """Two chunks of page 5 become one item holding both chunk ids in position order."""
        from finqa.agents.retrieval.agent import _page_items
        from finqa.agents.retrieval.fusion import Candidate

        chunks = {
            c.chunk_id: c
            for c in (_chunk("D", 2, "b", 5), _chunk("D", 1, "a", 5), _chunk("D", 9, "z", 8))
        }
        fused = [
            Candidate("D#2", {"rrf": 0.3}),
            Candidate("D#9", {"rrf": 0.2}),
            Candidate("D#1", {"rrf": 0.1}),
        ]
        items = _page_items(fused, chunks, k=10)
        assert [(i.pages, i.chunk_ids) for i in items] == [((5,), ("D#1", "D#2")), ((8,), ("D#9",))]
        assert items[0].text == "a\nb" and items[0].scores["page_chunks"] == 2.0

    def test_each_chunk_keeps_its_section(self) -> None:
        """A page that ends one part of the filing and opens the next keeps each chunk's own
        section (the judge reads a quoted sentence's part from its chunk)."""
        from finqa.agents.retrieval.agent import _page_items
        from finqa.agents.retrieval.fusion import Candidate

        first = _chunk("D", 1, "a", 7).model_copy(update={"section": "Item 1. Business"})
        second = _chunk("D", 2, "b", 7).model_copy(update={"section": "Item 1A. Risk Factors"})
        chunks = {c.chunk_id: c for c in (first, second)}
        items = _page_items([Candidate("D#1", {}), Candidate("D#2", {})], chunks, k=10)
        assert items[0].section == "Item 1. Business"
        assert items[0].metadata["sections"] == ["Item 1. Business", "Item 1A. Risk Factors"]


class TestReranker:
    """The finance reranker's features (scored here with the hand-set weights) lift the statement that reports the asked metric."""

    def test_statement_and_year_features(self) -> None:
        """A cash-flow table with the asked year outranks prose that only shares words."""
        analysis = QueryAnalysis(
            question="capex 2022",
            statements=("cash_flow",),
            fiscal_years=(2022,),
            is_computation=True,
            expanded_query="capital expenditures 2022",
        )
        prose = _chunk("A", 0, "We discuss capital expenditures and our plans.")
        table = Chunk(
            chunk_id="A#1",
            doc_id="A",
            page=1,
            position=1,
            section="CONSOLIDATED STATEMENTS OF CASH FLOWS",
            text="Capital expenditures\n(410)\n(380)\n2022\n2021",
        )
        scores = FinanceReranker.hand().rerank(analysis, "capex 2022", [prose, table], [1.0, 0.5])
        assert scores[1][0] > scores[0][0] and scores[1][1]["statement"] == 1.0

    def test_section_and_stale_title(self) -> None:
        """A heading naming the asked topic helps; a statement title not printed on the page does not count."""
        legal = Chunk(
            chunk_id="A#0",
            doc_id="A",
            page=3,
            position=0,
            section="Item 3. Legal Proceedings",
            text="x",
        )
        other = Chunk(
            chunk_id="A#1", doc_id="A", page=4, position=1, section="Item 2. Properties", text="x"
        )
        analysis = QueryAnalysis(
            question="Any legal proceedings?", expanded_query="legal proceedings"
        )
        scores = FinanceReranker.hand().rerank(
            analysis, "Any legal proceedings?", [other, legal], [1.0, 0.9]
        )
        assert scores[1][0] > scores[0][0] and scores[1][1]["section"] == 1.0
        flow = Chunk(
            chunk_id="A#2",
            doc_id="A",
            page=9,
            position=2,
            section="CONSOLIDATED STATEMENTS OF CASH FLOWS",
            text="Dividends paid (120)",
        )
        cf = QueryAnalysis(question="dividends", statements=("cash_flow",))
        stale = FinanceReranker.hand().rerank(cf, "dividends", [flow], [1.0], titled=[False])
        fresh = FinanceReranker.hand().rerank(cf, "dividends", [flow], [1.0], titled=[True])
        assert stale[0][1]["statement"] == 0.0 and fresh[0][1]["statement"] == 1.0

    def test_flag_backend_missing_is_clear(self) -> None:
        """Asking for FlagEmbedding without it installed raises a one-line RetrievalError."""
        from finqa.agents.errors import RetrievalError

        reranker = build_reranker("/no/such/model", "flagembedding")
        assert reranker is not None
        try:
            import FlagEmbedding  # noqa: F401
        except ImportError:
            with pytest.raises(RetrievalError, match="finqa\\[flag\\]"):
                reranker.score("q", ["t"])
        assert build_reranker("none") is None


class TestAgent:
    """RetrievalAgent returns ranked, anchored evidence and records its plan."""

    def test_finds_cash_flow_page(self, agent: RetrievalAgent) -> None:
        """The capex question puts the PDF's cash-flow page (0-based page 2) in the first item,
        a segment on attempt 1 (RSE) and a single page without RSE."""
        ev = agent.retrieve(CAPEX_Q, 1)
        assert_implements(agent, Retriever)
        assert ev.plan.rse and ev.items and ev.items[0].doc_id == "ACME_2022_10K"
        assert 2 in ev.items[0].pages
        plain = RetrievalAgent(
            agent.settings.with_overrides(
                {"retrieval.escalation": [{"k": 10, "candidates_factor": 6, "rse": False}]}
            ),
            agent.index,
            embedder=agent.embedder,
        ).retrieve(CAPEX_Q, 1)
        assert plain.items[0].pages == (2,)
        assert [i.source_id for i in ev.items] == [f"S{n}" for n in range(1, len(ev.items) + 1)]
        assert {"rrf", "rerank"} <= set(ev.items[0].scores) and ev.plan.filters["company"]
        assert ev.plan.route.startswith("hybrid+filter") and ev.plan.k == 10

    def test_unknown_company_empty_evidence(self, agent: RetrievalAgent) -> None:
        """A company with no filing in the index gives empty evidence and a reason, not an error."""
        ev = agent.retrieve("What was Tesla's revenue in 2022?", 1, company="Tesla")
        assert ev.items == () and "Tesla" in ev.plan.reason

    def test_unknown_company_named_in_question(self, agent: RetrievalAgent) -> None:
        """A known company named only in the question and absent from the index gives no evidence."""
        from finqa.agents.retrieval.analysis import analyze_question

        assert analyze_question("What was 3M's revenue in 2018?").companies == ("3M",)
        ev = agent.retrieve("What was 3M's revenue in 2018?", 1)
        assert ev.items == () and "no evidence" in ev.plan.reason

    def test_doc_ids_restrict(self, agent: RetrievalAgent) -> None:
        """doc_ids limits evidence to those filings."""
        ev = agent.retrieve("revenue and operating income", 1, doc_ids=["GLOBEX_2023Q2_10Q"])
        assert ev.items and {i.doc_id for i in ev.items} == {"GLOBEX_2023Q2_10Q"}

    def test_escalation_and_feedback(self, agent: RetrievalAgent) -> None:
        """Attempt 3 uses k=30 with RSE, and the judge's missing facets join the query."""
        verdict = Verdict(
            grounding=0.2,
            completeness=0.1,
            numeric=0.0,
            utility=0.1,
            threshold=0.5,
            decision="retry",
            diagnosis="retrieval",
            missing_facets=("dividends paid",),
        )
        ev = agent.retrieve(CAPEX_Q, 3, feedback=verdict)
        assert ev.plan.k == 30 and ev.plan.rse and "dividends paid" in ev.plan.query
        assert "relaxed" in ev.plan.reason


class TestMissingIndex:
    """A wrong --index path is a clear error, not a silently empty index."""

    def test_missing_index_raises(self, tmp_path: Path) -> None:
        """RetrievalAgent on a folder without an index raises IndexError_ naming the fix."""
        from finqa.agents.errors import IndexError_

        with pytest.raises(IndexError_, match="finqa ingest"):
            RetrievalAgent(_settings(tmp_path / "nothing"))
        assert not (tmp_path / "nothing").exists()


class TestChromaServer:
    """index.chroma_url switches to chromadb.HttpClient (the scale-out path)."""

    def test_http_client_used(self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
        """With chroma_url set, the index connects to that host/port and creates a cosine collection."""
        import chromadb

        seen: dict[str, object] = {}
        real = chromadb.EphemeralClient()

        def fake_http(host: str, port: int, ssl: bool, settings: object) -> object:
            seen.update(host=host, port=port, ssl=ssl)
            return real

        monkeypatch.setattr(chromadb, "HttpClient", fake_http)
        settings = _settings(
            tmp_path / "i",
            **{"index.chroma_url": "http://127.0.0.1:8123", "index.collection": "http_test"},
        )
        index = open_index(settings)
        assert index.collection.metadata["hnsw:space"] == "cosine"
        assert seen == {"host": "127.0.0.1", "port": 8123, "ssl": False}


class TestRealModel:
    """The packaged MiniLM embedder and a real Chroma store work together offline."""

    def test_ingest_and_retrieve(self, tmp_path: Path) -> None:
        """A PDF ingested with the real embedder is retrieved by meaning with the right page."""
        from finqa.agents.retrieval.embedder import get_embedder

        emb = get_embedder()
        settings = _settings(tmp_path / "real")
        report = ingest_paths(
            [make_acme_pdf(tmp_path / "ACME_2022_10K.pdf")], settings, embedder=emb, progress=False
        )
        assert report.chunks >= 3
        agent = RetrievalAgent(settings, embedder=emb)
        ev = agent.retrieve(
            "What dividends did Acme pay out to shareholders?", 1, doc_ids=["ACME_2022_10K"]
        )
        assert ev.items[0].pages == (2,) and ev.items[0].scores["dense"] > 0
        dense_only = agent.index.dense_search(
            emb.embed(["cash returned to shareholders as dividends"])[0], 3, None
        )
        assert dense_only[0][0] == "ACME_2022_10K#2"
        vec = emb.embed(["dividends paid"])[0]
        exact = agent.index.dense_search(vec, 3, ["ACME_2022_10K"])  # filter-first exact search
        hnsw = agent.index.collection.query(
            query_embeddings=[vec], n_results=3, where={"doc_id": "ACME_2022_10K"}
        )
        assert [i for i, _ in exact] == hnsw["ids"][0]
        shutil.rmtree(
            tmp_path / "real" / "vectors"
        )  # an index without per-filing copies refills them
        agent.index.vectors._cache.clear()
        again = agent.index.dense_search(vec, 3, ["ACME_2022_10K"])
        assert [i for i, _ in again] == [i for i, _ in exact]
        assert [x for _, x in again] == pytest.approx([x for _, x in exact], abs=1e-5)
        assert (tmp_path / "real" / "vectors" / "ACME_2022_10K.npz").exists()


class TestBench:
    """The retrieval benchmark scores pages and writes the documented JSON."""

    def test_score_items(self) -> None:
        """recall@k counts gold pages among top-k items' pages; MRR uses the first hit."""
        from finqa.agents.types import EvidenceItem
        from finqa.benchmarks.retrieval import score_items

        items = [
            EvidenceItem(source_id="S1", doc_id="D", pages=(4,), chunk_ids=("D#1",), text=""),
            EvidenceItem(source_id="S2", doc_id="D", pages=(7, 8), chunk_ids=("D#2",), text=""),
        ]
        s = score_items(items, {("D", 8), ("D", 9)}, {"D"})
        assert s["recall@5"] == 0.5 and s["rr"] == 0.5 and s["hit@10"] == 1.0

    def test_cli_writes_json(
        self, corpus_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
    ) -> None:
        """`finqa bench retrieval` prints a table and writes retrieval.json with every configuration."""
        from finqa.orchestrator.cli import main

        index = tmp_path / "bm25only"
        ingest_paths(
            [corpus_dir],
            _settings(index, **{"index.dense": "none"}),
            embedder=FakeEmbedder(),
            progress=False,
        )
        questions = tmp_path / "q.jsonl"
        questions.write_text(
            json.dumps(
                {
                    "financebench_id": "q1",
                    "question": CAPEX_Q,
                    "answer": "$410 million",
                    "doc_name": "ACME_2022_10K",
                    "evidence": [
                        {"doc_name": "ACME_2022_10K", "evidence_page_num": 2, "evidence_text": ""}
                    ],
                }
            )
            + "\n"
        )
        code = main(
            [
                "bench",
                "retrieval",
                "--questions",
                str(questions),
                "--index",
                str(index),
                "--store",
                "shared",
                "--out",
                str(tmp_path / "out"),
            ]
        )
        result = json.loads((tmp_path / "out" / "retrieval.json").read_text())
        assert code == 0 and result["questions"] == 1 and result["store"] == "shared"
        assert "default" in result["configs"] and "semantic" not in result["configs"]
        assert result["configs"]["hybrid+filter"]["recall@10"] == 1.0
        assert "| default |" in capsys.readouterr().out
