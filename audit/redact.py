"""The audit log's view of finqa's one redactor (defined in `finqa.agents.redact`, so the agents'
operational logs use it too without importing upwards)."""

from __future__ import annotations

from finqa.agents.redact import *  # noqa: F403 - the same functions, re-exported for the audit code
from finqa.agents.redact import __all__ as __all__
