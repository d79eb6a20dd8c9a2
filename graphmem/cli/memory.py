"""`graphmem remember|recall|history|conflicts`: the memory operations from a shell.

Each command opens one Runtime from the settings, runs one GraphMem operation on the space
given (the default space otherwise) and prints what the Python API's `str()` gives.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import datetime
from functools import wraps
from typing import TYPE_CHECKING, Annotated, Any, TypeVar

import typer

from graphmem.errors import GraphMemError, InvalidInput
from graphmem.settings import load_settings

if TYPE_CHECKING:  # the driver and the models load only when a command runs
    from graphmem.service.memory import GraphMem
    from graphmem.model import Conflict

F = TypeVar("F", bound=Callable[..., Any])
SpaceOption = Annotated[str | None, typer.Option(
    "--space", help="tenant/user/agent/run (missing parts default); default: the default space.")]


def _clean(fn: F) -> F:
    @wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except GraphMemError as e:
            typer.echo(f"error: {e}", err=True)
            raise typer.Exit(1) from None

    return wrapper  # type: ignore[return-value]


@contextmanager
def _mem(space: str | None) -> Iterator[GraphMem]:
    from graphmem.service.memory import GraphMem

    with GraphMem(space, settings=load_settings()) as mem:
        yield mem


def _when(text: str | None) -> datetime | None:
    if text is None:
        return None
    try:
        at = datetime.fromisoformat(text)
    except ValueError:
        raise InvalidInput(f"--as-of {text!r} is not an ISO 8601 time") from None
    if at.tzinfo is None:
        raise InvalidInput("--as-of needs a timezone, e.g. 2026-03-01T00:00:00+00:00")
    return at


def _conflict_line(c: Conflict) -> str:
    facts = ", ".join(f"#{f}" for f in c.fact_ids)
    note = f" — {c.note}" if c.note else ""
    return f"{c.id} [{c.status.value}] {c.kind.value} ({c.severity}): {facts}{note}"


@_clean
def remember_command(
    text: Annotated[str, typer.Argument(help="A message, e.g. 'we moved to Postgres'.")],
    space: SpaceOption = None,
    source: Annotated[str, typer.Option(help="Who asserts it (e.g. crm).")] = "",
) -> None:
    """Extract facts from a message (one LLM call) and reconcile them."""
    with _mem(space) as mem:
        for result in mem.remember(text, source=source):
            typer.echo(str(result))


@_clean
def recall_command(
    question: Annotated[str, typer.Argument(help="A question about the space's facts.")],
    space: SpaceOption = None,
    explain: Annotated[bool, typer.Option(help="List the facts behind the answer.")] = False,
    as_of: Annotated[str | None, typer.Option(
        "--as-of", help="Answer from what memory held then (ISO 8601 with timezone).")] = None,
    history: Annotated[bool, typer.Option(help="Add retired facts, tagged (history).")] = False,
) -> None:
    """Answer a question from the facts (one LLM call; the ranked facts without an LLM)."""
    with _mem(space) as mem:
        typer.echo(str(mem.recall(question, explain=explain, include_history=history,
                                  as_of=_when(as_of))))


@_clean
def history_command(
    subject: Annotated[str, typer.Argument(help="A subject, e.g. primary_database.")],
    space: SpaceOption = None,
) -> None:
    """One subject's timeline, oldest to newest."""
    with _mem(space) as mem:
        typer.echo(str(mem.history(subject)))


@_clean
def conflicts_command(
    space: SpaceOption = None,
    status: Annotated[str, typer.Option(
        help="open, resolved, dismissed or all.")] = "open",
) -> None:
    """The conflicts of a space (open ones by default)."""
    with _mem(space) as mem:
        found = mem.conflicts(None if status == "all" else status)
        if not found:
            typer.echo(f"No {'' if status == 'all' else status + ' '}conflicts.")
        for conflict in found:
            typer.echo(_conflict_line(conflict))
