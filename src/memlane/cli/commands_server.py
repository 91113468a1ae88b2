"""``memlane serve`` (the HTTP service) and ``memlane keys`` (its API keys)."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.text import Text

from memlane.errors import ConfigError, InvalidInput

from .render import show
from .state import get_state

keys_app = typer.Typer(help="API keys of the HTTP service: create, list, revoke.", no_args_is_help=True)


def _server() -> object:
    try:
        import memlane.server
    except ImportError as exc:
        raise ConfigError("the HTTP service needs the server extra: pip install 'memlane[server]'") from exc
    return memlane.server


def serve(
    ctx: typer.Context,
    host: Annotated[str, typer.Option("--host", help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", help="Port to listen on.")] = 8080,
    workers_in_process: Annotated[
        int, typer.Option("--workers-in-process", help="Background job threads in this process (0: none).")
    ] = 1,
) -> None:
    """Serve memory over HTTP (REST API under /v1, docs at /docs). Needs the server extra.

    Without any API key made yet, every request acts as admin and the server listens on loopback only.

    Examples:

        memlane --db bot.db serve --port 8080

        memlane --db bot.db keys create --agent my-bot
    """
    server = _server()
    import uvicorn

    if workers_in_process < 0:
        raise InvalidInput("--workers-in-process must not be negative")
    state = get_state(ctx)
    with state.open(worker="thread" if workers_in_process else "none") as mem:
        open_access = not mem.store.list_api_keys()
        if open_access and host not in ("127.0.0.1", "localhost", "::1"):
            raise ConfigError(
                "no API key exists yet: create one (memlane keys create) before listening beyond loopback"
            )
        if open_access:
            typer.echo("memlane serve: no API keys yet, so every request acts as admin (loopback only)", err=True)
        app = server.create_app(mem, open_access=open_access)  # type: ignore[attr-defined]
        uvicorn.run(app, host=host, port=port, log_level="warning")


@keys_app.command("create")
def create(
    ctx: typer.Context,
    admin: Annotated[bool, typer.Option("--admin", help="A key for every agent, and key management.")] = False,
    user: Annotated[str | None, typer.Option("--user", help="With --agent: a key of this one user.")] = None,
    label: Annotated[str | None, typer.Option("--label", help="A note to recognise the key by.")] = None,
) -> None:
    """Make an API key (shown once; only its hash is stored). The global --agent names its agent.

    Examples:

        memlane keys create --admin

        memlane --agent my-bot keys create

        memlane --agent my-bot keys create --user alice
    """
    server = _server()
    state = get_state(ctx)
    scope = "admin" if admin else ("user" if user else "agent")
    if not admin and state.agent is None:
        raise InvalidInput("give --agent for an agent or user key, or --admin")
    with state.open() as mem:
        key, record = server.create_key(  # type: ignore[attr-defined]
            mem.store, scope, agent=None if admin else state.agent, user=user, label=label
        )
    show(
        state.json,
        {"key": key, "id": record.id, "scope": scope, "agent": record.agent, "user": record.user},
        Text(f"{key}\n(key #{record.id}, {scope}; shown once: keep it now)"),
    )


@keys_app.command("list")
def list_keys(ctx: typer.Context) -> None:
    """List the API keys (never the keys themselves): number, scope, agent, user, revoked.

    Examples:

        memlane --db bot.db keys list

        memlane --db bot.db --json keys list
    """
    state = get_state(ctx)
    with state.open(existing=True) as mem:
        found = mem.store.list_api_keys()
    lines = [
        f"#{k.id} {k.scope} agent={k.agent or '*'} user={k.user or '*'}{' REVOKED' if k.revoked_at else ''}"
        for k in found
    ]
    show(state.json, {"keys": found}, Text("\n".join(lines) or "No API keys."))


@keys_app.command("revoke")
def revoke(ctx: typer.Context, key_id: Annotated[int, typer.Argument(help="The key's number (keys list).")]) -> None:
    """Revoke an API key: requests with it are refused from now on.

    Examples:

        memlane --db bot.db keys revoke 3
    """
    state = get_state(ctx)
    with state.open(existing=True) as mem:
        import datetime as _dt

        record = mem.store.revoke_api_key(key_id, _dt.datetime.now(_dt.UTC))
    show(state.json, {"revoked": record}, Text(f"Revoked key #{record.id}."))
