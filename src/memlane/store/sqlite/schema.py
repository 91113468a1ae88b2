"""Numbered migrations of the SQLite schema. Applied in order when a store opens; never edited once shipped.

Times are UTC ISO-8601 text with microseconds (sortable as text); JSON is text. The full-text tables are
contentless FTS5 tables kept by triggers; their ``scope`` column holds tokens such as ``a3`` (agent 3),
``t17`` (thread 17), ``o<hex>`` (owner), ``vshared`` so that scopes are matched inside the full-text
search itself rather than filtered afterwards.

Since migration 5 the words of messages are indexed per agent (see :func:`agent_terms`), through the SQL
function ``memlane_agent_terms`` that :func:`register_functions` adds to every connection of the store.
Migration 6 is PostgreSQL-only (the thread of each message vector) and empty here; the numbers match on both
backends.
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Callable

__all__ = ["MIGRATIONS", "MIGRATION_STEPS", "agent_terms", "register_functions"]

_WORD = re.compile(r"[^\W_]+")


def agent_terms(agent_id: int, text: str | None) -> str:
    """``text`` as the words the message index holds for ``agent_id``: each word behind the agent's tag.

    FTS5 keeps one posting list per term for the whole table, so with plain words a search walks every
    agent's postings of its query terms (BM25 counts them all), and gets slower as *other* agents grow.
    With ``q<len><id>`` in front of every word, each agent has its own terms. The tag is all consonants
    (``q`` and digits), so the Porter stemmer measures the word as before; its length digit keeps tags
    unambiguous (agent 1's ``q11`` + ``2x`` is ``q112x``; agent 12's tag is ``q212``). Queries are tagged
    the same way, so matching and stemming agree between messages and queries. BM25's document frequencies
    are therefore the agent's own: one agent's messages no longer change how another's rank. (The tag does
    reach Porter's short-word rule: "one" and "on" are no longer one stem.)
    """
    if not text:
        return ""
    words = _WORD.findall(text.lower())
    if not words:
        return ""
    digits = str(agent_id)
    tag = f"q{len(digits)}{digits}"
    return tag + f" {tag}".join(words)


def register_functions(conn: sqlite3.Connection) -> None:
    """Add the SQL functions the schema's triggers and migrations call (needed on every connection)."""
    conn.create_function("memlane_agent_terms", 2, agent_terms, deterministic=True)


