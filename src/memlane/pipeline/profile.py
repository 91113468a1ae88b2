"""Pipeline step: each user's profile, one third-person text merged from the facts about them (seed 003).

The facts stay the source of truth; the profile is derived from them. A user's profile facts are the active
facts they own plus the agent-level and shared facts whose subject is the user ("remember that alice is
Sergey's sister"). Every ``remember`` / ``update_fact`` / ``forget`` of a user's fact queues one
``profile`` job for that user (deduplicated while pending), which rebuilds the profile:

- with an LLM, the ``merge_profile`` prompt at temperature 0 rewrites the previous profile so that it states
  exactly the current facts: new ones merged in (newer wins on a conflict), forgotten ones gone;
- without one, or when the call fails, the profile is the maintained bullet list of the facts, most important
  first. After a failure the bullet list is stored at once (a forgotten fact must vanish now), then the job
  raises so the worker retries the LLM merge later; on the job's last attempt the bullet list stays.

A profile is a summary of kind ``"profile"`` with ``owner`` = the user and no thread; the newest one is used
and the job deletes older ones. Its metadata records which facts (id and content hash) it covers, so
:func:`profile_of` never serves a stale profile: a fact added since is appended as a bullet, and once a
covered fact was forgotten or changed the bullet list of the current facts is returned instead. Reading is
two queries and no LLM call, so ``context()`` can use it on every turn.

Storage detail: the store deduplicates thread-less summaries on (kind, from_seq, to_seq) only, so profiles
carry a key in those fields: ``from_seq`` hashes the user, ``to_seq`` the covered facts and the method (a
retried job finds its profile already stored). See :func:`range_key`.
"""

from __future__ import annotations

import hashlib
import json
import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import date
from typing import TYPE_CHECKING

from pydantic import AliasChoices, BaseModel, ConfigDict, Field, field_validator

from ..errors import InvalidInput, ProviderError
from ..llm import ChatMessage
from ..store import FactFilter
from ..types import Fact, Job, Summary
from ..validation import NewJob, NewSummary, check_key
from .prompts import Prompt, ask

if TYPE_CHECKING:
    from ..memory import Memory
    from .core import Pipeline

__all__ = [
    "HANDLERS",
    "JOB_KIND",
    "MERGE_PROFILE",
    "SUMMARY_KIND",
    "ProfileFact",
    "ProfileInput",
    "ProfileText",
    "ProfileView",
    "after_fact_change",
    "bullet_list",
    "profile_facts",
    "profile_of",
    "range_key",
    "read_profile",
    "rebuild_profile",
    "run",
    "stored_profiles",
]

logger = logging.getLogger("memlane.pipeline.profile")

JOB_KIND = "profile"
SUMMARY_KIND = "profile"
MAX_PROFILE_FACTS = 200
MAX_PROFILE_CHARS = 2000


# -- hooks ------------------------------------------------------------------------------------------


def _dedupe_key(agent: str, user: str) -> str:
    # Dedupe keys are unique across the whole store, so the agent is part of the key.
    return JOB_KIND + ":" + json.dumps([agent, user], ensure_ascii=False, separators=(",", ":"))


def after_fact_change(pipeline: Pipeline, user: str | None) -> list[NewJob]:
    """One ``profile`` job for the user whose facts changed (none for the agent's own facts)."""
    if user is None:
        return []
    return [NewJob(JOB_KIND, {"user": user}, dedupe_key=_dedupe_key(pipeline.memory.agent, user))]


def run(pipeline: Pipeline, job: Job) -> None:
    """The ``profile`` job: rebuild the user's profile from their current facts.

    Raises:
        InvalidInput: the payload names no user (retrying cannot help).
        ProviderError: the LLM merge failed and this was not the job's last attempt (the bullet list is
            stored meanwhile).
        StorageError: the database failed.
    """
    user = job.payload.get("user")
    if not isinstance(user, str) or not user:
        raise InvalidInput(f"profile job {job.id} has no user in its payload")
    rebuild_profile(pipeline.memory, user, final_attempt=job.attempts >= job.max_attempts)


HANDLERS: dict[str, Callable[[Pipeline, Job], None]] = {JOB_KIND: run}


