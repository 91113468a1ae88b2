"""``memlane chat``: a REPL that talks to the configured LLM with memory, and its slash commands.

Each turn stores the user's line, assembles the context (profile, memories, summaries, facts, recalled and
recent messages within the budget), streams the model's answer to the terminal and stores it. Without an
LLM the REPL says so, stores what is typed, and every slash command still works. It reads lines from stdin,
so it can be scripted (``printf 'hi\\n/facts\\n' | memlane chat``).
"""

from __future__ import annotations

import secrets
import sys
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.console import Console, RenderableType
from rich.panel import Panel
from rich.text import Text

from memlane import Memory
from memlane.errors import MemlaneError, ProviderError
from memlane.validation import check_optional_key

from .render import console, context_view, facts_table, hits_table, messages_table, plural, threads_table
from .state import get_state

if TYPE_CHECKING:  # the LLM layer and the pipeline load when a chat starts, not with every command
    from memlane.llm import ChatMessage

__all__ = ["DEFAULT_SYSTEM_PROMPT", "ChatSession", "chat"]

DEFAULT_SYSTEM_PROMPT = (
    "You are a helpful assistant with long-term memory. Use what you remember about the user when it helps, "
    "and never invent memories."
)

NO_LLM_NOTICE = (
    "No LLM is configured, so nobody will answer: what you type is stored, and every /command works.\n"
    "To chat, set MEMLANE_LLM_PROVIDER (openai, ollama or anthropic) and MEMLANE_LLM_MODEL, plus "
    "MEMLANE_LLM_API_KEY (OpenAI, Anthropic) or MEMLANE_LLM_BASE_URL (Ollama, other OpenAI-compatible "
    "servers). See 'Configuration' in the README, and docs/llm.md."
)

HELP = [
    ("/sessions", "list recent conversations"),
    ("/load ID", "continue a conversation"),
    ("/history [N]", "this conversation's messages (the last N)"),
    ("/clear", "start a fresh conversation; the current one stays stored"),
    ("/forget", "delete this conversation from memory"),
    ("/forget FACT_ID", "forget one of your facts"),
    ("/save", "say where the conversation is stored (every message is saved as it is sent)"),
    ("/remember TEXT", "remember a fact about you"),
    ("/recall QUERY", "what memory finds for QUERY"),
    ("/context", "the context the model gets next, section by section"),
    ("/facts", "the facts you may see"),
    ("/profile", "what the agent knows about you"),
    ("/memories", "the agent's memories of ended conversations"),
    ("/end", "end this conversation (a memory of it is made) and start a new one"),
    ("/help", "this list"),
    ("/quit", "leave (also /exit, Ctrl-D)"),
]


def _new_thread_key() -> str:
    return f"chat-{datetime.now(UTC):%Y%m%d-%H%M%S}-{secrets.token_hex(2)}"


def _chat_messages(messages: Sequence[dict[str, Any]]) -> list[ChatMessage]:
    """The context's OpenAI-style messages as chat messages (tool calls and results are left out)."""
    from memlane.llm import ChatMessage

    out: list[ChatMessage] = []
    for m in messages:
        content = m.get("content")
        if m.get("role") in ("system", "user", "assistant") and isinstance(content, str) and content.strip():
            out.append(ChatMessage(m["role"], content))
    return out


