"""The LLM path: structured output, plan-then-compute, the hybrid backend, retry prompts.

Against the FakeOpenAIServer (real HTTP, real openai client); the real model runs in tests/llm/.
"""

from __future__ import annotations

import json
from typing import Any

from _reasoning_data import BALANCE, CASH_FLOW, INCOME, INJECTION, evidence
from finqa.agents.config import Settings
from finqa.agents.reasoning import OpenAIChatClient, build_reasoner
from finqa.agents.reasoning.fake_server import FakeOpenAIServer, FakeReply
from finqa.agents.reasoning.parsing import parse_reply
from finqa.agents.reasoning.plan import execute_plan, resolve_item, statement_view
from finqa.agents.reasoning.prompts import load_template, render_messages
from finqa.agents.reasoning.schema import ReplyPlan, reply_json_schema, validate_reply
from finqa.agents.types import Verdict
from finqa.lexicon.statements import MemoryStatementStore, read_pages

FCF_Q = "What is the FY2022 free cash flow for Acme? Answer in USD millions."
GM_Q = "What is Acme's FY2022 gross margin (as a percentage)?"
WHY_Q = "What drove the change in Acme's operating profit in FY2022?"


def _settings(url: str, backend: str = "openai", **llm: Any) -> Settings:
    base: dict[str, Any] = {
        "llm.backend": backend,
        "llm.base_url": url,
        "llm.backoff_s": 0.0,
        "llm.timeout_s": 5.0,
        "llm.max_retries": 1,
    }
    base.update({f"llm.{k}": v for k, v in llm.items()})
    return Settings().with_overrides(base)


def _agent(url: str, backend: str = "openai", **llm: Any):  # type: ignore[no-untyped-def]
    settings = _settings(url, backend, **llm)
    return build_reasoner(settings, OpenAIChatClient(settings.llm, api_key="k"))


def _plan_reply(items: list[dict[str, str]], expression: str, unit: str = "USD") -> str:
    return json.dumps(
        {
            "answer": "Free cash flow is operating cash flow less capital spending.",
            "plan": {
                "description": "FY2022 free cash flow",
                "expression": expression,
                "unit": unit,
                "items": items,
            },
            "citations": [{"source": "S1", "quote": "Capital spending"}],
            "abstain": False,
        }
    )


FCF_PLAN = _plan_reply(
    [
        {"name": "a", "item": "Net cash provided by operating activities", "period": "FY2022"},
        {"name": "b", "item": "capex", "period": "fiscal 2022"},
    ],
    "a - b",
)
VERDICT = Verdict(
    grounding=0.2,
    completeness=0.5,
    numeric=0.0,
    utility=0.2,
    threshold=0.5,
    decision="retry",
    diagnosis="reasoning",
    missing_facets=("FY2022 capital spending",),
    unsupported_numbers=("9,999",),
    feedback="The figure does not match the cash flow statement.",
)


