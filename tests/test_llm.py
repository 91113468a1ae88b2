"""The LLM client layer against a real HTTP server on 127.0.0.1 (memlane.testing.FakeLLMServer).

Every failure mode is acted out on the wire (status codes, Retry-After, stalls, dropped
connections), for both the OpenAI-compatible and the Anthropic dialect.
"""

from __future__ import annotations

import base64
import inspect
import json
import struct
import threading
import time
from collections.abc import Iterator, Sequence
from typing import Any

import httpx
import pytest
from pydantic import BaseModel, Field

import memlane.llm
import memlane.testing
from memlane.errors import (
    ConfigError,
    InvalidInput,
    InvalidOutput,
    ProviderError,
    ProviderTimeout,
    RateLimited,
)
from memlane.llm import (
    AnthropicLLM,
    ChatMessage,
    LLMClient,
    OpenAICompatibleLLM,
    RawCompletion,
    UsageEvent,
    extract_json,
    make_llm,
    parse_model,
)
from memlane.llm._http import iter_sse
from memlane.llm._retry import backoff_delay, parse_retry_after
from memlane.testing import FakeLLMServer, Fault, ScriptedLLM, fake_embedding

FAST: dict[str, Any] = {"timeout": 0.5, "backoff_base": 0.01, "backoff_max": 0.02, "max_retries": 2}


class Fact(BaseModel):
    content: str
    category: str = "other"


class Facts(BaseModel):
    summary: str
    facts: list[Fact] = Field(default_factory=list)


GOOD = {"summary": "Talked about tea.", "facts": [{"content": "Ada likes green tea", "category": "preference"}]}
QUESTION = [ChatMessage.system("You extract facts."), ChatMessage.user("I love green tea, says Ada.")]


# ---- fixtures ------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def http_client() -> Iterator[httpx.Client]:
    with httpx.Client(trust_env=False) as client:  # loopback only, whatever proxies the env names
        yield client


@pytest.fixture
def server() -> Iterator[FakeLLMServer]:
    with FakeLLMServer() as fake:
        yield fake


