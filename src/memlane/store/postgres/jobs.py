"""The durable job queue of the PostgreSQL backend (a mixin of :class:`~memlane.store.postgres.PostgresStore`).

Claims lock the rows they lease with ``FOR UPDATE SKIP LOCKED``: concurrent workers take different jobs
instead of queueing behind each other, and never the same one.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any

from psycopg import sql

from ...errors import NotFound
from ...types import Job
from ...validation import NewJob
from .common import Conn, PostgresHost, Where, as_json, sql_limit, utc, utc_or_none

__all__ = ["PostgresJobs", "insert_jobs"]

_JOB_SELECT = (
    "SELECT j.id, a.name, j.kind, j.payload, j.status, j.attempts, j.max_attempts, j.run_after, j.lease_owner, "
    "j.lease_expires_at, j.last_error, j.created_at, j.updated_at FROM jobs j JOIN agents a ON a.id = j.agent_id"
)


# A job of an exclusive kind waits while one of the same agent, kind and payload holds a live lease.
_NOT_WHILE_ANOTHER_RUNS = (
    "(kind <> ALL(%s) OR NOT EXISTS (SELECT 1 FROM jobs r WHERE r.status = 'running' AND r.lease_expires_at > %s "
    "AND r.agent_id = jobs.agent_id AND r.kind = jobs.kind AND r.payload::text = jobs.payload::text "
    "AND r.id <> jobs.id))"
)


def insert_jobs(conn: Conn, agent_id: int, jobs: Sequence[NewJob], now: datetime) -> list[int]:
    """Queue jobs in the open transaction; returns the ids created (a pending duplicate is skipped)."""
    ids = []
    for job in jobs:
        row = conn.execute(
            "INSERT INTO jobs (agent_id, kind, payload, dedupe_key, max_attempts, run_after, created_at, updated_at) "
            "VALUES (%s,%s,%s,%s,%s,%s,%s,%s) ON CONFLICT (dedupe_key) DO NOTHING RETURNING id",
            (
                agent_id,
                job.kind,
                as_json(job.payload),
                job.dedupe_key,
                job.max_attempts,
                job.run_after or now,
                now,
                now,
            ),
        ).fetchone()
        if row is not None:
            ids.append(int(row[0]))
    return ids


def _jobs_by_id(conn: Conn, ids: Sequence[int]) -> list[Job]:
    if not ids:
        return []
    rows = conn.execute(_JOB_SELECT + " WHERE j.id = ANY(%s) ORDER BY j.id", (list(ids),))
    return [_job(r) for r in rows]


def _job(r: tuple[Any, ...]) -> Job:
    return Job(
        id=r[0],
        agent=r[1],
        kind=r[2],
        payload=r[3],
        status=r[4],
        attempts=r[5],
        max_attempts=r[6],
        run_after=utc(r[7]),
        lease_owner=r[8],
        lease_expires_at=utc_or_none(r[9]),
        last_error=r[10],
        created_at=utc(r[11]),
        updated_at=utc(r[12]),
    )


class PostgresJobs(PostgresHost):
    """Job methods of the store contract."""

    # -- jobs -------------------------------------------------------------------------------------------
    # Claims lock the rows they lease with FOR UPDATE SKIP LOCKED: concurrent workers take different jobs
    # instead of queueing behind each other, and never the same one.
    def enqueue_jobs(self, agent: str, jobs: Sequence[NewJob], now: datetime) -> list[Job]:
        if not jobs:
            return []

        def write(conn: Conn) -> tuple[int, list[Job]]:
            agent_id = self._ensure_agent(conn, agent, now)
            return agent_id, _jobs_by_id(conn, insert_jobs(conn, agent_id, jobs, now))

        agent_id, created = self._run("could not queue jobs", write)
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
        lease_until = now + timedelta(seconds=lease_seconds)
        where = Where()
        where.add(
            "((status = 'pending' AND run_after <= %s) OR (status = 'running' AND lease_expires_at <= %s))", now, now
        )
        if kinds:
            where.add("kind = ANY(%s)", list(kinds))
        if exclusive:
            where.add(_NOT_WHILE_ANOTHER_RUNS, list(exclusive), now)
        query = sql.SQL(
            "UPDATE jobs SET status = 'running', lease_owner = %s, lease_expires_at = %s, attempts = attempts + 1, "
            "dedupe_key = NULL, updated_at = %s WHERE id IN (SELECT id FROM jobs WHERE {} ORDER BY run_after, id "
            "LIMIT %s FOR UPDATE SKIP LOCKED) RETURNING id"
        ).format(where.sql())

        def write(conn: Conn) -> list[Job]:
            rows = conn.execute(query, [worker, lease_until, now, *where.params, sql_limit(limit)]).fetchall()
            return _jobs_by_id(conn, [int(r[0]) for r in rows])

        return self._run("could not claim jobs", write)

    def complete_job(self, job_id: int, worker: str, now: datetime) -> bool:
        def write(conn: Conn) -> bool:
            cur = conn.execute(
                "UPDATE jobs SET status = 'done', lease_owner = NULL, lease_expires_at = NULL, last_error = NULL, "
                "updated_at = %s WHERE id = %s AND status = 'running' AND lease_owner = %s",
                (now, job_id, worker),
            )
            return cur.rowcount > 0

        return self._run("could not complete the job", write)

    def fail_job(self, job_id: int, worker: str, error: str, now: datetime, retry_at: datetime | None) -> Job | None:
        def write(conn: Conn) -> Job | None:
            row = conn.execute(
                "SELECT attempts, max_attempts FROM jobs WHERE id = %s AND status = 'running' AND lease_owner = %s "
                "FOR UPDATE",
                (job_id, worker),
            ).fetchone()
            if row is None:
                return None
            dead = retry_at is None or row[0] >= row[1]
            conn.execute(
                "UPDATE jobs SET status = %s, run_after = %s, lease_owner = NULL, lease_expires_at = NULL, "
                "last_error = %s, updated_at = %s WHERE id = %s",
                ("dead" if dead else "pending", retry_at or now, error[:2000], now, job_id),
            )
            return _jobs_by_id(conn, [job_id])[0]

        return self._run("could not record the job failure", write)

    def defer_job(self, job_id: int, worker: str, until: datetime, reason: str) -> bool:
        def write(conn: Conn) -> bool:
            cur = conn.execute(
                "UPDATE jobs SET status = 'pending', run_after = %s, lease_owner = NULL, lease_expires_at = NULL, "
                "attempts = greatest(attempts - 1, 0), last_error = %s, updated_at = %s "
                "WHERE id = %s AND status = 'running' AND lease_owner = %s",
                (until, reason[:2000], until, job_id, worker),
            )
            return cur.rowcount > 0

        return self._run("could not defer the job", write)

    def list_jobs(
        self, agent: str | None, *, status: str | None = None, kind: str | None = None, limit: int | None = 100
    ) -> list[Job]:
        def read(conn: Conn) -> list[Job]:
            where = Where()
            if agent is not None:
                agent_id = self._agent_id(conn, agent)
                if agent_id is None:
                    return []
                where.add("j.agent_id = %s", agent_id)
            if status is not None:
                where.add("j.status = %s", status)
            if kind is not None:
                where.add("j.kind = %s", kind)
            query = sql.SQL("{} WHERE {} ORDER BY j.id DESC LIMIT %s").format(sql.SQL(_JOB_SELECT), where.sql())
            return [_job(r) for r in conn.execute(query, [*where.params, sql_limit(limit)])]

        return self._run("list jobs", read, write=False)

    def retry_job(self, job_id: int, now: datetime) -> Job:
        def write(conn: Conn) -> Job:
            cur = conn.execute(
                "UPDATE jobs SET status = 'pending', attempts = 0, run_after = %s, lease_owner = NULL, "
                "lease_expires_at = NULL, updated_at = %s WHERE id = %s AND status IN ('dead', 'done')",
                (now, now, job_id),
            )
            if not cur.rowcount:
                raise NotFound(f"no dead or done job {job_id}")
            return _jobs_by_id(conn, [job_id])[0]

        return self._run("could not retry the job", write)
