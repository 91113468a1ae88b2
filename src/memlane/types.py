"""The records memlane stores and returns.

Dataclasses inside, pydantic only at the borders (settings, HTTP bodies, LLM output).
Every record carries the agent it belongs to; the agent is the hard isolation boundary.
"""

from __future__ import annotations

from dataclasses import MISSING, dataclass, field, fields
from datetime import date, datetime
from typing import Any, Literal, TypeVar

__all__ = [
    "CATEGORIES",
    "KEY_SCOPES",
    "ROLES",
    "VISIBILITIES",
    "ApiKey",
    "Fact",
    "FactChange",
    "Hit",
    "HitGroup",
    "Job",
    "Message",
    "MessageHead",
    "Role",
    "Summary",
    "Thread",
    "UsageDay",
    "UsageRecord",
    "UsageTotals",
    "UserRecord",
    "Visibility",
]

Role = Literal["user", "assistant", "system", "tool"]
Visibility = Literal["private", "shared"]

ROLES: tuple[str, ...] = ("user", "assistant", "system", "tool")
VISIBILITIES: tuple[str, ...] = ("private", "shared")
#: Built-in fact categories. Others are accepted if they look like an identifier (the list is extensible).
CATEGORIES: tuple[str, ...] = (
    "fact",
    "preference",
    "topic",
    "personality",
    "hobby",
    "relationship",
    "milestone",
    "occupation",
    "habit",
    "other",
)


_C = TypeVar("_C", bound=type)


class _Factory:
    """The default of a parameter whose field has a default factory (shown as dataclasses shows it)."""

    def __repr__(self) -> str:
        return "<factory>"


_FACTORY = _Factory()


