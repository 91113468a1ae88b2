"""``memlane serve``: open the store, start in-process workers if asked, and run the app on uvicorn."""

from __future__ import annotations

import logging
import sys
import threading

from memlane import Memory

from .app import create_app
from .settings import ServerSettings, is_loopback
from .state import has_active_key

__all__ = ["serve"]

logger = logging.getLogger("memlane.server")


def serve(memory: Memory, settings: ServerSettings) -> None:
    """Serve ``memory``'s store until interrupted.

    Open mode (``settings.open``: keyless requests act as admin) is chosen here, once, and only on loopback;
    a server started without it needs a key for every request for as long as it runs, even once every key
    has expired or been revoked.

    Raises:
        InvalidInput: open mode on an address other than loopback.
    """
    import uvicorn

    from memlane.errors import InvalidInput
    from memlane.pipeline.worker import Worker

    _log_to_stderr(settings.log_json)
    if settings.open:
        if not is_loopback(settings.host):
            raise InvalidInput(
                f"an open server (no key needed, every caller is admin) listens on loopback only, not "
                f"{settings.host}; create a key with `memlane keys create --admin` and start without --open"
            )
        _say(f"memlane: OPEN mode: any program on this machine may call {settings.host} as admin without a key "
             "(only loopback host names are answered)")  # fmt: skip
    elif not has_active_key(memory):
        _say("memlane: no active API key yet: every request is refused (401) until you create one with "
             "`memlane keys create --admin` (no restart needed), or restart with --open for a keyless server on "
             "loopback")  # fmt: skip
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
    jobs = (
        f"{workers} in-process worker{'' if workers == 1 else 's'} for summaries, facts and memories"
        if workers
        else "no in-process worker: run `memlane worker` for summaries, facts and memories"
    )
    _say(f"memlane: serving {memory.store.location} on http://{settings.host}:{settings.port} ({jobs}); "
         f"review UI at http://{settings.host}:{settings.port}/ui/")  # fmt: skip
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
