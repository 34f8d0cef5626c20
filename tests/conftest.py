"""Shared fixtures. Tests needing ../shared/financebench skip cleanly when it is absent."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("ANONYMIZED_TELEMETRY", "False")

REPO = Path(__file__).resolve().parent.parent

# finqa is imported as installed (`finqa.agents`, ...): drop the working directory from the path,
# so a test that imports a top-level `agents` or `lexicon` fails here as it would for a user.
sys.path[:] = [p for p in sys.path if p not in ("", ".") and Path(p).resolve() != REPO]
FINANCEBENCH = Path(os.environ.get("FINQA_FINANCEBENCH", REPO.parent / "shared" / "financebench"))


@pytest.fixture(scope="session")
def financebench_dir() -> Path:
    """The shared FinanceBench folder, or skip."""
    if not (FINANCEBENCH / "questions.jsonl").exists():
        pytest.skip("../shared/financebench not available")
    return FINANCEBENCH
