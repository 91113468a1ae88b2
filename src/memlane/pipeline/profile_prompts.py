"""The profile prompt: ``merge_profile``, next to the model of its answer. Used by :mod:`.profile`.

One call holds one person's facts: a model that mixed people up could otherwise move one user's private
facts into another's profile. (An earlier ``merge_profiles`` merged several people in one call.)"""

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
    "ProfileFact",
    "ProfileInput",
    "ProfileText",
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
