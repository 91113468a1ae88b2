"""Issue: nothing a caller sends breaks memlane (old dates, huge numbers, deep values), ids are never given
twice, a user's thread filter does not widen what they see, and summaries are returned as written."""

from __future__ import annotations

import inspect
import json
import os
import sqlite3
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given
from hypothesis import settings as hsettings
from hypothesis import strategies as st
from typer.main import get_command as typer_get_command
from typer.testing import CliRunner

from memlane import InvalidInput, MemlaneError, Memory, NotFound, load_settings
from memlane.cli.app import app
from memlane.store.sqlite import SQLiteStore
from memlane.timestamps import fmt_time, parse_time
from memlane.validation import NewSummary

HUGE = 2**63
DEEP: dict[str, Any] = {}
_node = DEEP
for _ in range(5000):
    _node["x"] = {}
    _node = _node["x"]


def _snapshot(mem: Memory) -> list[dict[str, Any]]:
    return list(mem.export_records())


# 1. Times: one fixed-width form, a checked range, old rows read and repaired.


def test_times_are_written_fixed_width_for_every_year() -> None:
    for year in (1, 9, 99, 999, 1000, 2026, 9999):
        text = fmt_time(datetime(year, 6, 1, 12, 0, tzinfo=UTC))
        assert len(text) == 32 and text.startswith(f"{year:04d}-06-01T12:00:00.000000")
        assert parse_time(text) == datetime(year, 6, 1, 12, 0, tzinfo=UTC)
    assert parse_time("1-01-01T00:00:00.000000+00:00") == datetime(1, 1, 1, tzinfo=UTC)  # older versions' text


@pytest.mark.parametrize(
    "created_at",
    [
        "0001-01-01T00:00:00",
        "0999-12-31T23:59:59Z",
        datetime(1, 1, 1),
        "9999-12-31T23:59:59",
        "0001-01-01T00:00:00+14:00",
    ],
)
def test_a_time_out_of_range_is_refused_and_nothing_is_written(mem: Memory, created_at: Any) -> None:
    mem.add_message("t", "user", "before", user="alice")
    before = _snapshot(mem)
    with pytest.raises(InvalidInput):
        mem.add_message("t", "user", "an old message", user="bob", created_at=created_at)
    with pytest.raises(InvalidInput):
        mem.add_messages(
            "t", [{"role": "user", "content": "x"}, {"role": "user", "content": "y", "created_at": created_at}]
        )
    assert _snapshot(mem) == before


def test_the_oldest_accepted_time_reads_back_everywhere(mem: Memory) -> None:
    mem.add_message("t", "user", "we met at the harbour", user="alice", created_at="1000-01-01T00:00:00")
    mem.add_message("t", "user", "the harbour was cold", user="bob")
    assert next(m.created_at.year for m in mem.history("t")) == 1000
    assert mem.recall("harbour", user="bob")
    assert mem.threads(user="alice")[0].key == "t"
    assert mem.context("t", user="bob", query="harbour").messages


def _downgrade_to_8(path: Path) -> None:
    """Make a migrated store look like one written by a version before migration 9."""
    db = sqlite3.connect(path)
    with db:
        db.execute("UPDATE messages SET created_at = '1-01-01T00:00:00.000000+00:00' WHERE seq = 1")
        db.execute("UPDATE threads SET created_at = '12-01-01T00:00:00.000000+00:00'")
        db.execute("UPDATE embeddings SET created_at = '999-01-01T00:00:00.000000+00:00'")
        for table in ("messages", "summaries", "jobs"):
            db.execute(f"DROP TRIGGER {table}_id_floor")
        db.execute("DROP TABLE id_floor")
        db.execute("DROP INDEX messages_external_id")  # migration 10
        db.execute("DROP TABLE user_records")  # migration 11
        db.execute("DELETE FROM schema_migrations WHERE version >= 9")
    db.close()


