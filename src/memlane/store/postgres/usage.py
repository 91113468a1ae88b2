"""LLM usage accounting of the PostgreSQL backend (a mixin of :class:`~memlane.store.postgres.PostgresStore`)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from ...types import UsageRecord, UsageTotals
from .common import Conn, PostgresHost

__all__ = ["PostgresUsage"]


class PostgresUsage(PostgresHost):
    """Usage methods of the store contract."""

    def record_usage(self, records: Sequence[UsageRecord]) -> None:
        if not records:
            return

        def write(conn: Conn) -> None:
            rows = [
                (
                    self._ensure_agent(conn, r.agent, r.at),
                    r.operation,
                    r.model,
                    r.prompt_tokens,
                    r.completion_tokens,
                    r.latency_s * 1000,
                    r.ok,
                    r.error,
                    r.at,
                )
                for r in records
            ]
            with conn.cursor() as cur:
                cur.executemany(
                    "INSERT INTO usage_events (agent_id, operation, model, prompt_tokens, completion_tokens, "
                    "latency_ms, ok, error, at) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s)",
                    rows,
                )

        self._run("could not record LLM usage", write)

    def usage_totals(self, agent: str | None, *, since: datetime | None = None) -> list[UsageTotals]:
        def read(conn: Conn) -> list[UsageTotals]:
            rows = conn.execute(
                "SELECT a.name, u.operation, count(*), count(*) FILTER (WHERE NOT u.ok), sum(u.prompt_tokens), "
                "sum(u.completion_tokens), sum(u.latency_ms), "
                "percentile_disc(0.95) WITHIN GROUP (ORDER BY u.latency_ms) "
                "FROM usage_events u JOIN agents a ON a.id = u.agent_id "
                "WHERE (%s::text IS NULL OR a.name = %s) AND (%s::timestamptz IS NULL OR u.at >= %s) "
                "GROUP BY a.name, u.operation ORDER BY a.name, u.operation",
                (agent, agent, since, since),
            ).fetchall()
            return [
                UsageTotals(
                    r[0],
                    r[1],
                    int(r[2]),
                    int(r[3]),
                    int(r[4]),
                    int(r[5]),
                    float(r[6]) / 1000,
                    None if r[7] is None else float(r[7]) / 1000,
                )
                for r in rows
            ]

        return self._run("could not read LLM usage", read, write=False)
