"""Embedding the texts of concurrent calls together.

A bot's server gets many small writes and searches at once, each with one or two texts to embed. A local model
embeds 32 short texts in little more time than one, so calls that arrive while a batch is running wait for it
to end and then go together, as one batch: no call waits when the model is idle, and under load the model runs
full batches instead of many single ones.

The first waiting call of a kind becomes the leader: it takes every queued text (up to ``max_texts``), runs the
model once, hands each caller its rows, and lets the next leader go. Up to ``slots`` batches run at once (an
embedder's ``concurrency``: more than one for a remote provider that answers in parallel).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, TypeAlias

if TYPE_CHECKING:  # numpy loads with the first vectors made, not with the embedder's object
    import numpy as np
    import numpy.typing as npt


__all__ = ["Coalescer"]

Vectors: TypeAlias = "npt.NDArray[np.float32]"


@dataclass(eq=False, slots=True)
class _Request:
    texts: Sequence[str]
    vectors: Vectors | None = None
    error: BaseException | None = None
    done: bool = False


@dataclass(eq=False)
class Coalescer:
    """Runs ``embed(texts)`` for the texts of concurrent callers together (see the module's text).

    ``embed`` must return one row per text, in order; its errors reach every caller of that batch.
    """

    embed: Callable[[Sequence[str]], Vectors]
    max_texts: int = 32
    slots: int = 1
    _queue: list[_Request] = field(default_factory=list)
    _running: int = 0
    _cond: threading.Condition = field(default_factory=threading.Condition)

    def __call__(self, texts: Sequence[str]) -> Vectors:
        """The vectors of ``texts`` (at most ``max_texts`` of them)."""
        mine = _Request(texts)
        with self._cond:
            self._queue.append(mine)
            while True:
                while not mine.done and self._running >= self.slots:
                    self._cond.wait()
                if mine.done:
                    break
                batch = self._take()
                self._running += 1
                self._cond.release()
                try:
                    self._run(batch)
                finally:
                    self._cond.acquire()
                    self._running -= 1
                    self._cond.notify_all()
        if mine.error is not None:
            raise mine.error
        assert mine.vectors is not None
        return mine.vectors

    def _take(self) -> list[_Request]:
        """The queued requests of the next batch, first come first (always at least the oldest one)."""
        batch: list[_Request] = []
        count = 0
        while self._queue and (not batch or count + len(self._queue[0].texts) <= self.max_texts):
            request = self._queue.pop(0)
            batch.append(request)
            count += len(request.texts)
        return batch

    def _run(self, batch: list[_Request]) -> None:
        texts = [text for request in batch for text in request.texts]
        try:
            vectors = self.embed(texts)
        except BaseException as error:  # every caller of the batch gets the model's error, as it would alone
            for request in batch:
                request.error, request.done = error, True
            return
        start = 0
        for request in batch:
            request.vectors = vectors[start : start + len(request.texts)]
            request.done = True
            start += len(request.texts)
