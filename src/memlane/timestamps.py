"""How memlane writes times down: UTC, fixed-width ISO-8601 text that sorts like the times it holds.

Every stored time has the form ``YYYY-MM-DDTHH:MM:SS.ffffff+00:00`` (32 characters, the year zero-padded),
so text order is time order. Times given by callers must lie in :data:`EARLIEST` .. :data:`LATEST`
(``validation.check_timestamp``); the margin below year 10000 leaves room for the day arithmetic of time
expressions. Earlier memlane versions wrote years below 1000 without their leading zeros; :func:`parse_time`
still reads such text and the stores' migration 9 rewrites it.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime

__all__ = ["EARLIEST", "LATEST", "fmt_time", "parse_time"]

EARLIEST = datetime(1000, 1, 1, tzinfo=UTC)
LATEST = datetime(9000, 1, 1, tzinfo=UTC)

_SHORT_YEAR = re.compile(r"^(\d{1,3})-")


def fmt_time(value: datetime) -> str:
    """A UTC timestamp as fixed-width ISO-8601 text (sorts like the times it holds)."""
    moment = value.astimezone(UTC)
    return f"{moment.year:04d}" + moment.strftime("-%m-%dT%H:%M:%S.%f+00:00")


def parse_time(value: str | None) -> datetime | None:
    """The inverse of :func:`fmt_time`; None passes. Reads the unpadded years older versions wrote."""
    if value is None:
        return None
    try:
        return datetime.fromisoformat(value)
    except ValueError:
        short = _SHORT_YEAR.match(value)
        if short is None:
            raise
        return datetime.fromisoformat(f"{int(short.group(1)):04d}{value[short.end(1) :]}")
