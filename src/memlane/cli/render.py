"""Output of the CLI: rich tables and panels for people, JSON documents for programs.

User text is always wrapped in :class:`rich.text.Text`, so brackets in a message are never read as markup.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime
from pathlib import Path
from typing import Any

import typer
from rich.console import Console, RenderableType
from rich.measure import Measurement
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from memlane import Context, Fact, Hit, Message, Summary, Thread
from memlane.store import StoreStatus
from memlane.texts import shown_text

__all__ = [
    "console",
    "context_document",
    "context_view",
    "emit_json",
    "facts_table",
    "hits_table",
    "messages_table",
    "plural",
    "show",
    "status_table",
    "threads_table",
    "to_jsonable",
    "when",
]


#: Widest line printed to a pipe or file: tables and panels take the width they need up to this.
MAX_PIPED_WIDTH = 1000


class _Console(Console):
    """A console that, when stdout is not a terminal (and ``COLUMNS`` is not set), prints each renderable
    at the width it needs rather than rich's default 80 columns, so piped tables are not cut."""

    def print(self, *objects: Any, **kwargs: Any) -> None:
        if not self.is_terminal and "COLUMNS" not in self._environ and objects:
            wide = self.options.update_width(MAX_PIPED_WIDTH)
            needed = max(Measurement.get(self, wide, obj).maximum for obj in objects)
            self.width = max(80, min(needed, MAX_PIPED_WIDTH))
        super().print(*objects, **kwargs)


def console() -> Console:
    """A console on the current stdout (looked up at call time, so test runners can capture it); on a
    terminal its width, else as wide as what is printed (see :class:`_Console`)."""
    return _Console(highlight=False, soft_wrap=True)


def to_jsonable(value: Any) -> Any:
    """Dataclasses become dicts, datetimes ISO text, paths strings, tuples lists, recursively."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: to_jsonable(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, datetime):
        return value.isoformat()
    if isinstance(value, Path):
        return str(value)
    if isinstance(value, Mapping):
        return {str(k): to_jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple | set | frozenset):
        return [to_jsonable(v) for v in value]
    return value


def emit_json(value: Any) -> None:
    """Print ``value`` as one JSON document on stdout."""
    typer.echo(json.dumps(to_jsonable(value), ensure_ascii=False, indent=2))


def show(as_json: bool, document: Any, view: RenderableType) -> None:
    """The output of a command: ``document`` as JSON for programs (``--json``), else ``view`` for people.

    Use :class:`rich.console.Group` to show several renderables, one after the other.
    """
    if as_json:
        emit_json(document)
    else:
        console().print(view)


def plural(count: int, noun: str) -> str:
    """``1 message``, ``3 messages`` (``fact change`` → ``fact changes``)."""
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


def when(value: datetime | None) -> str:
    """A timestamp as people read it in a table (UTC, to the minute)."""
    return "" if value is None else value.strftime("%Y-%m-%d %H:%M")


def _speaker(m: Message) -> str:
    if m.role == "tool":
        return f"tool ({m.tool_call_id})"
    if m.role == "user":
        return m.name or m.user or "user"
    return m.name or m.role


def _message_text(m: Message) -> str:
    return shown_text(m.content, m.tool_calls)


def messages_table(messages: Sequence[Message], title: str | None = None) -> Table:
    """A chat-like table: position, time, speaker, text (tool calls shown as arrows)."""
    table = Table(title=title, show_lines=False, expand=False)
    table.add_column("#", justify="right", style="dim")
    table.add_column("when", style="dim", no_wrap=True)
    table.add_column("who", style="bold", no_wrap=True)
    table.add_column("message", overflow="fold")
    for m in messages:
        style = "cyan" if m.role == "assistant" else "magenta" if m.role == "tool" else ""
        table.add_row(str(m.seq), when(m.created_at), Text(_speaker(m), style=style), Text(_message_text(m)))
    return table


def threads_table(threads: Sequence[Thread]) -> Table:
    """Threads, most recently active first."""
    table = Table(title="Threads")
    table.add_column("thread", no_wrap=True)
    table.add_column("status")
    table.add_column("messages", justify="right")
    table.add_column("users")
    table.add_column("last activity", no_wrap=True)
    table.add_column("started", no_wrap=True)
    for t in threads:
        table.add_row(
            Text(t.key, style="bold"),
            t.status,
            str(t.message_count),
            Text(", ".join(t.users)),
            when(t.updated_at),
            when(t.created_at),
        )
    return table


def _owner(owner: str | None) -> str:
    return owner if owner is not None else "(agent)"


def _clip(text: str, max_chars: int | None) -> str:
    return text if max_chars is None or len(text) <= max_chars else text[: max_chars - 1].rstrip() + "…"


def facts_table(facts: Sequence[Fact], title: str = "Facts") -> Table:
    """Facts with their owner, category, importance and visibility."""
    table = Table(title=title)
    for name in ("id", "owner", "category", "imp.", "visibility", "fact"):
        table.add_column(name, justify="right" if name in ("id", "imp.") else "left")
    for f in facts:
        about = Text(f" (about {f.subject})", style="dim") if f.subject else ""
        table.add_row(
            str(f.id),
            Text(_owner(f.owner)),
            f.category,
            str(f.importance),
            f.visibility,
            Text.assemble(f.content, about),
        )
    return table


def memories_table(memories: Sequence[Summary]) -> Table:
    """The agent's memories, newest first, with when each was made and how (llm or extractive)."""
    table = Table(title="Memories")
    for name in ("id", "created", "method", "memory"):
        table.add_column(name, justify="right" if name == "id" else "left")
    for m in memories:
        table.add_row(str(m.id), when(m.created_at), m.method, Text(m.content))
    return table