# -- the prompt -------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ProfileFact:
    """One fact as the prompt shows it."""

    content: str
    category: str
    since: date
    subject: str | None = None


@dataclass(frozen=True, slots=True)
class ProfileInput:
    """The user, their previous profile (if any) and every current fact about them, newest first."""

    user: str
    previous: str | None
    facts: Sequence[ProfileFact]
    today: date


class ProfileText(BaseModel):
    """The answer of ``merge_profile``: the whole new profile."""

    model_config = ConfigDict(extra="ignore")

    profile: str = Field(validation_alias=AliasChoices("profile", "memory", "content"))

    @field_validator("profile")
    @classmethod
    def _profile(cls, value: str) -> str:
        text = value.strip()
        if not text:
            raise ValueError("profile must not be blank")
        return text if len(text) <= MAX_PROFILE_CHARS else text[: MAX_PROFILE_CHARS - 1].rstrip() + "…"


_MERGE_SYSTEM = """\
You maintain what a chat assistant knows about one person, as a short profile in the third person. \
You are given their previous profile (possibly empty) and the complete list of facts currently known \
about them, newest first, each with the date it was learned. Today is {today}.

Write the new profile:
- it states every current fact, merged into coherent prose;
- it states nothing else: whatever the previous profile says that no current fact supports was \
forgotten and must go;
- when facts contradict each other, the newer one wins;
- third person, name the person as the facts do (else by their key), concise: at most {max_chars} \
characters; keep the previous profile's wording where it is still right.

Answer with JSON only: {{"profile": "..."}}"""


def _merge_messages(data: ProfileInput) -> list[ChatMessage]:
    facts = "\n".join(
        f"- [{f.since.isoformat()}] ({f.category}) {f.content}" + (f" (about {f.subject})" if f.subject else "")
        for f in data.facts
    )
    body = (
        f"Person (user key): {data.user}\n\nPrevious profile:\n{data.previous or '(none)'}\n\nCurrent facts:\n{facts}"
    )
    system = _MERGE_SYSTEM.format(today=data.today.isoformat(), max_chars=MAX_PROFILE_CHARS // 2)
    return [ChatMessage.system(system), ChatMessage.user(body)]


MERGE_PROFILE: Prompt[ProfileInput, ProfileText] = Prompt("merge_profile", ProfileText, _merge_messages)
"""Seed 003's remember/forget merge, as one rewrite of the profile against the current facts."""


# -- building ---------------------------------------------------------------------------------------


def profile_facts(memory: Memory, user: str) -> list[Fact]:
    """The active facts a profile of ``user`` is made of: those the user owns, then the agent-level and
    shared facts about them, most important first."""
    store, agent = memory.store, memory.agent
    owned = store.list_facts(agent, FactFilter(user=user, owned_only=True), limit=MAX_PROFILE_FACTS)
    about = store.list_facts(agent, FactFilter(user=None, subject=user), limit=MAX_PROFILE_FACTS)
    seen = {f.id for f in owned}
    return owned + [f for f in about if f.id not in seen and f.owner != user]


def bullet_list(facts: Sequence[Fact]) -> str:
    """The profile without an LLM: one ``- fact`` line per fact, in the order given."""
    return "\n".join(f"- {' '.join(f.content.split())}" for f in facts)


def _covered(facts: Sequence[Fact]) -> dict[str, str]:
    return {str(f.id): hashlib.sha256(f"{f.subject}\x00{f.content}".encode()).hexdigest()[:16] for f in facts}


def _signature(covered: dict[str, str]) -> str:
    return hashlib.sha256(json.dumps(covered, sort_keys=True).encode()).hexdigest()


def range_key(text: str) -> int:
    """A positive 31-bit integer naming ``text``, used where the store keys a summary by its range."""
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:4], "big") % (2**31 - 1) + 1


def stored_profiles(memory: Memory, user: str) -> list[Summary]:
    """The user's stored profiles, newest first (normally one)."""
    every = memory.store.summaries(memory.agent, thread=None, kind=SUMMARY_KIND, limit=None)
    return [s for s in every if s.owner == user]


