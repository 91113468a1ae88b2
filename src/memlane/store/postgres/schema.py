"""Numbered migrations of the PostgreSQL schema. Applied in order when a store opens; never edited once shipped.

The version numbers mean what they mean for SQLite (:mod:`memlane.store.sqlite.schema`): 1 is the initial
schema (threads, messages, facts, history, summaries, jobs, full-text search), 2 adds the embeddings, 3 is
SQLite-only (an FTS5 trigger change) and empty here, 4 adds LLM usage events, 5 is SQLite-only (per-agent
FTS5 terms) and empty here, 6 is PostgreSQL-only (each message vector's thread) and empty in SQLite.

Differences from SQLite, and why:

* Times are ``timestamptz``; ids are ``bigint generated always as identity``.
* JSON columns are ``json``, not ``jsonb``: ``jsonb`` reorders object keys, drops duplicate keys, rejects
  ``\u0000`` and rewrites numbers (``1e300`` comes back as an integer), so metadata would not come back
  as it was given, and an export would not re-export identically. Recall's metadata filter casts them
  at query time (``metadata::jsonb @> '{"key": value}'``, inside the agent's and scope's rows; memlane
  rejects NUL characters everywhere, so every stored value casts). A deployment that filters large agents
  on metadata can add ``CREATE INDEX ... USING gin ((metadata::jsonb) jsonb_path_ops)``.
* Full-text search uses a generated ``tsvector`` column per table with a GIN index, under the text search
  configuration ``memlane_english``: English Snowball stemming *without* a stopword list and with accents
  removed (``unaccent``, when the server has it), after every run of characters that are not letters or
  digits became a space (``memlane_fts_text``). That is what SQLite's ``porter unicode61
  remove_diacritics 2`` tokenizer does: ``user@example.com`` and ``3.14`` are separate words there too,
  and a query made only of stopwords still finds something. Speakers (messages) and subjects (facts) get
  weight B, content weight A.
* Vectors live in one table per kind (``message_vectors`` ...), keyed by the item with ``ON DELETE
  CASCADE``, so deleting an item deletes its vector without triggers. Their ``embedding`` column is an
  untyped ``vector`` until the store sees its first vectors; then the store gives it the dimension and
  builds the HNSW indexes (an HNSW index needs a fixed dimension). The tables are empty at that moment,
  so the change is instant, and ``drop_vectors`` reverses it to allow another dimension.
"""

from __future__ import annotations

__all__ = ["MIGRATIONS", "VECTOR_TABLES"]

#: kind -> (vector table, its key column, the item table). The store builds its vector SQL from these.
VECTOR_TABLES: dict[str, tuple[str, str, str]] = {
    "message": ("message_vectors", "message_id", "messages"),
    "fact": ("fact_vectors", "fact_id", "facts"),
    "summary": ("summary_vectors", "summary_id", "summaries"),
}

