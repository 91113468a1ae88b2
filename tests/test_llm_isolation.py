"""No LLM call mixes two users' private facts: tested with a model that copies every word it is shown into
every field of every answer. Afterwards no user's context, recall, facts, profile or digest holds a word of
another user's private facts (issue: isolation must not depend on the model attributing text correctly)."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from conftest import FakeClock
from memlane import Memory, load_settings
from memlane.llm import ChatMessage
from memlane.pipeline.digests import digest_for
from memlane.pipeline.profile import profile_of
from memlane.testing.scripted import ScriptedLLM

USERS = ("alice", "bob", "carol")
# Each user's private facts, told in their own direct conversation or with remember(); every word is unique.
PRIVATE = {
    "alice": ["my locker code is zxqlocker81", "alice keeps her vault token kestrelvault77"],
    "bob": ["my spare key is under the plantpot49 by the door", "bob is allergic to mauvenut55"],
    "carol": ["my bank pin is orchidpin31", "carol hides cash in the tealcaddy62"],
}
SECRET_WORDS = {
    user: {w for text in texts for w in re.findall(r"\w+", text) if re.search(r"\d", w)}
    for user, texts in PRIVATE.items()
}


def _copy_everything(llm_ref: list[ScriptedLLM]) -> Any:
    """A responder that answers every prompt with every word it was shown, in every field of its schema."""

    def respond(messages: Sequence[ChatMessage]) -> str:
        schema = llm_ref[0].calls[-1].schema
        shown = [m.content for m in messages if m.role != "system"] + [
            m.content for m in messages if m.role == "system"
        ]
        words = list(dict.fromkeys(w for text in shown for w in re.findall(r"\w+", text)))
        text = " ".join(words)[:900] or "nothing"
        ids = [int(n) for n in re.findall(r"\bid (\d+)", "\n".join(shown))] or [1]
        names = [u for u in USERS if u in text] or ["alice"]
        fields = set(schema.model_fields) if schema is not None else set()
        answer: dict[str, Any] = {}
        if "facts" in fields:
            answer["facts"] = [
                {"content": text, "category": "fact", "importance": 5, "subject": n, "speaker": n} for n in names
            ]
        if "summaries" in fields:
            answer["summaries"] = dict.fromkeys(names, text)
        if "action" in fields and "target" in fields:
            answer.update(action="edit", target=ids[0], new_content=text, reason=text)
        elif "action" in fields:
            answer.update(action="UPDATE", target_id=ids[0], new_content=text, reason=text)
        for name in ("summary", "profile", "memory", "context"):
            if name in fields:
                answer[name] = text
        return json.dumps(answer)

    return respond


def _everything_user_sees(mem: Memory, user: str) -> str:
    parts: list[str] = []
    for thread in mem.threads(user=user):
        ctx = mem.context(thread.key, user=user, query="codes keys pins tokens allergies cash", budget=4000)
        parts.extend(m["content"] or "" for m in ctx.to_messages())
    ctx = mem.context("general", user=user, query="codes keys pins tokens allergies cash", budget=4000)
    parts.extend(m["content"] or "" for m in ctx.to_messages())
    for query in ("locker code vault token", "spare key allergy", "bank pin cash", "what do you know"):
        parts.extend(h.text for h in mem.recall(query, user=user, limit=50))
    parts.extend(f.content for f in mem.facts(user=user))
    parts.append(profile_of(mem, user) or "")
    parts.append(digest_for(mem, user))
    return "\n".join(parts)


def test_a_model_that_copies_everything_leaks_no_private_fact(tmp_path: Path) -> None:
    clock = FakeClock()
    ref: list[ScriptedLLM] = []
    llm = ScriptedLLM(responder=_copy_everything(ref))
    ref.append(llm)
    settings = load_settings(
        worker="none",
        embedder="none",
        summarize_after=4,
        summarize_batch=4,
        profile_merge_facts=1,
        profile_llm_min_facts=1,
        memory_cap=2,
    )
    with Memory(tmp_path / "m.db", agent="bot", settings=settings, llm=llm, clock=clock) as mem:
        for user in USERS:
            said, remembered = PRIVATE[user]
            mem.remember(remembered, user=user)
            dm = f"dm-{user}"
            for text in (f"hi, I am {user}", said, "please keep that in mind", "thanks a lot"):
                mem.add_message(dm, "user", text, user=user, name=user.title())
                mem.add_message(dm, "assistant", f"noted, {user}")
            mem.end(dm)
        for round_ in range(3):
            for user in USERS:
                mem.add_message("general", "user", f"{user} says the weather is nice today {round_}", user=user)
        mem.end("general")
        for _ in range(4):
            clock.advance(minutes=10)
            mem.run_jobs()
        clock.advance(days=8)
        mem.run_jobs()
        assert len(llm.calls) >= 10  # summaries, extraction, profiles, memories and compaction were asked
        for user in USERS:
            seen = _everything_user_sees(mem, user)
            assert SECRET_WORDS[user] & set(re.findall(r"\w+", seen)), f"{user} should see their own facts"
            for other in USERS:
                if other != user:
                    leaked = SECRET_WORDS[other] & set(re.findall(r"\w+", seen))
                    assert not leaked, f"{user} sees {other}'s private {sorted(leaked)}"
    for call in llm.calls:  # and no single prompt held two users' private words
        prompt = "\n".join(m.content for m in call.messages)
        owners = [u for u in USERS if SECRET_WORDS[u] & set(re.findall(r"\w+", prompt))]
        assert len(owners) <= 1, (owners, prompt[:500])
