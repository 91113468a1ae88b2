"""Moving memory in and out (export and import as JSON Lines) and rebuilding its search index (reindex)."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.text import Text

from .render import plural, show
from .state import get_state

__all__ = ["export", "import_", "reindex"]


def _counted(kind: str, count: int) -> str:
    """``fact_changes``, 1 → ``1 fact change``; ``summaries``, 2 → ``2 summaries``."""
    words = kind.replace("_", " ")
    if count != 1:
        return f"{count} {words}"
    return "1 summary" if words == "summaries" else f"1 {words.removesuffix('s')}"


def export(
    ctx: typer.Context,
    file: Annotated[str, typer.Argument(help="File to write, or - for stdout.", metavar="[FILE|-]")] = "-",
    thread: Annotated[
        list[str] | None, typer.Option("--thread", "-t", help="Export only this thread (repeatable).")
    ] = None,
) -> None:
    """Export the agent's threads, messages, summaries, facts and fact history as JSON Lines.

    To stdout (-), only the export itself is printed, so it can be piped.

    Examples:

        memlane export backup.jsonl

        memlane export - --thread general > general.jsonl
    """
    state = get_state(ctx)
    with state.open() as mem:
        if file == "-":
            mem.export(typer.get_text_stream("stdout"), threads=thread or None)
            return
        count = mem.export(file, threads=thread or None)
    show(state.json, {"file": file, "records": count}, Text(f"Exported {plural(count, 'record')} to {file}."))


def import_(
    ctx: typer.Context,
    file: Annotated[str, typer.Argument(help="A memlane export (JSON Lines), or - for stdin.")],
    on_conflict: Annotated[
        str, typer.Option("--on-conflict", help="When a thread already exists: error, skip or replace.")
    ] = "error",
) -> None:
    """Import an export into the agent, in one transaction (all or nothing).

    Examples:

        memlane import backup.jsonl

        memlane --agent other-bot import backup.jsonl --on-conflict skip
    """
    state = get_state(ctx)
    source = typer.get_text_stream("stdin") if file == "-" else file
    with state.open() as mem:
        counts = mem.import_(source, on_conflict=on_conflict)
    summary = ", ".join(_counted(kind, n) for kind, n in counts.items())
    show(state.json, {"file": file, "imported": counts}, Text(f"Imported {summary}."))


def reindex(ctx: typer.Context) -> None:
    """Embed every message, fact and summary that has no vector yet, for semantic recall.

    Run it after changing the embedding model (vectors of the old model are dropped first), or to embed
    memory written with embedder = none. It covers every agent in the database.

    Examples:

        memlane reindex

        MEMLANE_EMBEDDER=minilm memlane --db bot.db reindex
    """
    state = get_state(ctx)
    with state.open(check_model=False) as mem:
        embedded = mem.reindex()
        model = mem.embedder.model if mem.embedder is not None else None
    show(state.json, {"embedded": embedded, "model": model}, Text(f"Embedded {plural(embedded, 'item')} with {model}."))
