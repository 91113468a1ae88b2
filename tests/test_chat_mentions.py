"""Seed 003's group-chat bot addressed by mention (memlane.chat.MentionCommands): "@bot remember that …",
"@bot forget that …", "@bot what do you know about @alice", recognised by rules; platform ids stored,
display names only in what people and the model read. A real SQLite file and a loopback LLM stand-in."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest

from memlane import InvalidInput, Memory, load_settings
from memlane.chat import MentionCommands
from memlane.llm import LLMClient, make_llm
from memlane.testing import FakeLLMServer

CHAT = "/v1/chat/completions"
NAMES = {"U1": "Alice", "U2": "Bob", "U3": "Carol"}


@pytest.fixture
def server(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeLLMServer]:
    monkeypatch.setenv("NO_PROXY", "127.0.0.1,localhost")
    with FakeLLMServer(default="Alice does.") as fake:
        yield fake


@pytest.fixture
def mem(tmp_path: Path) -> Iterator[Memory]:
    with Memory(tmp_path / "guild.db", agent="guild-1", settings=load_settings(worker="none", embedder="none")) as m:
        yield m


def _llm(server: FakeLLMServer) -> LLMClient:
    return make_llm("openai", base_url=server.base_url, model="fake-gpt", timeout=5, max_retries=0)


def say(bot: MentionCommands, user: str, text: str, names: Mapping[str, str] = NAMES) -> str | None:
    reply = asyncio.run(bot.handle("#general", user, text, name=NAMES.get(user), names=names))
    return None if reply is None else reply.text


def test_remember_forget_and_what_do_you_know_about_by_mention(mem: Memory) -> None:
    bot = MentionCommands(mem, None, addressed_as=("@bot", "<@B1>"))
    assert say(bot, "U1", "hello everyone") is None  # not for the bot
    assert say(bot, "U1", "write to bob@bot.example") is None  # an address, not a mention
    assert say(bot, "U1", "<@B1> remember that <@U2>'s birthday is in May") == (
        "💾 I'll remember that Bob's birthday is in May"
    )
    assert say(bot, "U1", "@bot remember that Bob plays the trumpet") == "💾 I'll remember that Bob plays the trumpet"
    [trumpet, birthday] = sorted(mem.facts(user="U1"), key=lambda f: f.content)[::-1]
    assert (birthday.content, birthday.owner, birthday.subject) == ("<@U2>'s birthday is in May", "U1", "U2")
    assert (trumpet.subject, trumpet.visibility) == ("U2", "shared")  # the name it contains; said in public
    mem.remember("Bob's locker code is 4821", user="U2", subject="U2")  # Bob's private fact, not said here

    about = say(bot, "U3", "@bot what do you know about <@U2>?")
    assert about is not None and about.splitlines()[0] == "💭 What I know about Bob:"
    assert set(about.splitlines()[1:]) == {"• Bob's birthday is in May", "• Bob plays the trumpet"}
    assert "U2" not in about and "4821" not in about  # display names only; Bob's private fact stays his
    assert say(bot, "U3", "@bot what do you know about @bob") == about  # a handle: the display name
    mine = say(bot, "U2", "Hey @bot, what do you remember about me?")
    assert mine is not None and "• Bob's locker code is 4821" in mine
    assert say(bot, "U3", "@bot what do you know about @dave") == "🤔 I don't know anything about dave yet."

    # only the speaker's own facts can be forgotten, with feedback either way
    assert say(bot, "U3", "@bot forget that Bob's birthday is in May") == (
        "🤷 I have nothing from you that says 'Bob's birthday is in May'."
    )
    assert say(bot, "U1", "@bot forget that <@U2>'s birthday is in May") == "🗑️ Forgot: Bob's birthday is in May"
    assert [f.content for f in mem.facts(user="U1")] == ["Bob plays the trumpet"]
    assert say(bot, "U1", "@bot forget about the weather") == "🤷 I have nothing from you that says 'the weather'."
    assert say(bot, "U1", "@bot how are you?").startswith("No language model is configured")
    assert say(bot, "U1", "@bot remember that") is not None  # nothing to remember: a hint, not an error


def test_the_model_sees_display_names_and_the_store_keeps_ids(mem: Memory, server: FakeLLMServer) -> None:
    bot = MentionCommands(mem, _llm(server), addressed_as=("@bot",), record_all=True)
    say(bot, "U1", "@bot remember that <@U2>'s birthday is in May")
    assert say(bot, "U1", "I love dogs") is None  # recorded, not answered
    assert say(bot, "U2", "I prefer cats, sorry <@U1>") is None
    assert say(bot, "U3", "@bot who loves dogs? and when is <@U2>'s birthday?") == "Alice does."
    sent = server.calls_to(CHAT)[-1].body["messages"]
    texts = [m["content"] for m in sent]
    assert [(m["role"], m["content"]) for m in sent[1:]] == [
        ("user", "Alice: I love dogs"),
        ("user", "Bob: I prefer cats, sorry Alice"),
        ("user", "Carol: @bot who loves dogs? and when is Bob's birthday?"),
    ]
    assert "Bob's birthday is in May" in texts[0] and "(about Bob)" in texts[0] and "Alice" in texts[0]
    assert not any("U1" in t or "U2" in t or "U3" in t for t in texts)  # no platform id reaches the model
    stored = mem.history("#general")
    assert [(m.user, m.name) for m in stored] == [("U1", "Alice"), ("U2", "Bob"), ("U3", "Carol"), (None, None)]
    assert stored[1].content == "I prefer cats, sorry <@U1>"  # the platform's text, ids and all


def test_bad_setup_is_refused(mem: Memory) -> None:
    with pytest.raises(InvalidInput):
        MentionCommands(mem, None, addressed_as=())
    with pytest.raises(InvalidInput):
        MentionCommands(mem, None, visibility="public")
    with pytest.raises(InvalidInput):
        MentionCommands(mem, None, templates={"nope": "x"})


def test_the_docs_example_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    doc = (Path(__file__).resolve().parents[1] / "docs" / "integrations.md").read_text(encoding="utf-8")
    [code] = [block for block in re.findall(r"```python\n(.*?)```", doc, re.DOTALL) if "MentionCommands(" in block]
    monkeypatch.chdir(tmp_path)
    scope: dict[str, Any] = {}
    exec(compile(code, "docs/integrations.md", "exec"), scope)

    async def conversation() -> list[str | None]:
        on_message = scope["on_message"]
        said = [
            await on_message("#general", "U1", "Alice", "<@B1> remember that <@U2> likes jazz", {"U2": "Bob"}),
            await on_message("#general", "U3", "Carol", "@rosey what do you know about <@U2>?", {"U2": "Bob"}),
            await on_message("#general", "U2", "Bob", "just chatting", {}),
        ]
        await scope["memory"].close()
        return said

    assert asyncio.run(conversation()) == [
        "💾 I'll remember that Bob likes jazz",
        "💭 What I know about Bob:\n• Bob likes jazz",
        None,
    ]
