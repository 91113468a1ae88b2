"""Context assembly: what to send to the model for the next turn, within a token budget.

The result holds the system prompt, the latest summaries, relevant facts, recalled items and as many
recent messages as fit. Its exact size (OpenAI chat framing, the configured tokenizer) never exceeds the
budget. The memory sections share one allowance, the sum of their shares of the budget (55 % by default),
handed out by priority: what the user asked to keep in mind, then facts (most important and relevant
first), then the pipeline's sections (agent memories, the profile), summaries, and recalled turns last;
each section takes what it needs of what the sections before it left. Recent messages fill the rest. The
whole request is then counted exactly and the least valuable pieces are dropped until it fits: the oldest
turns first, then recalled turns, summaries, the pipeline's sections and facts, in that order. Tool calls
travel with their results or not at all.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from .errors import InvalidInput
from .tokens import REPLY_PRIMING, Tokenizer
from .types import Fact, Hit, Message, Summary

__all__ = [
    "ABOUT",
    "FACTS",
    "MEMORIES",
    "RECALLED",
    "SUMMARIES",
    "Context",
    "ContextBudget",
    "Section",
    "TokenCounts",
    "assemble",
    "group_turns",
    "rank_facts",
]

# Priorities of the memory sections (lower first): who gets the budget when there is not room for all.
ABOUT = 0  # what the user asked the bot to keep in mind
FACTS = 1
MEMORIES = 2  # the pipeline's sections: agent memories, the profile or digest
SUMMARIES = 3
RECALLED = 4


@dataclass(frozen=True, slots=True)
class Section:
    """A titled block of lines for the system message: ``share`` is what it adds to the allowance of the
    memory sections, ``priority`` when it is served from it (see the module doc).

    Pipeline steps contribute them (profiles, digests, agent memories); :func:`assemble` fits them in.
    """

    title: str
    lines: list[str] = field(default_factory=list)
    share: float = 0.1
    priority: int = MEMORIES


@dataclass(frozen=True, slots=True)
class ContextBudget:
    """What the built-in sections add to the allowance of the memory sections, as shares of the budget
    (the pipeline's sections add their own; what the sections leave goes to recent messages)."""

    summaries: float = 0.15
    facts: float = 0.15
    recalled: float = 0.15


ABOUT_THE_QUERY = 0.75
"""A fact whose search score is at least this share of the best fact's is one the query is about."""
IMPORTANCE_OF_RELEVANCE = 2.0
"""What relevance to the query (the search score over the best one's, 0–1) adds to importance (1–5)."""
DECAY = 1.5
"""What a fact neither recalled nor shown for ``memory_decay_days`` loses against importance."""


def rank_facts(
    facts: Sequence[Fact], relevance: Mapping[int, float], *, now: datetime, decay_days: float | None
) -> list[Fact]:
    """Facts in the order ``context()`` gives them its budget.

    ``relevance`` maps fact ids to their search score for the query over the best fact's (0–1; absent:
    not found). The facts the query is about (at least :data:`ABOUT_THE_QUERY`) come first, the others
    after them; within each group by importance (1–5) plus :data:`IMPORTANCE_OF_RELEVANCE` × relevance,
    less :data:`DECAY` for a fact neither recalled nor shown for ``decay_days`` days (since its creation,
    when never; 0 or None: no decay). Ties keep the given order."""
    cutoff = None if not decay_days else now - timedelta(days=decay_days)

    def key(indexed: tuple[int, Fact]) -> tuple[bool, float, int]:
        i, f = indexed
        relevant = relevance.get(f.id, 0.0)
        worth = f.importance + IMPORTANCE_OF_RELEVANCE * relevant
        if cutoff is not None and (f.last_accessed_at or f.created_at) < cutoff:
            worth -= DECAY
        return relevant < ABOUT_THE_QUERY, -worth, i

    return [f for _, f in sorted(enumerate(facts), key=key)]


@dataclass(slots=True)
class Context:
    """The assembled conversation context: ready to hand to a chat model with :meth:`to_messages`."""

    system_prompt: str
    summaries: list[Summary]
    facts: list[Fact]
    recalled: list[Hit]
    messages: list[Message]
    budget: int
    encoding: str
    tokens: int = 0
    dropped_messages: int = 0
    extra_sections: list[tuple[str, list[str]]] = field(default_factory=list)
    """Sections added by the pipeline (profile, digest, agent memories ...), before the built-in ones."""
    section_priorities: dict[str, int] = field(default_factory=dict, repr=False)
    """The priority of each of ``extra_sections``, by title (which goes first when the budget is short)."""

    def system_text(self) -> str:
        """The system message: the prompt followed by one titled section per kind of memory."""
        return render_system(self.system_prompt, self._sections())

    def _sections(self) -> list[tuple[str, list[str]]]:
        sections = list(self.extra_sections)
        if self.summaries:
            sections.append(("Summary of earlier conversation", [_summary_line(s) for s in self.summaries]))
        if self.facts:
            sections.append(("Remembered facts", [_fact_line(f) for f in self.facts]))
        if self.recalled:
            sections.append(("Related from past conversations", [_hit_line(h) for h in self.recalled]))
        return sections

    def to_messages(self) -> list[dict[str, Any]]:
        """The request for an OpenAI-style chat API: one system message, then the recent messages."""
        out: list[dict[str, Any]] = []
        system = self.system_text()
        if system:
            out.append({"role": "system", "content": system})
        out.extend(m.to_openai() for m in self.messages)
        return out


class TokenCounts:
    """Token counts already made, so that ``context()`` does not tokenize the same recent messages and
    memory lines again on every call. Messages are keyed by id and text (their content never changes);
    lines by their text. Bounded: emptied when it holds ``maxsize`` entries. Shared by threads: a race
    costs at most a second count."""

    def __init__(self, tokenizer: Tokenizer, maxsize: int = 50_000) -> None:
        self.tokenizer = tokenizer
        self.maxsize = maxsize
        self._texts: dict[str, int] = {}
        self._messages: dict[tuple[int, str, str, str | None, str | None], int] = {}

    def text(self, text: str) -> int:
        """Tokens of ``text``."""
        count = self._texts.get(text)
        if count is None:
            count = self.tokenizer.count(text)
            if len(self._texts) >= self.maxsize:
                self._texts.clear()
            self._texts[text] = count
        return count

    def message(self, m: Message) -> int:
        """Tokens of ``m`` as one chat message (``tokenizer.count_message(m.to_openai())``)."""
        if m.tool_calls:
            return self.tokenizer.count_message(m.to_openai())
        key = (m.id, m.role, m.content, m.name, m.tool_call_id)
        count = self._messages.get(key)
        if count is None:
            count = self.tokenizer.count_message(m.to_openai())
            if len(self._messages) >= self.maxsize:
                self._messages.clear()
            self._messages[key] = count
        return count


def render_system(prompt: str, sections: Sequence[tuple[str, Sequence[str]]]) -> str:
    """The system prompt with ``## title`` sections of ``- item`` lines appended."""
    parts = [prompt] if prompt else []
    for title, lines in sections:
        if lines:
            parts.append(f"## {title}\n" + "\n".join(f"- {line}" for line in lines))
    return "\n\n".join(parts)


def _summary_line(s: Summary) -> str:
    return s.content.strip()


def _fact_line(f: Fact) -> str:
    about = f" (about {f.subject})" if f.subject else ""
    text = " ".join(f.content.split())  # one line: a fact's text cannot open a section of its own
    if f.visibility == "shared" and f.owner is not None:
        # Written by a user for everyone: attributed and quoted, so the model reads it as that user's words
        # (data), never as an instruction of the prompt.
        return f'[{f.category}] shared by {f.owner}: "{text.replace(chr(34), chr(39))}"{about}'
    # A user's private fact is personal: seen only by its owner (the memorial design's tag). The agent's own
    # facts carry no tag.
    personal = " (personal)" if f.owner is not None else ""
    return f"[{f.category}] {text}{about}{personal}"


def _hit_line(h: Hit) -> str:
    who = f"{h.user}: " if h.user else ""
    return f"[{h.created_at:%Y-%m-%d}] {who}{h.text.strip()}"


def group_turns(messages: Sequence[Message]) -> list[list[Message]]:
    """Split messages into units that must stay together: an assistant message with tool calls and the
    tool results that answer it form one unit; every other message is a unit of its own.

    Tool results whose call is not in ``messages`` are dropped (they would be orphans), and so is a call
    whose results are not all there: chat APIs reject a tool call without its answer.
    """
    units: list[list[Message]] = []
    open_calls: dict[str, list[Message]] = {}
    for msg in messages:
        if msg.role == "tool":
            unit = open_calls.get(msg.tool_call_id or "")
            if unit is not None:
                unit.append(msg)
            continue
        unit = [msg]
        units.append(unit)
        if msg.role == "assistant" and msg.tool_calls:
            for call in msg.tool_calls:
                open_calls[str(call.get("id"))] = unit
    return [unit for unit in units if _answered(unit)]


def _answered(unit: list[Message]) -> bool:
    head = unit[0]
    if head.role != "assistant" or not head.tool_calls:
        return True
    answered = {m.tool_call_id for m in unit[1:]}
    return all(str(call.get("id")) in answered for call in head.tool_calls)


def assemble(
    *,
    tokenizer: Tokenizer,
    budget: int,
    system_prompt: str,
    summaries: Sequence[Summary],
    facts: Sequence[Fact],
    recalled: Sequence[Hit],
    recent: Sequence[Message],
    shares: ContextBudget | None = None,
    extra_sections: Sequence[Section] = (),
    counts: TokenCounts | None = None,
    pinned: Sequence[Message] = (),
) -> Context:
    """Fit the pieces into ``budget`` tokens, most recent messages first. ``counts`` keeps token counts
    between calls (it must use ``tokenizer``). ``pinned`` messages (older than ``recent``, in order: the
    thread's system messages) are kept ahead of the recent ones, newest first while they fit, and go only
    after every recent turn has gone.

    Raises:
        InvalidInput: the system prompt alone (with the request framing) exceeds the budget.
    """
    shares = shares or ContextBudget()
    counted = counts if counts is not None else TokenCounts(tokenizer)
    ctx = Context(
        system_prompt=system_prompt,
        summaries=[],
        facts=[],
        recalled=[],
        messages=[],
        budget=budget,
        encoding=tokenizer.encoding,
    )
    shared = shares.summaries + shares.facts + shares.recalled + sum(s.share for s in extra_sections)
    filler = _SectionFiller(counted, budget, used=_framing_cost(tokenizer, ctx, budget), allowance=int(budget * shared))
    _fill_sections(ctx, filler, summaries, facts, recalled, extra_sections)
    # Messages are counted one by one (a request's count is the sum of its messages' counts), on top of
    # the exact count of everything chosen so far.
    used = tokenizer.count_messages(ctx.to_messages())
    held, used, held_sizes = _fit_pinned(pinned, counted, used, budget)
    kept, sizes = _fit_recent(recent, counted, used, budget)
    sizes.update(held_sizes)
    ctx.messages = held + _flatten(kept)
    _trim_to_budget(ctx, kept, sizes, tokenizer, held)
    ctx.dropped_messages = len(recent) - (len(ctx.messages) - len(held))
    return ctx


def _fit_pinned(
    pinned: Sequence[Message], counted: TokenCounts, used: int, budget: int
) -> tuple[list[Message], int, dict[int, int]]:
    """The newest pinned messages that fit on top of ``used`` tokens (in order), the tokens then used, and
    their sizes."""
    held: list[Message] = []
    sizes: dict[int, int] = {}
    for m in reversed(pinned):
        sizes[m.id] = counted.message(m)
        if used + sizes[m.id] > budget:
            break
        held.insert(0, m)
        used += sizes[m.id]
    return held, used, sizes


def _framing_cost(tokenizer: Tokenizer, ctx: Context, budget: int) -> int:
    """Tokens the request takes before any memory or message: the system prompt and the chat framing.

    Raises:
        InvalidInput: that alone exceeds ``budget``.
    """
    base = tokenizer.count_messages(ctx.to_messages()) if ctx.system_prompt else 3
    if base > budget:
        raise InvalidInput(
            f"a budget of {budget} tokens cannot hold the request: the system prompt and the chat framing "
            f"alone need {base}"
        )
    return base + (0 if ctx.system_prompt else 4)  # a system message costs its framing


class _SectionFiller:
    """Chooses the lines of each section from what is left of the sections' allowance, keeping a running
    total."""

    def __init__(self, counted: TokenCounts, budget: int, used: int, allowance: int) -> None:
        self.counted = counted
        self.budget = budget
        self.used = used
        self.left = allowance

    def take(self, items: Sequence[Any], line: Callable[[Any], str], title: str) -> list[Any]:
        """The items (in order) whose lines fit both what is left of the allowance and of the budget."""
        spent = self.counted.text(f"\n\n## {title}\n") if items else 0
        chosen: list[Any] = []
        for item in items:
            cost = self.counted.text(f"- {line(item)}\n")
            if spent + cost > self.left or self.used + spent + cost > self.budget:
                continue
            chosen.append(item)
            spent += cost
        if chosen:
            self.used += spent
            self.left -= spent
        return chosen


def _fill_sections(
    ctx: Context,
    filler: _SectionFiller,
    summaries: Sequence[Summary],
    facts: Sequence[Fact],
    recalled: Sequence[Hit],
    extra_sections: Sequence[Section],
) -> None:
    """Fill the sections in order of priority (see the module doc); the pipeline's keep their given order."""
    built_in: list[tuple[int, str, Sequence[Any], Callable[[Any], str]]] = [
        (FACTS, "Remembered facts", facts, _fact_line),
        (SUMMARIES, "Summary of earlier conversation", summaries, _summary_line),
        (RECALLED, "Related from past conversations", recalled, _hit_line),
    ]
    queue = [(s.priority, s.title, s.lines, str) for s in extra_sections] + built_in
    chosen: dict[str, list[Any]] = {}
    for _, title, items, line in sorted(queue, key=lambda entry: entry[0]):  # stable: equal priorities keep order
        chosen[title] = filler.take(items, line, title)
    for section in extra_sections:
        if chosen[section.title]:
            ctx.extra_sections.append((section.title, chosen[section.title]))
            ctx.section_priorities[section.title] = section.priority
    ctx.facts = chosen["Remembered facts"]
    ctx.summaries = chosen["Summary of earlier conversation"]
    ctx.recalled = chosen["Related from past conversations"]


def _fit_recent(
    recent: Sequence[Message], counted: TokenCounts, used: int, budget: int
) -> tuple[list[list[Message]], dict[int, int]]:
    """The newest turns that fit on top of ``used`` tokens (newest first), and each counted message's size.

    Each message is counted once; the exact final count reuses these sizes.
    """
    kept: list[list[Message]] = []
    sizes: dict[int, int] = {}
    for unit in reversed(group_turns(recent)):
        for m in unit:
            sizes[m.id] = counted.message(m)
        cost = sum(sizes[m.id] for m in unit)
        if used + cost > budget:
            break
        kept.append(unit)
        used += cost
    return kept, sizes


def _flatten(kept: list[list[Message]]) -> list[Message]:
    """The kept turns (newest first) as messages in chronological order."""
    return [m for unit in reversed(kept) for m in unit]


def _exact_tokens(ctx: Context, tokenizer: Tokenizer, sizes: dict[int, int]) -> int:
    """``tokenizer.count_messages(ctx.to_messages())``, without re-tokenizing the messages."""
    system = ctx.system_text()
    head = tokenizer.count_message({"role": "system", "content": system}) if system else 0
    return REPLY_PRIMING + head + sum(sizes[m.id] for m in ctx.messages)


def _trim_to_budget(
    ctx: Context,
    kept: list[list[Message]],
    sizes: dict[int, int],
    tokenizer: Tokenizer,
    held: list[Message] | None = None,
) -> None:
    """Count the final request exactly and drop the least valuable pieces until it fits ``ctx.budget``:
    the oldest turns first, then the pinned messages (oldest first), then the memory sections' lines from
    the lowest priority up (recalled items, summaries, the pipeline's sections, facts, the user's own), the
    last line of each first."""
    held = held if held is not None else []
    ctx.tokens = _exact_tokens(ctx, tokenizer, sizes)
    while ctx.tokens > ctx.budget:
        if kept:
            kept.pop()  # the oldest unit
            ctx.messages = held + _flatten(kept)
        elif held:
            held.pop(0)
            ctx.messages = list(held)
        elif not _drop_lowest_line(ctx):  # pragma: no cover - base <= budget was checked above
            break
        ctx.tokens = _exact_tokens(ctx, tokenizer, sizes)


def _drop_lowest_line(ctx: Context) -> bool:
    """Drop the last line of the memory section of lowest priority (of equal ones, the last shown); False
    when no line is left."""
    n = len(ctx.extra_sections)
    slots: list[tuple[int, int, list[Any]]] = [
        (ctx.section_priorities.get(title, MEMORIES), i, lines) for i, (title, lines) in enumerate(ctx.extra_sections)
    ]
    slots += [(SUMMARIES, n, ctx.summaries), (FACTS, n + 1, ctx.facts), (RECALLED, n + 2, ctx.recalled)]
    filled = [slot for slot in slots if slot[2]]
    if not filled:
        return False
    _, index, lines = max(filled, key=lambda slot: (slot[0], slot[1]))
    lines.pop()
    if index < n and not lines:
        del ctx.extra_sections[index]
    return True
