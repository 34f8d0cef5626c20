"""OpenAIChatClient: the `LLMClient` seam over the `openai` client (OpenAI or any compatible server).

Shared by the reasoner and the judge (neither imports the other), with `extract_json`, finqa's one
JSON-from-LLM extractor.

Bounded retries with exponential backoff on 429 / 5xx / timeouts / connection errors; token usage
and latency recorded per call (`history`). Structured output: with a `schema`, JSON mode 'auto'
sends `response_format` as a JSON schema (OpenAI, vLLM, Ollama), then as llama.cpp's
`json_object` + `schema`, then plain `json_object`, then nothing, stepping down (and remembering)
each time the server rejects one; `LLMResponse.response_format` says which one answered. The key comes from `finqa.agents.secrets`; a local
server (`base_url` set) works without one.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from finqa.agents.config import LLMConfig, Settings
from finqa.agents.errors import LLMError
from finqa.agents.secrets import llm_api_key
from finqa.agents.types import LLMResponse, LLMUsage

__all__ = [
    "OpenAIChatClient",
    "extract_json",
    "CallRecord",
    "LLMCallFailed",
    "DUMMY_LOCAL_KEY",
    "RESPONSE_FORMATS",
    "response_format_payload",
]

DUMMY_LOCAL_KEY = "sk-local-no-key"  # local OpenAI-compatible servers ignore the key
# Structured-output levels, strongest first; "text" sends no response_format.
RESPONSE_FORMATS = ("json_schema", "json_object+schema", "json_object", "text")


def response_format_payload(level: str, schema: Mapping[str, Any] | None) -> dict[str, Any] | None:
    """The `response_format` request field for one level (None for plain text)."""
    if level == "json_schema" and schema is not None:
        return {
            "type": "json_schema",
            "json_schema": {"name": "finqa_reply", "schema": dict(schema), "strict": False},
        }
    if level == "json_object+schema" and schema is not None:
        return {"type": "json_object", "schema": dict(schema)}  # llama.cpp / llama-cpp-python
    if level in ("json_object", "json_object+schema", "json_schema"):
        return {"type": "json_object"}
    return None


class LLMCallFailed(LLMError):
    """The endpoint failed after bounded retries; carries the usage spent on the way."""

    def __init__(self, message: str, usage: LLMUsage) -> None:
        super().__init__(message, agent="reasoning")
        self.usage = usage


@dataclass(frozen=True)
class CallRecord:
    """One HTTP attempt against the endpoint (for the audit log and benchmarks)."""

    attempt: int
    ok: bool
    latency_ms: float
    status: int | None = None
    error: str = ""
    json_mode: bool = False
    response_format: str = "text"


class OpenAIChatClient:
    """`complete(messages)` against `llm.base_url` / `llm.model` with bounded retries."""

    def __init__(
        self,
        config: LLMConfig | Settings,
        *,
        api_key: str | None = None,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.config = config.llm if isinstance(config, Settings) else config
        self.model = self.config.model
        self._api_key = api_key
        self._sleep = sleep
        self._client: Any = None
        self._rejected: set[str] = set()  # response_format levels this server refused (auto)
        self._token_param = "max_tokens"  # newer OpenAI models want max_completion_tokens
        self._send_temperature = True  # some reasoning models reject a temperature
        self.history: list[CallRecord] = []

    # ------------------------------------------------------------------ client
    def _get_client(self) -> Any:
        if self._client is not None:
            return self._client
        key = self._api_key or llm_api_key()
        if not key:
            if not self.config.base_url:
                raise LLMError(
                    "no LLM API key: set OPENAI_API_KEY (or FINQA_API_KEY), or llm.base_url for a local server",
                    agent="reasoning",
                )
            key = DUMMY_LOCAL_KEY
        import openai  # lazy: heavy, and not needed by the offline backend

        self._client = openai.OpenAI(
            api_key=key,
            base_url=self.config.base_url,
            timeout=self.config.timeout_s,
            max_retries=0,  # retries are ours: counted, recorded, bounded
        )
        return self._client

    def _level(self, json_mode: bool, schema: Mapping[str, Any] | None) -> str:
        """The response_format level for this call: the strongest not yet refused."""
        mode = self.config.json_mode
        if not json_mode or mode == "off":
            return "text"
        levels = RESPONSE_FORMATS if schema is not None else RESPONSE_FORMATS[2:]
        if mode == "on":
            return levels[0]
        return next((lv for lv in levels if lv not in self._rejected), "text")

    # ------------------------------------------------------------------ call
    def complete(
        self,
        messages: Sequence[Mapping[str, str]],
        *,
        json_mode: bool = False,
        max_tokens: int | None = None,
        temperature: float = 0.0,
        schema: Mapping[str, Any] | None = None,
    ) -> LLMResponse:
        """One chat completion; raises LLMError (one line) once retries are exhausted.

        `json_mode` asks for a JSON object; `schema` (a JSON schema) asks for that shape where
        the server supports it."""
        import openai

        client = self._get_client()
        attempts = max(0, self.config.max_retries) + 1
        retries, total_ms, last_error = 0, 0.0, ""
        tries = calls = 0
        while tries < attempts:
            tries += 1
            calls += 1
            level = self._level(json_mode, schema)
            fmt = response_format_payload(level, schema)
            use_json = fmt is not None
            kwargs: dict[str, Any] = {
                "model": self.model,
                "messages": [dict(m) for m in messages],
                self._token_param: max_tokens or self.config.max_tokens,
            }
            if self._send_temperature:
                kwargs["temperature"] = temperature
            if fmt is not None:
                kwargs["response_format"] = fmt
            start = time.perf_counter()
            try:
                resp = client.chat.completions.create(**kwargs)
            except openai.APIStatusError as exc:
                ms = (time.perf_counter() - start) * 1000
                total_ms += ms
                status = exc.status_code
                last_error = f"HTTP {status}: {_short(exc)}"
                self.history.append(
                    CallRecord(calls, False, ms, status, last_error, use_json, level)
                )
                # llama-cpp-python answers an unknown response_format with a 500 naming it
                rejected = status in (400, 415, 422) or (
                    status == 500 and "response_format" in str(exc).lower()
                )
                if rejected and self._adapt(str(exc), level):
                    tries -= 1  # a capability probe, not a failed attempt
                    continue
                if status == 429 or status >= 500:
                    if tries < attempts:
                        retries += 1
                        self._backoff(tries, exc)
                    continue
                usage = LLMUsage(calls=calls, retries=retries, latency_ms=round(total_ms, 3))
                raise LLMCallFailed(f"LLM request rejected ({last_error})", usage) from None
            except (openai.APITimeoutError, openai.APIConnectionError) as exc:
                ms = (time.perf_counter() - start) * 1000
                total_ms += ms
                kind = "timeout" if isinstance(exc, openai.APITimeoutError) else "connection error"
                last_error = f"{kind}: {_short(exc)}"
                self.history.append(CallRecord(calls, False, ms, None, last_error, use_json, level))
                if tries < attempts:
                    retries += 1
                    self._backoff(tries, None)
                continue
            except (ValueError, openai.APIResponseValidationError) as exc:  # malformed body
                ms = (time.perf_counter() - start) * 1000
                total_ms += ms
                last_error = f"malformed response: {_short(exc)}"
                self.history.append(CallRecord(calls, False, ms, 200, last_error, use_json, level))
                if tries < attempts:
                    retries += 1
                    self._backoff(tries, None)
                continue
            ms = (time.perf_counter() - start) * 1000
            total_ms += ms
            self.history.append(CallRecord(calls, True, ms, 200, "", use_json, level))
            return _to_response(resp, self.model, level, calls, retries, total_ms)
        usage = LLMUsage(calls=calls, retries=retries, latency_ms=round(total_ms, 3))
        raise LLMCallFailed(f"LLM endpoint failed after {tries} attempt(s): {last_error}", usage)

    def _adapt(self, message: str, level: str) -> bool:
        """Drop what this server rejects (response_format, max_tokens, temperature); True if changed."""
        low = message.lower()
        if level != "text" and self.config.json_mode == "auto" and "response_format" in low:
            self._rejected.add(level)  # names the format: step down before anything else
            return True
        if "max_tokens" in low and self._token_param == "max_tokens":
            self._token_param = "max_completion_tokens"
            return True
        if "temperature" in low and self._send_temperature:
            self._send_temperature = False
            return True
        if level != "text" and self.config.json_mode == "auto":
            self._rejected.add(level)  # step down to the next response_format from now on
            return True
        return False

    def _backoff(self, tries: int, exc: Any) -> None:
        delay = self.config.backoff_s * (2 ** (tries - 1))
        retry_after = _retry_after(exc)
        if retry_after is not None:
            delay = max(delay, min(retry_after, 30.0))
        if delay > 0:
            self._sleep(min(delay, 60.0))


def _short(exc: BaseException) -> str:
    return " ".join(str(exc).split())[:200]


def _retry_after(exc: Any) -> float | None:
    response = getattr(exc, "response", None)
    headers = getattr(response, "headers", None)
    if not headers:
        return None
    try:
        value = headers.get("retry-after")
        return float(value) if value is not None else None
    except (TypeError, ValueError):
        return None


def _to_response(
    resp: Any, model: str, level: str, calls: int, retries: int, total_ms: float
) -> LLMResponse:
    choices = getattr(resp, "choices", None) or []
    text, finish = "", None
    if choices:
        message = getattr(choices[0], "message", None)
        text = (getattr(message, "content", None) or "") if message is not None else ""
        finish = getattr(choices[0], "finish_reason", None)
    usage = getattr(resp, "usage", None)
    return LLMResponse(
        text=text,
        model=getattr(resp, "model", None) or model,
        usage=LLMUsage(
            prompt_tokens=int(getattr(usage, "prompt_tokens", 0) or 0),
            completion_tokens=int(getattr(usage, "completion_tokens", 0) or 0),
            calls=calls,
            retries=retries,
            latency_ms=round(total_ms, 3),
        ),
        finish_reason=finish,
        json_mode=level != "text",
        response_format=level,
    )


_FENCE = re.compile(r"```(?:json)?\s*(.*?)```", re.DOTALL)
_THINK = re.compile(r"<think>.*?</think>", re.DOTALL | re.IGNORECASE)  # local reasoning models


def extract_json(text: str) -> dict[str, Any] | None:
    """The first JSON object in a reply (bare, fenced, or embedded in prose), else None.

    Reasoning-model `<think>` blocks are skipped. Use this for every JSON-from-LLM reply."""
    text = _THINK.sub("", text)
    candidates = [m.group(1) for m in _FENCE.finditer(text)] + [text]
    for cand in candidates:
        cand = cand.strip()
        start = cand.find("{")
        while start != -1:
            try:
                obj, _ = json.JSONDecoder().raw_decode(cand[start:])
            except json.JSONDecodeError:
                start = cand.find("{", start + 1)
                continue
            if isinstance(obj, dict):
                return obj
            start = cand.find("{", start + 1)
    return None
