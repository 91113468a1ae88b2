"""Conversation threads and their messages: the part of :class:`~memlane.Memory` that writes and reads them."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from datetime import datetime, timedelta
from typing import Any

from ..errors import Forbidden, InvalidInput, NotFound, StorageError
from ..store.base import ThreadAppend, WriteVectors
from ..types import Message, Thread, UserRecord
from ..validation import (
    NewMessage,
    check_content,
    check_key,
    check_metadata,
    check_optional_key,
    new_message,
    new_message_from_item,
)
from .base import TOKEN_FIELDS, MemoryBase, check_count, check_positive, item_text

__all__ = ["ThreadsMixin"]


UNSET: Any = type("Unset", (), {"__repr__": lambda self: "UNSET"})()
"""Marker of an argument not given (None means: clear it)."""


class ThreadsMixin(MemoryBase):
    """Append messages, read history, and manage threads (set up, clear, end, delete, prune threads or messages)."""

    def _count(self, item: NewMessage | Message) -> int:
        return self.tokenizer.count_message({field: getattr(item, field) for field in TOKEN_FIELDS})

    def _no_thread(self, thread: str) -> NotFound:
        return NotFound(f"no thread {thread!r} in agent {self.agent!r}")

    def add_message(
        self,
        thread: str,
        role: str,
        content: str | None,
        *,
        user: str | None = None,
        name: str | None = None,
        tool_calls: list[dict[str, Any]] | str | None = None,
        tool_call_id: str | None = None,
        created_at: datetime | str | None = None,
        metadata: Mapping[str, Any] | str | None = None,
        external_id: str | None = None,
    ) -> Message:
        """Append one message to ``thread`` (created on first use) and return it as stored.

        ``content`` may be empty only for an assistant message that carries ``tool_calls``.
        ``created_at`` (datetime or ISO text; naive means UTC) lets you import history.
        ``external_id`` is the chat platform's id of the message (kept as ``metadata["external_id"]``,
        unique in the thread): a message delivered twice is stored once (the stored one is returned), and
        :meth:`external_message` finds it for the platform's edits and deletions.

        Raises:
            InvalidInput: a field is invalid (nothing is stored). StorageError: the write failed.

        Example:
            >>> msg = mem.add_message("general", "user", "I'm off to Chamonix next week", user="alice")
            >>> msg.seq, msg.role, msg.user
            (3, 'user', 'alice')
        """
        if external_id is not None:
            external = check_key(external_id, "external_id")
            known = self.external_message(thread, external)
            if known is not None:
                return known
            metadata = {**check_metadata(metadata), "external_id": external}
        item = new_message(
            role,
            content,
            user=user,
            name=name,
            tool_calls=tool_calls,
            tool_call_id=tool_call_id,
            created_at=created_at,
            metadata=metadata,
            max_chars=self.settings.max_content_chars,
        )
        key = check_key(thread, "thread")
        texts = [item_text(item)]
        embedding = self._embed_while_writing(texts)
        later = embedding is not None and embedding.later
        vectors = None if embedding is None or later else embedding.rows(0, 1)
        append = self._thread_append(key, [item])
        try:
            stored = self.store.add_to_threads(self.agent, [append], self._now(), vectors, vectors_later=later)[0]
        except (StorageError, InvalidInput):
            # Delivered twice at once (another process stored it first): the unique index refused this copy
            # (a broken constraint is InvalidInput on PostgreSQL).
            known = self.external_message(key, external_id) if external_id is not None else None
            if known is None:
                raise
            return known
        self._speakers.written([item])
        self._after_stated([append])
        if later:
            self._leave_behind(stored, texts)
        return stored[0]

    def _leave_behind(self, stored: list[Message], texts: Sequence[str]) -> None:
        """Queue stored messages written with ``vectors_later`` for embedding (see :mod:`.behind`)."""
        assert self._behind is not None and self.embedder is not None
        self._behind.offer(self.store, self.embedder, stored, texts)

    def message(self, thread: str, message_id: int) -> Message:
        """One message of ``thread``, by its id.

        Raises:
            InvalidInput: a bad thread key or id. NotFound: no such message in the thread.

        Example:
            >>> first = mem.history("general")[0]
            >>> mem.message("general", first.id).content
            "Hi, I'm Alice. I love hiking in the Alps."
        """
        key = check_key(thread, "thread")
        mid = check_positive(message_id, f"a message id must be a positive integer, not {message_id!r}"[:100])
        found = next(iter(self.store.get_messages(self.agent, [mid])), None)
        if found is None or found.thread != key:
            raise NotFound(f"no message {mid} in thread {key!r}")
        return found

    def edit_message(self, thread: str, message_id: int, content: str) -> Message:
        """Replace a message's text (the chat platform's edit): its keyword-index entry, token count and
        vector follow; its id, position, time and speaker stay. Returns it.

        Raises:
            InvalidInput: a bad thread key, id or content. NotFound: no such thread or message.

        Example:
            >>> first = mem.history("general")[0]
            >>> mem.edit_message("general", first.id, "Hi, I'm Alice. I love climbing.").content
            "Hi, I'm Alice. I love climbing."
        """
        current = self.message(thread, message_id)
        key, mid = current.thread, current.id
        text = check_content(content, "content", self.settings.max_content_chars)
        edited = replace(current, content=text)
        if self._behind is not None:  # the old text's vector, should it still be queued, must not come last
            self._behind.wait(self.store, self.agent, thread=key)
        vectors = self._embed([item_text(edited)])
        return self.store.edit_message(
            self.agent, key, mid, text, self._count(edited), None if vectors is None else vectors[0]
        )

    def user(self, user: str) -> UserRecord:
        """What is kept about ``user``: preferred persona, custom context, how many messages they
        sent (interactions) and when they last wrote; an empty record for a user memlane has not seen.

        Example:
            >>> record = mem.user("alice")
            >>> record.interactions
            1
        """
        key = check_key(user, "user")
        return self.store.get_user(self.agent, key) or UserRecord(key)

    def set_user(self, user: str, *, persona: str | None = UNSET, custom_context: str | None = UNSET) -> UserRecord:
        """Set the user's preferred persona and/or custom context (None clears one); ``context()`` for the
        user shows them in an "About <user>" section.

        Raises:
            InvalidInput: a bad user, or a value that is not text.

        Example:
            >>> mem.set_user("alice", persona="a patient guide").persona
            'a patient guide'
        """
        key = check_key(user, "user")
        changes: dict[str, str | None] = {}
        for name, value in (("persona", persona), ("custom_context", custom_context)):
            if value is not UNSET:
                changes[name] = None if value is None else check_content(value, name, 2000).strip() or None
        return self.store.set_user(self.agent, key, changes, self._now())

    def external_message(self, thread: str, external_id: str) -> Message | None:
        """The message of ``thread`` stored with this platform ``external_id`` (see :meth:`add_message`), to
        edit or delete it when the platform does; None if there is none.

        Example:
            >>> _ = mem.add_message("general", "user", "See you there", user="alice", external_id="slack:1001")
            >>> mem.external_message("general", "slack:1001").content
            'See you there'
        """
        found = self.store.find_external_message(
            self.agent, check_key(thread, "thread"), check_key(external_id, "external_id")
        )
        return None if found is None else next(iter(self.store.get_messages(self.agent, [found])), None)

    def add_messages(self, thread: str, items: Iterable[Mapping[str, Any]]) -> list[Message]:
        """Append several messages in one transaction: all are stored, or none.

        Each item is a dict with :meth:`add_message`'s keys (``role`` and ``content`` required).

        Raises:
            InvalidInput: an item is invalid (its index is in the message; nothing is stored).

        Example:
            >>> stored = mem.add_messages("trip", [
            ...     {"role": "user", "content": "Book a hut for Saturday", "user": "alice"},
            ...     {"role": "assistant", "content": "Done: the Refuge du Requin."},
            ... ])
            >>> [m.seq for m in stored]
            [1, 2]
        """
        key = check_key(thread, "thread")
        checked = self._new_messages(items)
        texts = [item_text(m) for m in checked]
        embedding = self._embed_while_writing(texts)
        if embedding is not None and embedding.later:
            stored = self._append(key, checked, None, later=True)
            self._leave_behind(stored, texts)
            return stored
        return self._append(key, checked, None if embedding is None else embedding.rows(0, len(checked)))

    def add_to_threads(self, messages: Mapping[str, Iterable[Mapping[str, Any]]]) -> dict[str, list[Message]]:
        """Append messages to several threads in one call: ``{thread: [item, ...], ...}``, each item a dict as
        for :meth:`add_messages`. Returns each thread's messages as stored, under its key, in the given order.

        The texts of all threads are embedded together, so a caller holding writes for many conversations at
        once (a bot's queue of incoming messages, an import) has the model run full batches instead of one
        small batch per thread. Every item is checked before anything is stored; then every thread's messages
        are stored in one transaction: all of them, or none.

        Raises:
            InvalidInput: ``messages`` is not a mapping, or a thread key or an item is invalid (the message
                names the thread and the item's index; nothing is stored).
            StorageError: the write failed; nothing is stored.

        Example:
            >>> written = mem.add_to_threads({
            ...     "dm-bob": [{"role": "user", "content": "Hi there", "user": "bob"}],
            ...     "dm-carol": [{"role": "user", "content": "Hello", "user": "carol"}],
            ... })
            >>> {thread: len(messages) for thread, messages in written.items()}
            {'dm-bob': 1, 'dm-carol': 1}
        """
        if not isinstance(messages, Mapping):
            raise InvalidInput(f"messages must map thread keys to lists of messages, not {type(messages).__name__}")
        writes: list[tuple[str, list[NewMessage]]] = []
        for thread, items in messages.items():
            key = check_key(thread, "thread")
            try:
                writes.append((key, self._new_messages(items)))
            except InvalidInput as exc:
                raise InvalidInput(f"thread {key!r}: {exc}") from exc
        texts = [item_text(m) for _, checked in writes for m in checked]
        embedding = self._embed_while_writing(texts)
        later = embedding is not None and embedding.later
        vectors = None if embedding is None or later else embedding.rows(0, len(texts))
        appends = [self._thread_append(key, checked) for key, checked in writes]
        appended = self.store.add_to_threads(self.agent, appends, self._now(), vectors, vectors_later=later)
        stored = {key: messages for (key, _), messages in zip(writes, appended, strict=True)}
        self._speakers.written(m for _, checked in writes for m in checked)
        self._after_stated(appends)
        if later:  # every thread's texts at once: one model run for them all
            self._leave_behind([m for ms in appended for m in ms], texts)
        return stored

    def _new_messages(self, items: Iterable[Mapping[str, Any]]) -> list[NewMessage]:
        """``items`` checked (see :meth:`add_messages`).

        Raises:
            InvalidInput: an item is invalid (its index is in the message).
        """
        return [new_message_from_item(item, i, self.settings.max_content_chars) for i, item in enumerate(items)]

    def _append(
        self, key: str, checked: list[NewMessage], vectors: WriteVectors | None, *, later: bool = False
    ) -> list[Message]:
        """Store checked messages (and their vectors, if any: perhaps still being embedded; with ``later``,
        their mark as waiting for them) at the end of thread ``key``, with the jobs the pipeline queues for
        them, in one transaction."""
        appends = [self._thread_append(key, checked)]
        stored = self.store.add_to_threads(self.agent, appends, self._now(), vectors, vectors_later=later)[0]
        self._speakers.written(checked)
        self._after_stated(appends)
        return stored

    def _thread_append(self, key: str, checked: list[NewMessage]) -> ThreadAppend:
        """Checked messages for thread ``key`` as the store writes them: with their token counts, the jobs the
        pipeline queues for them and the facts they state (:mod:`memlane.pipeline.stated`)."""
        if not checked:
            return ThreadAppend(key, checked, [], [])
        counts = [self._count(m) for m in checked]
        facts = self.pipeline.stated_facts(key, checked)
        jobs = self.pipeline.after_messages(key, checked)
        for owner in dict.fromkeys(f.fact.owner for f in facts):
            jobs += self.pipeline.after_fact_change(owner)
        return ThreadAppend(key, checked, counts, jobs, facts)

    def _after_stated(self, appends: Sequence[ThreadAppend]) -> None:
        """Hold ``max_facts_per_user`` for the owners of the facts stored with the messages just written."""
        for owner in dict.fromkeys(f.fact.owner for a in appends for f in a.facts):
            if owner is not None:
                self._enforce_fact_cap(owner, keep=0)

    def history(
        self, thread: str, limit: int | None = None, *, before: int | None = None, after: int | None = None
    ) -> list[Message]:
        """The thread's messages in order; with ``limit``, the last ``limit``. Empty for an unknown thread.

        Paging: ``before`` / ``after`` keep only messages whose ``seq`` is below / above the number given
        (the next page back is ``before=page[0].seq``).

        Example:
            >>> [(m.seq, m.role, m.user) for m in mem.history("general")]
            [(1, 'user', 'alice'), (2, 'assistant', None)]
        """
        for name, value in (("before", before), ("after", after)):
            if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < 0):
                raise InvalidInput(f"{name} must be a non-negative integer")
        return self.store.messages(
            self.agent,
            check_key(thread, "thread"),
            limit=check_count(limit, "limit"),
            before_seq=before,
            after_seq=after,
        )

    def thread(self, thread: str) -> Thread:
        """The thread's record.

        Raises:
            NotFound: no such thread in this agent.

        Example:
            >>> thread = mem.thread("general")
            >>> thread.status, thread.message_count, thread.users
            ('open', 2, ('alice',))
        """
        found = self.store.get_thread(self.agent, check_key(thread, "thread"))
        if found is None:
            raise self._no_thread(thread)
        return found

    def threads(
        self, user: str | None = None, *, status: str | None = None, limit: int | None = None, offset: int = 0
    ) -> list[Thread]:
        """Threads, most recently active first; with ``user``, only those the user wrote in.

        Example:
            >>> [thread.key for thread in mem.threads(user="alice")]
            ['general']
        """
        if status not in (None, "open", "ended"):
            raise InvalidInput(f"status must be 'open' or 'ended', not {status!r}")
        return self.store.list_threads(
            self.agent,
            user=check_optional_key(user, "user"),
            status=status,
            limit=check_count(limit, "limit"),
            offset=check_count(offset, "offset") or 0,
        )

    def set_thread(
        self, thread: str, *, system_prompt: str | None = None, metadata: Mapping[str, Any] | str | None = None
    ) -> Thread:
        """Create the thread if needed and set its system prompt and/or metadata.

        Example:
            >>> mem.set_thread("general", system_prompt="You are a hiking guide.").system_prompt
            'You are a hiking guide.'
        """
        prompt = None
        if system_prompt is not None:
            prompt = check_content(system_prompt, "system_prompt", self.settings.max_content_chars, allow_empty=True)
        meta = None if metadata is None else check_metadata(metadata)
        return self.store.upsert_thread(
            self.agent, check_key(thread, "thread"), self._now(), system_prompt=prompt, metadata=meta
        )

    def reset(self, thread: str) -> int:
        """Clear the conversation (messages and its summaries) but keep facts; returns messages cleared.

        Raises:
            NotFound: no such thread.

        Example:
            >>> mem.reset("general")
            2
        """
        return self.store.clear_thread(self.agent, check_key(thread, "thread"))

    def delete_thread(self, thread: str) -> None:
        """Delete the thread, its messages and summaries (facts learned from it stay).

        Raises:
            NotFound: no such thread.

        Example:
            >>> mem.delete_thread("general")
            >>> mem.threads()
            []
        """
        if not self.store.delete_thread(self.agent, check_key(thread, "thread")):
            raise self._no_thread(thread)

    def delete_messages(self, thread: str, ids: Iterable[int]) -> int:
        """Delete these messages of ``thread`` (by id; with their vectors and index entries); returns how many
        were found and deleted. The thread's numbering goes on after them, and their ids are not reused.

        Raises:
            InvalidInput: a bad thread key or id. NotFound: no such thread.

        Example:
            >>> reply = mem.history("general")[-1]
            >>> mem.delete_messages("general", [reply.id])
            1
        """
        key = check_key(thread, "thread")
        if isinstance(ids, str | bytes):
            raise InvalidInput("ids must be a list of message ids")
        wanted = [check_positive(i, f"a message id must be a positive integer, not {i!r}"[:100]) for i in ids]
        return self.store.delete_messages(self.agent, key, wanted)

    def prune(self, older_than_days: float) -> int:
        """Delete threads with no activity for ``older_than_days`` days; returns how many.

        Raises:
            InvalidInput: ``older_than_days`` is not a non-negative number.

        Example:
            >>> mem.prune(older_than_days=30)
            0
        """
        return self.store.prune_threads(self.agent, self._cutoff(older_than_days))

    def prune_messages(self, older_than_days: float, *, thread: str | None = None) -> int:
        """Delete messages older than ``older_than_days`` days, in ``thread`` or in all the agent's threads;
        returns how many. In one transaction.

        What was learned from them stays: summaries, memories and facts, and the threads themselves, whose
        new messages continue the numbering. The messages leave keyword and vector recall with them.

        Raises:
            InvalidInput: ``older_than_days`` is not a non-negative number, or ``thread`` is not a valid key.
            NotFound: ``thread`` is given and does not exist.

        Example:
            >>> mem.prune_messages(7)
            0
        """
        cutoff = self._cutoff(older_than_days)
        return self.store.prune_messages(self.agent, cutoff, thread=check_optional_key(thread, "thread"))

    def _cutoff(self, older_than_days: float) -> datetime:
        """Now minus ``older_than_days`` days, validated."""
        number = isinstance(older_than_days, int | float) and not isinstance(older_than_days, bool)
        if not number or not older_than_days >= 0:  # written so that NaN fails too
            raise InvalidInput("older_than_days must be a non-negative number")
        try:
            return self._now() - timedelta(days=older_than_days)
        except OverflowError as exc:  # infinite, or before year 1
            raise InvalidInput(f"older_than_days is too large: {older_than_days}") from exc

    def user_thread(self, thread: str, user: str, *, manage: bool = False, must_exist: bool = False) -> str:
        """The stored name of the thread that ``user`` means by ``thread``, when the user acts through a way
        in scoped to them (a user API key of ``memlane serve``, an MCP server run for one user).

        The thread ownership rule: a user reaches only the threads they started or were added to.

        - ``thread`` names a thread the user takes part in (an agent wrote a message for them there, or they
          wrote in it): that thread, so an agent can run a group thread several users join;
        - otherwise it is the user's own thread ``"<user>/<thread>"`` (``"alice/notes"``; naming it so works
          too), started by their first message: each user has their own names, never learns what other
          users' threads are called, and cannot write into the agent's own threads.

        ``manage`` (reset, delete, set the system prompt) needs the user's own thread, or one only they take
        part in.

        Raises:
            NotFound: ``must_exist`` and there is no such thread for the user.
            Forbidden: ``manage`` on a thread other users take part in too.
            InvalidInput: a bad thread or user name.

        Example:
            >>> mem.user_thread("general", "alice")
            'general'
            >>> mem.user_thread("notes", "alice")
            'alice/notes'
        """
        key, who = check_key(thread, "thread"), check_key(user, "user")
        own = who + "/"
        found = None
        if not key.startswith(own):
            found = self.store.get_thread(self.agent, key)
            if found is None or who not in found.users:
                found, key = None, own + key
        if found is None and (must_exist or manage):
            found = self.store.get_thread(self.agent, key)
        if must_exist and found is None:
            raise self._no_thread(thread)
        if manage and found is not None and not key.startswith(own) and set(found.users) != {who}:
            raise Forbidden(f"thread {thread!r} is shared with other users: only the agent may change it")
        return key

    def end(self, thread: str) -> Thread:
        """Mark the conversation ended.

        Raises:
            NotFound: no such thread.

        Example:
            >>> mem.end("general").status
            'ended'
        """
        key = check_key(thread, "thread")
        self.thread(key)  # NotFound for an unknown thread
        return self.store.upsert_thread(self.agent, key, self._now(), status="ended", jobs=self.pipeline.after_end(key))
