"""finqa lexicon."""