class TestStructuredOutput:
    """The reply schema is sent as response_format, stepping down where the server refuses it."""

    def test_json_schema_first(self) -> None:
        """A server that accepts JSON schemas gets the reply schema; the answer records it."""
        with FakeOpenAIServer([FCF_PLAN]) as srv:
            ans = _agent(srv.url).generate(FCF_Q, evidence(CASH_FLOW), 1)
        fmt = srv.requests[0].body["response_format"]
        assert fmt["type"] == "json_schema"
        assert fmt["json_schema"]["schema"] == reply_json_schema()
        assert ans.confidence["response_format"] == "json_schema"
        assert ans.confidence["schema_valid"] is True

    def test_steps_down_to_json_object_with_schema(self) -> None:
        """A llama.cpp-like server refusing json_schema gets json_object + schema, remembered."""
        with FakeOpenAIServer([FCF_PLAN], formats=("json_object+schema", "json_object")) as srv:
            agent = _agent(srv.url)
            first = agent.generate(FCF_Q, evidence(CASH_FLOW), 1)
            agent.generate(FCF_Q, evidence(CASH_FLOW), 1)
        kinds = [r.body["response_format"]["type"] for r in srv.requests]
        assert kinds == ["json_schema", "json_object", "json_object"]
        assert "schema" in srv.requests[1].body["response_format"]
        assert first.confidence["response_format"] == "json_object+schema"
        assert first.usage.retries == 0

    def test_500_naming_response_format_steps_down(self) -> None:
        """llama-cpp-python's 500 for an unknown response_format type is a step down, not a retry."""
        msg = "1 validation error: ('body', 'response_format', 'type') Input should be 'text' or 'json_object'"
        with FakeOpenAIServer([FakeReply.error(500, msg), FCF_PLAN]) as srv:
            ans = _agent(srv.url).generate(FCF_Q, evidence(CASH_FLOW), 1)
        assert not ans.abstained and ans.usage.retries == 0
        assert ans.confidence["response_format"] == "json_object+schema"

    def test_steps_down_to_plain_text(self) -> None:
        """A server refusing every response_format is asked in plain text and parsed tolerantly."""
        with FakeOpenAIServer([FCF_PLAN], json_mode_supported=False) as srv:
            ans = _agent(srv.url).generate(FCF_Q, evidence(CASH_FLOW), 1)
        assert "response_format" not in srv.requests[-1].body
        assert ans.confidence["response_format"] == "text"
        assert ans.confidence["schema_valid"] is True and not ans.abstained

    def test_prose_reply_is_not_valid(self) -> None:
        """Prose instead of JSON is kept as the answer and recorded as not validated."""
        with FakeOpenAIServer(["Free cash flow was 5,604 [S1]."]) as srv:
            ans = _agent(srv.url).generate(FCF_Q, evidence(CASH_FLOW), 1)
        assert ans.confidence["json"] is False and ans.confidence["schema_valid"] is False
        assert ans.text.startswith("Free cash flow") and ans.citations[0].source_id == "S1"

    def test_wrong_schema_reported(self) -> None:
        """JSON with a wrong shape says which field was wrong."""
        ok, why = validate_reply({"answer": ["a list"], "citations": "S1"})
        assert not ok and why.startswith("answer")
        parsed = parse_reply('{"result": 5604}', evidence(CASH_FLOW))
        assert parsed.confidence["schema_valid"] is False
        assert "answer" in parsed.confidence["schema_error"]


