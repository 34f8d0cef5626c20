"""The agents' view of finqa's exception hierarchy (defined in the leaf module `finqa.errors`)."""

from __future__ import annotations

from finqa.errors import (
    AuditError,
    ConfigError,
    FinqaError,
    IndexError_,
    IngestError,
    LLMError,
    RetrievalError,
)

__all__ = [
    "FinqaError",
    "ConfigError",
    "IngestError",
    "IndexError_",
    "RetrievalError",
    "LLMError",
    "AuditError",
]
