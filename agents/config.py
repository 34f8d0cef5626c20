"""One pydantic settings model for finqa, loaded from YAML, overridable by FINQA_* env vars.

Precedence (highest first): explicit overrides (CLI flags) > environment > YAML file > defaults.
Environment keys use `__` between levels: `FINQA_INDEX__PATH=/data/idx`,
`FINQA_LLM__BACKEND=openai`, `FINQA_JUDGE__TAU0=0.6`. Unknown keys anywhere are errors.
Secrets (API keys, HMAC keys) are never part of this model: see `finqa.agents.secrets`.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal

import yaml
from finqa.agents.errors import ConfigError
from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

_YAML_LOADER = getattr(
    yaml, "CSafeLoader", yaml.SafeLoader
)  # libyaml's C parser when present (safe schema)

__all__ = [
    "Settings",
    "IndexConfig",
    "RetrievalConfig",
    "EscalationStep",
    "LLMConfig",
    "ReasoningConfig",
    "JudgeConfig",
    "ConventionPolicy",
    "OrchestratorConfig",
    "AuditConfig",
    "load_settings",
    "config_hash",
    "DEFAULT_CONFIG",
    "DEFAULT_EMBED_BACKEND",
]

CONFIGS_DIR = Path(__file__).resolve().parent.parent / "configs"
DEFAULT_CONFIG = CONFIGS_DIR / "default.yaml"
ENV_PREFIX = "FINQA_"
EmbedBackend = Literal["torch", "onnx", "onnx-int8", "openvino"]
# The backend of a new index when index.embed_backend is not set (an existing index keeps the
# one it records): the fastest within 0.01 dense recall@10 of torch fp32, measured by
# `python -m finqa.benchmarks.embed_speed --sample filings` (README, "Measured").
DEFAULT_EMBED_BACKEND: EmbedBackend = "onnx-int8"


class _Section(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class IndexConfig(_Section):
    path: str = ".finqa/index"  # relative paths resolve against the working directory
    chroma_url: str | None = None  # e.g. http://localhost:8000 -> chromadb.HttpClient
    collection: str = "finqa_chunks"
    embedder: str = "all-MiniLM-L6-v2"  # "all-MiniLM-L6-v2" (packaged) or a model directory / HF id
    embed_batch_size: int = 32
    chunk_tokens: int = 240  # word pieces per chunk; must fit the embedder's max_seq_length
    chunk_overlap: int = 0  # word pieces repeated between chunks (40: 8% more to embed)
    dense: Literal["all", "none"] = "all"  # "none": BM25-only index (cheap, for huge stores)
    bm25_cache_docs: int = 512  # BM25 partitions (one per filing) kept loaded per process
    dense_filter_docs: int = 16  # filtered to <= this many filings: exact dense search over them
    repair_pdfs: bool = True  # ingest what pymupdf recovers from a damaged PDF (with a warning)
    # per-file size limits (MB): a larger file is skipped with a one-line reason, the run goes on
    max_pdf_mb: float = Field(default=200.0, gt=0)
    max_text_mb: float = Field(default=50.0, gt=0)  # HTML, .txt/.md, EDGAR submissions
    chunk_header: bool = True  # prefix "company doc_type period | section" to embedded/BM25 text
    header_section_tokens: int = 12  # word pieces reserved for the section title in that header
    torch_threads: int = (
        0  # CPU threads for the embedder (0 = torch default); 1 suits query-only use
    )
    # sentence-transformers backend: torch | onnx | onnx-int8 | openvino (exported locally);
    # None: an existing index's own backend, DEFAULT_EMBED_BACKEND for a new one
    embed_backend: EmbedBackend | None = None
    device: str = "cpu"  # cpu | cuda | auto (a GPU when torch sees one)
    embed_min_words: int = 50  # pages with fewer words are kept for BM25 but not embedded

    def backend_for(self, recorded: str | None = None) -> str:
        """The embedder backend to use: the one named here, else the index's `recorded` one,
        else the default for a new index."""
        return self.embed_backend or recorded or DEFAULT_EMBED_BACKEND


class EscalationStep(_Section):
    k: int
    candidates_factor: int
    rse: bool


class RetrievalConfig(_Section):
    fusion: Literal["rrf"] = "rrf"
    rrf_k: int = 60
    reranker: str = "finance"  # "finance" (built-in, offline), "none", or a cross-encoder dir/id
    reranker_backend: Literal["auto", "sentence-transformers", "flagembedding"] = "auto"
    use_metadata_filters: bool = True
    rse_max_chars: int = 6000  # length budget of one RSE segment
    rse_min_score: float = 0.2
    relax_periods_from_attempt: int = 3  # from this attempt on, drop the fiscal-year/period filter
    unit: Literal["page", "chunk"] = (
        "page"  # evidence item = a page's matching chunks, or one chunk
    )
    page_text: Literal["full", "matched"] = (
        "full"  # page items carry the whole page or matched chunks
    )
    # rerank every route / attempt 1 = 120 candidates with RSE: the out-of-fold winner of
    # `python -m finqa.benchmarks.fit_reranker` (see agents/retrieval/reranker_model.json)
    rerank_routes: Literal["numeric", "all"] = "all"
    escalation: tuple[EscalationStep, ...] = (
        EscalationStep(k=10, candidates_factor=12, rse=True),
        EscalationStep(k=20, candidates_factor=4, rse=False),
        EscalationStep(k=30, candidates_factor=6, rse=True),
    )

    def step(self, attempt: int) -> EscalationStep:
        """The escalation step for a 1-based attempt (the last step repeats)."""
        return self.escalation[min(max(attempt, 1), len(self.escalation)) - 1]


class LLMConfig(_Section):
    backend: Literal["offline", "openai", "hybrid"] = "offline"
    base_url: str | None = None  # None -> the openai client's default (api.openai.com)
    model: str = "gpt-4o-mini"
    timeout_s: float = 60.0
    max_retries: int = 3
    backoff_s: float = 1.0
    json_mode: Literal["auto", "on", "off"] = "auto"
    max_tokens: int = 1024
    temperature: float = 0.0


class ReasoningConfig(_Section):
    strategies: tuple[str, ...] = ("standard", "conservative", "detailed")
    max_evidence_chars: int = 24000


# when a metric's recognised definitions disagree where it matters (agents/judge/convention.py)
ConventionPolicy = Literal["record", "figure", "conclusion", "conclusion_open"]


class JudgeConfig(_Section):
    w_grounding: float = 0.3
    w_completeness: float = 0.2
    w_numeric: float = 0.5
    tau0: float = 0.5
    tau_lambda: float = 0.1
    tau_min: float = 0.3
    rel_tolerance: float = 0.005  # relative rounding tolerance on top of written precision
    llm_judge: bool = False
    deterministic_verify: bool = True
    # an answer whose metric's recognised definitions disagree where it matters, the question
    # stating none, is not accepted (agents/judge/convention.py); policy and tolerance chosen on
    # company-grouped training folds (python -m finqa.benchmarks.convention_fit)
    convention_policy: ConventionPolicy = "conclusion_open"
    convention_tolerance: float = 0.1

    @model_validator(mode="after")
    def _weights_sum_to_one(self) -> JudgeConfig:
        total = self.w_grounding + self.w_completeness + self.w_numeric
        if abs(total - 1.0) > 1e-6:
            raise ValueError(f"judge weights must sum to 1, got {total:.3f}")
        return self

    def threshold(self, attempt: int) -> float:
        """tau_t = max(tau0 - lambda (t - 1), tau_min)."""
        return max(self.tau0 - self.tau_lambda * (attempt - 1), self.tau_min)


class OrchestratorConfig(_Section):
    budget: int = 2  # retries; at most budget + 1 attempts
    prompt_escalation: bool = True
    retrieval_escalation: bool = True
    stop_on_no_improvement: bool = True
    workers: int = 1
    # a question naming two companies, or one company over three or more fiscal years, is split
    # into legs answered one by one and combined (finqa.orchestrator.legs)
    cross_filing: bool = True
    # an answer no attempt got verified (the judge's utility below its threshold every time):
    # "abstain" returns an abstention that shows the unverified reading, marked as not an answer;
    # "answer" returns it as best_effort. Chosen on company-grouped folds of the dev questions
    # (`python -m finqa.benchmarks.unverified_fit`: every fold chooses abstain)
    unverified: Literal["abstain", "answer"] = "abstain"


class AuditConfig(_Section):
    # None: `<index.path>/audit.jsonl`, beside the index it answers from (Settings.audit_path),
    # so runs from any working directory keep one trail; set it to log elsewhere
    path: str | None = None
    fsync: bool = True
    # a signed checkpoint of the log's head at the end of every run and batch (audit.checkpoints)
    checkpoints: bool = True
    # None: `<log>.checkpoints/` beside the log; else one sub-folder per log under this folder
    checkpoint_dir: str | None = None
    # the machine's Ed25519 key, outside the log's folder; None: $XDG_CONFIG_HOME/finqa/audit-checkpoint.key
    checkpoint_key: str | None = None
    # the public keys verify trusts (reviewers' and checkpoints'), JSON; see docs/audit-review.md
    trusted_keys: str | None = None


class Settings(BaseModel):
    """The whole configuration. Unknown keys are errors."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    index: IndexConfig = Field(default_factory=IndexConfig)
    retrieval: RetrievalConfig = Field(default_factory=RetrievalConfig)
    llm: LLMConfig = Field(default_factory=LLMConfig)
    reasoning: ReasoningConfig = Field(default_factory=ReasoningConfig)
    judge: JudgeConfig = Field(default_factory=JudgeConfig)
    orchestrator: OrchestratorConfig = Field(default_factory=OrchestratorConfig)
    audit: AuditConfig = Field(default_factory=AuditConfig)
    log_level: Literal["debug", "info", "warning", "error"] = "info"

    @property
    def audit_path(self) -> str:
        """Where the audit log goes: `audit.path` when set, else `<index.path>/audit.jsonl`."""
        if self.audit.path:
            return self.audit.path
        return str(Path(self.index.path) / "audit.jsonl")

    def with_overrides(self, overrides: Mapping[str, Any]) -> Settings:
        """A copy with dotted-key overrides applied (`{"index.path": "x"}`), re-validated."""
        data = self.model_dump(mode="json")
        for key, value in overrides.items():
            _set_dotted(data, key.split("."), value)
        return _validate(data, source="overrides")


