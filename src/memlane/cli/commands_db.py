"""The ``memlane db`` sub-commands (status here; migrate and copy are added beside it)."""

from __future__ import annotations

import typer

from .render import console, emit_json, status_table, to_jsonable
from .state import get_state

__all__ = ["db_app", "status"]

db_app = typer.Typer(name="db", help="Inspect and maintain the database.", no_args_is_help=True)


@db_app.command("status")
def status(ctx: typer.Context) -> None:
    """Show the backend, location, schema version and the agent's row counts.

    Examples:

        memlane db status

        memlane --db bot.db --agent my-bot --json db status
    """
    state = get_state(ctx)
    with state.open() as mem:
        found = mem.status()
        agent = mem.agent
    if state.json:
        emit_json({"agent": agent, **to_jsonable(found)})
    else:
        console().print(status_table(found, agent))
