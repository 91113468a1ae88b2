"""What ``memlane serve`` is configured with (command-line options; the store's own settings come from the
usual memlane settings)."""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass

__all__ = ["ServerSettings", "is_loopback"]


@dataclass(frozen=True, slots=True)
class ServerSettings:
    """Limits and options of one server process.

    ``rate_limit`` is requests per second per API key (0: no limit) with bursts of ``rate_burst``;
    ``max_body_bytes`` refuses larger request bodies with 413 (imports may use ``max_import_bytes``).
    """

    host: str = "127.0.0.1"
    port: int = 8080
    max_body_bytes: int = 1_000_000
    max_import_bytes: int = 50_000_000
    rate_limit: float = 200.0
    rate_burst: int = 400
    workers_in_process: int = 0
    log_json: bool = True


def is_loopback(host: str) -> bool:
    """Whether ``host`` only listens on this machine."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False