def _set_dotted(data: dict[str, Any], keys: list[str], value: Any) -> None:
    node = data
    for key in keys[:-1]:
        child = node.setdefault(key, {})
        if not isinstance(child, dict):
            raise ConfigError(f"config key {'.'.join(keys)!r}: {key!r} is not a section")
        node = child
    node[keys[-1]] = value


def _env_overrides(environ: Mapping[str, str]) -> tuple[dict[str, Any], dict[str, str]]:
    """The FINQA_* settings as a nested mapping, and which variable gave each dotted key."""
    out: dict[str, Any] = {}
    names: dict[str, str] = {}
    for name, raw in environ.items():
        if not _is_setting(name):
            continue
        keys = name[len(ENV_PREFIX) :].lower().split("__")
        try:
            value: Any = yaml.load(raw, Loader=_YAML_LOADER) if raw.strip() else raw
        except yaml.YAMLError:
            value = raw
        _set_dotted(out, keys, value)
        names[".".join(keys)] = name
    return out, names


# FINQA_* variables that are secrets or process switches, not configuration keys (README).
NON_SETTING_ENV = frozenset(
    {
        "FINQA_API_KEY",  # secret: the LLM key (like OPENAI_API_KEY)
        "FINQA_AUDIT_HMAC_KEY",  # secret: signs audit checkpoints
        "FINQA_AUDIT_REVIEW_KEY",  # the reviewer's private key file for `audit review`
        "FINQA_DEBUG",  # tracebacks on errors
        "FINQA_CHROMIUM",  # the Chromium executable for `audit report --pdf`
        "FINQA_FINANCEBENCH",  # tests: where the FinanceBench data is
        "FINQA_REQUIRE_BROWSER",  # tests: fail, not skip, without a browser (CI)
        "FINQA_UPDATE_GOLDEN",  # tests: rewrite golden files
        "FINQA_LLM_TEST_PORT",  # make test-llm: the port of its own server
    }
)


