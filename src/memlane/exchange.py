"""The JSON Lines export format, and the checks every imported record passes before anything is written.

An export is a header line followed by one record per line::

    {"type": "header", "format": "memlane-export", "version": 1, "agent": "..."}
    {"type": "thread", "thread": key, "status", "system_prompt", "metadata", "created_at", "updated_at", "ended_at"}
    {"type": "message", "thread", "seq", "role", "content", "user", "name", "tool_calls", "tool_call_id",
     "metadata", "created_at", "summarized"}
    {"type": "summary", "thread", "kind", "content", "from_seq", "to_seq", "owner", "method", "metadata", "created_at"}
    {"type": "fact", "ref", "content", "category", "importance", "owner", "subject", "visibility", "source_thread",
     "source_from_seq", "source_to_seq", "metadata", "created_at", "updated_at", "last_accessed_at",
     "access_count", "status", "valid_from", "invalid_at", "superseded_by"}
    {"type": "deleted_fact", "ref"}                 a forgotten fact whose history is kept
    {"type": "fact_change", "fact": ref, "action", "actor", "old_content", "new_content", "changes", "at"}
    {"type": "user", "user", "persona", "custom_context", "interactions", "last_interaction"}   (whole-agent exports)

Facts are numbered by ``ref`` within one export; database ids never leave the store. Times are UTC
ISO-8601 text. Importing and exporting again gives the same lines.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .errors import InvalidInput
from .timestamps import fmt_time
from .types import ROLES
from .validation import (
    check_category,
    check_content,
    check_importance,
    check_key,
    check_metadata,
    check_timestamp,
    check_visibility,
    new_message,
)

__all__ = ["EXPORT_FORMAT", "EXPORT_VERSION", "check_record"]

EXPORT_FORMAT = "memlane-export"
EXPORT_VERSION = 1


def _time(required: bool) -> Callable[[Any, str], Any]:
    def check(value: Any, field: str) -> str | None:
        if value is None:
            if required:
                raise InvalidInput(f"{field} is required")
            return None
        if not isinstance(value, str):
            raise InvalidInput(f"{field} must be ISO-8601 text")
        stamp = check_timestamp(value, field)
        assert stamp is not None
        return fmt_time(stamp)

    return check


def _int(required: bool, minimum: int | None = None) -> Callable[[Any, str], Any]:
    def check(value: Any, field: str) -> int | None:
        if value is None and not required:
            return None
        if isinstance(value, bool) or not isinstance(value, int):
            raise InvalidInput(f"{field} must be an integer")
        if minimum is not None and value < minimum:
            raise InvalidInput(f"{field} must be at least {minimum}")
        return value

    return check


def _key(required: bool) -> Callable[[Any, str], Any]:
    def check(value: Any, field: str) -> str | None:
        if value is None and not required:
            return None
        return check_key(value, field)

    return check


def _text(value: Any, field: str) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str):
        raise InvalidInput(f"{field} must be text")
    return check_content(value, field, 10**9, allow_empty=True)


def _meta(value: Any, field: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise InvalidInput(f"{field} must be a JSON object")
    return check_metadata(value, field)


def _one_of(*choices: str) -> Callable[[Any, str], Any]:
    def check(value: Any, field: str) -> str:
        if value not in choices:
            raise InvalidInput(f"{field} must be one of {', '.join(choices)}")
        return str(value)

    return check


def _bool(value: Any, field: str) -> bool:
    if not isinstance(value, bool):
        raise InvalidInput(f"{field} must be true or false")
    return value


_FIELDS: dict[str, dict[str, Callable[[Any, str], Any]]] = {
    "thread": {
        "thread": _key(True),
        "status": _one_of("open", "ended"),
        "system_prompt": _text,
        "metadata": _meta,
        "created_at": _time(True),
        "updated_at": _time(True),
        "ended_at": _time(False),
    },
    "message": {
        "thread": _key(True),
        "seq": _int(True, 1),
        "role": _one_of(*ROLES),
        "content": _text,
        "user": _key(False),
        "name": _key(False),
        "tool_calls": lambda v, f: v,
        "tool_call_id": _key(False),
        "metadata": _meta,
        "created_at": _time(True),
        "summarized": _bool,
    },
    "summary": {
        "thread": _key(False),
        "kind": _key(True),
        "content": _text,
        "from_seq": _int(False),
        "to_seq": _int(False),
        "owner": _key(False),
        "method": _key(True),
        "metadata": _meta,
        "created_at": _time(True),
    },
    "fact": {
        "ref": _int(True, 1),
        "content": _text,
        "category": lambda v, f: check_category(v),
        "importance": lambda v, f: check_importance(v),
        "owner": _key(False),
        "subject": _key(False),
        "visibility": lambda v, f: check_visibility(v),
        "source_thread": _key(False),
        "source_from_seq": _int(False),
        "source_to_seq": _int(False),
        "metadata": _meta,
        "created_at": _time(True),
        "updated_at": _time(True),
        "last_accessed_at": _time(False),
        "access_count": _int(True, 0),
        "status": _one_of("active", "superseded"),
        "valid_from": _time(False),
        "invalid_at": _time(False),
        "superseded_by": _int(False, 1),
    },
    "deleted_fact": {"ref": _int(True, 1)},
    "user": {
        "user": _key(True),
        "persona": _text,
        "custom_context": _text,
        "interactions": _int(True, 0),
        "last_interaction": _time(False),
    },
    "fact_change": {
        "fact": _int(True, 1),
        "action": _key(True),
        "actor": _key(False),
        "old_content": _text,
        "new_content": _text,
        "changes": _meta,
        "at": _time(True),
    },
}


def check_record(record: Any, number: int, max_chars: int) -> dict[str, Any]:
    """A validated, normalised copy of one export record (line ``number``).

    Raises:
        InvalidInput: unknown type, missing or extra field, or a value of the wrong shape.
    """
    if not isinstance(record, dict):
        raise InvalidInput(f"line {number} is not a JSON object")
    kind = record.get("type")
    fields = _FIELDS.get(kind) if isinstance(kind, str) else None
    if fields is None:
        raise InvalidInput(f"line {number}: unknown record type {kind!r}")
    missing = [name for name in fields if name not in record]
    extra = [name for name in record if name != "type" and name not in fields]
    if missing or extra:
        raise InvalidInput(
            f"line {number}: {kind} record "
            + ("lacks " + ", ".join(missing) if missing else "")
            + ("; " if missing and extra else "")
            + ("has unknown fields " + ", ".join(extra) if extra else "")
        )
    out: dict[str, Any] = {"type": kind}
    try:
        for name, check in fields.items():
            out[name] = check(record[name], name)
        if kind == "message":
            item = new_message(
                out["role"],
                out["content"] if out["content"] is not None else "",
                user=out["user"],
                name=out["name"],
                tool_calls=out["tool_calls"],
                tool_call_id=out["tool_call_id"],
                max_chars=max_chars,
            )
            out["tool_calls"] = item.tool_calls
        elif kind in ("summary", "fact"):
            check_content(out["content"], "content", max_chars)
    except InvalidInput as exc:
        raise InvalidInput(f"line {number}: {exc}") from exc
    return out
