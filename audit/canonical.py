"""Canonical JSON and the record hash: the bytes every audit line is made of.

Canonical form: keys sorted, compact separators, UTF-8 (``ensure_ascii=False``), one line.
Values are first made JSON-safe by :func:`to_jsonable`, which is deterministic: pydantic models
are dumped, tuples/sets become lists (sets sorted), paths and datetimes become strings, numpy
scalars become Python numbers, ``-0.0`` becomes ``0.0`` and non-finite floats become the
strings ``"NaN"``, ``"Infinity"``, ``"-Infinity"``. Finite floats keep Python's shortest
round-trip ``repr``, which is the same on every IEEE-754 platform, so a parsed line serialises
back to exactly the same bytes.
"""

from __future__ import annotations

import dataclasses
import enum
import hashlib
import json
import math
from collections.abc import Mapping
from datetime import date, datetime, time
from typing import Any

__all__ = [
    "GENESIS_HASH",
    "RECORD_FIELDS",
    "to_jsonable",
    "canonical_bytes",
    "record_hash",
    "sha256_hex",
]

#: ``prev_hash`` of the first record of a log.
GENESIS_HASH = "0" * 64

#: Every record has exactly these keys (``hash`` covers all the others).
RECORD_FIELDS = (
    "seq",
    "ts",
    "run_id",
    "question_id",
    "attempt",
    "agent",
    "event",
    "params",
    "scores",
    "decision",
    "reason",
    "data",
    "prev_hash",
    "hash",
)

_MAX_DEPTH = 64


def _float(value: float) -> float | str:
    if math.isnan(value):
        return "NaN"
    if math.isinf(value):
        return "Infinity" if value > 0 else "-Infinity"
    return 0.0 if value == 0.0 else value  # -0.0 -> 0.0


def _str(value: str) -> str:
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:  # lone surrogates cannot be written as UTF-8
        return value.encode("utf-8", "replace").decode("utf-8")
    return value


def to_jsonable(value: Any, _depth: int = 0) -> Any:
    """A JSON-safe, deterministic copy of `value` (dicts keyed by str, lists, scalars)."""
    if _depth > _MAX_DEPTH:
        return "<max depth>"
    if value is None or isinstance(value, bool | int | float | str):
        return _scalar(value)
    d = _depth + 1
    if isinstance(value, Mapping):
        return {_str(str(k)): to_jsonable(v, d) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [to_jsonable(v, d) for v in value]
    if isinstance(value, set | frozenset):
        items = [to_jsonable(v, d) for v in value]
        return sorted(items, key=lambda v: json.dumps(v, sort_keys=True, ensure_ascii=False))
    inner = _unwrap(value)
    if inner is not _NOTHING:
        return to_jsonable(inner, d)
    return _as_text(value)


_NOTHING = object()


def _scalar(value: None | bool | int | float | str) -> Any:
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, int):
        return int(value)  # int subclasses (IntEnum, numpy-like) become plain ints
    if isinstance(value, float):
        return _float(float(value))
    return _str(value)


def _unwrap(value: Any) -> Any:
    """The plain data inside an enum, a pydantic model, a dataclass or a numpy value, else _NOTHING."""
    if isinstance(value, enum.Enum):
        return value.value
    model_dump = getattr(value, "model_dump", None)
    if callable(model_dump) and not isinstance(value, type):  # pydantic v2 models
        return model_dump(mode="json")
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: getattr(value, f.name) for f in dataclasses.fields(value)}
    if type(value).__module__ == "numpy":  # numpy scalars and arrays, without importing numpy
        tolist = getattr(value, "tolist", None)
        if callable(tolist):
            return tolist()
    return _NOTHING


def _as_text(value: Any) -> str:
    """Leaf values written as text: dates ISO 8601, paths, exact decimals, bytes, exceptions."""
    if isinstance(value, datetime | date | time):
        return value.isoformat()
    if isinstance(value, bytes | bytearray | memoryview):
        return bytes(value).decode("utf-8", "replace")
    if isinstance(value, BaseException):
        return f"{type(value).__name__}: {value}"
    return _str(str(value))  # paths, Decimal (exact, as written), anything else


def canonical_bytes(value: Any) -> bytes:
    """Canonical JSON of an already JSON-safe value, UTF-8 encoded, without a newline."""
    text = json.dumps(
        value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False
    )
    return text.encode("utf-8")


def sha256_hex(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def record_hash(record: Mapping[str, Any]) -> str:
    """SHA-256 of the canonical JSON of the record without its ``hash`` key."""
    body = {k: v for k, v in record.items() if k != "hash"}
    return sha256_hex(canonical_bytes(body))
