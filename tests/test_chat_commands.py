"""Seed 000's `!chat` commands (memlane.ChatCommands), against a real loopback LLM stand-in and SQLite files."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from memlane import AsyncMemory, ChatCommands, InvalidInput, Memory, Reply, load_settings
from memlane.llm import LLMClient, make_llm
from memlane.testing import FakeLLMServer, Fault

CHAT = "/v1/chat/completions"
ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def server(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeLLMServer]:
    monkeypatch.setenv("NO_PROXY", "127.0.0.1,localhost")
    with FakeLLMServer(default="Nice to meet you, Alice!") as fake:
        yield fake


def _memory(path: Path) -> Memory:
    return Memory(path, agent="rosey", settings=load_settings(worker="none", embedder="none"), llm=None)


def _llm(server: FakeLLMServer) -> LLMClient:
    return make_llm("openai", base_url=server.base_url, model="fake-gpt", timeout=5, max_retries=0)


def run(commands: ChatCommands, channel: str, user: str, text: str, name: str | None = None) -> str | None:
    named = {} if name is None else {"name": name}  # the speaker's display name, when the platform has one
    reply = asyncio.run(commands.handle(channel, user, text, **named))
    assert reply is None or isinstance(reply, Reply)
    return None if reply is None else reply.text


def test_the_seed_conversation(tmp_path: Path, server: FakeLLMServer) -> None:
    mem = _memory(tmp_path / "bot.db")
    bot = ChatCommands(mem, _llm(server))
    assert run(bot, "#general", "alice", "hello everyone") is None  # not for us
    assert run(bot, "#general", "alice", "!chatter") is None
    assert run(bot, "#general", "alice", "!chat My name is Alice and I love programming") == (
        "🤖 Nice to meet you, Alice!"
    )
    [request] = server.calls_to(CHAT)
    sent = request.body["messages"]
    assert sent[0]["role"] == "system" and sent[-1]["content"] == "alice: My name is Alice and I love programming"
    assert [m.role for m in mem.history("#general")] == ["user", "assistant"]  # both turns stored
    assert run(bot, "#general", "alice", "!chat remember Alice prefers Python and works on AI projects") == (
        "💾 I'll remember that!"
    )
    assert run(bot, "#general", "alice", "!chat recall Alice") == (
        "💭 Here's what I remember:\n• Alice prefers Python and works on AI projects"
    )
    # What she said of herself was kept as soon as she said it (for the context; `recall` lists what was
    # remembered in the channel).
    assert {"Alice loves programming", "The user's name is Alice"} <= {f.content for f in mem.facts("alice")}
    assert run(bot, "#general", "alice", "!chat recall submarines") == "🤔 I don't recall anything about 'submarines'"
    server.script("Your name is Alice!")
    assert run(bot, "#general", "alice", "!chat What was my name again?") == "🤖 Your name is Alice!"
    system = server.calls_to(CHAT)[-1].body["messages"][0]["content"]
    assert "Alice prefers Python" in system  # the remembered fact is in the model's context
    assert run(bot, "#general", "alice", "!chat reset") == "🔄 Conversation reset! (4 messages cleared)"
    assert mem.history("#general") == [] and mem.facts(user="alice")  # facts stay
    assert run(bot, "#general", "alice", "!chat forget") == "🗑️ Memories cleared!"
    assert mem.facts(user="alice") == []


def test_usage_replies_and_subcommands_need_their_argument(tmp_path: Path) -> None:
    bot = ChatCommands(_memory(tmp_path / "bot.db"), None)
    assert run(bot, "c", "u", "!chat") == "Usage: !chat <message>"
    assert run(bot, "c", "u", "!chat remember") == "Usage: !chat remember <fact>"
    assert run(bot, "c", "u", "!chat recall   ") == "Usage: !chat recall <topic>"
    assert run(bot, "c", "u", "!chat hello").startswith("🤖 No language model is configured")
    assert run(bot, "c", "u", "!chat remember a\x00b").startswith("⚠️ ")  # refused input: a short reply


def test_llm_errors_are_a_short_reply_and_nothing_is_stored(tmp_path: Path, server: FakeLLMServer) -> None:
    mem = _memory(tmp_path / "bot.db")
    bot = ChatCommands(mem, _llm(server))
    server.default = Fault.status(400)
    reply = run(bot, "c", "alice", "!chat hello?")
    assert reply is not None and reply.startswith("⚠️ AI error:") and "\n" not in reply
    assert mem.history("c") == []


def test_one_users_private_facts_never_reach_another(tmp_path: Path) -> None:
    bot = ChatCommands(_memory(tmp_path / "bot.db"), None)
    run(bot, "#general", "bob", "!chat remember my locker code is 4821")
    assert run(bot, "#general", "alice", "!chat recall locker code") == "🤔 I don't recall anything about 'locker code'"
    assert run(bot, "#general", "alice", "!chat forget") == "🗑️ Memories cleared!"
    assert "4821" in run(bot, "#general", "bob", "!chat recall locker")  # bob's fact survived alice's forget


def test_persona_per_channel_templates_and_restart(tmp_path: Path, server: FakeLLMServer) -> None:
    path = tmp_path / "bot.db"
    templates = {"remembered": "Noted: {fact}", "reset": "Cleared {count}."}
    bot = ChatCommands(_memory(path), _llm(server), prefix="!rosey", templates=templates)
    assert run(bot, "#pirates", "al", "!rosey persona pirate") == "🎭 Persona set to pirate."
    assert run(bot, "#pirates", "al", "!rosey persona ninja").startswith("Unknown persona 'ninja'")
    assert run(bot, "#pirates", "al", "!rosey remember the ship is red") == "Noted: the ship is red"
    run(bot, "#pirates", "al", "!rosey ahoy")
    assert "pirate" in server.calls_to(CHAT)[-1].body["messages"][0]["content"]
    run(bot, "#general", "al", "!rosey hi")
    assert "pirate" not in server.calls_to(CHAT)[-1].body["messages"][0]["content"]
    # a new process: the same file, a new handler over an AsyncMemory
    again = ChatCommands(
        AsyncMemory(path, agent="rosey", settings=load_settings(worker="none", embedder="none"), llm=None),
        _llm(server),
        prefix="!rosey",
    )
    assert run(again, "#pirates", "al", "!rosey persona").startswith("🎭 Persona: pirate")
    assert "the ship is red" in run(again, "#pirates", "al", "!rosey recall ship")
    assert run(again, "#pirates", "al", "!rosey reset") == "🔄 Conversation reset! (2 messages cleared)"
    with pytest.raises(InvalidInput):
        ChatCommands(_memory(path), None, templates={"nope": "x"})


def test_the_example_bot_runs_on_stdin(tmp_path: Path) -> None:
    lines = "alice: !chat remember I like tea\nalice: !chat recall tea\nbob: !chat recall tea\nalice: hi all\n"
    result = subprocess.run(
        [sys.executable, str(ROOT / "examples" / "chat_bot.py"), "--db", str(tmp_path / "ex.db")],
        input=lines,
        capture_output=True,
        text=True,
        timeout=120,
        env={  # the code under test, where the suite is pointed at a source tree
            "PATH": "/usr/bin:/bin",
            "MEMLANE_HOME": str(tmp_path),
            "MEMLANE_EMBEDDER": "none",
            **{k: v for k, v in os.environ.items() if k == "PYTHONPATH"},
        },
        check=True,
    )
    assert result.stdout.splitlines() == [
        "bot: 💾 I'll remember that!",
        "bot: 💭 Here's what I remember:",
        "bot: • Alice likes tea",  # in the third person: it reads right in any prompt
        "bot: 🤔 I don't recall anything about 'tea'",
    ]


# -- issue 37: who said what, recall by topic within the channel, help, no LLM ----------------------------
def test_the_model_sees_who_said_each_earlier_turn_in_a_group_channel(tmp_path: Path, server: FakeLLMServer) -> None:
    mem = _memory(tmp_path / "bot.db")
    bot = ChatCommands(mem, _llm(server))
    server.script("Noted!", "Noted!", "Alice does.")
    run(bot, "#pets", "U1", "!chat I love dogs", name="Alice")
    run(bot, "#pets", "U2", "!chat I prefer cats", name="Bob")
    assert run(bot, "#pets", "U3", "!chat who loves dogs?", name="Carol") == "🤖 Alice does."
    sent = [(m["role"], m["content"]) for m in server.calls_to(CHAT)[-1].body["messages"][1:]]
    assert sent == [
        ("user", "Alice: I love dogs"),
        ("assistant", "Noted!"),
        ("user", "Bob: I prefer cats"),
        ("assistant", "Noted!"),
        ("user", "Carol: who loves dogs?"),
    ]
    stored = mem.history("#pets")
    assert [(m.user, m.name) for m in stored if m.role == "user"] == [("U1", "Alice"), ("U2", "Bob"), ("U3", "Carol")]


def test_recall_answers_from_the_channel_it_is_asked_in(tmp_path: Path) -> None:
    bot = ChatCommands(_memory(tmp_path / "bot.db"), None)
    run(bot, "#dogs", "alice", "!chat remember my dog Rex loves the beach")
    run(bot, "#work", "alice", "!chat remember the quarterly report is due Friday")
    assert run(bot, "#dogs", "alice", "!chat recall dog") == (
        "💭 Here's what I remember:\n• Alice's dog Rex loves the beach"  # in the third person
    )
    assert run(bot, "#work", "alice", "!chat recall dog") == "🤔 I don't recall anything about 'dog'"
    assert run(bot, "#dogs", "alice", "!chat recall report") == "🤔 I don't recall anything about 'report'"
    assert "quarterly report" in run(bot, "#work", "alice", "!chat recall report")


def test_recall_with_vectors_says_it_recalls_nothing_off_topic(tmp_path: Path) -> None:
    from memlane.embeddings import FakeEmbedder

    mem = Memory(
        tmp_path / "bot.db", agent="rosey", settings=load_settings(worker="none", embedder="none", min_score=0.15),
        embedder=FakeEmbedder(), llm=None,
    )  # fmt: skip
    bot = ChatCommands(mem, None)
    run(bot, "#general", "alice", "!chat remember Alice prefers green tea")
    assert "green tea" in run(bot, "#general", "alice", "!chat recall tea")
    assert run(bot, "#general", "alice", "!chat recall submarines") == "🤔 I don't recall anything about 'submarines'"


def test_help_lists_the_commands(tmp_path: Path) -> None:
    bot = ChatCommands(_memory(tmp_path / "bot.db"), None, prefix="!rosey")
    said = run(bot, "c", "u", "!rosey help")
    assert said is not None
    for command in ("!rosey <message>", "!rosey remember", "!rosey recall", "!rosey forget", "!rosey reset",
                    "!rosey persona", "!rosey help"):  # fmt: skip
        assert command in said, said


def test_without_an_llm_chat_messages_are_still_stored_so_reset_clears_them(tmp_path: Path) -> None:
    mem = _memory(tmp_path / "bot.db")
    bot = ChatCommands(mem, None)
    assert run(bot, "#general", "alice", "!chat hello there").startswith("🤖 No language model is configured")
    assert [(m.user, m.content) for m in mem.history("#general")] == [("alice", "hello there")]
    assert run(bot, "#general", "alice", "!chat reset") == "🔄 Conversation reset! (1 messages cleared)"
    assert mem.history("#general") == []


def test_forget_with_a_fact_forgets_that_fact_only(tmp_path: Path) -> None:
    # "!chat forget bees" used to clear every fact the user had given in the channel, the word ignored.
    mem = _memory(tmp_path / "bot.db")
    bot = ChatCommands(mem, None)
    run(bot, "#general", "alice", "!chat remember I keep bees on my roof")
    run(bot, "#general", "alice", "!chat remember my favourite tea is oolong")
    run(bot, "#general", "bob", "!chat remember I keep bees too")
    assert run(bot, "#general", "alice", "!chat forget submarines") == (
        "🤔 I have no fact of yours that says 'submarines' (!chat recall <topic> shows what I keep)"
    )
    assert len(mem.facts(user="alice")) == 2  # nothing lost to a word that matches nothing
    assert run(bot, "#general", "alice", "!chat forget that I keep bees on my roof") == (
        "🗑️ Forgotten: Alice keeps bees on their roof"
    )
    assert [f.content for f in mem.facts(user="alice")] == ["Alice's favourite tea is oolong"]
    assert "Bob keeps bees" in run(bot, "#general", "bob", "!chat recall bees")  # only the speaker's own facts
    assert run(bot, "#general", "alice", "!chat forget") == "🗑️ Memories cleared!"
    assert mem.facts(user="alice") == []
