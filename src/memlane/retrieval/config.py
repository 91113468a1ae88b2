"""Search is data: which retrievers run, how their lists are fused, how many candidates each returns."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..errors import ConfigError

__all__ = ["PRESETS", "SearchConfig", "get_preset"]


@dataclass(frozen=True, slots=True)
class SearchConfig:
    """A declarative description of one way to search memory."""

    name: str
    retrievers: tuple[str, ...] = ("keyword",)
    #: weight of each retriever's list in the fusion (missing: 1.0)
    weights: dict[str, float] = field(default_factory=dict)
    fusion: str = "rrf"
    rrf_k: int = 60
    #: candidates each retriever returns before fusion, per requested result
    candidates_per_result: int = 4
    min_candidates: int = 20


PRESETS: dict[str, SearchConfig] = {
    "keyword": SearchConfig(name="keyword", retrievers=("keyword",)),
    "vector": SearchConfig(name="vector", retrievers=("vector",)),
    "hybrid": SearchConfig(name="hybrid", retrievers=("keyword", "vector")),
    "default": SearchConfig(name="default", retrievers=("keyword", "vector")),
}


def get_preset(name: str) -> SearchConfig:
    """The named preset.

    Raises:
        ConfigError: no preset has that name.
    """
    try:
        return PRESETS[name]
    except KeyError:
        raise ConfigError(f"unknown search preset {name!r}; known: {', '.join(sorted(PRESETS))}") from None
