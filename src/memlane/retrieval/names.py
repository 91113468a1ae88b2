"""The names in a query, taken out of the text its vector is made from.

Messages are embedded with their speaker's name ("Melanie: I just signed up for a pottery class"), so every
message of a speaker shares that part of its vector. A query naming the speaker ("What does Melanie do to
destress?") is then near all of their messages for the name alone, and the words that say what is asked
weigh less. Embedding the query without the names of the agent's speakers lets those words decide; the name
still counts where it tells messages apart: in the keyword search (a message's speaker is in its entry) and
in the speaker boost. On LoCoMo this raised the vector search alone from 0.449 to 0.603 recall@10, and the
default's from 0.801 to 0.830 (bench/RESULTS.md, "Round 14").

A name counts where the query spells it with a capital ("Alice", "Alice's"; the first word of a name of
several words counts alone too): lowercase words that are also someone's name ("will", "may") stay.
"""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Callable, Iterable
from typing import Protocol

__all__ = ["Names", "SpeakerNames"]


class _Spoken(Protocol):
    """A message as written: who spoke it."""

    @property
    def name(self) -> str | None: ...

    @property
    def user(self) -> str | None: ...


_WORD = re.compile(r"\w+")
_TOKEN = re.compile(r"\w+(?:['\u2019]\w+)*")  # a word with its apostrophes: "O'Brien", "Melanie's"
_POSSESSIVES = ("'s", "\u2019s")
_BEFORE_PUNCTUATION = re.compile(r"\s+([?!.,;:])")
_KEPT = 256  # queries whose text is kept (the set is made again at each read of the names)


def _key(token: str) -> str:
    word = token.lower()
    return word[:-2] if word.endswith(_POSSESSIVES) else word


class Names:
    """A set of names, found in a query by its words."""

    def __init__(self, names: Iterable[str]) -> None:
        self.names = frozenset(names)
        by_first: dict[str, set[tuple[str, ...]]] = {}
        for name in self.names:
            words = tuple(w.lower() for w in _TOKEN.findall(name))
            if (
                not words
                or len(words[0]) < 2
                or not all(w.replace("'", "").replace("\u2019", "").isalpha() for w in words)
            ):
                continue  # ids such as "42", "U42" or "user-0163" name nobody in a question
            by_first.setdefault(words[0], set()).update({words, words[:1]})
        # The longest name first, so "Ana Lima" is taken whole before "Ana".
        self._by_first = {first: sorted(seqs, key=len, reverse=True) for first, seqs in by_first.items()}
        self._done: dict[str, str] = {}  # a recall asks for its query's text once per retriever

    def without(self, query: str) -> str:
        """``query`` without the names it spells with a capital (and their possessive ``'s``), spaces
        tidied; ``query`` itself when it names none, or is nothing but names."""
        done = self._done.get(query)
        if done is None:
            if len(self._done) >= _KEPT:
                self._done.clear()
            done = self._done[query] = self._without(query)
        return done

    def _without(self, query: str) -> str:
        if not self._by_first:
            return query
        tokens = list(_TOKEN.finditer(query))
        if not any(t.group()[0].isupper() and _key(t.group()) in self._by_first for t in tokens):
            return query  # the usual case: no name
        keys = [_key(t.group()) for t in tokens]
        cut: list[tuple[int, int]] = []
        i = 0
        while i < len(tokens):
            seqs = self._by_first.get(keys[i]) if tokens[i].group()[0].isupper() else None
            size = next((len(s) for s in seqs or () if tuple(keys[i : i + len(s)]) == s), 0)
            if size:
                cut.append((tokens[i].start(), tokens[i + size - 1].end()))
            i += size or 1
        if not cut:
            return query
        kept, start = [], 0
        for a, b in cut:
            kept.append(query[start:a])
            start = b
        kept.append(query[start:])
        text = _BEFORE_PUNCTUATION.sub(r"\1", " ".join("".join(kept).split()))
        return text if _WORD.search(text) else query


class SpeakerNames:
    """An agent's speakers' names (:meth:`Store.speakers`), read again after :attr:`REFRESH_SECONDS` or
    once a write brings a name not among them."""

    REFRESH_SECONDS = 60.0

    def __init__(self, read: Callable[[], Iterable[str]]) -> None:
        self._read = read
        self._lock = threading.Lock()
        self._names: Names | None = None
        self._read_at = 0.0

    def current(self) -> Names:
        with self._lock:
            if self._names is None or time.monotonic() - self._read_at > self.REFRESH_SECONDS:
                self._names, self._read_at = Names(self._read()), time.monotonic()
            return self._names

    def written(self, messages: Iterable[_Spoken]) -> None:
        """Note messages just written: a name (or user id) not known yet makes the next search read them again."""
        known = self._names
        if known is not None and any(n and n not in known.names for m in messages for n in (m.name, m.user)):
            with self._lock:
                self._names = None
