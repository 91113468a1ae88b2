"""``types.fast_init``: the records search builds by the hundred get an ``__init__`` that sets slots directly.

What would break if it were wrong: a record missing a field, sharing a default list with another record,
or no longer frozen (a cached or shared record changed in place).
"""

from __future__ import annotations

import dataclasses
import inspect
import pickle
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import pytest

from memlane.retrieval import Found
from memlane.store.base import Candidate
from memlane.types import Fact, Hit, Message, Summary, fast_init


@dataclass(frozen=True, slots=True)
class Plain:
    a: int
    b: str = "b"
    c: list[int] = field(default_factory=list)


@fast_init
@dataclass(frozen=True, slots=True)
class Quick:
    a: int
    b: str = "b"
    c: list[int] = field(default_factory=list)


def fields_of(obj: Any) -> dict[str, Any]:
    return {f.name: getattr(obj, f.name) for f in dataclasses.fields(obj)}


def test_it_builds_what_the_dataclass_init_builds() -> None:
    for args, kwargs in [((1,), {}), ((1, "x"), {}), ((1,), {"c": [2]}), ((), {"a": 3, "b": "y", "c": [4]})]:
        assert fields_of(Quick(*args, **kwargs)) == fields_of(Plain(*args, **kwargs))
    assert Quick(1) == Quick(1) and Quick(1) != Quick(2) and hash(Quick(1, "x", ())) == hash(Quick(1, "x", ()))  # type: ignore[arg-type]
    assert Quick(1).c is not Quick(1).c  # a default factory runs per instance
    assert str(inspect.signature(Quick)) == str(inspect.signature(Plain))
    with pytest.raises(TypeError):
        Quick()  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        Quick(1, "x", [], 4)  # type: ignore[call-arg]


def test_the_record_stays_frozen_and_copyable() -> None:
    q = Quick(1, "x", [2])
    with pytest.raises(dataclasses.FrozenInstanceError):
        q.a = 2  # type: ignore[misc]
    assert dataclasses.replace(q, a=5) == Quick(5, "x", [2])
    assert pickle.loads(pickle.dumps(q)) == q
    assert repr(q) == "Quick(a=1, b='x', c=[2])"


def test_a_class_it_cannot_build_is_refused() -> None:
    @dataclass(frozen=True, slots=True)
    class Checked:
        a: int

        def __post_init__(self) -> None:
            pass

    @dataclass(frozen=True, slots=True)
    class Derived:
        a: int
        b: int = field(init=False, default=0)

    for cls in (Checked, Derived):
        with pytest.raises(TypeError):
            fast_init(cls)


def test_the_search_records_use_it_and_keep_their_signatures() -> None:
    now = datetime(2026, 1, 1, tzinfo=UTC)
    m = Message(1, "a", "t", 1, "user", "hi", "ann", None, None, None, 1, {}, now)
    assert m.summarized is False and m == dataclasses.replace(m)
    hit = Hit("message", 1, "hi", 0.5, "t", 1, now)
    assert hit.metadata == {} and hit.metadata is not Hit("message", 1, "hi", 0.5, "t", 1, now).metadata
    assert Candidate("message", 1, 0.5).source == ""
    assert Found("message", 1, 0.5, "keyword", m).window == ()
    for cls in (Message, Fact, Summary, Hit, Candidate, Found):
        names = [p for p in inspect.signature(cls).parameters]
        assert names == [f.name for f in dataclasses.fields(cls)]
        assert cls.__init__.__qualname__ == f"{cls.__qualname__}.__init__"
