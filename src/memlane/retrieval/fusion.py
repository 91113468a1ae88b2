"""Fusion steps: pure functions from ranked candidate lists to one ranked list."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from ..store.base import Candidate

__all__ = [
    "NORMALIZERS",
    "absolute",
    "by_kind",
    "held",
    "linear",
    "normalize_max",
    "normalize_minmax",
    "normalize_zscore",
    "rrf",
]

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
    import statistics  # with fractions and decimal: only for this normaliser, not with `import memlane`

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


def absolute(name: str, group: Sequence[Candidate], cosine_floor: float = 0.0) -> list[float]:
    """Scores of one list of one kind that mean the same in any query, in [0, 1]: a vector match's cosine
    above ``cosine_floor`` (``(cos - floor) / (1 - floor)``, at least 0); any other retriever's score as it
    is, clipped to [0, 1] (the keyword retriever's: the share of the query's words, by IDF, a match holds)."""
    if name == "vector":
        span = 1.0 - cosine_floor
        return [min(1.0, max(0.0, (c.score - cosine_floor) / span)) for c in group]
    return [min(1.0, max(0.0, c.score)) for c in group]


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
    kind_weights: Mapping[str, Mapping[str, float]] | None = None,
    normalize: Callable[[Sequence[float]], list[float]] = normalize_minmax,
    coverage: float = 0.0,
    scores_of: Callable[[str, Sequence[Candidate]], list[float]] | None = None,
) -> list[Candidate]:
    """Weighted sum of normalised scores: each list's scores are normalised per kind, multiplied by the
    list's weight (default 1.0) and added up per item; an item missing from a list gets nothing from it.
    ``kind_weights`` maps a kind of item to weights of its own for its lists (else ``weights``).

    ``scores_of(name, group)``, when given, gives a list's values per kind instead of ``normalize`` (absolute
    scores, :func:`absolute`); the sums are then divided by the lists' total weight, so that they stay in
    [0, 1].

    With ``coverage`` (> 0), a list of one kind whose candidates tell how much of the query they hold
    (:attr:`Candidate.coverage`) and whose best holds less than ``coverage`` weighs less: its weight is
    multiplied by ``(best / coverage) ** 2``. Normalising stretches the best of any list to 1, so a
    keyword list that matched only a common word of the query ("tips", "go") would otherwise count as much
    as one that matched all of it.
    """
    scores: dict[Key, float] = {}
    sources: dict[Key, list[str]] = {}

    def weight_of(name: str, kind: str) -> float:
        chosen = kind_weights.get(kind, weights) if kind_weights else weights
        return 1.0 if chosen is None else chosen.get(name, 1.0)

    for name, ranked in lists.items():
        for kind, group in by_kind(ranked).items():
            weight = weight_of(name, kind)
            if scores_of is not None:
                weight /= sum(weight_of(other, kind) for other in lists) or 1.0
            share = weight * held(group, coverage) if coverage > 0 else weight
            values = scores_of(name, group) if scores_of is not None else normalize([c.score for c in group])
            for cand, value in zip(group, values, strict=True):
                key = (cand.kind, cand.id)
                scores[key] = scores.get(key, 0.0) + share * value
                sources.setdefault(key, []).append(name)
    return _ranked(scores, sources)


def held(group: Sequence[Candidate], coverage: float) -> float:
    """The share of its weight a list of one kind keeps: 1 when any candidate lacks a coverage or the best
    holds at least ``coverage`` of the query, else ``(best / coverage) ** 2``."""
    best = 0.0
    for cand in group:
        if cand.coverage is None:
            return 1.0
        best = max(best, cand.coverage)
    return min(1.0, best / coverage) ** 2


def _ranked(scores: dict[Key, float], sources: dict[Key, list[str]]) -> list[Candidate]:
    order = sorted(scores, key=scores.__getitem__, reverse=True)  # stable in reverse too: ties keep first appearance
    return [Candidate(key[0], key[1], scores[key], "+".join(sources[key])) for key in order]  # type: ignore[arg-type]
