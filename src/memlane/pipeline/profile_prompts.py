"""The profile prompts: ``merge_profile`` (one user) and ``merge_profiles`` (several users in one call), each
next to the model of its answer. Used by :mod:`.profile`."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date

from pydantic import AliasChoices, BaseModel, ConfigDict, Field, field_validator

from ..llm import ChatMessage
from .prompts import Prompt

__all__ = [
    "MAX_PROFILE_CHARS",
    "MERGE_PROFILE",
    "MERGE_PROFILES",
    "ProfileFact",
    "ProfileInput",
    "ProfileText",
    "ProfileTexts",
    "ProfilesInput",
]

MAX_PROFILE_CHARS = 2000


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


@dataclass(frozen=True, slots=True)
class ProfilesInput:
    """Several users' merges in one call (the users whose merge is due together)."""

    people: Sequence[ProfileInput]
    today: date


class ProfileTexts(BaseModel):
    """The answer of ``merge_profiles``: user key → that user's whole new profile."""

    model_config = ConfigDict(extra="ignore")

    profiles: dict[str, str] = Field(min_length=1)

    @field_validator("profiles")
    @classmethod
    def _profiles(cls, value: dict[str, str]) -> dict[str, str]:
        return {k.strip(): ProfileText(profile=v).profile for k, v in value.items() if k.strip() and v.strip()}


_MERGE_MANY_SYSTEM = _MERGE_SYSTEM.replace(
    "You maintain what a chat assistant knows about one person",
    "For EACH person below, you maintain what a chat assistant knows about them",
).replace(
    'Answer with JSON only: {{"profile": "..."}}',
    'Answer with JSON only: {{"profiles": {{"<user key>": "<profile>", ...}}}}, one entry per person, keyed by '
    "their user key exactly as given.",
)


def _merge_many_messages(data: ProfilesInput) -> list[ChatMessage]:
    parts = [_merge_messages(person)[1].content for person in data.people]
    system = _MERGE_MANY_SYSTEM.format(today=data.today.isoformat(), max_chars=MAX_PROFILE_CHARS // 2)
    return [ChatMessage.system(system), ChatMessage.user("\n\n---\n\n".join(parts))]


MERGE_PROFILES: Prompt[ProfilesInput, ProfileTexts] = Prompt("merge_profiles", ProfileTexts, _merge_many_messages)
"""``merge_profile`` for up to ``MAX_USERS_PER_MERGE`` users whose merge is due together, in one call."""