_INITIAL = r"""
CREATE TABLE meta (
    key   text PRIMARY KEY,
    value text NOT NULL
);

CREATE TABLE agents (
    id         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    name       text NOT NULL UNIQUE,
    created_at timestamptz NOT NULL
);

-- Text search: letters and digits only (Unicode classes where the server has pg_c_utf8), stemmed, no
-- stopwords, accents removed when the unaccent extension is (or can be) installed. Every EXECUTEd text
-- is fixed, apart from the schema name of unaccent, which comes from the catalog and is quoted.
DO $memlane$
DECLARE
    unaccent_schema text;
BEGIN
    IF EXISTS (SELECT 1 FROM pg_catalog.pg_collation WHERE collname = 'pg_c_utf8'
               AND collencoding IN (-1, pg_catalog.pg_char_to_encoding('UTF8'))) THEN
        EXECUTE $f$CREATE FUNCTION memlane_fts_text(value text) RETURNS text
            LANGUAGE sql IMMUTABLE PARALLEL SAFE
            RETURN pg_catalog.regexp_replace(coalesce(value, '') COLLATE pg_catalog.pg_c_utf8,
                                             '[^[:alnum:]]+', ' ', 'g')$f$;
    ELSE
        EXECUTE $f$CREATE FUNCTION memlane_fts_text(value text) RETURNS text
            LANGUAGE sql IMMUTABLE PARALLEL SAFE
            RETURN pg_catalog.regexp_replace(coalesce(value, ''), '[^[:alnum:]]+', ' ', 'g')$f$;
    END IF;
    CREATE TEXT SEARCH DICTIONARY memlane_english_stem (TEMPLATE = pg_catalog.snowball, LANGUAGE = english);
    CREATE TEXT SEARCH CONFIGURATION memlane_english (COPY = pg_catalog.english);
    IF NOT EXISTS (SELECT 1 FROM pg_catalog.pg_extension WHERE extname = 'unaccent')
       AND EXISTS (SELECT 1 FROM pg_catalog.pg_available_extensions WHERE name = 'unaccent') THEN
        BEGIN
            CREATE EXTENSION unaccent;
        EXCEPTION WHEN insufficient_privilege THEN
            NULL;  -- accents then stay significant in keyword search
        END;
    END IF;
    SELECT n.nspname INTO unaccent_schema FROM pg_catalog.pg_extension e
        JOIN pg_catalog.pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = 'unaccent';
    IF unaccent_schema IS NOT NULL THEN
        EXECUTE format('ALTER TEXT SEARCH CONFIGURATION memlane_english ALTER MAPPING FOR asciiword, asciihword, '
                       'hword_asciipart, word, hword, hword_part WITH %I.unaccent, memlane_english_stem',
                       unaccent_schema);
    ELSE
        ALTER TEXT SEARCH CONFIGURATION memlane_english
            ALTER MAPPING FOR asciiword, asciihword, hword_asciipart, word, hword, hword_part
            WITH memlane_english_stem;
    END IF;
END
$memlane$;

CREATE TABLE threads (
    id            bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    agent_id      bigint NOT NULL REFERENCES agents(id) ON DELETE CASCADE,
    key           text NOT NULL,
    status        text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'ended')),
    system_prompt text,
    metadata      json NOT NULL DEFAULT '{}',
    next_seq      bigint NOT NULL DEFAULT 1,
    message_count bigint NOT NULL DEFAULT 0,
    created_at    timestamptz NOT NULL,
    updated_at    timestamptz NOT NULL,
    ended_at      timestamptz,
    UNIQUE (agent_id, key)
);
CREATE INDEX threads_agent_updated ON threads (agent_id, updated_at);

CREATE TABLE thread_users (
    thread_id bigint NOT NULL REFERENCES threads(id) ON DELETE CASCADE,
    user_id   text NOT NULL,
    agent_id  bigint NOT NULL,
    PRIMARY KEY (thread_id, user_id)
);
CREATE INDEX thread_users_user ON thread_users (agent_id, user_id);

CREATE TABLE messages (
    id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    agent_id     bigint NOT NULL,
    thread_id    bigint NOT NULL REFERENCES threads(id) ON DELETE CASCADE,
    seq          bigint NOT NULL,
    role         text NOT NULL CHECK (role IN ('user', 'assistant', 'system', 'tool')),
    user_id      text,
    name         text,
    content      text NOT NULL,
    tool_calls   json,
    tool_call_id text,
    token_count  integer NOT NULL,
    metadata     json NOT NULL DEFAULT '{}',
    created_at   timestamptz NOT NULL,
    summarized   boolean NOT NULL DEFAULT false,
    search       tsvector GENERATED ALWAYS AS (
        setweight(to_tsvector('memlane_english', memlane_fts_text(content)), 'A')
        || setweight(to_tsvector('memlane_english', memlane_fts_text(coalesce(name, user_id, role))), 'B')
    ) STORED,
    UNIQUE (thread_id, seq)
);
CREATE INDEX messages_agent_created ON messages (agent_id, created_at);
CREATE INDEX messages_search ON messages USING gin (search);

CREATE TABLE facts (
    id               bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    agent_id         bigint NOT NULL REFERENCES agents(id) ON DELETE CASCADE,
    owner            text,
    subject          text,
    category         text NOT NULL,
    content          text NOT NULL,
    importance       integer NOT NULL CHECK (importance BETWEEN 1 AND 5),
    visibility       text NOT NULL CHECK (visibility IN ('private', 'shared')),
    source_thread_id bigint REFERENCES threads(id) ON DELETE SET NULL,
    source_thread    text,
    source_from_seq  bigint,
    source_to_seq    bigint,
    metadata         json NOT NULL DEFAULT '{}',
    status           text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'superseded')),
    valid_from       timestamptz,
    invalid_at       timestamptz,
    superseded_by    bigint,
    created_at       timestamptz NOT NULL,
    updated_at       timestamptz NOT NULL,
    last_accessed_at timestamptz,
    access_count     bigint NOT NULL DEFAULT 0,
    search           tsvector GENERATED ALWAYS AS (
        setweight(to_tsvector('memlane_english', memlane_fts_text(content)), 'A')
        || setweight(to_tsvector('memlane_english', memlane_fts_text(subject)), 'B')
    ) STORED
);
CREATE INDEX facts_agent_owner ON facts (agent_id, owner);
CREATE INDEX facts_agent_subject ON facts (agent_id, subject);
CREATE INDEX facts_search ON facts USING gin (search);

CREATE TABLE fact_history (
    id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    agent_id    bigint NOT NULL REFERENCES agents(id) ON DELETE CASCADE,
    fact_id     bigint NOT NULL,
    action      text NOT NULL,
    actor       text,
    old_content text,
    new_content text,
    changes     json NOT NULL DEFAULT '{}',
    at          timestamptz NOT NULL
);
CREATE INDEX fact_history_fact ON fact_history (agent_id, fact_id);

-- NULLs stay distinct in the range index, as in SQLite: agent-level summaries (no thread) and open
-- ranges never collide here; add_summary checks those under an advisory lock.
CREATE TABLE summaries (
    id         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    agent_id   bigint NOT NULL REFERENCES agents(id) ON DELETE CASCADE,
    thread_id  bigint REFERENCES threads(id) ON DELETE CASCADE,
    kind       text NOT NULL,
    owner      text,
    from_seq   bigint,
    to_seq     bigint,
    content    text NOT NULL,
    method     text NOT NULL,
    metadata   json NOT NULL DEFAULT '{}',
    created_at timestamptz NOT NULL,
    search     tsvector GENERATED ALWAYS AS (
        setweight(to_tsvector('memlane_english', memlane_fts_text(content)), 'A')
    ) STORED
);
CREATE UNIQUE INDEX summaries_range ON summaries (thread_id, kind, from_seq, to_seq);
CREATE INDEX summaries_agent_kind ON summaries (agent_id, kind, created_at);
CREATE INDEX summaries_search ON summaries USING gin (search);

CREATE TABLE jobs (
    id               bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    agent_id         bigint NOT NULL REFERENCES agents(id) ON DELETE CASCADE,
    kind             text NOT NULL,
    payload          json NOT NULL DEFAULT '{}',
    dedupe_key       text UNIQUE,
    status           text NOT NULL DEFAULT 'pending'
                     CHECK (status IN ('pending', 'running', 'done', 'dead')),
    attempts         integer NOT NULL DEFAULT 0,
    max_attempts     integer NOT NULL DEFAULT 5,
    run_after        timestamptz NOT NULL,
    lease_owner      text,
    lease_expires_at timestamptz,
    last_error       text,
    created_at       timestamptz NOT NULL,
    updated_at       timestamptz NOT NULL
);
CREATE INDEX jobs_ready ON jobs (status, run_after);
"""

