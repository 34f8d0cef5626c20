"""Lazy, cached loading of the reviewable data files in lexicon/data/."""

from __future__ import annotations

import csv
from collections.abc import Callable
from functools import cache, lru_cache
from pathlib import Path
from typing import Any, TypeVar

__all__ = ["DATA_DIR", "data_cache", "read_csv", "read_words", "read_yaml", "clear_caches"]

F = TypeVar("F", bound=Callable[..., Any])
_CACHES: list[Any] = []  # every cache built from the data files, for clear_caches()


def data_cache(maxsize: int | None = None) -> Callable[[F], F]:
    """`functools.lru_cache(maxsize)` that `clear_caches()` also clears: for anything built from data."""

    def wrap(fn: F) -> F:
        cached = lru_cache(maxsize=maxsize)(fn)
        _CACHES.append(cached)
        return cached  # type: ignore[return-value]

    return wrap


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
    """Parsed YAML of data/NAME (PyYAML imported here, on first use; libyaml's C parser when
    PyYAML has it: the same safe schema, about ten times faster than the pure-Python one)."""
    import yaml

    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    with open(DATA_DIR / name, encoding="utf-8") as fh:
        return yaml.load(fh, Loader=loader)  # noqa: S506 - a safe loader (C or Python)


def clear_caches() -> None:
    """Forget loaded data and everything built from it (after editing a data file)."""
    for fn in (read_csv, read_words, read_yaml, *_CACHES):
        fn.cache_clear()
