"""Shared fixtures. Every storage test runs on each backend in BACKENDS through the ``store_url`` fixture.

PostgreSQL: ``MEMLANE_TEST_PG_URL`` if set, else a throwaway server started once per session (see
``memlane.testing.postgres``). With ``CI=true`` a PostgreSQL that cannot start fails the run.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from memlane import Memory, load_settings

BACKENDS = ["sqlite"]


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
        if name.startswith("MEMLANE_") and name not in ("MEMLANE_HOME", "MEMLANE_TEST_PG_URL", "MEMLANE_TEST_PG_OS_USER"):
            monkeypatch.delenv(name)


@pytest.fixture(scope="session")
def pg_server() -> Iterator[str]:
    from memlane.testing.postgres import postgres_url_for_tests

    with postgres_url_for_tests() as url:
        yield url


@pytest.fixture(params=BACKENDS)
def store_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A fresh, empty store location on each backend."""
    if request.param == "sqlite":
        return str(tmp_path / "memlane.db")
    server: str = request.getfixturevalue("pg_server")
    from memlane.testing.postgres import fresh_database_url

    return str(fresh_database_url(server, f"t_{uuid.uuid4().hex[:12]}"))


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def settings():  # type: ignore[no-untyped-def]
    return load_settings(embedder="none")


@pytest.fixture
def mem(store_url: str, clock: FakeClock, settings) -> Iterator[Memory]:  # type: ignore[no-untyped-def]
    with Memory(store_url, agent="agent-a", clock=clock, settings=settings) as memory:
        yield memory
