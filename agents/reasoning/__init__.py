"""finqa agents/reasoning."""
