"""What ``memlane serve`` is configured with (command-line options; the store's own settings come from the
usual memlane settings)."""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass

__all__ = ["LOOPBACK_NAMES", "ServerSettings", "StoreSpec", "is_loopback"]


@dataclass(frozen=True, slots=True)
class ServerSettings:
    """Limits and options of one server process.

    ``open``: keyless requests act as admin. It is chosen at start and only on loopback (``memlane serve
    --open``); a server started without it needs a key for every request, whatever happens to the keys later.
    ``allowed_hosts``: the ``Host`` names accepted (empty: any; an open server accepts loopback names only,
    which defeats DNS rebinding). ``rate_limit`` is requests per second per API key (0: no limit) with bursts of
    ``rate_burst``; failed authentications are limited per client address (``failed_auth_rate``, bursts of
    ``failed_auth_burst``). ``max_body_bytes`` refuses larger request bodies with 413 (imports may use
    ``max_import_bytes``). ``public_url``: where users reach the server (behind a TLS proxy: ``https://...``,
    which makes the UI's cookies Secure). ``metrics_per_agent``: ``/metrics`` names the agents (off: totals only,
    no tenant names). ``session_hours``: how long a UI sign-in lasts. ``processes``: server processes answering
    on the same address, each with its own connections to the store and its own embedder (see
    ``memlane.server.run``). ``request_threads``: worker threads answering requests at once in each process
    (0: :func:`memlane.server.app.default_request_threads`, two per core on SQLite, the framework's 40 on
    PostgreSQL); fewer threads spend less CPU per request, since the requests' own Python work shares one
    interpreter lock (bench/RESULTS.md, issue 39).
    """

    host: str = "127.0.0.1"
    port: int = 8080
    open: bool = False
    allowed_hosts: tuple[str, ...] = ()
    max_body_bytes: int = 1_000_000
    max_import_bytes: int = 50_000_000
    rate_limit: float = 200.0
    rate_burst: int = 400
    failed_auth_rate: float = 1.0
    failed_auth_burst: int = 20
    workers_in_process: int = 1
    log_json: bool = True
    public_url: str | None = None
    metrics_per_agent: bool = False
    session_hours: float = 12.0
    processes: int = 1
    request_threads: int = 0


@dataclass(frozen=True, slots=True)
class StoreSpec:
    """How each server process opens the store on its own: the location (None: the settings' ``database``),
    the agent and the config file, as given to ``memlane`` (settings come from that file and the environment,
    which the processes share)."""

    location: str | None = None
    agent: str | None = None
    config: str | None = None


LOOPBACK_NAMES = frozenset({"localhost", "127.0.0.1", "::1"})


def is_loopback(host: str) -> bool:
    """Whether ``host`` only listens on this machine."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False
