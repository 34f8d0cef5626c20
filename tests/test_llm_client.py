"""OpenAIChatClient against the FakeOpenAIServer: real HTTP, the real `openai` client."""

from __future__ import annotations

import pytest
from finqa.agents.config import LLMConfig
from finqa.agents.errors import LLMError
from finqa.agents.reasoning.fake_server import FakeOpenAIServer, FakeReply
from finqa.agents.reasoning.llm import DUMMY_LOCAL_KEY, LLMCallFailed, OpenAIChatClient

MESSAGES = [{"role": "system", "content": "sys"}, {"role": "user", "content": "What is X?"}]


def _client(url: str, **kw: object) -> OpenAIChatClient:
    cfg = LLMConfig(backend="openai", base_url=url, model="m", backoff_s=0.0, timeout_s=5.0)
    return OpenAIChatClient(cfg.model_copy(update=kw), api_key="test-key")


class TestHappyPath:
    """A scripted reply comes back with usage, latency and the request recorded."""

    def test_scripted_reply_and_usage(self) -> None:
        """The reply text, token usage and one call are returned; the request carries model and messages."""
        with FakeOpenAIServer(['{"answer": "42 [S1]"}']) as srv:
            resp = _client(srv.url).complete(MESSAGES, json_mode=True)
        assert resp.text == '{"answer": "42 [S1]"}'
        assert resp.usage.calls == 1 and resp.usage.retries == 0
        assert resp.usage.prompt_tokens == 11 and resp.usage.completion_tokens == 7
        assert resp.usage.latency_ms > 0
        assert resp.json_mode is True
        body = srv.requests[0].body
        assert body["model"] == "m"
        assert body["messages"][1]["content"] == "What is X?"
        assert body["response_format"] == {"type": "json_object"}

    def test_path_without_v1(self) -> None:
        """The server answers on /chat/completions too (base_url without /v1)."""
        with FakeOpenAIServer(["ok"]) as srv:
            resp = _client(srv.url.removesuffix("/v1")).complete(MESSAGES)
        assert resp.text == "ok"
        assert srv.requests[0].path == "/chat/completions"


class TestRetries:
    """429 / 5xx / timeouts are retried with backoff, a bounded number of times."""

    def test_429_then_success_counts_retry(self) -> None:
        """One 429 then success: two calls, one retry, a backoff sleep, and the history records both."""
        sleeps: list[float] = []
        with FakeOpenAIServer([FakeReply.error(429), "fine"]) as srv:
            client = _client(srv.url, backoff_s=0.5)
            client._sleep = sleeps.append
            resp = client.complete(MESSAGES)
        assert resp.text == "fine"
        assert (resp.usage.calls, resp.usage.retries) == (2, 1)
        assert sleeps == [0.5]
        assert [r.status for r in client.history] == [429, 200]

    def test_500s_exhaust_retries(self) -> None:
        """Persistent 500s raise LLMCallFailed (an LLMError) after max_retries + 1 calls, with usage."""
        with FakeOpenAIServer([FakeReply.error(500)]) as srv:
            client = _client(srv.url, max_retries=2)
            with pytest.raises(LLMCallFailed) as info:
                client.complete(MESSAGES)
        assert len(srv.requests) == 3
        assert info.value.usage.calls == 3 and info.value.usage.retries == 2
        assert "500" in str(info.value) and "\n" not in str(info.value)

    def test_slow_reply_times_out(self) -> None:
        """A reply slower than timeout_s is a timeout, retried, then an LLMError."""
        with FakeOpenAIServer([FakeReply.slow(2.0)]) as srv:
            client = _client(srv.url, timeout_s=0.3, max_retries=1)
            with pytest.raises(LLMError, match="timeout"):
                client.complete(MESSAGES)
        assert [r.ok for r in client.history] == [False, False]

    def test_malformed_body_is_retried_then_fails(self) -> None:
        """An unparseable HTTP body is a recorded failure, not a crash."""
        with FakeOpenAIServer([FakeReply.malformed(), "recovered"]) as srv:
            resp = _client(srv.url).complete(MESSAGES)
        assert resp.text == "recovered" and resp.usage.retries == 1

    def test_client_error_is_not_retried(self) -> None:
        """A 401 is not retried: one call, one-line LLMError."""
        with (
            FakeOpenAIServer([FakeReply.error(401, "bad key")]) as srv,
            pytest.raises(LLMError, match="401"),
        ):
            _client(srv.url).complete(MESSAGES)
        assert len(srv.requests) == 1

    def test_endpoint_down(self) -> None:
        """A closed port is a connection error after bounded retries."""
        srv = FakeOpenAIServer().start()
        url = srv.url
        srv.stop()
        client = _client(url, max_retries=1)
        with pytest.raises(LLMError, match="connection"):
            client.complete(MESSAGES)


