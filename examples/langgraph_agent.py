"""A LangGraph agent with memlane as its long-term store: what a user asks it to remember outlives the run.

    python examples/langgraph_agent.py                  # a loopback model stand-in answers: no network, no key
    python examples/langgraph_agent.py --base-url http://localhost:11434/v1 --model llama3.2   # a real model

The graph has two nodes. ``remember`` stores a "remember ..." line in the store (``MemlaneStore``: the items
are one memlane user's facts); ``answer`` searches the store with the question (memlane's recall ranks the
facts) and asks the model with what it found in the system prompt. The store is a SQLite file, so a second
run of the script still knows what the first was told. Needs ``pip install 'memlane[langgraph]'``. Without
``--base-url`` the model is memlane's loopback stand-in (``memlane.testing.FakeLLMServer``), which answers
by quoting the memories it was given.
"""

from __future__ import annotations

import argparse
import contextlib
import os
from collections.abc import Iterator
from typing import Any, TypedDict

from langgraph.graph import END, START, StateGraph
from langgraph.store.base import BaseStore

import memlane
from memlane.integrations.langgraph import MemlaneStore
from memlane.llm import ChatMessage, LLMClient, OpenAICompatibleLLM
from memlane.testing import FakeLLMServer

LINES = ["remember I am vegetarian", "remember my sister Ana lives in Porto", "Plan a dinner when I visit Ana"]


class State(TypedDict):
    user: str
    text: str
    reply: str


def build(llm: LLMClient) -> StateGraph:
    def route(state: State) -> str:
        return "remember" if state["text"].lower().startswith("remember ") else "answer"

    def remember(state: State, *, store: BaseStore) -> dict[str, Any]:
        fact = state["text"][len("remember ") :].strip()
        namespace = ("memories", state["user"])
        store.put(namespace, f"m{len(store.search(namespace, limit=1000)) + 1}", {"text": fact})
        return {"reply": f"Noted: {fact}"}

    def answer(state: State, *, store: BaseStore) -> dict[str, Any]:
        hits = store.search(("memories", state["user"]), query=state["text"], limit=5)
        known = "\n".join(f"- {hit.value['text']}" for hit in hits) or "- nothing yet"
        system = f"You help {state['user']}. What you remember about them:\n{known}"
        reply = llm.complete([ChatMessage.system(system), ChatMessage.user(state["text"])], operation="answer")
        return {"reply": reply.text}

    graph = StateGraph(State)
    graph.add_node("remember", remember)
    graph.add_node("answer", answer)
    graph.add_conditional_edges(START, route, ["remember", "answer"])
    graph.add_edge("remember", END)
    graph.add_edge("answer", END)
    return graph


def quote_memories(body: dict[str, Any]) -> str:
    """The stand-in model: answers by quoting the memories in its system prompt."""
    system = body["messages"][0]["content"]
    return "Keeping in mind: " + "; ".join(line[2:] for line in system.splitlines() if line.startswith("- "))


@contextlib.contextmanager
def model(base_url: str | None, name: str) -> Iterator[LLMClient]:
    if base_url:
        with OpenAICompatibleLLM(base_url, name, os.environ.get("OPENAI_API_KEY")) as llm:
            yield llm
        return
    os.environ.setdefault("NO_PROXY", "127.0.0.1,localhost")
    with FakeLLMServer(responder=quote_memories) as server, OpenAICompatibleLLM(server.base_url, name) as llm:
        yield llm


def main() -> None:
    parser = argparse.ArgumentParser(description="A LangGraph agent with memlane as its store.")
    parser.add_argument("--db", default="langgraph_agent.db", help="SQLite file of the agent's memory")
    parser.add_argument("--base-url", help="an OpenAI-compatible server (default: a loopback stand-in)")
    parser.add_argument("--model", default="gpt-4o-mini", help="the model's name on that server")
    parser.add_argument("--user", default="alice")
    args = parser.parse_args()
    with (
        memlane.Memory(args.db, agent="assistant", settings=memlane.load_settings(worker="none")) as mem,
        model(args.base_url, args.model) as llm,
    ):
        app = build(llm).compile(store=MemlaneStore(mem, user=args.user))
        for text in LINES:
            state = app.invoke({"user": args.user, "text": text, "reply": ""})
            print(f"{args.user}: {text}\nagent: {state['reply']}")
        print(f"facts memlane keeps for {args.user}: {[fact.content for fact in mem.facts(args.user)]}")


if __name__ == "__main__":
    main()
