"""An OpenAI Agents SDK agent whose session lives in memlane: each turn is a message of a memlane thread.

    python examples/agents_session.py                   # a loopback model stand-in answers: no network, no key
    python examples/agents_session.py --base-url http://localhost:11434/v1 --model llama3.2   # a real model

The session (``MemlaneSession``) gives the agent the conversation so far on every run, so the second question
can be answered from the first; and because the turns are a memlane thread, they are recalled, summarised and
turned into facts like any other conversation (the last lines show a recall). Needs
``pip install 'memlane[openai-agents]'``. Without ``--base-url`` the model is memlane's loopback stand-in
(``memlane.testing.FakeLLMServer``), which answers with scripted lines and records what it was sent.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
from collections.abc import Iterator

from agents import Agent, OpenAIChatCompletionsModel, Runner, set_tracing_disabled
from openai import AsyncOpenAI

import memlane
from memlane.integrations.openai_agents import MemlaneSession
from memlane.testing import FakeLLMServer

QUESTIONS = ["Where is my order 7731?", "Which order did I ask about?"]


@contextlib.contextmanager
def model_url(base_url: str | None) -> Iterator[tuple[str, FakeLLMServer | None]]:
    """The given server, or a stand-in on 127.0.0.1 scripted with two answers."""
    if base_url:
        yield base_url, None
        return
    os.environ.setdefault("NO_PROXY", "127.0.0.1,localhost")
    with FakeLLMServer(default="I can only answer from what you told me.") as server:
        server.script("Order 7731 ships tomorrow.", "You asked about order 7731.")
        yield server.base_url, server


async def run(db: str, base_url: str, model: str) -> None:
    set_tracing_disabled(True)  # no trace export: nothing leaves this machine
    client = AsyncOpenAI(base_url=base_url, api_key=os.environ.get("OPENAI_API_KEY", "not-needed"))
    agent = Agent(
        name="support",
        instructions="Answer briefly.",
        model=OpenAIChatCompletionsModel(model=model, openai_client=client),
    )
    with memlane.Memory(db, agent="support", settings=memlane.load_settings(worker="none")) as mem:
        session = MemlaneSession("support-42", mem, user="alice")
        for question in QUESTIONS:
            result = await Runner.run(agent, question, session=session)
            print(f"alice: {question}\nagent: {result.final_output}")
        print(f"thread support-42 holds {len(mem.history('support-42'))} messages")
        for hit in mem.recall("order 7731", user="alice", limit=2):
            print(f"recalled: {hit.text}")


def main() -> None:
    parser = argparse.ArgumentParser(description="An Agents SDK agent with its session in memlane.")
    parser.add_argument("--db", default="agents_session.db", help="SQLite file of the agent's memory")
    parser.add_argument("--base-url", help="an OpenAI-compatible server (default: a loopback stand-in)")
    parser.add_argument("--model", default="gpt-4o-mini", help="the model's name on that server")
    args = parser.parse_args()
    with model_url(args.base_url) as (base_url, server):
        asyncio.run(run(args.db, base_url, args.model))
        if server is not None:
            sent = server.calls_to("/v1/chat/completions")[-1].body["messages"]
            print(
                f"the model's second request held {len(sent)} messages: instructions, the session so far, the question"
            )


if __name__ == "__main__":
    main()
