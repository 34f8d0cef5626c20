"""finqa agents/retrieval."""
