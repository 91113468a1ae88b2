"""Small helpers shared by the storage backends: time formats, JSON columns, query terms, and the
backend-neutral halves of row conversion and of export/import records.

Every backend selects the columns of a message, fact, summary, thread and history entry in one order
(see ``MESSAGE_COLS`` … in :mod:`.sqlite_common`, ``MESSAGE_SELECT`` … in :mod:`.postgres_common`); what
differs is how a JSON or time column comes back from the driver. A :class:`RowCodec` says that, and the
``*_from_row`` / ``*_record`` builders do the rest the same way for every backend. The import half
(records back into rows) is :mod:`._exchange`.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from ..errors import InvalidInput
from ..timestamps import fmt_time, parse_time
from ..types import ROLES, Fact, FactChange, Message, Summary, Thread
from ..validation import NewMessage

__all__ = [
    "CHANGEABLE_FACT_FIELDS",
    "STOPWORDS",
    "RowCodec",
    "bm25_idf",
    "check_fact_fields",
    "dump_json",
    "fact_change_from_row",
    "fact_diff",
    "fact_from_row",
    "fact_records",
    "fmt_time",
    "json_value",
    "known_roles",
    "load_json",
    "marked_range",
    "message_from_row",
    "message_record",
    "parse_time",
    "query_terms",
    "rarest_within",
    "summary_from_row",
    "summary_record",
    "thread_from_row",
    "thread_record",
    "unchanged",
]

# Words too common in chat to help a keyword search; the dense retriever covers their meaning.
STOPWORDS = frozenset(
    [
        "a",
        "about",
        "above",
        "after",
        "again",
        "against",
        "all",
        "am",
        "an",
        "and",
        "any",
        "are",
        "as",
        "at",
        "be",
        "because",
        "been",
        "before",
        "being",
        "below",
        "between",
        "both",
        "but",
        "by",
        "can",
        "could",
        "did",
        "do",
        "does",
        "doing",
        "down",
        "during",
        "each",
        "few",
        "for",
        "from",
        "further",
        "had",
        "has",
        "have",
        "having",
        "he",
        "her",
        "here",
        "hers",
        "herself",
        "him",
        "himself",
        "his",
        "how",
        "i",
        "if",
        "in",
        "into",
        "is",
        "it",
        "its",
        "itself",
        "just",
        "me",
        "more",
        "most",
        "my",
        "myself",
        "no",
        "nor",
        "not",
        "now",
        "of",
        "off",
        "on",
        "once",
        "only",
        "or",
        "other",
        "our",
        "ours",
        "ourselves",
        "out",
        "over",
        "own",
        "same",
        "she",
        "should",
        "so",
        "some",
        "such",
        "than",
        "that",
        "the",
        "their",
        "theirs",
        "them",
        "themselves",
        "then",
        "there",
        "these",
        "they",
        "this",
        "those",
        "through",
        "to",
        "too",
        "under",
        "until",
        "up",
        "very",
        "was",
        "we",
        "were",
        "what",
        "when",
        "where",
        "which",
        "while",
        "who",
        "whom",
        "why",
        "will",
        "with",
        "would",
        "you",
        "your",
        "yours",
        "yourself",
        "yourselves",
        "s",
        "t",
        "don",
        "ll",
        "m",
        "re",
        "ve",
        "d",
        "y",
        "also",
        "ever",
        "get",
        "got",
        "gets",
        "let",
        "lets",
        "like",
        "really",
        "much",
        "many",
    ]
)
_WORD_RE = re.compile(r"\w+", re.UNICODE)


def speaker_names(items: Sequence[NewMessage]) -> list[str]:
    """The names new messages are spoken under (display names and user ids), each once, sorted: what the
    ``speakers`` table keeps of them."""
    return sorted({n for item in items for n in (item.name, item.user) if n})


def dump_json(value: Any) -> str:
    """Compact JSON text for a JSON column."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


_DECODER = json.JSONDecoder()


