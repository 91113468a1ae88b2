"""Every public `Memory` method's docstring has an example, and each example runs as shown (a doctest on a
real SQLite file holding the conversation the examples assume), so `help(memlane.Memory)` cannot lie."""

from __future__ import annotations

import doctest
import inspect
from pathlib import Path

import pytest

from memlane import Memory, load_settings

PUBLIC = sorted(name for name, _ in inspect.getmembers(Memory) if not name.startswith("_"))


def _memory(tmp_path: Path) -> Memory:
    """The memory the examples call ``mem``: described in ``Memory``'s own docstring."""
    mem = Memory(tmp_path / "doc.db", agent="my-bot", settings=load_settings(embedder="fake", worker="none"))
    mem.add_message("general", "user", "Hi, I'm Alice. I love hiking in the Alps.", user="alice", name="Alice")
    mem.add_message("general", "assistant", "Nice to meet you, Alice! Which trail is your favourite?")
    mem.remember("Alice loves hiking in the Alps", user="alice", category="hobby")
    return mem


def _docstring(name: str) -> str:
    member = getattr(Memory, name)
    return inspect.getdoc(member.fget if isinstance(member, property) else member) or ""


def test_the_public_methods_are_many() -> None:
    assert len(PUBLIC) >= 50 and {"add_message", "recall", "context", "remember", "forget"} <= set(PUBLIC)


@pytest.mark.parametrize("name", PUBLIC)
def test_every_public_method_has_an_example_that_runs(
    name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    doc = _docstring(name)
    assert "\nExample:\n" in doc and ">>> " in doc, f"Memory.{name} has no example in its docstring"
    monkeypatch.chdir(tmp_path)
    mem = _memory(tmp_path)
    try:
        test = doctest.DocTestParser().get_doctest(doc, {"mem": mem, "Memory": Memory}, f"Memory.{name}", None, 0)
        assert test.examples, f"Memory.{name}'s example has nothing to run"
        runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE, verbose=False)
        report: list[str] = []
        runner.run(test, out=report.append, clear_globs=False)
        assert runner.failures == 0, "".join(report)
    finally:
        mem.close()


def test_a_wrong_example_fails(tmp_path: Path) -> None:
    """The check above can fail: an example whose shown answer is not the real one is reported."""
    mem = _memory(tmp_path)
    try:
        doc = '>>> mem.fact(1).content\n"Alice hates hiking"\n'
        test = doctest.DocTestParser().get_doctest(doc, {"mem": mem}, "wrong", None, 0)
        runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE)
        runner.run(test, out=lambda _: None)
        assert runner.failures == 1
    finally:
        mem.close()
