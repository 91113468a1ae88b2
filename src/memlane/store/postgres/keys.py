"""API keys of the PostgreSQL backend (a mixin of :class:`~memlane.store.postgres.PostgresStore`)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from ...errors import Conflict, NotFound
from ...types import ApiKey
from .common import Conn, PostgresHost

_COLUMNS = "id, prefix, scope, agent, user_id, label, created_at, expires_at, revoked_at"
_SELECT = "SELECT " + _COLUMNS + " FROM api_keys"  # noqa: S608 (constants only)
_RETURNING = " RETURNING " + _COLUMNS

__all__ = ["PostgresKeys"]


def _key(r: Sequence[Any]) -> ApiKey:
    return ApiKey(int(r[0]), r[1], r[2], r[3], r[4], r[5], r[6], r[7], r[8])


class PostgresKeys(PostgresHost):
    """API key methods of the store contract."""

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
        def write(conn: Conn) -> ApiKey | None:
            row = conn.execute(
                "INSERT INTO api_keys (key_hash, prefix, scope, agent, user_id, label, created_at, expires_at) "
                "VALUES (%s, %s, %s, %s, %s, %s, %s, %s) ON CONFLICT (key_hash) DO NOTHING "
                "RETURNING " + _COLUMNS,
                (key_hash, prefix, scope, agent, user, label, now, expires_at),
            ).fetchone()
            return None if row is None else _key(row)

        created = self._run("could not store the API key", write)
        if created is None:
            raise Conflict("an API key with this hash exists already")
        return created

    def list_api_keys(self, *, include_revoked: bool = False) -> list[ApiKey]:

        def read(conn: Conn) -> list[ApiKey]:
            return [
                _key(r)
                for r in conn.execute(
                    _SELECT + " WHERE revoked_at IS NULL OR %s ORDER BY id",
                    (include_revoked,),
                ).fetchall()
            ]

        return self._run("could not list API keys", read, write=False)

    def revoke_api_key(self, key_id: int, now: datetime) -> ApiKey:
        def write(conn: Conn) -> ApiKey | None:
            row = conn.execute(
                "UPDATE api_keys SET revoked_at = coalesce(revoked_at, %s) WHERE id = %s" + _RETURNING,  # noqa: S608
                (now, key_id),
            ).fetchone()
            return None if row is None else _key(row)

        found = self._run("could not revoke the API key", write)
        if found is None:
            raise NotFound(f"no API key {key_id}")
        return found

    def api_key_by_hash(self, key_hash: str) -> ApiKey | None:
        def read(conn: Conn) -> ApiKey | None:
            row = conn.execute(
                _SELECT + " WHERE key_hash = %s",
                (key_hash,),
            ).fetchone()
            return None if row is None else _key(row)

        return self._run("could not read the API key", read, write=False)