class ChatSession:
    """One REPL session over ``mem``: reads lines with ``read_line`` (None ends), prints to ``out``."""

    def __init__(
        self,
        mem: Memory,
        *,
        read_line: Callable[[], str | None],
        out: Console,
        thread: str | None = None,
        user: str | None = None,
        system_prompt: str | None = None,
        budget: int | None = None,
    ) -> None:
        self.mem = mem
        self.read_line = read_line
        self.out = out
        self.thread = thread or _new_thread_key()
        self.user = user
        self.system_prompt = system_prompt
        self.budget = budget
        self.commands: dict[str, Callable[[str], bool | None]] = {
            "/sessions": self.sessions,
            "/load": self.load,
            "/history": self.history,
            "/clear": self.clear,
            "/forget": self.forget,
            "/save": self.save,
            "/remember": self.remember,
            "/recall": self.recall,
            "/context": self.context,
            "/facts": self.facts,
            "/profile": self.profile,
            "/memories": self.memories,
            "/end": self.end,
            "/help": self.help,
            "/quit": self.quit,
            "/exit": self.quit,
        }

    # -- the loop -------------------------------------------------------------------------------------
    def run(self) -> None:
        """Greet, then handle lines until /quit or the end of input."""
        if self.system_prompt is not None:
            self.mem.set_thread(self.thread, system_prompt=self.system_prompt)
        llm = self.mem.llm
        who = f" as {self.user}" if self.user else ""
        self.say(f"memlane chat: agent {self.mem.agent}, conversation {self.thread}{who}. /help lists the commands.")
        if llm is None:
            self.out.print(Text(NO_LLM_NOTICE, style="yellow"))
        else:
            self.say(f"Talking to {llm.model}.", style="dim")
        while True:
            line = self.read_line()
            if line is None:
                break
            text = line.strip()
            if not text:
                continue
            if text.startswith("/"):
                if self.command(text) is False:
                    break
            else:
                self.guard(self.turn, text)
        self.say("Bye.", style="dim")

    def command(self, text: str) -> bool | None:
        """Run a slash command; False means leave."""
        name, _, arg = text.partition(" ")
        handler = self.commands.get(name.lower())
        if handler is None:
            self.say(f"Unknown command {name}; /help lists the commands.", style="red")
            return None
        return self.guard(handler, arg.strip())

    def guard(self, action: Callable[[str], bool | None], arg: str) -> bool | None:
        """``action(arg)``; a memlane error is printed (and None returned), and the session goes on."""
        try:
            return action(arg)
        except MemlaneError as exc:
            self.say(f"error: {' '.join(str(exc).split()) or type(exc).__name__}", style="red")
            return None

    def say(self, text: str, style: str = "") -> None:
        """Print one line of plain text (never read as markup)."""
        self.out.print(Text(text, style=style))

    def show(self, *parts: RenderableType) -> None:
        """Print rich renderables."""
        for part in parts:
            self.out.print(part)

    # -- a turn ---------------------------------------------------------------------------------------
    def turn(self, text: str) -> None:
        """Store the line; with an LLM, stream its answer with memory and store that too."""
        self.mem.add_message(self.thread, "user", text, user=self.user)
        llm = self.mem.llm
        if llm is None:
            self.say("(stored; no LLM is configured, so nobody answers)", style="dim")
            return
        info = self.mem.store.get_thread(self.mem.agent, self.thread)
        prompt = self.system_prompt or (info.system_prompt if info else None) or DEFAULT_SYSTEM_PROMPT
        ctx = self.mem.context(self.thread, query=text, user=self.user, budget=self.budget, system_prompt=prompt)
        pieces: list[str] = []
        problem: str | None = None
        stream = llm.stream(_chat_messages(ctx.to_messages()), operation="chat", agent=self.mem.agent)
        try:
            for delta in stream:
                pieces.append(delta)
                self.out.print(Text(delta, style="cyan"), end="")
                self.out.file.flush()
        except ProviderError as exc:
            problem = " ".join(str(exc).split()) or type(exc).__name__
        except KeyboardInterrupt:
            problem = "interrupted"
        finally:
            stream.close()
            self.out.print()
        answer = "".join(pieces)
        if answer.strip():
            metadata = {"interrupted": problem} if problem else None
            self.mem.add_message(self.thread, "assistant", answer, metadata=metadata)
        if problem:
            self.say(f"error: the model did not finish: {problem}", style="red")

    # -- commands -------------------------------------------------------------------------------------
    def sessions(self, arg: str) -> None:
        """/sessions [N]"""
        threads = self.mem.threads(limit=int(arg) if arg.isdigit() else 20)
        if not threads:
            self.say("No conversations stored yet.")
            return
        self.show(threads_table(threads))
        self.say(f"Current: {self.thread}", style="dim")

    def load(self, arg: str) -> None:
        """/load ID"""
        if not arg:
            self.say("Usage: /load ID (see /sessions)", style="red")
            return
        if self.mem.store.get_thread(self.mem.agent, arg) is None:
            self.say(f"No conversation {arg!r}; /sessions lists them.", style="red")
            return
        self.thread = arg
        recent = self.mem.history(arg, limit=10)
        self.say(f"Continuing {arg}.")
        if recent:
            self.show(messages_table(recent, title="Last messages"))

    def history(self, arg: str) -> None:
        """/history [N]"""
        messages = self.mem.history(self.thread, limit=int(arg) if arg.isdigit() else None)
        if not messages:
            self.say(f"No messages in {self.thread} yet.")
            return
        self.show(messages_table(messages, title=self.thread))

    def clear(self, arg: str) -> None:
        """/clear"""
        old, self.thread = self.thread, _new_thread_key()
        self.say(f"Started {self.thread}. {old} stays stored: /load {old} to go back.")

    def forget(self, arg: str) -> None:
        """/forget, or /forget FACT_ID"""
        if arg:
            if not arg.isdigit():
                self.say("Usage: /forget (this conversation) or /forget FACT_ID", style="red")
                return
            fact = self.mem.forget(int(arg), user=self.user)
            self.say(f"Forgot fact #{fact.id}: {fact.content}")
            return
        old, self.thread = self.thread, _new_thread_key()
        if self.mem.store.get_thread(self.mem.agent, old) is None:
            self.say(f"Nothing of {old} was stored. Now in {self.thread}.")
            return
        self.mem.delete_thread(old)
        self.say(f"Deleted {old} and its messages from memory. Now in {self.thread}.")

    def save(self, arg: str) -> None:
        """/save"""
        count = len(self.mem.history(self.thread))
        self.say(f"{self.thread}: {plural(count, 'message')} stored in {self.mem.store.location} (saved as sent).")

    def remember(self, arg: str) -> None:
        """/remember TEXT"""
        if not arg:
            self.say("Usage: /remember TEXT", style="red")
            return
        fact = self.mem.remember(arg, user=self.user, thread=self.thread)
        owner = fact.owner if fact.owner is not None else "the agent"
        self.say(f"Remembered fact #{fact.id} (owner {owner}).")

    def recall(self, arg: str) -> None:
        """/recall QUERY"""
        if not arg:
            self.say("Usage: /recall QUERY", style="red")
            return
        hits = self.mem.recall(arg, user=self.user)
        if hits:
            self.show(hits_table(hits, title=f"Recall: {arg}", max_chars=300))
        else:
            self.say("Nothing relevant found (hits below the relevance floor are left out).")

    def context(self, arg: str) -> None:
        """/context"""
        info = self.mem.store.get_thread(self.mem.agent, self.thread)
        prompt = self.system_prompt or (info.system_prompt if info else None) or DEFAULT_SYSTEM_PROMPT
        ctx = self.mem.context(self.thread, user=self.user, budget=self.budget, system_prompt=prompt)
        parts = context_view(ctx)
        extra = [
            Panel(Text("\n".join(f"• {line}" for line in lines)), title=title, title_align="left")
            for title, lines in ctx.extra_sections
        ]
        self.show(*parts[:1], *extra, *parts[1:])

    def facts(self, arg: str) -> None:
        """/facts"""
        found = self.mem.facts(self.user)
        if found:
            self.show(facts_table(found, title=f"Facts {self.user or 'the agent'} may see"))
        else:
            self.say("No facts yet; /remember TEXT adds one.")

    def profile(self, arg: str) -> None:
        """/profile"""
        if self.user is None:
            self.say("Start the chat with --user NAME to have a profile.")
            return
        from memlane.pipeline.profile import profile_of

        text = profile_of(self.mem, self.user)
        self.say(text if text else f"Nothing is known about {self.user} yet.")

    def memories(self, arg: str) -> None:
        """/memories"""
        from memlane.pipeline.memories import format_memory, visible_memories

        found = visible_memories(self.mem, self.user)
        if not found:
            self.say("No memories yet; /end makes one of this conversation.")
            return
        for s in found:
            self.say(f"#{s.id} {format_memory(s)}")

    def end(self, arg: str) -> None:
        """/end"""
        if self.mem.store.get_thread(self.mem.agent, self.thread) is None:
            self.say("Nothing to end: this conversation has no messages yet.")
            return
        old = self.mem.end(self.thread).key
        self.thread = _new_thread_key()
        if self.mem.settings.worker != "thread":  # worker = none: another process runs the jobs
            self.say(f"Ended {old}; a memory of it is queued (run `memlane worker`). Now in {self.thread}.")
            return
        self.say(f"Ended {old}; making a memory of it ...", style="dim")
        ran = self.mem.run_jobs()  # here and now, so /memories shows it at once
        self.say(f"Done ({plural(ran, 'job')} run). Now in {self.thread}.")

    def help(self, arg: str) -> None:
        """/help"""
        width = max(len(name) for name, _ in HELP)
        for name, what in HELP:
            self.say(f"{name.ljust(width)}  {what}")
        self.say("Any other line is your message.", style="dim")

    def quit(self, arg: str) -> bool:
        """/quit"""
        return False


