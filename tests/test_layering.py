"""The package's shape: no import cycles, no upward imports, no private names across modules."""

from __future__ import annotations

from finqa.benchmarks.import_graph import LAYERS, SEPARATED, ImportGraph, build_graph


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


class TestSeparatedPackages:
    """The judge checks figures by routes of its own: it never imports the reasoner."""

    def test_judge_never_imports_reasoning(self) -> None:
        """No module under agents/judge imports agents.reasoning (inside functions too)."""
        assert build_graph().crossed() == []

    def test_judge_modules_are_read(self) -> None:
        """The graph holds the judge's modules and their imports (an empty graph would pass)."""
        graph = build_graph()
        judge = [m for m in graph.edges if m.startswith("finqa.agents.judge.")]
        assert len(judge) >= 10
        assert any("finqa.lexicon" in t for m in judge for t in graph.edges[m])

    def test_an_import_of_the_reasoner_is_reported(self) -> None:
        """A judge module importing the reasoner's solver is listed with both names."""
        graph = ImportGraph(
            edges={
                "finqa.agents.judge.rederive": {"finqa.agents.reasoning.offline.solver"},
                "finqa.agents.judge.agent": {"finqa.agents.types"},
            }
        )
        assert graph.crossed() == [
            ("finqa.agents.judge.rederive", "finqa.agents.reasoning.offline.solver")
        ]
        assert ("finqa.agents.judge", "finqa.agents.reasoning") in {(a, b) for a, b, _ in SEPARATED}
