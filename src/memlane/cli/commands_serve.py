"""``memlane serve``: the HTTP server (needs ``memlane[server]``)."""

from __future__ import annotations

from typing import Annotated

import typer

from memlane.errors import ConfigError

from .state import get_state

__all__ = ["serve"]


def serve(
    ctx: typer.Context,
    host: Annotated[
        str, typer.Option("--host", help="Address to listen on (loopback unless keys exist).")
    ] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", min=1, max=65535, help="Port to listen on.")] = 8080,
    workers_in_process: Annotated[
        int,
        typer.Option(
            "--workers-in-process", help="Background job workers inside the server (0: run `memlane worker`)."
        ),
    ] = 0,
    rate_limit: Annotated[
        float, typer.Option("--rate-limit", help="Requests per second per API key (0: none).")
    ] = 200.0,
    access_log: Annotated[
        bool, typer.Option("--access-log/--no-access-log", help="One JSON line per request on stderr.")
    ] = True,
    max_body_bytes: Annotated[int, typer.Option("--max-body-bytes", help="Largest request body accepted.")] = 1_000_000,
) -> None:
    """Serve memlane over HTTP: every route under /v1, OpenAPI at /openapi.json, docs at /docs, the
    review UI at /ui, Prometheus metrics at /metrics.

    Clients send `Authorization: Bearer <key>` (`memlane keys create`). Without keys the server is open
    and listens on loopback only.

    Examples:

        memlane --db bot.db serve --port 8080

        memlane --db postgresql://localhost/memlane serve --host 0.0.0.0 --workers-in-process 2
    """
    try:
        from memlane.server import ServerSettings
        from memlane.server import serve as run
    except ImportError as exc:
        raise ConfigError(f"the server needs its extra: pip install 'memlane[server]' ({exc})") from exc
    if workers_in_process < 0 or port < 0 or max_body_bytes < 1:
        raise typer.BadParameter("--workers-in-process, --port and --max-body-bytes must not be negative")
    settings = ServerSettings(
        host=host, port=port, workers_in_process=workers_in_process, rate_limit=rate_limit,
        rate_burst=max(1, int(rate_limit * 2)), max_body_bytes=max_body_bytes, log_json=access_log,
    )  # fmt: skip
    state = get_state(ctx)
    with state.open() as mem:
        run(mem, settings)