def _is_setting(name: str) -> bool:
    """Whether a FINQA_* variable names a setting: `FINQA_<SECTION>__<KEY>` or one starting with
    a section's name (so a misspelt `FINQA_JUDGE_TAU0` is reported, not ignored); the documented
    switches and secrets are not, nor are other names that start with no section."""
    if not name.startswith(ENV_PREFIX) or name in NON_SETTING_ENV:
        return False
    rest = name[len(ENV_PREFIX) :].lower()
    return "__" in rest or any(rest == s or rest.startswith(s + "_") for s in Settings.model_fields)


def _deep_merge(base: dict[str, Any], top: Mapping[str, Any]) -> dict[str, Any]:
    merged = dict(base)
    for key, value in top.items():
        if isinstance(value, Mapping) and isinstance(merged.get(key), dict):
            merged[key] = _deep_merge(merged[key], value)
        else:
            merged[key] = value
    return merged


def _validate(
    data: Mapping[str, Any], *, source: str, env_names: Mapping[str, str] | None = None
) -> Settings:
    try:
        return Settings.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "(root)"
        for key, name in (env_names or {}).items():  # a bad FINQA_* variable is named as such
            if where == key or where.startswith(key + "."):
                raise ConfigError(
                    f"invalid environment variable {name}: {first['msg']} "
                    "(FINQA_<SECTION>__<KEY> must name a configuration key)"
                ) from None
        raise ConfigError(f"invalid configuration in {source}: {where}: {first['msg']}") from None


