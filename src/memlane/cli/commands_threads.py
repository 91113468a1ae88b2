"""Conversation commands: add, history, threads, reset, end, prune (idle threads or old messages).

``memlane add`` returns once its message is stored *with its vector*: with the local model the write
returns at once and the process's helper embeds the text before the process ends (``Memory.close`` waits).
Leaving the vector pending for the next process instead was measured (bench/RESULTS.md, "Cold start"): it
saves at most ~0.25 s of CPU (the model's load and one run), and it would cost users more than that. (The
message's token count, shown below, no longer loads the tokenizer's whole vocabulary: ``memlane.tokens``
counts a process's first short texts with only the tokens they contain.) A long-lived process that
already has the store open (a bot, ``memlane serve``, ``memlane mcp``) looks for messages left pending only
when it opens the store, so it would not find the new message by its meaning until it restarts or
``memlane reindex`` runs; and the next ``memlane recall`` would pay the same embedding anyway. Commands that
only read rows (``history``, ``threads``, ``facts``) never load the model: what a stopped process left
pending stays for the next process that writes or recalls.
"""

from __future__ import annotations

from typing import Annotated

import typer
from rich.text import Text

from .render import messages_table, plural, show, threads_table, when
from .state import get_state

__all__ = ["add", "end", "history", "prune", "reset", "threads"]

UserOption = Annotated[str | None, typer.Option("--user", "-u", help="The user (end user) this concerns.")]


def _read_content(content: str) -> str:
    """``-`` means: read the text from stdin (one trailing newline dropped)."""
    if content != "-":
        return content
    text = typer.get_text_stream("stdin").read()
    return text[:-1] if text.endswith("\n") else text


def add(
    ctx: typer.Context,
    thread: Annotated[str, typer.Argument(help="Thread (conversation, channel) to append to; created on first use.")],
    role: Annotated[str, typer.Argument(help="user, assistant, system or tool.")],
    content: Annotated[str, typer.Argument(help="The message text; - reads it from stdin.")],
    user: UserOption = None,
    name: Annotated[str | None, typer.Option("--name", "-n", help="Display name of the speaker.")] = None,
    metadata: Annotated[str | None, typer.Option("--metadata", help="A JSON object stored with the message.")] = None,
    created_at: Annotated[
        str | None, typer.Option("--created-at", help="ISO-8601 time of the message (default: now; naive = UTC).")
    ] = None,
    tool_calls: Annotated[
        str | None, typer.Option("--tool-calls", help="JSON list of OpenAI-style tool calls (assistant only).")
    ] = None,
    tool_call_id: Annotated[
        str | None, typer.Option("--tool-call-id", help="The call a tool message answers (role tool only).")
    ] = None,
) -> None:
    """Append one message to a thread and show it as stored (id, position, tokens).

    Examples:

        memlane add general user "I'm Alice and I love Python" --user alice --name Alice

        echo "Hi Alice!" | memlane add general assistant -
    """
    state = get_state(ctx)
    with state.open() as mem:
        message = mem.add_message(
            thread,
            role,
            _read_content(content),
            user=user,
            name=name,
            metadata=metadata,
            created_at=created_at,
            tool_calls=tool_calls,
            tool_call_id=tool_call_id,
        )
    stored = Text.assemble(
        "Stored message ",
        (f"#{message.id}", "bold"),
        f" in thread {message.thread!r}: seq {message.seq}, {plural(message.token_count, 'token')}, ",
        when(message.created_at),
    )
    show(state.json, message, stored)


def history(
    ctx: typer.Context,
    thread: Annotated[str, typer.Argument(help="The thread to show.")],
    limit: Annotated[int | None, typer.Option("--limit", "-l", help="Show only the last N messages.")] = None,
) -> None:
    """Show a thread's messages in order, like a chat log.

    Examples:

        memlane history general

        memlane --json history general --limit 10
    """
    state = get_state(ctx)
    with state.open(existing=True, reads_only=True) as mem:
        messages = mem.history(thread, limit=limit)
        if not messages:
            mem.thread(thread)  # an unknown thread is an error (likely a typo), an emptied one is not
    view = (
        messages_table(messages, title=f"Thread {thread}")
        if messages
        else Text(f"Thread {thread!r} has no messages (it was reset).")
    )
    show(state.json, {"thread": thread, "messages": messages}, view)


