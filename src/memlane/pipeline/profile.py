"""Pipeline step: each user's profile, one third-person text merged from the facts about them (seed 003).

The facts stay the source of truth; the profile is derived from them. A user's profile facts are the active
facts they own plus the agent-level and shared facts whose subject is the user ("remember that alice is
Sergey's sister"). Every ``remember`` / ``update_fact`` / ``forget`` of a user's fact (and every fact the
pipeline extracts) queues one ``profile`` job for that user, deduplicated while pending and, with an LLM,
run ``profile_merge_delay`` seconds later (60), so that one job covers a burst of facts. LLM merges are
coalesced further (:func:`merge_due`): the job merges at once when a merged fact was forgotten or
changed, or ``profile_merge_facts`` (20) facts are new; with fewer new facts it queues the merge for when
the oldest of them is ``profile_merge_max_age`` seconds (a week) old. Reads never wait for it: new facts are
shown as bullets under the merged text, and a forgotten fact is never shown. The job rebuilds the profile:

- with an LLM, the ``merge_profile`` prompt at temperature 0 rewrites the previous profile so that it states
  exactly the current facts: new ones merged in (newer wins on a conflict), forgotten ones gone. A call holds
  one user's facts only (never several people's: a model that confused them would move one user's private
  facts into another's profile);
- without one, for a user with fewer than ``profile_llm_min_facts`` (15) facts (a short list says it in fewer
  tokens than prose, and costs no call), or when the call fails, the profile is the maintained bullet list of
  the facts, most important first. After a failure the bullet list is stored at once (a forgotten fact must
  vanish now), then the job raises so the worker retries the LLM merge later; on the job's last attempt the
  bullet list stays.

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
from datetime import date, datetime, timedelta
from typing import TYPE_CHECKING

from ..errors import InvalidInput, ProviderError
from ..store import FactFilter
from ..types import Fact, Job, Summary
from ..validation import NewJob, NewSummary, check_key
from .profile_prompts import (
    MERGE_PROFILE,
    ProfileFact,
    ProfileInput,
    ProfileText,
)
from .prompts import ask

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
    "merge_due",
    "merged_view",
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
"""Users one ``merge_profiles`` call merges at most."""


# -- hooks ------------------------------------------------------------------------------------------


def _dedupe_key(agent: str, user: str, *, later: bool = False) -> str:
    # Dedupe keys are unique across the whole store, so the agent is part of the key. A merge put off
    # until later has a key of its own: a pending far-off job must not absorb (and so delay) the look
    # that a new fact asks for.
    kind = JOB_KIND + (".later" if later else "")
    return kind + ":" + json.dumps([agent, user], ensure_ascii=False, separators=(",", ":"))


def _job(agent: str, user: str, run_after: datetime | None, *, later: bool = False) -> NewJob:
    return NewJob(JOB_KIND, {"user": user}, dedupe_key=_dedupe_key(agent, user, later=later), run_after=run_after)


def after_fact_change(pipeline: Pipeline, user: str | None) -> list[NewJob]:
    """One ``profile`` job for the user whose facts changed (none for the agent's own facts).

    With an LLM it runs ``settings.profile_merge_delay`` seconds later, so that every fact of a burst (one
    summarized batch, a run of ``remember`` calls) is covered by the one pending job; without one at once.
    """
    if user is None:
        return []
    memory = pipeline.memory
    delay = memory.settings.profile_merge_delay if memory.llm is not None else 0.0
    return [_job(memory.agent, user, memory._now() + timedelta(seconds=delay) if delay > 0 else None)]


def run(pipeline: Pipeline, job: Job) -> None:
    """The ``profile`` job: rebuild the user's profile from their current facts now, or, when only a few
    facts were added since the last LLM merge, queue the merge for when it is due (:func:`merge_due`).

    Raises:
        InvalidInput: the payload names no user (retrying cannot help).
        ProviderError: the LLM merge failed and this was not the job's last attempt (the bullet list is
            stored meanwhile).
        StorageError: the database failed.
    """
    user = job.payload.get("user")
    if not isinstance(user, str) or not user:
        raise InvalidInput(f"profile job {job.id} has no user in its payload")
    memory = pipeline.memory
    due = merge_due(memory, user)
    if due is not None:
        memory.store.enqueue_jobs(memory.agent, [_job(memory.agent, user, due, later=True)], memory._now())
        return
    rebuild_profile(memory, user, final_attempt=job.attempts >= job.max_attempts)


def merge_due(memory: Memory, user: str) -> datetime | None:
    """When the user's profile should next be merged by the LLM: None for now, else a later time.

    Now, when there is no LLM (the bullet list costs nothing), when a fact the last LLM merge covered was
    forgotten or changed (its text must not outlive the fact), when nothing is new, or when
    ``settings.profile_merge_facts`` facts are new. Otherwise when the oldest new fact is
    ``settings.profile_merge_max_age`` seconds old. Meanwhile :func:`profile_of` shows new facts as bullets.
    """
    if memory.llm is None:
        return None
    key = check_key(user, "user")
    facts = profile_facts(memory, key)
    if len(facts) < memory.settings.profile_llm_min_facts:
        return None  # a short list stays a bullet list (rebuild_profile asks no LLM for it)
    merged = next((s for s in stored_profiles(memory, key) if s.method == "llm"), None)
    theirs = merged.metadata.get("covered") if merged is not None else None
    if not isinstance(theirs, dict) or not theirs:
        theirs = {}
    covered = _covered(facts)
    if any(covered.get(fid) != digest for fid, digest in theirs.items()):
        return None
    new = [f for f in facts if str(f.id) not in theirs]
    if not new or len(new) >= memory.settings.profile_merge_facts:
        return None
    due = min(f.updated_at for f in new) + timedelta(seconds=memory.settings.profile_merge_max_age)
    return None if due <= memory._now() else due


run.exclusive = True  # type: ignore[attr-defined]  # one job of a user at a time (see the worker)
HANDLERS: dict[str, Callable[[Pipeline, Job], None]] = {JOB_KIND: run}


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


@dataclass(frozen=True, slots=True)
class _Plan:
    """A user whose profile must be rebuilt: their current facts and what is stored."""

    user: str
    facts: list[Fact]
    stored: list[Summary]
    covered: dict[str, str]
    signature: str

    @property
    def current(self) -> Summary | None:
        return self.stored[0] if self.stored else None

    def data(self, today: date) -> ProfileInput:
        previous = self.current.content if self.current is not None else None
        shown = [ProfileFact(f.content, f.category, f.updated_at.date(), f.subject) for f in _newest_first(self.facts)]
        return ProfileInput(self.user, previous, shown, today)


def _plan(memory: Memory, key: str) -> _Plan | Summary | None:
    """What rebuilding ``key``'s profile needs, or its result when nothing is to do (no facts: None)."""
    facts = profile_facts(memory, key)
    stored = stored_profiles(memory, key)
    if not facts:
        if stored:
            memory.store.delete_summaries(memory.agent, [s.id for s in stored])
        return None
    covered = _covered(facts)
    plan = _Plan(key, facts, stored, covered, _signature(covered))
    current = plan.current
    if (
        current is not None
        and current.metadata.get("signature") == plan.signature
        and (current.method == "llm" or memory.llm is None)
    ):
        _delete_older(memory, stored, current)
        return current
    return plan