_INITIAL = """
CREATE TABLE meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);

CREATE TABLE agents (
    id         INTEGER PRIMARY KEY,
    name       TEXT NOT NULL UNIQUE,
    created_at TEXT NOT NULL
);

CREATE TABLE threads (
    id            INTEGER PRIMARY KEY,
    agent_id      INTEGER NOT NULL REFERENCES agents(id) ON DELETE CASCADE,
    key           TEXT NOT NULL,
    status        TEXT NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'ended')),
    system_prompt TEXT,
    metadata      TEXT NOT NULL DEFAULT '{}',
    next_seq      INTEGER NOT NULL DEFAULT 1,
    message_count INTEGER NOT NULL DEFAULT 0,
    created_at    TEXT NOT NULL,
    updated_at    TEXT NOT NULL,
    ended_at      TEXT,
    UNIQUE (agent_id, key)
);
CREATE INDEX threads_agent_updated ON threads (agent_id, updated_at);

CREATE TABLE thread_users (
    thread_id INTEGER NOT NULL REFERENCES threads(id) ON DELETE CASCADE,
    user_id   TEXT NOT NULL,
    agent_id  INTEGER NOT NULL,
    PRIMARY KEY (thread_id, user_id)
) WITHOUT ROWID;
CREATE INDEX thread_users_user ON thread_users (agent_id, user_id);

CREATE TABLE messages (
    id           INTEGER PRIMARY KEY,
    agent_id     INTEGER NOT NULL,
    thread_id    INTEGER NOT NULL REFERENCES threads(id) ON DELETE CASCADE,
    seq          INTEGER NOT NULL,
    role         TEXT NOT NULL CHECK (role IN ('user', 'assistant', 'system', 'tool')),
    user_id      TEXT,
    name         TEXT,
    content      TEXT NOT NULL,
    tool_calls   TEXT,
    tool_call_id TEXT,
    token_count  INTEGER NOT NULL,
    metadata     TEXT NOT NULL DEFAULT '{}',
    created_at   TEXT NOT NULL,
    summarized   INTEGER NOT NULL DEFAULT 0,
    UNIQUE (thread_id, seq)
);
CREATE INDEX messages_agent_created ON messages (agent_id, created_at);

CREATE VIRTUAL TABLE messages_fts USING fts5(
    content, speaker, scope, content = '', tokenize = 'porter unicode61 remove_diacritics 2'
);
CREATE TRIGGER messages_fts_insert AFTER INSERT ON messages BEGIN
    INSERT INTO messages_fts (rowid, content, speaker, scope)
    VALUES (new.id, new.content, coalesce(new.name, new.user_id, new.role),
            'a' || new.agent_id || ' t' || new.thread_id);
END;
CREATE TRIGGER messages_fts_delete AFTER DELETE ON messages BEGIN
    INSERT INTO messages_fts (messages_fts, rowid, content, speaker, scope)
    VALUES ('delete', old.id, old.content, coalesce(old.name, old.user_id, old.role),
            'a' || old.agent_id || ' t' || old.thread_id);
END;

CREATE TABLE facts (
    id               INTEGER PRIMARY KEY AUTOINCREMENT,
    agent_id         INTEGER NOT NULL REFERENCES agents(id) ON DELETE CASCADE,
    owner            TEXT,
    subject          TEXT,
    category         TEXT NOT NULL,
    content          TEXT NOT NULL,
    importance       INTEGER NOT NULL CHECK (importance BETWEEN 1 AND 5),
    visibility       TEXT NOT NULL CHECK (visibility IN ('private', 'shared')),
    source_thread_id INTEGER REFERENCES threads(id) ON DELETE SET NULL,
    source_thread    TEXT,
    source_from_seq  INTEGER,
    source_to_seq    INTEGER,
    metadata         TEXT NOT NULL DEFAULT '{}',
    status           TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'superseded')),
    valid_from       TEXT,
    invalid_at       TEXT,
    superseded_by    INTEGER,
    created_at       TEXT NOT NULL,
    updated_at       TEXT NOT NULL,
    last_accessed_at TEXT,
    access_count     INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX facts_agent_owner ON facts (agent_id, owner);
CREATE INDEX facts_agent_subject ON facts (agent_id, subject);

CREATE VIRTUAL TABLE facts_fts USING fts5(
    content, subject, scope, content = '', tokenize = 'porter unicode61 remove_diacritics 2'
);
CREATE TRIGGER facts_fts_insert AFTER INSERT ON facts BEGIN
    INSERT INTO facts_fts (rowid, content, subject, scope)
    VALUES (new.id, new.content, coalesce(new.subject, ''),
            'a' || new.agent_id || ' o' || CASE WHEN new.owner IS NULL THEN 'none' ELSE hex(new.owner) END
            || ' v' || new.visibility
            || ' s' || new.status);
END;
CREATE TRIGGER facts_fts_delete AFTER DELETE ON facts BEGIN
    INSERT INTO facts_fts (facts_fts, rowid, content, subject, scope)
    VALUES ('delete', old.id, old.content, coalesce(old.subject, ''),
            'a' || old.agent_id || ' o' || CASE WHEN old.owner IS NULL THEN 'none' ELSE hex(old.owner) END
            || ' v' || old.visibility
            || ' s' || old.status);
END;
CREATE TRIGGER facts_fts_update AFTER UPDATE OF content, subject, owner, visibility, status ON facts BEGIN
    INSERT INTO facts_fts (facts_fts, rowid, content, subject, scope)
    VALUES ('delete', old.id, old.content, coalesce(old.subject, ''),
            'a' || old.agent_id || ' o' || CASE WHEN old.owner IS NULL THEN 'none' ELSE hex(old.owner) END
            || ' v' || old.visibility
            || ' s' || old.status);
    INSERT INTO facts_fts (rowid, content, subject, scope)
    VALUES (new.id, new.content, coalesce(new.subject, ''),
            'a' || new.agent_id || ' o' || CASE WHEN new.owner IS NULL THEN 'none' ELSE hex(new.owner) END
            || ' v' || new.visibility
            || ' s' || new.status);
END;

CREATE TABLE fact_history (
    id          INTEGER PRIMARY KEY,
    agent_id    INTEGER NOT NULL REFERENCES agents(id) ON DELETE CASCADE,
    fact_id     INTEGER NOT NULL,
    action      TEXT NOT NULL,
    actor       TEXT,
    old_content TEXT,
    new_content TEXT,
    changes     TEXT NOT NULL DEFAULT '{}',
    at          TEXT NOT NULL
);
CREATE INDEX fact_history_fact ON fact_history (agent_id, fact_id);

CREATE TABLE summaries (
    id         INTEGER PRIMARY KEY,
    agent_id   INTEGER NOT NULL REFERENCES agents(id) ON DELETE CASCADE,
    thread_id  INTEGER REFERENCES threads(id) ON DELETE CASCADE,
    kind       TEXT NOT NULL,
    owner      TEXT,
    from_seq   INTEGER,
    to_seq     INTEGER,
    content    TEXT NOT NULL,
    method     TEXT NOT NULL,
    metadata   TEXT NOT NULL DEFAULT '{}',
    created_at TEXT NOT NULL
);
CREATE UNIQUE INDEX summaries_range ON summaries (thread_id, kind, from_seq, to_seq);
CREATE INDEX summaries_agent_kind ON summaries (agent_id, kind, created_at);

CREATE VIRTUAL TABLE summaries_fts USING fts5(
    content, scope, content = '', tokenize = 'porter unicode61 remove_diacritics 2'
);
CREATE TRIGGER summaries_fts_insert AFTER INSERT ON summaries BEGIN
    INSERT INTO summaries_fts (rowid, content, scope)
    VALUES (new.id, new.content, 'a' || new.agent_id || ' t' || coalesce(new.thread_id, 'none')
            || ' o' || CASE WHEN new.owner IS NULL THEN 'none' ELSE hex(new.owner) END);
END;
CREATE TRIGGER summaries_fts_delete AFTER DELETE ON summaries BEGIN
    INSERT INTO summaries_fts (summaries_fts, rowid, content, scope)
    VALUES ('delete', old.id, old.content, 'a' || old.agent_id || ' t' || coalesce(old.thread_id, 'none')
            || ' o' || CASE WHEN old.owner IS NULL THEN 'none' ELSE hex(old.owner) END);
END;
CREATE TRIGGER summaries_fts_update AFTER UPDATE OF content ON summaries BEGIN
    INSERT INTO summaries_fts (summaries_fts, rowid, content, scope)
    VALUES ('delete', old.id, old.content, 'a' || old.agent_id || ' t' || coalesce(old.thread_id, 'none')
            || ' o' || CASE WHEN old.owner IS NULL THEN 'none' ELSE hex(old.owner) END);
    INSERT INTO summaries_fts (rowid, content, scope)
    VALUES (new.id, new.content, 'a' || new.agent_id || ' t' || coalesce(new.thread_id, 'none')
            || ' o' || CASE WHEN new.owner IS NULL THEN 'none' ELSE hex(new.owner) END);
END;

CREATE TABLE jobs (
    id               INTEGER PRIMARY KEY,
    agent_id         INTEGER NOT NULL REFERENCES agents(id) ON DELETE CASCADE,
    kind             TEXT NOT NULL,
    payload          TEXT NOT NULL DEFAULT '{}',
    dedupe_key       TEXT UNIQUE,
    status           TEXT NOT NULL DEFAULT 'pending'
                     CHECK (status IN ('pending', 'running', 'done', 'dead')),
    attempts         INTEGER NOT NULL DEFAULT 0,
    max_attempts     INTEGER NOT NULL DEFAULT 5,
    run_after        TEXT NOT NULL,
    lease_owner      TEXT,
    lease_expires_at TEXT,
    last_error       TEXT,
    created_at       TEXT NOT NULL,
    updated_at       TEXT NOT NULL
);
CREATE INDEX jobs_ready ON jobs (status, run_after);
"""

