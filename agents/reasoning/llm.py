"""The LLM client lives in `finqa.agents.llm_client` (shared by the reasoner and the judge, which
never imports the reasoner); re-exported here for callers of the reasoning package."""

from __future__ import annotations

from finqa.agents.llm_client import (
    DUMMY_LOCAL_KEY,
    RESPONSE_FORMATS,
    CallRecord,
    LLMCallFailed,
    OpenAIChatClient,
    response_format_payload,
)

__all__ = [
    "OpenAIChatClient",
    "CallRecord",
    "LLMCallFailed",
    "DUMMY_LOCAL_KEY",
    "RESPONSE_FORMATS",
    "response_format_payload",
]
