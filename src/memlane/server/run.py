"""``memlane serve``: open the store, start in-process workers if asked, and run the app on uvicorn.

With ``processes`` > 1 (``memlane serve --processes N``), uvicorn's supervisor starts N server processes on
the one listening socket, and the kernel spreads connections over them: one interpreter per core, where one
process is bound by its interpreter lock (issue 39). Each process opens the store on its own (its own SQLite
connections, or its own PostgreSQL pool), loads its own embedder (its own model in memory, ~100 MB, and its
own batching: the texts of requests that meet in the same process are embedded together) and keeps its own
caches (checked keys, rate-limit buckets, metrics). The background job workers (``workers_in_process``) run
in the supervisor only, which serves no requests: the job queue is safe to share between any number of
processes, but one set of workers keeps ``--workers-in-process`` meaning what it says and keeps LLM calls and
their CPU off the processes that answer requests.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import logging
import os
import sys
import threading
from collections.abc import AsyncIterator
from typing import TYPE_CHECKING, Any

from memlane import Memory, load_settings

from .app import create_app
from .settings import ServerSettings, StoreSpec, is_loopback
from .state import has_active_key

if TYPE_CHECKING:
    from fastapi import FastAPI

__all__ = ["process_app", "serve"]

_SPEC = "MEMLANE_SERVE_PROCESS"  # what each server process of `serve --processes N` opens (JSON)

logger = logging.getLogger("memlane.server")


def serve(memory: Memory, settings: ServerSettings, store: StoreSpec | None = None) -> None:
    """Serve ``memory``'s store until interrupted; with ``settings.processes`` > 1, from that many processes,
    each opening the store as ``store`` says (``memory`` then runs the background job workers only).

    Open mode (``settings.open``: keyless requests act as admin) is chosen here, once, and only on loopback;
    a server started without it needs a key for every request for as long as it runs, even once every key
    has expired or been revoked.

    Raises:
        InvalidInput: open mode on an address other than loopback; several processes without ``store``.
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
    several = settings.processes > 1
    if several and store is None:
        raise InvalidInput("serving from several processes needs the store's location to open in each")
    if not several or settings.workers_in_process:
        _warm_up(memory)
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
    processes = f", {settings.processes} server processes" if several else ""
    _say(f"memlane: serving {memory.store.location} on http://{settings.host}:{settings.port} ({jobs}{processes}); "
         f"review UI at http://{settings.host}:{settings.port}/ui/")  # fmt: skip
    options: dict[str, Any] = {
        "host": settings.host,
        "port": settings.port,
        "log_level": "warning",
        "access_log": False,
        "timeout_graceful_shutdown": 5,
        "timeout_keep_alive": 30,  # clients reuse connections; a short idle timeout races with them
    }
    try:
        if several:
            assert store is not None
            os.environ[_SPEC] = json.dumps({"store": dataclasses.asdict(store), "server": dataclasses.asdict(settings)})
            uvicorn.run(f"{__name__}:process_app", factory=True, workers=settings.processes, **options)
        else:
            uvicorn.run(create_app(memory, settings), **options)
    finally:
        stop.set()
        for thread in threads:
            thread.join(timeout=5)


def process_app() -> FastAPI:
    """The app of one server process of ``serve --processes N`` (uvicorn calls it in each): the store opened
    as the supervisor's environment says, closed (its queued vectors written) when the process stops."""
    spec = json.loads(os.environ[_SPEC])
    server = dict(spec["server"], allowed_hosts=tuple(spec["server"]["allowed_hosts"]))
    settings = ServerSettings(**server)
    where = StoreSpec(**spec["store"])
    _log_to_stderr(settings.log_json)
    memory = Memory(where.location, agent=where.agent, settings=load_settings(where.config, worker="none"))
    _warm_up(memory)
    app = create_app(memory, settings)
    before = app.router.lifespan_context

    @contextlib.asynccontextmanager
    async def lifespan(app_: Any) -> AsyncIterator[Any]:
        try:
            async with before(app_) as value:
                yield value
        finally:
            memory.close()

    app.router.lifespan_context = lifespan
    return app


def _warm_up(memory: Memory) -> None:
    """Load the embedding model and the tokenizer now, not in the first requests (they would queue behind it)."""
    if memory.embedder is not None:
        memory.embedder.embed_query("warm up")
    memory.tokenizer.load()


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