def _finish(memory: Memory, plan: _Plan, text: str | None, failure: str | None) -> Summary:
    """Store the LLM's ``text`` (None: the bullet list, with ``failure`` recorded) and drop older profiles."""
    metadata: dict[str, object] = {"signature": plan.signature, "covered": plan.covered, "facts": len(plan.facts)}
    method = "list"
    if text is not None:
        assert memory.llm is not None
        metadata["model"], method = memory.llm.model, "llm"
    else:
        text = bullet_list(plan.facts)
        if failure is not None:
            metadata["fallback"] = failure
    summary = _store(memory, plan.user, text, method, plan.signature, metadata)
    _delete_older(memory, plan.stored, summary)
    return summary


def _reason(error: ProviderError) -> str:
    return f"{type(error).__name__}: {' '.join(str(error).split())}"[:300]


def rebuild_profile(memory: Memory, user: str, *, final_attempt: bool = False) -> Summary | None:
    """Rebuild and store the user's profile from their current facts; None (and no profile) without facts.

    Raises:
        ProviderError: the LLM merge failed and not ``final_attempt`` (the bullet list was stored first).
        StorageError: the database failed.
    """
    plan = _plan(memory, check_key(user, "user"))
    if not isinstance(plan, _Plan):
        return plan
    if memory.llm is None or len(plan.facts) < memory.settings.profile_llm_min_facts:
        return _finish(memory, plan, None, None)  # few facts: their bullet list is the profile, no call
    try:
        text = ask(memory.llm, MERGE_PROFILE, plan.data(memory._now().date()), agent=memory.agent).profile
    except ProviderError as error:
        logger.warning("profile of %s: LLM merge failed (%s); bullet list for now", plan.user, _reason(error))
        summary = _finish(memory, plan, None, _reason(error))
        if not final_attempt:
            raise
        return summary
    return _finish(memory, plan, text, None)


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


def merged_view(memory: Memory, user: str) -> ProfileView | None:
    """:func:`read_profile` if an LLM merged the user's profile, else None, without reading the facts.

    Raises:
        InvalidInput: ``user`` is not a valid key.
    """
    key = check_key(user, "user")
    stored = stored_profiles(memory, key)
    if not stored or stored[0].method != "llm":
        return None
    return _read(memory, key, stored)


def read_profile(memory: Memory, user: str) -> ProfileView:
    """:func:`profile_of`, also telling whether the text is more than the bullet list of the facts.

    Raises:
        InvalidInput: ``user`` is not a valid key.
    """
    key = check_key(user, "user")
    return _read(memory, key, None)


def _read(memory: Memory, key: str, stored: Sequence[Summary] | None) -> ProfileView:
    facts = profile_facts(memory, key)
    if not facts:
        return ProfileView(None, False)
    if stored is None:
        stored = stored_profiles(memory, key)
    covered = _covered(facts)
    if stored:
        theirs = stored[0].metadata.get("covered")
        if isinstance(theirs, dict) and all(covered.get(fid) == digest for fid, digest in theirs.items()):
            new = [f for f in facts if str(f.id) not in theirs]
            text = stored[0].content if not new else f"{stored[0].content}\n{bullet_list(new)}"
            return ProfileView(text, stored[0].method == "llm")
    return ProfileView(bullet_list(facts), False)
