"""The MCP tools: remember, recall, forget, list_facts, add_message, get_context, for one agent and user.

Every tool acts for the user the server was started for (or the service key's user): it sees and changes
only what that user may, exactly as :class:`~memlane.Memory` with ``user=`` does, and reaches only the threads
the user started or was added to (:meth:`~memlane.Memory.user_thread`, the rule of the HTTP service's user
keys). A memlane error becomes the
tool's error result (its one-line message), never a crash of the server.
"""

from __future__ import annotations

from typing import Any

from mcp.server.mcpserver import MCPServer

from ..async_memory import AsyncMemory
from ..errors import InvalidInput
from ..memory import Memory

__all__ = ["TOOLS", "build_server", "run_stdio"]

TOOLS = ("remember", "recall", "forget", "list_facts", "add_message", "get_context")

_INSTRUCTIONS = (
    "Long-term memory for this user. Call recall before answering questions about the user or earlier "
    "conversations; call remember when the user states a lasting fact or preference; add_message stores a turn "
    "of a conversation (a thread) and get_context returns what to send the model for that thread."
)


def build_server(memory: Memory | AsyncMemory, user: str | None) -> MCPServer:
    """An MCP server whose tools act on ``memory`` for ``user`` (None: the agent's own memory)."""
    mem = memory if isinstance(memory, AsyncMemory) else AsyncMemory.wrap(memory)
    if user is not None and (not isinstance(user, str) or not user.strip()):
        raise InvalidInput("user must be a non-empty string or None")
    server: MCPServer = MCPServer(name="memlane", instructions=_INSTRUCTIONS)

    async def _thread(thread: str) -> str:
        """The thread the user means (their own, or one they were added to); the agent's own as named."""
        return thread if user is None else await mem.user_thread(thread, user)

    @server.tool(description="Store a lasting fact about the user (their own, private unless shared).")
    async def remember(
        content: str, category: str = "fact", importance: int = 3, visibility: str | None = None
    ) -> dict[str, Any]:
        fact = await mem.remember(content, user=user, category=category, importance=importance, visibility=visibility)
        return _fact(fact)

    @server.tool(description="Find what memory holds about a question: facts, past messages, summaries.")
    async def recall(query: str, limit: int = 5, kinds: list[str] | None = None) -> list[dict[str, Any]]:
        hits = await mem.recall(query, user=user, limit=limit, kinds=kinds)
        return [
            {"kind": h.kind, "id": h.id, "text": h.text, "score": round(h.score, 4), "thread": h.thread} for h in hits
        ]

    @server.tool(description="Forget one of the user's facts by its id (from recall or list_facts).")
    async def forget(fact_id: int) -> dict[str, Any]:
        return _fact(await mem.forget(fact_id, user=user))

    @server.tool(description="The facts memory holds that the user may see (their own, shared, the agent's).")
    async def list_facts(
        subject: str | None = None, category: str | None = None, limit: int = 50
    ) -> list[dict[str, Any]]:
        return [_fact(f) for f in await mem.facts(user, subject=subject, category=category, limit=limit)]

    @server.tool(description="Store one message of a conversation (thread): role user, assistant or system.")
    async def add_message(thread: str, role: str, content: str) -> dict[str, Any]:
        key = await _thread(thread)
        message = await mem.add_message(key, role, content, user=user if role == "user" else None)
        return {"id": message.id, "thread": key, "seq": message.seq}

    @server.tool(description="What to send the model next in a thread, within a token budget.")
    async def get_context(thread: str, query: str | None = None, budget: int | None = None) -> dict[str, Any]:
        ctx = await mem.context(await _thread(thread), query=query, user=user, budget=budget)
        return {"messages": ctx.to_messages(), "tokens": ctx.tokens, "budget": ctx.budget}

    return server


def _fact(fact: Any) -> dict[str, Any]:
    return {
        "id": fact.id,
        "content": fact.content,
        "category": fact.category,
        "importance": fact.importance,
        "visibility": fact.visibility,
        "subject": fact.subject,
    }


def run_stdio(memory: Memory, user: str | None) -> None:
    """Serve the tools over stdin/stdout until the client closes them."""
    build_server(memory, user).run("stdio")
