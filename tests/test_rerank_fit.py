"""The fitted finance reranker: features, the packaged model, the fitting and the folds."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent / "fixtures" / "retrieval"))

from finqa.agents.errors import RetrievalError  # noqa: E402
from finqa.agents.retrieval.rerank import (  # noqa: E402
    FEATURES,
    MODEL_FILE,
    FinanceReranker,
    LinearModel,
    build_reranker,
    doc_fit,
    features,
)
from finqa.agents.types import Chunk, QueryAnalysis  # noqa: E402
from finqa.benchmarks.fit_reranker import company_folds, fit_linear  # noqa: E402


def _chunk(i: int, text: str, page: int = 0, section: str | None = None) -> Chunk:
    return Chunk(chunk_id=f"D#{i}", doc_id="D", page=page, position=i, section=section, text=text)


class TestFeatures:
    """Each candidate gets every feature, from the text and from the lists it came from."""

    def test_signals_become_rank_features(self) -> None:
        """BM25/dense ranks and scores, statement-list membership and page position are read from the candidate's signals."""
        analysis = QueryAnalysis(question="capex 2022", fiscal_years=(2022,), is_computation=True)
        chunks = [_chunk(0, "Capital expenditures 2022 (410)"), _chunk(1, "Prose about plans", 7)]
        signals = [
            {"rrf": 0.03, "bm25": 8.0, "bm25_rank": 1.0, "statement_rank": 2.0},
            {"rrf": 0.015, "bm25": 2.0, "bm25_rank": 4.0, "dense_rank": 2.0},
        ]
        got = features(
            analysis,
            "capex 2022",
            chunks,
            [0.03, 0.015],
            dense=[0.5, 0.7],
            signals=signals,
            page_frac=[0.1, 0.9],
        )
        assert set(got[0]) == set(FEATURES)
        assert got[0]["bm25_rr"] == 1.0 and got[1]["bm25_rr"] == 0.25
        assert got[0]["bm25_rel"] == 1.0 and got[1]["bm25_rel"] == 0.25
        assert got[0]["stmt_list"] == 1.0 and got[1]["stmt_list"] == 0.0
        assert got[1]["dense_rr"] == 0.5 and got[0]["dense_rr"] == 0.0
        assert got[0]["dense"] == 0.5 and got[0]["dense_text"] == 0.0  # a question with figures
        assert got[0]["year"] == 1.0 and got[1]["page_pos"] == 0.9

    def test_text_question_uses_text_features(self) -> None:
        """Without figures the cosine and number density go to the *_text features."""
        analysis = QueryAnalysis(question="Who audits the company?")
        got = features(
            analysis, analysis.question, [_chunk(0, "Auditor 2022 12 34")], [1.0], dense=[0.4]
        )
        assert got[0]["dense_text"] == 0.4 and got[0]["dense"] == 0.0
        assert got[0]["table_text"] > 0 and got[0]["table"] == 0.0


class TestDocFit:
    """The filing's form and period granularity against what the question asks."""

    def test_quarter_asked_fits_that_quarters_filings(self) -> None:
        """A quarter asked fits that quarter's 10-Q and release, not the annual report or another quarter."""
        a = QueryAnalysis(question="Q2 2023 revenue", fiscal_years=(2023,), quarters=(2,))
        assert doc_fit(a, {"doc_type": "10q", "period": "2023Q2"})["doc_period"] == 1.0
        assert doc_fit(a, {"doc_type": "earnings", "period": "2023Q2"})["doc_period"] == 1.0
        assert doc_fit(a, {"doc_type": "10q", "period": "2023Q1"})["doc_period"] == 0.0
        assert doc_fit(a, {"doc_type": "10k", "period": "FY2023"})["doc_period"] == 0.0

    def test_year_asked_fits_the_annual_report(self) -> None:
        """Only a fiscal year asked fits the 10-K; a release is marked as one; no period asked fits nothing."""
        a = QueryAnalysis(question="FY2022 revenue", fiscal_years=(2022,))
        assert doc_fit(a, {"doc_type": "10k", "period": "FY2022"}) == {
            "doc_form": 0.0,
            "doc_period": 1.0,
            "doc_release": 0.0,
        }
        release = doc_fit(a, {"doc_type": "earnings", "period": "2022Q4"})
        assert release["doc_period"] == 0.0 and release["doc_release"] == 1.0
        assert doc_fit(QueryAnalysis(question="x"), {"doc_type": "10k"})["doc_period"] == 0.0

    def test_named_form_and_feature_row(self) -> None:
        """A form the question names fits filings of that form, and `features` carries the doc_* values per candidate."""
        a = QueryAnalysis(question="In the 10-Q ...", doc_types=("10q",))
        assert doc_fit(a, {"doc_type": "10q"})["doc_form"] == 1.0
        assert doc_fit(a, {})["doc_form"] == 0.0
        got = features(
            a,
            a.question,
            [_chunk(0, "a"), _chunk(1, "b")],
            [1.0, 0.5],
            filings=[{"doc_type": "10q"}, {"doc_type": "8k"}],
        )
        assert got[0]["doc_form"] == 1.0 and got[1]["doc_form"] == 0.0
        assert got[1]["doc_release"] == 1.0