# Vectors live apart from the rows they embed. ``id`` only grows, so a reader's cache loads what is new by
# id; ``agents.vector_epoch`` counts deletions, which make a cache reload the agent's vectors.
_VECTORS = """
CREATE TABLE embeddings (
    id         INTEGER PRIMARY KEY,
    agent_id   INTEGER NOT NULL REFERENCES agents(id) ON DELETE CASCADE,
    kind       TEXT NOT NULL CHECK (kind IN ('message', 'fact', 'summary')),
    item_id    INTEGER NOT NULL,
    thread_id  INTEGER,
    created_at TEXT NOT NULL,
    vector     BLOB NOT NULL,
    UNIQUE (kind, item_id)
);
CREATE INDEX embeddings_agent ON embeddings (agent_id, id);
ALTER TABLE agents ADD COLUMN vector_epoch INTEGER NOT NULL DEFAULT 0;
CREATE TRIGGER embeddings_delete AFTER DELETE ON embeddings BEGIN
    UPDATE agents SET vector_epoch = vector_epoch + 1 WHERE id = old.agent_id;
END;
CREATE TRIGGER messages_embedding_delete AFTER DELETE ON messages BEGIN
    DELETE FROM embeddings WHERE kind = 'message' AND item_id = old.id;
END;
CREATE TRIGGER facts_embedding_delete AFTER DELETE ON facts BEGIN
    DELETE FROM embeddings WHERE kind = 'fact' AND item_id = old.id;
END;
CREATE TRIGGER summaries_embedding_delete AFTER DELETE ON summaries BEGIN
    DELETE FROM embeddings WHERE kind = 'summary' AND item_id = old.id;
END;
"""

