"""Operational logging (structlog): JSON when not a TTY, console when a TTY.

The audit log is not this: it is a data product with its own writer (`audit/`).
Bind `run_id`, `question_id`, `agent`, `attempt` with `bind(...)` (contextvars).
"""

from __future__ import annotations

import logging
import sys
from typing import Any, TextIO, cast

import structlog
from finqa.agents.progress import LineStream
from finqa.agents.redact import redact

__all__ = ["configure_logging", "get_logger", "bind", "unbind"]

_LEVELS = {
    "debug": logging.DEBUG,
    "info": logging.INFO,
    "warning": logging.WARNING,
    "error": logging.ERROR,
}


def _current_stderr() -> TextIO:
    """Whatever `sys.stderr` is at write time (it may be swapped, e.g. by pytest)."""
    return sys.stderr


def configure_logging(level: str = "info", *, stream: Any = None) -> None:
    """Configure structlog once per process; logs go to stderr so stdout stays for results."""
    out = stream if stream is not None else LineStream(_current_stderr)  # above a live bar
    renderer: Any
    if getattr(out, "isatty", lambda: False)():
        renderer = structlog.dev.ConsoleRenderer(colors=False)
    else:
        renderer = structlog.processors.JSONRenderer()
    structlog.configure(
        processors=[
            structlog.contextvars.merge_contextvars,
            structlog.processors.add_log_level,
            structlog.processors.TimeStamper(fmt="iso", utc=True),
            structlog.processors.format_exc_info,
            _redacted,
            renderer,
        ],
        wrapper_class=structlog.make_filtering_bound_logger(_LEVELS.get(level, logging.INFO)),
        logger_factory=structlog.PrintLoggerFactory(file=cast(TextIO, out)),
        cache_logger_on_first_use=False,
    )


def _redacted(_logger: Any, _method: str, event: Any) -> Any:
    """A structlog processor: the event with secrets redacted (`finqa.agents.redact`)."""
    return redact(event)


def get_logger(name: str | None = None) -> Any:
    return structlog.get_logger(name) if name else structlog.get_logger()


def bind(**values: Any) -> None:
    structlog.contextvars.bind_contextvars(**values)


def unbind(*keys: str) -> None:
    structlog.contextvars.unbind_contextvars(*keys)
