"""Clocks (the `Clock` seam): the system UTC clock and a fixed one for tests."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

__all__ = ["SystemClock", "FixedClock"]


class SystemClock:
    def now(self) -> datetime:
        return datetime.now(UTC)


class FixedClock:
    """A deterministic clock that advances by `step` on every call."""

    def __init__(
        self, start: datetime | None = None, step: timedelta = timedelta(seconds=1)
    ) -> None:
        self._t = start or datetime(2026, 1, 1, tzinfo=UTC)
        self._step = step

    def now(self) -> datetime:
        t = self._t
        self._t = t + self._step
        return t
