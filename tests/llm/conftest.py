"""Fixtures for the real-model suite (`make test-llm`): the server URL and a tiny sample index.

`make test-llm` starts or reuses a local OpenAI-compatible server and exports
TEST_LLM_URL; these tests are marked `llm` and left out of plain `make test`.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from finqa.agents.config import load_settings


@pytest.fixture(scope="session")
def llm_url() -> str:
    url = os.environ.get("TEST_LLM_URL", "")
    if not url:
        pytest.fail("TEST_LLM_URL is not set: run the real-model suite with `make test-llm`")
    return url


@pytest.fixture(scope="session")
def sample_index(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The bundled sample filings ingested once into a fresh index (real embedder)."""
    from finqa.agents.retrieval import ingest_paths
    from finqa.orchestrator.demo import sample_files

    index = tmp_path_factory.mktemp("llm-index") / "index"
    settings = load_settings(None, overrides={"index.path": str(index)})
    report = ingest_paths(sample_files(), settings, progress=False)
    assert report.documents == 3 and not report.skipped, report.summary()
    return index