# ``agent_id`` is repeated in each vector table so that an agent filter can be checked on the vector row
# itself (by the HNSW scan, or through the btree when the agent's rows are few) before any join.
_VECTORS = """
CREATE EXTENSION IF NOT EXISTS vector;

CREATE TABLE message_vectors (
    message_id bigint PRIMARY KEY REFERENCES messages(id) ON DELETE CASCADE,
    agent_id   bigint NOT NULL,
    embedding  vector NOT NULL
);
CREATE INDEX message_vectors_agent ON message_vectors (agent_id);

CREATE TABLE fact_vectors (
    fact_id   bigint PRIMARY KEY REFERENCES facts(id) ON DELETE CASCADE,
    agent_id  bigint NOT NULL,
    embedding vector NOT NULL
);
CREATE INDEX fact_vectors_agent ON fact_vectors (agent_id);

CREATE TABLE summary_vectors (
    summary_id bigint PRIMARY KEY REFERENCES summaries(id) ON DELETE CASCADE,
    agent_id   bigint NOT NULL,
    embedding  vector NOT NULL
);
CREATE INDEX summary_vectors_agent ON summary_vectors (agent_id);
"""

# SQLite's migration 3 stops indexing messages for full-text search by trigger. Here the tsvector column is
# generated by the INSERT itself, so there is nothing to change; the version is recorded all the same, so
# that the numbers keep meaning the same schema on both backends.
_EXPLICIT_MESSAGE_INDEX = ""

