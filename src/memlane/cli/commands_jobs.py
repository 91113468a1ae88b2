"""Background work: ``memlane jobs`` (the queue and its dead letters), ``memlane worker`` and ``memlane stats``."""

from __future__ import annotations

import signal
import threading
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime
from functools import partial
from types import FrameType
from typing import Annotated, Any

import typer
from rich.table import Table
from rich.text import Text

from memlane import Memory
from memlane.errors import InvalidInput
from memlane.pipeline.usage import BudgetStatus, UsageTotals
from memlane.pipeline.worker import JobOutcome, Worker
from memlane.types import Job

from .render import console, emit_json, plural, to_jsonable, when
from .state import CliState, get_state, require_store

__all__ = ["jobs", "register", "stats", "worker"]

JOB_STATUSES = ("pending", "running", "done", "dead")


def _open(state: CliState, *, for_work: bool = False) -> Memory:
    """The memory the global options name, without a background worker of its own.

    Only ``for_work`` builds the embedder and LLM client from settings (jobs need them; listing does not).
    Listing needs the store to exist (a mistyped --db is an error, not a new empty store); a worker may
    start before anything was written, like any long-lived process of an app.
    """
    from memlane import load_settings  # pydantic: only for a command that opens a store

    settings = load_settings(state.config, worker="none")
    if not for_work:
        require_store(state.location(settings))
    if for_work:
        return Memory(state.db, agent=state.agent, settings=settings)
    return Memory(state.db, agent=state.agent, settings=settings, embedder=None, llm=None, check_model=False)


def _clip(text: str | None, size: int = 60) -> str:
    text = " ".join((text or "").split())
    return text if len(text) <= size else text[: size - 1] + "…"


def jobs_table(found: Sequence[Job], *, show_agent: bool) -> Table:
    """Jobs, newest first: what, state, attempts, when it may run next (or who holds it), what went wrong."""
    table = Table(title="Jobs")
    table.add_column("id", justify="right")
    if show_agent:
        table.add_column("agent")
    table.add_column("kind")
    table.add_column("status")
    table.add_column("tries", justify="right")
    table.add_column("next run / lease", no_wrap=True)
    table.add_column("last error", overflow="fold")
    styles = {"dead": "bold red", "running": "yellow", "done": "green"}
    for job in found:
        if job.status == "pending":
            timing = when(job.run_after)
        elif job.status == "running":
            timing = f"{job.lease_owner} until {when(job.lease_expires_at)}"
        else:
            timing = ""
        row: list[str | Text] = [str(job.id)]
        if show_agent:
            row.append(Text(job.agent))
        row += [
            Text(job.kind),
            Text(job.status, style=styles.get(job.status, "")),
            f"{job.attempts}/{job.max_attempts}",
            Text(timing),
            Text(_clip(job.last_error, 200), style="dim"),
        ]
        table.add_row(*row)
    return table


def jobs(
    ctx: typer.Context,
    status: Annotated[
        str | None, typer.Option("--status", "-s", help="Only jobs in this state: pending, running, done or dead.")
    ] = None,
    kind: Annotated[str | None, typer.Option("--kind", "-k", help="Only jobs of this kind (e.g. summarize).")] = None,
    all_agents: Annotated[bool, typer.Option("--all-agents", help="Jobs of every agent, not only --agent's.")] = False,
    retry: Annotated[
        int | None,
        typer.Option("--retry", metavar="ID", help="Send this dead (or done) job back to the queue, attempts reset."),
    ] = None,
    limit: Annotated[int, typer.Option("--limit", "-l", help="At most N jobs, newest first.")] = 50,
) -> None:
    """List the background job queue (dead letters included), or put a job back into it.

    Jobs are queued by writes (new messages, an ended thread, changed facts) and run by a worker: the
    background thread of a running Memory, or `memlane worker`. A job that failed on every attempt, or
    whose input was invalid, is `dead`; fix the cause, then `--retry` it.

    Examples:

        memlane jobs

        memlane jobs --status dead --all-agents

        memlane jobs --retry 42

        memlane jobs --kind summarize --json
    """
    state = get_state(ctx)
    as_json = state.json
    if status is not None and status not in JOB_STATUSES:
        raise InvalidInput(f"--status must be one of {', '.join(JOB_STATUSES)}, not {status!r}")
    if limit < 1:
        raise InvalidInput("--limit must be at least 1")
    with _open(state) as mem:
        if retry is not None:
            job = mem.store.retry_job(retry, mem.clock()) if all_agents else mem.retry_job(retry)
            if as_json:
                emit_json(job)
            else:
                console().print(Text(f"Job {job.id} ({job.kind}, agent {job.agent}) is pending again."))
            return
        found = (
            mem.store.list_jobs(None, status=status, kind=kind, limit=limit)
            if all_agents
            else mem.jobs(status=status, kind=kind, limit=limit)
        )
        agent = mem.agent
    _print_jobs(found, agent, all_agents=all_agents, as_json=as_json)


