"""Recall quality and behaviour: hybrid search, time-aware queries, windows, grouping, presets, scopes.

Real SQLite files in a temp dir; the deterministic ``FakeEmbedder`` where meaning does not matter, the
real MiniLM model (loaded once for the module) where it does.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from memlane import Memory, load_settings
from memlane.embeddings import FakeEmbedder, OnnxMiniLMEmbedder
from memlane.errors import ConfigError, InvalidInput
from memlane.retrieval import PRESETS, SearchConfig, find_time_range, get_preset
from memlane.types import HitGroup

NOW = datetime(2025, 6, 11, 18, 0, tzinfo=UTC)  # a Wednesday


def _settings():  # type: ignore[no-untyped-def]
    return load_settings(embedder="none", worker="none")


@pytest.fixture(scope="module")
def minilm() -> OnnxMiniLMEmbedder:
    return OnnxMiniLMEmbedder()


@pytest.fixture
def fake_mem(tmp_path: Path) -> Iterator[Memory]:
    with Memory(tmp_path / "m.db", agent="bot", settings=_settings(), embedder=FakeEmbedder(), clock=lambda: NOW) as m:
        yield m


@pytest.fixture
def real_mem(tmp_path: Path, minilm: OnnxMiniLMEmbedder) -> Iterator[Memory]:
    with Memory(tmp_path / "r.db", agent="bot", settings=_settings(), embedder=minilm, clock=lambda: NOW) as m:
        yield m


FILLER = [
    "The quarterly report is due on Friday.",
    "I need to buy new running shoes soon.",
    "Our team meeting moved to the big conference room.",
    "The weather has been rainy all week.",
    "I finished reading a novel about sailors.",
    "My sister is visiting next month.",
    "The coffee machine at work is broken again.",
    "We watched a documentary about volcanoes.",
]


def _chat(mem: Memory, thread: str, texts: list[str], *, user: str = "ana", start: datetime | None = None) -> list[int]:
    start = start or NOW - timedelta(days=30)
    items = [
        {"role": "user", "content": t, "user": user, "name": user, "created_at": start + timedelta(minutes=i)}
        for i, t in enumerate(texts)
    ]
    return [m.id for m in mem.add_messages(thread, items)]


# -- hybrid: each retriever covers the other's blind spot --------------------------------------------
def test_hybrid_finds_a_paraphrase_that_keyword_search_misses(real_mem: Memory) -> None:
    (target,) = _chat(real_mem, "t1", ["We adopted a golden retriever puppy from the shelter."])
    _chat(real_mem, "t2", FILLER)

    for question in ("Is there a dog in the family?", "Does Ana have a dog?"):
        keyword = real_mem.recall(question, limit=3, preset="keyword")
        hybrid = real_mem.recall(question, limit=3)
        assert target not in {i for h in keyword for i in h.message_ids}
        assert target in {h.message_id for h in hybrid}
    # Only a name matches by keyword: every message is Ana's, so that match says nothing, and the
    # meaning wins (unless neighbouring turns outweigh it, as for "Does Ana have a dog?").
    assert real_mem.recall("Is there a dog in the family?", limit=3)[0].message_id == target


def test_hybrid_finds_an_exact_rare_token_that_the_dense_model_misses(real_mem: Memory) -> None:
    texts = [
        "Our wifi network is called HomeNet and the router is upstairs.",
        "The wifi password changed last week, ask Ana.",
        "I reset the wifi router twice today.",
        "kumquat-8812 is what you type on the login screen",
        *FILLER,
    ]
    ids = _chat(real_mem, "notes", texts)
    question = "is kumquat-8812 the wifi password?"

    dense = real_mem.recall(question, limit=1, preset="vector")
    hybrid = real_mem.recall(question, limit=1)

    assert dense[0].message_id != ids[3]  # the model hears "wifi password", not the token
    assert hybrid[0].message_id == ids[3]


# -- time-aware queries ------------------------------------------------------------------------------
def test_a_time_in_the_query_favours_messages_of_that_time(fake_mem: Memory) -> None:
    _chat(fake_mem, "filler", FILLER, start=NOW - timedelta(days=200))
    (old,) = _chat(fake_mem, "march", ["I went hiking in the hills"], start=NOW - timedelta(days=90))
    (recent,) = _chat(fake_mem, "june", ["I went hiking in the hills"], start=NOW - timedelta(days=7))
    bare = replace(get_preset("default"), name="bare", window_before=0, window_after=0)

    # The order is tested, not the floor: "what did I do" holds no word to match (min_score=0 shows all).
    last_week = fake_mem.recall("what did I do last week", limit=2, now=NOW, preset=bare, min_score=0)
    months_ago = fake_mem.recall("what did I do three months ago", limit=2, now=NOW, preset=bare, min_score=0)
    hiking = fake_mem.recall("where did I go hiking last week", limit=3, now=NOW, preset=bare, min_score=0)

    assert last_week[0].message_id == recent
    assert months_ago[0].message_id == old
    assert [h.message_id for h in hiking[:2]] == [recent, old]  # a soft boost: the other one is still found


def test_now_defaults_to_the_memory_clock_and_anchors_relative_times(tmp_path: Path) -> None:
    clock_now = [NOW]
    with Memory(
        tmp_path / "c.db", agent="bot", settings=_settings(), embedder=FakeEmbedder(), clock=lambda: clock_now[0]
    ) as mem:
        (a,) = _chat(mem, "a", ["we talked about the garden"], start=NOW - timedelta(days=1))
        (b,) = _chat(mem, "b", ["we talked about the garden"], start=NOW - timedelta(days=40))
        assert mem.recall("what did we talk about yesterday", limit=1)[0].message_id == a
        clock_now[0] = NOW - timedelta(days=39)  # now "yesterday" is the day of b
        assert mem.recall("what did we talk about yesterday", limit=1)[0].message_id == b
        # an explicit now wins over the clock
        assert mem.recall("what did we talk about yesterday", limit=1, now=NOW)[0].message_id == a


def test_hard_time_mode_filters_and_off_mode_ignores_the_time(fake_mem: Memory) -> None:
    (old,) = _chat(fake_mem, "old", ["pizza night with friends, pizza"], start=NOW - timedelta(days=90))
    (new,) = _chat(fake_mem, "new", ["pizza night with friends"], start=NOW - timedelta(days=8))
    hard = replace(get_preset("default"), name="hard", time_mode="hard")
    off = replace(get_preset("default"), name="off", time_mode="off")

    assert [h.message_id for h in fake_mem.recall("pizza last week", limit=5, preset=hard, now=NOW)] == [new]
    assert next(h.message_id for h in fake_mem.recall("pizza last week", limit=5, preset=off, now=NOW)) == old


@pytest.mark.parametrize(
    ("query", "start", "end"),
    [
        ("what did I do last week", datetime(2025, 6, 2), datetime(2025, 6, 9)),
        ("what did we discuss yesterday?", datetime(2025, 6, 10), datetime(2025, 6, 11)),
        ("the day before yesterday", datetime(2025, 6, 9), datetime(2025, 6, 10)),
        ("two days ago", datetime(2025, 6, 9), datetime(2025, 6, 10)),
        ("what did I buy last month", datetime(2025, 5, 1), datetime(2025, 6, 1)),
        ("trips in May", datetime(2025, 5, 1), datetime(2025, 6, 1)),
        ("trips in August", datetime(2024, 8, 1), datetime(2024, 9, 1)),  # the last August before now
        ("what happened in 2023", datetime(2023, 1, 1), datetime(2024, 1, 1)),
        ("plans for March 2024", datetime(2024, 3, 1), datetime(2024, 4, 1)),
        ("on 3rd May 2025", datetime(2025, 5, 3), datetime(2025, 5, 4)),
        ("what did I say on Monday", datetime(2025, 6, 9), datetime(2025, 6, 10)),
        ("last weekend", datetime(2025, 6, 7), datetime(2025, 6, 9)),
        ("in the last two weeks of August 2024", datetime(2024, 8, 1), datetime(2024, 9, 1)),
    ],
)
def test_time_expressions_become_ranges_relative_to_now(query: str, start: datetime, end: datetime) -> None:
    found, rest = find_time_range(query, NOW)
    assert found is not None
    assert (found.start, found.end) == (start.replace(tzinfo=UTC), end.replace(tzinfo=UTC))
    assert found.text not in rest


@pytest.mark.parametrize("query", ["May I ask what you like?", "the march of progress", "When did Ana move?"])
def test_words_that_only_sometimes_mean_a_time_are_left_alone(query: str) -> None:
    assert find_time_range(query, NOW) == (None, query)


# -- read your writes --------------------------------------------------------------------------------
def test_a_message_is_recallable_as_soon_as_add_message_returns(fake_mem: Memory) -> None:
    _chat(fake_mem, "t", FILLER)
    for i in range(5):
        stored = fake_mem.add_message("t", "user", f"my locker number is {4410 + i}", user="ana")
        hits = fake_mem.recall(f"locker number {4410 + i}", limit=1)
        assert hits[0].message_id == stored.id


def test_a_fact_is_recallable_as_soon_as_remember_returns(fake_mem: Memory) -> None:
    fact = fake_mem.remember("Ana is allergic to peanuts", user="ana", category="fact")
    hits = fake_mem.recall("peanut allergy", user="ana", kinds=["fact"], limit=1)
    assert [(h.kind, h.id) for h in hits] == [("fact", fact.id)]
    changed = fake_mem.update_fact(fact.id, content="Ana is allergic to cashews", user="ana")
    assert fake_mem.recall("cashews", user="ana", kinds=["fact"], limit=1)[0].id == changed.id


# -- windows -----------------------------------------------------------------------------------------
def test_a_message_hit_shows_its_neighbours_within_the_configured_window(fake_mem: Memory) -> None:
    ids = _chat(fake_mem, "t", [f"turn {i} about nothing much" for i in range(5)])
    ids += _chat(fake_mem, "t", ["Did you ever go to Lisbon?", "Yes, twice, we loved the trams!", "Nice."])
    ids += _chat(fake_mem, "t", [f"turn {i} about other things" for i in range(5, 10)])
    config = SearchConfig(name="w", window_before=1, window_after=1)

    (hit,) = fake_mem.recall("Lisbon", limit=1, preset=config)

    assert hit.message_id == ids[5]
    assert hit.message_ids == (ids[4], ids[5], ids[6])  # in thread order, the match in the middle
    assert hit.user is None
    assert hit.text.splitlines() == [
        "ana: turn 4 about nothing much",
        "ana: Did you ever go to Lisbon?",
        "ana: Yes, twice, we loved the trams!",
    ]


def test_windows_respect_the_token_cap_and_merge_when_they_touch(fake_mem: Memory) -> None:
    long_turn = "word " * 300
    ids = _chat(fake_mem, "t", ["apples are red", long_turn, "the apple pie", "bananas", "cherries"])
    capped = SearchConfig(name="cap", retrievers=("keyword",), window_before=1, window_after=1, window_max_tokens=60)
    hits = fake_mem.recall("apple", limit=5, preset=capped)
    covered = [h.message_ids for h in hits]
    assert all(ids[1] not in c for c in covered)  # the long neighbour would break the cap
    assert sorted(i for c in covered for i in c) == sorted(set(i for c in covered for i in c))  # no turn twice

    wide = SearchConfig(name="wide", retrievers=("keyword",), window_before=1, window_after=1)
    (merged,) = fake_mem.recall("apple", limit=5, preset=wide)  # windows of turns 0 and 2 touch: one hit
    assert merged.message_ids == (ids[0], ids[1], ids[2], ids[3])


def test_without_a_window_hits_are_single_turns(fake_mem: Memory) -> None:
    _chat(fake_mem, "t", ["one", "Lisbon trams", "three"])
    config = replace(get_preset("default"), name="bare", window_before=0, window_after=0)
    (hit,) = fake_mem.recall("Lisbon", limit=1, preset=config)
    assert (hit.text, hit.user, len(hit.message_ids)) == ("Lisbon trams", "ana", 1)


# -- grouping ----------------------------------------------------------------------------------------
def test_recall_groups_hits_by_thread(fake_mem: Memory) -> None:
    _chat(fake_mem, "monday", ["tea with milk", "weather talk", "more tea please"], start=NOW - timedelta(days=3))
    _chat(fake_mem, "friday", ["green tea is best"], start=NOW - timedelta(days=1))
    _chat(fake_mem, "other", ["unrelated chat about cars"])
    bare = replace(get_preset("default"), name="bare", window_before=0, window_after=0)

    flat = fake_mem.recall("tea", limit=3, preset=bare)
    groups = fake_mem.recall("tea", limit=3, preset=bare, group_by="thread")

    assert all(isinstance(g, HitGroup) for g in groups)
    assert {g.thread for g in groups} == {"monday", "friday"}
    assert sorted(h.message_id for g in groups for h in g.hits) == sorted(h.message_id for h in flat)
    assert groups[0].score == max(h.score for h in flat)
    assert [g.score for g in groups] == sorted((g.score for g in groups), reverse=True)
    for g in groups:
        assert [h.created_at for h in g.hits] == sorted(h.created_at for h in g.hits)
    with pytest.raises(InvalidInput):
        fake_mem.recall("tea", group_by="user")  # type: ignore[call-overload]


# -- presets are data --------------------------------------------------------------------------------
@pytest.mark.parametrize("name", sorted(PRESETS))
def test_every_preset_runs_and_returns_hits(fake_mem: Memory, name: str) -> None:
    _chat(fake_mem, "t", [*FILLER, "the volcano documentary was great"])
    fake_mem.remember("Ana loves volcanoes", user="ana")
    hits = fake_mem.recall("volcano documentary", user="ana", limit=3, preset=name)
    assert hits
    assert PRESETS[name].name == name


def test_unknown_presets_and_invalid_configs_are_config_errors(fake_mem: Memory) -> None:
    with pytest.raises(ConfigError, match="unknown search preset"):
        fake_mem.recall("anything", preset="no-such-preset")
    with pytest.raises(ConfigError, match="fusion"):
        SearchConfig(name="bad", fusion="max")  # type: ignore[arg-type]
    with pytest.raises(ConfigError, match="window_before"):
        SearchConfig(name="bad", window_before=-1)
    with pytest.raises(ConfigError, match="unknown retriever"):
        fake_mem.recall("anything", preset=SearchConfig(name="bad", retrievers=("telepathy",)))


def test_each_retriever_is_asked_for_the_pool_the_preset_sets(fake_mem: Memory) -> None:
    _chat(fake_mem, "t", [*FILLER, "the volcano documentary was great"])
    asked: dict[str, list[int]] = {}
    for name, retriever in list(fake_mem.searcher.retrievers.items()):

        def recording(agent, query, scope, limit, name=name, retriever=retriever):  # type: ignore[no-untyped-def]
            asked.setdefault(name, []).append(limit)
            return retriever(agent, query, scope, limit)

        fake_mem.searcher.retrievers[name] = recording
    fake_mem.recall("volcano documentary", limit=25)  # the default: 3 x the results asked
    fake_mem.recall("volcano documentary", limit=4)  # never fewer than min_candidates
    default = get_preset("default")
    assert default.candidates_per_result == 3 and default.min_candidates == 20
    assert asked == {"keyword": [75, 20], "vector": [75, 20]}
    assert fake_mem.recall("volcano", limit=4, preset=replace(default, candidates_per_result=8))
    assert asked["keyword"][-1] == 32 and asked["vector"][-1] == 32


def test_a_config_is_a_frozen_value(fake_mem: Memory) -> None:
    config = get_preset("default")
    with pytest.raises(AttributeError):
        config.fusion = "rrf"  # type: ignore[misc]
    assert replace(config, window_after=0).window_after == 0


# -- scopes are filters inside the search ------------------------------------------------------------
def test_other_agents_and_other_users_best_matches_are_never_returned(fake_mem: Memory) -> None:
    text = "the secret recipe uses saffron and cardamom"
    other_agent = fake_mem.for_agent("other-bot")
    _chat(other_agent, "theirs", [text] * 5, user="ana")
    _chat(fake_mem, "bob-thread", [text] * 5, user="bob")
    fake_mem.remember(text, user="bob")
    mine = _chat(fake_mem, "ana-thread", ["a recipe with saffron", *FILLER], user="ana")
    my_fact = fake_mem.remember("Ana likes cardamom", user="ana")

    hits = fake_mem.recall(text, user="ana", limit=10)

    assert hits
    assert {h.thread for h in hits if h.kind == "message"} == {"ana-thread"}
    assert {h.id for h in hits if h.kind == "fact"} == {my_fact.id}
    assert all(i in mine for h in hits for i in h.message_ids)


def test_a_filtered_query_still_fills_its_limit_when_allowed_items_are_few(fake_mem: Memory) -> None:
    # 300 close matches in bob's threads outrank everything ana may see.
    for t in range(3):
        _chat(fake_mem, f"bob-{t}", [f"garden tomatoes and basil, note {i}" for i in range(100)], user="bob")
    _chat(fake_mem, "ana-1", ["tomatoes in the garden", "weather", "basil pesto", "cars"], user="ana")
    _chat(fake_mem, "ana-2", ["garden party", "tomato soup", "chess"], user="ana")
    bare = replace(get_preset("default"), name="bare", window_before=0, window_after=0)

    hits = fake_mem.recall("garden tomatoes and basil", user="ana", limit=7, preset=bare, min_score=0)

    assert len(hits) == 7
    assert {h.thread for h in hits} == {"ana-1", "ana-2"}


def test_a_time_filter_keeps_the_limit_and_the_range(fake_mem: Memory) -> None:
    for day in range(60):
        _chat(fake_mem, f"d{day}", [f"daily standup notes, day {day}"], start=NOW - timedelta(days=day, hours=1))
    since, until = NOW - timedelta(days=10), NOW - timedelta(days=5)
    hits = fake_mem.recall("standup notes", limit=5, since=since, until=until)
    assert len(hits) == 5
    assert all(since <= h.created_at < until for h in hits)


# -- context -----------------------------------------------------------------------------------------
def test_context_fills_related_memories_from_recall_within_budget(fake_mem: Memory) -> None:
    _chat(fake_mem, "old", ["We booked the cabin by Lake Tahoe for July", *FILLER], start=NOW - timedelta(days=60))
    _chat(fake_mem, "now", [f"small talk {i}" for i in range(5)], start=NOW - timedelta(minutes=10))

    ctx = fake_mem.context("now", query="where is the cabin we booked?", budget=800)

    assert ctx.tokens <= 800
    assert any("Lake Tahoe" in h.text for h in ctx.recalled)
    assert "Lake Tahoe" in ctx.system_text()


# -- the store method behind windows -----------------------------------------------------------------
def test_message_windows_in_one_query_equal_the_portable_default(fake_mem: Memory) -> None:
    from memlane.store.base import Store

    a = _chat(fake_mem, "a", [f"a{i}" for i in range(6)])
    b = _chat(fake_mem, "b", [f"b{i}" for i in range(3)])
    other = _chat(fake_mem.for_agent("other"), "a", ["x", "y"])
    ids = [a[0], a[3], a[4], b[2], other[0], 999_999]

    fast = fake_mem.store.message_windows("bot", ids, before=1, after=1)
    portable = Store.message_windows(fake_mem.store, "bot", ids, before=1, after=1)

    assert [m.id for m in fast] == [m.id for m in portable] == [a[0], a[1], a[2], a[3], a[4], a[5], b[1], b[2]]
    assert fake_mem.store.message_windows("bot", [], before=1, after=1) == []

    # The turns a caller has already are left out (a skipped anchor still brings its neighbours).
    skip = {a[1], a[3], b[2]}
    fast = fake_mem.store.message_windows("bot", ids, before=1, after=1, skip=skip)
    portable = Store.message_windows(fake_mem.store, "bot", ids, before=1, after=1, skip=skip)
    assert [m.id for m in fast] == [m.id for m in portable] == [a[0], a[2], a[4], a[5], b[1]]


# -- the steps are pure functions --------------------------------------------------------------------
def test_linear_fusion_normalises_each_list_per_kind_and_weighs_the_lists() -> None:
    from memlane.retrieval import linear
    from memlane.store.base import Candidate

    keyword = [Candidate("message", 1, 12.0), Candidate("message", 2, 6.0), Candidate("fact", 7, 0.5)]
    vector = [Candidate("message", 2, 0.9), Candidate("message", 3, 0.3)]
    fused = linear({"keyword": keyword, "vector": vector}, weights={"keyword": 1.0, "vector": 0.5})
    scores = {(c.kind, c.id): round(c.score, 6) for c in fused}
    # message 1 tops keyword (1.0); message 2 is the keyword minimum (0) but tops vector (0.5);
    # the fact is alone in its kind, so it counts as that kind's best (1.0).
    assert scores == {("message", 1): 1.0, ("message", 2): 0.5, ("fact", 7): 1.0, ("message", 3): 0.0}
    assert fused[0].source == "keyword"


def test_a_keyword_list_that_holds_little_of_the_query_weighs_less() -> None:
    from memlane.retrieval import linear
    from memlane.store.base import Candidate

    def fuse(held: float | None, coverage: float = 0.5) -> dict[int, float]:
        keyword = [Candidate("message", 1, 3.0, coverage=held), Candidate("message", 2, 1.0, coverage=held)]
        vector = [Candidate("message", 3, 0.9), Candidate("message", 1, 0.2)]
        lists = {"keyword": keyword, "vector": vector}
        fused = linear(lists, weights={"keyword": 1.0, "vector": 0.5}, coverage=coverage)
        return {c.id: round(c.score, 6) for c in fused}

    # The best keyword match holds a fifth of the query: the list keeps (0.2 / 0.5)^2 of its weight, and
    # the vector retriever's best (0.5) now outranks it.
    assert fuse(0.2) == {1: 0.16, 3: 0.5, 2: 0.0}
    # Holding at least the threshold, without a coverage, or with the rule off: the plain fusion.
    plain = {1: 1.0, 3: 0.5, 2: 0.0}
    assert fuse(0.5) == fuse(0.9) == fuse(None) == fuse(0.2, coverage=0.0) == plain


def test_a_match_of_only_a_common_word_of_the_question_does_not_bury_what_it_means(real_mem: Memory) -> None:
    chat = [*FILLER, "He tipped the taxi driver far too much.", "I can't believe how expensive rent has become."]
    chat += [
        "I've been really into sourdough lately, I feed my starter every morning.",
        "The kids start school Monday.",
    ]
    ids = _chat(real_mem, "t", chat, user="sam")
    taxi, sourdough = ids[8], ids[10]
    question = "Any tips for my weekend baking?"
    (only,) = real_mem.recall(question, limit=50, preset="keyword")  # "tips": the one keyword match
    assert only.message_id == taxi
    # The match holds "tips", a small part of the question ("baking" and "weekend" are in no message): the
    # keyword list keeps little of its weight, and the turn that means baking comes first.
    # The order is tested, not the floor (min_score=0).
    assert [h.message_id for h in real_mem.recall(question, limit=3, preset="turns", min_score=0)][:1] == [sourdough]
    plain = replace(get_preset("turns"), keyword_coverage=0.0)
    assert [h.message_id for h in real_mem.recall(question, limit=3, preset=plain)][:2] == [taxi, sourdough]


def _found(seq: int, score: float, thread: str = "t", name: str = "ana") -> object:
    from memlane.retrieval import Found
    from memlane.types import Message

    msg = Message(seq, "bot", thread, seq, "user", f"turn {seq}", name, name, None, None, 3, {}, NOW)
    return Found("message", seq, score, "keyword", msg)


def test_boosts_add_a_share_of_the_best_score_and_lift_neighbours_of_good_matches() -> None:
    from memlane.retrieval import rerank

    found = [_found(1, 1.0), _found(9, 0.5), _found(4, 0.45), _found(5, 0.0, name="bob")]
    by_speaker = rerank.boost_speaker(found, rerank.query_words("what did Bob say?"), 0.5)
    assert [(f.id, f.score) for f in by_speaker][:2] == [(1, 1.0), (9, 0.5)]
    assert next(f.score for f in by_speaker if f.id == 5) == 0.5  # 0 + 0.5 x the best score

    near = rerank.boost_neighbours(found, 0.3, radius=3, decay=0.5)
    assert [f.id for f in near] == [1, 4, 9, 5]  # 4 sits three turns from the best match, 9 is alone
    assert near[1].score == pytest.approx(0.45 + 0.3 * 0.25)
    assert rerank.boost_neighbours(found, 0.0) == found


def test_a_query_in_the_first_person_names_the_user_the_search_is_for() -> None:
    from memlane.retrieval import rerank

    found = [_found(1, 1.0, name="bob"), _found(2, 0.8, name="ana")]
    mine = rerank.boost_speaker(found, rerank.query_words("any tips for my weekend baking?"), 0.5, asker="ana")
    assert [(f.id, f.score) for f in mine] == [(2, 1.3), (1, 1.0)]
    # Without an asker, or in the third person, "ana" is not named.
    assert rerank.boost_speaker(found, rerank.query_words("any tips for my weekend baking?"), 0.5) == found
    assert rerank.boost_speaker(found, rerank.query_words("tips for weekend baking?"), 0.5, asker="ana") == found


def test_recall_for_a_user_favours_their_own_words_when_they_ask_about_themselves(fake_mem: Memory) -> None:
    start = NOW - timedelta(days=3)
    items = [
        {"role": "user", "content": text, "user": who, "name": who, "created_at": start + timedelta(minutes=i)}
        for i, (who, text) in enumerate(
            [
                ("bob", "Baking bread is my weekend plan."),
                ("bob", "The oven at the bakery broke."),
                ("ana", "These days I mostly bake sourdough."),
                ("bob", "Anyway, how was the film?"),
            ]
        )
    ]
    ids = [m.id for m in fake_mem.add_messages("kitchen", items)]
    strong = replace(get_preset("turns"), speaker_boost=2.0)  # a named speaker's turns come first
    anyone = fake_mem.recall("baking tips for my weekend?", limit=2, preset=strong)
    assert anyone[0].id == ids[0]  # bob's turn matches more words
    asked = fake_mem.recall("baking tips for my weekend?", limit=2, preset=strong, user="ana")
    assert asked[0].id == ids[2]  # ana asks about herself: "my" names her
    about_bob = fake_mem.recall("baking tips for Bob's weekend?", limit=2, preset=strong, user="ana")
    assert about_bob[0].id == ids[0]  # in the third person, the asker is not named


def test_a_time_window_must_be_datetimes_in_order_and_naive_times_are_utc(fake_mem: Memory) -> None:
    fake_mem.add_message("t", "user", "the boiler was serviced", created_at=datetime(2026, 3, 1, 12, tzinfo=UTC))
    naive = fake_mem.recall("boiler", since=datetime(2026, 3, 1), until=datetime(2026, 3, 2))
    aware_ = fake_mem.recall("boiler", since=datetime(2026, 3, 1, tzinfo=UTC), until=datetime(2026, 3, 2, tzinfo=UTC))
    assert [h.id for h in naive] == [h.id for h in aware_] and naive
    with pytest.raises(InvalidInput, match="before"):
        fake_mem.recall("boiler", since=datetime(2026, 3, 2, tzinfo=UTC), until=datetime(2026, 3, 1, tzinfo=UTC))
    with pytest.raises(InvalidInput, match="datetime"):
        fake_mem.recall("boiler", since="2026-03-01")  # type: ignore[arg-type]
    with pytest.raises(InvalidInput):
        fake_mem.facts(thread="")
    with pytest.raises(InvalidInput):
        fake_mem.forget_all("alice", subject=" ")