_USAGE = """
CREATE TABLE usage_events (
    id                bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    agent_id          bigint NOT NULL REFERENCES agents(id) ON DELETE CASCADE,
    operation         text NOT NULL,
    model             text NOT NULL,
    prompt_tokens     integer NOT NULL,
    completion_tokens integer NOT NULL,
    latency_ms        double precision NOT NULL,
    ok                boolean NOT NULL,
    error             text,
    at                timestamptz NOT NULL
);
CREATE INDEX usage_events_agent_at ON usage_events (agent_id, at);
"""

# SQLite's migration 5 gives every agent its own FTS5 terms, so that one agent's messages stop slowing and
# re-weighting another's searches. Here a search already reads only the agent's rows (the agent is in
# the WHERE clause, and ts_rank looks at one row at a time, with no corpus statistics), so nothing changes.
_AGENT_TERMS = ""

# A user- or thread-scoped message search filters the vector rows on their thread; with the thread on the
# vector row, that is one index range per thread, where a join to messages paid two primary-key lookups
# per candidate row (~5 of ~7 ms for a user's ~3,200 rows at 1M messages). SQLite keeps its vectors in
# memory per agent and needs no such column. The backfill rewrites every vector row: the HNSW index is
# dropped first and built again afterwards from its own definition (an UPDATE under it would insert every
# row into the graph again, far slower than one build; the build uses the server's maintenance_work_mem).
_MESSAGE_VECTOR_THREADS = """
DO $memlane$
DECLARE
    hnsw text := pg_catalog.pg_get_indexdef(pg_catalog.to_regclass('message_vectors_hnsw'));
BEGIN
    IF hnsw IS NOT NULL THEN
        DROP INDEX message_vectors_hnsw;
    END IF;
    ALTER TABLE message_vectors ADD COLUMN thread_id bigint;
    UPDATE message_vectors v SET thread_id = m.thread_id FROM messages m WHERE m.id = v.message_id;
    ALTER TABLE message_vectors ALTER COLUMN thread_id SET NOT NULL;
    DROP INDEX message_vectors_agent;  -- the new index serves the agent filter as well
    CREATE INDEX message_vectors_thread ON message_vectors (agent_id, thread_id);
    IF hnsw IS NOT NULL THEN
        EXECUTE hnsw;
    END IF;
END
$memlane$;
"""

# A user- or thread-scoped search inside a time range ("what did we say last week?": recall searches the
# range beside the whole scope) reads the scope's messages of that range. Without this index the plan of
# the keyword search (a generic plan, see PostgresSearch.keyword_search) ANDs the full-text index with
# the agent's time index, and a common word costs a bitmap of ~90,000 rows at 1M messages (13-15 ms
# median, ~90 ms worst); with it, one short index range per thread of the scope (~0.8 ms). SQLite's search
# starts from the full-text match and filters on time and has no such plan to avoid.
_MESSAGE_THREAD_TIMES = "CREATE INDEX messages_thread_created ON messages (thread_id, created_at);"

# context() keeps a thread's system messages older than its recent window (the hybrid strategy): a partial
# index holds just those, so finding them reads none of the thread's other messages (a scan of a
# 100,000-message thread took 29 ms). The same index on both backends.
_SYSTEM_MESSAGES = "CREATE INDEX messages_system ON messages (thread_id, seq) WHERE role = 'system';"

