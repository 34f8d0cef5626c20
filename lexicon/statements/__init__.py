"""The statement model: every financial statement of a filing, parsed once into typed tables.

Types live in `finqa.lexicon.model` and the `StatementStore` Protocol in `finqa.agents.types`; this
package reads statement tables into that model (`read_pages` for page text, `read_pdf`
for PyMuPDF `find_tables()` grids), stores it beside an index (`ensure_model`,
`write_model`) and serves it (`IndexStatementStore`, `MemoryStatementStore`).
"""

from __future__ import annotations

from finqa.lexicon.statements.memory import (
    MemoryStatementStore,
    is_tagged_total,
    label_key,
    primary_fact,
)
from finqa.lexicon.statements.reader import StatementRead, read_pages, read_pdf
from finqa.lexicon.statements.store import (
    IndexStatementStore,
    clear_shared,
    ensure_model,
    manifest_entry,
    shared_store,
    statements_dir,
    write_model,
)

__all__ = [
    "MemoryStatementStore",
    "IndexStatementStore",
    "StatementRead",
    "read_pages",
    "read_pdf",
    "ensure_model",
    "shared_store",
    "clear_shared",
    "write_model",
    "manifest_entry",
    "statements_dir",
    "label_key",
    "primary_fact",
    "is_tagged_total",
]