def test_rows_written_unpadded_by_older_versions_are_read_and_repaired(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    with Memory(path, agent="a") as mem:
        mem.add_message("t", "user", "the lighthouse keeper", user="alice")
        mem.add_message("t", "user", "a second message", user="alice")
    _downgrade_to_8(path)
    with Memory(path, agent="a") as mem:
        assert next(m.created_at.year for m in mem.history("t")) == 1
        assert "the lighthouse keeper" in mem.recall("lighthouse", user="alice")[0].text
    db = sqlite3.connect(path)
    assert db.execute("SELECT created_at FROM messages WHERE seq = 1").fetchone()[0].startswith("0001-01-01T")
    assert db.execute("SELECT created_at FROM threads").fetchone()[0].startswith("0012-01-01T")
    assert db.execute("SELECT count(*) FROM embeddings WHERE created_at LIKE '0999-%'").fetchone()[0] == 2
    assert db.execute("SELECT max(version) FROM schema_migrations").fetchone()[0] >= 9
    db.close()


# 2. Untyped exceptions: huge numbers, deep values; every entry point raises memlane's errors only.


@pytest.mark.parametrize(
    "call",
    [
        lambda m: m.forget(HUGE, user="alice"),
        lambda m: m.fact(HUGE),
        lambda m: m.fact_history(HUGE),
        lambda m: m.history("t", limit=HUGE),
        lambda m: m.threads(limit=HUGE),
        lambda m: m.facts(user="alice", limit=-1),
        lambda m: m.recall("x", limit=HUGE),
        lambda m: m.recall("x", metadata={"n": HUGE}),
        lambda m: m.add_message("t", "user", "x", metadata=DEEP),
        lambda m: m.add_message(
            "t", "user", "x", metadata=json.dumps({"a": [[[[1]]]]}).replace("1", "[" * 5000 + "]" * 5000)
        ),
        lambda m: m.add_message("t", "user", "x", metadata={"n": HUGE}),
        lambda m: m.remember("x", user="alice", importance=HUGE),
        lambda m: m.context("t", budget=HUGE),
        lambda m: m.prune(1e308),
    ],
)
def test_huge_numbers_and_deep_values_get_a_typed_error(mem: Memory, call: Any) -> None:
    mem.add_message("t", "user", "hello", user="alice")
    before = _snapshot(mem)
    with pytest.raises(MemlaneError):
        call(mem)
    assert _snapshot(mem) == before


runner = CliRunner()


@pytest.mark.parametrize(
    "argv",
    [
        ["forget", str(HUGE), "--user", "alice"],
        ["history", "t", "--limit", str(HUGE)],
        ["jobs", "--retry", str(HUGE)],
        ["add", "t", "user", "x", "--metadata", "[" * 5000 + "]" * 5000],
        ["add", "t", "user", "x", "--created-at", "0001-01-01T00:00:00"],
        ["recall", "x", "--since", "0001-01-01"],
    ],
)
def test_the_cli_prints_one_error_line_never_a_traceback(tmp_path: Path, argv: list[str]) -> None:
    db = str(tmp_path / "cli.db")
    assert runner.invoke(app, ["--db", db, "add", "t", "user", "hello"]).exit_code == 0
    result = runner.invoke(app, ["--db", db, *argv])
    assert result.exit_code != 0
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert result.output.strip().startswith("error:") or "Usage" in result.output


# Property-based: every public Memory method with hostile arguments.

HOSTILE = st.one_of(
    st.sampled_from([HUGE, -HUGE, 2**64, -1, 0, float("nan"), float("inf"), True, b"\x00", DEEP, [DEEP], ()]),
    st.text(alphabet=st.characters(codec="utf-8"), max_size=40),
    st.sampled_from(["\x00", "\u202e", "\ud7ff\ufffe", "a" * 5000, "0001-01-01T00:00:00", " ", "t", "alice"]),
    st.integers(),
    st.dictionaries(st.text(max_size=5), st.integers() | st.text(max_size=5), max_size=3),
    st.lists(st.integers() | st.text(max_size=5), max_size=3),
    st.none(),
)
# close() ends the object; export/import_ take file paths (covered with hostile records in test_cli/test_sqlite).
_SKIP = {"close", "export", "import_"}
METHODS = sorted(
    name for name, _ in inspect.getmembers(Memory, inspect.isfunction) if not name.startswith("_") and name not in _SKIP
)
EXAMPLES = int(os.environ.get("MEMLANE_HOSTILE_EXAMPLES", "150"))  # more to hunt: MEMLANE_HOSTILE_EXAMPLES=5000


@hsettings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    name=st.sampled_from(METHODS),
    args=st.lists(HOSTILE, max_size=4),
    kwargs=st.dictionaries(
        st.sampled_from(
            [
                "user",
                "thread",
                "limit",
                "metadata",
                "created_at",
                "importance",
                "visibility",
                "category",
                "subject",
                "budget",
                "query",
                "since",
                "until",
                "kinds",
                "content",
                "purge",
                "offset",
                "name",
                "tool_calls",
                "status",
            ]
        ),
        HOSTILE,
        max_size=3,
    ),
)
def test_every_method_raises_only_memlane_errors_and_changes_nothing_on_error(
    tmp_path: Path, name: str, args: list[Any], kwargs: dict[str, Any]
) -> None:
    path = tmp_path / "prop.db"
    with Memory(path, agent="a", settings=load_settings(embedder="none", worker="none")) as mem:
        if not mem.threads():
            mem.add_message("t", "user", "hello there", user="alice")
            mem.remember("alice likes tea", user="alice")
        method = getattr(mem, name)
        try:
            inspect.signature(method).bind(*args, **kwargs)
        except TypeError:
            return  # a call Python itself refuses (missing or unknown argument): not a value memlane checks
        before = _snapshot(mem)
        try:
            result = method(*args, **kwargs)
            if inspect.isgenerator(result):
                list(result)
        except MemlaneError:
            assert _snapshot(mem) == before