class TestPlanThenCompute:
    """The model chooses line items and periods; finqa looks the values up and computes."""

    def test_plan_computed_by_finqa(self) -> None:
        """A free-cash-flow plan gives 10,811 - 5,207 = 5,604 with citations to the statement."""
        with FakeOpenAIServer([FCF_PLAN]) as srv:
            ans = _agent(srv.url).generate(FCF_Q, evidence(CASH_FLOW), 1)
        assert not ans.abstained and ans.confidence["mode"] == "plan"
        calc = ans.calculations[0]
        assert calc.result == 5604 and calc.expression == "a - b"
        assert {o.value for o in calc.operands} == {10811, 5207}
        assert "$5,604 million" in ans.text and "[S1]" in ans.text
        assert ans.citations and all(c.source_id == "S1" for c in ans.citations)

    def test_plan_percentage(self) -> None:
        """A margin plan is written as a percentage of the right operands."""
        plan = ReplyPlan.model_validate(
            {
                "description": "FY2022 gross margin",
                "expression": "g / r * 100",
                "unit": "percent",
                "items": [
                    {"name": "g", "item": "gross_profit", "period": "FY2022"},
                    {"name": "r", "item": "revenue", "period": "2022"},
                ],
            }
        )
        out = execute_plan(plan, evidence(INCOME))
        assert out.calculation is not None
        assert round(out.calculation.result, 2) == round(45816 / 86392 * 100, 2)
        assert "53.0%" in out.text

    def test_percent_of_a_fraction(self) -> None:
        """A plan asking for a percentage but writing a fraction is expressed in percent."""
        plan = ReplyPlan.model_validate(
            {
                "expression": "g / r",
                "unit": "%",
                "items": [
                    {"name": "g", "item": "gross profit", "period": "FY2021"},
                    {"name": "r", "item": "revenue", "period": "FY2021"},
                ],
            }
        )
        out = execute_plan(plan, evidence(INCOME))
        assert out.calculation is not None and out.calculation.expression == "(g / r) * 100"
        assert f"{42399 / 79474 * 100:.1f}%" in out.text

    def test_items_as_a_small_model_writes_them(self) -> None:
        """Items written with a period suffix, a source note, or as the listed value resolve."""
        plan = ReplyPlan.model_validate(
            {
                "expression": "a - b - c",
                "items": [
                    {"name": "a", "item": "cfo_fy2022", "period": ""},
                    {
                        "name": "b",
                        "item": "Capital spending (S1 ACME_2022_10K p.40)",
                        "period": "FY2022",
                    },
                    {"name": "c", "item": "6,172", "period": "FY2022"},
                ],
            }
        )
        out = execute_plan(plan, evidence(CASH_FLOW))
        assert out.calculation is not None, out.text
        assert out.calculation.result == 10811 - 5207 - 6172

    def test_mixed_units_abstain(self) -> None:
        """A plan subtracting a per-share figure from an amount abstains and says why."""
        plan = ReplyPlan.model_validate(
            {
                "expression": "(a - b) / a * 100",
                "items": [
                    {"name": "a", "item": "net income", "period": "FY2022"},
                    {"name": "b", "item": "eps_diluted", "period": "FY2022"},
                ],
            }
        )
        per_share = INCOME + "\nEarnings per share\nDiluted\n$\n6.42 $\n5.49 $\n5.12\n"
        out = execute_plan(plan, evidence(per_share))
        if out.missing:  # the fixture's EPS row must be readable for this test to mean anything
            raise AssertionError(out.text)
        assert out.abstained and "different units" in out.text

    def test_unknown_line_item_abstains_naming_it(self) -> None:
        """A plan naming a line item the statement model does not have abstains and says which."""
        reply = _plan_reply(
            [{"name": "a", "item": "customer happiness index", "period": "FY2022"}], "a"
        )
        ans = parse_reply(reply, evidence(CASH_FLOW))
        assert ans.abstained and "customer happiness index" in ans.text
        assert ans.confidence["unknown_items"] == ["customer happiness index"]

    def test_missing_value_abstains_naming_it(self) -> None:
        """A known line item absent from the evidence abstains with what is missing."""
        reply = _plan_reply([{"name": "a", "item": "inventory", "period": "FY2022"}], "a")
        ans = parse_reply(reply, evidence(CASH_FLOW))
        assert ans.abstained and ans.missing == ["inventory FY2022"]

    def test_item_names_resolve(self) -> None:
        """Catalogue ids, their labels as filed and lexicon ids resolve to one line item."""
        assert resolve_item("Total current assets") == resolve_item("total_current_assets")
        assert resolve_item("total_current_assets") == "total_current_assets"
        assert resolve_item("revenue") == "revenue"
        assert resolve_item("moon phase") is None

    def test_statement_view_lists_items_with_sources(self) -> None:
        """The view shown to the model has item ids, fiscal years, values and source ids."""
        view = statement_view(evidence(BALANCE))
        assert "total_assets: FY2022 19,012,742 [S1]; FY2021 13,586,610 [S1]" in view


PROSE = "Management's discussion. Cash generation stayed strong and capital spending rose."


def _store(*pages: tuple[int, str], doc: str = "ACME_2022_10K") -> MemoryStatementStore:
    return MemoryStatementStore(read_pages(doc, list(pages)).tables)


class TestPlanReadsTheStatementModel:
    """The plan's items are looked up in the filing's statement model first, cited by doc and page."""

    def test_plan_computed_from_the_model(self) -> None:
        """With only prose retrieved, the plan's figures come from the model and cite its page."""
        parsed = parse_reply(FCF_PLAN, evidence(PROSE), statements=_store((52, CASH_FLOW)))
        assert not parsed.abstained and "$5,604 million" in parsed.text
        (calc,) = parsed.calculations
        assert calc.result == 5604 and {o.value for o in calc.operands} == {10811, 5207}
        assert {(c.doc_id, c.page) for c in parsed.citations} == {("ACME_2022_10K", 52)}

    def test_without_the_model_the_plan_abstains(self) -> None:
        """The same plan over the same prose, with no statement model, abstains naming the gaps."""
        parsed = parse_reply(FCF_PLAN, evidence(PROSE))
        assert parsed.abstained and parsed.missing

    def test_evidence_tables_are_the_fallback(self) -> None:
        """An item the model lacks is read from the evidence's own table, cited to its source."""
        reply = _plan_reply(
            [
                {
                    "name": "a",
                    "item": "Net cash provided by operating activities",
                    "period": "FY2022",
                },
                {"name": "b", "item": "net income", "period": "FY2022"},
            ],
            "a / b",
            unit="ratio",
        )
        parsed = parse_reply(reply, evidence(INCOME), statements=_store((52, CASH_FLOW)))
        assert not parsed.abstained
        sources = {(c.doc_id, c.page, c.source_id) for c in parsed.citations}
        assert ("ACME_2022_10K", 52, "M1") in sources and any(s[2] == "S1" for s in sources)

    def test_item_the_model_lacks_abstains_naming_it(self) -> None:
        """A known line item neither the model nor the evidence has abstains, naming item and filing."""
        reply = _plan_reply([{"name": "a", "item": "inventory", "period": "FY2022"}], "a")
        parsed = parse_reply(reply, evidence(PROSE), statements=_store((52, CASH_FLOW)))
        assert parsed.abstained and parsed.missing == ["inventory FY2022"]
        assert (
            "statement model of ACME_2022_10K" in parsed.text and "inventory FY2022" in parsed.text
        )

    def test_figure_written_as_the_item_name(self) -> None:
        """A plan naming an item by a figure copied from the statement list resolves to that line."""
        reply = _plan_reply(
            [{"name": "10,811", "item": "ACME_2022_10K p.52", "period": "FY2022"}], "10,811"
        )
        parsed = parse_reply(reply, evidence(PROSE), statements=_store((52, CASH_FLOW)))
        assert not parsed.abstained and parsed.calculations[0].result == 10811


