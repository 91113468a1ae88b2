"""Checks on everything a caller hands in, before anything is written.

Each function returns the normalised value or raises :class:`~memlane.errors.InvalidInput` with a
message that names the field; a failed check never leaves a partial write behind.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from .errors import InvalidInput
from .timestamps import EARLIEST, LATEST
from .types import CATEGORIES, ROLES, VISIBILITIES

__all__ = [
    "NewFact",
    "NewJob",
    "NewMessage",
    "NewSummary",
    "check_category",
    "check_content",
    "check_importance",
    "check_key",
    "check_metadata",
    "check_metadata_filter",
    "check_timestamp",
    "check_visibility",
    "new_message",
]

_CATEGORY_RE = re.compile(r"^[a-z][a-z0-9_\-]{0,31}$")
MAX_KEY_CHARS = 255
MESSAGE_KEYS = frozenset({"role", "content", "user", "name", "tool_calls", "tool_call_id", "created_at", "metadata"})


@dataclass(frozen=True, slots=True)
class NewMessage:
    """A validated message, ready to store."""

    role: str
    content: str
    user: str | None
    name: str | None
    tool_calls: list[dict[str, Any]] | None
    tool_call_id: str | None
    created_at: datetime | None
    metadata: dict[str, Any]


@dataclass(frozen=True, slots=True)
class NewFact:
    """A validated fact, ready to store."""

    content: str
    category: str
    importance: int
    owner: str | None
    subject: str | None
    visibility: str
    metadata: dict[str, Any]
    source_thread: str | None = None
    source_from_seq: int | None = None
    source_to_seq: int | None = None


@dataclass(frozen=True, slots=True)
class NewSummary:
    """A summary ready to store (written by the pipeline, not typed by users)."""

    kind: str
    content: str
    from_seq: int | None
    to_seq: int | None
    owner: str | None
    method: str
    metadata: dict[str, Any]


@dataclass(frozen=True, slots=True)
class NewJob:
    """A job to enqueue. A pending job with the same ``dedupe_key`` makes the new one a no-op."""

    kind: str
    payload: dict[str, Any]
    dedupe_key: str | None = None
    run_after: datetime | None = None
    max_attempts: int = 5


def _check_text(value: Any, field: str) -> str:
    if not isinstance(value, str):
        raise InvalidInput(f"{field} must be a string, not {type(value).__name__}")
    if "\x00" in value:
        raise InvalidInput(f"{field} contains a NUL character, which cannot be stored")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise InvalidInput(f"{field} is not valid Unicode text (lone surrogate at {exc.start})") from exc
    return value


_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")
_NAMES = frozenset({"thread", "agent", "user"})  # the names that appear in URLs, commands and prompts
_NO_SLASH = frozenset({"agent", "user"})


def check_key(value: Any, field: str) -> str:
    """A name or identifier: a non-blank string of at most 255 characters, with no control characters.

    The one naming rule of threads, agents and users, the same in the library, the CLI, REST, the UI and MCP:
    no leading or trailing spaces, not ``.`` or ``..``; agent and user names have no ``/`` either (a thread
    name may: URLs carry it percent-encoded, and ``alice/notes`` is user alice's own thread ``notes``, see
    :meth:`memlane.Memory.user_thread`).
    """
    text = _check_text(value, field)
    if not text.strip():
        raise InvalidInput(f"{field} must not be empty")
    if len(text) > MAX_KEY_CHARS:
        raise InvalidInput(f"{field} is longer than {MAX_KEY_CHARS} characters")
    if _CONTROL.search(text):
        raise InvalidInput(f"{field} must not contain control characters (line breaks, tabs, ...)")
    name = field.lstrip("-")
    if name in _NAMES:
        if text != text.strip():
            raise InvalidInput(f"{field} must not begin or end with spaces")
        if text in (".", ".."):
            raise InvalidInput(f"{field} must not be {text!r}")
        if name in _NO_SLASH and "/" in text:
            raise InvalidInput(f"{field} must not contain '/'")
    return text


def check_optional_key(value: Any, field: str) -> str | None:
    """Like :func:`check_key`, but None passes."""
    return None if value is None else check_key(value, field)


def check_content(value: Any, field: str, max_chars: int, *, allow_empty: bool = False) -> str:
    """Message or fact text: a string, not blank (unless allowed), at most ``max_chars`` characters."""
    if value is None and allow_empty:
        return ""
    text = _check_text(value, field)
    if not allow_empty and not text.strip():
        raise InvalidInput(f"{field} must not be empty or only whitespace")
    if len(text) > max_chars:
        raise InvalidInput(f"{field} has {len(text):,} characters; the limit is {max_chars:,}")
    return text


#: The deepest nesting of lists and objects a JSON value (metadata, a tool call) may have.
MAX_JSON_DEPTH = 32
#: The largest integer memlane stores or takes as an id or limit (SQLite's and PostgreSQL's bigint).
MAX_INT = 2**63 - 1


def _check_shape(value: Any, field: str) -> None:
    """Refuse JSON values nested deeper than :data:`MAX_JSON_DEPTH` or holding integers beyond 64 bits
    (checked without recursion, so any depth gets a typed error)."""
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, Mapping):
            children: Any = item.values()
        elif isinstance(item, list | tuple):
            children = item
        else:
            if isinstance(item, int) and not isinstance(item, bool) and not -MAX_INT - 1 <= item <= MAX_INT:
                raise InvalidInput(f"{field} holds an integer outside 64 bits")
            continue
        if depth > MAX_JSON_DEPTH:
            raise InvalidInput(f"{field} is nested more than {MAX_JSON_DEPTH} levels deep")
        stack.extend((child, depth + 1) for child in children)


def check_metadata(value: Any, field: str = "metadata") -> dict[str, Any]:
    """A JSON object, given as a dict or as JSON text; None becomes ``{}``."""
    if value is None:
        return {}
    if isinstance(value, str | bytes):
        try:
            value = json.loads(value)
        except (json.JSONDecodeError, UnicodeDecodeError) as exc:
            raise InvalidInput(f"{field} is not valid JSON: {exc}") from exc
        except RecursionError as exc:
            raise InvalidInput(f"{field} is nested more than {MAX_JSON_DEPTH} levels deep") from exc
    if not isinstance(value, Mapping):
        raise InvalidInput(f"{field} must be a JSON object, not {type(value).__name__}")
    if type(value) is dict and all(type(k) is str and type(v) in _FLAT for k, v in value.items()):
        return _checked_flat(value, field)
    return _checked_json(value, field)


#: The value types of a flat metadata object, which :func:`check_metadata` checks without a JSON round trip.
_FLAT = frozenset({str, int, float, bool, type(None)})


def _checked_flat(value: dict[str, Any], field: str) -> dict[str, Any]:
    """A copy of a dict of strings to JSON scalars, checked as its JSON round trip would be (the usual metadata:
    a few ids and labels; the same result and errors as :func:`_checked_json`, at a fraction of its cost)."""
    for key, item in value.items():
        _check_text(key, field)
        if type(item) is str:
            _check_text(item, field)
        elif type(item) is int:
            if not -MAX_INT - 1 <= item <= MAX_INT:
                raise InvalidInput(f"{field} holds an integer outside 64 bits")
        elif type(item) is float and not math.isfinite(item):
            raise InvalidInput(f"{field} cannot be stored as JSON: Out of range float values are not JSON compliant")
    return dict(value)


def _checked_json(value: Mapping[str, Any], field: str) -> dict[str, Any]:
    """``value`` after a JSON round trip, refused if it is nested too deep, holds an integer beyond 64 bits, a
    value JSON cannot hold, a NUL or a lone surrogate."""
    _check_shape(value, field)
    try:
        text = json.dumps(value, ensure_ascii=False, allow_nan=False)
    except (TypeError, ValueError) as exc:
        raise InvalidInput(f"{field} cannot be stored as JSON: {exc}") from exc
    _check_text(text, field)
    decoded: dict[str, Any] = json.loads(text)
    if "\\u0000" in text:  # JSON text spells a NUL only so (other text may, too: then every string is read)
        _check_no_nul(decoded, field)
    return decoded


#: Keys a metadata filter may name: the top-level keys of an item's metadata, as a JSON path can spell them.
_FILTER_KEY = re.compile(r"[A-Za-z0-9_\-]{1,64}")


def check_metadata_filter(value: Any) -> dict[str, str | int | float | bool | None] | None:
    """A recall filter on metadata: ``{key: value}`` pairs an item's metadata must all hold, values being
    JSON scalars (string, number, true/false, null) compared with their type (``True`` is not ``1``; ``1``
    is ``1.0``). Keys are 1-64 letters, digits, ``_`` or ``-``. ``None`` or ``{}``: no filter."""
    if value is None:
        return None
    if not isinstance(value, Mapping):
        raise InvalidInput(f"metadata filter must be a mapping of key to value, not {type(value).__name__}")
    checked: dict[str, str | int | float | bool | None] = {}
    for key, item in value.items():
        if not isinstance(key, str) or not _FILTER_KEY.fullmatch(key):
            raise InvalidInput(f"metadata filter key {key!r} must be 1-64 letters, digits, '_' or '-'")
        if isinstance(item, float) and not math.isfinite(item):
            raise InvalidInput(f"metadata filter value of {key!r} must be finite")
        if item is not None and not isinstance(item, str | int | float | bool):
            raise InvalidInput(
                f"metadata filter value of {key!r} must be a string, number, boolean or None, not {type(item).__name__}"
            )
        if isinstance(item, str):
            _check_text(item, "metadata filter")
        if isinstance(item, int) and not isinstance(item, bool) and not -MAX_INT - 1 <= item <= MAX_INT:
            raise InvalidInput(f"metadata filter value of {key!r} is an integer outside 64 bits")
        checked[key] = item
    return checked or None


def _check_no_nul(value: Any, field: str) -> None:
    """JSON may escape a NUL as \\u0000, which PostgreSQL's jsonb refuses: reject it everywhere."""
    if isinstance(value, str):
        if "\x00" in value:
            raise InvalidInput(f"{field} contains a NUL character, which cannot be stored")
    elif isinstance(value, dict):
        for key, item in value.items():
            _check_no_nul(key, field)
            _check_no_nul(item, field)
    elif isinstance(value, list):
        for item in value:
            _check_no_nul(item, field)


