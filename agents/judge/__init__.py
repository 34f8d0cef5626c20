"""finqa agents/judge."""