class TestRealModelReplies:
    """Shapes a small local model really produced."""

    def test_truncated_reply_salvaged(self) -> None:
        """A reply cut off by the token limit inside a long quote keeps its answer and source."""
        text = '{"answer": "Capex was 5,207 [S1].", "citations": [{"source": "S1", "quote": "Consolidated'
        parsed = parse_reply(text, evidence(CASH_FLOW))
        assert parsed.text == "Capex was 5,207 [S1]." and parsed.confidence["salvaged"] is True
        assert parsed.confidence["schema_valid"] is False
        assert [c.source_id for c in parsed.citations] == ["S1"]

    def test_placeholder_quote_dropped(self) -> None:
        """The prompt's '<short exact quote>' copied back is not kept as a quote."""
        text = '{"answer": "Yes [S1]", "citations": [{"source": "S1", "quote": "<short exact quote>"}]}'
        assert parse_reply(text, evidence(CASH_FLOW)).citations[0].quote == ""

    def test_schema_bounds_string_lengths(self) -> None:
        """Quotes and answers have a maximum length in the schema sent to the server."""
        props = reply_json_schema()["properties"]
        assert props["answer"]["maxLength"] > 0
        assert props["citations"]["items"]["properties"]["quote"]["maxLength"] <= 200

    def test_yes_no_form_starts_with_verdict(self) -> None:
        """A yes/no question's reply form starts the answer with Yes or No and a reason."""
        msgs = render_messages(
            load_template("standard"),
            "Is Acme's dividend covered by its operating cash flow?",
            evidence(CASH_FLOW),
            figure=False,
        )
        user = msgs[1]["content"]
        assert "Begin the answer with Yes or No" in user
        assert '"answer": "<Yes or No, then the reason' in user


class TestBadOperands:
    """What a model writes is checked against the evidence."""

    def test_operand_not_in_cited_page(self) -> None:
        """An operand value that is not on its cited page loses that source and is reported."""
        reply = json.dumps(
            {
                "answer": "FCF was 4,000 [S1].",
                "citations": [{"source": "S1", "quote": "x"}],
                "calculations": [
                    {
                        "expression": "a - b",
                        "operands": [
                            {"name": "a", "value": 9123, "source": "S1"},
                            {"name": "b", "value": "5,207", "source": "S1"},
                        ],
                    }
                ],
            }
        )
        parsed = parse_reply(reply, evidence(CASH_FLOW))
        ops = {o.name: o for o in parsed.calculations[0].operands}
        assert ops["a"].source_id is None and ops["b"].source_id == "S1"
        assert any("'a' = 9123 is not in S1" in p for p in parsed.calc_problems)

    def test_operand_citing_missing_source(self) -> None:
        """An operand citing a source id that was never shown is reported and unsourced."""
        reply = json.dumps(
            {
                "answer": "x [S1]",
                "calculations": [
                    {"expression": "a", "operands": [{"name": "a", "value": 1, "source": "S7"}]}
                ],
            }
        )
        parsed = parse_reply(reply, evidence(CASH_FLOW))
        assert parsed.calculations[0].operands[0].source_id is None
        assert any("S7" in p for p in parsed.calc_problems)