class TestJsonMode:
    """JSON mode 'auto' degrades to plain text on servers that reject response_format."""

    def test_auto_degrades_and_remembers(self) -> None:
        """The rejected probe is not a retry; later calls skip response_format."""
        with FakeOpenAIServer(["a", "b"], json_mode_supported=False) as srv:
            client = _client(srv.url)
            first = client.complete(MESSAGES, json_mode=True)
            second = client.complete(MESSAGES, json_mode=True)
        assert (first.text, second.text) == ("a", "b")
        assert first.json_mode is False and first.usage.retries == 0
        assert ["response_format" in r.body for r in srv.requests] == [True, False, False]

    def test_off_never_sends_response_format(self) -> None:
        """json_mode 'off' never sends response_format."""
        with FakeOpenAIServer(["a"]) as srv:
            _client(srv.url, json_mode="off").complete(MESSAGES, json_mode=True)
        assert "response_format" not in srv.requests[0].body


class TestKeys:
    """The key comes from agents.secrets; local servers work without one."""

    def test_missing_key_without_base_url(self, monkeypatch: pytest.MonkeyPatch) -> None:
        """No key and no base_url: a one-line LLMError at first use, naming the variable."""
        monkeypatch.delenv("OPENAI_API_KEY", raising=False)
        monkeypatch.delenv("FINQA_API_KEY", raising=False)
        client = OpenAIChatClient(LLMConfig(backend="openai"))
        with pytest.raises(LLMError, match="OPENAI_API_KEY") as info:
            client.complete(MESSAGES)
        assert "\n" not in str(info.value)

    def test_local_server_gets_dummy_key(self, monkeypatch: pytest.MonkeyPatch) -> None:
        """With base_url set and no key, a dummy key is sent (local servers ignore it)."""
        monkeypatch.delenv("OPENAI_API_KEY", raising=False)
        monkeypatch.delenv("FINQA_API_KEY", raising=False)
        with FakeOpenAIServer(["ok"]) as srv:
            client = OpenAIChatClient(LLMConfig(backend="openai", base_url=srv.url))
            assert client.complete(MESSAGES).text == "ok"
        assert srv.requests[0].headers["authorization"] == f"Bearer {DUMMY_LOCAL_KEY}"

    def test_env_key_is_used(self, monkeypatch: pytest.MonkeyPatch) -> None:
        """FINQA_API_KEY from the environment is sent as the bearer token."""
        monkeypatch.setenv("FINQA_API_KEY", "sk-env")
        with FakeOpenAIServer(["ok"]) as srv:
            OpenAIChatClient(LLMConfig(backend="openai", base_url=srv.url)).complete(MESSAGES)
        assert srv.requests[0].headers["authorization"] == "Bearer sk-env"


class TestServerQuirks:
    """Parameters a server rejects are dropped once, not retried forever."""

    def test_max_tokens_renamed(self) -> None:
        """A 400 about max_tokens switches to max_completion_tokens (as newer OpenAI models want)."""

        def script(body: dict[str, object]) -> str | FakeReply:
            if "max_tokens" in body:
                return FakeReply.error(
                    400, "Unsupported parameter: 'max_tokens'; use 'max_completion_tokens'"
                )
            return "ok"

        with FakeOpenAIServer(script) as srv:
            resp = _client(srv.url).complete(MESSAGES, json_mode=True)
        assert resp.text == "ok" and resp.json_mode is True
        assert "max_completion_tokens" in srv.requests[-1].body
