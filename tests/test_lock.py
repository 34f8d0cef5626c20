"""The install is reproducible: every dependency is pinned with hashes in requirements.lock,
and the lock agrees with pyproject.toml (`make lock` refreshes it)."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LOCK = ROOT / "requirements.lock"
# Installed before the lock by its own pinned step (the CPU build lies on our machines' disk;
# the lock cannot hash one file that fits every CPU architecture), listed in the lock's footer.
OUTSIDE_LOCK = {"torch"}


def _norm(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def _pins(requirements: list[str]) -> dict[str, str]:
    pins: dict[str, str] = {}
    for req in requirements:
        m = re.match(r"^\s*([A-Za-z0-9_.\-]+)(?:\[[^\]]*\])?\s*==\s*([^\s;,]+)", req)
        if m:
            pins[_norm(m.group(1))] = m.group(2)
    return pins


def _locked() -> dict[str, tuple[str, int]]:
    """name -> (version, number of hashes) for every pin in the lock."""
    out: dict[str, tuple[str, int]] = {}
    text = LOCK.read_text(encoding="utf-8")
    for block in re.split(r"\n(?=[A-Za-z0-9])", text):
        m = re.match(r"([A-Za-z0-9_.\-]+)==(\S+)", block)
        if m:
            out[_norm(m.group(1))] = (m.group(2), block.count("--hash=sha256:"))
    return out


class TestLock:
    def test_every_pyproject_pin_is_locked_at_its_version(self) -> None:
        """Each exact pin of pyproject's dependencies and test extra has the same version in the lock."""
        project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
        wanted = _pins(project["dependencies"] + project["optional-dependencies"]["test"])
        locked = _locked()
        drift = {
            name: (version, locked.get(name, ("missing", 0))[0])
            for name, version in wanted.items()
            if name not in OUTSIDE_LOCK and locked.get(name, ("", 0))[0] != version
        }
        assert not drift, f"pyproject and requirements.lock disagree (run `make lock`): {drift}"

    def test_every_dependency_pinned_with_hashes(self) -> None:
        """The lock pins transitive dependencies too, each with at least one sha256 hash."""
        locked = _locked()
        assert {"onnxruntime", "tokenizers", "optimum-onnx", "huggingface-hub"} <= set(locked)
        assert all(n > 0 for _, n in locked.values()), [k for k, (_, n) in locked.items() if n == 0]
        assert not OUTSIDE_LOCK & set(locked)

    def test_only_direct_pins_the_code_imports(self) -> None:
        """pyproject pins no runtime package the code never imports (another's dependency comes in through the lock)."""
        from importlib.metadata import packages_distributions

        project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
        pinned = set(_pins(project["dependencies"]))
        imported: set[str] = set()
        pattern = re.compile(r"^\s*(?:from|import)\s+([A-Za-z_][A-Za-z0-9_]*)", re.M)
        for path in ROOT.rglob("*.py"):
            if ".venv" in path.parts or "tests" in path.parts:
                continue
            imported.update(pattern.findall(path.read_text(encoding="utf-8")))
        dists = packages_distributions()
        used = {_norm(d) for module in imported for d in dists.get(module, [])}
        # pandas writes parquet through pyarrow (to_parquet), never imported by name
        unused = pinned - used - {"pyarrow"}
        assert not unused, f"pinned but never imported: {sorted(unused)}"