def _print_jobs(found: Sequence[Job], agent: str, *, all_agents: bool, as_json: bool) -> None:
    """The jobs listed, as JSON or as a table with a count per status."""
    if as_json:
        emit_json({"agent": None if all_agents else agent, "jobs": found})
    elif not found:
        console().print(Text("No jobs." if all_agents else f"No jobs for agent {agent!r}."))
    else:
        console().print(jobs_table(found, show_agent=all_agents))
        counts = Counter(j.status for j in found)
        console().print(Text(", ".join(f"{plural(n, s + ' job')}" for s, n in sorted(counts.items())), style="dim"))


# -- worker ---------------------------------------------------------------------------------------------
@contextmanager
def _stop_on_signals(stop: threading.Event) -> Iterator[None]:
    """SIGTERM and the first Ctrl-C set ``stop`` (jobs under way finish); a second Ctrl-C interrupts."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def handle(signum: int, frame: FrameType | None) -> None:
        if stop.is_set() and signum == signal.SIGINT:
            raise KeyboardInterrupt
        typer.echo("stopping: finishing the jobs under way (Ctrl-C again to interrupt)", err=True)
        stop.set()

    previous = {sig: signal.signal(sig, handle) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield
    finally:
        for sig, old in previous.items():
            signal.signal(sig, old)


def _run_threads(targets: Sequence[Callable[[], Any]], stop: threading.Event) -> None:
    errors: list[BaseException] = []

    def guard(target: Callable[[], Any]) -> None:
        try:
            target()
        except BaseException as exc:  # reported by the main thread
            errors.append(exc)
            stop.set()

    threads = [threading.Thread(target=guard, args=(t,), name=f"memlane-worker-{i}") for i, t in enumerate(targets)]
    for thread in threads:
        thread.start()
    try:
        for thread in threads:
            while thread.is_alive():
                thread.join(0.2)  # short joins keep the main thread responsive to signals
    except KeyboardInterrupt:
        stop.set()
        for thread in threads:
            thread.join(5.0)
        raise
    if errors:
        raise errors[0]


def worker(
    ctx: typer.Context,
    concurrency: Annotated[int, typer.Option("--concurrency", "-c", help="Worker threads in this process.")] = 1,
    once: Annotated[bool, typer.Option("--once", help="Run the jobs that are ready now, then exit.")] = False,
    lease: Annotated[
        float | None,
        typer.Option(
            "--lease", metavar="S", help="Seconds a claimed job stays leased (default: worker_lease_seconds)."
        ),
    ] = None,
    poll: Annotated[
        float | None,
        typer.Option(
            "--poll", metavar="S", help="Seconds to wait when no job is ready (default: worker_poll_interval)."
        ),
    ] = None,
    batch: Annotated[
        int | None, typer.Option("--batch", help="Jobs claimed at a time (default: worker_batch).")
    ] = None,
) -> None:
    """Run queued jobs (of every agent in the database) until Ctrl-C or SIGTERM; one log line per job.

    Several workers, in one process or many, may share a database: each job is leased to one of them, and
    a job whose worker died is run again once its lease expires. Jobs of an agent whose LLM budget is low
    wait (MEMLANE_LLM_BUDGET_TOKENS) instead of failing.

    Examples:

        memlane worker

        memlane --db bot.db worker --concurrency 4

        memlane worker --once --lease 600
    """
    state = get_state(ctx)
    if concurrency < 1:
        raise InvalidInput("--concurrency must be at least 1")
    log = _OutcomeLog()
    stop = threading.Event()
    with _open(state, for_work=True) as mem:
        workers = [
            Worker(mem, lease_seconds=lease, batch=batch, poll_interval=poll, on_outcome=log)
            for _ in range(concurrency)
        ]
        for w in workers:
            w.stop_event = stop
        _run_workers(workers, stop, once=once, location=mem.store.location)
        usage = mem.usage.totals(local=True)
    _print_worker_summary(log.outcomes, usage, as_json=state.json)


class _OutcomeLog:
    """Counts the outcomes of the jobs run and logs one line per job (called from every worker thread)."""

    def __init__(self) -> None:
        self.outcomes: Counter[str] = Counter()
        self._lock = threading.Lock()

    def __call__(self, outcome: JobOutcome) -> None:
        stamp = datetime.now(UTC).isoformat(timespec="seconds").replace("+00:00", "Z")
        with self._lock:
            self.outcomes[outcome.status] += 1
            typer.echo(f"{stamp} {outcome.describe()}", err=True)


def _run_workers(workers: Sequence[Worker], stop: threading.Event, *, once: bool, location: str) -> None:
    """Run each worker in a thread of its own: the ready jobs (``once``), else until ``stop`` is set."""
    mode = "the ready jobs" if once else "jobs until stopped"
    with _stop_on_signals(stop):  # before the banner: a supervisor may signal as soon as it sees it
        typer.echo(f"memlane worker: {plural(len(workers), 'thread')} running {mode} from {location}", err=True)
        if once:
            _run_threads([partial(w.drain, None) for w in workers], stop)
        else:
            _run_threads([partial(w.run_forever, stop) for w in workers], stop)


def _print_worker_summary(outcomes: Counter[str], usage: Sequence[UsageTotals], *, as_json: bool) -> None:
    """What the worker ran, by outcome, and the LLM usage of this process."""
    total = sum(outcomes.values())
    if as_json:
        emit_json({"jobs": total, "outcomes": dict(outcomes), "usage": usage})
        return
    detail = ", ".join(f"{n} {status}" for status, n in sorted(outcomes.items()))
    typer.echo(f"memlane worker: ran {plural(total, 'job')}" + (f" ({detail})" if detail else ""), err=True)
    if usage:
        console().print(usage_table(usage, title="LLM usage of this worker"))


# -- stats ----------------------------------------------------------------------------------------------
def usage_table(totals: Sequence[UsageTotals], title: str = "LLM usage") -> Table:
    """Usage per agent and operation: calls, failures, tokens and latency."""
    table = Table(title=title)
    for name in ("agent", "operation", "calls", "failures", "prompt tok", "completion tok", "mean ms", "p95 ms"):
        table.add_column(name, justify="left" if name in ("agent", "operation") else "right")
    for t in totals:
        mean = t.mean_latency_s
        table.add_row(
            Text(t.agent),
            Text(t.operation),
            f"{t.calls:,}",
            Text(f"{t.failures:,}", style="red" if t.failures else ""),
            f"{t.prompt_tokens:,}",
            f"{t.completion_tokens:,}",
            "" if mean is None else f"{mean * 1000:,.0f}",
            "" if t.p95_latency_s is None else f"{t.p95_latency_s * 1000:,.0f}",
        )
    return table


def _budget_line(budget: BudgetStatus) -> Text:
    if not budget.limit:
        return Text(f"Agent {budget.agent}: no LLM budget set (llm_budget_tokens = 0).", style="dim")
    hours = budget.window_s / 3600
    line = (
        f"Agent {budget.agent}: {budget.spent:,} of {budget.limit:,} tokens spent in the last {hours:g} h, "
        f"{budget.remaining:,} left."
    )
    if budget.low:
        resume = f" until {budget.resume_at.isoformat(timespec='minutes')}" if budget.resume_at else ""
        return Text(line + f" Low: background LLM jobs wait{resume}.", style="bold yellow")
    return Text(line)


def stats(
    ctx: typer.Context,
    all_agents: Annotated[bool, typer.Option("--all-agents", help="Usage of every agent, not only --agent's.")] = False,
    since: Annotated[
        datetime | None,
        typer.Option("--since", help="Only calls made at or after this time (ISO-8601; naive is UTC)."),
    ] = None,
) -> None:
    """Show LLM usage per agent and operation (calls, failures, tokens, latency) and the agent's budget.

    Usage is read from the database when the store records it; otherwise only the process that made the
    calls knows it (a `memlane worker` prints its own totals when it stops), and this command says so.

    Examples:

        memlane stats

        memlane stats --all-agents

        memlane --json stats --agent my-bot

        memlane --json stats --since 2026-11-24T00:00:00
    """
    state = get_state(ctx)
    with _open(state) as mem:
        ledger = mem.usage
        totals = mem.usage_totals(since, all_agents=all_agents)
        budget = ledger.budget(mem.agent)
        backend = mem.store.backend
    if state.json:
        emit_json({"persisted": ledger.persistent, "usage": to_jsonable(totals), "budget": budget})
        return
    if not ledger.persistent:
        typer.echo(
            f"note: this {backend} store does not record LLM usage yet, so only the process that made the calls "
            "counts them (`memlane worker` prints its totals when it stops).",
            err=True,
        )
    if totals:
        console().print(usage_table(totals))
    else:
        console().print(Text("No LLM calls recorded.", style="dim"))
    console().print(_budget_line(budget))


def register(app: typer.Typer) -> None:
    """Add ``jobs``, ``worker`` and ``stats`` to the ``memlane`` command."""
    app.command("jobs")(jobs)
    app.command("worker")(worker)
    app.command("stats")(stats)