class TestModel:
    """The packaged model loads without scikit-learn and scores with its weights."""

    def test_packaged_model_is_fitted(self) -> None:
        """reranker_model.json was written by fit_reranker and carries its out-of-fold figures."""
        data = json.loads(MODEL_FILE.read_text(encoding="utf-8"))
        assert data["fitted_by"].endswith("fit_reranker")
        assert data["out_of_fold"] and set(data["weights"]) <= set(FEATURES)
        assert FinanceReranker().model.weights == data["weights"]

    def test_damaged_model_is_one_line_error(self, tmp_path: Path) -> None:
        """A damaged or foreign model file raises RetrievalError with one line."""
        bad = tmp_path / "m.json"
        bad.write_text("{not json", encoding="utf-8")
        with pytest.raises(RetrievalError, match="cannot read reranker model") as err:
            LinearModel.load(bad)
        assert "\n" not in str(err.value)
        bad.write_text(json.dumps({"weights": {"nonsense": 1.0}}), encoding="utf-8")
        with pytest.raises(RetrievalError, match="unknown features"):
            LinearModel.load(bad)

    def test_build_reranker_names(self, tmp_path: Path) -> None:
        """`finance-hand` gives the hand weights and `finance:PATH` a model file."""
        hand = build_reranker("finance-hand")
        assert isinstance(hand, FinanceReranker) and hand.model.name == "hand"
        path = tmp_path / "m.json"
        path.write_text(json.dumps({"name": "mine", "weights": {"year": 2.0}}), encoding="utf-8")
        mine = build_reranker(f"finance:{path}")
        assert isinstance(mine, FinanceReranker) and mine.model.score({"year": 0.5}) == 1.0

    def test_weights_decide_order(self) -> None:
        """The same candidates come out in the order the model's weights say."""
        analysis = QueryAnalysis(question="revenue 2022", fiscal_years=(2022,), is_computation=True)
        chunks = [_chunk(0, "Revenue 2021 100"), _chunk(1, "Revenue 2022 120")]
        likes_year = FinanceReranker(model=LinearModel({"year": 1.0}))
        likes_rank = FinanceReranker(model=LinearModel({"fused": 1.0}))
        a = likes_year.rerank(analysis, analysis.question, chunks, [1.0, 0.5])
        b = likes_rank.rerank(analysis, analysis.question, chunks, [1.0, 0.5])
        assert a[1][0] > a[0][0] and b[0][0] > b[1][0]


class TestFitting:
    """Logistic fitting in numpy and company-grouped folds."""

    @pytest.mark.parametrize("loss", ["pointwise", "pairwise"])
    def test_learns_the_informative_feature(self, loss: str) -> None:
        """On data where only feature 0 separates gold from other chunks, it gets the largest positive weight and ranks gold first."""
        rng = np.random.default_rng(0)
        groups = []
        for _ in range(30):
            x = rng.random((20, 3))
            y = np.zeros(20)
            y[:2] = 1.0
            x[:2, 0] += 1.0
            groups.append((x, y))
        weights, bias = fit_linear(groups, ["a", "b", "c"], loss=loss)
        assert weights["a"] > 0 and weights["a"] > 5 * max(abs(weights["b"]), abs(weights["c"]))
        x, y = groups[0]
        scores = bias + x @ np.array([weights["a"], weights["b"], weights["c"]])
        assert set(np.argsort(-scores)[:2]) == {0, 1}

    def test_no_usable_question_is_an_error(self) -> None:
        """Questions without both gold and non-gold candidates cannot fit anything."""
        with pytest.raises(ValueError, match="no question"):
            fit_linear([(np.ones((3, 2)), np.zeros(3))], ["a", "b"])

    def test_folds_group_companies(self) -> None:
        """A company's questions all land in one fold, and folds stay within one company of each other in size."""
        companies = ["A"] * 5 + ["B"] * 3 + ["C"] * 3 + ["D"] * 2 + ["E"] * 2 + ["F"]
        folds = company_folds(companies, 3)
        by_company: dict[str, set[int]] = {}
        for c, f in zip(companies, folds, strict=True):
            by_company.setdefault(c, set()).add(f)
        assert all(len(f) == 1 for f in by_company.values())
        sizes = [folds.count(f) for f in range(3)]
        assert max(sizes) - min(sizes) <= 2 and sum(sizes) == len(companies)


@pytest.mark.integration
class TestEmbedderBackends:
    """The ONNX backends give the packaged model's vectors, exported locally."""

    def test_onnx_int8_close_to_torch(
        self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        """ONNX fp32 matches torch and int8 stays within cosine 0.98, exported into the cache folder without a download."""
        from finqa.agents.retrieval.embedder import SentenceEmbedder

        monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
        texts = ["Net sales rose 5% to $1,234 million.", "Total current liabilities 5,432 4,987"]
        torch_v = np.asarray(SentenceEmbedder(backend="torch").embed(texts))
        onnx_v = np.asarray(SentenceEmbedder(backend="onnx").embed(texts))
        int8_v = np.asarray(SentenceEmbedder(backend="onnx-int8").embed(texts))
        assert (onnx_v * torch_v).sum(1).min() > 0.999
        assert (int8_v * torch_v).sum(1).min() > 0.98
        assert list((tmp_path / "finqa" / "models").glob("*/onnx/model_finqa_int8_*.onnx"))
