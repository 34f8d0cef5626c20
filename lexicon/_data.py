"""Lazy, cached loading of the reviewable data files in lexicon/data/."""

from __future__ import annotations

import csv
from functools import cache
from pathlib import Path
from typing import Any

__all__ = ["DATA_DIR", "read_csv", "read_words", "read_yaml", "clear_caches"]

DATA_DIR = Path(__file__).resolve().parent / "data"


@cache
def read_csv(name: str) -> tuple[dict[str, str], ...]:
    """Rows of data/NAME as dicts (header row gives the keys)."""
    with open(DATA_DIR / name, encoding="utf-8", newline="") as fh:
        return tuple(dict(row) for row in csv.DictReader(fh))


@cache
def read_words(name: str) -> frozenset[str]:
    """Non-comment, non-blank lines of data/NAME."""
    with open(DATA_DIR / name, encoding="utf-8") as fh:
        return frozenset(
            line.strip() for line in fh if line.strip() and not line.lstrip().startswith("#")
        )


@cache
def read_yaml(name: str) -> Any:
    """Parsed YAML of data/NAME (PyYAML imported here, on first use)."""
    import yaml

    with open(DATA_DIR / name, encoding="utf-8") as fh:
        return yaml.safe_load(fh)


def clear_caches() -> None:
    """Forget loaded data and everything built from it (after editing a data file)."""
    from finqa.lexicon import entities, metrics, numbers, query

    for fn in (
        read_csv,
        read_words,
        read_yaml,
        entities.all_companies,
        entities._index,
        entities._first_words,
        entities._tickers,
        entities._prefixes,
        entities._by_name,
        metrics._load,
        metrics._phrases,
        numbers._extract,
        query._analyze,
    ):
        fn.cache_clear()
