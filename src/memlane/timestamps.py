"""How memlane writes times down: UTC, fixed-width ISO-8601 text that sorts like the times it holds."""

from __future__ import annotations

from datetime import UTC, datetime

__all__ = ["fmt_time", "parse_time"]


def fmt_time(value: datetime) -> str:
    """A UTC timestamp as fixed-width ISO-8601 text (sorts like the times it holds)."""
    return value.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%f+00:00")


def parse_time(value: str | None) -> datetime | None:
    """The inverse of :func:`fmt_time`; None passes."""
    return None if value is None else datetime.fromisoformat(value)
