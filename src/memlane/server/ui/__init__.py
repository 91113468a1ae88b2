"""The review web UI at ``/ui`` (issue 13): server-rendered pages over the :class:`~memlane.Memory` facade,
signed in with an API key and limited by its scope exactly as the REST API is (:mod:`memlane.server.auth`).

Pages work without JavaScript (links, forms, POST-redirect-GET); htmx (vendored in ``static/``) only makes
them feel faster. Every POST form carries a CSRF token; every response has a Content-Security-Policy.

    /ui/                                  agents overview (counts, memories against the cap, jobs, LLM usage)
    /ui/login                             sign in with an API key
    /ui/agents/{agent}/threads[/{key}]    threads; a thread's messages, summaries and users
    /ui/agents/{agent}/facts[/{id}]       facts per user; one fact's history, edit, delete, share
    /ui/agents/{agent}/memories           the agent's memories: delete one, purge all
    /ui/agents/{agent}/users[/{user}]     profiles and digests
    /ui/agents/{agent}/recall             the recall playground
    /ui/agents/{agent}/jobs               the job queue and dead letters
"""

from __future__ import annotations

from pathlib import Path

from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles

from . import pages_agent, pages_facts, pages_recall, pages_threads
from .session import PREFIX, SecurityHeaders, error_page

__all__ = ["install"]


def install(app: FastAPI) -> None:
    """Add the UI's pages, static files, error pages and security headers to ``app``."""
    for module in (pages_agent, pages_threads, pages_facts, pages_recall):
        app.include_router(module.router)
    app.mount(f"{PREFIX}/static", StaticFiles(directory=Path(__file__).parent / "static"), name="ui-static")
    app.state.error_pages = error_page
    app.add_middleware(SecurityHeaders)
