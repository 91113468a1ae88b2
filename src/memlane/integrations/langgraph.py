"""``MemlaneStore``: a LangGraph ``BaseStore`` kept in memlane, so LangGraph agents and LangMem's memory tools
store their long-term memories in memlane (searchable with memlane's recall, isolated per memlane user).

    from memlane import Memory
    from memlane.integrations.langgraph import MemlaneStore

    store = MemlaneStore(Memory("bot.db", agent="assistant"), user="alice")
    store.put(("memories", "alice"), "m1", {"text": "Alice loves sourdough baking"})
    store.search(("memories",), query="baking tips")

Each item is one fact of the store's user (category ``langgraph``), its text the value's ``text`` (or
``content``) field, else the value as JSON; namespace, key and value are kept in the fact's metadata. Puts
replace, deletes forget (history purged). ``search`` with a query ranks through :meth:`Memory.recall`
(keyword + vector), then keeps the namespace prefix and the ``filter`` (equality on value fields); without a
query it lists. As LangGraph's own stores do, a search ranks and does not filter: it returns up to ``limit``
items whatever they match, each with its recall score (0 to 1, the same scale in every query), which a caller
may cut (``recall``'s default floor, 0.08 with the local model, would leave out "Alice is vegetarian" for
"Plan a dinner for me"). Reads by key scan the user's langgraph facts (fine up to some thousands of items; the
namespace is not indexed). Needs ``pip install 'memlane[langgraph]'``.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterable
from typing import Any

from langgraph.store.base import (
    BaseStore,
    GetOp,
    ListNamespacesOp,
    Op,
    PutOp,
    Result,
    SearchItem,
    SearchOp,
)

from ..memory import Memory
from ..types import Fact

__all__ = ["MemlaneStore"]

CATEGORY = "langgraph"
_MARK = "lg_store"  # metadata flag: recall's metadata filter keeps the store's facts only


class MemlaneStore(BaseStore):
    """A LangGraph store whose items are the facts of one memlane user (None: the agent's own facts)."""

    supports_ttl = False

    def __init__(self, memory: Memory, *, user: str | None = None, recall_pool: int = 50) -> None:
        self.memory = memory
        self.user = user
        self.recall_pool = recall_pool

    # -- BaseStore's two abstract methods -------------------------------------------------------------

    def batch(self, ops: Iterable[Op]) -> list[Result]:
        return [self._one(op) for op in ops]

    async def abatch(self, ops: Iterable[Op]) -> list[Result]:
        return await asyncio.to_thread(self.batch, list(ops))

    def _one(self, op: Op) -> Result:
        if isinstance(op, GetOp):
            found = self._find(tuple(op.namespace), op.key)
            return None if found is None else _item(found)
        if isinstance(op, PutOp):
            self._put(tuple(op.namespace), op.key, None if op.value is None else dict(op.value))
            return None
        if isinstance(op, SearchOp):
            return self._search(tuple(op.namespace_prefix), op.query, op.filter, op.limit, op.offset)
        if isinstance(op, ListNamespacesOp):
            return self._namespaces(op)
        raise TypeError(f"unknown store operation {type(op).__name__}")

    # -- operations -----------------------------------------------------------------------------------

    def _facts(self) -> list[Fact]:
        facts = self.memory.facts(self.user, category=CATEGORY)
        return [f for f in facts if f.owner == self.user and f.metadata.get(_MARK) is True]

    def _find(self, namespace: tuple[str, ...], key: str) -> Fact | None:
        for fact in self._facts():
            if tuple(fact.metadata.get("namespace", ())) == namespace and fact.metadata.get("key") == key:
                return fact
        return None

    def _put(self, namespace: tuple[str, ...], key: str, value: dict[str, Any] | None) -> None:
        existing = self._find(namespace, key)
        if value is None:
            if existing is not None:
                self.memory.forget(existing.id, user=self.user, purge=True)
            return
        metadata = {_MARK: True, "namespace": list(namespace), "key": key, "value": value}
        text = _text(value)
        if existing is not None:
            self.memory.update_fact(existing.id, content=text, metadata=metadata, user=self.user)
        else:
            self.memory.remember(text, user=self.user, category=CATEGORY, metadata=metadata)

    def _search(
        self,
        prefix: tuple[str, ...],
        query: str | None,
        where: dict[str, Any] | None,
        limit: int,
        offset: int,
    ) -> list[SearchItem]:
        ranked: list[tuple[Fact, float | None]]
        if query and query.strip():
            hits = self.memory.recall(  # ranked, not floored: a store's search returns up to `limit` items
                query, user=self.user, kinds=["fact"], limit=self.recall_pool, metadata={_MARK: True}, min_score=0
            )
            by_id = {f.id: f for f in self._facts()}
            ranked = [(by_id[h.id], h.score) for h in hits if h.id in by_id]
        else:
            ranked = [(f, None) for f in self._facts()]
        kept = [
            _item(fact, score)
            for fact, score in ranked
            if tuple(fact.metadata.get("namespace", ()))[: len(prefix)] == prefix and _matches(fact, where)
        ]
        return kept[offset : offset + limit]

    def _namespaces(self, op: ListNamespacesOp) -> list[tuple[str, ...]]:
        found = sorted({tuple(f.metadata.get("namespace", ())) for f in self._facts()})
        for condition in op.match_conditions or ():
            path = tuple(condition.path)
            if condition.match_type == "prefix":
                found = [ns for ns in found if _glob(ns[: len(path)], path)]
            else:
                found = [ns for ns in found if len(ns) >= len(path) and _glob(ns[len(ns) - len(path) :], path)]
        if op.max_depth is not None:
            found = sorted({ns[: op.max_depth] for ns in found})
        return found[op.offset : op.offset + op.limit]


def _glob(part: tuple[str, ...], path: tuple[str, ...]) -> bool:
    return len(part) == len(path) and all(p in ("*", x) for x, p in zip(part, path, strict=True))


def _text(value: dict[str, Any]) -> str:
    for field in ("text", "content", "memory"):
        if isinstance(value.get(field), str) and value[field].strip():
            return str(value[field])
    return json.dumps(value, ensure_ascii=False, sort_keys=True)


def _matches(fact: Fact, where: dict[str, Any] | None) -> bool:
    value = fact.metadata.get("value", {})
    return all(isinstance(value, dict) and value.get(k) == v for k, v in (where or {}).items())


def _item(fact: Fact, score: float | None = None) -> SearchItem:
    """The fact as the store's item (a SearchItem is an Item: ``get`` returns one too)."""
    return SearchItem(
        namespace=tuple(fact.metadata.get("namespace", ())),
        key=str(fact.metadata.get("key")),
        value=dict(fact.metadata.get("value", {})),
        created_at=fact.created_at,
        updated_at=fact.updated_at,
        score=score,
    )
