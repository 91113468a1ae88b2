"""The ``memlane db`` sub-commands: status, migrate, and copy (a whole store to another backend)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn
from rich.table import Table
from rich.text import Text

from memlane.errors import NotFound
from memlane.store import Store, open_store_for
from memlane.store.migrate import migrate_store, sqlite_file

from .render import console, emit_json, plural, show, status_table, to_jsonable
from .state import get_state

if TYPE_CHECKING:
    from memlane.store.copy import CopyProgress, CopyReport

__all__ = ["copy", "db_app", "migrate", "status"]

db_app = typer.Typer(name="db", help="Inspect, migrate and copy the database.", no_args_is_help=True)


@db_app.command("status")
def status(ctx: typer.Context) -> None:
    """Show the backend, location, schema version and the agent's row counts.

    Examples:

        memlane db status

        memlane --db bot.db --agent my-bot --json db status
    """
    state = get_state(ctx)
    with state.open(existing=True) as mem:
        found = mem.status()
        agent = mem.agent
    show(state.json, {"agent": agent, **to_jsonable(found)}, status_table(found, agent))


@db_app.command("migrate")
def migrate(
    ctx: typer.Context,
    db: Annotated[
        str | None,
        typer.Option("--db", metavar="PATH_OR_URL", help="SQLite file or postgresql:// URL; default: the global --db."),
    ] = None,
) -> None:
    """Apply pending schema migrations and show the schema version before and after.

    Every store is migrated when it is opened; this does it explicitly, e.g. after upgrading memlane,
    before starting many processes at once. Running it again does nothing.

    Examples:

        memlane --db bot.db db migrate

        memlane db migrate --db postgresql://memlane@db.internal/memlane
    """
    from memlane import load_settings  # pydantic: only for a command that opens a store

    state = get_state(ctx)
    settings = load_settings(state.config)
    location = db or state.db or settings.database_location()
    report = migrate_store(location, lambda where: open_store_for(settings, where))
    if state.json:
        emit_json(to_jsonable(report))
        return
    if not report.applied:
        at = f"{report.location} ({report.backend}) is at schema version {report.after}"
        console().print(Text(f"{at}; nothing to do."))
        return
    steps = ", ".join(f"{version} {name}" for version, name in report.applied)
    console().print(
        Text(f"Migrated {report.location} ({report.backend}) from version {report.before} to {report.after}: {steps}.")
    )


@db_app.command("copy")
def copy(
    ctx: typer.Context,
    source: Annotated[str, typer.Argument(metavar="SRC", help="The store to copy: SQLite file or postgresql:// URL.")],
    target: Annotated[str, typer.Argument(metavar="DST", help="Where to copy it; must be empty unless --yes.")],
    agent: Annotated[
        list[str] | None, typer.Option("--agent", "-a", help="Copy only this agent (repeatable); default: every agent.")
    ] = None,
    yes: Annotated[
        bool,
        typer.Option("--yes", "-y", help="Merge into a non-empty DST: threads and facts already there are kept."),
    ] = False,
    batch: Annotated[int, typer.Option("--batch", min=1, help="Messages written per transaction.")] = 5000,
) -> None:
    """Copy a whole store to another one (SQLite → PostgreSQL, or back), then verify it.

    Every thread, message, summary, fact with its history, and every pending job of every agent (or of the
    --agent ones) is copied. The copy is verified per agent: the same record counts, and the same sha256 of
    the JSON Lines export (what `memlane --agent A export -` prints) on both sides. Vectors are copied when
    both stores use the same embedding model (else run `memlane --db DST reindex` afterwards). Stop writers
    of SRC first. Both stores are migrated to the
    current schema when opened, as every command does.

    Examples:

        memlane db copy ~/.local/share/memlane/memlane.db postgresql://memlane@db.internal/memlane

        memlane --json db copy postgresql://memlane@db.internal/memlane backup.db --agent my-bot
    """
    from memlane import load_settings
    from memlane.store.copy import copy_store  # only for this command

    state = get_state(ctx)
    settings = load_settings(state.config)
    path = sqlite_file(source)
    if path is not None and not path.is_file():  # opening it would create an empty store
        raise NotFound(f"there is no store at {path}")
    with _opened(settings, source) as src, _opened(settings, target) as dst, _progress_bar() as on_progress:
        report = copy_store(src, dst, agents=agent or None, merge=yes, progress=on_progress, batch_messages=batch)
    if state.json:
        emit_json(_document(report))
    else:
        _print_report(report)


# -- helpers ----------------------------------------------------------------------------------------
@contextmanager
def _opened(settings: Any, location: str) -> Iterator[Store]:
    store = open_store_for(settings, location)
    try:
        yield store
    finally:
        store.close()


@contextmanager
def _progress_bar() -> Iterator[Any]:
    """A rich progress bar on stderr with a "copy" and a "verify" task; yields the progress callback."""
    bar = Progress(
        TextColumn("{task.description:<9}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        TextColumn("{task.fields[agent]}"),
        console=Console(stderr=True),
    )
    tasks: dict[str, Any] = {}

    def update(step: CopyProgress) -> None:
        if not tasks:  # shown from the first step on: an error before it prints only its own line
            bar.start()
        task = tasks.get(step.stage)
        if task is None:
            label = "copying" if step.stage == "copy" else "verifying"
            task = tasks[step.stage] = bar.add_task(label, total=step.total, agent="")
        bar.update(task, completed=step.done, total=step.total, agent=step.agent)

    try:
        yield update
    finally:
        if tasks:
            bar.stop()


def _document(report: CopyReport) -> dict[str, Any]:
    document: dict[str, Any] = to_jsonable(report)
    document["verified"] = True  # copy_store raises when a check fails
    document["identical"] = report.identical
    document["totals"] = report.totals()
    for entry, agent in zip(document["agents"], report.agents, strict=True):
        entry["identical"] = agent.identical
    document["next_step"] = f"memlane --db {report.target} reindex" if report.needs_reindex else None
    return document


def _print_report(report: CopyReport) -> None:
    out = console()
    table = Table(title=f"{report.source} → {report.target}")
    for column in ("agent", "threads", "messages", "summaries", "facts", "history", "jobs", "sha256"):
        table.add_column(column, justify="left" if column in ("agent", "sha256") else "right", no_wrap=True)
    for agent in report.agents:
        c = agent.source_counts
        counts = (c["threads"], c["messages"], c["summaries"], c["facts"], c["fact_changes"], agent.jobs_copied)
        table.add_row(Text(agent.agent), *(f"{n:,}" for n in counts), agent.source_sha256[:8])
    out.print(table)
    what = "every export is identical (sha256 and counts)"
    if report.merged:
        what = "merged: the destination grew by what was written (threads and facts already there were kept)"
    out.print(Text(f"Copied {plural(len(report.agents), 'agent')} in {report.seconds:.1f} s; {what}."))
    for note in report.notes:
        out.print(Text(f"Note: {note}."))
    if report.needs_reindex:
        model = report.embedding_model or "the configured model"
        out.print(
            Text(
                f"Some items of the copy have no vectors: run `memlane --db {report.target} reindex` to embed them "
                f"with {model} (until then recall finds them by keywords only)."
            )
        )
