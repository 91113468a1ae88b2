"""Shared fixtures. Every storage test runs on each backend in BACKENDS through the ``store_url`` fixture.

PostgreSQL: ``MEMLANE_TEST_PG_URL`` if set, else a throwaway server started once per session (see
``memlane.testing.postgres``). With ``CI=true`` a PostgreSQL that cannot start fails the run.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from memlane import Memory, load_settings
from memlane.embeddings import FakeEmbedder

BACKENDS = ["sqlite", "postgres"]


class FakeClock:
    """A settable clock for tests: starts at a fixed instant and moves only when told."""

    def __init__(self, start: datetime | None = None) -> None:
        self.now = start or datetime(2026, 1, 1, 12, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **kwargs: float) -> None:
        self.now += timedelta(**kwargs)


@pytest.fixture(autouse=True)
def _isolated_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """No test reads the developer's own memlane home or config."""
    monkeypatch.setenv("MEMLANE_HOME", str(tmp_path / "home"))
    for name in list(os.environ):
        if name.startswith("MEMLANE_") and name not in (
            "MEMLANE_HOME",
            "MEMLANE_TEST_PG_URL",
            "MEMLANE_TEST_PG_OS_USER",
        ):
            monkeypatch.delenv(name)


@pytest.fixture(scope="session")
def pg_server() -> Iterator[str]:
    """The URL of a PostgreSQL server with pgvector; a missing prerequisite skips, except in CI."""
    from memlane.testing.postgres import PostgresUnavailable, postgres_url_for_tests

    try:
        with postgres_url_for_tests() as url:
            yield url
    except PostgresUnavailable as exc:
        if os.environ.get("CI", "").strip().lower() in {"1", "true", "yes"}:
            raise
        pytest.skip(f"PostgreSQL unavailable: {exc}")


@pytest.fixture
def new_pg_database(pg_server: str) -> Iterator[Callable[[], str]]:
    """Makes fresh databases (with pgvector, not migrated) on the session's server; drops them after the
    test, so that a long run does not fill the server's disk."""
    import psycopg
    from psycopg import sql

    from memlane.testing.postgres import fresh_database_url

    names: list[str] = []

    def new() -> str:
        names.append(f"t_{uuid.uuid4().hex[:12]}")
        return fresh_database_url(pg_server, names[-1])

    yield new
    with psycopg.connect(pg_server, autocommit=True) as conn:
        for name in names:
            conn.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)))


@pytest.fixture(params=BACKENDS)
def store_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A fresh, empty store location on each backend."""
    if request.param == "sqlite":
        return str(tmp_path / "memlane.db")
    new: Callable[[], str] = request.getfixturevalue("new_pg_database")
    return new()


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def settings():  # type: ignore[no-untyped-def]
    return load_settings(embedder="none", worker="none")


@pytest.fixture
def mem(store_url: str, clock: FakeClock, settings) -> Iterator[Memory]:  # type: ignore[no-untyped-def]
    with Memory(store_url, agent="agent-a", clock=clock, settings=settings) as memory:
        yield memory


class CountingEmbedder(FakeEmbedder):
    """The fake embedder, keeping the texts it is asked to embed as queries."""

    def __init__(self) -> None:
        super().__init__()
        self.queries: list[str] = []

    def embed_batch(self, texts, kind):  # type: ignore[no-untyped-def]
        if kind == "query":
            self.queries += list(texts)
        return super().embed_batch(texts, kind)