def threads(
    ctx: typer.Context,
    user: Annotated[str | None, typer.Option("--user", "-u", help="Only threads this user wrote in.")] = None,
    status: Annotated[str | None, typer.Option("--status", help="open or ended.")] = None,
    limit: Annotated[int | None, typer.Option("--limit", "-l", help="At most N threads.")] = None,
) -> None:
    """List threads, most recently active first.

    Examples:

        memlane threads

        memlane threads --user alice --status open
    """
    state = get_state(ctx)
    with state.open(existing=True, reads_only=True) as mem:
        found = mem.threads(user, status=status, limit=limit)
    show(state.json, {"threads": found}, threads_table(found) if found else "No threads yet.")


def reset(
    ctx: typer.Context,
    thread: Annotated[str, typer.Argument(help="The thread to clear.")],
) -> None:
    """Clear a thread's conversation (messages and summaries); remembered facts are kept.

    Examples:

        memlane reset general
    """
    state = get_state(ctx)
    with state.open(existing=True) as mem:
        cleared = mem.reset(thread)
    show(state.json, {"thread": thread, "cleared": cleared}, f"{plural(cleared, 'message')} cleared; facts are kept.")


def end(
    ctx: typer.Context,
    thread: Annotated[str, typer.Argument(help="The thread to mark ended.")],
) -> None:
    """Mark a conversation ended; its messages and the facts learned from it stay.

    Examples:

        memlane end general
    """
    state = get_state(ctx)
    with state.open(existing=True) as mem:
        ended = mem.end(thread)
    show(state.json, ended, Text(f"Thread {ended.key!r} ended ({plural(ended.message_count, 'message')} kept)."))


def prune(
    ctx: typer.Context,
    older_than_days: Annotated[
        float | None, typer.Option("--older-than-days", help="Delete threads with no activity for this many days.")
    ] = None,
    messages_older_than_days: Annotated[
        float | None,
        typer.Option(
            "--messages-older-than-days",
            help="Delete messages older than this many days; their threads, summaries and facts stay.",
        ),
    ] = None,
    thread: Annotated[
        str | None, typer.Option("--thread", "-t", help="With --messages-older-than-days: only this thread.")
    ] = None,
) -> None:
    """Delete idle threads with their messages and summaries (facts learned from them stay), or old messages
    only (what was learned from them stays).

    Examples:

        memlane prune --older-than-days 90

        memlane prune --messages-older-than-days 14

        memlane --json prune --messages-older-than-days 30 --thread general
    """
    if older_than_days is None and messages_older_than_days is None:
        raise typer.BadParameter("give --older-than-days, --messages-older-than-days or both")
    if thread is not None and messages_older_than_days is None:
        raise typer.BadParameter("--thread only narrows --messages-older-than-days")
    document: dict[str, object] = {}
    lines: list[str] = []
    state = get_state(ctx)
    with state.open(existing=True) as mem:
        if older_than_days is not None:
            pruned = mem.prune(older_than_days)
            document |= {"pruned": pruned, "older_than_days": older_than_days}
            lines.append(f"{plural(pruned, 'thread')} pruned.")
        if messages_older_than_days is not None:
            gone = mem.prune_messages(messages_older_than_days, thread=thread)
            document |= {"pruned_messages": gone, "messages_older_than_days": messages_older_than_days}
            if thread is not None:
                document["thread"] = thread
            lines.append(f"{plural(gone, 'message')} pruned" + (f" from thread {thread!r}." if thread else "."))
    show(state.json, document, "\n".join(lines))
