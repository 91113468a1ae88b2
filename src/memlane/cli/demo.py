"""``memlane demo``: a newcomer's first command, offline and instant.

It loads the bundled sample (``demo_conversation.json``: a three-friend group chat with their bot over five
days, a tool call, two private chats and a few remembered facts) into a fresh store, then shows what memlane
does with it: the stored threads, ranked recall, a token-budgeted context, and the isolation rule.
"""

from __future__ import annotations

import json
import shlex
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, time, timedelta
from importlib import resources
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.panel import Panel
from rich.text import Text

from memlane import Context, Fact, Hit, Memory, Thread
from memlane.errors import Conflict

from .render import console, context_document, context_view, emit_json, facts_table, hits_table, threads_table
from .state import get_state

__all__ = ["DEMO_MARK", "demo", "load_demo", "load_demo_data"]

#: Metadata key on every demo thread and fact: lets ``demo`` reload its own store, and nothing else.
DEMO_MARK = "memlane_demo"
#: Longest recalled text the tour prints (the tool result is a long JSON document).
_CLIP = 160


def load_demo_data() -> dict[str, Any]:
    """The bundled sample conversation."""
    text = resources.files("memlane.cli").joinpath("demo_conversation.json").read_text(encoding="utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


def _stamp(first_day: datetime, item: dict[str, Any]) -> datetime:
    """Day 1 of the sample is ``first_day``; ``time`` is the hour of that day (UTC)."""
    hour, minute = (int(part) for part in str(item["time"]).split(":"))
    return first_day + timedelta(days=int(item["day"]) - 1, hours=hour, minutes=minute)


def _frozen(at: datetime) -> Callable[[], datetime]:
    """A clock stopped at ``at``: the sample's records get the sample's dates."""
    return lambda: at


def _clear_previous_demo(mem: Memory) -> None:
    """Remove an earlier demo from this agent; refuse to touch a store that holds anything else.

    Raises:
        Conflict: the agent already has memory that the demo did not write.
    """
    threads = mem.threads()
    facts = mem.facts(all_users=True, include_superseded=True)
    if not threads and not facts:
        return
    ours = {t.key for t in threads if t.metadata.get(DEMO_MARK)}
    # The demo's facts: those it remembered, and those its messages stated (learned as they were written).
    if len(ours) != len(threads) or not all(f.metadata.get(DEMO_MARK) or f.source_thread in ours for f in facts):
        raise Conflict(
            f"{mem.store.location} already holds memory of agent {mem.agent!r}; "
            "the demo needs a fresh store: give it a new --db path"
        )
    for thread in threads:
        mem.delete_thread(thread.key)
    for fact in facts:
        mem.forget(fact.id, purge=True)


def load_demo(mem: Memory, data: dict[str, Any], now: datetime) -> dict[str, int]:
    """Write the sample into ``mem``, its last day being the day before ``now``; returns what was loaded.

    Raises:
        Conflict: the agent already holds memory the demo did not write.
    """
    _clear_previous_demo(mem)
    today = datetime.combine(now.astimezone(UTC).date(), time(), tzinfo=UTC)
    first_day = today - timedelta(days=int(data["days"]))
    real_clock = mem.clock
    messages = 0
    try:
        for thread in data["threads"]:
            items = [
                {**{k: v for k, v in m.items() if k not in ("day", "time")}, "created_at": _stamp(first_day, m)}
                for m in thread["messages"]
            ]
            started = items[0]["created_at"]
            mem.clock = _frozen(started)  # the thread record dates from its first message
            meta = {DEMO_MARK: True, "title": thread["title"]}
            mem.set_thread(thread["key"], system_prompt=thread["system_prompt"], metadata=meta)
            messages += len(mem.add_messages(thread["key"], items))
        for fact in data["facts"]:
            learned = _stamp(first_day, fact)
            mem.clock = _frozen(learned)
            mem.remember(
                fact["content"],
                user=fact.get("user"),
                category=fact["category"],
                importance=fact["importance"],
                visibility=fact["visibility"],
                subject=fact.get("subject"),
                thread=fact.get("thread"),
                metadata={DEMO_MARK: True},
            )
    finally:
        mem.clock = real_clock
    # The facts the sample remembers, and those its messages state (memlane learns them as they are written).
    return {"threads": len(data["threads"]), "messages": messages, "facts": len(mem.facts(all_users=True))}


@dataclass(slots=True)
class Tour:
    """Everything the demo shows, computed before anything is printed."""

    location: str
    agent: str
    temporary: bool
    loaded: dict[str, int]
    threads: list[Thread]
    facts: list[Fact]
    questions: list[tuple[str, str, list[Hit]]]
    context: Context
    context_about: dict[str, Any]
    isolation: dict[str, Any]
    next_steps: list[str]


def _isolation(mem: Memory, plan: dict[str, Any], facts: list[Fact]) -> dict[str, Any]:
    owner, other, query = plan["owner"], plan["other"], plan["query"]
    private = next(f for f in facts if f.owner == owner and f.visibility == "private" and f.importance == 5)
    owner_hits = mem.recall(query, user=owner, limit=5)
    other_hits = mem.recall(query, user=other, limit=5)
    leaked = any(h.kind == "fact" and h.id == private.id for h in other_hits)
    return {
        "owner": owner,
        "other": other,
        "query": query,
        "private_fact": private,
        "owner_hits": owner_hits,
        "other_hits": other_hits,
        "leaked": leaked,
    }


def _next_steps(location: str, agent: str | None) -> list[str]:
    base = f"memlane --db {shlex.quote(location)}" + (f" --agent {shlex.quote(agent)}" if agent else "")
    return [
        f"{base} threads",
        f"{base} history lisbon-trip --limit 8",
        f'{base} recall "seafood dinner" --user bob',
        f'{base} context lisbon-trip --user alice --query "what should we pack?" --budget 600',
        f"{base} facts --all-users",
        f'{base} remember "Chen likes window seats too" --user chen --category preference',
        f"{base} --json db status",
        "memlane --help",
    ]


def run_tour(mem: Memory, *, temporary: bool, agent_option: str | None) -> Tour:
    """Load the sample into ``mem`` and compute every step of the tour."""
    data = load_demo_data()
    loaded = load_demo(mem, data, mem.clock())
    plan = data["tour"]
    questions = [(q["user"], q["query"], mem.recall(q["query"], user=q["user"], limit=5)) for q in plan["questions"]]
    ctx_plan = plan["context"]
    assembled = mem.context(
        ctx_plan["thread"], query=ctx_plan["query"], user=ctx_plan["user"], budget=int(ctx_plan["budget"])
    )
    facts = mem.facts(all_users=True)
    return Tour(
        location=mem.store.location,
        agent=mem.agent,
        temporary=temporary,
        loaded=loaded,
        threads=mem.threads(),
        facts=facts,
        questions=questions,
        context=assembled,
        context_about={k: ctx_plan[k] for k in ("thread", "user", "query")},
        isolation=_isolation(mem, plan["isolation"], facts),
        next_steps=_next_steps(mem.store.location, agent_option),
    )


def _show(tour: Tour) -> None:
    out = console()
    where = " (a new temporary directory; delete it when you are done)" if tour.temporary else ""
    loaded = tour.loaded
    out.print(
        Panel(
            Text.assemble(
                ("memlane demo", "bold"),
                f": a group chat of three friends planning a weekend in Lisbon with their bot, over five days.\n"
                f"Loaded {loaded['messages']} messages in {loaded['threads']} threads and {loaded['facts']} facts "
                f"for agent {tour.agent!r} into\n",
                (tour.location, "bold"),
                where,
            ),
            title="Welcome",
            title_align="left",
        )
    )
    out.rule("1. What is stored")
    out.print(threads_table(tour.threads))
    out.print(facts_table(tour.facts, title="Remembered facts (private ones are seen only by their owner)"))
    out.rule("2. Recall: ranked memories, limited to what the asking user may see")
    for user, query, hits in tour.questions:
        out.print(hits_table(hits, title=f"{user} asks: {query}", max_chars=_CLIP))
    about = tour.context_about
    out.rule(f"3. Context for {about['user']}'s next turn in {about['thread']!r}, budget {tour.context.budget} tokens")
    out.print(Text(f"query: {about['query']}", style="dim"))
    for part in context_view(tour.context):
        out.print(part)
    iso = tour.isolation
    out.rule("4. Isolation: a user's private facts never reach another user")
    out.print(hits_table(iso["owner_hits"], title=f"{iso['owner']} recalls: {iso['query']}", max_chars=_CLIP))
    out.print(hits_table(iso["other_hits"], title=f"{iso['other']} recalls: {iso['query']}", max_chars=_CLIP))
    fact = iso["private_fact"]
    if iso["leaked"]:
        out.print(
            Text(f"✗ {iso['owner']}'s private fact #{fact.id} reached {iso['other']}: this is a bug.", "bold red")
        )
    else:
        out.print(
            Text(
                f"✓ {iso['owner']}'s private fact #{fact.id} is in {iso['owner']}'s results, "
                f"and absent from {iso['other']}'s.",
                style="bold green",
            )
        )
    out.rule("Next steps")
    for line in tour.next_steps:
        out.print(Text(f"  {line}"), soft_wrap=True)


def _document(tour: Tour) -> dict[str, Any]:
    iso = tour.isolation
    return {
        "db": tour.location,
        "agent": tour.agent,
        "temporary": tour.temporary,
        "loaded": tour.loaded,
        "threads": tour.threads,
        "facts": tour.facts,
        "recall": [{"user": u, "query": q, "hits": hits} for u, q, hits in tour.questions],
        "context": context_document(tour.context, **tour.context_about),
        "isolation": {**iso, "private_fact_id": iso["private_fact"].id},
        "next_steps": tour.next_steps,
    }


def demo(
    ctx: typer.Context,
    db: Annotated[
        str | None,
        typer.Option(
            "--db", metavar="PATH", help="Where to create the demo store (default: a new temporary directory)."
        ),
    ] = None,
) -> None:
    """Load a sample group chat into a fresh demo store and tour recall, context and isolation.

    Works offline, in a few seconds, with no API key. The store is kept so you can try the commands it suggests.

    Examples:

        memlane demo

        memlane demo --db demo.db
    """
    state = get_state(ctx)
    location = db or state.db
    temporary = location is None
    if location is None:
        location = str(Path(tempfile.mkdtemp(prefix="memlane-demo-")) / "demo.db")
    with state.open(location) as mem:
        tour = run_tour(mem, temporary=temporary, agent_option=state.agent)
    if state.json:
        emit_json(_document(tour))
    else:
        _show(tour)
