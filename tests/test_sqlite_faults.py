"""SQLite under a full disk and with a broken file.

The full-disk tests put the store on a tmpfs of 4 MiB that the test mounts (it needs root, or it skips
saying why) and fill what is left of it with a file of zeros: the database, its write-ahead log (``-wal``) and
its shared-memory index (``-shm``) then cannot grow by a byte. A write must fail with a ``StorageError`` that
says the disk is full and where, and store nothing of itself; reads must go on; once the filler is deleted,
writes resume where they stopped and ``PRAGMA integrity_check`` finds nothing wrong.

The broken-file tests damage a real store the ways files get damaged (cut short, a page overwritten, not a
database at all) and check that the library and the command line say which file is damaged and how to get
the memory back, instead of a traceback.
"""

from __future__ import annotations

import errno
import os
import shutil
import sqlite3
import subprocess
import sys
import threading
from collections.abc import Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import closing
from pathlib import Path

import pytest
from typer.testing import CliRunner

from memlane import Memory, StorageError, load_settings
from memlane.cli.app import app
from memlane.embeddings import FakeEmbedder
from memlane.embeddings.base import EmbedKind, Vectors
from memlane.memory.behind import BEHIND

WAIT = 10.0  # seconds a held model run waits to be let go


# -- a small disk -------------------------------------------------------------------------------------
@pytest.fixture
def disk(tmp_path: Path) -> Iterator[Path]:
    """A directory on a tmpfs of 4 MiB of its own, unmounted afterwards."""
    if not sys.platform.startswith("linux"):
        pytest.skip("mounting a tmpfs needs Linux")
    if os.geteuid() != 0:
        pytest.skip("mounting a tmpfs needs root (the full-disk tests make a 4 MiB filesystem of their own)")
    where = tmp_path / "disk"
    where.mkdir()
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=4m", "tmpfs", str(where)],
        capture_output=True,
        text=True,
        check=False,
    )
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {mounted.stderr.strip() or mounted.returncode}")
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], capture_output=True, check=False)


def fill(disk: Path) -> Path:
    """Take every free byte of ``disk`` with a file of zeros (returned, to delete to free the space)."""
    filler = disk / "filler"
    fd = os.open(filler, os.O_WRONLY | os.O_CREAT, 0o600)
    try:
        for size in (1 << 16, 1 << 12, 1):
            try:
                while True:
                    os.write(fd, bytes(size))
            except OSError as exc:
                if exc.errno != errno.ENOSPC:
                    raise
    finally:
        os.close(fd)
    assert os.statvfs(disk).f_bavail == 0
    return filler


def _memory(path: Path, embedder: FakeEmbedder | None = None) -> Memory:
    """A memory with a model in this process: small writes leave their vectors to the helper thread."""
    return Memory(
        path,
        agent="a",
        settings=load_settings(embedder="none", worker="none"),
        embedder=embedder or FakeEmbedder(cache_size=0),
    )


def _integrity(path: Path) -> str:
    with closing(sqlite3.connect(path)) as conn:
        return str(conn.execute("PRAGMA integrity_check").fetchone()[0])


def _full(message: str, path: Path) -> bool:
    return "disk is full" in message and str(path.parent) in message


