"""LLM usage records of the SQLite backend (a mixin of :class:`~memlane.store.sqlite.SQLiteStore`).

Every LLM call is one row, so totals and budgets span every process that shares the database.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from ...types import UsageRecord, UsageTotals
from .._common import fmt_time
from .common import SQLiteHost

__all__ = ["SQLiteUsage"]


class SQLiteUsage(SQLiteHost):
    """Usage methods of the store contract."""

    def record_usage(self, records: Sequence[UsageRecord]) -> None:
        if not records:
            return
        with self._write() as conn:
            conn.executemany(
                "INSERT INTO usage_events (agent_id, operation, model, prompt_tokens, completion_tokens, "
                "latency_ms, ok, error, at) VALUES (?,?,?,?,?,?,?,?,?)",
                [
                    (
                        self._ensure_agent(conn, r.agent, r.at),
                        r.operation,
                        r.model,
                        r.prompt_tokens,
                        r.completion_tokens,
                        r.latency_s * 1000,
                        int(r.ok),
                        r.error,
                        fmt_time(r.at),
                    )
                    for r in records
                ],
            )

    def usage_totals(self, agent: str | None, *, since: datetime | None = None) -> list[UsageTotals]:
        sql = (
            "WITH e AS (SELECT a.name AS agent, u.operation, u.prompt_tokens, u.completion_tokens, u.latency_ms, "
            "u.ok, row_number() OVER (PARTITION BY u.agent_id, u.operation ORDER BY u.latency_ms) AS rn, "
            "count(*) OVER (PARTITION BY u.agent_id, u.operation) AS n "
            "FROM usage_events u JOIN agents a ON a.id = u.agent_id WHERE (? IS NULL OR a.name = ?) "
            "AND (? IS NULL OR u.at >= ?)) "
            "SELECT agent, operation, count(*), sum(1 - ok), sum(prompt_tokens), sum(completion_tokens), "
            "sum(latency_ms), max(CASE WHEN rn = (95 * n + 99) / 100 THEN latency_ms END) "
            "FROM e GROUP BY agent, operation ORDER BY agent, operation"
        )
        stamp = None if since is None else fmt_time(since)
        rows = self._query(sql, (agent, agent, stamp, stamp))
        return [
            UsageTotals(r[0], r[1], r[2], r[3], r[4], r[5], r[6] / 1000, None if r[7] is None else r[7] / 1000)
            for r in rows
        ]
