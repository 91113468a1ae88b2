"""``memlane mcp``: serve memory to an MCP client (Claude Desktop, an IDE's agent, ...) over stdio."""

from __future__ import annotations

from typing import Annotated

import typer

from memlane.errors import ConfigError

from .state import get_state


def mcp(
    ctx: typer.Context,
    user: Annotated[
        str | None,
        typer.Option("--user", "-u", help="The user the tools act for (their facts, their threads); default: none."),
    ] = None,
) -> None:
    r"""Serve this agent's memory to an MCP client over stdin/stdout (the client starts this command).

    Tools: remember, recall, forget, list_facts, add_message, get_context, all acting for --user. Background jobs (summaries, memories, profiles) run in this process. Needs the mcp extra: pip install 'memlane\[mcp]'.

    Examples:

        memlane --db ~/memlane.db --agent desktop mcp --user me
    """  # noqa: E501
    try:
        from memlane.mcp import run_stdio
    except ImportError as exc:
        raise ConfigError("the MCP server needs the mcp extra: pip install 'memlane[mcp]'") from exc
    with get_state(ctx).open(worker="thread") as mem:
        run_stdio(mem, user)
