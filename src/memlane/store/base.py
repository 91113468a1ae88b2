"""The storage contract every backend implements (SQLite and PostgreSQL).

Above this layer nothing knows which database it talks to: no SQL, no SQLite-isms. Every method that
writes is one transaction; every method takes the agent name first, and never reads or writes outside
that agent. ``tests/test_store_contract.py`` is the contract's test suite, run on every backend.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, Literal, TypeAlias, cast

from ..errors import InvalidInput
from ..types import (
    ApiKey,
    Fact,
    FactChange,
    Job,
    Message,
    MessageHead,
    Summary,
    Thread,
    UsageRecord,
    UsageTotals,
    UserRecord,
    fast_init,
)
from ..validation import NewFact, NewJob, NewMessage, NewSummary

if TYPE_CHECKING:  # numpy loads with a store's backend, not with the contract (`import memlane` needs none)
    import numpy as np

__all__ = [
    "Candidate",
    "FactFilter",
    "QueryVector",
    "Scope",
    "StatedFact",
    "Store",
    "StoreStatus",
    "ThreadAppend",
    "WriteVectors",
    "vectors_now",
]

#: The query's embedding, asked for only when a keyword search needs it (see :meth:`Store.keyword_search`).
QueryVector: TypeAlias = "Callable[[], np.ndarray]"
#: The vectors a write stores with its rows: the rows themselves, or a call that returns them, made inside
#: the write's transaction once the rows are written, so the texts are embedded while the rows are stored
#: (see :meth:`Store.add_messages`).
WriteVectors: TypeAlias = "np.ndarray | Callable[[], np.ndarray]"


def vectors_now(vectors: WriteVectors) -> np.ndarray:
    """The rows of ``vectors``, waiting for them if they are still being computed."""
    return vectors() if callable(vectors) else vectors


def _stored(
    agent: str, append: ThreadAppend, times: Sequence[datetime], written: tuple[int, list[int]]
) -> list[Message]:
    """An append's messages as written: ``times`` their creation times, ``written`` the first sequence number
    taken and their ids."""
    first_seq, ids = written
    return [
        Message(
            id=ids[i],
            agent=agent,
            thread=append.thread,
            seq=first_seq + i,
            role=cast(Any, item.role),
            content=item.content,
            user=item.user,
            name=item.name,
            tool_calls=item.tool_calls,
            tool_call_id=item.tool_call_id,
            token_count=append.token_counts[i],
            metadata=item.metadata,
            created_at=times[i],
        )
        for i, item in enumerate(append.items)
    ]


def _counted(later: Callable[[], np.ndarray], count: int) -> Callable[[], np.ndarray]:
    """``later``, checked to return ``count`` rows when it is called."""

    def rows() -> np.ndarray:
        vectors = later()
        if len(vectors) != count:
            raise InvalidInput(f"{len(vectors)} vectors for {count} messages")
        return vectors

    return rows


@dataclass(frozen=True, slots=True)
class Scope:
    """Hard filters applied inside a search, never after it.

    ``user`` narrows facts to the user's own, shared and agent-level ones, and messages/summaries to the
    threads the user took part in (unless ``thread`` names one). ``user=None`` sees only shared and
    agent-level facts. ``metadata`` keeps only items whose metadata holds every ``key: value`` pair (top-level
    keys, JSON scalar values compared with their type, as :func:`memlane.validation.check_metadata_filter`
    checks them).
    """

    user: str | None = None
    thread: str | None = None
    kinds: tuple[str, ...] = ("message", "fact", "summary")
    since: datetime | None = None
    until: datetime | None = None
    include_superseded: bool = False
    metadata: Mapping[str, str | int | float | bool | None] | None = None


@fast_init
@dataclass(frozen=True, slots=True)
class Candidate:
    """One search result before hydration: what it is, and how well it matched (higher is better).

    ``coverage``, when the store measures it (message matches ranked by words), is how much of the query
    the match holds, by the words' IDFs: SQLite takes its BM25 score over the score of a message holding
    each query word once (the sum of the words' IDFs); PostgreSQL, whose ``ts_rank`` has no IDF, sums the
    IDFs of the words it holds over all of theirs. So ~1 for a match of every word (or of the rare ones)
    and near 0 for a match of only a common one. Unlike ``score`` it compares across queries; fusion uses
    it to weigh a keyword list that matched little of its query (``SearchConfig.keyword_coverage``). Both
    stores rank such matches by the IDFs of the words they hold (their ``score``: that sum over all of
    theirs), BM25 or ``ts_rank`` only breaking ties.
    """

    kind: Literal["message", "fact", "summary"]
    id: int
    score: float
    source: str = ""
    coverage: float | None = None


@dataclass(frozen=True, slots=True)
class StatedFact:
    """A fact stated in one of the messages of a :class:`ThreadAppend`, stored in the same transaction.

    ``item`` is the message's index in the append: the fact's source is that message (its thread and
    sequence number, whatever ``fact`` says of them). ``supersedes`` names active facts it replaces: each
    still active is marked ``superseded`` by it (``invalid_at`` = now), with a 'supersede' history entry.
    """

    item: int
    fact: NewFact
    vector: np.ndarray | None = None
    supersedes: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class ThreadAppend:
    """Messages to append to one thread, in a write of one or several threads (:meth:`Store.add_to_threads`):
    the checked items, their token counts, the jobs queued with them and the facts they state."""

    thread: str
    items: Sequence[NewMessage]
    token_counts: Sequence[int]
    jobs: Sequence[NewJob] = ()
    facts: Sequence[StatedFact] = ()


@dataclass(frozen=True, slots=True)
class FactFilter:
    """Which facts to list or delete. ``user`` is the viewer/owner as in :class:`Scope`."""

    user: str | None = None
    all_users: bool = False
    owned_only: bool = False
    subject: str | None = None
    category: str | None = None
    visibility: str | None = None
    thread: str | None = None
    include_superseded: bool = False


@dataclass(frozen=True, slots=True)
class StoreStatus:
    """What ``memlane db status`` shows. ``counts`` holds the rows of each table (of the agent, if one was
    asked for), and ``pending_vectors``: the messages stored whose vectors are still to come (see
    :mod:`memlane.memory.behind`)."""

    backend: str
    location: str
    schema_version: int
    counts: dict[str, int] = field(default_factory=dict)
    meta: dict[str, str] = field(default_factory=dict)


class Store(ABC):
    """A memlane database. Safe to share between threads; several processes may open the same one."""

    backend: str
    location: str
    #: Whether several reads may run at the same time from different threads, each on its own connection
    #: (the search engine then runs its retrievers in parallel). A store that says False is read by one
    #: thread at a time within a search.
    concurrent_reads: bool = False
    #: Whether a read waits on something outside this process (a database server): reads side by side then
    #: overlap those waits, whatever else a search waits for.
    reads_wait: bool = False
    #: Answer every vector search exactly, bypassing any approximate index (to measure the index's recall;
    #: SQLite indexes whole-agent searches of large agents, PostgreSQL every search through HNSW).
    exact_vectors: bool = False

    # -- lifecycle and schema -------------------------------------------------------------------
    @abstractmethod
    def close(self) -> None:
        """Release connections. The store must not be used afterwards."""

    @abstractmethod
    def schema_version(self) -> int:
        """The number of the newest migration applied."""

    @abstractmethod
    def status(self, agent: str | None = None) -> StoreStatus:
        """Location, schema version and row counts (of one agent, or of all)."""

    @abstractmethod
    def get_meta(self, key: str) -> str | None:
        """A value of the store's own key/value table (embedding model, dimension ...)."""

    @abstractmethod
    def set_meta(self, key: str, value: str) -> None:
        """Set a value of the store's key/value table."""

    @abstractmethod
    def list_agents(self) -> list[str]:
        """The names of every agent the store holds anything of, in code point order."""

    # -- threads and messages -------------------------------------------------------------------
    def add_messages(
        self,
        agent: str,
        thread: str,
        items: Sequence[NewMessage],
        token_counts: Sequence[int],
        now: datetime,
        vectors: WriteVectors | None = None,
        jobs: Sequence[NewJob] = (),
        *,
        vectors_later: bool = False,
    ) -> list[Message]:
        """Append messages to a thread (created if new) in one transaction; sequence numbers are gap-free.

        ``vectors`` (one L2-normalised float32 row per item) and ``jobs`` are stored in the same transaction.
        ``vectors`` may be a call returning the rows: it is made inside the transaction after the messages are
        written, and what it raises rolls the write back and reaches the caller. With ``vectors_later``
        (and no ``vectors``) the messages are recorded as waiting for their vectors, in the same transaction
        (see :meth:`pending_vectors`; :meth:`set_vectors` ends the wait).
        Raises InvalidInput if there are not as many vectors as items, or if both are given.
        """
        appended = self.add_to_threads(
            agent, [ThreadAppend(thread, items, token_counts, jobs)], now, vectors, vectors_later=vectors_later
        )
        return appended[0]

    def add_to_threads(
        self,
        agent: str,
        appends: Sequence[ThreadAppend],
        now: datetime,
        vectors: WriteVectors | None = None,
        *,
        vectors_later: bool = False,
    ) -> list[list[Message]]:
        """:meth:`add_messages` for several threads in one transaction: every thread's messages are stored, or
        none. ``vectors`` holds the rows of every append's items, in order; the call (when it is one) is made
        once every thread's messages are written. Each append's stated facts (:class:`StatedFact`) are stored
        in the same transaction, with their history entries and vectors. Returns each append's messages, in
        order."""
        count = sum(len(a.items) for a in appends)
        if vectors_later and vectors is not None:
            raise InvalidInput("a write stores its vectors or waits for them, not both")
        if callable(vectors):
            vectors = _counted(vectors, count)
        elif vectors is not None and len(vectors) != count:
            raise InvalidInput(f"{len(vectors)} vectors for {count} messages")
        for append in appends:
            if len(append.token_counts) != len(append.items):
                raise InvalidInput(f"{len(append.token_counts)} token counts for {len(append.items)} messages")
            if any(not 0 <= f.item < len(append.items) for f in append.facts):
                raise InvalidInput("a stated fact names a message its append does not hold")
        if count == 0:
            return [[] for _ in appends]
        filled = [a for a in appends if a.items]  # an append without items writes nothing and takes no number
        times = [[(item.created_at or now).astimezone(UTC) for item in a.items] for a in filled]
        written = self._append_messages(agent, filled, times, now, vectors, vectors_later)
        stored = iter(
            [_stored(agent, *each) for each in zip(filled, times, written, strict=True)]  # in the order of filled
        )
        return [next(stored) if append.items else [] for append in appends]

    @abstractmethod
    def _append_messages(
        self,
        agent: str,
        appends: Sequence[ThreadAppend],
        times: Sequence[Sequence[datetime]],
        now: datetime,
        vectors: WriteVectors | None,
        vectors_later: bool,
    ) -> list[tuple[int, list[int]]]:
        """The write of :meth:`add_to_threads`, in one transaction (every append holds items; ``times``: each
        append's items' creation times in UTC). The vectors, when a call,
        are asked for with :func:`vectors_now` once every append's messages are written; with
        ``vectors_later`` the messages' ids go into the pending vectors. Returns, per append, the first
        sequence number taken and the ids of its messages, in order."""

    @abstractmethod
    def get_thread(self, agent: str, thread: str) -> Thread | None:
        """The thread, or None."""

    @abstractmethod
    def list_threads(
        self, agent: str, *, user: str | None, status: str | None, limit: int | None, offset: int
    ) -> list[Thread]:
        """Threads, most recently updated first, optionally only those ``user`` took part in."""

    def upsert_thread(
        self,
        agent: str,
        thread: str,
        now: datetime,
        *,
        system_prompt: str | None = None,
        metadata: dict[str, Any] | None = None,
        status: str | None = None,
        jobs: Sequence[NewJob] = (),
    ) -> Thread:
        """Create the thread if needed and set the given fields (None leaves a field as it is); ``jobs``
        are queued in the same transaction. Setting the status sets the end time too (``now`` if "ended",
        else none)."""
        changes: dict[str, Any] = {}
        if system_prompt is not None:
            changes["system_prompt"] = system_prompt
        if metadata is not None:
            changes["metadata"] = metadata
        if status is not None:
            changes["status"] = status
            changes["ended_at"] = now if status == "ended" else None
        return self._upsert_thread(agent, thread, now, changes, jobs)

    @abstractmethod
    def _upsert_thread(
        self, agent: str, thread: str, now: datetime, changes: Mapping[str, Any], jobs: Sequence[NewJob]
    ) -> Thread:
        """The write of :meth:`upsert_thread`: ``changes`` are the columns to set (of system_prompt,
        metadata, status, ended_at), besides the time of the last update."""

    @abstractmethod
    def messages(
        self,
        agent: str,
        thread: str,
        *,
        limit: int | None = None,
        before_seq: int | None = None,
        after_seq: int | None = None,
        unsummarized_only: bool = False,
        roles: Sequence[str] | None = None,
    ) -> list[Message]:
        """Messages in order of ``seq``; with ``limit``, the newest ``limit`` of them (still in order); with
        ``roles``, only messages of those roles."""

    @abstractmethod
    def get_messages(self, agent: str, ids: Sequence[int]) -> list[Message]:
        """The messages with these ids that belong to ``agent`` (missing ids are skipped), in id order."""

    def message_heads(self, agent: str, ids: Sequence[int]) -> list[MessageHead]:
        """The light part of the messages with these ids that belong to ``agent`` (missing ids are skipped),
        in id order: what a search ranks by before it reads the turns it shows in full.

        This default reads the full messages; a backend should override it with a query of those columns.
        """
        return [
            MessageHead(m.id, m.thread, m.seq, m.user, m.name, m.token_count, m.created_at)
            for m in self.get_messages(agent, ids)
        ]

    def message_windows(
        self, agent: str, ids: Sequence[int], *, before: int, after: int, skip: Collection[int] = ()
    ) -> list[Message]:
        """For each message id, the messages of its thread from ``before`` positions before it to ``after``
        positions after it (itself included); each message once, ordered by thread key then ``seq``. Ids
        that are not the agent's are skipped, and so are the messages whose ids are in ``skip`` (the
        caller has them already).

        This default costs one query per id; a backend should override it with one query.
        """
        found: dict[int, Message] = {}
        for anchor in self.get_messages(agent, ids):
            for m in self.messages(
                agent, anchor.thread, after_seq=anchor.seq - before - 1, before_seq=anchor.seq + after + 1
            ):
                if m.id not in skip:
                    found[m.id] = m
        return sorted(found.values(), key=lambda m: (m.thread, m.seq))

    @abstractmethod
    def clear_thread(self, agent: str, thread: str) -> int:
        """Delete the thread's messages and summaries, keep the thread; returns messages deleted."""

    @abstractmethod
    def delete_thread(self, agent: str, thread: str) -> bool:
        """Delete the thread with its messages and summaries; facts stay. False if it did not exist."""

    @abstractmethod
    def prune_threads(self, agent: str, updated_before: datetime) -> int:
        """Delete threads last active before the cutoff; returns how many."""

    @abstractmethod
    def prune_messages(self, agent: str, created_before: datetime, *, thread: str | None = None) -> int:
        """Delete the agent's messages created before the cutoff, in ``thread`` or in all its threads, with
        their vectors and keyword-index entries, in one transaction; returns how many.

        The threads stay, with their sequence numbering (new messages continue after the highest seq ever
        used), activity time and participants; ``message_count`` drops by the messages deleted. Summaries,
        memories and facts stay.

        Raises:
            NotFound: ``thread`` is given and does not exist in ``agent``.
        """

    @abstractmethod
    def speakers(self, agent: str) -> list[str]:
        """The names the agent's messages were spoken under, display names and user ids alike, each once, in
        order; kept as messages are written (a name stays after its messages are deleted)."""

    @abstractmethod
    def get_user(self, agent: str, user: str) -> UserRecord | None:
        """What is kept about ``user`` in ``agent`` (None: nothing yet). User messages count as interactions,
        in the transaction that stores them."""

    @abstractmethod
    def set_user(self, agent: str, user: str, changes: Mapping[str, str | None], now: datetime) -> UserRecord:
        """Set ``persona`` and/or ``custom_context`` (None clears one) of ``user``, creating the record."""

    @abstractmethod
    def edit_message(
        self,
        agent: str,
        thread: str,
        message_id: int,
        content: str,
        token_count: int,
        vector: np.ndarray | None = None,
    ) -> Message:
        """Replace a message's content (an edit on the chat platform) with its keyword-index entry, token count
        and (when given) vector, in one transaction; its id, seq, time and speaker stay. Returns it.

        Raises:
            NotFound: no such thread, or no such message in it.
        """

    @abstractmethod
    def find_external_message(self, agent: str, thread: str, external_id: str) -> int | None:
        """The id of the thread's message whose ``metadata["external_id"]`` is ``external_id`` (None if none)."""

    @abstractmethod
    def delete_messages(self, agent: str, thread: str, ids: Sequence[int]) -> int:
        """Delete the thread's messages with these ids, with their vectors and keyword-index entries, in one
        transaction; returns how many were deleted (ids of other threads or agents are left alone).

        The thread keeps its sequence numbering (a later message takes the next seq ever given) and its ids
        are never given again; ``message_count`` drops by the messages deleted.

        Raises:
            NotFound: ``thread`` does not exist in ``agent``.
        """

    # -- facts ----------------------------------------------------------------------------------
    @abstractmethod
    def add_fact(
        self,
        agent: str,
        fact: NewFact,
        *,
        actor: str | None,
        now: datetime,
        vector: np.ndarray | None = None,
        jobs: Sequence[NewJob] = (),
    ) -> Fact:
        """Store a fact (and its vector), its 'create' history entry and ``jobs`` in one transaction."""

    @abstractmethod
    def get_facts(self, agent: str, ids: Sequence[int]) -> list[Fact]:
        """The facts with these ids in ``agent`` (missing ids skipped), in id order."""

    @abstractmethod
    def list_facts(self, agent: str, flt: FactFilter, *, limit: int | None, offset: int = 0) -> list[Fact]:
        """Facts visible under the filter, most important then most recent first."""

    @abstractmethod
    def update_fact(
        self,
        agent: str,
        fact_id: int,
        changes: dict[str, Any],
        *,
        actor: str | None,
        now: datetime,
        action: str,
        vector: np.ndarray | None = None,
        jobs: Sequence[NewJob] = (),
    ) -> Fact:
        """Apply field changes (and replace the vector if given), record them in the history and queue
        ``jobs``, in one transaction. Raises NotFound."""

    @abstractmethod
    def delete_facts(
        self,
        agent: str,
        ids: Sequence[int],
        *,
        actor: str | None,
        now: datetime,
        purge_history: bool,
        jobs: Sequence[NewJob] = (),
    ) -> int:
        """Delete facts, recording a 'delete' history entry unless purging history too, and queue ``jobs``
        (only if something was deleted); returns count."""

    @abstractmethod
    def fact_history(self, agent: str, fact_id: int) -> list[FactChange]:
        """A fact's audit history, oldest first (also for deleted facts)."""

    @abstractmethod
    def touch_facts(self, agent: str, ids: Sequence[int], now: datetime) -> None:
        """Bump last-accessed time and access count of facts that were used."""

    # -- summaries ------------------------------------------------------------------------------
    @abstractmethod
    def summaries(
        self,
        agent: str,
        *,
        thread: str | None,
        kind: str | None,
        limit: int | None,
        owners: Sequence[str | None] | None = None,
    ) -> list[Summary]:
        """Summaries, newest first; with ``owners``, only those owned by one of them (None: owner-less)."""

    @abstractmethod
    def get_summaries(self, agent: str, ids: Sequence[int]) -> list[Summary]:
        """The summaries with these ids in ``agent``, in id order."""

    @abstractmethod
    def add_summary(
        self,
        agent: str,
        thread: str | None,
        summary: NewSummary,
        now: datetime,
        *,
        vector: np.ndarray | None = None,
        mark_summarized: bool = False,
    ) -> tuple[Summary, bool]:
        """Store a summary (with its vector) unless one exists for the same (thread, kind, range); with
        ``mark_summarized`` the thread's messages in the range are marked summarized in the same
        transaction. Returns (the summary, whether it was created now)."""

    @abstractmethod
    def delete_summaries(self, agent: str, ids: Sequence[int]) -> int:
        """Delete summaries by id; returns how many."""

    # -- vectors --------------------------------------------------------------------------------
    @abstractmethod
    def vector_search(self, agent: str, query: np.ndarray, scope: Scope, limit: int) -> list[Candidate]:
        """The ``limit`` items nearest to ``query`` by cosine similarity (score), scope applied inside."""

    @abstractmethod
    def set_vectors(self, agent: str, kind: str, ids: Sequence[int], vectors: np.ndarray) -> None:
        """Store or replace the vectors of items (kind "message", "fact" or "summary") that exist (ids of
        deleted items are skipped); the messages among them no longer wait for their vectors."""

    @abstractmethod
    def pending_vectors(self, limit: int, *, after: int = 0) -> list[Message]:
        """Up to ``limit`` messages (any agent) written with ``vectors_later`` whose vectors have not been
        set yet, with ids above ``after``, oldest first: those a process was still embedding when it
        stopped."""

    @abstractmethod
    def get_vectors(self, agent: str, kind: str, ids: Sequence[int]) -> tuple[list[int], np.ndarray]:
        """The stored vectors of items (kind "message", "fact" or "summary") of ``agent``.

        Returns ``(found, matrix)``: the ids of ``ids`` that have a vector, in the order given, and a
        float32 matrix with one row per found id. Ids without a vector (or of another agent) are left out.
        """

    @abstractmethod
    def items_without_vectors(self, kind: str, limit: int) -> list[Message | Fact | Summary]:
        """Up to ``limit`` items of ``kind`` (any agent) that have no vector yet, oldest first."""

    @abstractmethod
    def drop_vectors(self) -> int:
        """Delete every stored vector (before re-embedding with another model) and the pending ones (every
        item is then without a vector, see :meth:`items_without_vectors`); returns how many."""

    # -- search ---------------------------------------------------------------------------------
    @abstractmethod
    def keyword_search(
        self, agent: str, query: str, scope: Scope, limit: int, *, query_vector: QueryVector | None = None
    ) -> list[Candidate]:
        """Full-text search (stemmed, BM25-ranked) over messages, facts and summaries within the scope.

        ``query_vector``, when given, returns the query's embedding (a unit float32 vector of the store's
        dimension). A store may call it to rank matches a cheaper way where BM25 is costly: SQLite ranks the
        messages of a whole-agent search of a large agent, those holding the query's rarest words, by their
        vectors' cosine to it; PostgreSQL ranks the best of such matches by ``ts_rank`` again by their
        vectors. A store may also ignore it.

        A store that knows how much of the query a match holds sets its ``coverage`` (see
        :class:`Candidate`): both do for messages ranked by their words (by the IDFs of the query words
        they hold), not for those ranked by their vectors."""

    # -- jobs ---------------------------------------------------------------------------------------
    # Jobs are enqueued with ``enqueue_jobs`` or, to share the transaction of the write that causes
    # them, through the ``jobs=`` argument of the writes that accept it. A job's ``dedupe_key`` is
    # unique among pending jobs only: claiming a job clears it, so new work can be queued meanwhile.
    @abstractmethod
    def enqueue_jobs(self, agent: str, jobs: Sequence[NewJob], now: datetime) -> list[Job]:
        """Queue jobs in one transaction; returns the jobs created (duplicates of pending ones are skipped)."""

    @abstractmethod
    def claim_jobs(
        self,
        worker: str,
        now: datetime,
        *,
        lease_seconds: float,
        limit: int,
        kinds: Sequence[str] | None = None,
        exclusive: Sequence[str] = (),
    ) -> list[Job]:
        """Lease up to ``limit`` ready jobs (pending with ``run_after <= now``, or running with an expired
        lease) to ``worker``, oldest first; each claim adds one attempt. No job is leased twice at once.

        A job of a kind in ``exclusive`` is not claimed while another job of its agent, kind and payload holds
        a lease that has not expired: two summaries of one thread never run side by side (a job is queued
        again as soon as the last one is claimed, so the next may be ready while it runs)."""

    @abstractmethod
    def complete_job(self, job_id: int, worker: str, now: datetime) -> bool:
        """Mark a leased job done; False if ``worker`` no longer holds its lease."""

    @abstractmethod
    def fail_job(self, job_id: int, worker: str, error: str, now: datetime, retry_at: datetime | None) -> Job | None:
        """Record a failure: back to pending until ``retry_at``, or dead when attempts are used up or
        ``retry_at`` is None. None if ``worker`` no longer holds the lease."""

    @abstractmethod
    def defer_job(self, job_id: int, worker: str, until: datetime, reason: str) -> bool:
        """Put a leased job back to pending until ``until`` without counting the attempt (e.g. budget low)."""

    @abstractmethod
    def list_jobs(
        self, agent: str | None, *, status: str | None = None, kind: str | None = None, limit: int | None = 100
    ) -> list[Job]:
        """Jobs, newest first, of one agent or all."""

    @abstractmethod
    def retry_job(self, job_id: int, now: datetime) -> Job:
        """Send a dead (or done) job back to pending with its attempts reset. Raises NotFound."""

    # -- LLM usage ----------------------------------------------------------------------------------
    @abstractmethod
    def record_usage(self, records: Sequence[UsageRecord]) -> None:
        """Append LLM usage records (one per call) in one transaction."""

    @abstractmethod
    def usage_totals(self, agent: str | None, *, since: datetime | None = None) -> list[UsageTotals]:
        """Totals per (agent, operation) of the records at or after ``since``, of one agent or all."""

    # -- API keys (the HTTP server's credentials; store-wide, not per agent) -------------------------
    @abstractmethod
    def create_api_key(
        self,
        key_hash: str,
        prefix: str,
        scope: str,
        *,
        agent: str | None,
        user: str | None,
        label: str | None,
        now: datetime,
        expires_at: datetime | None = None,
    ) -> ApiKey:
        """Store a new key by its hash. Raises Conflict if the hash is already stored."""

    @abstractmethod
    def list_api_keys(self, *, include_revoked: bool = False) -> list[ApiKey]:
        """Every key, oldest first (revoked ones only with ``include_revoked``)."""

    @abstractmethod
    def revoke_api_key(self, key_id: int, now: datetime) -> ApiKey:
        """Mark a key revoked (idempotent: an already revoked key keeps its time). Raises NotFound."""

    @abstractmethod
    def api_key_by_hash(self, key_hash: str) -> ApiKey | None:
        """The key stored with this hash (revoked or expired too: the caller decides), or None."""

    # -- export / import ------------------------------------------------------------------------
    @abstractmethod
    def export_records(self, agent: str, threads: Sequence[str] | None) -> Iterator[dict[str, Any]]:
        """Every thread, message, fact, fact-history and summary record of the agent as plain dicts."""

    @abstractmethod
    def import_records(self, agent: str, records: Sequence[dict[str, Any]], *, on_conflict: str) -> dict[str, int]:
        """Write exported records in one transaction; returns counts per record type."""
