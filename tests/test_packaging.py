"""finqa installs under its own namespace, beside packages that own generic top-level names."""

from __future__ import annotations

import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
GENERIC = ("agents", "audit", "lexicon", "orchestrator", "benchmarks")


def _run(*args: str | Path, cwd: Path | None = None) -> str:
    done = subprocess.run(
        [str(a) for a in args], capture_output=True, text=True, cwd=cwd, timeout=600
    )
    assert done.returncode == 0, f"{args}: {done.stdout[-2000:]}\n{done.stderr[-2000:]}"
    return done.stdout


@pytest.mark.integration
class TestInstallBesideOpenAIAgents:
    def test_finqa_and_openai_agents_import_side_by_side(self, tmp_path: Path) -> None:
        """A wheel of finqa and OpenAI's Agents SDK install into one venv and both import."""
        wheels = tmp_path / "wheels"
        src = tmp_path / "src"  # a copy, so the build leaves nothing in the working tree
        shutil.copytree(
            ROOT,
            src,
            ignore=shutil.ignore_patterns(
                ".venv", ".git", "build", ".finqa", "*.egg-info", "__pycache__"
            ),
        )
        _run(sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "-w", wheels, src)
        (wheel,) = wheels.glob("finqa-*.whl")
        venv = tmp_path / "venv"
        _run(sys.executable, "-m", "venv", venv)
        py = venv / "bin" / "python"
        site = Path(
            _run(py, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])").strip()
        )
        # finqa's own dependencies (torch, chromadb, ...) come from this environment, read-only.
        (site / "_finqa_test_deps.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
        _run(py, "-m", "pip", "install", "--quiet", "--no-deps", wheel)
        tops = {p.name for p in site.iterdir()}
        assert not tops & set(GENERIC), (
            f"finqa installed generic top-level names: {tops & set(GENERIC)}"
        )
        _run(py, "-m", "pip", "install", "--quiet", "openai-agents")
        out = _run(
            py,
            "-c",
            "import agents, finqa, finqa.agents.judge, finqa.audit.writer\n"
            "from finqa import FinQA\n"
            "print(hasattr(agents, 'Agent'), agents.__file__, finqa.agents.__file__, FinQA.__name__)",
            cwd=tmp_path,
        )
        has_agent, sdk_file, finqa_file, name = out.split()
        assert has_agent == "True" and "site-packages/agents" in sdk_file
        assert "site-packages/finqa/agents" in finqa_file and name == "FinQA"
