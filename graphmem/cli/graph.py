"""`graphmem graph rebuild|sweep` and `graphmem fsck`: the entity graph's maintenance."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Annotated

import typer

from graphmem.cli.common import clean_errors, memory_in, open_runtime, spaces

if TYPE_CHECKING:
    from graphmem.service.memory import GraphMem

graph_app = typer.Typer(no_args_is_help=True, help="The entity graph projection.")
SpaceOption = Annotated[str | None, typer.Option(
    "--space", help="tenant/user/agent/run (missing parts default); default: every space.")]


@graph_app.command("rebuild")
@clean_errors
def rebuild(space: SpaceOption = None) -> None:
    """Rebuild every projection (entities' ABOUT and typed edges) from the Fact nodes."""
    _in_each(space, lambda mem: mem.entities.rebuild_projection())


@graph_app.command("sweep")
@clean_errors
def sweep(space: SpaceOption = None) -> None:
    """Attach placeholders (type unknown) to the one typed entity of the same name."""
    _in_each(space, lambda mem: mem.entities.sweep_placeholders())


def _in_each(space: str | None, work: Callable[[GraphMem], object]) -> None:
    """`work` in the space given, or in every space, one line of its result each."""
    with open_runtime() as runtime:
        for key in spaces(runtime, space):
            with memory_in(runtime, key) as mem:
                typer.echo(f"{mem.space.key}: {work(mem)}")


@clean_errors
def fsck_command(
    space: SpaceOption = None,
    strict: Annotated[bool, typer.Option(help="Near-duplicate entities fail the run too.")]
    = False,
) -> None:
    """Check the graph's invariants and report near-duplicate entities; exit 1 on a problem."""
    failed = False
    with open_runtime() as runtime:
        for key in spaces(runtime, space):
            with memory_in(runtime, key) as mem:
                report = mem.records.fsck(strict=strict)
            typer.echo(str(report))
            failed = failed or not report.ok
    if failed:
        raise typer.Exit(1)
