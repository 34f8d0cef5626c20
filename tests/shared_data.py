"""Where the tests find ../shared data (FinanceBench, EDGAR), and what they do without it:
skip, or fail when FINQA_REQUIRE_SHARED=1 (as `.ci/run` sets), so a green CI run means they ran."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
FINANCEBENCH = Path(os.environ.get("FINQA_FINANCEBENCH", REPO.parent / "shared" / "financebench"))
EDGAR = Path(os.environ.get("FINQA_EDGAR", REPO.parent / "shared" / "edgar"))


def shared_or_skip(path: Path, what: str) -> Path:
    """`path` when it exists; else skip, or fail when FINQA_REQUIRE_SHARED=1."""
    if path.exists():
        return path
    if os.environ.get("FINQA_REQUIRE_SHARED") == "1":
        pytest.fail(f"{what} not available at {path} (FINQA_REQUIRE_SHARED=1)")
    pytest.skip(f"{what} not available")
