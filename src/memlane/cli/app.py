"""The ``memlane`` command: the global options (root callback) and the command list.

Errors, exit codes and global options after the command name are handled by :mod:`.group`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from memlane import __version__

from . import commands_data, commands_facts, commands_jobs, commands_mcp, commands_threads
from .chat import chat
from .commands_db import db_app
from .commands_keys import keys_app
from .commands_serve import serve
from .demo import demo
from .group import MemlaneGroup
from .state import CliState

__all__ = ["app", "main"]


app = typer.Typer(
    name="memlane",
    cls=MemlaneGroup,
    epilog="New here? Run `memlane demo`. Each command has --help with examples.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"memlane {__version__}")
        raise typer.Exit()


@app.callback()
def root(
    ctx: typer.Context,
    db: Annotated[
        str | None,
        typer.Option(
            "--db",
            metavar="PATH_OR_URL",
            help="SQLite file (or sqlite:/// URL) to use; default: the 'database' setting, else <home>/memlane.db.",
        ),
    ] = None,
    agent: Annotated[
        str | None,
        typer.Option("--agent", "-a", metavar="NAME", help="Agent (bot, app) whose memory to use; default: 'default'."),
    ] = None,
    config: Annotated[
        Path | None, typer.Option("--config", metavar="FILE", help="A TOML or YAML settings file.")
    ] = None,
    json: Annotated[bool, typer.Option("--json", help="Machine-readable output: one JSON document on stdout.")] = False,
    version: Annotated[
        bool,
        typer.Option("--version", callback=_version, is_eager=True, help="Show the version and exit."),
    ] = False,
) -> None:
    """Long-term memory for LLM chat bots and agents: threads, facts, recall and token-budgeted context.

    The options --db, --agent, --config and --json may come before or after the command name.

    Examples:

        memlane demo

        memlane --db bot.db add general user "I love Python" --user alice

        memlane recall python --user alice --db bot.db --json
    """
    ctx.obj = CliState(db=db, agent=agent, config=config, json=json)


# Conversations
app.command("add")(commands_threads.add)
app.command("history")(commands_threads.history)
app.command("threads")(commands_threads.threads)
app.command("reset")(commands_threads.reset)
app.command("end")(commands_threads.end)
app.command("prune")(commands_threads.prune)
# Remembered facts, recall and context
app.command("remember")(commands_facts.remember)
app.command("facts")(commands_facts.facts)
app.command("forget")(commands_facts.forget)
app.command("memories")(commands_facts.memories)
app.command("delete-agent")(commands_facts.delete_agent)
app.command("recall")(commands_facts.recall)
app.command("context")(commands_facts.context)
# Moving data, the database, the tour
app.command("export")(commands_data.export)
app.command("import")(commands_data.import_)
app.command("reindex")(commands_data.reindex)
app.add_typer(db_app, name="db")
app.command("serve")(serve)  # the HTTP server (memlane.server)
app.add_typer(keys_app, name="keys")  # API keys of `memlane serve`
commands_jobs.register(app)  # Background work: jobs, worker, stats
app.command("demo")(demo)
app.command("chat")(chat)  # the REPL with memory (memlane.cli.chat)
app.command("mcp")(commands_mcp.mcp)  # memory for MCP clients (memlane.mcp)


def main() -> None:
    """Entry point of the ``memlane`` console script."""
    app(prog_name="memlane")
