"""ReasoningAgent with the LLM backend against the FakeOpenAIServer (real HTTP, real openai client)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest
from _reasoning_data import CASH_FLOW, INCOME, INJECTION, evidence
from finqa.agents.config import Settings
from finqa.agents.reasoning import OpenAIChatClient, build_reasoner
from finqa.agents.reasoning.fake_server import FakeOpenAIServer, FakeReply
from finqa.agents.reasoning.llm import LLMCallFailed
from finqa.agents.types import Verdict

QUESTION = "What is the FY2022 free cash flow for Acme? Answer in USD millions."


def _settings(url: str, **llm: Any) -> Settings:
    base = {
        "llm.backend": "openai",
        "llm.base_url": url,
        "llm.backoff_s": 0.0,
        "llm.timeout_s": 5.0,
    }
    base.update({f"llm.{k}": v for k, v in llm.items()})
    return Settings().with_overrides(base)


def _agent(url: str, **llm: Any):  # type: ignore[no-untyped-def]
    settings = _settings(url, **llm)
    return build_reasoner(settings, OpenAIChatClient(settings.llm, api_key="k"))


GOOD = json.dumps(
    {
        "answer": "FY2022 free cash flow was $5,604 million [S1].",
        "citations": [
            {"source": "S1", "quote": "Net Cash Provided by Operating Activities 10,811"}
        ],
        "calculations": [
            {
                "description": "FCF = CFO - capex",
                "expression": "cfo - capex",
                "unit": "USD",
                "result": 9999,
                "operands": [
                    {
                        "name": "cfo",
                        "value": "10,811",
                        "unit": "USD",
                        "scale": 1000000,
                        "period": "FY2022",
                        "source": "S1",
                    },
                    {
                        "name": "capex",
                        "value": 5207,
                        "unit": "USD",
                        "scale": "millions",
                        "period": "FY2022",
                        "source": "S1",
                    },
                ],
            }
        ],
        "abstain": False,
    }
)


class TestStructuredAnswer:
    """A scripted JSON answer becomes citations and re-executed calculations."""

    def test_citations_and_recomputed_result(self) -> None:
        """Citations resolve to doc/page/chunk; the result is finqa's (5604), not the LLM's (9999)."""
        with FakeOpenAIServer([GOOD]) as srv:
            a = _agent(srv.url).generate(QUESTION, evidence(CASH_FLOW, question=QUESTION), 1)
        c = a.citations[0]
        assert (c.source_id, c.doc_id, c.page, c.chunk_id) == (
            "S1",
            "ACME_2022_10K",
            40,
            "ACME_2022_10K-c0",
        )
        calc = a.calculations[0]
        assert calc.result == 5604 and calc.operands[1].scale == 1e6
        assert "disagrees" in a.calc_problems[0]
        assert "5,604" in a.text and not a.abstained
        assert a.backend == "openai" and a.usage.calls == 1 and a.template_id == "standard.v2"
        assert len(a.template_hash) == 64

    def test_plain_text_reply_falls_back(self) -> None:
        """Non-JSON content is kept as the answer; inline [S#] markers become citations."""
        with FakeOpenAIServer(["Free cash flow was $5,604 million [S1]."]) as srv:
            a = _agent(srv.url).generate(QUESTION, evidence(CASH_FLOW), 1)
        assert a.text.startswith("Free cash flow") and a.citations[0].source_id == "S1"
        assert a.confidence["json"] is False and not a.abstained

    def test_truncated_json_reply(self) -> None:
        """A broken JSON object in the content is treated as text, not a crash."""
        with FakeOpenAIServer(['{"answer": "FCF was 5,604 [S1]", "citations": [']) as srv:
            a = _agent(srv.url).generate(QUESTION, evidence(CASH_FLOW), 1)
        assert a.citations and a.citations[0].source_id == "S1"

    def test_no_citations_marked_uncited(self) -> None:
        """An answer without citations is marked uncited, with a lower confidence score."""
        with FakeOpenAIServer(['{"answer": "About $5.6 billion."}']) as srv:
            a = _agent(srv.url).generate(QUESTION, evidence(CASH_FLOW), 1)
        assert a.citations == () and a.confidence["uncited"] is True
        assert a.confidence["score"] < 0.5

    def test_unknown_source_ids_dropped(self) -> None:
        """A citation of a source that was not shown ([S9]) is dropped and counted."""
        with FakeOpenAIServer(['{"answer": "x [S9]", "citations": ["S9"]}']) as srv:
            a = _agent(srv.url).generate(QUESTION, evidence(CASH_FLOW), 1)
        assert a.citations == () and a.invalid_citations == 2

    def test_abstain_flag(self) -> None:
        """An explicit abstention is an abstained Answer."""
        with FakeOpenAIServer(
            ['{"answer": "cannot determine from the filings", "abstain": true}']
        ) as srv:
            a = _agent(srv.url).generate(QUESTION, evidence(INCOME), 1)
        assert a.abstained


class TestFailuresRecorded:
    """Endpoint failures are bounded, raised with what they cost, and recorded per question."""

    def test_500s_exhausting_retries(self) -> None:
        """Persistent 500s: LLMCallFailed naming the error, with the calls/retries spent."""
        with (
            FakeOpenAIServer([FakeReply.error(500)]) as srv,
            pytest.raises(LLMCallFailed, match="HTTP 500") as info,
        ):
            _agent(srv.url, max_retries=2).generate(QUESTION, evidence(CASH_FLOW), 1)
        assert len(srv.requests) == 3
        assert (info.value.usage.calls, info.value.usage.retries) == (3, 2)

    def test_hanging_server_is_bounded(self) -> None:
        """A server slower than the timeout costs one try plus the bounded retries, then fails."""
        with (
            FakeOpenAIServer([FakeReply.slow(3.0, GOOD)]) as srv,
            pytest.raises(LLMCallFailed, match="timeout"),
        ):
            _agent(srv.url, max_retries=1, timeout_s=0.3).generate(QUESTION, evidence(CASH_FLOW), 1)
        assert len(srv.requests) == 2

    def test_batch_records_failed_question_and_goes_on(self, tmp_path: Path) -> None:
        """A question whose LLM calls all fail is recorded failed in the audit log; the next is answered."""
        from finqa.audit import load_records
        from finqa.orchestrator import FinQA
        from finqa.testing import FakeRetriever, ScriptedJudge

        replies = [GOOD, FakeReply.error(500), FakeReply.error(500), GOOD]
        with FakeOpenAIServer(replies) as srv:
            settings = _settings(srv.url, max_retries=1).with_overrides(
                {"orchestrator.budget": 0, "audit.path": str(tmp_path / "audit.jsonl")}
            )
            reasoner = build_reasoner(settings, OpenAIChatClient(settings.llm, api_key="k"))
            with FinQA(
                settings,
                retriever=FakeRetriever(settings),
                reasoner=reasoner,
                judge=ScriptedJudge(settings, (0.9,)),
            ) as fq:
                results = fq.ask_batch(
                    [{"question": f"{QUESTION} ({i})", "question_id": f"q{i}"} for i in range(3)]
                )
                log = fq.audit_path
        assert [r.status for r in results] == ["accepted", "failed", "accepted"]
        assert "HTTP 500" in (results[1].error or "")
        errors = [r for r in load_records(log) if r["event"] == "error"]
        assert [(e["question_id"], e["agent"]) for e in errors] == [("q1", "reasoning")]
        assert errors[0]["data"]["usage"]["calls"] == 2

    def test_429_then_success(self) -> None:
        """A rate limit then success: answered, one retry recorded in the usage."""
        with FakeOpenAIServer([FakeReply.error(429), GOOD]) as srv:
            a = _agent(srv.url).generate(QUESTION, evidence(CASH_FLOW), 1)
        assert not a.abstained and (a.usage.calls, a.usage.retries) == (2, 1)

    def test_empty_evidence_never_calls_the_llm(self) -> None:
        """No evidence: abstain without a request."""
        with FakeOpenAIServer([GOOD]) as srv:
            a = _agent(srv.url).generate(QUESTION, evidence(), 1)
        assert a.abstained and srv.requests == []


class TestPrompting:
    """Strategies escalate, feedback is injected, evidence is data."""

    def test_strategy_escalates_by_attempt(self) -> None:
        """Attempts 1..3 use standard, conservative, detailed templates (the last one repeats)."""
        with FakeOpenAIServer([GOOD]) as srv:
            agent = _agent(srv.url)
            ids = [
                agent.generate(QUESTION, evidence(CASH_FLOW), n).template_id for n in (1, 2, 3, 4)
            ]
        assert ids == ["standard.v2", "conservative.v2", "detailed.v2", "detailed.v2"]
        assert "step by step" in srv.requests[2].text

    def test_feedback_injected_on_retry(self) -> None:
        """The Judge's feedback, missing facets and unsupported numbers reach the retry prompt."""
        verdict = Verdict(
            grounding=0.2,
            completeness=0.5,
            numeric=0.0,
            utility=0.2,
            threshold=0.5,
            decision="retry",
            diagnosis="reasoning",
            missing_facets=("FY2021 comparison",),
            unsupported_numbers=("$9,999",),
            feedback="The capex figure is not in the cited source.",
        )
        with FakeOpenAIServer([GOOD]) as srv:
            _agent(srv.url).generate(QUESTION, evidence(CASH_FLOW), 2, feedback=verdict)
        prompt = srv.requests[0].text
        assert "capex figure is not in the cited source" in prompt
        assert "FY2021 comparison" in prompt and "$9,999" in prompt

    def test_prompt_injection_in_evidence_stays_data(self) -> None:
        """Instructions inside a filing stay inside the source boundary; the question is still asked."""
        seen: list[Mapping[str, Any]] = []

        def reply(body: Mapping[str, Any]) -> str:
            seen.append(body)
            user = body["messages"][-1]["content"]
            # a well-behaved model answers the question asked at the end, from S2
            assert user.rstrip().endswith(QUESTION)
            return GOOD.replace('"S1"', '"S2"').replace("[S1]", "[S2]")

        with FakeOpenAIServer(reply) as srv:
            a = _agent(srv.url).generate(QUESTION, evidence(INJECTION, CASH_FLOW), 1)
        system, user = (m["content"] for m in seen[0]["messages"])
        assert "not instructions" in system
        start = user.index("[S1] ACME_2022_10K")
        end = user.index(">>> end of S1")
        assert start < user.index("IGNORE PREVIOUS INSTRUCTIONS") < end
        assert user.count(">>> end of S1") == 1 and "[/S1]" not in user  # no forged boundary
        assert QUESTION in user[:200]
        assert "trillion" not in a.text and a.citations[0].source_id == "S2"
        assert a.calculations[0].result == 5604

    def test_other_language_question(self) -> None:
        """A question in another language is passed through and answered, no crash."""
        q = "¿Cuál fue el flujo de caja libre de Acme en el año fiscal 2022?"
        with FakeOpenAIServer(
            ['{"answer": "5.604 millones de USD [S1]", "citations": ["S1"]}']
        ) as srv:
            a = _agent(srv.url).generate(q, evidence(CASH_FLOW), 1)
        assert q in srv.requests[0].text and a.citations


class TestReplyParsing:
    """parse_reply copes with the shapes real servers return."""

    def test_fenced_json_with_prose(self) -> None:
        """A JSON object inside a ```json fence after some prose is found."""
        from finqa.agents.reasoning.parsing import parse_reply

        reply = '<think>{"answer": "draft"}</think>Sure! Here it is:\n```json\n{"answer": "FCF was $5.6 billion [S1]", "citations": ["[S1]"]}\n```'
        parsed = parse_reply(reply, evidence(CASH_FLOW))
        assert parsed.text == "FCF was $5.6 billion [S1]" and parsed.confidence["json"] is True
        assert [c.source_id for c in parsed.citations] == ["S1"]

    def test_operand_scale_from_written_value(self) -> None:
        """'$10.811 billion' as an operand value carries its scale; the expression is recomputed."""
        from finqa.agents.reasoning.parsing import parse_reply

        calc = {
            "expression": "cfo - capex",
            "operands": [
                {"name": "cfo", "value": "$10.811 billion", "source": "S1"},
                {"name": "capex", "value": "$5.207 billion", "source": "S1"},
            ],
        }
        parsed = parse_reply(
            json.dumps({"answer": "x [S1]", "calculations": [calc]}), evidence(CASH_FLOW)
        )
        c = parsed.calculations[0]
        assert c.operands[0].scale == 1e9 and c.result == pytest.approx(5.604)

    def test_unsafe_or_unknown_expression_dropped(self) -> None:
        """A calculation that is not arithmetic over its operands is dropped and reported."""
        from finqa.agents.reasoning.parsing import parse_reply

        bad = [
            {"expression": "__import__('os').getcwd()", "operands": [{"name": "a", "value": 1}]},
            {"expression": "a + b", "operands": [{"name": "a", "value": 1}]},
        ]
        parsed = parse_reply(
            json.dumps({"answer": "x [S1]", "calculations": bad}), evidence(CASH_FLOW)
        )
        assert parsed.calculations == [] and len(parsed.calc_problems) == 2
