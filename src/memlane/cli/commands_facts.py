"""Memory commands: remember, facts, forget, memories, recall, context."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.console import Group
from rich.text import Text

from ..validation import check_metadata, check_optional_key, check_timestamp
from .render import context_document, context_view, facts_table, hits_table, memories_table, plural, show
from .state import get_state

__all__ = ["context", "facts", "forget", "memories", "recall", "remember"]


def remember(
    ctx: typer.Context,
    content: Annotated[str, typer.Argument(help="The fact to remember, in one sentence.")],
    user: Annotated[
        str | None, typer.Option("--user", "-u", help="Owner of the fact; omit for the agent's own memory.")
    ] = None,
    category: Annotated[
        str, typer.Option("--category", "-c", help="fact, preference, topic, hobby ... or your own identifier.")
    ] = "fact",
    importance: Annotated[int, typer.Option("--importance", "-i", help="1 (trivia) to 5 (critical).")] = 3,
    visibility: Annotated[
        str | None,
        typer.Option(
            "--visibility",
            help="private (only the owner) or shared (every user of the agent); default: the fact_visibility setting.",
        ),
    ] = None,
    subject: Annotated[str | None, typer.Option("--subject", "-s", help="Who or what the fact is about.")] = None,
    thread: Annotated[str | None, typer.Option("--thread", "-t", help="Thread the fact was learned in.")] = None,
) -> None:
    """Store a fact to recall later.

    Examples:

        memlane remember "Alice prefers Python" --user alice --category preference

        memlane remember "The team meets on Mondays" --visibility shared --user alice --importance 4
    """
    state = get_state(ctx)
    with state.open() as mem:
        fact = mem.remember(
            content,
            user=user,
            category=category,
            importance=importance,
            visibility=visibility,
            subject=subject,
            thread=thread,
        )
    owner = fact.owner if fact.owner is not None else "the agent"
    show(
        state.json,
        fact,
        Text(f"Remembered fact #{fact.id} ({fact.visibility}, owner {owner}, importance {fact.importance})."),
    )


def facts(
    ctx: typer.Context,
    user: Annotated[
        str | None,
        typer.Option("--user", "-u", help="Facts this user may see; omit for shared and agent-level facts only."),
    ] = None,
    subject: Annotated[str | None, typer.Option("--subject", "-s", help="Only facts about this subject.")] = None,
    category: Annotated[str | None, typer.Option("--category", "-c", help="Only facts of this category.")] = None,
    visibility: Annotated[str | None, typer.Option("--visibility", help="Only private or only shared facts.")] = None,
    thread: Annotated[str | None, typer.Option("--thread", "-t", help="Only facts learned in this thread.")] = None,
    all_users: Annotated[
        bool, typer.Option("--all-users", help="Every user's facts, private ones too (admin).")
    ] = False,
    limit: Annotated[int | None, typer.Option("--limit", "-l", help="At most N facts.")] = None,
) -> None:
    """List remembered facts, most important first.

    Examples:

        memlane facts --user alice

        memlane facts --all-users --category preference

        memlane facts --user alice --visibility shared --thread general
    """
    state = get_state(ctx)
    source = check_optional_key(thread, "--thread")
    with state.open(existing=True, reads_only=True) as mem:
        found = mem.facts(
            user,
            subject=subject,
            category=category,
            visibility=visibility,
            thread=source,
            all_users=all_users,
            limit=limit,
        )
    show(state.json, {"facts": found}, facts_table(found) if found else "No facts.")


def forget(
    ctx: typer.Context,
    fact_id: Annotated[int | None, typer.Argument(help="The fact to forget (see `memlane facts`).")] = None,
    all_: Annotated[
        bool, typer.Option("--all", help="Forget every fact the user owns (the agent's own without --user).")
    ] = False,
    user: Annotated[
        str | None, typer.Option("--user", "-u", help="Act as this user: only their own facts can be forgotten.")
    ] = None,
    subject: Annotated[
        str | None, typer.Option("--subject", "-s", help="With --all: only facts about this subject.")
    ] = None,
    category: Annotated[
        str | None, typer.Option("--category", "-c", help="With --all: only facts of this category.")
    ] = None,
    thread: Annotated[
        str | None, typer.Option("--thread", "-t", help="With --all: only facts learned in this thread.")
    ] = None,
    purge: Annotated[bool, typer.Option("--purge", help="Also erase the facts' change history.")] = False,
    matching: Annotated[
        str | None,
        typer.Option("--matching", "-m", metavar="TEXT", help="Forget the user's facts that say this."),
    ] = None,
) -> None:
    """Forget one fact by id, all of a user's facts with --all (narrowed by --subject, --category,
    --thread), or the user's facts that say TEXT with --matching.

    Examples:

        memlane forget 3 --user alice

        memlane forget --matching "Bob likes pizza" --user bob

        memlane forget --all --user alice

        memlane forget --all --user alice --category preference --thread general
    """
    if matching is not None:
        if fact_id is not None or all_:
            raise typer.BadParameter("give one of FACT_ID, --all or --matching")
        state = get_state(ctx)
        with state.open(existing=True) as mem:
            gone = mem.forget_matching(matching, user=user, purge=purge)
        lines = "\n".join(f"Forgot fact #{f.id}: {f.content}" for f in gone) or f"No fact matches {matching!r}."
        show(state.json, {"forgotten": len(gone), "facts": gone}, Text(lines))
        return
    if (fact_id is None) == (not all_):
        raise typer.BadParameter("give either a FACT_ID or --all, not both and not neither")
    if fact_id is not None and (subject, category, thread) != (None, None, None):
        raise typer.BadParameter("--subject, --category and --thread only narrow --all")
    # The core does not check these two filters; an empty one would silently match nothing.
    about = check_optional_key(subject, "--subject")
    source = check_optional_key(thread, "--thread")
    state = get_state(ctx)
    with state.open(existing=True) as mem:
        if fact_id is not None:
            fact = mem.forget(fact_id, user=user, purge=purge)
            show(state.json, {"forgotten": 1, "fact": fact}, Text(f"Forgot fact #{fact.id}: {fact.content}"))
            return
        count = mem.forget_all(user, subject=about, category=category, thread=source, purge=purge)
    whose = f"owned by {user}" if user is not None else "of the agent's own"
    filters = {"subject": about, "category": category, "thread": source}
    narrowed = ", ".join(f"{name} {value}" for name, value in filters.items() if value is not None)
    which = f" ({narrowed})" if narrowed else ""
    cleared = Text(
        f"Memories cleared: forgot {plural(count, 'fact')} {whose}{which}; other users' facts are untouched."
    )
    show(state.json, {"forgotten": count, "user": user, **filters}, cleared)


def memories(
    ctx: typer.Context,
    delete: Annotated[int | None, typer.Option("--delete", help="Delete this memory (its id).")] = None,
    purge: Annotated[bool, typer.Option("--purge", help="Delete every memory of the agent.")] = False,
    limit: Annotated[int | None, typer.Option("--limit", "-l", help="List at most N, newest first.")] = None,
) -> None:
    """List the agent's memories (made when a conversation ends), or delete one or all of them.

    Examples:

        memlane --agent support-bot memories

        memlane --agent support-bot memories --delete 12

        memlane --agent support-bot memories --purge
    """
    if delete is not None and purge:
        raise typer.BadParameter("give --delete ID or --purge, not both")
    state = get_state(ctx)
    with state.open(existing=True) as mem:
        if delete is not None or purge:
            count = mem.delete_memory(delete) if delete is not None else mem.purge_memories()
            what = f"memory #{delete}" if delete is not None else ("1 memory" if count == 1 else f"{count} memories")
            show(state.json, {"deleted": count}, Text(f"Deleted {what}."))
            return
        found = mem.list_memories(limit)
    show(state.json, {"memories": found}, memories_table(found) if found else Text("No memories yet."))


def recall(
    ctx: typer.Context,
    query: Annotated[str, typer.Argument(help="What to look for, in plain words.")],
    user: Annotated[
        str | None, typer.Option("--user", "-u", help="Search as this user (their threads and the facts they see).")
    ] = None,
    thread: Annotated[str | None, typer.Option("--thread", "-t", help="Only this thread's messages.")] = None,
    limit: Annotated[int, typer.Option("--limit", "-l", help="At most N hits.")] = 5,
    kinds: Annotated[
        list[str] | None,
        typer.Option("--kinds", help="Only these kinds: message, fact, summary (repeat, or separate by commas)."),
    ] = None,
    since: Annotated[
        str | None, typer.Option("--since", help="Only items created at or after this ISO-8601 time (naive = UTC).")
    ] = None,
    until: Annotated[
        str | None, typer.Option("--until", help="Only items created before this ISO-8601 time (naive = UTC).")
    ] = None,
    metadata: Annotated[
        str | None,
        typer.Option(
            "--metadata", help='Only items whose metadata holds these pairs, a JSON object: \'{"channel": "dev"}\'.'
        ),
    ] = None,
    min_score: Annotated[
        float | None,
        typer.Option(
            "--min-score",
            help="Leave out hits scoring below this, 0 to 1 (default: setting min_score, 0.08; 0 shows every hit).",
        ),
    ] = None,
) -> None:
    """Find the messages, facts and summaries most relevant to a query, ranked.

    Examples:

        memlane recall "what programming language does Alice prefer?" --user alice

        memlane --json recall python --limit 3 --metadata '{"source": "slack"}'

        memlane recall "trip plans" --user alice --kinds message,summary --since 2024-05-01 --until 2024-06-01
    """
    state = get_state(ctx)
    wanted = check_metadata(metadata, "--metadata") if metadata is not None else None
    # Checked as `add --created-at` is; the core takes datetimes here and reports bad kinds itself.
    start, end = check_timestamp(since, "--since"), check_timestamp(until, "--until")
    with state.open(existing=True) as mem:
        if thread is not None:
            mem.thread(thread)  # an unknown thread is an error (likely a typo), not "nothing found"
        hits = mem.recall(
            query,
            user=user,
            thread=thread,
            limit=limit,
            kinds=_kinds(kinds),
            since=start,
            until=end,
            metadata=wanted,
            min_score=min_score,
        )
    view = hits_table(hits, title=f"Recall: {query}") if hits else Text(_nothing_found(query, min_score))
    show(state.json, {"query": query, "user": user, "hits": hits}, view)


def context(
    ctx: typer.Context,
    thread: Annotated[str, typer.Argument(help="The thread the next model call continues.")],
    query: Annotated[
        str | None, typer.Option("--query", "-q", help="The user's new message: ranks facts, recalls older items.")
    ] = None,
    user: Annotated[str | None, typer.Option("--user", "-u", help="Whose facts may be included.")] = None,
    budget: Annotated[
        int | None, typer.Option("--budget", "-b", help="Token budget (default: setting max_history_tokens).")
    ] = None,
    system_prompt: Annotated[
        str | None, typer.Option("--system-prompt", help="System prompt (default: the thread's own).")
    ] = None,
) -> None:
    """Assemble the token-budgeted context for the next model call and show each section.

    With --json, prints one object: "messages" is the to_messages() list (ready for an OpenAI-style chat
    API), with "tokens", "budget", "encoding", "dropped_messages" and the "sections" it was built from.
    A thread that does not exist is an error (exit 3).

    Examples:

        memlane context general --user alice --query "what should I learn next?" --budget 600

        memlane --json context general --user alice --budget 2000
    """
    state = get_state(ctx)
    with state.open(existing=True) as mem:
        mem.thread(thread)  # an unknown thread is an error (likely a typo), not an empty context
        assembled = mem.context(thread, query=query, user=user, budget=budget, system_prompt=system_prompt)
    document = context_document(assembled, thread=thread, user=user, query=query)
    show(state.json, document, Group(*context_view(assembled)))


def _kinds(given: list[str] | None) -> list[str] | None:
    """``--kinds`` as given, repeated or comma-separated (``message,fact``); None means every kind."""
    if not given:  # typer passes an empty list when the option is absent
        return None
    return [kind.strip() for value in given for kind in value.split(",")]


def delete_agent(
    ctx: typer.Context,
    purge: Annotated[bool, typer.Option("--purge", help="Also delete the agent's memories (kept by default).")] = False,
    yes: Annotated[bool, typer.Option("--yes", help="Really delete (required: this cannot be undone).")] = False,
) -> None:
    """Uninstall an agent: delete its conversations, facts, profiles and digests; its memories
    stay for a reinstall unless --purge.

    Examples:

        memlane --agent old-app delete-agent --yes

        memlane --agent old-app delete-agent --purge --yes
    """
    if not yes:
        raise typer.BadParameter("deleting an agent cannot be undone: add --yes")
    state = get_state(ctx)
    with state.open(existing=True) as mem:
        counts = mem.delete_agent(purge=purge)
        agent = mem.agent
    summary = ", ".join(f"{n} {kind}" for kind, n in counts.items())
    show(state.json, {"agent": agent, "deleted": counts}, Text(f"Deleted agent {agent!r}: {summary}."))


def _nothing_found(query: str, min_score: float | None) -> str:
    """What an empty recall says: a floor may have left weak hits out, and how to see them."""
    if min_score == 0:
        return f"Nothing found for {query!r}."
    return (
        f"Nothing relevant found for {query!r}: hits scoring below the relevance floor are left out "
        "(--min-score 0 shows every hit)."
    )