# FTS5 flushes its pending terms at every statement savepoint, so a per-row trigger writes a tiny segment
# per message (3x the cost of one executemany into the index). The store indexes new messages itself.
_EXPLICIT_MESSAGE_INDEX = """
DROP TRIGGER messages_fts_insert;
"""

_USAGE = """
CREATE TABLE usage_events (
    id                INTEGER PRIMARY KEY,
    agent_id          INTEGER NOT NULL REFERENCES agents(id) ON DELETE CASCADE,
    operation         TEXT NOT NULL,
    model             TEXT NOT NULL,
    prompt_tokens     INTEGER NOT NULL,
    completion_tokens INTEGER NOT NULL,
    latency_ms        REAL NOT NULL,
    ok                INTEGER NOT NULL,
    error             TEXT,
    at                TEXT NOT NULL
);
CREATE INDEX usage_events_agent_at ON usage_events (agent_id, at);
"""

# Per-agent message terms: the index is rebuilt from the stored text (by _index_message_terms, as the
# script itself cannot call Python) with every word tagged by its agent (see agent_terms). The scope
# column is unchanged. Facts and summaries are few and keep plain words.
_AGENT_TERMS = """
DROP TRIGGER messages_fts_delete;
DROP TABLE messages_fts;
CREATE VIRTUAL TABLE messages_fts USING fts5(
    content, speaker, scope, content = '', tokenize = 'porter unicode61 remove_diacritics 2'
);
CREATE TRIGGER messages_fts_delete AFTER DELETE ON messages BEGIN
    INSERT INTO messages_fts (messages_fts, rowid, content, speaker, scope)
    VALUES ('delete', old.id, memlane_agent_terms(old.agent_id, old.content),
            memlane_agent_terms(old.agent_id, coalesce(old.name, old.user_id, old.role)),
            'a' || old.agent_id || ' t' || old.thread_id);
END;
"""


def _index_message_terms(conn: sqlite3.Connection) -> None:
    conn.execute(
        "INSERT INTO messages_fts (rowid, content, speaker, scope) "
        "SELECT id, memlane_agent_terms(agent_id, content), "
        "memlane_agent_terms(agent_id, coalesce(name, user_id, role)), 'a' || agent_id || ' t' || thread_id "
        "FROM messages ORDER BY id"
    )


# context() keeps a thread's system messages older than its recent window (the hybrid strategy); this partial
# index holds just those, so finding them reads none of the thread's other messages.
_SYSTEM_MESSAGES = "CREATE INDEX messages_system ON messages (thread_id, seq) WHERE role = 'system';"

