"""The import graph of finqa's own modules: cycles, upward imports, private names across modules.

    python -m finqa.benchmarks.import_graph [--json]

Reads every module of the installed tree with `ast` (nothing is imported or run), including
imports inside functions and `TYPE_CHECKING` blocks, and reports:

* cycles: strongly connected groups of modules that import each other, directly or not;
* upward imports: a lower layer importing a higher one, in the order
  errors < lexicon < agents < audit < testing < orchestrator < benchmarks (`finqa.testing`,
  the fakes of the agents' seams, serves the tests and the benchmarks; the `finqa` package
  itself sits on top);
* private names: `from M import _name` where `_name` is not a module of M's own package, or
  a `_module` of another top-level package (a package's `_helpers.py` are for that package);
* separated packages: a package importing one it must stay independent of (`SEPARATED`): the
  judge never imports the reasoner, so a reading bug of the reasoner cannot make both agree.
"""

from __future__ import annotations

import argparse
import ast
import json
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

__all__ = ["ImportGraph", "build_graph", "main"]

ROOT = Path(__file__).resolve().parent.parent
LAYERS = ("errors", "lexicon", "agents", "audit", "testing", "orchestrator", "benchmarks")
_SKIP = {"tests", ".venv", "build", "dist", "docs", "configs"}
# (package, package it must never import, why): checks that share what they check prove nothing
SEPARATED: tuple[tuple[str, str, str], ...] = (
    (
        "finqa.agents.judge",
        "finqa.agents.reasoning",
        "the judge re-derives figures by routes of its own, never the reasoner's reading",
    ),
)


@dataclass
class ImportGraph:
    """Modules (dotted names under `finqa`) and the finqa modules each imports."""

    edges: dict[str, set[str]] = field(default_factory=dict)
    private: list[tuple[str, str, str]] = field(default_factory=list)  # (module, from, name)

    def cycles(self) -> list[list[str]]:
        """Groups of two or more modules that import each other (Tarjan's SCC, iterative)."""
        index: dict[str, int] = {}
        low: dict[str, int] = {}
        stack: list[str] = []
        on: set[str] = set()
        out: list[list[str]] = []
        counter = 0
        for root in sorted(self.edges):
            if root in index:
                continue
            work = [(root, iter(sorted(self.edges.get(root, ()))))]
            index[root] = low[root] = counter
            counter += 1
            stack.append(root)
            on.add(root)
            while work:
                node, children = work[-1]
                child = next(children, None)
                if child is None:
                    work.pop()
                    if work:
                        low[work[-1][0]] = min(low[work[-1][0]], low[node])
                    if low[node] == index[node]:
                        group = []
                        while True:
                            top = stack.pop()
                            on.discard(top)
                            group.append(top)
                            if top == node:
                                break
                        if len(group) > 1:
                            out.append(sorted(group))
                elif child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on.add(child)
                    work.append((child, iter(sorted(self.edges.get(child, ())))))
                elif child in on:
                    low[node] = min(low[node], index[child])
        return out

    def upward(self) -> list[tuple[str, str]]:
        """(module, imported) pairs where a lower layer imports a higher one."""
        return sorted((m, t) for m, ts in self.edges.items() for t in ts if _layer(t) > _layer(m))

    def crossed(
        self, separated: Sequence[tuple[str, str, str]] = SEPARATED
    ) -> list[tuple[str, str]]:
        """(module, imported) pairs where a package imports one it must stay separate from."""
        return sorted(
            (m, t)
            for m, ts in self.edges.items()
            for t in ts
            for pkg, banned, _why in separated
            if _within(m, pkg) and _within(t, banned)
        )


def _within(module: str, package: str) -> bool:
    return module == package or module.startswith(package + ".")


def _layer(module: str) -> int:
    parts = module.split(".")
    if len(parts) < 2:
        return len(LAYERS)  # the finqa package itself: the public face, on top
    return LAYERS.index(parts[1]) if parts[1] in LAYERS else len(LAYERS)


def _module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(["finqa", *parts])


def _modules(root: Path) -> dict[str, Path]:
    found: dict[str, Path] = {}
    for path in sorted(root.rglob("*.py")):
        rel = path.relative_to(root).parts
        if rel[0] in _SKIP or any(p.startswith(".") for p in rel):
            continue
        if len(rel) == 1 and path.stem not in ("__init__", *LAYERS):
            continue  # stray scripts at the top are not part of the package
        found[_module_name(path, root)] = path
    return found


def build_graph(root: Path = ROOT) -> ImportGraph:
    """The graph of the package rooted at `root` (the repository, i.e. `finqa`)."""
    modules = _modules(root)
    graph = ImportGraph()

    def resolve(name: str) -> str | None:
        while name and name not in modules:
            name = name.rpartition(".")[0]
        return name or None

    for module, path in modules.items():
        package = module if path.name == "__init__.py" else module.rpartition(".")[0]
        targets: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names: list[str]
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    anchor = package
                    for _ in range(node.level - 1):
                        anchor = anchor.rpartition(".")[0]
                    base = f"{anchor}.{base}" if base else anchor
                names = []
                for alias in (a.name for a in node.names):
                    full = f"{base}.{alias}"
                    hidden = alias.startswith("_") and not alias.startswith("__")
                    if hidden and base.startswith("finqa") and resolve(full) != full:
                        graph.private.append((module, base, alias))
                    names.append(full if resolve(full) == full else base)
            else:
                continue
            for full in names:
                target = resolve(full) if full.startswith("finqa") else None
                if target is None or target == module:
                    continue
                targets.add(target)
                private_module = any(
                    p.startswith("_") and not p.startswith("__") for p in target.split(".")
                )
                if private_module and target.split(".")[:2] != module.split(".")[:2]:
                    graph.private.append((module, target, "(private module)"))
        graph.edges[module] = targets
    return graph


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m finqa.benchmarks.import_graph", description=__doc__.split("\n")[0]
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    graph = build_graph()
    report: dict[str, Any] = {
        "modules": len(graph.edges),
        "imports": sum(len(t) for t in graph.edges.values()),
        "cycles": graph.cycles(),
        "upward": [list(p) for p in graph.upward()],
        "private": [list(p) for p in sorted(set(graph.private))],
        "separated": [list(p) for p in graph.crossed()],
    }
    if args.json:
        print(json.dumps(report, indent=2))
        return 0
    print(f"{report['modules']} modules, {report['imports']} imports between them")
    print(f"cycles: {len(report['cycles'])}")
    for group in report["cycles"]:
        print("  " + " <-> ".join(group))
    print(f"upward imports ({' < '.join(LAYERS)}): {len(report['upward'])}")
    for m, t in report["upward"]:
        print(f"  {m} -> {t}")
    print(f"private names imported from another module: {len(report['private'])}")
    for m, t, name in report["private"]:
        print(f"  {m} -> {t} {name}")
    print(f"imports across separated packages: {len(report['separated'])}")
    for m, t in report["separated"]:
        print(f"  {m} -> {t}")
    failed = report["cycles"] or report["upward"] or report["private"] or report["separated"]
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