@pytest.fixture(params=["openai", "anthropic"])
def dialect(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
def usage() -> list[UsageEvent]:
    return []


def connect(server: FakeLLMServer, dialect: str, http_client: httpx.Client, **options: Any) -> LLMClient:
    settings = FAST | options
    if dialect == "openai":
        return OpenAICompatibleLLM(server.base_url, "fake-gpt", api_key="sk-test", http_client=http_client, **settings)
    return AnthropicLLM("fake-claude", "ant-test", server.url, http_client=http_client, **settings)


@pytest.fixture
def llm(server: FakeLLMServer, dialect: str, http_client: httpx.Client, usage: list[UsageEvent]) -> LLMClient:
    return connect(server, dialect, http_client, on_usage=usage.append)


def chat_path(dialect: str) -> str:
    return "/v1/chat/completions" if dialect == "openai" else "/v1/messages"


def system_text(dialect: str, body: dict[str, Any]) -> str:
    if dialect == "anthropic":
        return str(body.get("system", ""))
    return "\n".join(m["content"] for m in body["messages"] if m["role"] == "system")


# ---- plain completions -----------------------------------------------------------------------------


def test_plain_completion_returns_text_and_usage(
    server: FakeLLMServer, llm: LLMClient, dialect: str, usage: list[UsageEvent]
) -> None:
    server.script("Ada likes green tea")
    result = llm.complete(QUESTION, operation="answer", agent="agent-1")

    assert result.text == "Ada likes green tea"
    assert result.parsed is None
    assert (result.prompt_tokens, result.completion_tokens) == (3 + 6, 4)  # the fake counts words
    assert result.model == ("fake-gpt" if dialect == "openai" else "fake-claude")
    assert result.latency_s > 0
    [event] = usage
    assert (event.operation, event.agent, event.ok, event.error, event.attempts) == ("answer", "agent-1", True, None, 1)
    assert (event.prompt_tokens, event.completion_tokens) == (9, 4)


def test_requests_follow_each_wire_format(server: FakeLLMServer, llm: LLMClient, dialect: str) -> None:
    llm.complete(QUESTION, operation="answer", temperature=0.2)

    [call] = server.calls
    assert call.path == chat_path(dialect)
    body = call.body
    if dialect == "openai":
        assert call.headers["authorization"] == "Bearer sk-test"
        assert body["messages"] == [
            {"role": "system", "content": "You extract facts."},
            {"role": "user", "content": "I love green tea, says Ada."},
        ]
        assert body["temperature"] == 0.2
        assert "response_format" not in body
    else:
        assert call.headers["x-api-key"] == "ant-test"
        assert call.headers["anthropic-version"] == "2023-06-01"
        assert body["system"] == "You extract facts."
        assert body["messages"] == [{"role": "user", "content": "I love green tea, says Ada."}]
        assert body["max_tokens"] == 4096


def test_anthropic_merges_consecutive_turns_and_clamps_temperature(
    server: FakeLLMServer, http_client: httpx.Client
) -> None:
    llm = connect(server, "anthropic", http_client)
    messages = [ChatMessage.user("one"), ChatMessage.user("two"), ChatMessage.assistant("three")]
    llm.complete(messages, operation="chat", temperature=1.7)

    body = server.calls[0].body
    assert body["messages"] == [{"role": "user", "content": "one\n\ntwo"}, {"role": "assistant", "content": "three"}]
    assert body["temperature"] == 1.0
    assert "system" not in body


# ---- structured output ----------------------------------------------------------------------------


def test_structured_output_uses_json_schema_response_format(server: FakeLLMServer, http_client: httpx.Client) -> None:
    llm = connect(server, "openai", http_client)
    server.script(json.dumps(GOOD))
    result = llm.complete(QUESTION, operation="extract_facts", schema=Facts)

    assert result.parsed == Facts.model_validate(GOOD)
    assert result.parsed is not None and result.parsed.facts[0].content == "Ada likes green tea"
    fmt = server.calls[0].body["response_format"]
    assert fmt == {
        "type": "json_schema",
        "json_schema": {"name": "Facts", "schema": Facts.model_json_schema(), "strict": False},
    }


def test_anthropic_structured_output_is_asked_by_instruction(server: FakeLLMServer, http_client: httpx.Client) -> None:
    llm = connect(server, "anthropic", http_client)
    server.script(json.dumps(GOOD))
    result = llm.complete(QUESTION, operation="extract_facts", schema=Facts)

    assert result.parsed == Facts.model_validate(GOOD)
    system = server.calls[0].body["system"]
    assert system.startswith("You extract facts.")
    assert json.dumps(Facts.model_json_schema(), separators=(",", ":")) in system


@pytest.mark.parametrize(
    "answer",
    [
        f"```json\n{json.dumps(GOOD, indent=2)}\n```",
        f"Sure! Here is what I found:\n{json.dumps(GOOD)}\nLet me know if you need more.",
        f"<think>maybe {{not this}}</think>\n```\n{json.dumps(GOOD)}\n```",
    ],
    ids=["fenced", "in-prose", "after-reasoning"],
)
def test_structured_output_is_found_in_fences_and_prose(server: FakeLLMServer, llm: LLMClient, answer: str) -> None:
    server.script(answer)
    result = llm.complete(QUESTION, operation="extract_facts", schema=Facts)
    assert result.parsed == Facts.model_validate(GOOD)
    assert result.text == answer
    assert len(server.calls) == 1


def test_malformed_json_raises_invalid_output_after_one_repair(
    server: FakeLLMServer, llm: LLMClient, dialect: str, usage: list[UsageEvent]
) -> None:
    server.script(Fault.malformed_json(), Fault.malformed_json('{"summary": oops}'))
    with pytest.raises(InvalidOutput, match="no valid JSON") as caught:
        llm.complete(QUESTION, operation="extract_facts", schema=Facts)

    assert any('{"summary": oops}' in note for note in caught.value.__notes__)  # raw text travels along
    _first, repair = server.calls
    repair_turns = repair.body["messages"]
    assert repair_turns[-2] == {"role": "assistant", "content": '{"facts": [{"content": "unterminated'}
    assert repair_turns[-1]["role"] == "user"
    assert "could not be used" in repair_turns[-1]["content"]
    [event] = usage
    assert (event.ok, event.error, event.operation, event.attempts) == (False, "InvalidOutput", "extract_facts", 2)


def test_repair_request_recovers_and_counts_both_requests(
    server: FakeLLMServer, llm: LLMClient, usage: list[UsageEvent]
) -> None:
    server.script("I think the summary is tea.", json.dumps(GOOD))
    result = llm.complete(QUESTION, operation="extract_facts", schema=Facts)

    assert result.parsed == Facts.model_validate(GOOD)
    assert len(server.calls) == 2
    assert result.completion_tokens == 6 + len(json.dumps(GOOD).split())  # words of both answers
    assert usage[0].ok and usage[0].attempts == 2


def test_wrong_schema_raises_invalid_output(server: FakeLLMServer, dialect: str, http_client: httpx.Client) -> None:
    llm = connect(server, dialect, http_client, repair_retries=0)
    server.script(Fault.wrong_schema({"facts": [{"text": "no content field"}]}))
    with pytest.raises(InvalidOutput, match=r"does not match Facts: summary: Field required") as caught:
        llm.complete(QUESTION, operation="extract_facts", schema=Facts)
    assert isinstance(caught.value, ProviderError)  # one exception tree: callers may catch the base
    assert len(server.calls) == 1


def test_json_schema_400_falls_back_to_instructions_and_is_remembered(http_client: httpx.Client) -> None:
    with FakeLLMServer(reject_response_format=True) as server:
        llm = connect(server, "openai", http_client)
        server.script(json.dumps(GOOD), json.dumps(GOOD))
        first = llm.complete(QUESTION, operation="extract_facts", schema=Facts)
        second = llm.complete(QUESTION, operation="extract_facts", schema=Facts)

        assert first.parsed == second.parsed == Facts.model_validate(GOOD)
        refused, fallback, remembered = (call.body for call in server.calls)
        assert "response_format" in refused
        for body in (fallback, remembered):
            assert "response_format" not in body
            assert "JSON schema" in system_text("openai", body)
            assert body["messages"][0]["content"].startswith("You extract facts.")  # merged, not a 2nd system


def test_scripted_400_about_response_format_also_triggers_fallback(
    server: FakeLLMServer, http_client: httpx.Client
) -> None:
    llm = connect(server, "openai", http_client)
    refusal = {"error": {"message": "Unknown parameter: 'response_format'.", "type": "invalid_request_error"}}
    server.script(Fault.status(400, body=refusal), f"Here you go: {json.dumps(GOOD)}")
    result = llm.complete(QUESTION, operation="extract_facts", schema=Facts)
    assert result.parsed == Facts.model_validate(GOOD)
    assert [("response_format" in c.body) for c in server.calls] == [True, False]


def test_json_schema_mode_never_falls_back(http_client: httpx.Client) -> None:
    with FakeLLMServer(reject_response_format=True) as server:
        llm = connect(server, "openai", http_client, structured_output="json_schema")
        with pytest.raises(ProviderError, match=r"HTTP 400.*response_format"):
            llm.complete(QUESTION, operation="extract_facts", schema=Facts)
        assert len(server.calls) == 1


def test_refused_temperature_is_dropped(server: FakeLLMServer, http_client: httpx.Client) -> None:
    llm = connect(server, "openai", http_client)
    refusal = {"error": {"message": "Unsupported value: 'temperature' does not support 0.0 with this model."}}
    server.script(Fault.status(400, body=refusal), "fine")
    assert llm.complete(QUESTION, operation="answer").text == "fine"
    assert ["temperature" in c.body for c in server.calls] == [True, False]


# ---- retries ------------------------------------------------------------------------------------------


def test_429_waits_for_retry_after_then_succeeds(
    server: FakeLLMServer, llm: LLMClient, usage: list[UsageEvent]
) -> None:
    server.script(Fault.status(429, retry_after=0.3), "made it")
    started = time.monotonic()
    result = llm.complete(QUESTION, operation="answer")
    waited = time.monotonic() - started

    assert result.text == "made it"
    assert 0.3 <= waited < 1.5
    first, second = server.calls
    assert second.at - first.at >= 0.3  # the retry really came after the server's Retry-After
    assert usage[0].attempts == 2


def test_retry_after_beyond_the_cap_is_raised_at_once(
    server: FakeLLMServer, dialect: str, http_client: httpx.Client
) -> None:
    llm = connect(server, dialect, http_client, max_retry_after=1.0)
    server.script(Fault.status(429, retry_after=120))
    started = time.monotonic()
    with pytest.raises(RateLimited) as caught:
        llm.complete(QUESTION, operation="answer")
    assert caught.value.retry_after == 120
    assert time.monotonic() - started < 1.0
    assert len(server.calls) == 1


def test_persistent_429_raises_rate_limited_with_retry_after(
    server: FakeLLMServer, llm: LLMClient, usage: list[UsageEvent]
) -> None:
    server.default = Fault.status(429, retry_after=0.05)
    with pytest.raises(RateLimited, match="HTTP 429") as caught:
        llm.complete(QUESTION, operation="answer")
    assert caught.value.retry_after == pytest.approx(0.05)
    assert len(server.calls) == 1 + FAST["max_retries"]
    assert (usage[0].ok, usage[0].error, usage[0].attempts) == (False, "RateLimited", 3)


def test_429_without_retry_after_backs_off(server: FakeLLMServer, llm: LLMClient) -> None:
    server.default = Fault.status(429)
    with pytest.raises(RateLimited) as caught:
        llm.complete(QUESTION, operation="answer")
    assert caught.value.retry_after is None
    assert len(server.calls) == 3


def test_500_then_success(server: FakeLLMServer, llm: LLMClient) -> None:
    server.script(Fault.status(500), Fault.status(503), "recovered")
    assert llm.complete(QUESTION, operation="answer").text == "recovered"
    assert len(server.calls) == 3


def test_persistent_500_raises_provider_error(server: FakeLLMServer, llm: LLMClient, usage: list[UsageEvent]) -> None:
    server.default = Fault.status(500)
    with pytest.raises(ProviderError, match="HTTP 500") as caught:
        llm.complete(QUESTION, operation="answer")
    assert type(caught.value) is ProviderError  # the internal retry marker never escapes
    assert len(server.calls) == 3
    assert (usage[0].ok, usage[0].error) == (False, "ProviderError")


def test_other_4xx_is_not_retried(server: FakeLLMServer, llm: LLMClient) -> None:
    server.script(Fault.status(401, body={"error": {"message": "bad key"}}))
    with pytest.raises(ProviderError, match=r"HTTP 401.*bad key"):
        llm.complete(QUESTION, operation="answer")
    assert len(server.calls) == 1


def test_slow_answer_times_out_quickly(server: FakeLLMServer, dialect: str, http_client: httpx.Client) -> None:
    llm = connect(server, dialect, http_client, timeout=0.2, max_retries=1)
    server.default = Fault.slow(30, then="too late")
    started = time.monotonic()
    with pytest.raises(ProviderTimeout, match=r"within 0\.2s"):
        llm.complete(QUESTION, operation="answer")
    assert time.monotonic() - started < 1.5
    assert len(server.calls) == 2  # timeouts are retried


def test_slow_answer_then_fast_retry_succeeds(server: FakeLLMServer, llm: LLMClient) -> None:
    server.script(Fault.slow(30), "quick")
    assert llm.complete(QUESTION, operation="answer", timeout=0.2).text == "quick"


def test_slow_answer_within_timeout_is_awaited(server: FakeLLMServer, llm: LLMClient) -> None:
    server.script(Fault.slow(0.1, then="worth the wait"))
    assert llm.complete(QUESTION, operation="answer").text == "worth the wait"
    assert len(server.calls) == 1


def test_total_timeout_caps_the_whole_call(server: FakeLLMServer, http_client: httpx.Client) -> None:
    llm = connect(server, "openai", http_client, timeout=0.2, max_retries=50, total_timeout=0.5)
    server.default = Fault.slow(30)
    started = time.monotonic()
    with pytest.raises(ProviderTimeout):
        llm.complete(QUESTION, operation="answer")
    assert time.monotonic() - started < 1.2
    assert 2 <= len(server.calls) <= 4


def test_dropped_connection_is_retried(server: FakeLLMServer, llm: LLMClient) -> None:
    server.script(Fault.drop(), "second time lucky")
    assert llm.complete(QUESTION, operation="answer").text == "second time lucky"
    assert len(server.calls) == 2


def test_persistent_drops_raise_provider_error(server: FakeLLMServer, llm: LLMClient) -> None:
    server.default = Fault.drop()
    with pytest.raises(ProviderError, match="connection") as caught:
        llm.complete(QUESTION, operation="answer")
    assert type(caught.value) is ProviderError
    assert len(server.calls) == 3


def test_connection_refused_is_a_provider_error(http_client: httpx.Client) -> None:
    with FakeLLMServer() as gone:
        url = gone.base_url
    llm = OpenAICompatibleLLM(url, "m", http_client=http_client, **FAST)
    with pytest.raises(ProviderError, match="ConnectError"):
        llm.complete(QUESTION, operation="answer")


def test_openrouter_style_error_in_a_200_body(server: FakeLLMServer, http_client: httpx.Client) -> None:
    llm = connect(server, "openai", http_client)
    server.script(Fault.status(200, body={"error": {"message": "upstream overloaded", "code": 502}}), "ok now")
    assert llm.complete(QUESTION, operation="answer").text == "ok now"


# ---- streaming ----------------------------------------------------------------------------------------


def test_stream_yields_deltas_in_order(
    server: FakeLLMServer, llm: LLMClient, dialect: str, usage: list[UsageEvent]
) -> None:
    server.script("Once upon a time, tea.")
    chunks = list(llm.stream(QUESTION, operation="reply", agent="bot"))

    assert chunks == ["Once ", "upon ", "a ", "time, ", "tea."]
    body = server.calls[0].body
    assert body["stream"] is True
    if dialect == "openai":
        assert body["stream_options"] == {"include_usage": True}
        assert body["temperature"] == 0.7
    [event] = usage
    assert (event.operation, event.agent, event.ok) == ("reply", "bot", True)
    assert (event.prompt_tokens, event.completion_tokens) == (9, 5)


def test_stream_retries_failures_before_the_first_delta(server: FakeLLMServer, llm: LLMClient) -> None:
    server.script(Fault.status(503), Fault.drop(), "finally here")
    assert "".join(llm.stream(QUESTION, operation="reply")) == "finally here"
    assert len(server.calls) == 3


def test_stream_errors_surface_as_provider_errors(
    server: FakeLLMServer, llm: LLMClient, usage: list[UsageEvent]
) -> None:
    server.default = Fault.status(500)
    with pytest.raises(ProviderError, match="HTTP 500"):
        list(llm.stream(QUESTION, operation="reply"))
    assert (usage[0].ok, usage[0].error) == (False, "ProviderError")


def test_stream_closed_early_still_reports_usage(
    server: FakeLLMServer, llm: LLMClient, usage: list[UsageEvent]
) -> None:
    server.script("one two three four")
    stream = llm.stream(QUESTION, operation="reply")
    assert next(stream) == "one "
    assert not usage  # nothing reported while the answer is still flowing
    stream.close()
    assert len(usage) == 1 and usage[0].ok


def test_stream_rejects_bad_input_before_iteration(llm: LLMClient) -> None:
    with pytest.raises(InvalidInput):
        llm.stream([], operation="reply")


class EchoLLM(LLMClient):
    """A provider implementing only the one abstract method."""

    def _complete(
        self, messages: Sequence[ChatMessage], *, schema: type[BaseModel] | None, temperature: float, timeout: float
    ) -> RawCompletion:
        return RawCompletion(messages[-1].content.upper(), 1, 2)


def test_stream_falls_back_to_one_chunk_without_a_stream_hook() -> None:
    usage: list[UsageEvent] = []
    with EchoLLM(model="echo", on_usage=usage.append) as llm:
        assert list(llm.stream([ChatMessage.user("shout")], operation="echo")) == ["SHOUT"]
    assert (usage[0].prompt_tokens, usage[0].completion_tokens, usage[0].model) == (1, 2, "echo")


# ---- usage accounting and the client contract ---------------------------------------------------------------


def test_one_usage_event_per_call_for_successes_and_failures(
    server: FakeLLMServer, llm: LLMClient, usage: list[UsageEvent]
) -> None:
    server.script("fine", Fault.status(403), json.dumps(GOOD))
    llm.complete(QUESTION, operation="summarize", agent="a")
    with pytest.raises(ProviderError):
        llm.complete(QUESTION, operation="extract_facts", agent="a")
    llm.complete(QUESTION, operation="extract_facts", agent="b", schema=Facts)

    assert [(e.operation, e.agent, e.ok, e.error) for e in usage] == [
        ("summarize", "a", True, None),
        ("extract_facts", "a", False, "ProviderError"),
        ("extract_facts", "b", True, None),
    ]
    assert usage[1].prompt_tokens == 0  # a refused request reports no tokens


def test_a_failing_usage_callback_does_not_fail_the_call(
    server: FakeLLMServer, dialect: str, http_client: httpx.Client
) -> None:
    def broken(event: UsageEvent) -> None:
        raise RuntimeError("metrics backend down")

    llm = connect(server, dialect, http_client, on_usage=broken)
    assert llm.complete(QUESTION, operation="answer").text == "ok"


@pytest.mark.parametrize(
    ("messages", "operation"),
    [([], "op"), ([ChatMessage.user("x")], ""), (["not a message"], "op")],
)
def test_bad_arguments_are_invalid_input(llm: LLMClient, messages: Any, operation: str) -> None:
    with pytest.raises(InvalidInput):
        llm.complete(messages, operation=operation)


def test_chat_message_rejects_unknown_roles() -> None:
    with pytest.raises(InvalidInput, match="role"):
        ChatMessage("tool", "x")


@pytest.mark.parametrize("setting", [{"timeout": 0}, {"max_retries": -1}, {"model": ""}])
def test_bad_client_settings_are_config_errors(setting: dict[str, Any]) -> None:
    options: dict[str, Any] = {"model": "m"} | setting
    with pytest.raises(ConfigError):
        OpenAICompatibleLLM("http://127.0.0.1:9/v1", **options)


def test_base_url_must_be_http() -> None:
    with pytest.raises(ConfigError, match="http"):
        OpenAICompatibleLLM("127.0.0.1:8080", "m")


def test_backoff_is_full_jitter_and_capped() -> None:
    import random

    rng = random.Random(7)
    delays = [backoff_delay(attempt, 0.5, 8.0, rng) for attempt in range(10) for _ in range(50)]
    assert all(0 <= d <= 8.0 for d in delays)
    assert max(delays[:50]) <= 0.5
    assert max(delays[-50:]) > 4.0  # late attempts really wait longer


def test_retry_after_headers_are_parsed() -> None:
    assert parse_retry_after({"Retry-After": "3"}) == 3.0
    assert parse_retry_after({"retry-after-ms": "250", "retry-after": "9"}) == 0.25
    assert parse_retry_after({"Retry-After": "Wed, 21 Oct 2015 07:28:10 GMT"}, now=1445412480.0) == 10.0
    assert parse_retry_after({"Retry-After": "soon"}) is None
    assert parse_retry_after({}) is None


def test_sse_parser_handles_multiline_data_and_comments() -> None:
    lines = [": keep-alive", "event: delta", "data: a", "data: b", "", "data: [DONE]", ""]
    assert list(iter_sse(iter(lines))) == [("delta", "a\nb"), (None, "[DONE]")]


# ---- the fake server itself ------------------------------------------------------------------------------------


def test_server_records_calls_from_many_threads(server: FakeLLMServer, http_client: httpx.Client) -> None:
    llm = connect(server, "openai", http_client)
    server.responder = lambda request: f"echo {request['messages'][-1]['content']}"
    answers: dict[int, str] = {}

    def ask(n: int) -> None:
        answers[n] = llm.complete([ChatMessage.user(f"q{n}")], operation="answer").text

    threads = [threading.Thread(target=ask, args=(n,)) for n in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert answers == {n: f"echo q{n}" for n in range(8)}
    assert sorted(c.body["messages"][-1]["content"] for c in server.calls) == [f"q{n}" for n in range(8)]
    assert all(c.method == "POST" and c.path == "/v1/chat/completions" for c in server.calls)


def test_server_embeddings_are_deterministic(server: FakeLLMServer) -> None:
    with httpx.Client(base_url=server.base_url, trust_env=False) as client:
        one = client.post("/embeddings", json={"model": "emb", "input": ["tea", "coffee"]}).json()
        again = client.post("/embeddings", json={"model": "emb", "input": "tea"}).json()
        wide = client.post("/embeddings", json={"model": "emb", "input": "tea", "dimensions": 16}).json()
        packed = client.post("/embeddings", json={"model": "emb", "input": "tea", "encoding_format": "base64"}).json()

    assert [d["index"] for d in one["data"]] == [0, 1]
    tea, coffee = (d["embedding"] for d in one["data"])
    assert len(tea) == 8 and tea != coffee
    assert again["data"][0]["embedding"] == tea == fake_embedding("tea")
    assert sum(x * x for x in tea) == pytest.approx(1.0)
    assert len(wide["data"][0]["embedding"]) == 16
    unpacked = struct.unpack("<8f", base64.b64decode(packed["data"][0]["embedding"]))
    assert unpacked == pytest.approx(tea, abs=1e-6)
    assert one["usage"] == {"prompt_tokens": 2, "total_tokens": 2}
    assert one["model"] == "emb"


def test_server_embedding_faults(server: FakeLLMServer) -> None:
    server.script_embeddings(Fault.status(429, retry_after=2), Fault.malformed_json())
    with httpx.Client(base_url=server.base_url, trust_env=False) as client:
        limited = client.post("/embeddings", json={"model": "emb", "input": "x"})
        broken = client.post("/embeddings", json={"model": "emb", "input": "x"})
        fine = client.post("/embeddings", json={"model": "emb", "input": "x"})
    assert (limited.status_code, limited.headers["retry-after"]) == (429, "2")
    with pytest.raises(ValueError):
        broken.json()
    assert fine.status_code == 200
    assert server.pending == 0


def test_server_refuses_what_real_apis_refuse(server: FakeLLMServer) -> None:
    with httpx.Client(base_url=server.url, trust_env=False) as client:
        no_key = client.post("/v1/messages", json={"model": "c", "max_tokens": 5, "messages": [{"role": "user"}]})
        system_turn = client.post(
            "/v1/messages",
            headers={"x-api-key": "k", "anthropic-version": "2023-06-01"},
            json={"model": "c", "max_tokens": 5, "messages": [{"role": "system", "content": "x"}]},
        )
        no_messages = client.post("/v1/chat/completions", json={"model": "m"})
        unknown = client.post("/v1/nope", json={})
    assert no_key.status_code == system_turn.status_code == no_messages.status_code == 400
    assert system_turn.json()["error"]["type"] == "invalid_request_error"
    assert unknown.status_code == 404
    assert server.pending == 0 and len(server.calls) == 4


def test_server_close_does_not_wait_for_sleeping_handlers() -> None:
    server = FakeLLMServer(default=Fault.slow(60)).start()
    errors: list[BaseException] = []

    def call() -> None:
        try:
            httpx.post(
                f"{server.base_url}/chat/completions",
                json={"model": "m", "messages": [{}]},
                timeout=5,
                trust_env=False,
            )
        except httpx.HTTPError as error:
            errors.append(error)

    thread = threading.Thread(target=call)
    thread.start()
    while not server.calls:
        time.sleep(0.01)
    started = time.monotonic()
    server.close()
    assert time.monotonic() - started < 1.0
    thread.join(timeout=5)
    assert not thread.is_alive() and errors  # the client saw the connection end, not a hang


def test_server_refuses_to_report_a_port_when_stopped() -> None:
    with pytest.raises(RuntimeError, match="not running"):
        _ = FakeLLMServer().base_url


# ---- ScriptedLLM ------------------------------------------------------------------------------------------------


def test_scripted_llm_replays_and_records() -> None:
    usage: list[UsageEvent] = []
    llm = ScriptedLLM(Facts.model_validate(GOOD), "plain", on_usage=usage.append)
    structured = llm.complete(QUESTION, operation="extract_facts", schema=Facts)
    plain = llm.complete([ChatMessage.user("hi")], operation="chat", temperature=0.3)

    assert structured.parsed == Facts.model_validate(GOOD)
    assert plain.text == "plain"
    first, second = llm.calls
    assert first.schema is Facts and first.messages == tuple(QUESTION)
    assert second.schema is None and second.temperature == 0.3
    assert [e.operation for e in usage] == ["extract_facts", "chat"]
    assert llm.pending == 0


def test_scripted_llm_acts_out_faults_without_sleeping() -> None:
    llm = ScriptedLLM(Fault.status(429, retry_after=30), Fault.status(500), Fault.drop(), "done", max_retries=3)
    started = time.monotonic()
    assert llm.complete(QUESTION, operation="answer").text == "done"
    assert time.monotonic() - started < 0.5
    assert llm.sleeps[0] == 30 and len(llm.sleeps) == 3
    assert len(llm.calls) == 4


def test_scripted_llm_raises_scripted_exceptions_and_timeouts() -> None:
    llm = ScriptedLLM(ProviderError("boom"), Fault.slow(60), Fault.slow(60), max_retries=1, timeout=1.0)
    with pytest.raises(ProviderError, match="boom"):
        llm.complete(QUESTION, operation="answer")
    with pytest.raises(ProviderTimeout):
        llm.complete(QUESTION, operation="answer")


def test_scripted_llm_streams_word_by_word_and_repairs() -> None:
    llm = ScriptedLLM("a b c", "not json", json.dumps(GOOD))
    assert list(llm.stream(QUESTION, operation="reply")) == ["a ", "b ", "c"]
    assert llm.complete(QUESTION, operation="extract_facts", schema=Facts).parsed == Facts.model_validate(GOOD)


def test_scripted_llm_complains_when_the_script_runs_out() -> None:
    llm = ScriptedLLM()
    with pytest.raises(AssertionError, match="no reply left"):
        llm.complete(QUESTION, operation="answer")
    assert ScriptedLLM(default="again").complete(QUESTION, operation="answer").text == "again"
    echo = ScriptedLLM(responder=lambda messages: messages[-1].content)
    assert echo.complete(QUESTION, operation="answer").text == QUESTION[-1].content


# ---- make_llm ---------------------------------------------------------------------------------------------------


def test_make_llm_builds_each_provider() -> None:
    assert make_llm(None) is None
    assert make_llm("none") is None
    openai = make_llm("openai", api_key="sk", model="gpt")
    ollama = make_llm("Ollama", model="llama3.2")
    claude = make_llm("anthropic", api_key="k", model="claude")
    local = make_llm("openai", base_url="http://127.0.0.1:8000/v1", model="qwen")
    assert isinstance(openai, OpenAICompatibleLLM) and openai.base_url == "https://api.openai.com/v1"
    assert isinstance(ollama, OpenAICompatibleLLM) and ollama.base_url == "http://localhost:11434/v1"
    assert isinstance(claude, AnthropicLLM) and claude.base_url == "https://api.anthropic.com"
    assert isinstance(local, OpenAICompatibleLLM) and local.api_key is None


def test_make_llm_passes_settings_through(server: FakeLLMServer, http_client: httpx.Client) -> None:
    usage: list[UsageEvent] = []
    llm = make_llm(
        "ollama",
        base_url=server.base_url,
        model="llama",
        timeout=0.5,
        on_usage=usage.append,
        http_client=http_client,
        backoff_base=0.01,
    )
    assert llm is not None
    with llm:
        assert llm.complete(QUESTION, operation="answer").text == "ok"
    assert llm.timeout == 0.5 and usage[0].model == "llama"


@pytest.mark.parametrize(
    ("provider", "options", "message"),
    [
        ("gemini", {"model": "m"}, "unknown LLM provider"),
        ("openai", {"api_key": "sk"}, "MEMLANE_LLM_MODEL"),
        ("openai", {"model": "gpt"}, "MEMLANE_LLM_API_KEY"),
        ("anthropic", {"model": "claude"}, "MEMLANE_LLM_API_KEY"),
    ],
)
def test_make_llm_config_errors(provider: str, options: dict[str, Any], message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        make_llm(provider, **options)


# ---- JSON extraction ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('{"a": 1}', {"a": 1}),
        ("  \ufeff[1, 2]\n", [1, 2]),
        ('```json\n{"a": 1}\n```', {"a": 1}),
        ('```JSON\n{"a": 1}\n```\nAnything else?', {"a": 1}),
        ('```\n{"a": 1}', {"a": 1}),  # fence cut off by max_tokens
        ('Result: {"a": "}"} done', {"a": "}"}),  # brace inside a string
        ('Result: {"a": "say \\"{\\"", "b": [1, {"c": 2}]} trailing', {"a": 'say "{"', "b": [1, {"c": 2}]}),
        ('Use {braces} carefully. {"a": 1}', {"a": 1}),  # a non-JSON block comes first
        ('<think>{"draft": true}</think>{"a": 1}', {"a": 1}),
        ('{"text": "line one\nline two"}', {"text": "line one\nline two"}),  # raw newline in a string
        ('Here: [1, 2] and {"a": 1}', [1, 2]),
        ('{"a": "ünïcødé ✓"}', {"a": "ünïcødé ✓"}),
    ],
)
def test_extract_json_finds_the_answer(text: str, expected: Any) -> None:
    assert extract_json(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "",
        "   ",
        "no json here",
        "{'a': 1}",  # a Python dict, not JSON
        '{"a": 1,}',  # trailing comma
        '{"a": ',
        "[" * 50_000,  # hostile nesting must not blow the stack
        "{" * 10_000 + "}" * 9_999,
    ],
    ids=["empty", "blank", "prose", "python-dict", "trailing-comma", "truncated", "deep-brackets", "unbalanced"],
)
def test_extract_json_rejects_non_json(text: str) -> None:
    started = time.monotonic()
    with pytest.raises(InvalidOutput, match="no valid JSON"):
        extract_json(text)
    assert time.monotonic() - started < 2.0