def load_settings(
    path: str | os.PathLike[str] | None = None,
    *,
    overrides: Mapping[str, Any] | None = None,
    environ: Mapping[str, str] | None = None,
) -> Settings:
    """Load YAML (default: configs/default.yaml), then FINQA_* env, then dotted overrides."""
    cfg_path = Path(path) if path is not None else DEFAULT_CONFIG
    data: dict[str, Any] = {}
    if cfg_path.exists():
        try:
            loaded = yaml.load(cfg_path.read_text(encoding="utf-8"), Loader=_YAML_LOADER) or {}
        except yaml.YAMLError as exc:
            raise ConfigError(f"config file {cfg_path} is not valid YAML: {exc}") from None
        if not isinstance(loaded, dict):
            raise ConfigError(f"config file {cfg_path} must be a mapping at the top level")
        data = loaded
    elif path is not None:
        raise ConfigError(f"config file not found: {cfg_path}")
    _validate(data, source=str(cfg_path))  # the file alone first, so its errors name the file
    env, env_names = _env_overrides(os.environ if environ is None else environ)
    settings = _validate(_deep_merge(data, env), source=str(cfg_path), env_names=env_names)
    if overrides:
        settings = settings.with_overrides({k: v for k, v in overrides.items() if v is not None})
    return settings


def config_hash(settings: Settings) -> str:
    """SHA-256 of the canonical JSON of the settings (recorded in the audit log)."""
    canonical = json.dumps(settings.model_dump(mode="json"), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()
