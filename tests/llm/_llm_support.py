"""Settings for the real-model suite (shared by its tests)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from finqa.agents.config import Settings, load_settings

__all__ = ["MODEL", "llm_settings"]

MODEL = os.environ.get("TEST_LLM_MODEL", "qwen05")


def llm_settings(url: str, tmp: Path, index: Path | None = None, **extra: Any) -> Settings:
    """Settings for the local model: short evidence and replies so a call stays well under a minute."""
    overrides: dict[str, Any] = {
        "llm.backend": "openai",
        "llm.base_url": url,
        "llm.model": MODEL,
        "llm.timeout_s": 600.0,
        "llm.max_retries": 0,
        "llm.max_tokens": 200,
        "reasoning.max_evidence_chars": 2500,
        "audit.path": str(tmp / "audit.jsonl"),
        "audit.fsync": False,
    }
    if index is not None:
        overrides["index.path"] = str(index)
    overrides.update(extra)
    return load_settings(None, overrides=overrides)