def check_timestamp(value: Any, field: str = "created_at") -> datetime | None:
    """A datetime (naive means UTC) or ISO-8601 text, returned in UTC; None passes.

    Raises:
        InvalidInput: not a time, or outside the years 1000 to 8999 (:data:`memlane.timestamps.EARLIEST`,
            :data:`~memlane.timestamps.LATEST`).
    """
    if value is None:
        return None
    if isinstance(value, str):
        try:
            value = datetime.fromisoformat(value.replace("Z", "+00:00"))
        except ValueError as exc:
            raise InvalidInput(f"{field} is not an ISO-8601 timestamp: {value[:64]!r}") from exc
    if not isinstance(value, datetime):
        raise InvalidInput(f"{field} must be a datetime or ISO-8601 text")
    try:
        moment = value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)
    except (OverflowError, ValueError) as exc:
        raise InvalidInput(f"{field} is out of range: {value!r}") from exc
    if not EARLIEST <= moment < LATEST:
        raise InvalidInput(f"{field} must lie between {EARLIEST:%Y-%m-%d} and {LATEST:%Y-%m-%d} (UTC): {value!r}")
    return moment


def check_importance(value: Any) -> int:
    """An importance: an integer from 1 to 5."""
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 5:
        raise InvalidInput(f"importance must be an integer from 1 to 5, not {value!r}")
    return value


