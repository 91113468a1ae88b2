"""Moving memory in and out (export and import as JSON Lines) and rebuilding its search index (reindex)."""

from __future__ import annotations

import itertools
import json
import os
from pathlib import Path
from typing import IO, Annotated, Any

import typer
from rich.text import Text

from memlane.errors import InvalidInput

from .progress import CountingReader, CountingWriter, progress
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
    with state.open(existing=True) as mem:
        for key in thread or ():
            mem.thread(key)  # an unknown thread is an error (likely a typo), not an empty export
        with _opened(file, "w") as out, progress("exporting") as update:
            count = mem.export(CountingWriter(out, update, None), threads=thread or None)  # type: ignore[arg-type]
            update(count, count)
    if file != "-":
        show(state.json, {"file": file, "records": count}, Text(f"Exported {plural(count, 'record')} to {file}."))


def import_(
    ctx: typer.Context,
    file: Annotated[str, typer.Argument(help="A memlane export (JSON Lines), or - for stdin.")],
    on_conflict: Annotated[
        str, typer.Option("--on-conflict", help="When a thread already exists: error, skip or replace.")
    ] = "error",
) -> None:
    """Import an export in one transaction (all or nothing), into the agent it was exported from unless
    --agent names another.

    Examples:

        memlane import backup.jsonl

        memlane --agent other-bot import backup.jsonl --on-conflict skip
    """
    state = get_state(ctx)
    with _opened(file, "r") as source:  # before the store: a missing file must not create an empty store
        size = None if file == "-" else os.fstat(source.fileno()).st_size
        header = source.readline()  # read once (stdin cannot go back), and given back to the import below
        exported = _exported_agent(header)
        if state.agent is None and exported is not None:
            state.agent = exported
        with state.open() as mem, progress(f"reading {file}") as update:

            def read_all(lines: int) -> None:
                update(size or 0, size, f"importing {plural(lines, 'line')} in one transaction")

            lines = CountingReader(itertools.chain([header], source), update, size, read_all)
            counts = mem.import_(lines, on_conflict=on_conflict)  # type: ignore[arg-type]
            agent = mem.agent
    summary = ", ".join(_counted(kind, n) for kind, n in counts.items())
    where = f"into agent '{agent}'"
    if exported is not None and exported != agent:
        where += f" (the export is of agent '{exported}')"
    show(state.json, {"file": file, "agent": agent, "imported": counts}, Text(f"Imported {summary} {where}."))


def _exported_agent(header: str) -> str | None:
    """The agent an export's header line names (None when the line is not a memlane export's header: the
    import then reports what is wrong with it)."""
    try:
        record: Any = json.loads(header)
    except ValueError:
        return None
    if not isinstance(record, dict) or record.get("format") != "memlane-export":
        return None
    agent = record.get("agent")
    return agent if isinstance(agent, str) and agent.strip() else None


def reindex(ctx: typer.Context) -> None:
    """Embed every message, fact and summary that has no vector yet, for semantic recall.

    Run it after changing the embedding model (vectors of the old model are dropped first), or to embed
    memory written with embedder = none. It covers every agent in the database.

    Examples:

        memlane reindex

        MEMLANE_EMBEDDER=minilm memlane --db bot.db reindex
    """
    state = get_state(ctx)
    with state.open(check_model=False, existing=True) as mem, progress("embedding") as update:
        embedded = mem.reindex(progress=update)
        model = mem.embedder.model if mem.embedder is not None else None
    show(state.json, {"embedded": embedded, "model": model}, Text(f"Embedded {plural(embedded, 'item')} with {model}."))


class _opened:
    """``-`` is stdin or stdout (left open), else the file, opened as the core would (UTF-8)."""

    def __init__(self, file: str, mode: str) -> None:
        self.name, self.mode = file, mode
        self.file: IO[str] | None = None

    def __enter__(self) -> IO[str]:
        if self.name == "-":
            return typer.get_text_stream("stdin" if self.mode == "r" else "stdout")
        try:
            self.file = Path(self.name).open(self.mode, encoding="utf-8")
        except OSError as exc:
            raise InvalidInput(f"cannot open {self.name}: {exc.strerror or exc}") from exc
        return self.file

    def __exit__(self, *exc: object) -> None:
        if self.file is not None:
            self.file.close()
