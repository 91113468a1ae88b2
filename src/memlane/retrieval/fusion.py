"""Fusion steps: pure functions from ranked candidate lists to one ranked list."""

from __future__ import annotations

import statistics
from collections.abc import Callable, Mapping, Sequence

from ..store.base import Candidate

__all__ = ["NORMALIZERS", "by_kind", "linear", "normalize_max", "normalize_minmax", "normalize_zscore", "rrf"]

Key = tuple[str, int]


def rrf(
    lists: Mapping[str, Sequence[Candidate]], *, k: int = 60, weights: Mapping[str, float] | None = None
) -> list[Candidate]:
    """Reciprocal-rank fusion: each list adds ``weight / (k + rank)`` to an item's score (rank from 1).

    Items are identified by (kind, id); the result is sorted by fused score, best first, ties by
    first appearance.
    """
    scores: dict[Key, float] = {}
    sources: dict[Key, list[str]] = {}
    for name, ranked in lists.items():
        weight = 1.0 if weights is None else weights.get(name, 1.0)
        for rank, cand in enumerate(ranked, start=1):
            key = (cand.kind, cand.id)
            scores[key] = scores.get(key, 0.0) + weight / (k + rank)
            sources.setdefault(key, []).append(name)
    return _ranked(scores, sources)


def normalize_minmax(scores: Sequence[float], min_spread: float = 0.0) -> list[float]:
    """Scores mapped onto [0, 1]: the best is 1, the worst 0 (all equal: all 1).

    With ``min_spread``, differences smaller than that share of the best score are not stretched to the
    whole range: a list whose items all match about equally well (say, only on a name that every
    message carries) then spans [0, less than 1] and weighs less in the fusion.
    """
    if not scores:
        return []
    low, high = min(scores), max(scores)
    if high <= low:
        return [1.0] * len(scores)
    spread = max(high - low, min_spread * abs(high))
    return [(s - low) / spread for s in scores]


def normalize_max(scores: Sequence[float]) -> list[float]:
    """Scores divided by the best one (for scores that are positive and meaningful from zero, as BM25's)."""
    if not scores:
        return []
    high = max(scores)
    if high <= 0:
        return normalize_minmax(scores)
    return [max(s, 0.0) / high for s in scores]


def normalize_zscore(scores: Sequence[float]) -> list[float]:
    """Standard scores, shifted so that the worst is 0 (an item missing from the list also counts 0)."""
    if len(scores) < 2:
        return [1.0] * len(scores)
    mean, spread = statistics.fmean(scores), statistics.pstdev(scores)
    if spread == 0:
        return [1.0] * len(scores)
    z = [(s - mean) / spread for s in scores]
    low = min(z)
    return [v - low for v in z]


NORMALIZERS: dict[str, Callable[[Sequence[float]], list[float]]] = {
    "minmax": normalize_minmax,
    "max": normalize_max,
    "zscore": normalize_zscore,
}


def by_kind(candidates: Sequence[Candidate]) -> dict[str, list[Candidate]]:
    """One retriever's candidates split by kind (scores of different tables are not comparable)."""
    out: dict[str, list[Candidate]] = {}
    for cand in candidates:
        out.setdefault(cand.kind, []).append(cand)
    return out


def linear(
    lists: Mapping[str, Sequence[Candidate]],
    *,
    weights: Mapping[str, float] | None = None,
    normalize: Callable[[Sequence[float]], list[float]] = normalize_minmax,
) -> list[Candidate]:
    """Weighted sum of normalised scores: each list's scores are normalised per kind, multiplied by the
    list's weight (default 1.0) and added up per item; an item missing from a list gets nothing from it.
    """
    scores: dict[Key, float] = {}
    sources: dict[Key, list[str]] = {}
    for name, ranked in lists.items():
        weight = 1.0 if weights is None else weights.get(name, 1.0)
        for group in by_kind(ranked).values():
            for cand, value in zip(group, normalize([c.score for c in group]), strict=True):
                key = (cand.kind, cand.id)
                scores[key] = scores.get(key, 0.0) + weight * value
                sources.setdefault(key, []).append(name)
    return _ranked(scores, sources)


def _ranked(scores: dict[Key, float], sources: dict[Key, list[str]]) -> list[Candidate]:
    order = sorted(scores, key=scores.__getitem__, reverse=True)  # stable in reverse too: ties keep first appearance
    return [Candidate(key[0], key[1], scores[key], "+".join(sources[key])) for key in order]  # type: ignore[arg-type]
