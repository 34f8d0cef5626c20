"""finqa benchmarks."""
