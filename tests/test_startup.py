"""Start-up: what a cold `finqa` process imports, and the torch-free query embedder."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from finqa.benchmarks.startup import Sample, run_cold, summarise

# Libraries a process that only answers questions never needs on a BM25-only index, or
# (torch and friends) on an index whose vectors an ONNX file made.
_NEVER = {"torch", "chromadb", "sentence_transformers", "transformers", "pandas"}


def _imported(code: str) -> set[str]:
    """The heavy modules a fresh interpreter holds after running `code`."""
    probe = (
        f"{code}\nimport json, sys\n"
        f"print(json.dumps(sorted(m for m in {sorted(_NEVER | {'onnxruntime'})!r} if m in sys.modules)))"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True, timeout=300
    )
    return set(json.loads(done.stdout.strip().splitlines()[-1]))


class TestImportGraph:
    """The lexicon, the CLI and a question on a warm index import no model library."""

    def test_lexicon_imports_no_model_library(self) -> None:
        """`import finqa.lexicon` and a question analysis load no torch, chromadb, pandas or transformers."""
        code = "import finqa.lexicon as lx\nlx.analyze('What was 3M capex in FY2018?')"
        assert _imported(code) == set()

    def test_cli_parser_imports_no_agent(self) -> None:
        """Building the whole `finqa` parser (what `--help` does) imports no agent and no model library."""
        code = (
            "import sys\nfrom finqa.orchestrator.cli import build_parser\nbuild_parser()\n"
            "assert 'finqa.agents.judge.agent' not in sys.modules, 'judge loaded'\n"
            "assert 'finqa.orchestrator.loop' not in sys.modules, 'loop loaded'"
        )
        assert _imported(code) == set()

    def test_ask_on_bm25_index_loads_no_model(self, sample_index: Path, tmp_path: Path) -> None:
        """`finqa ask` on a BM25-only index answers with no embedder, chromadb, pandas or torch loaded."""
        env = {**_env(), "FINQA_AUDIT__PATH": str(tmp_path / "audit.jsonl")}
        sample = run_cold(
            ["ask", "What was Nike's total revenue for FY2023?", "--index", str(sample_index)],
            env=env,
        )
        assert sample.status == 0
        assert not set(sample.heavy) & (_NEVER | {"onnxruntime", "tokenizers"})
        assert (tmp_path / "audit.jsonl").exists()  # the question really ran


def _env() -> dict[str, str]:
    import os

    return dict(os.environ)


class TestStartupBenchmark:
    """`python -m finqa.benchmarks.startup` measures real processes."""

    def test_help_sample(self) -> None:
        """A cold `finqa --help` exits 0, uses CPU time and memory, and imports no heavy library."""
        sample = run_cold(["--help"])
        assert sample.status == 0 and sample.cpu > 0 and sample.rss_mb > 5
        assert sample.heavy == ()

    def test_summary_medians(self) -> None:
        """The summary gives medians and the wall range over the samples, and every exit status."""
        samples = [
            Sample(w, w / 2, 100 + w, s, h)
            for w, s, h in ((1, 0, ()), (3, 0, ("pandas",)), (2, 1, ()))
        ]
        s = summarise("finqa ask", samples)
        assert (s.wall_median, s.wall_min, s.wall_max, s.cpu_median) == (2, 1, 3, 1)
        assert s.heavy == ("pandas",) and s.statuses == (0, 1)

    def test_missing_index_is_one_line(
        self, tmp_path: Path, capsys: pytest.CaptureFixture[str]
    ) -> None:
        """A benchmark pointed at no index says so in one line and exits 2."""
        from finqa.benchmarks.startup import main

        assert main(["--index", str(tmp_path / "nope")]) == 2
        assert capsys.readouterr().err.strip().startswith("startup: error: no index at")


class _FakeIndex:
    """What `query_embedder` reads of an index: its embed record; what it binds."""

    def __init__(self, record: dict[str, Any]) -> None:
        self.record = record
        self.bound: list[dict[str, Any]] = []

    def embed_record(self) -> dict[str, Any]:
        return dict(self.record)

    def bind_embedder(self, identity: dict[str, Any], why: str | None = None) -> None:
        self.bound.append(dict(identity))


@pytest.mark.integration
class TestOnnxQueryEmbedder:
    """An index embedded by an ONNX file is queried with that file, without torch."""

    def test_same_vector_as_sentence_transformers(self) -> None:
        """A question's vector equals sentence-transformers' for the same int8 file (a text embedded alone)."""
        from finqa.agents.retrieval import embedder as emb
        from finqa.agents.retrieval._onnx_query import load_query_embedder

        full = emb.get_embedder(backend="onnx-int8", quant="avx2")  # exports once if needed
        source = Path(emb._model_path(emb.PACKAGED_MINILM))
        light = load_query_embedder(
            emb._export_dir(str(source), "onnx-int8"),
            full.file,
            backend="onnx-int8",
            quant="avx2",
            source=source,
        )
        assert light is not None and light.identity == full.identity
        for text in ("What was Apple's total net sales in Q3 2025?", "capex", "revenue " * 400):
            a, b = np.asarray(light.embed([text])[0]), np.asarray(full.embed([text])[0])
            assert np.abs(a - b).max() < 1e-5

    def test_query_embedder_of_an_onnx_index(self) -> None:
        """`query_embedder` gives an ONNX-built index the light embedder and binds its identity."""
        from finqa.agents.config import Settings
        from finqa.agents.retrieval import embedder as emb
        from finqa.agents.retrieval._onnx_query import OnnxQueryEmbedder

        full = emb.get_embedder(backend="onnx-int8", quant="avx2")
        index = _FakeIndex({"embedder": emb.PACKAGED_MINILM, **full.identity})
        got = emb.query_embedder(index, Settings())
        assert isinstance(got, OnnxQueryEmbedder) and index.bound == [full.identity]


class TestQueryEmbedderFallback:
    """Where the light path would not be exact, the full embedder is used."""

    def test_torch_index_uses_index_embedder(self, monkeypatch: pytest.MonkeyPatch) -> None:
        """An index embedded by torch is queried by `index_embedder` (sentence-transformers)."""
        from finqa.agents.config import Settings
        from finqa.agents.retrieval import embedder as emb

        marker = object()
        monkeypatch.setattr(emb, "index_embedder", lambda index, settings: marker)
        index = _FakeIndex(
            {
                "embedder": emb.PACKAGED_MINILM,
                "embed_backend": "torch",
                "embed_file": "model.safetensors",
            }
        )
        assert emb.query_embedder(index, Settings()) is marker

    def test_other_pooling_is_not_reimplemented(self, tmp_path: Path) -> None:
        """A model folder whose pooling is not mean (CLS here) gets no light embedder."""
        from finqa.agents.retrieval._onnx_query import load_query_embedder

        (tmp_path / "onnx").mkdir()
        (tmp_path / "onnx" / "model.onnx").write_bytes(b"")
        (tmp_path / "tokenizer.json").write_text("{}")
        (tmp_path / "1_Pooling").mkdir()
        (tmp_path / "1_Pooling" / "config.json").write_text(json.dumps({"pooling_mode": "cls"}))
        (tmp_path / "sentence_bert_config.json").write_text(json.dumps({"max_seq_length": 256}))
        modules = [
            {"path": "", "type": "sentence_transformers.models.Transformer"},
            {"path": "1_Pooling", "type": "sentence_transformers.models.Pooling"},
            {"path": "2_Normalize", "type": "sentence_transformers.models.Normalize"},
        ]
        (tmp_path / "modules.json").write_text(json.dumps(modules))
        assert load_query_embedder(tmp_path, "onnx/model.onnx", backend="onnx", quant=None) is None
        (tmp_path / "1_Pooling" / "config.json").write_text(json.dumps({"pooling_mode": "mean"}))
        with pytest.raises(Exception):  # noqa: B017 - mean pooling now: it tries to load the (empty) file
            load_query_embedder(tmp_path, "onnx/model.onnx", backend="onnx", quant=None)