def _source(h: Hit) -> str:
    if h.kind == "message":
        where = f"{h.thread} #{h.seq}"
    elif h.kind == "fact":
        where = f"fact {h.id}" + (f", owner {h.user}" if h.user else ", agent-level")
    else:
        where = f"summary {h.id}" + (f" of {h.thread}" if h.thread else "")
    who = f"{h.user} · " if h.user and h.kind != "fact" else ""
    return f"{who}{where} · {when(h.created_at)}"


def hits_table(hits: Sequence[Hit], title: str | None = None, max_chars: int | None = None) -> Table:
    """Ranked recall results, best first: where each comes from, then its text (clipped to ``max_chars``)."""
    table = Table(title=title)
    table.add_column("#", justify="right")
    table.add_column("kind")
    table.add_column("score", justify="right")
    table.add_column("memory", overflow="fold")
    for rank, h in enumerate(hits, start=1):
        memory = Text.assemble((_source(h), "dim"), "\n", _hit_text(h, max_chars))
        table.add_row(str(rank), h.kind, f"{h.score:.3g}", memory)
    return table


def _hit_text(h: Hit, max_chars: int | None) -> Text:
    """A hit's text, clipped to ``max_chars``. A message shown with the turns around it has its own turn in bold,
    and a clip keeps that turn and then its nearest neighbours (a clip from the start left out the turn that
    matched when the window opened with long turns before it)."""
    lines = h.text.split("\n")
    if h.kind != "message" or len(lines) < 2 or len(lines) != len(h.message_ids) or h.id not in h.message_ids:
        return Text(_clip(h.text, max_chars))  # one turn, or a turn of several lines: as it is
    at = h.message_ids.index(h.id)
    kept = {at: _clip(lines[at], max_chars)}
    room = None if max_chars is None else max_chars - len(kept[at])
    for i in sorted(range(len(lines)), key=lambda i: (abs(i - at), i)):
        if i == at:
            continue
        if room is not None and len(lines[i]) + 1 > room:
            break
        kept[i] = lines[i]
        room = None if room is None else room - len(lines[i]) - 1
    out = Text()
    for i in sorted(kept):
        if out:
            out.append("\n")
        out.append(kept[i], style="bold" if i == at else "")
    if min(kept) > 0:
        out = Text("…\n") + out
    if max(kept) < len(lines) - 1:
        out.append("\n…")
    return out


def status_table(status: StoreStatus, agent: str) -> Table:
    """Backend, location, schema version and this agent's row counts."""
    table = Table(title="Database", show_header=False)
    table.add_column("key", style="bold")
    table.add_column("value")
    rows: list[tuple[str, str]] = [
        ("backend", status.backend),
        ("location", status.location),
        ("schema version", str(status.schema_version)),
        ("agent", agent),
    ]
    rows += [(name, str(count)) for name, count in status.counts.items()]
    rows += [(f"meta: {key}", value) for key, value in status.meta.items()]
    for key, value in rows:
        table.add_row(key, Text(value))
    return table


def context_document(ctx: Context, **about: Any) -> dict[str, Any]:
    """The JSON form of an assembled context: ``messages`` is exactly ``ctx.to_messages()``."""
    return {
        **about,
        "budget": ctx.budget,
        "tokens": ctx.tokens,
        "encoding": ctx.encoding,
        "dropped_messages": ctx.dropped_messages,
        "messages": ctx.to_messages(),
        "sections": {
            "system_prompt": ctx.system_prompt,
            "summaries": to_jsonable(ctx.summaries),
            "facts": to_jsonable(ctx.facts),
            "recalled": to_jsonable(ctx.recalled),
            "messages": to_jsonable(ctx.messages),
        },
    }


def _lines(items: Iterable[str]) -> Text:
    return Text("\n".join(f"• {item}" for item in items))


def context_view(ctx: Context) -> list[RenderableType]:
    """One panel per section of the assembled context, then the token count against the budget."""
    parts: list[RenderableType] = [
        Panel(Text(ctx.system_prompt or "(none)"), title="System prompt", title_align="left"),
    ]
    if ctx.summaries:
        parts.append(
            Panel(_lines(s.content for s in ctx.summaries), title="Summary of earlier conversation", title_align="left")
        )
    fact_lines = [f"[{f.category}] {f.content} ({_owner(f.owner)}, {f.visibility})" for f in ctx.facts]
    parts.append(
        Panel(
            _lines(fact_lines) if fact_lines else Text("(none fit or none visible)", style="dim"),
            title=f"Remembered facts ({len(ctx.facts)})",
            title_align="left",
        )
    )
    recalled = [f"{when(h.created_at)} {h.user + ': ' if h.user else ''}{h.text}" for h in ctx.recalled]
    parts.append(
        Panel(
            _lines(recalled) if recalled else Text("(nothing beyond the recent messages)", style="dim"),
            title=f"Related from past conversations ({len(ctx.recalled)})",
            title_align="left",
        )
    )
    kept = f"Recent messages ({len(ctx.messages)} kept, {ctx.dropped_messages} older left out)"
    parts.append(Panel(messages_table(ctx.messages), title=kept, title_align="left"))
    style = "bold green" if ctx.tokens <= ctx.budget else "bold red"
    parts.append(Text(f"{ctx.tokens}/{ctx.budget} tokens ({ctx.encoding})", style=style))
    return parts