def _read_line() -> str | None:
    """One line from stdin (with line editing on a terminal); None at the end of input."""
    try:
        if sys.stdin.isatty():
            return input("you> ")
        line = sys.stdin.readline()
    except (EOFError, KeyboardInterrupt):
        return None
    return None if line == "" else line.rstrip("\r\n")


def chat(
    ctx: typer.Context,
    thread: Annotated[
        str | None, typer.Option("--thread", "-t", help="Conversation to continue or start; default: a new one.")
    ] = None,
    user: Annotated[
        str | None, typer.Option("--user", "-u", help="Who you are: your facts, profile and threads.")
    ] = None,
    system_prompt: Annotated[
        str | None, typer.Option("--system-prompt", help="System prompt for this conversation (stored with it).")
    ] = None,
    budget: Annotated[
        int | None, typer.Option("--budget", "-b", help="Token budget of each request; default: max_history_tokens.")
    ] = None,
) -> None:
    """Chat with the configured LLM, with memory; slash commands manage it (/help lists them).

    Without an LLM (MEMLANE_LLM_PROVIDER unset) what you type is stored and every command still works.
    The background jobs (summaries, facts, the memory /end makes) run in this process; with
    MEMLANE_WORKER=none they wait for `memlane worker` instead.

    Examples:

        MEMLANE_LLM_PROVIDER=ollama MEMLANE_LLM_MODEL=llama3.2 memlane chat --user alice

        memlane --db bot.db chat --thread support-42 --user bob

        printf '/remember I like tea\\n/facts\\n' | memlane chat --user alice
    """
    check_optional_key(thread, "thread")
    check_optional_key(user, "user")
    state = get_state(ctx)
    # Unlike one-shot commands, the chat runs the background jobs (summaries, facts, memories) itself, in a
    # worker thread, unless the worker setting is "none" (then `memlane worker` does).
    with state.open(worker=None) as mem:
        ChatSession(
            mem,
            read_line=_read_line,
            out=console(),
            thread=thread,
            user=user,
            system_prompt=system_prompt,
            budget=budget,
        ).run()