# Migration 9. Times: versions before it wrote years below 1000 without their leading zeros ('1-01-01T...'),
# which sort wrongly and which older readers could not parse; each such value gets its zeros back (a scan of
# every time column, only the bad rows written). Ids: SQLite gives a new row the largest id + 1, so the ids of
# deleted newest rows came back; id_floor keeps the largest id ever deleted from the tables whose ids callers
# hold, and writers take max(id_floor, max(id)) + 1 (``common.next_id``).
_TIME_COLUMNS = (
    ("agents", "created_at"),
    ("threads", "created_at"),
    ("threads", "updated_at"),
    ("threads", "ended_at"),
    ("messages", "created_at"),
    ("facts", "valid_from"),
    ("facts", "invalid_at"),
    ("facts", "created_at"),
    ("facts", "updated_at"),
    ("facts", "last_accessed_at"),
    ("fact_history", "at"),
    ("summaries", "created_at"),
    ("jobs", "run_after"),
    ("jobs", "lease_expires_at"),
    ("jobs", "created_at"),
    ("jobs", "updated_at"),
    ("embeddings", "created_at"),
    ("usage_events", "at"),
)
_PAD_YEAR = (
    "UPDATE {table} SET {column} = printf('%04d', CAST(substr({column}, 1, instr({column}, '-') - 1) AS INTEGER))"
    " || substr({column}, instr({column}, '-')) WHERE instr({column}, '-') BETWEEN 2 AND 4;\n"
)
_ID_FLOOR = """
CREATE TABLE id_floor (name TEXT PRIMARY KEY, seq INTEGER NOT NULL) WITHOUT ROWID;
INSERT INTO id_floor (name, seq) SELECT 'messages', coalesce(max(id), 0) FROM messages;
CREATE TRIGGER messages_id_floor AFTER DELETE ON messages
WHEN old.id > (SELECT seq FROM id_floor WHERE name = 'messages') BEGIN
    UPDATE id_floor SET seq = old.id WHERE name = 'messages';
END;
INSERT INTO id_floor (name, seq) SELECT 'summaries', coalesce(max(id), 0) FROM summaries;
CREATE TRIGGER summaries_id_floor AFTER DELETE ON summaries
WHEN old.id > (SELECT seq FROM id_floor WHERE name = 'summaries') BEGIN
    UPDATE id_floor SET seq = old.id WHERE name = 'summaries';
END;
INSERT INTO id_floor (name, seq) SELECT 'jobs', coalesce(max(id), 0) FROM jobs;
CREATE TRIGGER jobs_id_floor AFTER DELETE ON jobs
WHEN old.id > (SELECT seq FROM id_floor WHERE name = 'jobs') BEGIN
    UPDATE id_floor SET seq = old.id WHERE name = 'jobs';
END;
"""
_TIMES_AND_IDS = "".join(_PAD_YEAR.format(table=t, column=c) for t, c in _TIME_COLUMNS) + _ID_FLOOR

# Migration 10: a chat platform's own message id (``add_message(external_id=)``, kept in the metadata) is
# unique in its thread, so a message delivered twice is stored once, and edits/deletions find it.
_EXTERNAL_IDS = """
CREATE UNIQUE INDEX IF NOT EXISTS messages_external_id ON messages (thread_id, json_extract(metadata, '$.external_id'))
    WHERE json_extract(metadata, '$.external_id') IS NOT NULL;
"""

# Migration 11: what is kept per user of an agent (seed 000): persona, custom context, interactions. The
# count starts from the messages already stored.
_USER_RECORDS = """
CREATE TABLE IF NOT EXISTS user_records (
    agent_id         INTEGER NOT NULL REFERENCES agents(id),
    user_id          TEXT NOT NULL,
    persona          TEXT,
    custom_context   TEXT,
    interactions     INTEGER NOT NULL DEFAULT 0,
    last_interaction TEXT,
    PRIMARY KEY (agent_id, user_id)
) WITHOUT ROWID;
INSERT INTO user_records (agent_id, user_id, interactions, last_interaction)
    SELECT agent_id, user_id, count(*), max(created_at) FROM messages
    WHERE user_id IS NOT NULL AND role = 'user' GROUP BY agent_id, user_id
    ON CONFLICT DO NOTHING;
"""

# Migration 12: the HTTP service's API keys (store-wide, hashed; memlane.server).
_API_KEYS = """
CREATE TABLE IF NOT EXISTS api_keys (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    key_hash   TEXT NOT NULL UNIQUE,
    scope      TEXT NOT NULL,
    agent      TEXT,
    user_id    TEXT,
    label      TEXT,
    created_at TEXT NOT NULL,
    revoked_at TEXT
);
"""


