"""`graphmem remember|recall|history|conflicts`: the memory operations from a shell.

Each command opens one Runtime from the settings, runs one GraphMem operation on the space
given (the default space otherwise) and prints what the Python API's `str()` gives.
"""

from __future__ import annotations

from typing import Annotated

import typer

from graphmem.cli.common import clean_errors, instant, open_memory
from graphmem.model import Conflict

SpaceOption = Annotated[str | None, typer.Option(
    "--space", help="tenant/user/agent/run (missing parts default); default: the default space.")]


def _conflict_line(c: Conflict) -> str:
    facts = ", ".join(f"#{f}" for f in c.fact_ids)
    note = f" — {c.note}" if c.note else ""
    return f"{c.id} [{c.status.value}] {c.kind.value} ({c.severity}): {facts}{note}"


@clean_errors
def remember_command(
    text: Annotated[str, typer.Argument(help="A message, e.g. 'we moved to Postgres'.")],
    space: SpaceOption = None,
    source: Annotated[str, typer.Option(help="Who asserts it (e.g. crm).")] = "",
) -> None:
    """Extract facts from a message (one LLM call) and reconcile them."""
    with open_memory(space) as mem:
        for result in mem.remember(text, source=source):
            typer.echo(str(result))


@clean_errors
def recall_command(
    question: Annotated[str, typer.Argument(help="A question about the space's facts.")],
    space: SpaceOption = None,
    explain: Annotated[bool, typer.Option(help="List the facts behind the answer.")] = False,
    as_of: Annotated[str | None, typer.Option(
        "--as-of", help="Answer from what memory held then (ISO 8601 with timezone).")] = None,
    history: Annotated[bool, typer.Option(help="Add retired facts, tagged (history).")] = False,
) -> None:
    """Answer a question from the facts (one LLM call; the ranked facts without an LLM)."""
    with open_memory(space) as mem:
        typer.echo(str(mem.recall(question, explain=explain, include_history=history,
                                  as_of=instant(as_of))))


@clean_errors
def history_command(
    subject: Annotated[str, typer.Argument(help="A subject, e.g. primary_database.")],
    space: SpaceOption = None,
) -> None:
    """One subject's timeline, oldest to newest."""
    with open_memory(space) as mem:
        typer.echo(str(mem.history(subject)))


@clean_errors
def conflicts_command(
    space: SpaceOption = None,
    status: Annotated[str, typer.Option(
        help="open, resolved, dismissed or all.")] = "open",
) -> None:
    """The conflicts of a space (open ones by default)."""
    with open_memory(space) as mem:
        found = mem.review.conflicts(None if status == "all" else status)
        if not found:
            typer.echo(f"No {'' if status == 'all' else status + ' '}conflicts.")
        for conflict in found:
            typer.echo(_conflict_line(conflict))
