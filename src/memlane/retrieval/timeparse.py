"""Time expressions in queries: "yesterday", "last week", "in May", "two days ago", "in 2023" ...

:func:`find_time_range` finds the first expression in an English query and turns it into a half-open
``[start, end)`` range relative to ``now`` (calendar days, Monday-based weeks and calendar months in
``now``'s time zone). It is deliberately conservative: a word that is only sometimes about time ("may",
"march", "recently") counts only in a form that is unambiguous ("in May", "May 2023", "on 5 March").
The search uses the range as a soft boost by default, so a wrong guess costs little.
"""

from __future__ import annotations

import calendar
import re
from dataclasses import dataclass
from datetime import datetime, timedelta

__all__ = ["TimeRange", "find_time_range"]


@dataclass(frozen=True, slots=True)
class TimeRange:
    """A half-open time range ``[start, end)`` named by ``text`` in a query."""

    start: datetime
    end: datetime
    text: str

    def __contains__(self, moment: datetime) -> bool:
        return self.start <= moment < self.end


_MONTHS = {name.lower(): i for i, name in enumerate(calendar.month_name) if name}
_MONTHS |= {name.lower(): i for i, name in enumerate(calendar.month_abbr) if name and name.lower() != "may"}
_MONTHS["sept"] = 9
_DAYS = {name.lower(): i for i, name in enumerate(calendar.day_name)}
_NUMBERS = {
    "a": 1,
    "an": 1,
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
    "a couple of": 2,
    "a couple": 2,
    "couple of": 2,
    "a few": 3,
    "few": 3,
    "several": 3,
}

_MONTH = r"(?P<month>" + "|".join(sorted(_MONTHS, key=len, reverse=True)) + r")\.?"
_DAY = r"(?P<day>[0-3]?\d)(?:st|nd|rd|th)?"
_YEAR = r"(?P<year>(?:19|20)\d\d)"
_NUM = r"(?P<n>\d{1,3}|" + "|".join(re.escape(k) for k in sorted(_NUMBERS, key=len, reverse=True)) + r")"
_UNIT = r"(?P<unit>day|week|month|year)s?"
_WEEKDAY = r"(?P<weekday>" + "|".join(_DAYS) + r")"


def _day_start(moment: datetime) -> datetime:
    return moment.replace(hour=0, minute=0, second=0, microsecond=0)


def _month_start(year: int, month: int, like: datetime) -> datetime:
    return like.replace(year=year, month=month, day=1, hour=0, minute=0, second=0, microsecond=0)


def _add_months(year: int, month: int, delta: int) -> tuple[int, int]:
    index = year * 12 + (month - 1) + delta
    return index // 12, index % 12 + 1


def _month_range(year: int, month: int, now: datetime) -> tuple[datetime, datetime]:
    start = _month_start(year, month, now)
    next_year, next_month = _add_months(year, month, 1)
    return start, _month_start(next_year, next_month, now)


def _year_range(year: int, now: datetime) -> tuple[datetime, datetime]:
    return _month_start(year, 1, now), _month_start(year + 1, 1, now)


def _latest_year_of(month: int, day: int, now: datetime) -> int:
    """The year of the most recent ``month``/``day`` that is not after ``now`` (a query looks back)."""
    return now.year if (month, day) <= (now.month, now.day) else now.year - 1


def _number(text: str) -> int:
    text = " ".join(text.lower().split())
    return int(text) if text.isdigit() else _NUMBERS[text]


def _span(unit: str, n: int) -> timedelta:
    days = {"day": 1, "week": 7, "month": 30, "year": 365}[unit]
    return timedelta(days=days * n)


def _within_last(m: re.Match[str], now: datetime) -> tuple[datetime, datetime]:
    n = _number(m["n"]) if m["n"] else 1
    return now - _span(m["unit"], n), now + timedelta(seconds=1)


def _ago(m: re.Match[str], now: datetime) -> tuple[datetime, datetime]:
    n, unit = _number(m["n"]), m["unit"]
    if unit == "day":
        day = _day_start(now - timedelta(days=n))
        return day, day + timedelta(days=1)
    if unit == "month":
        year, month = _add_months(now.year, now.month, -n)
        return _month_range(year, month, now)
    point, half = now - _span(unit, n), _span(unit, 1) / 2
    return point - half, point + half


def _relative_day(m: re.Match[str], now: datetime) -> tuple[datetime, datetime]:
    word = " ".join(m[0].lower().split())
    back = 2 if "before" in word else 1 if word in ("yesterday", "last night") else 0
    day = _day_start(now - timedelta(days=back))
    return day, day + timedelta(days=1)