def load_json(value: str | None) -> Any:
    """Decode a JSON column; None passes. The empty object (most rows' metadata) skips the parser.

    Stored JSON is our own compact text, so it is decoded from its first character without
    ``json.loads``'s whitespace and type checks (a third of its cost on a small object); anything else
    (leading or trailing whitespace, bad JSON) goes through ``json.loads``, which decodes it or raises.
    """
    if value is None:
        return None
    if value == "{}":
        return {}
    try:
        decoded, end = _DECODER.raw_decode(value)
    except (ValueError, TypeError):  # TypeError: bytes, which json.loads decodes
        return json.loads(value)
    return decoded if end == len(value) else json.loads(value)


def known_roles(roles: Sequence[str]) -> list[str]:
    """``roles`` if each is a message role (safe to write into SQL), else InvalidInput."""
    unknown = [r for r in roles if r not in ROLES]
    if unknown:
        raise InvalidInput(f"unknown roles {unknown}; use {', '.join(ROLES)}")
    return list(roles)


def query_terms(text: str, *, max_terms: int = 32) -> list[str]:
    """The distinct, lower-cased content words of a query, in order (stopwords dropped)."""
    seen: dict[str, None] = {}
    for word in _WORD_RE.findall(text.lower()):
        if word not in STOPWORDS and word not in seen:
            seen[word] = None
    terms = list(seen)[:max_terms]
    if not terms:  # a query of stopwords only still deserves an answer
        terms = list(dict.fromkeys(_WORD_RE.findall(text.lower())))[:max_terms]
    return terms


def bm25_idf(rows: float, count: float) -> float:
    """A word's IDF as BM25 computes it (FTS5's form): ``log((N - n + 0.5) / (n + 0.5))``, at least 1e-6, for
    ``count`` of ``rows`` documents (a count above ``rows`` counts as ``rows``)."""
    return max(math.log((rows - min(count, rows) + 0.5) / (count + 0.5)), 1e-6)


def rarest_within(terms: Sequence[str], count: Callable[[str], float], budget: float, alone: float = 4.0) -> list[str]:
    """The rarest ``terms`` whose ``count`` of messages adds up to at most ``budget``, in the query's order.

    When not even the rarest fits, it alone stays if its count is within ``alone`` budgets; past that no word
    stays (a word in so many messages of the agent says little of which of them is meant, and ranking them
    all would cost far more than the rest of the search)."""
    rarest = sorted(terms, key=count)
    kept: set[str] = set()
    total = 0.0
    for term in rarest:
        if total + count(term) > budget:
            break
        kept.add(term)
        total += count(term)
    if not kept and rarest and count(rarest[0]) <= alone * budget:
        kept.add(rarest[0])
    return [t for t in terms if t in kept]


# -- row conversion and export records (the same for every backend) --------------------------------
#: Fields of a fact a caller may change.
CHANGEABLE_FACT_FIELDS = frozenset(
    {
        "content",
        "category",
        "importance",
        "subject",
        "visibility",
        "owner",
        "metadata",
        "status",
        "valid_from",
        "invalid_at",
        "superseded_by",
    }
)


def unchanged(value: Any) -> Any:
    """A column value as the driver returned it (for a :class:`RowCodec` with nothing to convert)."""
    return value


@dataclass(frozen=True, slots=True)
class RowCodec:
    """How JSON and time values are converted on the way between a backend's columns and the values
    wanted (both functions get None for NULL and must handle it).

    Rows to :mod:`memlane.types` objects: ``time`` returns aware datetimes. Rows to export records:
    ``time`` returns :func:`fmt_time` text. Export records to column values (``*_import_row``): ``json``
    and ``time`` return what the driver binds for a JSON and a time column.
    """

    json: Callable[[Any], Any]
    time: Callable[[Any], Any]


