"""The exception hierarchy: one root, a few specific subclasses that carry context.

A leaf module (it imports nothing of finqa), so every layer — the lexicon at the bottom, the
agents, the audit log, the orchestrator — raises the same errors without importing upwards.
`finqa.agents.errors` re-exports it for the agents' code.
"""

from __future__ import annotations

__all__ = [
    "FinqaError",
    "ConfigError",
    "IngestError",
    "IndexError_",
    "RetrievalError",
    "LLMError",
    "AuditError",
]


class FinqaError(Exception):
    """Root of every error finqa raises on purpose; its message is one user-facing line."""

    def __init__(
        self,
        message: str,
        *,
        question_id: str | None = None,
        agent: str | None = None,
        attempt: int | None = None,
        path: str | None = None,
    ) -> None:
        super().__init__(message)
        self.question_id = question_id
        self.agent = agent
        self.attempt = attempt
        self.path = path


class ConfigError(FinqaError):
    """The configuration is invalid (unknown key, bad value, missing file)."""


class IngestError(FinqaError):
    """A file could not be ingested (damaged, empty, unsupported); the run goes on."""


class IndexError_(FinqaError):  # noqa: N801 - avoid shadowing the builtin IndexError
    """The index is missing, incompatible or unreachable."""


class RetrievalError(FinqaError):
    """Retrieval failed for a question."""


class LLMError(FinqaError):
    """The LLM endpoint failed after bounded retries, or returned unusable output."""


class AuditError(FinqaError):
    """The audit log could not be written or read."""
