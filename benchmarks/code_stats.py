"""Code figures the lexicon work is judged by: regexes compiled per package, LOC per folder.

    python -m finqa.benchmarks.code_stats

Regexes are counted as the compiled `re.Pattern` objects reachable from each module's globals
(directly or inside tuples, lists, dicts and sets) after importing every module of the package:
what the package compiles, not what the text of the code mentions. Lines of code are the
non-blank lines of the .py files under a folder.
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import re
from pathlib import Path
from typing import Any

__all__ = ["count_patterns", "count_loc", "main"]

_ROOT = Path(__file__).resolve().parents[1]


def _patterns(obj: Any, seen: set[int], depth: int = 0) -> set[int]:
    found: set[int] = set()
    if id(obj) in seen or depth > 4:
        return found
    seen.add(id(obj))
    if isinstance(obj, re.Pattern):
        found.add(id(obj))
    elif isinstance(obj, dict):
        for v in (*obj.keys(), *obj.values()):
            found |= _patterns(v, seen, depth + 1)
    elif isinstance(obj, list | tuple | set | frozenset):
        for v in obj:
            found |= _patterns(v, seen, depth + 1)
    return found


def _pattern_owners(package: str) -> dict[int, str]:
    pkg = importlib.import_module(package)
    names = [package] + [m.name for m in pkgutil.walk_packages(pkg.__path__, prefix=package + ".")]
    owner: dict[int, str] = {}
    for name in names:
        try:
            mod = importlib.import_module(name)
        except Exception:  # noqa: BLE001 - an optional module that does not import counts nothing
            continue
        for value in vars(mod).values():
            for pid in _patterns(value, set()):
                owner.setdefault(pid, name)  # a pattern imported elsewhere counts once
    return owner


def count_patterns(package: str, exclude: tuple[str, ...] = ()) -> dict[str, int]:
    """module name -> distinct compiled patterns in its globals, leaving out patterns that the
    `exclude` packages own (an agent importing a lexicon pattern does not compile it)."""
    owner = _pattern_owners(package)
    foreign: set[int] = set()
    for other in exclude:
        foreign |= set(_pattern_owners(other))
    counts: dict[str, int] = {}
    for pid, name in owner.items():
        if pid not in foreign:
            counts[name] = counts.get(name, 0) + 1
    return counts


_INLINE = re.compile(
    r"\bre\.(?:search|match|fullmatch|findall|finditer|sub|subn|split)\(\s*r?[\"']"
)


def count_inline(folder: Path) -> int:
    """re.search(r'...')-style calls with a literal pattern (compiled on use, not at import)."""
    return sum(len(_INLINE.findall(p.read_text(encoding="utf-8"))) for p in folder.rglob("*.py"))


def count_loc(folder: Path) -> int:
    """Non-blank lines of the .py files under folder."""
    return sum(
        1 for p in folder.rglob("*.py") for line in p.read_text(encoding="utf-8").splitlines()
        if line.strip()
    )  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m finqa.benchmarks.code_stats")
    p.add_argument("--verbose", action="store_true", help="per-module regex counts")
    args = p.parse_args(argv)
    for package, other in (("finqa.agents", "finqa.lexicon"), ("finqa.lexicon", "finqa.agents")):
        counts = count_patterns(package, (other,) if package == "finqa.agents" else ())
        folder = _ROOT / package.split(".")[1]
        print(
            f"regexes compiled in {package}: {sum(counts.values())} at import, "
            f"{count_inline(folder)} inline re.* calls with a literal pattern"
        )
        if args.verbose:
            for name, n in sorted(counts.items(), key=lambda kv: -kv[1]):
                print(f"  {n:>4}  {name}")
    offline = _ROOT / "agents" / "reasoning" / "offline"
    print(f"non-blank LOC under agents/reasoning/offline/: {count_loc(offline)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