def thread_from_row(r: Sequence[Any], users: tuple[str, ...], codec: RowCodec) -> Thread:
    """A thread from its columns (id, agent, key, status, system_prompt, metadata, created, updated, ended, count)."""
    return Thread(
        agent=r[1],
        key=r[2],
        status=r[3],
        system_prompt=r[4],
        metadata=codec.json(r[5]),
        created_at=codec.time(r[6]),
        updated_at=codec.time(r[7]),
        ended_at=codec.time(r[8]),
        message_count=int(r[9]),
        users=users,
    )


def message_from_row(r: Sequence[Any], codec: RowCodec) -> Message:
    """A message from its 14 columns, in the order every backend selects them."""
    # Positional: a frozen dataclass's keyword call costs a third more, and this runs for every row a
    # search loads. The order is Message's field order.
    return Message(
        r[0],
        r[1],
        r[2],
        r[3],
        r[4],
        r[5],
        r[6],
        r[7],
        codec.json(r[8]),
        r[9],
        r[10],
        codec.json(r[11]),
        codec.time(r[12]),
        bool(r[13]),
    )


def fact_from_row(r: Sequence[Any], codec: RowCodec) -> Fact:
    """A fact from its 20 columns, in the order every backend selects them."""
    return Fact(
        id=r[0],
        agent=r[1],
        content=r[2],
        category=r[3],
        importance=r[4],
        owner=r[5],
        subject=r[6],
        visibility=r[7],
        source_thread=r[8],
        source_from_seq=r[9],
        source_to_seq=r[10],
        metadata=codec.json(r[11]),
        created_at=codec.time(r[12]),
        updated_at=codec.time(r[13]),
        last_accessed_at=codec.time(r[14]),
        access_count=r[15],
        status=r[16],
        valid_from=codec.time(r[17]),
        invalid_at=codec.time(r[18]),
        superseded_by=r[19],
    )


def summary_from_row(r: Sequence[Any], codec: RowCodec) -> Summary:
    """A summary from its 11 columns, in the order every backend selects them."""
    return Summary(
        id=r[0],
        agent=r[1],
        thread=r[2],
        kind=r[3],
        content=r[4],
        from_seq=r[5],
        to_seq=r[6],
        owner=r[7],
        method=r[8],
        metadata=codec.json(r[9]),
        created_at=codec.time(r[10]),
    )


def fact_change_from_row(r: Sequence[Any], codec: RowCodec) -> FactChange:
    """A history entry from (id, fact_id, action, actor, old_content, new_content, changes, at)."""
    return FactChange(
        id=r[0],
        fact_id=r[1],
        action=r[2],
        actor=r[3],
        old_content=r[4],
        new_content=r[5],
        changes=codec.json(r[6]),
        at=codec.time(r[7]),
    )


def json_value(value: Any) -> Any:
    """A field value as JSON can hold it (a datetime as :func:`fmt_time` text)."""
    return fmt_time(value) if isinstance(value, datetime) else value


def check_fact_fields(changes: Mapping[str, Any]) -> None:
    """Raises InvalidInput if ``changes`` names a field a caller may not change."""
    unknown = set(changes) - CHANGEABLE_FACT_FIELDS
    if unknown:
        raise InvalidInput(f"cannot change fact fields: {', '.join(sorted(unknown))}")


