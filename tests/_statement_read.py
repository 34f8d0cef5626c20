"""Reading a statement-model read result in tests: a line's values by period key."""

from __future__ import annotations

__all__ = ["values_of"]


def values_of(read: object, label: str) -> dict[str, float]:
    """The values of every fact filed under `label`, by period key."""
    return {
        f.period.key: f.value
        for t in read.tables  # type: ignore[attr-defined]
        for f in t.facts
        if f.label == label
    }
