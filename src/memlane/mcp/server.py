"""The MCP tools: remember, recall, forget, list_facts, add_message, get_context, for one agent.

Every tool acts for the user the server was started for (``memlane mcp --user``, or the user key that called
``memlane serve``'s ``/mcp``): it sees and changes only what that user may, exactly as :class:`~memlane.Memory`
with ``user=`` does, and reaches only the threads the user started or was added to
(:meth:`~memlane.Memory.user_thread`, the rule of the HTTP service's user keys); a ``user`` argument naming
someone else is an error. A server for the agent itself (no user; an agent key over HTTP) takes the user as
each tool's ``user`` argument. A memlane error becomes the tool's error result (its one-line message), never a
crash of the server.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError

from ..async_memory import AsyncMemory
from ..errors import InvalidInput, MemlaneError
from ..memory import Memory

__all__ = ["TOOLS", "Acting", "build_acting_server", "build_server", "run_stdio"]

TOOLS = ("remember", "recall", "forget", "list_facts", "add_message", "get_context")

_INSTRUCTIONS = (
    "Long-term memory for this user. Call recall before answering questions about the user or earlier "
    "conversations; call remember when the user states a lasting fact or preference; add_message stores a turn "
    "of a conversation (a thread) and get_context returns what to send the model for that thread."
)


@dataclass(frozen=True, slots=True)
class Acting:
    """Whom a tool call acts for: the memory (of one agent) and the user. ``fixed``: the user comes from the
    credentials (a server run for one user, a user key), so a tool's ``user`` argument may not change it;
    otherwise (an agent's own server, an agent key) the tools act for the ``user`` they are given."""

    memory: AsyncMemory
    user: str | None
    fixed: bool


def build_server(memory: Memory | AsyncMemory, user: str | None) -> MCPServer:
    """An MCP server whose tools act on ``memory`` for ``user`` (None: the agent's own memory; its tools then
    take the user as an argument)."""
    mem = memory if isinstance(memory, AsyncMemory) else AsyncMemory.wrap(memory)
    if user is not None and (not isinstance(user, str) or not user.strip()):
        raise InvalidInput("user must be a non-empty string or None")
    acting = Acting(mem, user, user is not None)
    return build_acting_server(lambda: acting)


def build_acting_server(acting: Callable[[], Acting]) -> MCPServer:
    """An MCP server whose tools ask ``acting()`` at each call whom they act for (the HTTP service's ``/mcp``
    answers each request for the key that sent it)."""
    # WARNING: a tool error is the caller's to read, not the operator's; the SDK logs each one at INFO, and
    # stderr is the MCP client's log. A crash (anything but a memlane error) is still logged with its traceback.
    server: MCPServer = MCPServer(name="memlane", instructions=_INSTRUCTIONS, log_level="WARNING")

    def who(user: str | None) -> tuple[AsyncMemory, str | None]:
        now = acting()
        if now.fixed and user is not None and user != now.user:
            raise ToolError(f"this server acts for user {now.user!r} only")
        return now.memory, (now.user if now.fixed else user)

    async def thread_of(mem: AsyncMemory, user: str | None, thread: str, fixed: bool) -> str:
        """The thread the user means (their own, or one they were added to); the agent's own as named."""
        return await mem.user_thread(thread, user) if fixed and user is not None else thread

    @server.tool(description="Store a lasting fact about the user (their own, private unless shared).")
    async def remember(
        content: str,
        category: str = "fact",
        importance: int = 3,
        visibility: str | None = None,
        user: str | None = None,
    ) -> dict[str, Any]:
        mem, user = who(user)
        with _tool_errors():
            fact = await mem.remember(
                content, user=user, category=category, importance=importance, visibility=visibility
            )
        return _fact(fact)

    @server.tool(description="Find what memory holds about a question: facts, past messages, summaries.")
    async def recall(
        query: str, limit: int = 5, kinds: list[str] | None = None, user: str | None = None
    ) -> list[dict[str, Any]]:
        mem, user = who(user)
        with _tool_errors():
            hits = await mem.recall(query, user=user, limit=limit, kinds=kinds)
        return [
            {"kind": h.kind, "id": h.id, "text": h.text, "score": round(h.score, 4), "thread": h.thread} for h in hits
        ]

    @server.tool(description="Forget one of the user's facts by its id (from recall or list_facts).")
    async def forget(fact_id: int, user: str | None = None) -> dict[str, Any]:
        mem, user = who(user)
        with _tool_errors():
            return _fact(await mem.forget(fact_id, user=user))

    @server.tool(description="The facts memory holds that the user may see (their own, shared, the agent's).")
    async def list_facts(
        subject: str | None = None, category: str | None = None, limit: int = 50, user: str | None = None
    ) -> list[dict[str, Any]]:
        mem, user = who(user)
        with _tool_errors():
            return [_fact(f) for f in await mem.facts(user, subject=subject, category=category, limit=limit)]

    @server.tool(description="Store one message of a conversation (thread): role user, assistant or system.")
    async def add_message(thread: str, role: str, content: str, user: str | None = None) -> dict[str, Any]:
        now = acting()
        mem, user = who(user)
        with _tool_errors():
            key = await thread_of(mem, user, thread, now.fixed)
            message = await mem.add_message(key, role, content, user=user if role == "user" else None)
        return {"id": message.id, "thread": key, "seq": message.seq}

    @server.tool(description="What to send the model next in a thread, within a token budget.")
    async def get_context(
        thread: str, query: str | None = None, budget: int | None = None, user: str | None = None
    ) -> dict[str, Any]:
        now = acting()
        mem, user = who(user)
        with _tool_errors():
            key = await thread_of(mem, user, thread, now.fixed)
            ctx = await mem.context(key, query=query, user=user, budget=budget)
        return {"messages": ctx.to_messages(), "tokens": ctx.tokens, "budget": ctx.budget}

    return server


@contextmanager
def _tool_errors() -> Iterator[None]:
    """A memlane error becomes the tool's error result carrying its message (the SDK would hide it otherwise)."""
    try:
        yield
    except MemlaneError as exc:
        raise ToolError(str(exc)) from None


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