def fact_diff(before: Fact, changes: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    """The changes that change something, as a history entry records them: ``{field: {"old", "new"}}``."""
    diff: dict[str, dict[str, Any]] = {}
    for key, value in changes.items():
        old = getattr(before, key)
        if old != value:
            diff[key] = {"old": json_value(old), "new": json_value(value)}
    return diff


def thread_record(r: Sequence[Any], codec: RowCodec) -> dict[str, Any]:
    """The export record of a thread row (columns as for :func:`thread_from_row`)."""
    return {
        "type": "thread",
        "thread": r[2],
        "status": r[3],
        "system_prompt": r[4],
        "metadata": codec.json(r[5]),
        "created_at": codec.time(r[6]),
        "updated_at": codec.time(r[7]),
        "ended_at": codec.time(r[8]),
    }


def message_record(m: Sequence[Any], codec: RowCodec) -> dict[str, Any]:
    """The export record of a message row (columns as for :func:`message_from_row`)."""
    return {
        "type": "message",
        "thread": m[2],
        "seq": m[3],
        "role": m[4],
        "content": m[5],
        "user": m[6],
        "name": m[7],
        "tool_calls": codec.json(m[8]),
        "tool_call_id": m[9],
        "metadata": codec.json(m[11]),
        "created_at": codec.time(m[12]),
        "summarized": bool(m[13]),
    }


def summary_record(s: Sequence[Any], codec: RowCodec) -> dict[str, Any]:
    """The export record of a summary row (columns as for :func:`summary_from_row`)."""
    return {
        "type": "summary",
        "thread": s[2],
        "kind": s[3],
        "content": s[4],
        "from_seq": s[5],
        "to_seq": s[6],
        "owner": s[7],
        "method": s[8],
        "metadata": codec.json(s[9]),
        "created_at": codec.time(s[10]),
    }


def _fact_record(r: Sequence[Any], ref: int, refs: Mapping[int, int], codec: RowCodec) -> dict[str, Any]:
    return {
        "type": "fact",
        "ref": ref,
        "content": r[2],
        "category": r[3],
        "importance": r[4],
        "owner": r[5],
        "subject": r[6],
        "visibility": r[7],
        "source_thread": r[8],
        "source_from_seq": r[9],
        "source_to_seq": r[10],
        "metadata": codec.json(r[11]),
        "created_at": codec.time(r[12]),
        "updated_at": codec.time(r[13]),
        "last_accessed_at": codec.time(r[14]),
        "access_count": r[15],
        "status": r[16],
        "valid_from": codec.time(r[17]),
        "invalid_at": codec.time(r[18]),
        "superseded_by": refs.get(r[19]) if r[19] is not None else None,
    }


def fact_records(
    fact_rows: Iterable[Sequence[Any]],
    history: Iterable[Sequence[Any]],
    wanted: set[str] | None,
    codec: RowCodec,
) -> Iterator[dict[str, Any]]:
    """The export records of an agent's facts and their history.

    ``fact_rows`` are the agent's facts by id (columns as for :func:`fact_from_row`), ``history`` its
    history entries by id as (fact_id, action, actor, old_content, new_content, changes, at). With
    ``wanted`` threads, only facts drawn from them (and their history) are exported. Facts are numbered
    1, 2, 3 … (``ref``) in id order; a fact deleted since, whose history is kept, gets a ``deleted_fact``
    record so its history still has a fact to refer to. The history entries come last.
    """
    if wanted is not None:
        fact_rows = [r for r in fact_rows if r[8] in wanted]
    live = {int(r[0]): r for r in fact_rows}
    if wanted is not None:
        history = [h for h in history if h[0] in live]
    history = list(history)
    refs = {fid: i + 1 for i, fid in enumerate(sorted(set(live) | {int(h[0]) for h in history}))}
    for fact_id, ref in refs.items():
        row = live.get(fact_id)
        if row is None:
            yield {"type": "deleted_fact", "ref": ref}
        else:
            yield _fact_record(row, ref, refs, codec)
    for h in history:
        yield {
            "type": "fact_change",
            "fact": refs[int(h[0])],
            "action": h[1],
            "actor": h[2],
            "old_content": h[3],
            "new_content": h[4],
            "changes": codec.json(h[5]),
            "at": codec.time(h[6]),
        }


def marked_range(thread_id: int | None, from_seq: int | None, to_seq: int | None) -> tuple[int, int] | None:
    """The (first, last) sequence numbers of the thread's messages a new summary marks summarized, or
    None if it marks none (no thread or no range); a range without an end is one message long."""
    if thread_id is None or from_seq is None:
        return None
    return from_seq, from_seq if to_seq is None else to_seq
