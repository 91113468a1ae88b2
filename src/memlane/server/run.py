"""``memlane serve``: open the store, start in-process workers if asked, and run the app on uvicorn."""

from __future__ import annotations

import logging
import sys
import threading

from memlane import Memory

from .app import create_app
from .settings import ServerSettings, is_loopback
from .state import is_open

__all__ = ["serve"]

logger = logging.getLogger("memlane.server")


def serve(memory: Memory, settings: ServerSettings) -> None:
    """Serve ``memory``'s store until interrupted. Without an active API key the server is open (every
    request acts as admin) and refuses any host but loopback.

    Raises:
        InvalidInput: no keys and a non-loopback host.
    """
    import uvicorn

    from memlane.errors import InvalidInput
    from memlane.pipeline.worker import Worker

    _log_to_stderr(settings.log_json)
    if is_open(memory):
        if not is_loopback(settings.host):
            raise InvalidInput(
                f"no API keys are configured, so the server only listens on loopback, not {settings.host}; "
                "create one with `memlane keys create --admin`"
            )
        _say(f"memlane: no API keys configured: open to any client on {settings.host} (loopback only); "
             "create keys with `memlane keys create`")  # fmt: skip
    # Load the embedding model and the tokenizer now, not in the first requests (they would queue behind it).
    if memory.embedder is not None:
        memory.embedder.embed_query("warm up")
    memory.count_tokens("warm up")
    stop = threading.Event()
    threads = [
        threading.Thread(target=Worker(memory).run_forever, args=(stop,), name=f"memlane-worker-{i}", daemon=True)
        for i in range(settings.workers_in_process)
    ]
    for thread in threads:
        thread.start()
    workers = settings.workers_in_process
    _say(f"memlane: serving {memory.store.location} on http://{settings.host}:{settings.port} "
         f"({workers} in-process worker{'' if workers == 1 else 's'}); review UI at "
         f"http://{settings.host}:{settings.port}/ui/")  # fmt: skip
    try:
        uvicorn.run(
            create_app(memory, settings),
            host=settings.host,
            port=settings.port,
            log_level="warning",
            access_log=False,
            timeout_graceful_shutdown=5,
            timeout_keep_alive=30,  # clients reuse connections; a short idle timeout races with them
        )
    finally:
        stop.set()
        for thread in threads:
            thread.join(timeout=5)


def _log_to_stderr(enabled: bool) -> None:
    """One JSON line per request on stderr (logger ``memlane.server.access``), warnings of memlane below it."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("%(message)s"))
    access = logging.getLogger("memlane.server.access")
    access.setLevel(logging.INFO if enabled else logging.WARNING)
    access.addHandler(handler)
    access.propagate = False
    logging.getLogger("memlane").addHandler(logging.StreamHandler(sys.stderr))


def _say(text: str) -> None:
    print(text, file=sys.stderr, flush=True)
