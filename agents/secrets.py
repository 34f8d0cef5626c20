"""The one place secrets are read: from the environment, never from config files or logs."""

from __future__ import annotations

import os

__all__ = ["llm_api_key", "audit_hmac_key", "SECRET_ENV_NAMES"]

SECRET_ENV_NAMES = ("OPENAI_API_KEY", "FINQA_API_KEY", "FINQA_AUDIT_HMAC_KEY")


def llm_api_key() -> str | None:
    """The LLM API key: FINQA_API_KEY, else OPENAI_API_KEY, else None."""
    return os.environ.get("FINQA_API_KEY") or os.environ.get("OPENAI_API_KEY") or None


def audit_hmac_key() -> bytes | None:
    """The key that signs audit checkpoints (FINQA_AUDIT_HMAC_KEY), or None."""
    key = os.environ.get("FINQA_AUDIT_HMAC_KEY")
    return key.encode("utf-8") if key else None
