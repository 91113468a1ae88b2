"""Getting a validated pydantic object out of a model's free-text answer.

Models wrap JSON in prose, in Markdown fences, or after a ``<think>`` block; this module finds
it without ever trusting a bare ``json.loads``. Everything here is a pure function.

Candidates are tried in this order, and the first one that validates wins:

1. the whole answer (reasoning blocks, a BOM and surrounding whitespace removed);
2. the body of each Markdown code fence (``` or ```json, closed or cut off);
3. each top-level balanced ``{...}`` / ``[...]`` block of the answer, left to right
   (blocks nested in an earlier JSON block are not tried, so an inner object can never be
   mistaken for the answer).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Sequence
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from memlane.errors import InvalidOutput
from memlane.llm.types import ChatMessage

__all__ = [
    "extract_json",
    "iter_json_candidates",
    "parse_model",
    "repair_messages",
    "schema_instruction",
    "with_instruction",
]

T = TypeVar("T", bound=BaseModel)

# Reasoning models (DeepSeek-R1, Qwen3 ...) think out loud first; the thoughts may hold braces.
_THINK = re.compile(r"<think>.*?(?:</think>|\Z)", re.DOTALL | re.IGNORECASE)
_FENCE = re.compile(r"```[ \t]*[\w+.-]*[^\n]*\n(.*?)(?:```|\Z)", re.DOTALL)
_OPENERS = re.compile(r"[\[{]")
# Bounds the work on hostile input such as "[[[[...": each start is one C-level parse attempt.
_MAX_BLOCK_STARTS = 256
_SNIPPET = 200

_decoder = json.JSONDecoder(strict=False)  # strict=False: models put raw newlines inside strings


def _loads(text: str) -> tuple[bool, Any]:
    try:
        value, end = _decoder.raw_decode(text)
    except (ValueError, RecursionError):
        return False, None
    if text[end:].strip():
        return False, None
    return True, value


def iter_json_candidates(text: str) -> Iterator[Any]:
    """Yield every JSON value found in ``text``, most likely answer first (see module doc).

    Never raises; yields nothing when the text holds no JSON.
    """
    cleaned = _THINK.sub("", text).lstrip("\ufeff").strip()
    ok, value = _loads(cleaned)
    if ok:
        yield value
        return
    for fence in _FENCE.finditer(cleaned):
        ok, value = _loads(fence.group(1).strip())
        if ok:
            yield value
    skip_until = 0
    for tries, match in enumerate(_OPENERS.finditer(cleaned)):
        if tries >= _MAX_BLOCK_STARTS:
            return
        start = match.start()
        if start < skip_until:
            continue
        try:
            value, end = _decoder.raw_decode(cleaned, start)
        except (ValueError, RecursionError):
            continue
        skip_until = end
        yield value


def _invalid(message: str, raw: str) -> InvalidOutput:
    snippet = raw if len(raw) <= _SNIPPET else raw[:_SNIPPET] + "…"
    error = InvalidOutput(f"{message}; model output: {snippet!r}")
    # The full text travels with the error so callers can log or store it.
    error.add_note(f"raw model output:\n{raw}")
    return error


def extract_json(text: str) -> Any:
    """Return the first JSON value found in a model answer.

    Raises:
        InvalidOutput: the text holds no parseable JSON (the raw text is attached as a note).
    """
    for value in iter_json_candidates(text):
        return value
    raise _invalid("model output contains no valid JSON", text)


def _summarize(error: ValidationError) -> str:
    parts = []
    for item in error.errors()[:3]:
        where = ".".join(str(p) for p in item["loc"]) or "(root)"
        parts.append(f"{where}: {item['msg']}")
    more = error.error_count() - len(parts)
    return "; ".join(parts) + (f"; and {more} more" if more > 0 else "")


def parse_model(text: str, schema: type[T]) -> T:
    """Find JSON in a model answer and validate it into ``schema``.

    Every candidate (see module doc) is tried until one validates.

    Raises:
        InvalidOutput: no JSON at all, or no JSON value matching ``schema``; the message says
            which, and the full raw text is attached as a note.
    """
    first_error: ValidationError | None = None
    for value in iter_json_candidates(text):
        try:
            return schema.model_validate(value)
        except ValidationError as error:
            first_error = first_error or error
    if first_error is None:
        raise _invalid("model output contains no valid JSON", text)
    raise _invalid(f"model output does not match {schema.__name__}: {_summarize(first_error)}", text)


def schema_instruction(schema: type[BaseModel]) -> str:
    """The instruction that asks a model for JSON matching ``schema`` (when the API can't enforce it)."""
    spec = json.dumps(schema.model_json_schema(), separators=(",", ":"), ensure_ascii=False)
    return (
        "Reply with only a JSON value, without prose or Markdown fences, "
        f"that validates against this JSON schema:\n{spec}"
    )


def with_instruction(messages: Sequence[ChatMessage], instruction: str) -> list[ChatMessage]:
    """Append ``instruction`` to the leading system message, or add one in front.

    Kept in the first system message because several chat templates (and Anthropic's API)
    reject system messages anywhere else.
    """
    if messages and messages[0].role == "system":
        head = ChatMessage.system(f"{messages[0].content}\n\n{instruction}")
        return [head, *messages[1:]]
    return [ChatMessage.system(instruction), *messages]


def repair_messages(
    messages: Sequence[ChatMessage], raw: str, error: InvalidOutput, schema: type[BaseModel]
) -> list[ChatMessage]:
    """The conversation for one corrective retry: the bad answer, then what was wrong with it."""
    reason = str(error).split("; model output:", 1)[0]
    note = f"That answer could not be used ({reason}). {schema_instruction(schema)}"
    return [*messages, ChatMessage.assistant(raw or "(empty answer)"), ChatMessage.user(note)]