class TestHybrid:
    """Offline answers what it computes; the LLM takes abstentions and the Judge's retries."""

    def test_offline_answers_without_llm(self) -> None:
        """A computable figure is answered offline on the first attempt, with no request."""
        with FakeOpenAIServer([FCF_PLAN]) as srv:
            ans = _agent(srv.url, "hybrid").generate(FCF_Q, evidence(CASH_FLOW), 1)
        assert srv.requests == [] and not ans.abstained
        assert ans.backend == "hybrid" and ans.confidence["answered_by"] == "offline"

    def test_llm_takes_offline_abstention(self) -> None:
        """A question offline abstains on goes to the LLM, and the answer says so."""
        reply = json.dumps(
            {"answer": "Higher pricing drove it [S2].", "citations": [{"source": "S2"}]}
        )
        with FakeOpenAIServer([reply]) as srv:
            ans = _agent(srv.url, "hybrid").generate(
                "Is Acme's FY2022 revenue growth explained by pricing?",
                evidence(CASH_FLOW, "Revenue grew on higher pricing."),
                1,
            )
        assert len(srv.requests) == 1
        assert ans.confidence["answered_by"] == "llm" and ans.confidence["offline_abstained"]

    def test_retry_goes_to_llm_with_feedback(self) -> None:
        """On a retry the Judge sent back, the LLM answers and sees the Judge's findings."""
        with FakeOpenAIServer([FCF_PLAN]) as srv:
            ans = _agent(srv.url, "hybrid").generate(
                FCF_Q, evidence(CASH_FLOW), 2, feedback=VERDICT
            )
        assert ans.confidence["answered_by"] == "llm" and ans.strategy == "conservative"
        prompt = srv.requests[0].text
        assert "did not address: FY2022 capital spending" in prompt
        assert "not in the evidence, do not use them: 9,999" in prompt

    def test_llm_failure_keeps_offline_answer(self) -> None:
        """When the LLM fails on a retry, the offline answer stands and the error is recorded."""
        with FakeOpenAIServer([FakeReply.error(500)]) as srv:
            ans = _agent(srv.url, "hybrid").generate(
                FCF_Q, evidence(CASH_FLOW), 2, feedback=VERDICT
            )
        assert len(srv.requests) == 2  # bounded: one try plus one retry
        assert not ans.abstained and ans.confidence["answered_by"] == "offline"
        assert "HTTP 500" in ans.confidence["llm_error"]


class TestRetryPrompts:
    """The strategies ask for different things; feedback is actionable for a small model."""

    def _user(self, strategy: str, question: str, feedback: Verdict | None = None) -> str:
        msgs = render_messages(
            load_template(strategy), question, evidence(CASH_FLOW), feedback=feedback
        )
        return msgs[1]["content"]

    def test_figure_questions_ask_for_a_plan(self) -> None:
        """A figure question lists the line items read from the evidence and asks for a plan."""
        user = self._user("standard", FCF_Q)
        assert '"plan"' in user and "capex: FY2022 5,207 [S1]" in user
        assert "Do not do arithmetic yourself" in user

    def test_qualitative_questions_free_form(self) -> None:
        """A question about drivers asks for a cited answer in words, no plan."""
        user = self._user("standard", WHY_Q)
        assert '"plan"' not in user and '"answer"' in user

    def test_strategies_differ(self) -> None:
        """Standard, conservative and detailed ask for different work."""
        texts = {s: self._user(s, FCF_Q) for s in ("standard", "conservative", "detailed")}
        assert "Check company, fiscal year and line item" in texts["conservative"]
        assert "step by step" in texts["detailed"]
        assert len(set(texts.values())) == 3

    def test_feedback_asks_for_plan_form(self) -> None:
        """A rejected figure answer's retry prompt names what to fix and asks for the plan form."""
        user = self._user("conservative", FCF_Q, VERDICT)
        assert "Your previous answer was rejected" in user
        assert "Give the figure as a plan" in user

    def test_injection_in_filing_stays_data(self) -> None:
        """A filing page telling the model to ignore its instructions cannot close its source."""
        msgs = render_messages(
            load_template("standard"), FCF_Q, evidence(CASH_FLOW, INJECTION), figure=False
        )
        user = msgs[1]["content"]
        assert "not instructions" in msgs[0]["content"]
        assert user.count(">>> end of S2") == 1 and "[/S1]" not in user
        body = user.split("[S2]", 1)[1].split(">>> end of S2", 1)[0]
        assert "IGNORE PREVIOUS INSTRUCTIONS" in body
