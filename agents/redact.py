"""Secrets never reach the audit log, nor any page, export, operational log or terminal line.

Three rules, applied to every audit record before it is hashed and written, to every
operational log event (`finqa.agents.logs`), to error messages and tracebacks the CLI prints,
and again to whatever is shown from an audit log (it may predate a rule):

* the value of any mapping key that names a secret (``api_key``, ``authorization``,
  ``secret``, ``password``, ``hmac``, ``token``/``access_token``/``auth_token``, ``private_key``,
  ``credential``, ``cookie``, ...) is replaced by :data:`REDACTED`, whatever it is;
* every occurrence, in any string (keys included), of the *current* value of a secret
  environment variable (:data:`finqa.agents.secrets.SECRET_ENV_NAMES`) is replaced by :data:`REDACTED`;
* in any string, a URL's userinfo (``http://user:pw@host`` -> ``http://[REDACTED]@host``) and the
  value of a key-like query or fragment parameter (``?api-key=``, ``key``, ``token``,
  ``access_token``, ``sig``, ``signature``, ``X-Amz-Credential``, ... -> ``?api-key=[REDACTED]``).

Counters such as ``prompt_tokens`` are not secrets and are kept.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping, Sequence
from typing import Any

from finqa.agents.secrets import SECRET_ENV_NAMES

__all__ = [
    "REDACTED",
    "is_secret_key",
    "is_secret_param",
    "secret_values",
    "redact",
    "redact_text",
    "has_secret",
]

REDACTED = "[REDACTED]"

_SECRET_KEY = re.compile(
    r"api[_-]?key|apikey|authori[sz]ation|secret|passw(or)?d|passphrase|hmac|private[_-]?key"
    r"|credential|bearer|cookie|^token$|(^|[_-])(access|refresh|auth|session|id|api|bearer)[_-]?token$",
    re.IGNORECASE,
)
# A URL parameter carries a credential under more names than a mapping key does (`?key=`, `?sig=`).
_SECRET_PARAM = re.compile(
    r"(^|[_-])(key|token|sig|signature|pwd|pass|auth|sas|session|code)$", re.IGNORECASE
)
# scheme://userinfo@ : the authority runs to the first / ? # (or a space or quote); userinfo to
# its last '@' (an unescaped '@' in a password is still inside it).
_USERINFO = re.compile(r"(?i)\b([a-z][a-z0-9+.\-]*://)([^/?#\s\"'<>]*)@")
_PARAM = re.compile(r"([?&;#])([A-Za-z0-9_.\-]+)=([^&#\s\"'<>]+)")


def is_secret_key(key: str) -> bool:
    """True when a mapping key names a secret (its value is never written)."""
    return bool(_SECRET_KEY.search(key))


def is_secret_param(name: str) -> bool:
    """True when a URL query/fragment parameter's value is a credential (`api-key`, `key`, `sig`)."""
    return bool(_SECRET_KEY.search(name) or _SECRET_PARAM.search(name))


def secret_values(environ: Mapping[str, str] | None = None) -> tuple[str, ...]:
    """The current values of the secret environment variables, longest first."""
    env = os.environ if environ is None else environ
    values = {env[name] for name in SECRET_ENV_NAMES if env.get(name)}
    return tuple(sorted(values, key=len, reverse=True))


def _param(match: re.Match[str]) -> str:
    lead, name, value = match.groups()
    return f"{lead}{name}={REDACTED}" if is_secret_param(name) and value != REDACTED else match[0]


def _scrub_urls(text: str) -> str:
    if "://" in text and "@" in text:
        text = _USERINFO.sub(
            lambda m: f"{m[1]}{REDACTED}@" if m[2] not in ("", REDACTED) else m[0], text
        )
    if "=" in text:
        text = _PARAM.sub(_param, text)
    return text


def _scrub(text: str, secrets: Sequence[str]) -> str:
    for secret in secrets:
        if secret in text:
            text = text.replace(secret, REDACTED)
    return _scrub_urls(text)


def redact_text(text: str, secrets: Sequence[str] | None = None) -> str:
    """`text` with secret env values, URL userinfo and key-like URL parameters redacted."""
    return _scrub(text, secret_values() if secrets is None else tuple(secrets))


def has_secret(text: str, secrets: Sequence[str] | None = None) -> bool:
    """True when `redact_text` would change `text` (a cheap test before walking a large value)."""
    found = secret_values() if secrets is None else tuple(secrets)
    if any(secret in text for secret in found):
        return True
    if (
        "://" in text
        and "@" in text
        and any(m[2] not in ("", REDACTED) for m in _USERINFO.finditer(text))
    ):
        return True
    return "=" in text and any(
        is_secret_param(m[2]) and m[3] != REDACTED for m in _PARAM.finditer(text)
    )


def redact(value: Any, secrets: Sequence[str] | None = None) -> Any:
    """A copy of a JSON-safe value with secret-named keys, secret env values and URL
    credentials redacted."""
    found = secret_values() if secrets is None else tuple(secrets)
    return _redact(value, found)


def _redact(value: Any, secrets: Sequence[str]) -> Any:
    if isinstance(value, str):
        return _scrub(value, secrets)
    if isinstance(value, Mapping):
        out: dict[str, Any] = {}
        for key, item in value.items():
            name = _scrub(str(key), secrets)
            out[name] = (
                REDACTED if is_secret_key(str(key)) and item is not None else _redact(item, secrets)
            )
        return out
    if isinstance(value, list | tuple):
        return [_redact(item, secrets) for item in value]
    return value
