"""finqa agents: retrieval, reasoning and judge, plus the shared seams (types, config, errors)."""