def _api_key_expiry(conn: sqlite3.Connection) -> None:
    """Migration 13: a key's first characters (to tell keys apart in listings) and an optional expiry (each
    column only if missing: SQLite has no ADD COLUMN IF NOT EXISTS)."""
    have = {str(row[1]) for row in conn.execute("PRAGMA table_info(api_keys)")}
    if "prefix" not in have:
        conn.execute("ALTER TABLE api_keys ADD COLUMN prefix TEXT NOT NULL DEFAULT ''")
    if "expires_at" not in have:
        conn.execute("ALTER TABLE api_keys ADD COLUMN expires_at TEXT")


# Migration 14: messages stored before their vectors (memlane.memory.behind), so a process stopped while
# embedding them leaves a list for the next one; a deleted message leaves it with its row.
_PENDING_VECTORS = """
CREATE TABLE IF NOT EXISTS pending_vectors (
    message_id INTEGER PRIMARY KEY REFERENCES messages(id) ON DELETE CASCADE
);
"""


# Migration 15: the names the agent's messages were spoken under (display names and user ids), so that a
# search can tell the names in a query from its other words without reading the messages.
_SPEAKERS = """
CREATE TABLE IF NOT EXISTS speakers (
    agent_id INTEGER NOT NULL REFERENCES agents(id),
    name     TEXT NOT NULL,
    PRIMARY KEY (agent_id, name)
) WITHOUT ROWID;
INSERT OR IGNORE INTO speakers (agent_id, name)
    SELECT DISTINCT agent_id, name FROM messages WHERE name IS NOT NULL AND name <> '';
INSERT OR IGNORE INTO speakers (agent_id, name)
    SELECT DISTINCT agent_id, user_id FROM messages WHERE user_id IS NOT NULL AND user_id <> '';
"""


# Migration 16: the keyword indexes merged sooner. FTS5 writes a segment per transaction and by default merges
# a level's segments only once 16 pile up (or 4, a little at a time per 64 pages written): one message per
# write left a 300-message store ~15 segments, and every query word is looked up in every segment (twice, the
# second time for its BM25 IDF), which was two thirds of a user's keyword search (0.65 ms against 0.23 ms
# merged). Merging at 2 a little at a time and at 4 at once keeps ~6 on average at 20,000 messages one
# write at a time, for ~0.05 ms more per write (bench/RESULTS.md, issue 39). The results are the same: how
# an index is cut into segments changes no match nor score.
_KEYWORD_MERGES = """
INSERT INTO messages_fts (messages_fts, rank) VALUES ('automerge', 2);
INSERT INTO messages_fts (messages_fts, rank) VALUES ('crisismerge', 4);
INSERT INTO facts_fts (facts_fts, rank) VALUES ('automerge', 2);
INSERT INTO facts_fts (facts_fts, rank) VALUES ('crisismerge', 4);
INSERT INTO summaries_fts (summaries_fts, rank) VALUES ('automerge', 2);
INSERT INTO summaries_fts (summaries_fts, rank) VALUES ('crisismerge', 4);
"""


#: (version, name, SQL). Append only.
MIGRATIONS: tuple[tuple[int, str, str], ...] = (
    (1, "initial schema", _INITIAL),
    (2, "embeddings", _VECTORS),
    (3, "index new messages explicitly", _EXPLICIT_MESSAGE_INDEX),
    (4, "LLM usage events", _USAGE),
    (5, "per-agent message terms", _AGENT_TERMS),
    (6, "thread of each message vector", ""),  # PostgreSQL only: SQLite's vector cache already has the thread
    (7, "messages by thread and time", ""),  # PostgreSQL only: its plan for time-ranged keyword search
    (8, "system messages by thread", _SYSTEM_MESSAGES),
    (9, "fixed-width times, ids never reused", _TIMES_AND_IDS),
    (10, "platform message ids", _EXTERNAL_IDS),
    (11, "user records", _USER_RECORDS),
    (12, "API keys of the HTTP service", _API_KEYS),
    (13, "API key prefixes and expiry", ""),  # Python: _api_key_expiry
    (14, "messages waiting for their vectors", _PENDING_VECTORS),
    (15, "speakers' names", _SPEAKERS),
    (16, "keyword indexes merged sooner", _KEYWORD_MERGES),
)

#: Work in Python that follows a migration's SQL, in the same transaction (on a connection with
#: :func:`register_functions`): what a script cannot compute.
MIGRATION_STEPS: dict[int, Callable[[sqlite3.Connection], None]] = {5: _index_message_terms, 13: _api_key_expiry}