def fast_init(cls: _C) -> _C:
    """Give a frozen, slotted dataclass an ``__init__`` that sets each field through its slot.

    A frozen dataclass's own ``__init__`` sets every field with ``object.__setattr__`` (its instances refuse
    plain assignment), which takes about twice as long; a search builds several hundred records per
    ``recall()`` (rows read back, candidates, ranked hits). Same parameters, defaults and default
    factories; the class stays frozen (its ``__setattr__`` is untouched). Applied on top of
    ``@dataclass(frozen=True, slots=True)``; a class with a ``__post_init__`` or a field left out of
    ``__init__`` is refused.
    """
    if hasattr(cls, "__post_init__") or any(not f.init for f in fields(cls)):
        raise TypeError(f"fast_init: {cls.__name__} has a __post_init__ or a field outside __init__")
    namespace: dict[str, Any] = {"_FACTORY": _FACTORY}
    params, body = [], []
    for i, f in enumerate(fields(cls)):
        namespace[f"_set_{i}"] = getattr(cls, f.name).__set__
        if f.default is not MISSING:
            namespace[f"_default_{i}"] = f.default
            params.append(f"{f.name}=_default_{i}")
        elif f.default_factory is not MISSING:
            namespace[f"_factory_{i}"] = f.default_factory
            params.append(f"{f.name}=_FACTORY")
            body.append(f"    if {f.name} is _FACTORY: {f.name} = _factory_{i}()")
        else:
            params.append(f.name)
        body.append(f"    _set_{i}(self, {f.name})")
    exec(f"def __init__(self, {', '.join(params)}):\n" + "\n".join(body), namespace)
    init = namespace["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    init.__annotations__ = {**{f.name: f.type for f in fields(cls)}, "return": None}
    cls.__init__ = init  # type: ignore[misc]  # replacing the class's own method is the point
    return cls


@dataclass(frozen=True, slots=True)
class Thread:
    """One conversation (a channel, a session), named by the caller within an agent."""

    agent: str
    key: str
    status: Literal["open", "ended"]
    system_prompt: str | None
    metadata: dict[str, Any]
    created_at: datetime
    updated_at: datetime
    ended_at: datetime | None = None
    message_count: int = 0
    users: tuple[str, ...] = ()


@fast_init
@dataclass(frozen=True, slots=True)
class Message:
    """One stored chat message.

    ``seq`` is its position in the thread: 1, 2, 3 … with no gaps and no repeats. After ``reset()`` the
    numbering goes on where it stopped (seqs are never reused, so ranges recorded in facts and summaries
    stay unambiguous).
    """

    id: int
    agent: str
    thread: str
    seq: int
    role: Role
    content: str
    user: str | None
    name: str | None
    tool_calls: list[dict[str, Any]] | None
    tool_call_id: str | None
    token_count: int
    metadata: dict[str, Any]
    created_at: datetime
    summarized: bool = False

    def to_openai(self) -> dict[str, Any]:
        """This message in the OpenAI chat-completions wire format."""
        out: dict[str, Any] = {"role": self.role, "content": self.content}
        if self.role == "assistant" and self.tool_calls:
            out["tool_calls"] = self.tool_calls
            if not self.content:
                out["content"] = None
        if self.role == "tool" and self.tool_call_id is not None:
            out["tool_call_id"] = self.tool_call_id
        if self.name and self.role in ("user", "assistant", "system"):
            out["name"] = self.name
        return out


@fast_init
@dataclass(frozen=True, slots=True)
class MessageHead:
    """The light part of a stored message: its place (``thread``, ``seq``), who spoke (``user``, ``name``),
    when, and its size in tokens — the same values as the :class:`Message` with this ``id``.

    A search ranks its candidates and chooses their windows by these alone and reads the full rows only of
    the turns it shows (a few dozen of the ~150 it ranks).
    """

    id: int
    thread: str
    seq: int
    user: str | None
    name: str | None
    token_count: int
    created_at: datetime


@fast_init
@dataclass(frozen=True, slots=True)
class Fact:
    """A remembered memory: something about a user (``owner``) or about a ``subject``.

    ``owner`` is None for the agent's own memories, which every user of the agent may see.
    """

    id: int
    agent: str
    content: str
    category: str
    importance: int
    owner: str | None
    subject: str | None
    visibility: Visibility
    source_thread: str | None
    source_from_seq: int | None
    source_to_seq: int | None
    metadata: dict[str, Any]
    created_at: datetime
    updated_at: datetime
    last_accessed_at: datetime | None
    access_count: int
    status: Literal["active", "superseded"] = "active"
    valid_from: datetime | None = None
    invalid_at: datetime | None = None
    superseded_by: int | None = None


@dataclass(frozen=True, slots=True)
class FactChange:
    """One entry of a fact's audit history."""

    id: int
    fact_id: int
    action: str
    actor: str | None
    old_content: str | None
    new_content: str | None
    changes: dict[str, Any]
    at: datetime


@fast_init
@dataclass(frozen=True, slots=True)
class Summary:
    """A summary of a range of a thread's messages (or an agent memory, a digest ...)."""

    id: int
    agent: str
    thread: str | None
    kind: str
    content: str
    from_seq: int | None
    to_seq: int | None
    owner: str | None
    method: str
    metadata: dict[str, Any]
    created_at: datetime


@fast_init
@dataclass(frozen=True, slots=True)
class Hit:
    """One ranked result of :meth:`memlane.Memory.recall`, with its provenance.

    A message hit may show a window of neighbouring turns: then ``text`` holds one ``speaker: content``
    line per turn, ``user`` is None, ``message_ids`` lists every turn shown (in thread order) and
    ``message_id``/``seq``/``created_at``/``metadata`` are those of the turn that matched. A single-turn hit
    has the bare content in ``text`` and its speaker in ``user``. ``created_at`` dates the item (for a
    message: when it was said). ``score`` orders hits of one search; it is not comparable across searches.
    ``retrievers`` names the retrievers that found the item (e.g. ``("keyword", "vector")``); ``("nearby",)``
    when none did and the message joined as the turn just beyond a better candidate's window
    (``SearchConfig.beyond_window``).
    """

    kind: Literal["message", "fact", "summary"]
    id: int
    text: str
    score: float
    thread: str | None
    message_id: int | None
    created_at: datetime
    metadata: dict[str, Any] = field(default_factory=dict)
    user: str | None = None
    seq: int | None = None
    message_ids: tuple[int, ...] = ()
    retrievers: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class HitGroup:
    """The hits of one thread, as :meth:`memlane.Memory.recall` returns them with ``group_by="thread"``.

    ``thread`` is None for hits not tied to a thread (most facts). ``hits`` are in the order they happened;
    ``score`` is the best hit's, and groups come best first.
    """

    thread: str | None
    score: float
    hits: tuple[Hit, ...]


@dataclass(frozen=True, slots=True)
class Job:
    """A durable background job (summarize a thread, create a memory, merge a profile ...)."""

    id: int
    agent: str
    kind: str
    payload: dict[str, Any]
    status: Literal["pending", "running", "done", "dead"]
    attempts: int
    max_attempts: int
    run_after: datetime
    lease_owner: str | None
    lease_expires_at: datetime | None
    last_error: str | None
    created_at: datetime
    updated_at: datetime


@dataclass(frozen=True, slots=True)
class UsageRecord:
    """One LLM call as stored: a :class:`UsageEvent` with its agent resolved and its time."""

    agent: str
    operation: str
    model: str
    prompt_tokens: int
    completion_tokens: int
    latency_s: float
    ok: bool
    error: str | None
    at: datetime


@dataclass(frozen=True, slots=True)
class UsageTotals:
    """What one agent spent on one operation."""

    agent: str
    operation: str
    calls: int
    failures: int
    prompt_tokens: int
    completion_tokens: int
    latency_s: float
    p95_latency_s: float | None

    @property
    def total_tokens(self) -> int:
        """Prompt plus completion tokens."""
        return self.prompt_tokens + self.completion_tokens

    @property
    def mean_latency_s(self) -> float | None:
        """Average seconds per call (None before the first call)."""
        return self.latency_s / self.calls if self.calls else None


@dataclass(frozen=True, slots=True)
class UsageDay:
    """An agent's LLM use on one UTC day."""

    day: date
    calls: int
    tokens: int


@dataclass(frozen=True, slots=True)
class UserRecord:
    """What memlane keeps about one user of an agent: their preferred persona, the context they
    asked the bot to keep in mind, how many messages they sent and when they last wrote."""

    user: str
    persona: str | None = None
    custom_context: str | None = None
    interactions: int = 0
    last_interaction: datetime | None = None


#: What an API key may do: every agent (admin), one agent for any of its users, or one user of one agent.
KEY_SCOPES: tuple[str, ...] = ("admin", "agent", "user")


@dataclass(frozen=True, slots=True)
class ApiKey:
    """An API key as stored: only the SHA-256 of the key itself, and the key's first characters to tell it apart.

    ``agent`` is None for an admin key; ``user`` is set for a user key only.
    """

    id: int
    prefix: str
    scope: Literal["admin", "agent", "user"]
    agent: str | None
    user: str | None
    label: str | None
    created_at: datetime
    expires_at: datetime | None
    revoked_at: datetime | None

    def active(self, now: datetime) -> bool:
        """Neither revoked nor expired at ``now``."""
        return self.revoked_at is None and (self.expires_at is None or now < self.expires_at)
