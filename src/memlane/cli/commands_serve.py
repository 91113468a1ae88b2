"""``memlane serve``: the HTTP server (needs ``memlane[server]``)."""

from __future__ import annotations

from typing import Annotated

import typer

from memlane.errors import ConfigError

from .state import get_state

__all__ = ["serve"]


def serve(
    ctx: typer.Context,
    host: Annotated[str, typer.Option("--host", help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", min=1, max=65535, help="Port to listen on.")] = 8080,
    open_: Annotated[
        bool,
        typer.Option(
            "--open",
            help="Open mode: requests without a key act as admin. Loopback addresses only; chosen at start, "
            "never entered later.",
        ),
    ] = False,
    workers_in_process: Annotated[
        int,
        typer.Option(
            "--workers-in-process",
            help="Background job workers in the server (summaries, facts, memories); 0: run `memlane worker`.",
        ),
    ] = 1,
    allowed_host: Annotated[
        list[str] | None,
        typer.Option(
            "--allowed-host",
            metavar="NAME",
            help="A Host name the server answers to (repeatable; '.example.com' for subdomains). Default: any "
            "(an open server: loopback names only).",
        ),
    ] = None,
    public_url: Annotated[
        str | None,
        typer.Option(
            "--public-url",
            metavar="URL",
            help="Where users reach the server, e.g. https://memory.example.com behind "
            "a TLS proxy (the UI's cookies are then Secure).",
        ),
    ] = None,
    rate_limit: Annotated[
        float, typer.Option("--rate-limit", help="Requests per second per API key (0: none).")
    ] = 200.0,
    access_log: Annotated[
        bool, typer.Option("--access-log/--no-access-log", help="One JSON line per request on stderr.")
    ] = True,
    max_body_bytes: Annotated[int, typer.Option("--max-body-bytes", help="Largest request body accepted.")] = 1_000_000,
    processes: Annotated[
        int,
        typer.Option(
            "--processes",
            min=1,
            help="Server processes answering on the address (one per core lifts a busy server's ceiling); each "
            "opens the store and loads the embedder on its own. Job workers run beside them, in one process.",
        ),
    ] = 1,
    metrics_per_agent: Annotated[
        bool, typer.Option("--metrics-per-agent", help="/metrics (no key needed) names each agent's figures.")
    ] = False,
    request_threads: Annotated[
        int,
        typer.Option(
            "--request-threads",
            min=0,
            help="Worker threads answering requests at once in each process (0: the default: one per core, at "
            "least 2, on SQLite; 40 on PostgreSQL). Fewer threads spend less CPU per request, since a request's "
            "Python work shares one interpreter lock.",
        ),
    ] = 0,
) -> None:
    """Serve memlane over HTTP: every route under /v1, OpenAPI at /openapi.json, docs at /docs, the
    review UI at /ui, Prometheus metrics at /metrics.

    Clients send `Authorization: Bearer <key>` (`memlane keys create`); keys created while the server
    runs work at once. Open mode (`--open`) lets any program on this machine in as admin without a key:
    for trying memlane out on loopback, never on a shared address.

    Examples:

        memlane --db bot.db keys create --admin

        memlane --db bot.db serve --port 8080

        memlane --db try.db serve --open

        memlane --db postgresql://db/memlane serve --host 0.0.0.0 --processes 2

        memlane --db bot.db serve --processes 2
    """
    try:
        from memlane.server import ServerSettings
        from memlane.server import serve as run
        from memlane.server.settings import StoreSpec
    except ImportError as exc:
        raise ConfigError(f"the server needs its extra: pip install 'memlane[server]' ({exc})") from exc
    if workers_in_process < 0 or port < 0 or max_body_bytes < 1:
        raise typer.BadParameter("--workers-in-process, --port and --max-body-bytes must not be negative")
    settings = ServerSettings(
        host=host, port=port, open=open_, workers_in_process=workers_in_process, rate_limit=rate_limit,
        rate_burst=max(1, int(rate_limit * 2)), max_body_bytes=max_body_bytes, log_json=access_log,
        allowed_hosts=tuple(allowed_host or ()), public_url=public_url, metrics_per_agent=metrics_per_agent,
        processes=processes, request_threads=request_threads,
    )  # fmt: skip
    state = get_state(ctx)
    store = StoreSpec(state.db, state.agent, None if state.config is None else str(state.config))
    with state.open() as mem:
        run(mem, settings, store)
