"""API keys (the HTTP server's credentials) are part of the storage contract and of the facade: stored only as
SHA-256 hashes, scoped admin / agent / user, revocable and expiring, alike on every backend."""

from __future__ import annotations

from datetime import timedelta

import pytest

from conftest import FakeClock
from memlane import Conflict, InvalidInput, Memory, NotFound, Unauthenticated
from memlane.memory.keys import hash_key


def test_keys_are_stored_as_hashes_and_authenticate(mem: Memory) -> None:
    admin = mem.create_api_key("admin", label="ops")
    bot = mem.create_api_key("agent", agent="bot")
    alice = mem.create_api_key("user", agent="bot", user="alice")
    assert admin.key.startswith("ml_") and len(admin.key) > 40 and len({admin.key, bot.key, alice.key}) == 3
    assert (admin.record.scope, admin.record.agent, admin.record.user, admin.record.label) == (
        "admin",
        None,
        None,
        "ops",
    )
    assert (alice.record.scope, alice.record.agent, alice.record.user) == ("user", "bot", "alice")
    assert alice.key.startswith(alice.record.prefix) and len(alice.record.prefix) < 12
    assert mem.authenticate(bot.key) == bot.record and mem.authenticate(alice.key) == alice.record
    assert [k.id for k in mem.api_keys()] == [admin.record.id, bot.record.id, alice.record.id]
    assert mem.store.api_key_by_hash(hash_key(alice.key)) == alice.record
    with pytest.raises(Conflict):  # the hash is unique
        mem.store.create_api_key(
            hash_key(alice.key), "ml_x", "user", agent="bot", user="alice", label=None, now=alice.record.created_at
        )
    for wrong in ("", "Bearer x", alice.key + "x", "ml_" + "a" * 43, alice.key[:-1]):
        with pytest.raises(Unauthenticated):
            mem.authenticate(wrong)


def test_the_secret_is_never_stored(mem: Memory) -> None:
    new = mem.create_api_key("agent", agent="bot")
    dump = repr(mem.api_keys(include_revoked=True)) + repr(mem.store.api_key_by_hash(hash_key(new.key)))
    assert new.key not in dump and new.key[12:] not in dump


def test_revoked_and_expired_keys_stop_working(mem: Memory, clock: FakeClock) -> None:
    gone = mem.create_api_key("agent", agent="bot")
    soon = mem.create_api_key("user", agent="bot", user="bob", expires_at=clock() + timedelta(hours=1))
    revoked = mem.revoke_api_key(gone.record.id)
    assert revoked.revoked_at == clock()
    assert mem.revoke_api_key(gone.record.id).revoked_at == clock()  # idempotent, keeps its time
    with pytest.raises(Unauthenticated, match="revoked"):
        mem.authenticate(gone.key)
    assert [k.id for k in mem.api_keys()] == [soon.record.id]
    assert len(mem.api_keys(include_revoked=True)) == 2
    assert mem.authenticate(soon.key).user == "bob"
    clock.advance(hours=2)
    with pytest.raises(Unauthenticated, match="expired"):
        mem.authenticate(soon.key)
    with pytest.raises(NotFound):
        mem.revoke_api_key(999)


@pytest.mark.parametrize(
    ("scope", "agent", "user"),
    [
        ("admin", "bot", None),
        ("admin", None, "u"),
        ("agent", None, None),
        ("agent", "bot", "u"),
        ("user", "bot", None),
        ("user", None, "u"),
        ("root", None, None),
        ("agent", "", None),
    ],
)
def test_scopes_need_exactly_their_agent_and_user(mem: Memory, scope: str, agent: str | None, user: str | None) -> None:
    with pytest.raises(InvalidInput):
        mem.create_api_key(scope, agent=agent, user=user)
    assert mem.api_keys(include_revoked=True) == []
