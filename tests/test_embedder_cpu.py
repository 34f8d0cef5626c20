"""The embedder on any CPU: the int8 config fits the CPU, finqa names the int8 file, an int8
failure falls back to fp32 in one line, and an index refuses vectors of another embedder."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent / "fixtures" / "retrieval"))

from finqa.agents.config import Settings  # noqa: E402
from finqa.agents.errors import IndexError_  # noqa: E402
from finqa.agents.retrieval import embedder as embedder_module  # noqa: E402
from finqa.agents.retrieval.embedder import (  # noqa: E402
    SentenceEmbedder,
    cpu_kind,
    index_embedder,
    int8_config,
    int8_file,
)
from finqa.agents.retrieval.ingest import ingest_paths  # noqa: E402
from finqa.agents.retrieval.store import open_index  # noqa: E402
from retrieval_support import FakeEmbedder  # noqa: E402

SAMPLES = Path(__file__).resolve().parents[1] / "orchestrator" / "samples" / "filings"
_X86 = "processor\t: 0\nmodel name\t: avx512f in a name\nflags\t\t: fpu sse2 {flags}\n"


def _settings(index: Path, **overrides: object) -> Settings:
    return Settings().with_overrides({"index.path": str(index), **overrides})


class TestCpuKind:
    """The int8 quantisation config follows the CPU, read from its architecture and flags."""

    def test_aarch64_is_arm64(self) -> None:
        """An aarch64 (Graviton, Apple Silicon) machine gets the arm64 config, whatever cpuinfo says."""
        assert cpu_kind("flags : avx2", machine="aarch64") == "arm64"
        assert int8_config(cpu_kind("", machine="arm64")) == "arm64"

    def test_avx2_only(self) -> None:
        """An x86 CPU with AVX2 and no AVX-512 gets avx2 (a flag named outside the flags line does not count)."""
        kind = cpu_kind(_X86.format(flags="avx avx2 fma"), machine="x86_64")
        assert kind == "avx2" and int8_config(kind) == "avx2"

    def test_avx512_kinds(self) -> None:
        """AVX-512 and AVX-512 VNNI CPUs get their own configs."""
        assert cpu_kind(_X86.format(flags="avx2 avx512f"), machine="x86_64") == "avx512"
        assert cpu_kind(_X86.format(flags="avx2 avx512f avx512_vnni"), machine="x86_64") == (
            "avx512_vnni"
        )

    def test_old_x86_uses_avx2_config(self) -> None:
        """An x86 CPU without AVX2 still gets a config (avx2's kernels run there)."""
        kind = cpu_kind(_X86.format(flags="sse4_2"), machine="x86_64")
        assert kind == "x86" and int8_config(kind) == "avx2"

    def test_file_named_by_finqa(self) -> None:
        """The int8 file name is finqa's, the same for every weight type of a config."""
        assert int8_file("avx2") == "onnx/model_finqa_int8_avx2.onnx"


def _runnable_configs() -> list[str]:
    kind = cpu_kind()
    if kind == "arm64":
        return ["arm64"]
    return ["avx2", *[k for k in ("avx512", "avx512_vnni") if k == kind or kind == "avx512_vnni"]]


@pytest.mark.integration
class TestInt8Export:
    """Each int8 config this machine can run is exported under finqa's file name and loads."""

    @pytest.mark.parametrize("config", _runnable_configs())
    def test_export_and_load(
        self, config: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        """From an empty cache, the config's int8 file is written, loaded and embeds close to torch."""
        monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
        emb = SentenceEmbedder(backend="onnx-int8", quant=config)
        assert emb.backend == "onnx-int8" and emb.fallback is None
        assert emb.identity == {
            "embed_backend": "onnx-int8",
            "embed_file": int8_file(config),
            "embed_quant": config,
        }
        assert list((tmp_path / "finqa" / "models").glob(f"*/{int8_file(config)}"))
        texts = ["Net sales rose 5% to $1,234 million.", "Total current liabilities 5,432"]
        torch_v = np.asarray(SentenceEmbedder(backend="torch").embed(texts))
        assert (np.asarray(emb.embed(texts)) * torch_v).sum(1).min() > 0.98


class TestFallback:
    """An optional speed-up never takes the default path down."""

    def test_int8_failure_falls_back_in_one_line(
        self, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
    ) -> None:
        """An int8 export that fails embeds with fp32 ONNX, says so in one stderr line and records it."""

        def fake_st_load(path: str, backend: str, device: str, quant: str | None = None) -> Any:
            if backend == "onnx-int8":
                raise RuntimeError("quantizer exploded\nsecond line")
            return _FakeModel(), f"file-{backend}", None

        monkeypatch.setattr(embedder_module, "_load", fake_st_load)
        emb = SentenceEmbedder(backend="onnx-int8")
        err = capsys.readouterr().err.strip().splitlines()
        assert err == ["finqa: embedder onnx-int8 failed (quantizer exploded); embedding with onnx"]
        assert emb.backend == "onnx" and emb.requested_backend == "onnx-int8"
        assert emb.identity["embed_backend"] == "onnx"

    def test_every_backend_failing_is_one_error(self, monkeypatch: pytest.MonkeyPatch) -> None:
        """When torch fails too, the error is one IndexError_ line naming the model."""

        def broken(path: str, backend: str, device: str, quant: str | None = None) -> Any:
            raise OSError(f"{backend} missing")

        monkeypatch.setattr(embedder_module, "_load", broken)
        with pytest.raises(
            IndexError_, match=r"cannot load embedder .* \(torch\) offline: torch missing"
        ):
            SentenceEmbedder(backend="onnx-int8")


class _FakeModel:
    max_seq_length = 256
    tokenizer = staticmethod(lambda texts, **kw: {"input_ids": [[1] for _ in texts]})

    def get_sentence_embedding_dimension(self) -> int:
        return 8


class _Identified(FakeEmbedder):
    def __init__(self, backend: str, file: str, quant: str | None) -> None:
        super().__init__()
        self.identity = {"embed_backend": backend, "embed_file": file, "embed_quant": quant}
        self.fallback: str | None = None


class TestIndexIdentity:
    """The index records what embedded it, and a process whose embedder differs is told."""

    def _ingest(self, tmp_path: Path, emb: Any) -> Path:
        folder = tmp_path / "idx"
        ingest_paths(
            [SAMPLES / "NIKE_2023_10K.jsonl"], _settings(folder), embedder=emb, progress=False
        )
        return folder

    def test_identity_recorded(self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
        """The embedder's backend, file and int8 config land in index.json when it first binds."""
        folder = tmp_path / "idx"
        idx = open_index(_settings(folder))
        emb = _Identified("onnx-int8", int8_file("avx2"), "avx2")
        monkeypatch.setattr(embedder_module, "get_embedder", lambda *a, **kw: emb)
        assert index_embedder(idx, _settings(folder)) is emb
        info = json.loads((folder / "index.json").read_text(encoding="utf-8"))
        assert (info["embed_backend"], info["embed_file"], info["embed_quant"]) == (
            "onnx-int8",
            "onnx/model_finqa_int8_avx2.onnx",
            "avx2",
        )

    def test_other_int8_config_refused(
        self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        """An index embedded with avx512_vnni int8 is queried with that config, and refused if the process can only make another."""
        folder = tmp_path / "idx"
        idx = open_index(_settings(folder))
        first = _Identified("onnx-int8", int8_file("avx512_vnni"), "avx512_vnni")
        monkeypatch.setattr(embedder_module, "get_embedder", lambda *a, **kw: first)
        index_embedder(idx, _settings(folder))
        ingest_paths(
            [SAMPLES / "NIKE_2023_10K.jsonl"],
            _settings(folder),
            index=idx,
            embedder=first,
            progress=False,
        )
        asked: list[Any] = []
        fallback = _Identified("onnx", "onnx/model.onnx", None)
        fallback.fallback = "onnx-int8 failed (no kernels); embedding with onnx"

        def get(*a: Any, **kw: Any) -> Any:
            asked.append(kw.get("quant"))
            return fallback

        monkeypatch.setattr(embedder_module, "get_embedder", get)
        with pytest.raises(
            IndexError_, match=r"avx512_vnni.*this process embeds with onnx .*no kernels"
        ) as err:
            index_embedder(open_index(_settings(folder)), _settings(folder))
        assert asked == ["avx512_vnni"]  # the index's own config is asked for first
        assert "\n" not in str(err.value)

    def test_empty_index_adopts(self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
        """An index with no filings yet records the embedder that actually loaded (a fallback included)."""
        folder = tmp_path / "idx"
        idx = open_index(_settings(folder))
        emb = _Identified("onnx", "onnx/model.onnx", None)
        monkeypatch.setattr(embedder_module, "get_embedder", lambda *a, **kw: emb)
        index_embedder(idx, _settings(folder))
        info = json.loads((folder / "index.json").read_text(encoding="utf-8"))
        assert info["embed_backend"] == "onnx" and info["embed_file"] == "onnx/model.onnx"


class TestExportLock:
    """Two processes starting on an empty cache export the ONNX model one after the other."""

    def test_second_process_waits_for_the_export(self, tmp_path: Path) -> None:
        """While one process holds the export folder's lock (it is writing the model file), another waits for it instead of reading a half-written file."""
        import subprocess
        import time

        from finqa.agents.retrieval.embedder import export_lock

        holder = subprocess.Popen(
            [
                sys.executable,
                "-c",
                "import sys, time; from pathlib import Path;"
                "from finqa.agents.retrieval.embedder import export_lock\n"
                "with export_lock(Path(sys.argv[1])):\n"
                "    print('held', flush=True); time.sleep(2.0)",
                str(tmp_path),
            ],
            stdout=subprocess.PIPE,
            text=True,
        )
        try:
            assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
            start = time.monotonic()
            with export_lock(tmp_path):
                waited = time.monotonic() - start
        finally:
            holder.wait(timeout=30)
        assert waited >= 1.0
