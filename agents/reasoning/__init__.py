"""The Reasoning agent: evidence -> cited answer with re-executable calculations.

`build_reasoner(settings)` gives the offline backend (default: no key, no network) or the
OpenAI-compatible backend (`llm.backend: openai`). The `openai` package is imported lazily.
"""

from finqa.agents.reasoning.agent import ReasoningAgent, build_reasoner
from finqa.agents.reasoning.llm import LLMCallFailed, OpenAIChatClient
from finqa.agents.reasoning.prompts import PromptTemplate, load_template, render_messages

__all__ = [
    "ReasoningAgent",
    "build_reasoner",
    "OpenAIChatClient",
    "LLMCallFailed",
    "PromptTemplate",
    "load_template",
    "render_messages",
]