def _this_or_last(m: re.Match[str], now: datetime) -> tuple[datetime, datetime]:
    which, unit = m["which"].lower(), m["unit"].lower()
    today = _day_start(now)
    if which == "past":  # a rolling period ending now
        return now - _span("week" if unit == "weekend" else unit, 1), now + timedelta(seconds=1)
    back = 0 if which == "this" else 1
    if unit in ("week", "weekend"):
        monday = today - timedelta(days=today.weekday()) - timedelta(weeks=back)
        if unit == "weekend":
            if which != "this" and today.weekday() == 6:  # on a Sunday "last weekend" is the one ending today
                monday += timedelta(weeks=1)
            return monday + timedelta(days=5), monday + timedelta(days=7)
        return monday, monday + timedelta(weeks=1)
    if unit == "month":
        year, month = _add_months(now.year, now.month, -back)
        return _month_range(year, month, now)
    return _year_range(now.year - back, now)


def _weekday(m: re.Match[str], now: datetime) -> tuple[datetime, datetime]:
    target = _DAYS[m["weekday"].lower()]
    today = _day_start(now)
    back = (today.weekday() - target) % 7 or 7  # the most recent such day before today
    if (m["which"] or "").lower() == "this":
        back = today.weekday() - target  # the day of this week (may be ahead)
    day = today - timedelta(days=back)
    return day, day + timedelta(days=1)


def _date(m: re.Match[str], now: datetime) -> tuple[datetime, datetime]:
    month, day = _MONTHS[m["month"].lower()], int(m["day"])
    if not 1 <= day <= 31:
        raise ValueError("not a day of a month")
    year = int(m["year"]) if m["year"] else _latest_year_of(month, day, now)
    start = _day_start(now.replace(year=year, month=month, day=min(day, calendar.monthrange(year, month)[1])))
    return start, start + timedelta(days=1)


def _month(m: re.Match[str], now: datetime) -> tuple[datetime, datetime]:
    month = _MONTHS[m["month"].lower()]
    year = int(m["year"]) if m["year"] else _latest_year_of(month, 1, now)
    return _month_range(year, month, now)


def _year(m: re.Match[str], now: datetime) -> tuple[datetime, datetime]:
    return _year_range(int(m["year"]), now)


def _compile(pattern: str) -> re.Pattern[str]:
    return re.compile(r"(?<![\w-])" + pattern + r"(?![\w-])", re.IGNORECASE)


# Most specific first: "on 5 May 2023" before "May 2023" before "in 2023".
_RULES: list[tuple[re.Pattern[str], object]] = [
    (
        _compile(r"(?:in|during|over|within|for)\s+the\s+(?:last|past|previous)\s+(?:" + _NUM + r"\s+)?" + _UNIT),
        _within_last,
    ),
    (_compile(r"(?:the\s+)?(?:last|past|previous)\s+" + _NUM + r"\s+" + _UNIT), _within_last),
    (_compile(_NUM + r"\s+" + _UNIT + r"\s+ago"), _ago),
    (_compile(r"the\s+day\s+before\s+yesterday|yesterday|last\s+night|today|tonight"), _relative_day),
    (_compile(r"(?P<which>this|last|past|previous)\s+(?P<unit>week|weekend|month|year)"), _this_or_last),
    (_compile(r"(?:on\s+)?(?:(?P<which>this|last|past)\s+)?" + _WEEKDAY), _weekday),
    (_compile(r"(?:on\s+)?(?:the\s+)?" + _DAY + r"\s+(?:of\s+)?" + _MONTH + r"(?:,?\s+" + _YEAR + r")?"), _date),
    (_compile(r"(?:on\s+)?" + _MONTH + r"\s+" + _DAY + r"(?:,?\s+" + _YEAR + r")?"), _date),
    (_compile(r"(?:in|during|of|since|from|early|late|mid|mid-)\s+" + _MONTH + r"(?:,?\s+" + _YEAR + r")?"), _month),
    (_compile(_MONTH + r",?\s+" + _YEAR), _month),
    (_compile(r"(?:in|during|of|since|from|throughout)\s+" + _YEAR), _year),
]


_OF = re.compile(r"\s+of\b", re.IGNORECASE)


def find_time_range(query: str, now: datetime) -> tuple[TimeRange | None, str]:
    """The time range the query names, relative to ``now``, and the query without that expression.

    Returns ``(None, query)`` when the query names no time this parser understands.
    """
    best: tuple[int, re.Match[str], object] | None = None
    for pattern, rule in _RULES:
        # "the last two weeks of August": a part of a larger phrase, not a time of its own
        m = next((m for m in pattern.finditer(query) if not _OF.match(query, m.end())), None)
        if m is not None and (best is None or m.start() < best[0]):
            # the earliest match in the text wins; among equal starts, the more specific rule (listed first)
            best = (m.start(), m, rule)
    if best is None:
        return None, query
    _, m, rule = best
    try:
        start, end = rule(m, now)  # type: ignore[operator]
    except (ValueError, KeyError, OverflowError):
        return None, query
    rest = " ".join((query[: m.start()] + " " + query[m.end() :]).split())
    return TimeRange(start, end, m[0].strip()), rest