def _summary(content: str, kind: str = "memory", owner: str | None = None) -> NewSummary:
    return NewSummary(kind=kind, content=content, from_seq=None, to_seq=None, owner=owner, method="test", metadata={})


# 3 (store). Ids are never given twice, on both backends.


def test_ids_of_deleted_messages_memories_and_jobs_are_never_given_again(store_url: str, clock: Any) -> None:
    settings = load_settings(embedder="none", worker="none")
    with Memory(store_url, agent="a", clock=clock, settings=settings) as mem:
        first = [m.id for m in mem.add_messages("t", [{"role": "user", "content": f"m{i}"} for i in range(3)])]
        assert mem.reset("t") == 3
        again = [m.id for m in mem.add_messages("t", [{"role": "user", "content": f"n{i}"} for i in range(3)])]
        assert min(again) > max(first)
        mem.delete_thread("t")
        third = mem.add_message("u", "user", "later").id
        assert third > max(again)
        store = mem.store
        summary, _ = store.add_summary("a", None, _summary("m1"), clock())
        store.delete_summaries("a", [summary.id])
        summary2, _ = store.add_summary("a", None, _summary("m2"), clock())
        assert summary2.id > summary.id


# 4. recall(user=A, thread=T) never shows a thread A did not write in.


def test_naming_a_thread_does_not_widen_what_a_user_sees(mem: Memory) -> None:
    mem.add_message("bobs-dm", "user", "my bank pin is 4821", user="bob")
    mem.add_message("alices-dm", "user", "my favourite tea is oolong", user="alice")
    mem.remember("the office wifi is guest-net", visibility="shared", user="bob", thread="bobs-dm")
    assert mem.recall("bank pin", user="bob", thread="bobs-dm")
    hits = mem.recall("bank pin", user="alice", thread="bobs-dm")
    assert all(h.kind == "fact" for h in hits)
    assert not any("4821" in h.text for h in hits)
    assert mem.recall("bank pin", user="alice", thread="bobs-dm", kinds=["message"]) == []
    assert any("guest-net" in h.text for h in mem.recall("office wifi", user="alice", thread="bobs-dm"))
    assert mem.recall("oolong tea", user="alice", thread="alices-dm")


# 5. A summary is returned as written, even if another process replaces it right after the commit.


def test_add_summary_returns_what_it_wrote_even_when_replaced_at_once(tmp_path: Path) -> None:
    path = tmp_path / "race.db"
    store = SQLiteStore(str(path))
    other = sqlite3.connect(path)
    now = datetime.now(UTC)
    real = store._remember_agent

    def replace_then_remember(agent: str, agent_id: int) -> None:  # runs right after the commit
        with other:
            other.execute("DELETE FROM summaries")
        real(agent, agent_id)

    store._remember_agent = replace_then_remember  # type: ignore[method-assign]
    try:
        summary, created = store.add_summary("a", None, _summary("likes tea", kind="profile", owner="u"), now)
        assert created and summary.content == "likes tea" and summary.owner == "u"
    finally:
        other.close()
        store.close()
    assert timedelta(0) <= datetime.now(UTC) - now


# Property-based: every CLI command with hostile arguments prints one error line or succeeds.

_CLI_SKIP = {"worker", "chat", "demo", "serve", "mcp"}  # long-running or interactive
CLI_COMMANDS = sorted(
    name
    for name in typer_get_command(app).commands
    if name not in _CLI_SKIP  # type: ignore[attr-defined]
)
ARG = st.one_of(
    st.sampled_from([str(HUGE), str(-HUGE), "-1", "0", "nan", "inf", "[" * 3000, "{}", "null", "\x00x", "--user", "t"]),
    st.text(alphabet=st.characters(codec="utf-8", exclude_categories=["Cs"]), max_size=20),
)