# -- a full disk --------------------------------------------------------------------------------------
def test_writes_on_a_full_disk_fail_whole_and_say_so_reads_go_on_and_writes_resume(disk: Path) -> None:
    path = disk / "bot.db"
    with _memory(path) as mem:
        for i in range(3):
            mem.add_messages("t", [{"role": "user", "content": f"owls {i}.{j}", "user": "ann"} for j in range(4)])
        mem.remember("ann keeps two owls", user="ann")
        mem.flush()
        before = mem.history("t")
        filler = fill(disk)

        big = [{"role": "user", "content": f"batch {j} " + "feathers " * 2000, "user": "ann"} for j in range(40)]
        with pytest.raises(StorageError) as caught:
            mem.add_messages("t", big)
        assert _full(str(caught.value), path), str(caught.value)
        with pytest.raises(StorageError, match="disk is full"):  # over 64 texts: embedded inside the write
            mem.add_messages("t", [{"role": "user", "content": f"import {j}", "user": "ann"} for j in range(70)])
        with pytest.raises(StorageError, match="disk is full"):
            mem.add_message("t", "user", "one small message", user="ann")
        with pytest.raises(StorageError, match="disk is full"):
            mem.remember("ann also keeps a cat", user="ann")

        # Nothing of the failed writes is stored, and everything before them reads as it did, in this
        # connection and in another one, which finds the file and its -wal intact.
        assert mem.history("t") == before
        assert _integrity(path) == "ok"
        with closing(sqlite3.connect(path)) as other:
            assert other.execute("SELECT count(*) FROM messages").fetchone()[0] == 12
        assert [m.seq for m in before] == list(range(1, 13))
        assert [f.content for f in mem.facts(user="ann")] == ["ann keeps two owls"]
        assert mem.store.status("a").counts["pending_vectors"] == 0
        # A recall and a context record which facts they used: that bookkeeping must not fail them.
        assert "ann keeps two owls" in [h.text for h in mem.recall("owls", user="ann")]
        assert [f.content for f in mem.context("t", user="ann", query="owls").facts] == ["ann keeps two owls"]

        filler.unlink()
        after = mem.add_messages("t", big[:3])
        assert [m.seq for m in after] == [13, 14, 15]
        mem.remember("ann also keeps a cat", user="ann")
        assert mem.flush(WAIT)
        assert [m.seq for m in mem.history("t")] == list(range(1, 16))
        assert after[0].id in [h.message_id for h in mem.recall("batch 0 feathers", user="ann")]
    assert _integrity(path) == "ok"


class GatedEmbedder(FakeEmbedder):
    """The fake model, whose document runs wait for ``gate`` (queries never wait)."""

    def __init__(self) -> None:
        super().__init__(cache_size=0)
        self.gate = threading.Event()

    def embed_batch(self, texts: Sequence[str], kind: EmbedKind) -> Vectors:
        if kind == "document":
            assert self.gate.wait(WAIT), "a document run was never let go"
        return super().embed_batch(texts, kind)


def test_vectors_that_meet_a_full_disk_leave_their_messages_pending_for_reindex(disk: Path) -> None:
    path = disk / "bot.db"
    gated = GatedEmbedder()
    with _memory(path, gated) as mem:
        said = mem.add_message("t", "user", "I have been baking sourdough", user="ann")
        filler = fill(disk)  # the message is committed; its vector is still with the model
        gated.gate.set()
        assert mem.flush(WAIT)
        assert isinstance(BEHIND.error, StorageError) and _full(str(BEHIND.error), path), BEHIND.error
        # The message is stored, waiting for its vector, and found by its words meanwhile.
        assert [m.id for m in mem.history("t")] == [said.id]
        assert [m.id for m in mem.store.pending_vectors(10)] == [said.id]
        assert mem.store.get_vectors("a", "message", [said.id])[0] == []
        assert [h.message_id for h in mem.recall("sourdough", user="ann")] == [said.id]

        filler.unlink()
        assert mem.reindex() == 1
        assert mem.store.pending_vectors(10) == []
        assert mem.store.get_vectors("a", "message", [said.id])[0] == [said.id]
    assert _integrity(path) == "ok"


def test_a_store_opened_while_the_disk_is_full_can_be_read(disk: Path) -> None:
    """A store closed cleanly has no -wal and -shm files; a process that opens it needs 32 KiB for its -shm.
    On a full disk that space is not there: the store is read from the database file alone until it is."""
    path = disk / "bot.db"
    with _memory(path) as mem:
        written = mem.add_messages("t", [{"role": "user", "content": f"owls {j}", "user": "ann"} for j in range(5)])
        mem.remember("ann keeps two owls", user="ann")
    assert sorted(p.name for p in disk.iterdir()) == ["bot.db"]
    filler = fill(disk)

    with _memory(path) as mem, ThreadPoolExecutor(1) as reader:
        assert mem.history("t") == written
        assert reader.submit(mem.history, "t").result() == written  # another thread, its own connection
        assert "ann keeps two owls" in [h.text for h in mem.recall("owls", user="ann")]
        with pytest.raises(StorageError) as caught:
            mem.add_message("t", "user", "one more", user="ann")
        assert _full(str(caught.value), path), str(caught.value)
        filler.unlink()
        more = mem.add_message("t", "user", "one more", user="ann")
        assert more.seq == 6
        assert [m.seq for m in mem.history("t")] == [1, 2, 3, 4, 5, 6]
        # The other thread read the file alone while the disk was full: it sees the write too.
        assert reader.submit(mem.history, "t").result()[-1] == more
    assert _integrity(path) == "ok"


