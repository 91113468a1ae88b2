"""``Memory.add_to_threads`` writes every thread's messages in one transaction, on both backends.

A write that fails in its second thread must leave the first one unstored too. The failure comes from the
database itself: a trigger on the real store refuses one message, as a constraint or a full disk would.
On PostgreSQL, two writes naming the same threads in opposite orders lock them in one order (by key), so
neither waits for the other in a cycle; the messages are still written, and numbered, in the order given.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Callable
from typing import Any

import pytest

from memlane import Memory, StorageError, load_settings

REFUSED = "this message is refused by the database"


def _refuse_one_message(store_url: str) -> None:
    """A trigger on the store that aborts the insert of a message whose content is ``REFUSED``."""
    if store_url.startswith("postgresql://"):
        import psycopg

        with psycopg.connect(store_url, autocommit=True) as conn:
            conn.execute(
                "CREATE FUNCTION refuse() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN "
                f"IF new.content = '{REFUSED}' THEN RAISE EXCEPTION 'refused'; END IF; RETURN new; END $$"
            )
            conn.execute("CREATE TRIGGER refuse BEFORE INSERT ON messages FOR EACH ROW EXECUTE FUNCTION refuse()")
    else:
        with sqlite3.connect(store_url) as conn:
            conn.execute(
                f"CREATE TRIGGER refuse BEFORE INSERT ON messages WHEN new.content = '{REFUSED}' "
                "BEGIN SELECT RAISE(ABORT, 'refused'); END"
            )
        conn.close()


def test_add_to_threads_stores_every_thread_or_none(store_url: str, clock: Any) -> None:
    settings = load_settings(embedder="none", worker="none")
    with Memory(store_url, agent="a", settings=settings, clock=clock) as mem:
        mem.add_message("t1", "user", "already here")
        _refuse_one_message(store_url)
        with pytest.raises(StorageError):
            mem.add_to_threads(
                {
                    "t1": [{"role": "user", "content": "first thread, written first"}],
                    "t2": [{"role": "user", "content": "a new thread"}],
                    "t3": [{"role": "user", "content": "fine"}, {"role": "assistant", "content": REFUSED}],
                }
            )
        assert [m.content for m in mem.history("t1")] == ["already here"]
        assert [t.key for t in mem.threads()] == ["t1"]
        assert mem.thread("t1").message_count == 1
        # The same write without the refused message goes through whole, numbered on from the first one.
        stored = mem.add_to_threads(
            {
                "t1": [{"role": "user", "content": "first thread, written first"}],
                "t3": [{"role": "user", "content": "fine"}],
            }
        )
        assert [m.seq for m in stored["t1"]] == [2] and [m.seq for m in stored["t3"]] == [1]
        assert sorted(t.key for t in mem.threads()) == ["t1", "t3"]


def test_add_to_threads_gives_ids_in_the_order_given(store_url: str, clock: Any) -> None:
    settings = load_settings(embedder="none", worker="none")
    with Memory(store_url, agent="a", settings=settings, clock=clock) as mem:
        stored = mem.add_to_threads(
            {
                "zeta": [{"role": "user", "content": "first"}, {"role": "user", "content": "second"}],
                "alpha": [{"role": "user", "content": "third"}],
                "mid": [{"role": "user", "content": "fourth"}],
            }
        )
        ids = [m.id for key in ("zeta", "alpha", "mid") for m in stored[key]]
        assert ids == sorted(ids) and len(set(ids)) == 4
        assert [m.content for key in ("zeta", "alpha", "mid") for m in mem.history(key)] == [
            "first",
            "second",
            "third",
            "fourth",
        ]


@pytest.mark.postgres
def test_writes_of_the_same_threads_in_opposite_orders_do_not_deadlock(
    new_pg_database: Callable[[], str], clock: Any
) -> None:
    import psycopg

    url = new_pg_database()
    settings = load_settings(embedder="none", worker="none")
    with Memory(url, agent="a", settings=settings, clock=clock) as mem:
        mem.add_to_threads({"x": [{"role": "user", "content": "x"}], "y": [{"role": "user", "content": "y"}]})
        # The first write below holds thread x's lock a while (a trigger sleeps in its update of x, which adds
        # five messages), long enough for the second to lock y and ask for x, had the two not locked the
        # threads in one order; the first would then ask for y, and the server would find a deadlock.
        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute(
                "CREATE FUNCTION slow() RETURNS trigger LANGUAGE plpgsql AS $$ "
                "BEGIN PERFORM pg_sleep(0.5); RETURN new; END $$"
            )
            conn.execute(
                "CREATE TRIGGER slow BEFORE UPDATE ON threads FOR EACH ROW "
                "WHEN (new.message_count - old.message_count = 5) EXECUTE FUNCTION slow()"
            )
        errors: list[BaseException] = []

        def write(threads: dict[str, list[dict[str, str]]]) -> None:
            try:
                mem.add_to_threads(threads)
            except BaseException as exc:  # reported by the assertion below
                errors.append(exc)

        five = [{"role": "user", "content": f"x{i}"} for i in range(5)]
        first = threading.Thread(target=write, args=({"x": five, "y": [{"role": "user", "content": "y1"}]},))
        second = threading.Thread(
            target=write, args=({"y": [{"role": "user", "content": "y2"}], "x": [{"role": "user", "content": "x5"}]},)
        )
        first.start()
        first.join(0.2)
        second.start()
        first.join()
        second.join()
        assert errors == []
        assert [m.content for m in mem.history("x")] == ["x", "x0", "x1", "x2", "x3", "x4", "x5"]
        assert [m.content for m in mem.history("y")] == ["y", "y1", "y2"]
        # Each claim of a thread (an insert that finds the thread there) draws a thread id: six claims in all.
        # A deadlock would have aborted one write, and its retry drawn more.
        with psycopg.connect(url, autocommit=True) as conn:
            drawn = conn.execute("SELECT last_value FROM pg_sequences WHERE sequencename = 'threads_id_seq'")
            assert drawn.fetchone() == (6,)