#: (version, name, SQL). Append only; the numbers match the SQLite migrations in meaning.

# Migration 10: a chat platform's message id (kept in the metadata) is unique in its thread (see SQLite's).
_EXTERNAL_IDS = """
CREATE UNIQUE INDEX IF NOT EXISTS messages_external_id ON messages (thread_id, (metadata->>'external_id'))
    WHERE (metadata->>'external_id') IS NOT NULL;
"""


# Migration 11: what is kept per user of an agent (seed 000); see SQLite's.
_USER_RECORDS = """
CREATE TABLE IF NOT EXISTS user_records (
    agent_id         bigint NOT NULL REFERENCES agents(id),
    user_id          text NOT NULL,
    persona          text,
    custom_context   text,
    interactions     bigint NOT NULL DEFAULT 0,
    last_interaction timestamptz,
    PRIMARY KEY (agent_id, user_id)
);
INSERT INTO user_records (agent_id, user_id, interactions, last_interaction)
    SELECT agent_id, user_id, count(*), max(created_at) FROM messages
    WHERE user_id IS NOT NULL AND role = 'user' GROUP BY agent_id, user_id
    ON CONFLICT DO NOTHING;
"""


# Migration 12: the HTTP service's API keys (store-wide, hashed; memlane.server).
_API_KEYS = """
CREATE TABLE IF NOT EXISTS api_keys (
    id         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    key_hash   text NOT NULL UNIQUE,
    scope      text NOT NULL,
    agent      text,
    user_id    text,
    label      text,
    created_at timestamptz NOT NULL,
    revoked_at timestamptz
);
"""

# Migration 13: a key's first characters and an optional expiry (see SQLite's).
_API_KEY_EXPIRY = """
ALTER TABLE api_keys ADD COLUMN IF NOT EXISTS prefix text NOT NULL DEFAULT '';
ALTER TABLE api_keys ADD COLUMN IF NOT EXISTS expires_at timestamptz;
"""

# Migration 14: messages stored before their vectors (see SQLite's).
_PENDING_VECTORS = """
CREATE TABLE IF NOT EXISTS pending_vectors (
    message_id bigint PRIMARY KEY REFERENCES messages(id) ON DELETE CASCADE
);
"""

# Migration 15: the names the agent's messages were spoken under (display names and user ids), so that a
# search can tell the names in a query from its other words without reading the messages.
_SPEAKERS = """
CREATE TABLE IF NOT EXISTS speakers (
    agent_id bigint NOT NULL REFERENCES agents(id),
    name     text NOT NULL,
    PRIMARY KEY (agent_id, name)
);
INSERT INTO speakers (agent_id, name)
    SELECT DISTINCT agent_id, name FROM messages WHERE name IS NOT NULL AND name <> ''
    UNION SELECT DISTINCT agent_id, user_id FROM messages WHERE user_id IS NOT NULL AND user_id <> ''
    ON CONFLICT DO NOTHING;
"""

MIGRATIONS: tuple[tuple[int, str, str], ...] = (
    (1, "initial schema", _INITIAL),
    (2, "embeddings", _VECTORS),
    (3, "index new messages explicitly", _EXPLICIT_MESSAGE_INDEX),
    (4, "LLM usage events", _USAGE),
    (5, "per-agent message terms", _AGENT_TERMS),
    (6, "thread of each message vector", _MESSAGE_VECTOR_THREADS),
    (7, "messages by thread and time", _MESSAGE_THREAD_TIMES),
    (8, "system messages by thread", _SYSTEM_MESSAGES),
    (9, "fixed-width times, ids never reused", ""),  # SQLite only: timestamptz columns and identity ids already are
    (10, "platform message ids", _EXTERNAL_IDS),
    (11, "user records", _USER_RECORDS),
    (12, "API keys of the HTTP service", _API_KEYS),
    (13, "API key prefixes and expiry", _API_KEY_EXPIRY),
    (14, "messages waiting for their vectors", _PENDING_VECTORS),
    (15, "speakers' names", _SPEAKERS),
    (16, "keyword indexes merged sooner", ""),  # SQLite only: how FTS5 merges its index segments
)
