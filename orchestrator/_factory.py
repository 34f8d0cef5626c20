"""Build the real agents and the audit log from settings, lazily (heavy imports happen here).

The packages are imported only when first needed, so `finqa --help` and `import orchestrator`
stay fast and tests can inject fakes instead.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from finqa.agents.config import Settings
from finqa.agents.errors import ConfigError, FinqaError
from finqa.agents.types import AuditSink, Judge, LLMClient, Reasoner, Retriever, StatementStore

__all__ = [
    "build_retriever",
    "build_reasoner",
    "build_judge",
    "build_statements",
    "open_audit",
    "model_ids",
    "index_version",
]


def _missing(what: str, exc: ImportError) -> FinqaError:
    return FinqaError(f"{what} is not available ({exc}); is finqa fully installed?")


def build_retriever(settings: Settings) -> Retriever:
    try:
        from finqa.agents.retrieval import RetrievalAgent
    except ImportError as exc:
        raise _missing("the retrieval agent", exc) from None
    agent: Retriever = RetrievalAgent(settings)
    return agent


def build_statements(settings: Settings) -> StatementStore:
    """The statement model of the configured index (`<index>/statements/`), one shared reader
    per index folder for the reasoner, the judge and the LLM prompt builder."""
    from finqa.lexicon.statements import shared_store

    store: StatementStore = shared_store(settings.index.path)
    return store


def _require_llm_key(settings: Settings, llm: LLMClient | None) -> None:
    """Fail fast, in one line, when an OpenAI backend is configured without a key or endpoint."""
    from finqa.agents.secrets import llm_api_key

    if llm is None and not settings.llm.base_url and not llm_api_key():
        raise ConfigError(
            f"llm.backend is {settings.llm.backend!r} but no API key is set: export OPENAI_API_KEY (or "
            "FINQA_API_KEY), set llm.base_url for a local server, or use the offline backend"
        )


def build_reasoner(settings: Settings, llm: LLMClient | None = None) -> Reasoner:
    if settings.llm.backend in ("openai", "hybrid"):
        _require_llm_key(settings, llm)
    try:
        from finqa.agents.reasoning import build_reasoner as _build
    except ImportError as exc:
        raise _missing("the reasoning agent", exc) from None
    # the reasoner reads the index's statement model (built once at ingest) through one store
    agent: Reasoner = _build(settings, llm, build_statements(settings))
    return agent


def build_judge(settings: Settings, llm: LLMClient | None = None) -> Judge:
    if settings.judge.llm_judge and settings.llm.backend in ("openai", "hybrid"):
        _require_llm_key(settings, llm)
    try:
        from finqa.agents.judge import JudgeAgent
    except ImportError as exc:
        raise _missing("the judge agent", exc) from None
    # the judge's second route reads the same index's statement model, by sources of its own
    agent: Judge = JudgeAgent(settings, llm, statements=build_statements(settings))
    return agent


def open_audit(settings: Settings, *, retriever: Any = None, path: str | None = None) -> AuditSink:
    """An `audit.AuditLog` at settings.audit_path (`audit.path`, else beside the index; or `path`), with its run-start record written."""
    try:
        from finqa.audit import AuditLog
    except ImportError as exc:
        raise _missing("the audit log", exc) from None
    log_path = Path(path or settings.audit_path).resolve()  # results carry an absolute path
    log_path.parent.mkdir(parents=True, exist_ok=True)
    log = AuditLog(str(log_path), fsync=settings.audit.fsync)
    log.start_run(
        settings,
        index_version=index_version(settings, retriever),
        models=model_ids(settings),
        code_version=None,  # the audit log detects it (git describe --dirty, else the version)
    )
    sink: AuditSink = log
    return sink


def model_ids(settings: Settings) -> dict[str, str]:
    """The model ids of a run, for the audit log (never keys or endpoints' credentials)."""
    llm = settings.llm.model if settings.llm.backend in ("openai", "hybrid") else "offline"
    return {
        "embedder": settings.index.embedder if settings.index.dense == "all" else "none",
        "reranker": settings.retrieval.reranker,
        "llm_backend": settings.llm.backend,
        "llm": llm,
        "judge": f"deterministic+llm:{llm}" if settings.judge.llm_judge else "deterministic",
    }


def index_version(settings: Settings, retriever: Any = None) -> str:
    """The index's own version when it reports one; else a digest of its catalog (doc ids and
    content hashes); else its location."""
    index = getattr(retriever, "index", None)
    for owner in (index, retriever):
        for name in ("index_version", "version"):
            value = getattr(owner, name, None)
            if callable(value):
                try:
                    value = value()
                except Exception:  # noqa: BLE001 - a version probe must never break a run
                    value = None
            if isinstance(value, str | int) and not isinstance(value, bool) and str(value):
                return str(value)
    where = settings.index.chroma_url or str(Path(settings.index.path).resolve())
    digest = _catalog_digest(index)
    return (
        f"{digest} {where}#{settings.index.collection}"
        if digest
        else f"{where}#{settings.index.collection}"
    )


def _catalog_digest(index: Any) -> str | None:
    catalog = getattr(index, "catalog", None)
    if not callable(catalog):
        return None
    try:
        docs = catalog()
        rows = sorted(
            (
                str(doc_id),
                str(getattr(rec, "content_hash", "")),
                int(getattr(rec, "n_chunks", 0) or 0),
            )
            for doc_id, rec in docs.items()
        )
    except Exception:  # noqa: BLE001 - a version probe must never break a run
        return None
    digest = hashlib.sha256(json.dumps(rows, separators=(",", ":")).encode("utf-8")).hexdigest()
    return f"sha256:{digest[:16]} ({len(rows)} docs, {sum(r[2] for r in rows)} chunks)"
