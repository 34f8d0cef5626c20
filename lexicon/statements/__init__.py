"""The statement model: every financial statement of a filing, parsed once into typed tables.

Types and the `StatementStore` Protocol live in `finqa.agents.types` (the seam);
this package reads statement tables into that model and serves it.
"""

from __future__ import annotations

from finqa.lexicon.statements.memory import MemoryStatementStore, label_key

__all__ = ["MemoryStatementStore", "label_key"]
