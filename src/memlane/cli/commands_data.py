"""Moving memory in and out (export and import as JSON Lines) and rebuilding its search index (reindex)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import IO, Annotated

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
    """Import an export into the agent, in one transaction (all or nothing).

    Examples:

        memlane import backup.jsonl

        memlane --agent other-bot import backup.jsonl --on-conflict skip
    """
    state = get_state(ctx)
    with _opened(file, "r") as source:  # before the store: a missing file must not create an empty store
        size = None if file == "-" else os.fstat(source.fileno()).st_size
        with state.open() as mem, progress(f"reading {file}") as update:

            def read_all(lines: int) -> None:
                update(size or 0, size, f"importing {plural(lines, 'line')} in one transaction")

            lines = CountingReader(source, update, size, read_all)
            counts = mem.import_(lines, on_conflict=on_conflict)  # type: ignore[arg-type]
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
