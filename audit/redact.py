"""Secrets never reach the audit log.

Two rules, applied to every record before it is hashed and written:

* the value of any mapping key that names a secret (``api_key``, ``authorization``,
  ``secret``, ``password``, ``hmac``, ``token``/``access_token``/``auth_token``, ``private_key``,
  ``credential``, ``cookie``, ...) is replaced by :data:`REDACTED`, whatever it is;
* every occurrence, in any string (keys included), of the *current* value of a secret
  environment variable (:data:`finqa.agents.secrets.SECRET_ENV_NAMES`) is replaced by :data:`REDACTED`.

Counters such as ``prompt_tokens`` are not secrets and are kept.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping, Sequence
from typing import Any

from finqa.agents.secrets import SECRET_ENV_NAMES

__all__ = ["REDACTED", "is_secret_key", "secret_values", "redact"]

REDACTED = "[REDACTED]"

_SECRET_KEY = re.compile(
    r"api[_-]?key|apikey|authori[sz]ation|secret|passw(or)?d|passphrase|hmac|private[_-]?key"
    r"|credential|bearer|cookie|^token$|(^|[_-])(access|refresh|auth|session|id|api|bearer)[_-]?token$",
    re.IGNORECASE,
)


def is_secret_key(key: str) -> bool:
    """True when a mapping key names a secret (its value is never written)."""
    return bool(_SECRET_KEY.search(key))


def secret_values(environ: Mapping[str, str] | None = None) -> tuple[str, ...]:
    """The current values of the secret environment variables, longest first."""
    env = os.environ if environ is None else environ
    values = {env[name] for name in SECRET_ENV_NAMES if env.get(name)}
    return tuple(sorted(values, key=len, reverse=True))


def _scrub(text: str, secrets: Sequence[str]) -> str:
    for secret in secrets:
        if secret in text:
            text = text.replace(secret, REDACTED)
    return text


def redact(value: Any, secrets: Sequence[str] | None = None) -> Any:
    """A copy of a JSON-safe value with secret-named keys and secret env values redacted."""
    found = secret_values() if secrets is None else tuple(secrets)
    return _redact(value, found)


def _redact(value: Any, secrets: Sequence[str]) -> Any:
    if isinstance(value, str):
        return _scrub(value, secrets) if secrets else value
    if isinstance(value, Mapping):
        out: dict[str, Any] = {}
        for key, item in value.items():
            name = _scrub(str(key), secrets) if secrets else str(key)
            out[name] = (
                REDACTED if is_secret_key(str(key)) and item is not None else _redact(item, secrets)
            )
        return out
    if isinstance(value, list | tuple):
        return [_redact(item, secrets) for item in value]
    return value