@hsettings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(command=st.sampled_from(CLI_COMMANDS), argv=st.lists(ARG, max_size=4))
def test_every_cli_command_fails_with_one_line_never_a_traceback(tmp_path: Path, command: str, argv: list[str]) -> None:
    db = str(tmp_path / "cli-prop.db")
    here = os.getcwd()
    before = set(os.listdir(here))
    os.chdir(tmp_path)  # a generated argument may name a file to write (export): never in the repository
    try:
        result = runner.invoke(app, ["--db", db, command, *argv])
    finally:
        os.chdir(here)
    assert set(os.listdir(here)) == before, "a command wrote into the working directory"
    assert result.exception is None or isinstance(result.exception, SystemExit), (command, argv, result.output)
    assert "Traceback" not in result.output


def test_delete_messages_removes_them_from_history_and_recall_on_both_backends(mem: Memory) -> None:
    kept = mem.add_message("t", "user", "the harbour festival is on friday", user="alice")
    gone = mem.add_message("t", "user", "my secret codename is bluefinch", user="alice")
    mem.add_message("u", "user", "another thread", user="bob")
    assert mem.delete_messages("t", [gone.id, 10**9]) == 1
    assert [m.id for m in mem.history("t")] == [kept.id]
    assert mem.recall("bluefinch codename", user="alice") == []
    assert mem.thread("t").message_count == 1
    assert mem.delete_messages("t", [mem.history("u")[0].id]) == 0  # another thread's message is left alone
    later = mem.add_message("t", "user", "one more", user="alice")
    assert later.seq == 3 and later.id > gone.id
    with pytest.raises(NotFound):
        mem.delete_messages("nope", [1])
    with pytest.raises(InvalidInput):
        mem.delete_messages("t", "12")


def test_platform_message_ids_dedupe_edit_and_delete_on_both_backends(mem: Memory) -> None:
    first = mem.add_message("#general", "user", "lunch at noon?", user="alice", external_id="slack:1001")
    again = mem.add_message("#general", "user", "lunch at noon?", user="alice", external_id="slack:1001")
    assert again.id == first.id and len(mem.history("#general")) == 1  # delivered twice, stored once
    mem.add_message("#random", "user", "same id, other thread", user="bob", external_id="slack:1001")
    found = mem.external_message("#general", "slack:1001")
    assert found is not None and found.id == first.id and found.metadata["external_id"] == "slack:1001"
    edited = mem.edit_message("#general", first.id, "lunch at one instead?")
    assert (edited.id, edited.seq, edited.content) == (first.id, 1, "lunch at one instead?")
    assert mem.recall("noon", user="alice") == []  # the old words left the index
    assert "lunch at one" in mem.recall("lunch one", user="alice")[0].text
    assert mem.delete_messages("#general", [mem.external_message("#general", "slack:1001").id]) == 1  # type: ignore[union-attr]
    assert mem.external_message("#general", "slack:1001") is None
    with pytest.raises(NotFound):
        mem.edit_message("#general", first.id, "gone")


def test_a_special_tokens_spelling_in_a_message_is_ordinary_text(mem: Memory) -> None:
    """A user asking what ``<|endoftext|>`` means was refused (the counter took it for a special token)."""
    import quicktok

    text = "what does <|endoftext|> mean, and <|fim_prefix|>?"
    stored = mem.add_message("t", "user", text, name="ann")
    plain = quicktok.get_encoding("o200k_base").encode_ordinary
    # 3 for the message's framing, the role, the text as plain characters, and 1 more plus the name.
    assert stored.token_count == 3 + len(plain("user")) + len(plain(text)) + 1 + len(plain("ann"))
    mem.add_messages("t", [{"role": "assistant", "content": "It marks the end of a document. <|endoftext|>"}])
    assert [m.content for m in mem.history("t")] == [text, "It marks the end of a document. <|endoftext|>"]
    assert any(stored.id in (h.message_id, *h.message_ids) for h in mem.recall("endoftext fim_prefix", limit=5))
    context = mem.context("t", query="endoftext", budget=60)
    assert context.tokens <= 60


_SCALAR = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**64), max_value=2**64),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(),
)


@hsettings(max_examples=300, deadline=None)
@given(st.dictionaries(st.text(max_size=8), _SCALAR, max_size=6))
def test_flat_metadata_is_checked_as_its_json_round_trip_would_be(value: dict[str, Any]) -> None:
    """check_metadata takes a dict of scalars without a JSON round trip: same result, same refusals."""
    from memlane.validation import _checked_json, check_metadata

    def outcome(check: Any) -> Any:
        try:
            return check(value, "metadata")
        except InvalidInput:
            return InvalidInput

    assert outcome(check_metadata) == outcome(_checked_json)
