"""Query-time embedding for an index built with an ONNX backend, without torch.

An index embedded by `onnx` or `onnx-int8` records the ONNX file that made its vectors. A
question needs one forward pass of that same file: ONNX Runtime runs it and the model's own
`tokenizer.json` (Hugging Face `tokenizers`) tokenizes, then mean pooling over the attention
mask and L2 normalisation, as the sentence-transformers pipeline of the model folder does
(`modules.json`: Transformer -> Pooling(mean) -> Normalize). Neither torch nor
sentence-transformers is imported, so a query process starts in a fraction of the time.

`load_query_embedder` returns None whenever that pipeline is not exactly what the folder
declares (another pooling, no tokenizer file, the ONNX file missing): the caller then uses the
full sentence-transformers embedder, which gives the same vectors more slowly.
"""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

__all__ = ["OnnxQueryEmbedder", "load_query_embedder"]

_PIPELINE = ("Transformer", "Pooling", "Normalize")


class OnnxQueryEmbedder:
    """`Embedder` for questions over an ONNX-built index: same vectors, no torch."""

    def __init__(
        self, folder: Path, file: str, *, backend: str, quant: str | None, max_tokens: int
    ) -> None:
        import onnxruntime as ort
        from tokenizers import Tokenizer

        options = ort.SessionOptions()
        options.log_severity_level = 3  # errors only: the user's terminal is not ORT's log
        self._session = ort.InferenceSession(
            str(folder / file), sess_options=options, providers=["CPUExecutionProvider"]
        )
        self._inputs = {i.name for i in self._session.get_inputs()}
        tok = Tokenizer.from_file(str(folder / "tokenizer.json"))
        tok.no_padding()  # the file may carry a fixed padding from an earlier save
        tok.enable_truncation(max_length=max_tokens)
        self._tokenizer = tok
        self.backend = backend
        self.file = file
        self.quant = quant
        self.fallback: str | None = None
        self.max_tokens = max_tokens
        self.dimension = int(self._session.get_outputs()[0].shape[-1] or 0)
        self.forward_seconds = 0.0
        self.embedded = 0

    @property
    def identity(self) -> dict[str, str | None]:
        return {"embed_backend": self.backend, "embed_file": self.file, "embed_quant": self.quant}

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        """One forward pass per text (questions come one at a time; no padding to share)."""
        import numpy as np

        out: list[list[float]] = []
        started = time.perf_counter()
        for text in texts:
            enc = self._tokenizer.encode(text)
            ids = np.asarray([enc.ids], dtype=np.int64)
            mask = np.asarray([enc.attention_mask], dtype=np.int64)
            feeds = {"input_ids": ids, "attention_mask": mask}
            if "token_type_ids" in self._inputs:
                feeds["token_type_ids"] = np.asarray([enc.type_ids], dtype=np.int64)
            hidden = self._session.run(None, feeds)[0][0]  # (tokens, dim)
            weights = mask[0].astype(np.float32)[:, None]
            pooled = (hidden * weights).sum(axis=0) / max(float(weights.sum()), 1e-9)
            norm = float(np.linalg.norm(pooled))
            vector = pooled / max(norm, 1e-12)
            out.append([float(x) for x in vector])
        self.forward_seconds += time.perf_counter() - started
        self.embedded += len(texts)
        return out

    def count_tokens(self, text: str) -> int:
        return len(self._tokenizer.encode(text, add_special_tokens=False).ids)


def _read_json(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def _mean_pooling_pipeline(folder: Path) -> bool:
    """The folder declares Transformer -> mean Pooling -> Normalize and nothing else."""
    modules = _read_json(folder / "modules.json")
    if not isinstance(modules, list) or len(modules) != len(_PIPELINE):
        return False
    kinds = [str(m.get("type", "")).rsplit(".", 1)[-1] for m in modules if isinstance(m, dict)]
    if tuple(kinds) != _PIPELINE:
        return False
    pooling = _read_json(folder / str(modules[1].get("path", "")) / "config.json")
    if not isinstance(pooling, dict):
        return False
    mode = pooling.get("pooling_mode")
    if mode is None:  # the older config form: one flag per mode
        flags = [k for k, v in pooling.items() if k.startswith("pooling_mode_") and v is True]
        mode = "mean" if flags == ["pooling_mode_mean_tokens"] else None
    return mode == "mean"


def _max_tokens(folder: Path, source: Path | None) -> int | None:
    """sentence-transformers' max_seq_length: the folder's config, else the source model's."""
    for where in (folder, source):
        if where is None:
            continue
        config = _read_json(where / "sentence_bert_config.json")
        if isinstance(config, dict) and isinstance(config.get("max_seq_length"), int):
            return int(config["max_seq_length"])
    return None


def load_query_embedder(
    folder: Path, file: str, *, backend: str, quant: str | None, source: Path | None = None
) -> OnnxQueryEmbedder | None:
    """The torch-free query embedder for `folder/file`, or None when it would not be exact."""
    if not backend.startswith("onnx") or not file.endswith(".onnx"):
        return None
    if not (folder / file).is_file() or not (folder / "tokenizer.json").is_file():
        return None
    if not _mean_pooling_pipeline(folder):
        return None
    max_tokens = _max_tokens(folder, source)
    if max_tokens is None:
        return None
    try:
        import onnxruntime  # noqa: F401
        import tokenizers  # noqa: F401
    except ImportError:
        return None
    return OnnxQueryEmbedder(folder, file, backend=backend, quant=quant, max_tokens=max_tokens)
