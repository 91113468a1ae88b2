"""A deterministic, offline, instant embedder for tests: hashed words and character trigrams."""

from __future__ import annotations

import functools
import hashlib
import re
from collections.abc import Sequence

from memlane.embeddings.base import Embedder, EmbedKind, Vectors, normalize_rows
from memlane.errors import ConfigError

__all__ = ["FakeEmbedder"]

_WORD = re.compile(r"\w+")
_WORD_WEIGHT = 1.0
# Trigrams make "cat" and "cats" a little alike; kept light so that shared words dominate.
_TRIGRAM_WEIGHT = 0.25
_EMPTY = "\x00empty"  # the feature of a text without words, so that it still has a direction


@functools.lru_cache(maxsize=65536)
def _slot(feature: str, dim: int) -> tuple[int, float]:
    """Where ``feature`` lands and with which sign: stable across processes (no salted ``hash``)."""
    digest = hashlib.blake2b(feature.encode("utf-8"), digest_size=8).digest()
    value = int.from_bytes(digest, "little")
    return (value >> 1) % dim, (1.0 if value & 1 else -1.0)


@functools.lru_cache(maxsize=65536)
def _features(word: str, dim: int) -> tuple[tuple[int, float], ...]:
    """Where ``word`` and its trigrams land, with their signed weights, in order (a word's features are worked
    out once: the stand-in is meant to cost next to nothing beside what is measured with it)."""
    column, sign = _slot("w:" + word, dim)
    found = [(column, sign * _WORD_WEIGHT)]
    padded = f"#{word}#"
    for start in range(len(padded) - 2):
        column, sign = _slot("t:" + padded[start : start + 3], dim)
        found.append((column, sign * _TRIGRAM_WEIGHT))
    return tuple(found)


class FakeEmbedder(Embedder):
    """Feature hashing of lower-cased words (and their trigrams) into ``dim`` signed buckets.

    Texts that share words are closer than texts that don't; the same text gives the same vector
    in every process. Not a language model: no synonyms, no meaning. ``kind`` is ignored.

    Raises:
        ConfigError: ``dim`` < 2 (and :class:`Embedder`'s checks).
    """

    in_process = True

    def __init__(self, dim: int = 64, *, batch_size: int = 256, cache_size: int = 4096, concurrency: int = 1) -> None:
        if dim < 2:
            raise ConfigError(f"the fake embedder needs dim >= 2, got {dim}")
        super().__init__(batch_size=batch_size, cache_size=cache_size, concurrency=concurrency)
        self.dim = dim
        self.model = f"fake-hash-{dim}"

    def embed_batch(self, texts: Sequence[str], kind: EmbedKind) -> Vectors:
        """Hash each text's words and trigrams into a unit vector. Never raises for a string."""
        import numpy as np

        matrix = np.zeros((len(texts), self.dim), dtype=np.float64)
        for row, text in enumerate(texts):
            sums = [0.0] * self.dim  # added up in the order of the features, as floats: the same sums as ever
            for word in _WORD.findall(text.lower()) or [_EMPTY]:
                for column, value in _features(word, self.dim):
                    sums[column] += value
            matrix[row] = sums
            if not np.any(matrix[row]):  # features that cancelled out exactly: keep a direction
                column, sign = _slot("w:" + _EMPTY, self.dim)
                matrix[row, column] = sign
        return normalize_rows(matrix)
