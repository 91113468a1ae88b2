"""The search pipeline: run the configured retrievers inside the scope, then fuse their lists."""

from __future__ import annotations

from collections.abc import Callable

from ..errors import ConfigError
from ..store.base import Candidate, Scope, Store
from .config import SearchConfig
from .fusion import rrf

__all__ = ["OPTIONAL_RETRIEVERS", "Retriever", "Searcher"]

#: Retrievers a config may name that exist only with the right dependency (an embedder).
OPTIONAL_RETRIEVERS = frozenset({"vector"})

#: A retriever: (agent, query, scope, limit) -> candidates, best first.
Retriever = Callable[[str, str, Scope, int], list[Candidate]]


class Searcher:
    """Runs a :class:`SearchConfig` against a store; new retrievers are registered by name."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.retrievers: dict[str, Retriever] = {"keyword": store.keyword_search}

    def search(self, agent: str, query: str, scope: Scope, limit: int, config: SearchConfig) -> list[Candidate]:
        """The best ``limit`` candidates for ``query`` within ``scope``.

        Raises:
            ConfigError: the config names a retriever that is not registered.
        """
        per_list = max(config.min_candidates, limit * config.candidates_per_result)
        lists: dict[str, list[Candidate]] = {}
        for name in config.retrievers:
            retriever = self.retrievers.get(name)
            if retriever is None:
                if name in OPTIONAL_RETRIEVERS:
                    continue  # e.g. no embedder configured: search with what there is
                raise ConfigError(f"search config {config.name!r} uses unknown retriever {name!r}")
            lists[name] = retriever(agent, query, scope, per_list)
        if not lists:
            return []
        if len(lists) == 1:
            (only,) = lists.values()
            return _merge_kinds(only)[:limit]
        return rrf(lists, k=config.rrf_k, weights=config.weights)[:limit]


def _merge_kinds(candidates: list[Candidate]) -> list[Candidate]:
    """One retriever's results over several kinds (messages, facts ...) interleaved by rank within kind.

    Scores of different full-text tables are not comparable, so each kind's list is ranked on its own
    and the lists are fused by rank.
    """
    by_kind: dict[str, list[Candidate]] = {}
    for cand in candidates:
        by_kind.setdefault(cand.kind, []).append(cand)
    if len(by_kind) <= 1:
        return sorted(candidates, key=lambda c: -c.score)
    return rrf({kind: sorted(items, key=lambda c: -c.score) for kind, items in by_kind.items()})