def test_a_store_whose_wal_holds_commits_waits_for_space_rather_than_read_without_them(disk: Path) -> None:
    """Its database file alone would miss those commits: the store is not opened until there is room for
    the -shm index of its -wal, and then nothing is missing."""
    path, moved = disk / "bot.db", disk / "moved.db"
    with _memory(path) as mem:
        written = mem.add_messages("t", [{"role": "user", "content": f"owls {j}", "user": "ann"} for j in range(5)])
        mem.flush()
        # The files as a process killed now would leave them, without the -shm (as if it had been deleted).
        shutil.copyfile(path, moved)
        shutil.copyfile(f"{path}-wal", f"{moved}-wal")
    assert Path(f"{moved}-wal").stat().st_size > 0
    filler = fill(disk)
    with pytest.raises(StorageError) as caught:
        _memory(moved)
    assert _full(str(caught.value), moved) and "-wal holds commits" in str(caught.value), str(caught.value)
    filler.unlink()
    with _memory(moved) as mem:
        assert mem.history("t") == written
    assert _integrity(moved) == "ok"


# -- a broken file ------------------------------------------------------------------------------------
def _store(path: Path) -> None:
    """A store of 200 messages and a fact, closed (so everything is in the database file itself)."""
    with Memory(path, agent="a", settings=load_settings(embedder="none", worker="none")) as mem:
        for i in range(20):
            mem.add_messages("t", [{"role": "user", "content": f"note {i}.{j} " + "words " * 40} for j in range(10)])
        mem.remember("ann keeps two owls", user="ann")


def _break(path: Path, how: str) -> None:
    if how == "not a database":
        path.write_bytes(b"these are somebody's notes, not a SQLite database\n" * 200)
        return
    _store(path)
    if how == "cut short":
        os.truncate(path, path.stat().st_size // 2)
    elif how == "a page overwritten":  # the messages table's root: the file opens, its messages do not read
        with sqlite3.connect(path) as conn:
            page_size = conn.execute("PRAGMA page_size").fetchone()[0]
            root = conn.execute("SELECT rootpage FROM sqlite_master WHERE name = 'messages'").fetchone()[0]
        with path.open("r+b") as f:
            f.seek((root - 1) * page_size)
            f.write(b"\xa5" * page_size)


BROKEN = ["not a database", "cut short", "a page overwritten"]


def _says_restore(message: str, path: Path) -> bool:
    return str(path) in message and "backup" in message and "memlane import" in message


@pytest.mark.parametrize("how", BROKEN)
def test_a_broken_file_is_named_with_how_to_restore_it(tmp_path: Path, how: str) -> None:
    path = tmp_path / "bot.db"
    _break(path, how)
    with pytest.raises(StorageError) as caught, Memory(path, agent="a", settings=load_settings(embedder="none")) as mem:
        mem.history("t")
    assert _says_restore(str(caught.value), path), str(caught.value)
    assert "\n" not in str(caught.value)


@pytest.mark.parametrize("how", BROKEN)
def test_the_command_line_names_a_broken_file_in_one_line(
    tmp_path: Path, how: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MEMLANE_EMBEDDER", "none")
    path = tmp_path / "bot.db"
    _break(path, how)
    copy = ["db", "copy", str(path), str(tmp_path / "copy.db")]
    commands = (["history", "t"], ["export", str(tmp_path / "a.jsonl")], copy)
    for command in commands:
        result = CliRunner().invoke(app, ["--db", str(path), "--agent", "a", *command])
        assert result.exit_code == 6, (command, result.exit_code, result.output)
        lines = result.stderr.splitlines()
        assert len(lines) == 1 and lines[0].startswith("error: "), (command, result.stderr)
        assert _says_restore(lines[0], path), (command, lines[0])
        assert "Traceback" not in result.output and result.stdout == "", command


def test_the_installed_command_names_a_damaged_page_without_a_traceback(tmp_path: Path) -> None:
    path = tmp_path / "bot.db"
    _break(path, "a page overwritten")
    env = {**os.environ, "MEMLANE_HOME": str(tmp_path / "home"), "MEMLANE_EMBEDDER": "none"}
    done = subprocess.run(
        [sys.executable, "-m", "memlane", "--db", str(path), "--agent", "a", "recall", "note"],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
        check=False,
    )
    assert done.returncode == 6, done.stderr
    assert done.stdout == "" and done.stderr.count("\n") == 1 and done.stderr.startswith("error: "), done.stderr
    assert _says_restore(done.stderr, path), done.stderr
