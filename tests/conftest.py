"""Shared fixtures. Tests needing ../shared data (financebench, edgar) skip cleanly when it is
absent, and fail instead when FINQA_REQUIRE_SHARED=1 (as `.ci/run` sets), so a green CI run
means they ran."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("ANONYMIZED_TELEMETRY", "False")

REPO = Path(__file__).resolve().parent.parent

# finqa is imported as installed (`finqa.agents`, ...): drop the working directory from the path,
# so a test that imports a top-level `agents` or `lexicon` fails here as it would for a user.
sys.path[:] = [p for p in sys.path if p not in ("", ".") and Path(p).resolve() != REPO]
from shared_data import EDGAR, FINANCEBENCH, shared_or_skip  # noqa: E402


@pytest.fixture(scope="session", autouse=True)
def _private_config_home(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """XDG_CONFIG_HOME in a temporary folder: the audit checkpoint key that runs create on first
    use (`finqa.audit.checkpoints`) never lands in the user's own ~/.config."""
    with pytest.MonkeyPatch.context() as mp:
        home = tmp_path_factory.mktemp("config-home")
        mp.setenv("XDG_CONFIG_HOME", str(home))
        yield home


@pytest.fixture
def reviewer_keys(tmp_path: Path) -> tuple[dict[str, object], object]:
    """Ann's and Bob's Ed25519 reviewer keys, and the trusted keys that list them."""
    from finqa.audit.keys import TrustedKey, TrustedKeys, generate_key

    keys = {
        name: generate_key(tmp_path / "reviewer-keys" / f"{name}.key") for name in ("Ann", "Bob")
    }
    trusted = TrustedKeys(
        source="test",
        keys=tuple(
            TrustedKey(holder=n, role="reviewer", public_key=k.public_b64, key_id=k.key_id)
            for n, k in keys.items()
        ),
    )
    return dict(keys), trusted


@pytest.fixture(scope="session")
def financebench_dir() -> Path:
    """The shared FinanceBench folder, or skip."""
    shared_or_skip(FINANCEBENCH / "questions.jsonl", "../shared/financebench")
    return FINANCEBENCH


@pytest.fixture(scope="session")
def edgar_dir() -> Path:
    """The shared EDGAR inline-XBRL filings, or skip."""
    shared_or_skip(EDGAR / "ko-10-q-2025-07-24.html", "../shared/edgar")
    return EDGAR


@pytest.fixture
def reset_structlog() -> Iterator[None]:
    """The CLI configures structlog on the captured stderr; reset it so later tests do not log there."""
    import structlog

    yield
    structlog.reset_defaults()


@pytest.fixture
def fake_factories(monkeypatch: pytest.MonkeyPatch) -> None:
    """The real factory with fake agents (the audit log stays real)."""
    from finqa.orchestrator import _factory as factory
    from finqa.testing import FakeReasoner, FakeRetriever, ScriptedJudge

    monkeypatch.setattr(factory, "build_retriever", lambda s: FakeRetriever(s))
    monkeypatch.setattr(factory, "build_reasoner", lambda s, llm=None: FakeReasoner(("a1", "a2")))
    monkeypatch.setattr(factory, "build_judge", lambda s, llm=None: ScriptedJudge(s, (0.3, 0.45)))


@pytest.fixture(scope="session")
def sample_index(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A BM25-only index (no vectors) of the bundled sample filings, built once per session."""
    from finqa.agents.config import Settings
    from finqa.agents.retrieval.ingest import ingest_paths

    index = tmp_path_factory.mktemp("sample-index") / "index"
    settings = Settings().with_overrides({"index.path": str(index), "index.dense": "none"})
    report = ingest_paths([REPO / "orchestrator" / "samples" / "filings"], settings, progress=False)
    assert report.documents == 3, report.summary()
    return index
