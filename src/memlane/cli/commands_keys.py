"""``memlane keys``: create, list and revoke the API keys of the HTTP server (``memlane serve``)."""

from __future__ import annotations

from datetime import timedelta
from typing import Annotated, Any

import typer
from rich.table import Table
from rich.text import Text

from memlane.errors import InvalidInput
from memlane.types import ApiKey

from .render import console, emit_json, show, to_jsonable, when
from .state import get_state

__all__ = ["keys_app"]

keys_app = typer.Typer(
    help="API keys of the HTTP server: create (shown once, stored as a hash), list, revoke.", no_args_is_help=True
)

JsonFlag = Annotated[bool, typer.Option("--json", help="Machine-readable output (same as the global --json).")]


def _document(key: ApiKey) -> dict[str, Any]:
    document: dict[str, Any] = to_jsonable(key)
    return document


@keys_app.command("create")
def create(
    ctx: typer.Context,
    admin: Annotated[bool, typer.Option("--admin", help="An admin key: every agent, and key management.")] = False,
    agent: Annotated[
        str | None,
        typer.Option(
            "--agent",
            "-a",
            help="The agent the key acts for (an agent key; with --user a user key); default: the global --agent.",
        ),
    ] = None,
    user: Annotated[
        str | None, typer.Option("--user", help="The one user a user key acts for (needs --agent).")
    ] = None,
    label: Annotated[str | None, typer.Option("--label", help="A note to tell keys apart.")] = None,
    expires_in_days: Annotated[
        float | None, typer.Option("--expires-in-days", help="The key stops working after this many days.")
    ] = None,
    json_output: JsonFlag = False,
) -> None:
    """Create an API key and print it once (only its hash is stored: copy it now).

    Examples:

        memlane keys create --admin

        memlane keys create --agent support-bot --label "bot backend"

        memlane --json keys create --agent support-bot --user alice

        memlane --agent support-bot keys create --user alice
    """
    state = get_state(ctx)
    if admin and (agent is not None or user is not None):
        raise typer.BadParameter("--admin takes no --agent or --user")
    if not admin and agent is None:
        agent = state.agent  # `memlane --agent A keys create ...`: the global option names the key's agent
    if not admin and agent is None:
        raise typer.BadParameter("give --admin, --agent A, or --agent A --user U")
    if expires_in_days is not None and not expires_in_days > 0:
        raise InvalidInput("--expires-in-days must be positive")
    scope = "admin" if admin else ("user" if user is not None else "agent")
    with state.open() as mem:
        expires = None if expires_in_days is None else mem._now() + timedelta(days=expires_in_days)
        new = mem.create_api_key(scope, agent=agent, user=user, label=label, expires_at=expires)
    if json_output or state.json:
        emit_json({**_document(new.record), "key": new.key})
        return
    whose = "" if agent is None else f" for agent {agent!r}" + ("" if user is None else f", user {user!r}")
    console().print(Text(f"Created {scope} key #{new.record.id}{whose}. It is shown only this once:"))
    typer.echo(new.key)


@keys_app.command("list")
def list_(
    ctx: typer.Context,
    all_keys: Annotated[bool, typer.Option("--all", help="Revoked keys too.")] = False,
    json_output: JsonFlag = False,
) -> None:
    """List the API keys (their ids and first characters; the keys themselves are not stored).

    Examples:

        memlane keys list

        memlane --json keys list --all
    """
    state = get_state(ctx)
    with state.open(existing=True) as mem:
        found = mem.api_keys(include_revoked=all_keys)
    table = Table(title="API keys")
    for column in ("id", "key", "scope", "agent", "user", "label", "created", "expires", "revoked"):
        table.add_column(column)
    for k in found:
        table.add_row(
            str(k.id), k.prefix + "…", k.scope, k.agent or "", k.user or "", k.label or "",
            when(k.created_at), when(k.expires_at) if k.expires_at else "", when(k.revoked_at) if k.revoked_at else "",
        )  # fmt: skip
    show(json_output or state.json, {"keys": [_document(k) for k in found]}, table if found else Text("No API keys."))


@keys_app.command("revoke")
def revoke(
    ctx: typer.Context,
    key_id: Annotated[int, typer.Argument(metavar="ID", help="The key's id (see `memlane keys list`).")],
    json_output: JsonFlag = False,
) -> None:
    """Revoke an API key: requests with it are refused from now on.

    Examples:

        memlane keys revoke 3
    """
    state = get_state(ctx)
    with state.open(existing=True) as mem:
        key = mem.revoke_api_key(key_id)
    show(json_output or state.json, _document(key), Text(f"Key #{key.id} ({key.prefix}…) is revoked."))
