"""The durable job queue of the SQLite backend (a mixin of :class:`~memlane.store.sqlite.SQLiteStore`).

Claiming happens inside ``BEGIN IMMEDIATE``, which holds SQLite's single write lock, so two workers
(threads or processes) can never lease the same job: the second one sees the first one's lease.
A worker that dies leaves its lease to expire; the job is then claimable again and its attempt counts.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from ...errors import NotFound
from ...types import Job
from ...validation import NewJob
from .._common import dump_json, fmt_time, load_json, parse_time
from .common import SQLiteHost, next_id

__all__ = ["SQLiteJobs", "insert_jobs"]

_JOB_COLS = (
    "j.id, a.name, j.kind, j.payload, j.status, j.attempts, j.max_attempts, j.run_after, j.lease_owner, "
    "j.lease_expires_at, j.last_error, j.created_at, j.updated_at"
)


def insert_jobs(conn: sqlite3.Connection, agent_id: int, jobs: Sequence[NewJob], now: datetime) -> list[int]:
    """Queue jobs on an open write transaction; returns the ids of those created (not deduplicated)."""
    stamp = fmt_time(now)
    ids = []
    for job in jobs:
        job_id = next_id(conn, "jobs")
        cur = conn.execute(
            "INSERT OR IGNORE INTO jobs (id, agent_id, kind, payload, dedupe_key, max_attempts, run_after, "
            "created_at, updated_at) VALUES (?,?,?,?,?,?,?,?,?)",
            (
                job_id,
                agent_id,
                job.kind,
                dump_json(job.payload),
                job.dedupe_key,
                job.max_attempts,
                fmt_time(job.run_after or now),
                stamp,
                stamp,
            ),
        )
        if cur.rowcount:
            ids.append(job_id)
    return ids


def _job(r: tuple[Any, ...]) -> Job:
    return Job(
        id=r[0],
        agent=r[1],
        kind=r[2],
        payload=load_json(r[3]),
        status=r[4],
        attempts=r[5],
        max_attempts=r[6],
        run_after=parse_time(r[7]),  # type: ignore[arg-type]
        lease_owner=r[8],
        lease_expires_at=parse_time(r[9]),
        last_error=r[10],
        created_at=parse_time(r[11]),  # type: ignore[arg-type]
        updated_at=parse_time(r[12]),  # type: ignore[arg-type]
    )


class SQLiteJobs(SQLiteHost):
    """Job methods of the store contract."""

    def _jobs_by_id(self, conn: sqlite3.Connection, ids: Sequence[int]) -> list[Job]:
        if not ids:
            return []
        marks = ",".join("?" * len(ids))
        rows = conn.execute(
            f"SELECT {_JOB_COLS} FROM jobs j JOIN agents a ON a.id = j.agent_id WHERE j.id IN ({marks}) "  # noqa: S608
            "ORDER BY j.id",
            tuple(ids),
        ).fetchall()
        return [_job(r) for r in rows]

    def enqueue_jobs(self, agent: str, jobs: Sequence[NewJob], now: datetime) -> list[Job]:
        if not jobs:
            return []
        with self._write() as conn:
            agent_id = self._ensure_agent(conn, agent, now)
            ids = insert_jobs(conn, agent_id, jobs, now)
            created = self._jobs_by_id(conn, ids)
        self._remember_agent(agent, agent_id)
        return created

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
        stamp = fmt_time(now)
        lease_until = fmt_time(now.fromtimestamp(now.timestamp() + lease_seconds, now.tzinfo))
        sql = (
            "SELECT id FROM jobs WHERE ((status = 'pending' AND run_after <= ?) "
            "OR (status = 'running' AND lease_expires_at <= ?))"
        )
        params: list[Any] = [stamp, stamp]
        if kinds:
            sql += f" AND kind IN ({','.join('?' * len(kinds))})"
            params += list(kinds)
        if exclusive:
            # A job of an exclusive kind waits while one of the same agent, kind and payload holds a live lease.
            sql += (
                f" AND (kind NOT IN ({','.join('?' * len(exclusive))}) OR NOT EXISTS (SELECT 1 FROM jobs r "  # noqa: S608
                "WHERE r.status = 'running' AND r.lease_expires_at > ? AND r.agent_id = jobs.agent_id "
                "AND r.kind = jobs.kind AND r.payload = jobs.payload AND r.id <> jobs.id))"
            )
            params += [*exclusive, stamp]
        sql += " ORDER BY run_after, id LIMIT ?"
        params.append(limit)
        with self._write() as conn:
            ids = [int(r[0]) for r in conn.execute(sql, params)]
            if not ids:
                return []
            marks = ",".join("?" * len(ids))
            conn.execute(
                f"UPDATE jobs SET status = 'running', lease_owner = ?, lease_expires_at = ?, "  # noqa: S608
                f"attempts = attempts + 1, dedupe_key = NULL, updated_at = ? WHERE id IN ({marks})",
                (worker, lease_until, stamp, *ids),
            )
            return self._jobs_by_id(conn, ids)

    def complete_job(self, job_id: int, worker: str, now: datetime) -> bool:
        with self._write() as conn:
            cur = conn.execute(
                "UPDATE jobs SET status = 'done', lease_owner = NULL, lease_expires_at = NULL, last_error = NULL, "
                "updated_at = ? WHERE id = ? AND status = 'running' AND lease_owner = ?",
                (fmt_time(now), job_id, worker),
            )
            return bool(cur.rowcount)

    def fail_job(self, job_id: int, worker: str, error: str, now: datetime, retry_at: datetime | None) -> Job | None:
        with self._write() as conn:
            row = conn.execute(
                "SELECT attempts, max_attempts FROM jobs WHERE id = ? AND status = 'running' AND lease_owner = ?",
                (job_id, worker),
            ).fetchone()
            if row is None:
                return None
            dead = retry_at is None or row[0] >= row[1]
            conn.execute(
                "UPDATE jobs SET status = ?, run_after = ?, lease_owner = NULL, lease_expires_at = NULL, "
                "last_error = ?, updated_at = ? WHERE id = ?",
                (
                    "dead" if dead else "pending",
                    fmt_time(retry_at or now),
                    error[:2000],
                    fmt_time(now),
                    job_id,
                ),
            )
            return self._jobs_by_id(conn, [job_id])[0]

    def defer_job(self, job_id: int, worker: str, until: datetime, reason: str) -> bool:
        with self._write() as conn:
            cur = conn.execute(
                "UPDATE jobs SET status = 'pending', run_after = ?, lease_owner = NULL, lease_expires_at = NULL, "
                "attempts = max(attempts - 1, 0), last_error = ?, updated_at = ? "
                "WHERE id = ? AND status = 'running' AND lease_owner = ?",
                (fmt_time(until), reason[:2000], fmt_time(until), job_id, worker),
            )
            return bool(cur.rowcount)

    def list_jobs(
        self, agent: str | None, *, status: str | None = None, kind: str | None = None, limit: int | None = 100
    ) -> list[Job]:
        sql = f"SELECT {_JOB_COLS} FROM jobs j JOIN agents a ON a.id = j.agent_id WHERE 1 = 1"  # noqa: S608
        params: list[Any] = []
        if agent is not None:
            agent_id = self._agent_id(agent)
            if agent_id is None:
                return []
            sql += " AND j.agent_id = ?"
            params.append(agent_id)
        if status is not None:
            sql += " AND j.status = ?"
            params.append(status)
        if kind is not None:
            sql += " AND j.kind = ?"
            params.append(kind)
        sql += " ORDER BY j.id DESC LIMIT ?"
        params.append(-1 if limit is None else limit)
        return [_job(r) for r in self._query(sql, params)]

    def retry_job(self, job_id: int, now: datetime) -> Job:
        with self._write() as conn:
            cur = conn.execute(
                "UPDATE jobs SET status = 'pending', attempts = 0, run_after = ?, lease_owner = NULL, "
                "lease_expires_at = NULL, updated_at = ? WHERE id = ? AND status IN ('dead', 'done')",
                (fmt_time(now), fmt_time(now), job_id),
            )
            if not cur.rowcount:
                raise NotFound(f"no dead or done job {job_id}")
            return self._jobs_by_id(conn, [job_id])[0]
