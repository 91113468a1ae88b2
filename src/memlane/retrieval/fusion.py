"""Fusion steps: pure functions from ranked candidate lists to one ranked list."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ..store.base import Candidate

__all__ = ["rrf"]


def rrf(
    lists: Mapping[str, Sequence[Candidate]], *, k: int = 60, weights: Mapping[str, float] | None = None
) -> list[Candidate]:
    """Reciprocal-rank fusion: each list adds ``weight / (k + rank)`` to an item's score (rank from 1).

    Items are identified by (kind, id); the result is sorted by fused score, best first, ties by
    first appearance.
    """
    scores: dict[tuple[str, int], float] = {}
    sources: dict[tuple[str, int], list[str]] = {}
    for name, ranked in lists.items():
        weight = 1.0 if weights is None else weights.get(name, 1.0)
        for rank, cand in enumerate(ranked, start=1):
            key = (cand.kind, cand.id)
            scores[key] = scores.get(key, 0.0) + weight / (k + rank)
            sources.setdefault(key, []).append(name)
    order = sorted(scores, key=lambda key: -scores[key])
    return [Candidate(key[0], key[1], scores[key], "+".join(sources[key])) for key in order]  # type: ignore[arg-type]
