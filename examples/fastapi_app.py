"""A FastAPI app with memlane's `AsyncMemory`: a chat backend whose endpoints never block the event loop.

    pip install 'memlane[server]'
    python examples/fastapi_app.py --db app.db            # serves on http://127.0.0.1:8000 (docs at /docs)
    curl -s -X POST localhost:8000/channels/general/messages -H 'content-type: application/json' \\
        -d '{"user": "alice", "text": "I love sourdough"}'
    curl -s 'localhost:8000/channels/general/context?user=alice&query=baking+tips'

One ``AsyncMemory`` is opened when the app starts and closed when it stops (FastAPI's lifespan); each endpoint
awaits one of its methods, which runs on memlane's worker threads. memlane's errors become HTTP statuses by
their type (``NotFound`` 404, ``InvalidInput`` 422). For a complete service with API keys, scopes and every
route, ``memlane serve`` is ready-made (docs/service.md); this is the shape of embedding memlane in an app of
your own.
"""

from __future__ import annotations

import argparse
import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel

from memlane import AsyncMemory, InvalidInput, MemlaneError, NotFound


class NewMessage(BaseModel):
    user: str
    text: str


class NewFact(BaseModel):
    user: str
    text: str
    shared: bool = False


def create_app(db: str) -> FastAPI:
    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        async with AsyncMemory(db, agent="fastapi-app") as memory:
            app.state.memory = memory
            yield

    app = FastAPI(title="A chat backend with memlane", lifespan=lifespan)

    def memory(request: Request) -> AsyncMemory:
        mem: AsyncMemory = request.app.state.memory
        return mem

    @app.exception_handler(MemlaneError)
    async def memlane_error(request: Request, exc: MemlaneError) -> JSONResponse:
        status = 404 if isinstance(exc, NotFound) else 422 if isinstance(exc, InvalidInput) else 500
        return JSONResponse({"detail": str(exc)}, status_code=status)

    @app.post("/channels/{channel}/messages", status_code=201)
    async def add_message(channel: str, body: NewMessage, request: Request) -> dict[str, Any]:
        stored = await memory(request).add_message(channel, "user", body.text, user=body.user)
        return {"id": stored.id, "seq": stored.seq}

    @app.get("/channels/{channel}")
    async def channel_info(channel: str, request: Request) -> dict[str, Any]:
        thread = await memory(request).thread(channel)  # NotFound for a channel nobody wrote in: 404
        return {"users": list(thread.users), "messages": thread.message_count}

    @app.post("/facts", status_code=201)
    async def remember(body: NewFact, request: Request) -> dict[str, Any]:
        visibility = "shared" if body.shared else "private"
        fact = await memory(request).remember(body.text, user=body.user, visibility=visibility)
        return {"id": fact.id, "content": fact.content, "visibility": fact.visibility}

    @app.get("/channels/{channel}/context")
    async def context(channel: str, user: str, request: Request, query: str | None = None) -> dict[str, Any]:
        ctx = await memory(request).context(channel, query=query, user=user, budget=1000)
        return {"tokens": ctx.tokens, "messages": ctx.to_messages()}

    @app.get("/recall")
    async def recall(q: str, user: str, request: Request) -> list[dict[str, Any]]:
        hits = await memory(request).recall(q, user=user, limit=5)
        return [{"kind": hit.kind, "text": hit.text, "score": round(hit.score, 3)} for hit in hits]

    return app


app = create_app(os.environ.get("MEMLANE_EXAMPLE_DB", "fastapi_app.db"))  # for `uvicorn fastapi_app:app`


def main() -> None:
    import uvicorn

    parser = argparse.ArgumentParser(description="A FastAPI chat backend with memlane.")
    parser.add_argument("--db", default="fastapi_app.db", help="SQLite file of the app's memory")
    parser.add_argument("--port", type=int, default=8000)
    args = parser.parse_args()
    uvicorn.run(create_app(args.db), host="127.0.0.1", port=args.port)


if __name__ == "__main__":
    main()
