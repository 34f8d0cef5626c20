"""One reader of table lines: only the statement text reader (`lexicon/statements/`) splits a
page's lines into captions and number cells; the judge's offset lookup reads its rows and the
reasoner's evidence tables split their lines with it."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LOCATED = ROOT / "lexicon" / "statements" / "located.py"
OFFLINE_TABLES = ROOT / "agents" / "reasoning" / "offline" / "tables.py"
# what a reader of number cells reaches for: the lexicon's number extractors
_NUMBER_READERS = {"extract_quantities", "parse_quantity", "parse_cell", "split_row"}
_CELLS = ("1,234", "(56)", "12.5", "$ 1,200", "7,453 7,659", "$ 2,936 $ 5,494 Receivables")


def _cell_readers(path: Path) -> list[str]:
    """The regular expressions of a module that read a whole number cell (or run of cells)."""
    tree = ast.parse(path.read_text())
    return [p for p in _regex_literals(tree) if any(re.fullmatch(p, c) for c in _CELLS)]


def _regex_literals(tree: ast.AST) -> list[str]:
    out = []
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and isinstance(node.func.value, ast.Name)
            and node.func.value.id == "re"
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
        ):
            out.append(node.args[0].value)
    return out


class TestLocatedIsALookup:
    """`located.py` looks a figure up among the text reader's rows and reads no line itself."""

    def test_no_number_extractor_is_imported(self) -> None:
        """located.py imports none of the lexicon's number readers (the text reader reads cells)."""
        tree = ast.parse(LOCATED.read_text())
        names = {
            alias.name
            for node in ast.walk(tree)
            if isinstance(node, ast.ImportFrom)
            for alias in node.names
        }
        assert not names & _NUMBER_READERS

    def test_no_regex_reads_a_number_cell(self) -> None:
        """No regular expression of located.py reads a table's number cell."""
        assert _cell_readers(LOCATED) == []


class TestEvidenceTablesUseTheReader:
    """The reasoner's evidence tables (`offline/tables.py`) are the text reader's tables."""

    def test_tables_are_read_by_the_text_reader(self) -> None:
        """tables.py reads tables with `read_text_block`, splits no line and has no cell regex."""
        tree = ast.parse(OFFLINE_TABLES.read_text())
        names = {
            alias.name
            for node in ast.walk(tree)
            if isinstance(node, ast.ImportFrom) and node.module == "finqa.lexicon.statements.text"
            for alias in node.names
        }
        assert names == {"read_text_block"}
        assert _cell_readers(OFFLINE_TABLES) == []