def check_visibility(value: Any) -> str:
    """``private`` or ``shared``."""
    if value not in VISIBILITIES:
        raise InvalidInput(f"visibility must be one of {', '.join(VISIBILITIES)}, not {value!r}")
    return str(value)


def check_category(value: Any) -> str:
    """A built-in category or a new one spelled like an identifier (lower case, up to 32 chars)."""
    if not isinstance(value, str) or not (value in CATEGORIES or _CATEGORY_RE.match(value)):
        raise InvalidInput(f"category must be one of {', '.join(CATEGORIES)} or a lower-case identifier, not {value!r}")
    return value


def _check_tool_calls(value: Any) -> list[dict[str, Any]] | None:
    if value is None:
        return None
    if isinstance(value, str):
        try:
            value = json.loads(value)
        except json.JSONDecodeError as exc:
            raise InvalidInput(f"tool_calls is not valid JSON: {exc}") from exc
        except RecursionError as exc:
            raise InvalidInput(f"tool_calls is nested more than {MAX_JSON_DEPTH} levels deep") from exc
    if not isinstance(value, list) or not value:
        raise InvalidInput("tool_calls must be a non-empty list of tool-call objects")
    calls = []
    for i, call in enumerate(value):
        if not isinstance(call, Mapping) or not isinstance(call.get("id"), str) or not call["id"]:
            raise InvalidInput(f"tool_calls[{i}] must be an object with a non-empty string 'id'")
        calls.append(check_metadata(call, f"tool_calls[{i}]"))
    return calls


def new_message(
    role: Any,
    content: Any,
    *,
    user: Any = None,
    name: Any = None,
    tool_calls: Any = None,
    tool_call_id: Any = None,
    created_at: Any = None,
    metadata: Any = None,
    max_chars: int,
) -> NewMessage:
    """Validate one message's fields (the keyword arguments of ``Memory.add_message``)."""
    if role not in ROLES:
        raise InvalidInput(f"role must be one of {', '.join(ROLES)}, not {role!r}")
    calls = _check_tool_calls(tool_calls)
    if calls is not None and role != "assistant":
        raise InvalidInput("only assistant messages may carry tool_calls")
    if role == "tool" and tool_call_id is None:
        raise InvalidInput("a tool message needs the tool_call_id of the call it answers")
    if tool_call_id is not None and role != "tool":
        raise InvalidInput("only tool messages carry a tool_call_id")
    return NewMessage(
        role=role,
        content=check_content(content, "content", max_chars, allow_empty=calls is not None),
        user=check_optional_key(user, "user"),
        name=check_optional_key(name, "name"),
        tool_calls=calls,
        tool_call_id=check_optional_key(tool_call_id, "tool_call_id"),
        created_at=check_timestamp(created_at),
        metadata=check_metadata(metadata),
    )


def new_message_from_item(item: Any, index: int, max_chars: int) -> NewMessage:
    """Validate one item of ``Memory.add_messages``: a dict with ``add_message``'s keys."""
    if not isinstance(item, Mapping):
        raise InvalidInput(f"item {index} must be a dict, not {type(item).__name__}")
    unknown = set(item) - MESSAGE_KEYS
    if unknown:
        raise InvalidInput(f"item {index} has unknown keys: {', '.join(sorted(unknown))}")
    if "role" not in item or "content" not in item:
        raise InvalidInput(f"item {index} needs 'role' and 'content'")
    try:
        return new_message(**dict(item), max_chars=max_chars)
    except InvalidInput as exc:
        raise InvalidInput(f"item {index}: {exc}") from exc
