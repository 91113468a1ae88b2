"""The root ``memlane`` group: global options anywhere, one-line errors, and tidy help for every command.

Built once per run from whatever commands are registered on the app, so a command added later gets all of
this without code of its own:

* **Global options after the command name.** Each option of the root callback whose name is a field of
  :class:`~memlane.cli.state.CliState` (``--db``, ``--agent``, ``--config``, ``--json``) is copied into every
  sub-command and sub-group, shown there under "Global options". Given after the command name, it sets the
  same state the root callback set (``memlane stats --agent bot`` = ``memlane --agent bot stats``). A command
  that has an option of the same name or flag keeps its own (``db copy --agent``, ``db migrate --db``).
* **One-line errors.** A :class:`~memlane.errors.MemlaneError` and a usage error (unknown option, missing
  argument, bad value) both print one line, ``error: ...``, on stderr; usage errors exit with 2.
* **Help.** Boolean flags show no ``<bool>`` placeholder, docstring paragraphs wrapped in the source are
  joined, so the terminal wraps them (indented example lines are kept as they are), and an option's name is
  never cut short in a narrow terminal (its type and help wrap instead).
"""

from __future__ import annotations

import contextlib
import copy
import inspect
import os
import sys
from collections.abc import Iterator
from dataclasses import fields
from typing import Any

import typer
from rich.table import Table
from typer._click.core import ParameterSource
from typer._click.exceptions import ClickException, NoArgsIsHelpError, UsageError
from typer.core import TyperGroup

from memlane.errors import MemlaneError

from .exitcodes import USAGE_ERROR, exit_code_for
from .state import CliState

__all__ = ["GLOBAL_PANEL", "MemlaneGroup"]

GLOBAL_PANEL = "Global options"
_STATE_FIELDS = frozenset(f.name for f in fields(CliState))


