"""The throwaway PostgreSQL + pgvector server the storage tests and benchmarks run against."""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest

from memlane.testing.postgres import (
    ENV_URL,
    PostgresStartError,
    PostgresUnavailable,
    ThrowawayPostgres,
    fresh_database_url,
    postgres_url_for_tests,
)


def _in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() in {"1", "true", "yes"}


@contextlib.contextmanager
def _started(*, base_dir: Path | None = None) -> Iterator[ThrowawayPostgres]:
    """Start a server; a missing prerequisite skips the test locally and fails it in CI."""
    stack = contextlib.ExitStack()
    try:
        server = stack.enter_context(ThrowawayPostgres(base_dir=base_dir))
    except PostgresUnavailable as exc:
        if _in_ci():
            raise
        pytest.skip(f"throwaway PostgreSQL unavailable: {exc}")
    with stack:
        yield server


@pytest.fixture(scope="module")
def server() -> Iterator[ThrowawayPostgres]:
    with _started() as started:
        yield started


@pytest.fixture
def shared_parent() -> Iterator[Path]:
    """A parent directory the server's OS user can traverse (pytest's tmp_path is private to root)."""
    parent = Path(tempfile.mkdtemp(prefix="memlane-pgtest-"))
    parent.chmod(0o755)
    yield parent
    shutil.rmtree(parent, ignore_errors=True)


def _refuses_connections(url: str) -> bool:
    try:
        psycopg.connect(url, connect_timeout=3).close()
    except psycopg.OperationalError:
        return True
    return False


@pytest.mark.postgres
def test_server_accepts_connections_on_loopback(server: ThrowawayPostgres) -> None:
    assert server.url.startswith(f"postgresql://memlane@127.0.0.1:{server.port}/")
    with psycopg.connect(server.url) as conn:
        row = conn.execute(
            "SELECT host(inet_server_addr()), inet_server_port(), current_setting('server_version_num')::int,"
            " current_setting('max_connections')::int, current_database()"
        ).fetchone()
    assert row is not None
    address, port, version, max_connections, database = row
    assert (address, port, database) == ("127.0.0.1", server.port, "memlane")
    assert version >= 180000
    assert max_connections >= 200  # the suite runs 8 writer processes plus connection pools


@pytest.mark.postgres
def test_pgvector_hnsw_cosine_knn_orders_by_angle(server: ThrowawayPostgres) -> None:
    url = server.create_database("knn")
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("CREATE TABLE items (id text PRIMARY KEY, embedding vector(3) NOT NULL)")
        # Cosine order for [1,0,0] is far > near > ortho; Euclidean order would be near, ortho, far.
        conn.execute("INSERT INTO items VALUES ('ortho', '[0,1,0]'), ('near', '[1,1,0]'), ('far', '[10,1,0]')")
        conn.execute("CREATE INDEX items_hnsw ON items USING hnsw (embedding vector_cosine_ops)")
        conn.execute("SET enable_seqscan = off")
        query = "SELECT id FROM items ORDER BY embedding <=> '[1,0,0]' LIMIT 3"
        plan = " ".join(str(row[0]) for row in conn.execute(f"EXPLAIN {query}"))
        ids = [row[0] for row in conn.execute(query)]
    assert "items_hnsw" in plan
    assert ids == ["far", "near", "ortho"]


@pytest.mark.postgres
def test_create_database_gives_isolated_databases_with_pgvector(server: ThrowawayPostgres) -> None:
    first, second = server.create_database("iso_one"), server.create_database("iso two")
    assert first != second != server.url
    with psycopg.connect(first, autocommit=True) as conn:
        conn.execute("CREATE TABLE only_here (v vector(2))")
        conn.execute("INSERT INTO only_here VALUES ('[1,2]')")
    with psycopg.connect(second) as conn:
        assert conn.execute("SELECT to_regclass('only_here')").fetchone() == (None,)
        assert conn.execute("SELECT '[3,4]'::vector <-> '[0,0]'").fetchone() == (5.0,)
    with psycopg.connect(server.url) as conn:
        assert conn.execute("SELECT to_regclass('only_here')").fetchone() == (None,)
    with pytest.raises(psycopg.errors.DuplicateDatabase):
        server.create_database("iso_one")


def _database_and_vector(url: str) -> tuple[object, ...] | None:
    with psycopg.connect(url) as conn:
        return conn.execute(
            "SELECT current_database(), (SELECT extversion FROM pg_extension WHERE extname = 'vector')"
        ).fetchone()


@pytest.mark.postgres
def test_fresh_database_url_accepts_urls_and_conninfo_strings(server: ThrowawayPostgres) -> None:
    from_url = fresh_database_url(server.url, "from_url")
    conninfo = f"host=127.0.0.1 port={server.port} user=memlane dbname=memlane"
    from_conninfo = fresh_database_url(conninfo, "from conninfo")
    assert from_url == f"postgresql://memlane@127.0.0.1:{server.port}/from_url"
    assert _database_and_vector(from_url) == ("from_url", "0.8.6")
    assert _database_and_vector(from_conninfo) == ("from conninfo", "0.8.6")
    with pytest.raises(ValueError, match="invalid database name"):
        fresh_database_url(server.url, "x" * 64)


