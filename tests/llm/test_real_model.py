"""The LLM path end to end on a real model (llama.cpp server), through the real `openai` client.

Run by `make test-llm` (marked `llm`, not collected by plain `make test`). Each test makes at most
a few small calls: the local server answers one request at a time on 2 CPU cores.
"""

from __future__ import annotations

import time
from pathlib import Path
from urllib.parse import urlparse

import pytest
from _llm_support import llm_settings
from _proxy import DyingProxy, RecordingProxy
from finqa.agents.reasoning import OpenAIChatClient, build_reasoner
from finqa.agents.reasoning.llm import LLMCallFailed
from finqa.agents.reasoning.parsing import extract_json
from finqa.agents.reasoning.schema import reply_json_schema, validate_reply
from finqa.agents.types import Evidence, EvidenceItem, RetrievalPlan

# The local server answers one request at a time and is shared: a call may wait for others'.
pytestmark = [pytest.mark.llm, pytest.mark.timeout(1800)]

CASH_FLOW = """Consolidated Statement of Cash Flows (in millions)
2022 2021
Net Cash Provided by Operating Activities 10,811 11,616
Capital spending (5,207) (4,625)
Dividends paid (6,172) (5,815)"""


def _evidence(text: str = CASH_FLOW) -> Evidence:
    item = EvidenceItem(
        source_id="S1", doc_id="ACME_2022_10K", pages=(40,), chunk_ids=("c0",), text=text
    )
    plan = RetrievalPlan(attempt=1, route="t", reason="t", k=1, candidates=1, rse=False)
    return Evidence(question="q", items=(item,), plan=plan)


class TestEndToEnd:
    """ask -> cited answer -> judge -> retry with the next strategy -> complete audit trail."""

    def test_ask_judge_retry_audit(self, llm_url: str, sample_index: Path, tmp_path: Path) -> None:
        """A figure question over the sample filings is answered, judged, retried and audited."""
        from finqa.audit import load_records, verify_log
        from finqa.orchestrator.api import FinQA

        proxy = RecordingProxy(llm_url)
        try:
            settings = llm_settings(
                proxy.url,
                tmp_path,
                sample_index,
                **{
                    "orchestrator.budget": 1,
                    "judge.tau0": 1.0,  # only a perfect answer is accepted: a retry is likely
                    "judge.tau_lambda": 0.0,
                    "judge.tau_min": 1.0,
                },
            )
            with FinQA(settings) as fq:
                result = fq.ask("What was 3M's free cash flow in 2018?", question_id="e2e-1")
                log = fq.audit_path
        finally:
            proxy.close()
        assert result.status in ("accepted", "best_effort", "abstained")
        assert result.attempts and proxy.bodies, "the model was never asked"
        first = proxy.bodies[0]
        assert first["model"] and "response_format" in first
        records = list(load_records(log))
        reasoning = [r for r in records if r.get("event") == "reasoning"]
        judged = [r for r in records if r.get("event") == "judge"]
        assert len(reasoning) == len(result.attempts) == len(judged)
        conf = reasoning[0]["data"]["confidence"]
        assert conf["response_format"] in ("json_schema", "json_object+schema", "json_object")
        assert isinstance(conf["schema_valid"], bool) and conf["mode"].startswith(("plan", "free"))
        assert reasoning[0]["params"]["template_id"] == "standard.v2"
        if len(result.attempts) > 1:  # rejected: the retry is conservative and carries feedback
            assert reasoning[1]["params"]["template_id"] == "conservative.v2"
            assert "Your previous answer was rejected" in proxy.prompts()[-1]
        else:
            assert result.utility >= 1.0
        assert not result.answer.startswith("Cannot answer: the question failed")
        assert verify_log(log).ok


class TestStructuredOutput:
    """The reply schema goes to the real server, which constrains the reply to it."""

    def test_schema_reply_validates(self, llm_url: str, tmp_path: Path) -> None:
        """The server gets the schema in a response_format it accepts and the reply validates."""
        client = OpenAIChatClient(llm_settings(llm_url, tmp_path).llm)
        messages = [
            {"role": "system", "content": "Answer with one JSON object."},
            {"role": "user", "content": "Evidence [S1]: Revenue was 120. What was revenue?"},
        ]
        resp = client.complete(messages, json_mode=True, max_tokens=120, schema=reply_json_schema())
        assert resp.response_format in ("json_schema", "json_object+schema"), resp.response_format
        data = extract_json(resp.text)
        assert validate_reply(data) == (True, ""), resp.text
        assert resp.usage.prompt_tokens > 0 and resp.usage.completion_tokens > 0


class TestFailures:
    """A dead or slow server costs bounded time and fails the question with what it cost."""

    def test_server_killed_mid_call(self, llm_url: str, tmp_path: Path) -> None:
        """The connection dies after the request reached the model: bounded retries, then failed."""
        up = urlparse(llm_url)
        dying = DyingProxy(up.hostname or "127.0.0.1", up.port or 80, die_after_s=1.0)
        settings = llm_settings(dying.url, tmp_path, **{"llm.max_retries": 1, "llm.backoff_s": 0.1})
        agent = build_reasoner(settings)
        t0 = time.monotonic()
        with pytest.raises(LLMCallFailed, match="connection error") as info:
            agent.generate("What was FY2022 capital spending?", _evidence(), 1)
        assert dying.forwarded.is_set()
        assert info.value.usage.calls == 2 and info.value.usage.retries == 1
        assert time.monotonic() - t0 < 60

    def test_request_timeout(self, llm_url: str, tmp_path: Path) -> None:
        """A call slower than llm.timeout_s times out, is retried once, then fails."""
        settings = llm_settings(
            llm_url,
            tmp_path,
            **{
                "llm.timeout_s": 0.3,
                "llm.max_retries": 1,
                "llm.backoff_s": 0.1,
                "llm.max_tokens": 16,
            },
        )
        with pytest.raises(LLMCallFailed, match="timeout") as info:
            build_reasoner(settings).generate("What was FY2022 capital spending?", _evidence(), 1)
        # two timed-out tries (the first call may be the server refusing a JSON-schema format)
        assert info.value.usage.retries == 1 and info.value.usage.latency_ms < 5000