class MemlaneGroup(TyperGroup):
    """The root group (see the module docstring)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        shared = [p for p in self.params if p.name in _STATE_FIELDS and isinstance(p, typer.core.TyperOption)]
        for path, command in _walk(self):
            _tidy_help(command)
            if path:  # every command and group below the root
                _add_global_options(command, shared)

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:  # Any: typer's context class is private
        """Parse the root options; a usage error there is one line too."""
        try:
            return super().parse_args(ctx, args)
        except ClickException as exc:
            _fail_usage(exc, ctx.command_path or "memlane")
            raise  # unreachable: _fail_usage raises

    def invoke(self, ctx: Any) -> Any:
        """Run the command; map errors to a one-line message on stderr and a typed exit code."""
        try:
            return super().invoke(ctx)
        except MemlaneError as exc:
            message = " ".join(str(exc).split()) or type(exc).__name__
            typer.echo(f"error: {message}", err=True)
            raise typer.Exit(exit_code_for(exc)) from None
        except ClickException as exc:
            where = " ".join(part for part in (ctx.command_path, ctx.invoked_subcommand) if part)
            _fail_usage(exc, where)
            raise  # unreachable
        except (OverflowError, RecursionError) as exc:  # input too large or too deep for a check to have caught
            typer.echo(f"error: the input is too large or too deeply nested ({type(exc).__name__})", err=True)
            raise typer.Exit(USAGE_ERROR) from None
        except (typer.Exit, typer.Abort, KeyboardInterrupt):
            raise
        except BrokenPipeError:  # the reader went away (`memlane ... | head`): nothing left to tell anyone
            with contextlib.suppress(OSError):
                sys.stdout = open(os.devnull, "w")  # noqa: SIM115 (so the exit's flush does not fail again)
            raise typer.Exit(0) from None
        except Exception as exc:  # a bug: one line, never a traceback (MEMLANE_DEBUG=1 shows it)
            if os.environ.get("MEMLANE_DEBUG"):
                raise
            message = " ".join(str(exc).split())[:300]
            typer.echo(f"error: internal error ({type(exc).__name__}: {message}); please report it", err=True)
            raise typer.Exit(1) from None


def _fail_usage(exc: ClickException, where: str) -> None:
    """Print a usage error as one ``error:`` line (with the command whose help to read) and exit; help
    itself passes. ``where`` is that command when the error does not say (an option missing its value)."""
    if isinstance(exc, NoArgsIsHelpError):  # `memlane`, `memlane db`: show the help, as asked
        raise exc
    message = " ".join(exc.format_message().split()) or type(exc).__name__
    context = getattr(exc, "ctx", None)
    if isinstance(exc, UsageError):
        message += f" (see '{context.command_path if context is not None else where} --help')"
    typer.echo(f"error: {message}", err=True)
    raise typer.Exit(USAGE_ERROR if isinstance(exc, UsageError) else exc.exit_code) from None


# -- the command tree -----------------------------------------------------------------------------------
def _walk(command: Any, path: tuple[str, ...] = ()) -> Iterator[tuple[tuple[str, ...], Any]]:
    yield path, command
    for name, sub in getattr(command, "commands", {}).items():
        yield from _walk(sub, (*path, name))


def _set_global(ctx: Any, param: Any, value: Any) -> Any:
    """Callback of a global option given after the command name: store it where the root callback did."""
    if ctx.resilient_parsing or ctx.get_parameter_source(param.name) in (None, ParameterSource.DEFAULT):
        return value
    state = ctx.find_object(CliState)
    if state is None:  # the command was invoked on its own, without the root group
        state = ctx.ensure_object(CliState)
    setattr(state, param.name, value)
    return value


def _add_global_options(command: Any, shared: list[Any]) -> None:
    """Copy the global options into ``command``, leaving out any name or flag it already uses."""
    names = {p.name for p in command.params}
    flags = {flag for p in command.params for flag in (*p.opts, *p.secondary_opts)}
    for option in shared:
        if option.name in names:
            continue
        free = [flag for flag in option.opts if flag not in flags]
        if not free:
            continue
        clone = copy.copy(option)
        clone.opts = free
        clone.secondary_opts = [flag for flag in option.secondary_opts if flag not in flags]
        clone.expose_value = False
        clone.callback = _set_global
        clone.is_eager = False
        clone.rich_help_panel = GLOBAL_PANEL
        command.params.append(clone)


def _no_type(ctx: Any) -> None:
    return None


def _tidy_help(command: Any) -> None:
    """Flags without a ``<bool>`` placeholder; source-wrapped docstring paragraphs joined."""
    params_of = command.get_params

    def get_params(ctx: Any) -> list[Any]:  # at help time: --help and typer's completion options are added late
        params = params_of(ctx)
        for param in params:
            if getattr(param, "is_flag", False):
                param.display_type_rich = _no_type
        return params

    command.get_params = get_params
    format_help = command.format_help

    def format_help_uncut(ctx: Any, formatter: Any) -> None:
        with _option_names_uncut():
            format_help(ctx, formatter)

    command.format_help = format_help_uncut
    if command.help:
        command.help = _reflow(command.help)


class _OptionsTable(Table):
    """A table whose columns but the last two (an option's type and help) never wrap: typer's options table
    shrinks its widest columns alike when the terminal is narrow, and cut ``--workers-in-process`` to
    ``--workers-in-pro…`` at 80 columns."""

    def add_row(self, *renderables: Any, **kwargs: Any) -> None:
        if not self.columns:  # typer's options table declares no columns: one per cell of its first row
            for index in range(len(renderables)):
                self.add_column(no_wrap=index < len(renderables) - 2)
        super().add_row(*renderables, **kwargs)


@contextlib.contextmanager
def _option_names_uncut() -> Iterator[None]:
    """While a help page is drawn, typer's options tables are :class:`_OptionsTable` (restored after)."""
    try:
        from typer import rich_utils
    except ImportError:  # typer without rich: click's plain help does not cut names
        yield
        return
    table = getattr(rich_utils, "Table", None)
    if table is not Table:  # another typer than the one this was written for: leave its help alone
        yield
        return
    rich_utils.Table = _OptionsTable  # type: ignore[misc]
    try:
        yield
    finally:
        rich_utils.Table = table  # type: ignore[misc]


def _reflow(text: str) -> str:
    """Join the lines of each paragraph, except paragraphs with indented lines (examples) or click's \\b."""
    paragraphs = inspect.cleandoc(text).split("\n\n")
    joined = []
    for paragraph in paragraphs:
        lines = paragraph.split("\n")
        if len(lines) > 1 and not any(line.startswith((" ", "\t", "\b")) for line in lines):
            paragraph = " ".join(line.strip() for line in lines)
        joined.append(paragraph)
    return "\n\n".join(joined)
