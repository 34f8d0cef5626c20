"""Citation ids in an offline answer come out in one order on every run."""

from __future__ import annotations

from finqa.agents.reasoning.offline.verdict_kit import source_order


class TestSourceOrder:
    def test_same_order_every_run(self) -> None:
        """Citation ids come out by number then kind, whatever order they were gathered in."""
        assert source_order(["S2", "S1", "M1", "S1"]) == ["M1", "S1", "S2"]
        assert source_order(["M1", "S1"]) == source_order(["S1", "M1"])
