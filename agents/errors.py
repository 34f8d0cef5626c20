"""The agents' view of finqa's exception hierarchy (defined in the leaf module `finqa.errors`)."""

from __future__ import annotations

from finqa.errors import *  # noqa: F403 - the same classes, re-exported for the agents' code
from finqa.errors import __all__ as __all__