def rebuild_profile(memory: Memory, user: str, *, final_attempt: bool = False) -> Summary | None:
    """Rebuild and store the user's profile from their current facts; None (and no profile) without facts.

    Raises:
        ProviderError: the LLM merge failed and not ``final_attempt`` (the bullet list was stored first).
        StorageError: the database failed.
    """
    key = check_key(user, "user")
    facts = profile_facts(memory, key)
    stored = stored_profiles(memory, key)
    if not facts:
        if stored:
            memory.store.delete_summaries(memory.agent, [s.id for s in stored])
        return None
    covered = _covered(facts)
    signature = _signature(covered)
    current = stored[0] if stored else None
    if (
        current is not None
        and current.metadata.get("signature") == signature
        and (current.method == "llm" or memory.llm is None)
    ):
        _delete_older(memory, stored, current)
        return current
    metadata: dict[str, object] = {"signature": signature, "covered": covered, "facts": len(facts)}
    failure: ProviderError | None = None
    text, method = None, "list"
    if memory.llm is not None:
        data = ProfileInput(
            key,
            current.content if current is not None else None,
            [ProfileFact(f.content, f.category, f.updated_at.date(), f.subject) for f in _newest_first(facts)],
            memory._now().date(),
        )
        try:
            text, method = ask(memory.llm, MERGE_PROFILE, data, agent=memory.agent).profile, "llm"
            metadata["model"] = memory.llm.model
        except ProviderError as error:
            failure = error
            metadata["fallback"] = f"{type(error).__name__}: {' '.join(str(error).split())}"[:300]
            logger.warning("profile of %s: LLM merge failed (%s); bullet list for now", key, metadata["fallback"])
    if text is None:
        text = bullet_list(facts)
    summary = _store(memory, key, text, method, signature, metadata)
    _delete_older(memory, stored, summary)
    if failure is not None and not final_attempt:
        raise failure
    return summary


def _newest_first(facts: Sequence[Fact]) -> list[Fact]:
    return sorted(facts, key=lambda f: (f.updated_at, f.id), reverse=True)


def _store(memory: Memory, user: str, text: str, method: str, signature: str, metadata: dict[str, object]) -> Summary:
    try:
        vectors = memory._embed([text])
    except ProviderError:
        vectors = None  # `memlane reindex` embeds it later
    summary, _ = memory.store.add_summary(
        memory.agent,
        None,
        NewSummary(
            SUMMARY_KIND,
            text,
            range_key(f"user\x00{user}"),
            range_key(f"{signature}\x00{method}"),
            user,
            method,
            dict(metadata),
        ),
        memory._now(),
        vector=None if vectors is None else vectors[0],
    )
    return summary


def _delete_older(memory: Memory, stored: Sequence[Summary], keep: Summary) -> None:
    older = [s.id for s in stored if s.id != keep.id]
    if older:
        memory.store.delete_summaries(memory.agent, older)


# -- reading ----------------------------------------------------------------------------------------


def profile_of(memory: Memory, user: str) -> str | None:
    """What the agent knows about ``user`` ("what do you know about alice?"), or None when nothing.

    The stored profile when it covers exactly the current facts; with facts added since, the profile and
    a bullet for each new fact; when a covered fact was forgotten or changed since, the bullet list of the
    current facts (never a forgotten fact). No LLM call.

    Raises:
        InvalidInput: ``user`` is not a valid key.
    """
    return read_profile(memory, user).text


@dataclass(frozen=True, slots=True)
class ProfileView:
    """A profile as read now: its text (None: nothing known) and whether an LLM wrote (part of) it."""

    text: str | None
    merged: bool


def read_profile(memory: Memory, user: str) -> ProfileView:
    """:func:`profile_of`, also telling whether the text is more than the bullet list of the facts.

    Raises:
        InvalidInput: ``user`` is not a valid key.
    """
    key = check_key(user, "user")
    facts = profile_facts(memory, key)
    if not facts:
        return ProfileView(None, False)
    stored = stored_profiles(memory, key)
    covered = _covered(facts)
    if stored:
        theirs = stored[0].metadata.get("covered")
        if isinstance(theirs, dict) and all(covered.get(fid) == digest for fid, digest in theirs.items()):
            new = [f for f in facts if str(f.id) not in theirs]
            text = stored[0].content if not new else f"{stored[0].content}\n{bullet_list(new)}"
            return ProfileView(text, stored[0].method == "llm")
    return ProfileView(bullet_list(facts), False)