@pytest.mark.postgres
def test_fresh_database_url_creates_the_extension_on_servers_without_our_template(
    server: ThrowawayPostgres,
) -> None:
    with psycopg.connect(server.url, autocommit=True) as conn:
        conn.execute("ALTER DATABASE memlane_template RENAME TO hidden_template")
        try:
            url = fresh_database_url(server.url, "plain_server_db")
        finally:
            conn.execute("ALTER DATABASE hidden_template RENAME TO memlane_template")
    assert _database_and_vector(url) == ("plain_server_db", "0.8.6")


@pytest.mark.postgres
def test_concurrent_writers(server: ThrowawayPostgres) -> None:
    url = server.create_database("writers")
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("CREATE TABLE rows (writer int, n int, embedding vector(3))")
    errors: list[BaseException] = []

    def write(writer: int) -> None:
        try:
            with psycopg.connect(url) as conn, conn.cursor() as cur:
                cur.executemany(
                    "INSERT INTO rows VALUES (%s, %s, %s::vector)",
                    [(writer, n, f"[{writer},{n},1]") for n in range(1000)],
                )
        except BaseException as exc:  # collected and asserted on below
            errors.append(exc)

    threads = [threading.Thread(target=write, args=(w,)) for w in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    with psycopg.connect(url) as conn:
        row = conn.execute("SELECT count(*), count(DISTINCT writer) FROM rows").fetchone()
    assert row == (8000, 8)


@pytest.mark.postgres
def test_exit_stops_the_server_and_deletes_its_directory() -> None:
    with _started() as pg:
        url, directory = pg.url, pg.directory
        assert (directory / "data" / "PG_VERSION").is_file()
    assert not directory.exists()
    assert _refuses_connections(url)
    with pytest.raises(RuntimeError):
        _ = pg.url


@pytest.mark.postgres
def test_exit_cleans_up_after_an_error_in_the_block() -> None:
    with pytest.raises(ZeroDivisionError), _started() as pg:
        url, directory = pg.url, pg.directory
        _ = 1 / 0
    assert not directory.exists()
    assert _refuses_connections(url)


@pytest.mark.postgres
def test_start_failure_is_an_error_with_the_server_log() -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        pg = ThrowawayPostgres(port=taken.getsockname()[1], timeout=30)
        with pytest.raises(PostgresStartError, match="Address already in use"):
            pg.__enter__()
    assert not pg.directory.exists()


_CHILD = """
import sys, time
from pathlib import Path
from memlane.testing.postgres import ThrowawayPostgres
pg = ThrowawayPostgres(base_dir=Path(sys.argv[1])).__enter__()
pid = (pg.directory / "data" / "postmaster.pid").read_text().split()[0]
print(pid, pg.directory, flush=True)
time.sleep(600)
"""


def _gone_or_zombie(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return True
    return stat.rsplit(")", 1)[1].split()[0] == "Z"


@pytest.mark.postgres
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="parent-death signal is Linux-only")
def test_killed_owner_takes_the_server_down_and_next_run_sweeps(shared_parent: Path) -> None:
    with subprocess.Popen(
        [sys.executable, "-c", _CHILD, str(shared_parent)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    ) as child:
        try:
            assert child.stdout is not None and child.stderr is not None
            line = child.stdout.readline().split()
            if not line:
                child.wait(30)
                error = child.stderr.read()
                if "PostgresUnavailable" in error and not _in_ci():
                    pytest.skip(f"throwaway PostgreSQL unavailable: {error.strip().splitlines()[-1]}")
                pytest.fail(f"child could not start a throwaway PostgreSQL:\n{error}")
            postmaster, directory = int(line[0]), Path(line[1])
            child.send_signal(signal.SIGKILL)
            child.wait(10)
        finally:
            if child.poll() is None:
                child.kill()
    deadline = time.monotonic() + 20
    while not _gone_or_zombie(postmaster) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert _gone_or_zombie(postmaster)
    assert directory.exists()  # nothing ran in the killed process to delete it
    with _started(base_dir=shared_parent):
        assert not directory.exists()


def test_url_from_environment_is_used_as_is(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(ENV_URL, "postgresql://someone@db.invalid:6543/elsewhere")
    with postgres_url_for_tests() as url:
        assert url == "postgresql://someone@db.invalid:6543/elsewhere"


@pytest.mark.postgres
def test_without_environment_url_a_throwaway_server_is_started(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(ENV_URL, raising=False)
    try:
        with postgres_url_for_tests() as url, psycopg.connect(url) as conn:
            row = conn.execute("SELECT extversion FROM pg_extension WHERE extname = 'vector'").fetchone()
            assert url.startswith("postgresql://memlane@127.0.0.1:")
            assert row is not None
    except PostgresUnavailable as exc:
        if _in_ci():
            raise
        pytest.skip(f"throwaway PostgreSQL unavailable: {exc}")
    assert _refuses_connections(url)
