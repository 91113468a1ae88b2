"""Search is data: which retrievers run, how their lists are fused and re-ranked, and what a hit shows.

A :class:`SearchConfig` is a frozen value; :data:`PRESETS` names the ones memlane ships. ``recall()`` takes a
preset name or a config, so an application can tune search without code::

    from dataclasses import replace
    from memlane.retrieval import get_preset

    mine = replace(get_preset("default"), window_before=0, window_after=0)  # bare turns, no context
    memory.recall("what did Ana say about Lisbon?", preset=mine)

Every number in the default preset was chosen by measurement on LoCoMo (``bench/locomo.py``; the ablation is
in ``bench/RESULTS.md``).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Literal

from ..errors import ConfigError

__all__ = ["FUSIONS", "NORMALIZATIONS", "PRESETS", "TIME_MODES", "SearchConfig", "get_preset"]

Fusion = Literal["rrf", "linear"]
Normalization = Literal["minmax", "max", "zscore", "absolute"]
TimeMode = Literal["soft", "hard", "off"]

FUSIONS: tuple[str, ...] = ("rrf", "linear")
NORMALIZATIONS: tuple[str, ...] = ("minmax", "max", "zscore", "absolute")
TIME_MODES: tuple[str, ...] = ("soft", "hard", "off")


@dataclass(frozen=True, slots=True)
class SearchConfig:
    """A declarative description of one way to search memory.

    Retrieval: ``retrievers`` each return up to ``max(min_candidates, limit * candidates_per_result)``
    candidates inside the scope; ``fusion`` combines them: ``"rrf"`` (reciprocal rank, ``rrf_k``) or
    ``"linear"`` (each retriever's scores normalised per kind by ``normalization``, then summed with
    ``weights``; a retriever missing from ``weights`` weighs 1.0; ``kind_weights`` gives the lists of one kind of
    item weights of their own, e.g. ``{"fact": {"keyword": 1.0, "vector": 1.0}}``). ``min_spread`` keeps min-max from
    stretching differences smaller than that share of the best score (see :func:`.fusion.normalize_minmax`).
    ``keyword_coverage`` (linear fusion; 0 = off): a keyword list whose best match holds less than that
    share of the query (its words' IDFs; both stores measure it, see :attr:`.Candidate.coverage`) weighs less,
    its weight times ``(best / keyword_coverage) ** 2``, so matches of only a common word of a question
    ("any tips for my weekend baking?") do not outrank what the vector retriever finds.

    Scores that mean the same in every query: min-max stretches the best of any list to 1, a list of nonsense
    matches too, so such scores cannot tell "nothing relevant" from "something". The absolute score of a
    candidate normalises nothing against the others: a keyword match counts the share of the query's words
    (by their IDFs) it holds, a vector match its cosine above ``cosine_floor`` (the cosine of unrelated texts
    for the embedder: ``(cos - floor) / (1 - floor)``, at least 0), the sum weighed by ``weights`` over
    their total. ``normalization="absolute"`` (linear fusion) ranks by it; ``calibrate`` keeps the ranking
    and scales the results' scores so that the best shows the best candidate's absolute score, the others in
    proportion. Either way a hit's score is about 0 when nothing of the query matched and near 1 when all of
    it did, and a floor (``Memory.recall(min_score=...)``) applies (:attr:`calibrated`).

    Re-ranking (boosts, each adding ``weight`` times the best fused score to the items it favours; 0 = off):
    ``speaker_boost`` when the query names the speaker of a message or the owner/subject of a fact (a query
    in the first person, "any tips for my baking?", names the user the search is for);
    ``time_boost`` when the query names a time ("last week", "in May", "two days ago" — relative to the
    ``now`` of the search) and the item was created in it (``time_slack_days`` extends that range forward,
    since people talk about events after they happen); ``time_mode="hard"`` turns the time into a filter
    instead, ``"off"`` ignores it; ``recency_weight`` favours recent items (half-life
    ``recency_half_life_days``); ``importance_weight`` favours important facts. ``dedup_similarity``
    below 1.0 drops a hit whose words overlap a better hit's at least that much (Jaccard; 1.0 = off).

    Presentation: ``window_before``/``window_after`` neighbouring messages of the same thread are shown with
    a message hit, nearest first, while the window stays within ``window_max_tokens`` (0 = no cap);
    overlapping or touching windows of one thread merge into one hit while it stays within
    ``window_merge_max_tokens`` (0 = no cap; beyond it a hit of its own shows only turns not shown yet).
    ``beyond_window`` (0 = off): the turns just beyond the window of each of the best that many message
    candidates (``window_before + 1`` turns before, ``window_after + 1`` after) join the candidates, when no
    retriever found them, at ``beyond_window_score`` times that candidate's score, so the boosts (the
    neighbour boost first) can rank them: the answer to a question is often the same speaker's next turn
    after the best match, which no word of the question matches and the window stops short of.
    """

    name: str
    retrievers: tuple[str, ...] = ("keyword", "vector")
    weights: dict[str, float] = field(default_factory=dict)
    kind_weights: dict[str, dict[str, float]] = field(default_factory=dict)
    fusion: Fusion = "rrf"
    normalization: Normalization = "minmax"
    min_spread: float = 0.0
    keyword_coverage: float = 0.0
    cosine_floor: float = 0.0
    calibrate: bool = False
    rrf_k: int = 60
    candidates_per_result: int = 4
    min_candidates: int = 20
    speaker_boost: float = 0.0
    time_mode: TimeMode = "soft"
    time_boost: float = 0.0
    time_slack_days: float = 0.0
    recency_weight: float = 0.0
    recency_half_life_days: float = 30.0
    importance_weight: float = 0.0
    dedup_similarity: float = 1.0
    neighbour_boost: float = 0.0
    neighbour_radius: int = 3
    neighbour_decay: float = 0.7
    window_before: int = 0
    window_after: int = 0
    window_max_tokens: int = 0
    window_merge_max_tokens: int = 0
    beyond_window: int = 0
    beyond_window_score: float = 0.1

    def __post_init__(self) -> None:
        problems = []
        if not self.retrievers:
            problems.append("retrievers must name at least one retriever")
        if self.fusion not in FUSIONS:
            problems.append(f"fusion must be one of {', '.join(FUSIONS)}, not {self.fusion!r}")
        if self.normalization not in NORMALIZATIONS:
            problems.append(f"normalization must be one of {', '.join(NORMALIZATIONS)}, not {self.normalization!r}")
        if self.time_mode not in TIME_MODES:
            problems.append(f"time_mode must be one of {', '.join(TIME_MODES)}, not {self.time_mode!r}")
        if any(w < 0 for w in self.weights.values()):
            problems.append("weights must not be negative")
        if any(w < 0 for weights in self.kind_weights.values() for w in weights.values()):
            problems.append("kind_weights must not be negative")
        for name in ("rrf_k", "candidates_per_result", "min_candidates", "recency_half_life_days"):
            if getattr(self, name) <= 0:
                problems.append(f"{name} must be positive")
        for name in (
            "min_spread",
            "keyword_coverage",
            "speaker_boost",
            "time_boost",
            "time_slack_days",
            "recency_weight",
            "importance_weight",
            "neighbour_boost",
            "neighbour_radius",
            "window_before",
            "window_after",
            "window_max_tokens",
            "window_merge_max_tokens",
            "beyond_window",
        ):
            if getattr(self, name) < 0:
                problems.append(f"{name} must not be negative")
        if not 0 <= self.cosine_floor < 1:
            problems.append("cosine_floor must be in [0, 1)")
        if not 0 <= self.neighbour_decay <= 1:
            problems.append("neighbour_decay must be in [0, 1]")
        if not 0 <= self.beyond_window_score <= 1:
            problems.append("beyond_window_score must be in [0, 1]")
        if not 0 < self.dedup_similarity <= 1:
            problems.append("dedup_similarity must be in (0, 1]")
        if problems:
            raise ConfigError(f"search config {self.name!r}: " + "; ".join(problems))

    @property
    def calibrated(self) -> bool:
        """Whether a hit's score means the same in every query (linear fusion of absolute scores), so that
        a floor on it (``Memory.recall``'s ``min_score``) applies."""
        return self.calibrate or (self.fusion == "linear" and self.normalization == "absolute")

    def weights_of(self, kind: str) -> dict[str, float]:
        """The weights of the retrievers' lists of items of ``kind``: its own (``kind_weights``), else ``weights``."""
        return self.kind_weights.get(kind, self.weights)

    def pool_size(self, limit: int) -> int:
        """How many candidates each retriever returns for a search of ``limit`` results."""
        return max(self.min_candidates, limit * self.candidates_per_result)


PRESETS: dict[str, SearchConfig] = {
    "keyword": SearchConfig(name="keyword", retrievers=("keyword",)),
    "vector": SearchConfig(name="vector", retrievers=("vector",)),
    # The plain fusion of both retrievers, kept as the reference the default must beat.
    "hybrid": SearchConfig(name="hybrid", retrievers=("keyword", "vector")),
    "default": SearchConfig(
        name="default",
        retrievers=("keyword", "vector"),
        fusion="linear",
        calibrate=True,
        cosine_floor=0.2,
        weights={"keyword": 1.0, "vector": 0.8},
        # Facts weigh their two halves alike: +0.010 recall@5 on LoCoMo's observations (0.016 on the conversations
        # held out of the choice), recall@10 level; messages keep 0.8 (bench/RESULTS.md, issue 38, fact-recall).
        kind_weights={"fact": {"keyword": 1.0, "vector": 1.0}},
        # Pools of 3 x limit (75 for 25 results): recall level with 4 x, ~0.7 ms less work a query (round 15).
        candidates_per_result=3,
        min_spread=0.5,
        keyword_coverage=0.5,
        speaker_boost=0.25,
        time_boost=0.5,
        neighbour_boost=0.3,
        window_before=1,
        window_after=1,
        window_max_tokens=45,
        window_merge_max_tokens=200,
        beyond_window=10,
    ),
}
# The default's ranking with one item per hit, no neighbouring turns: for callers that show or count
# single messages.
PRESETS["turns"] = replace(PRESETS["default"], name="turns", window_before=0, window_after=0)


def get_preset(name: str) -> SearchConfig:
    """The named preset.

    Raises:
        ConfigError: no preset has that name.
    """
    try:
        return PRESETS[name]
    except (KeyError, TypeError):
        raise ConfigError(f"unknown search preset {name!r}; known: {', '.join(sorted(PRESETS))}") from None
