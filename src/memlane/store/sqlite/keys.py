"""API keys of the SQLite backend (a mixin of :class:`~memlane.store.sqlite.SQLiteStore`)."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from ...errors import Conflict, NotFound
from ...types import ApiKey
from .._common import fmt_time, parse_time
from .common import SQLiteHost

_COLUMNS = "id, prefix, scope, agent, user_id, label, created_at, expires_at, revoked_at"
_SELECT = "SELECT " + _COLUMNS + " FROM api_keys"  # noqa: S608 (constants only)

__all__ = ["SQLiteKeys"]


def _key(r: Sequence[Any]) -> ApiKey:
    return ApiKey(
        int(r[0]),
        r[1],
        r[2],
        r[3],
        r[4],
        r[5],
        _parse(r[6]),
        None if r[7] is None else _parse(r[7]),
        None if r[8] is None else _parse(r[8]),
    )


class SQLiteKeys(SQLiteHost):
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
        try:
            with self._write() as conn:
                cur = conn.execute(
                    "INSERT INTO api_keys (key_hash, prefix, scope, agent, user_id, label, created_at, expires_at) "
                    "VALUES (?,?,?,?,?,?,?,?)",
                    (key_hash, prefix, scope, agent, user, label, fmt_time(now), _time(expires_at)),
                )
                row = conn.execute(
                    _SELECT + " WHERE id = ?",
                    (cur.lastrowid,),
                ).fetchone()
        except sqlite3.IntegrityError as exc:
            raise Conflict("an API key with this hash exists already") from exc
        return _key(row)

    def list_api_keys(self, *, include_revoked: bool = False) -> list[ApiKey]:
        return [
            _key(r)
            for r in self._query(
                _SELECT + " WHERE revoked_at IS NULL OR ? ORDER BY id",
                (include_revoked,),
            )
        ]

    def revoke_api_key(self, key_id: int, now: datetime) -> ApiKey:
        with self._write() as conn:
            conn.execute(
                "UPDATE api_keys SET revoked_at = coalesce(revoked_at, ?) WHERE id = ?", (fmt_time(now), key_id)
            )
            row = conn.execute(
                _SELECT + " WHERE id = ?",
                (key_id,),
            ).fetchone()
        if row is None:
            raise NotFound(f"no API key {key_id}")
        return _key(row)

    def api_key_by_hash(self, key_hash: str) -> ApiKey | None:
        rows = self._query(
            _SELECT + " WHERE key_hash = ?",
            (key_hash,),
        )
        return _key(rows[0]) if rows else None


def _parse(value: str) -> datetime:
    parsed = parse_time(value)
    assert parsed is not None
    return parsed


def _time(value: datetime | None) -> str | None:
    return None if value is None else fmt_time(value)
