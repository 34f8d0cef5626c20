"""Lazy, cached loading of the reviewable data files in lexicon/data/."""

from __future__ import annotations

import csv
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from functools import cache, lru_cache, wraps
from pathlib import Path
from typing import Any, TypeVar

__all__ = [
    "DATA_DIR",
    "data_cache",
    "read_csv",
    "read_words",
    "read_yaml",
    "clear_caches",
    "withheld_captions",
    "withholding",
]

F = TypeVar("F", bound=Callable[..., Any])
_CACHES: list[Any] = []  # every cache built from the data files, for clear_caches()


# the catalogue captions withheld from the reading under way (`withholding`): none by default
_WITHHELD: ContextVar[frozenset[str]] = ContextVar("finqa_withheld_captions", default=frozenset())


def withheld_captions() -> frozenset[str]:
    """The `label_key`s of the catalogue captions withheld in the current context (`withholding`)."""
    return _WITHHELD.get()


@contextmanager
def withholding(keys: frozenset[str]) -> Iterator[None]:
    """Within the block, the catalogue is a view without the captions whose `label_key` is in
    `keys` (a read prefix as 'prefix:KEY'): `catalogue.entries()` leaves them out, and every
    `data_cache` is keyed by the view, so nothing built under one view is seen under another
    (out-of-fold benches: a filing read without the captions its own company taught)."""
    token = _WITHHELD.set(frozenset(keys))
    try:
        yield
    finally:
        _WITHHELD.reset(token)


def data_cache(maxsize: int | None = None) -> Callable[[F], F]:
    """`functools.lru_cache(maxsize)` that `clear_caches()` also clears: for anything built from
    data. Keyed by the catalogue view in force too (`withholding`; the full catalogue outside)."""

    def wrap(fn: F) -> F:
        cached = lru_cache(maxsize=maxsize)(lambda _view, *a, **k: fn(*a, **k))
        _CACHES.append(cached)

        @wraps(fn)
        def call(*args: Any, **kwargs: Any) -> Any:
            return cached(_WITHHELD.get(), *args, **kwargs)

        call.cache_clear = cached.cache_clear  # type: ignore[attr-defined]
        call.cache_info = cached.cache_info  # type: ignore[attr-defined]
        return call  # type: ignore[return-value]

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
