"""Shared fixtures. Tests needing ../shared/financebench skip cleanly when it is absent."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("ANONYMIZED_TELEMETRY", "False")

REPO = Path(__file__).resolve().parent.parent
FINANCEBENCH = Path(os.environ.get("FINQA_FINANCEBENCH", REPO.parent / "shared" / "financebench"))


@pytest.fixture(scope="session")
def financebench_dir() -> Path:
    """The shared FinanceBench folder, or skip."""
    if not (FINANCEBENCH / "questions.jsonl").exists():
        pytest.skip("../shared/financebench not available")
    return FINANCEBENCH