def test_parse_model_skips_candidates_that_do_not_validate() -> None:
    text = 'Example shape: {"x": 1}. Answer: {"summary": "s", "facts": []}'
    assert parse_model(text, Facts) == Facts(summary="s", facts=[])


def test_parse_model_does_not_accept_a_nested_object_as_the_answer() -> None:
    # The inner fact would validate as a Fact, but it is not the top-level answer.
    text = 'Answer: {"facts": [{"content": "x"}], "extra": 1'
    nested = '{"wrapper": {"content": "x"}}'
    with pytest.raises(InvalidOutput, match="does not match Fact"):
        parse_model(nested, Fact)
    with pytest.raises(InvalidOutput):
        parse_model(text, Facts)


def test_parse_model_reports_what_is_wrong() -> None:
    with pytest.raises(InvalidOutput) as caught:
        parse_model('{"summary": 3, "facts": [{}]}', Facts)
    message = str(caught.value)
    assert "summary: Input should be a valid string" in message
    assert "facts.0.content: Field required" in message
    assert caught.value.__notes__ == ['raw model output:\n{"summary": 3, "facts": [{}]}']


def test_long_raw_output_is_truncated_in_the_message_but_kept_in_the_note() -> None:
    raw = "x" * 5000
    with pytest.raises(InvalidOutput) as caught:
        extract_json(raw)
    assert len(str(caught.value)) < 400
    assert caught.value.__notes__[0].endswith(raw)


# ---- exports -----------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("module", [memlane.llm, memlane.testing])
def test_exports_are_complete_and_sorted(module: Any) -> None:
    names = module.__all__
    assert names == sorted(names)
    for name in names:
        value = getattr(module, name)
        if inspect.isclass(value) or inspect.isfunction(value):
            assert value.__module__.startswith(module.__name__), name
