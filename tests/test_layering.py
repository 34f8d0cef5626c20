"""The package's shape: no import cycles, no upward imports, no private names across modules."""

from __future__ import annotations

from finqa.benchmarks.import_graph import LAYERS, build_graph


class TestImportGraph:
    """`python -m finqa.benchmarks.import_graph` finds nothing to report."""

    def test_graph_covers_every_layer(self) -> None:
        """The graph reads the modules of every layer (a check that reads nothing cannot pass)."""
        layers = {m.split(".")[1] for m in build_graph().edges if m.count(".") >= 1}
        assert set(LAYERS) - {"errors", "testing"} <= layers

    def test_no_cycles(self) -> None:
        """No two modules import each other, directly or through others (imports in functions too)."""
        assert build_graph().cycles() == []

    def test_no_upward_imports(self) -> None:
        """errors < lexicon < agents < audit < testing < orchestrator < benchmarks: nothing imports upwards."""
        assert build_graph().upward() == []

    def test_no_private_names_across_modules(self) -> None:
        """No module imports another module's `_name` or another package's `_module`."""
        assert sorted(set(build_graph().private)) == []
