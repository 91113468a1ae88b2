"""Progress of long commands (reindex, import, export) on stderr, shown only when stderr is a terminal.

Output meant for programs (stdout, ``--json``) is never touched, and a pipe or a log file gets no bar.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import IO, Any

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    SpinnerColumn,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

__all__ = ["CountingReader", "CountingWriter", "ProgressUpdate", "progress", "stderr_is_terminal"]

#: ``update(done, total)``; ``total`` None means not known (a spinner and a count, no bar).
ProgressUpdate = Callable[..., None]


def stderr_is_terminal() -> bool:
    """Whether a progress bar would be seen (rich's test: a tty, or ``TTY_COMPATIBLE=1``)."""
    return Console(stderr=True).is_terminal


@contextmanager
def progress(label: str) -> Iterator[ProgressUpdate]:
    """A bar labelled ``label`` on stderr when it is a terminal, from the first update on; else a no-op."""
    console = Console(stderr=True)
    if not console.is_terminal:
        yield _ignore
        return
    bar = Progress(
        SpinnerColumn(),
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=console,
        transient=False,
    )
    task: list[Any] = []

    def update(done: int, total: int | None, description: str | None = None) -> None:
        if not task:
            bar.start()
            task.append(bar.add_task(label, total=total))
        bar.update(task[0], completed=done, total=total, description=description or label)

    try:
        yield update
    finally:
        if task:
            bar.stop()


def _ignore(done: int, total: int | None, description: str | None = None) -> None:
    return None


class CountingWriter:
    """A text stream that passes writes through and reports each finished line (one export record)."""

    def __init__(self, out: IO[str], update: ProgressUpdate, total: int | None, every: int = 200) -> None:
        self.out, self.update, self.total, self.every = out, update, total, every
        self.lines = 0

    def write(self, text: str) -> int:
        written = self.out.write(text)
        self.lines += text.count("\n")
        if self.lines % self.every == 0 or self.lines == self.total:
            self.update(self.lines, self.total)
        return written

    def flush(self) -> None:
        self.out.flush()


class CountingReader:
    """A text stream read line by line that reports the bytes read so far (of ``total``); ``done`` is called
    once every line was read."""

    def __init__(
        self,
        source: Iterable[str],
        update: ProgressUpdate,
        total: int | None,
        done: Callable[[int], None] | None = None,
        every: int = 200,
    ) -> None:
        self.source, self.update, self.total, self.done, self.every = source, update, total, done, every
        self.chars = 0
        self.lines = 0

    def __iter__(self) -> Iterator[str]:
        for line in self.source:
            self.chars += len(line.encode("utf-8"))
            self.lines += 1
            if self.lines % self.every == 0:
                self.update(self.chars, self.total)
            yield line
        self.update(self.total if self.total is not None else self.chars, self.total)
        if self.done is not None:
            self.done(self.lines)
