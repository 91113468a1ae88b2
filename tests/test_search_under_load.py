"""A search runs its retrievers side by side only while it is the only search of the process: under load the
other requests keep the cores busy, and the hand-overs and reading ahead of side-by-side steps cost CPU
(bench/RESULTS.md, issue 39). The results are the same either way."""

from __future__ import annotations

import threading
from dataclasses import replace
from pathlib import Path

from memlane import Memory, load_settings
from memlane.retrieval import engine
from memlane.retrieval.config import get_preset
from memlane.store.base import Candidate, Scope


def test_retrievers_run_side_by_side_only_while_the_search_runs_alone(tmp_path: Path) -> None:
    with Memory(tmp_path / "s.db", agent="bot", settings=load_settings(embedder="fake", worker="none")) as mem:
        for n in range(12):
            mem.add_message("t", "user", f"note {n} about hiking in the alps", user="alice")
        mem.flush()
        where: list[str] = []
        keyword = mem.searcher.retrievers["keyword"]

        def probe(agent: str, text: str, scope: Scope, limit: int) -> list[Candidate]:
            where.append(threading.current_thread().name)
            return keyword(agent, text, scope, limit)

        mem.searcher.retrievers["probe"] = probe
        config = replace(get_preset("default"), name="probe", retrievers=("keyword", "probe"))
        assert mem.searcher.concurrent  # SQLite reads on a connection per thread

        def search() -> list[int]:
            found = mem.searcher.search("bot", "hiking alps", Scope(user="alice"), 5, config)
            return [f.id for f in found]

        alone = search()
        assert where[-1].startswith("memlane-search")  # on a search thread, beside the keyword search
        with engine._SEARCHES.one():  # another search under way in this process
            busy = search()
        assert where[-1] == threading.current_thread().name  # one after another, here
        assert busy == alone and alone
