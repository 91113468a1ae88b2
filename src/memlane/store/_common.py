"""Small helpers shared by the storage backends: time formats, JSON columns, query terms."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime
from typing import Any

__all__ = ["STOPWORDS", "dump_json", "fmt_time", "load_json", "parse_time", "query_terms"]

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


def fmt_time(value: datetime) -> str:
    """A UTC timestamp as fixed-width ISO-8601 text (sorts like the times it holds)."""
    return value.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%f+00:00")


def parse_time(value: str | None) -> datetime | None:
    """The inverse of :func:`fmt_time`; None passes."""
    return None if value is None else datetime.fromisoformat(value)


def dump_json(value: Any) -> str:
    """Compact JSON text for a JSON column."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def load_json(value: str | None) -> Any:
    """Decode a JSON column; None passes."""
    return None if value is None else json.loads(value)


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
